//! curvebake bakes physically based animation curves into lookup tables, CSS and plots.
//!
//! A build script bakes a folder with the same options as the CLI through [`Bake`]; one
//! motion is built from RON with [`Curve`]. Inside, the flow is input (read and parse curve
//! files) -> spec (validate into the model) -> [`motion`] (closed forms) -> bake (sample at a
//! fixed rate) -> [`export`] (one module per format, each returning bytes) -> output (the one
//! place that touches the output folder), driven by the run over windows of motions read as
//! the bake goes; `ARCHITECTURE.md` has the map.
//!
//! The [`motion`] module evaluates every motion in closed form:
//!
//! ```
//! use curvebake::motion::{Motion, Spring};
//! let spring = Spring::perceptual(0.0, 240.0, 0.0, 0.5, 0.2).unwrap();
//! let frames: Vec<f64> = (0..=30).map(|i| spring.position(i as f64 / 60.0)).collect();
//! assert_eq!(frames[0], 0.0);
//! ```

mod bake;
mod builder;
mod commands;
pub mod config;
mod error;
pub mod export;
mod input;
pub mod motion;
mod output;
mod run;
mod spec;

pub use bake::{BakeError, Baked};
pub use builder::{Bake, Curve, RonError};
pub use config::Config;
pub use error::{InputError, Problem};
pub use run::{BakeOptions, FatalError, Report};

/// The crate's insides, for the `curvebake` binary, tests, benchmarks and fuzz targets only:
/// not part of the public API, and free to change in any release.
#[doc(hidden)]
pub mod internals {
    pub mod bake {
        pub use crate::bake::*;
    }
    pub mod builder {
        pub use crate::builder::*;
    }
    pub use crate::commands::{inspect, template};
    #[cfg(feature = "watch")]
    pub use crate::commands::{serve, watch};
    pub mod error {
        pub use crate::error::*;
    }
    /// The exporters and their formats' modules.
    pub mod export {
        pub use crate::export::exporter::*;
        pub mod css {
            pub use crate::export::css::*;
        }
        pub mod done {
            pub use crate::export::done::*;
        }
        pub mod html {
            pub use crate::export::html::*;
        }
        pub mod js {
            pub use crate::export::js::*;
        }
        pub mod json {
            pub use crate::export::json::*;
        }
        pub mod png {
            pub use crate::export::png::*;
        }
    }
    pub use crate::input::{intake, load, plain_ron, schema};
    pub use crate::output::{bundle, folder, manifest, pool, write};
    pub mod pipeline {
        pub use crate::run::*;
    }
    pub mod spec {
        pub use crate::spec::*;
    }
}
