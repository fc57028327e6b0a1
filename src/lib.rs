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

// Tests compute their references with the platform's functions (compared within tolerances,
// never by bytes); the outputs go through `libm` (clippy.toml).
#![cfg_attr(test, allow(clippy::disallowed_methods))]
mod builder;
mod commands;
pub use commands::inspect;
/// `curvebake new`: curve files and project files to start from.
pub use commands::template as new;
/// `curvebake watch`: bake again whenever an input changes, and `--serve` the output folder.
#[cfg(feature = "watch")]
pub mod watch {
    pub use crate::commands::serve::Server;
    pub use crate::commands::watch::{watch, Inbox, Saves, WatchError, WatchEvent};
}
pub mod config;
mod options;
mod output;
mod run;

pub use builder::{Bake, Curve, RonError};
pub use config::Config;
pub use curvebake_model::bake::{BakeError, Baked};
pub use curvebake_model::error::{InputError, Problem};
/// A motion as validated from its file: its name, property, unit, timing and model.
pub use curvebake_model::spec;
/// Every motion in closed form: the `curvebake-motion` crate.
pub use curvebake_motion as motion;
pub use options::{BakeOptions, OptionError, MAX_JOBS, PLOT_SIDES};
pub use run::{FatalError, Report};

/// Removes the temporary files of the bakes in progress in this process (being written, not
/// yet moved into place); returns how many it removed. For a process about to end on a
/// signal, and only then: no bake of this process makes or moves a file after it (they wait
/// for good). What a bake already put in place is whole (outputs are replaced by renames), and
/// the next bake finishes the work.
pub fn remove_temporary_files() -> usize {
    output::folder::remove_live_temps()
}

/// The formats a bake writes, their settings and the layout of the output folder; and
/// [`joins::of_tracks`](export::joins::of_tracks), where each track of a baked motion is not smooth, with its position
/// and velocity on each side: what reading its frames between frames by cubic Hermite needs
/// (the JSON tables' `joins`; see the guide's "Reading tables between frames").
///
/// ```
/// use curvebake::Curve;
/// use curvebake::export::joins;
/// let ball = Curve::from_ron(
///     r#"(name: "ball", motion: Gravity(from: -250, velocity: 0, acceleration: 2400, to: 0, restitution: 0.5))"#,
/// )
/// .unwrap();
/// let baked = ball.bake().unwrap();
/// // [t, x before, v before, x after, v after]: the first impact, at √(500/2400) s.
/// let first = joins::of_tracks(&baked)[0][0];
/// assert!((first[0] - (500.0f64 / 2400.0).sqrt()).abs() < 1e-12);
/// assert!(first[2] > 0.0 && first[4] < 0.0);
/// ```
pub mod export {
    pub use curvebake_export::joins;
    pub use curvebake_export::{ExportSettings, Format, Layout};
}

/// The crate's insides, for tests, benchmarks and fuzz targets only:
/// not part of the public API, and free to change in any release.
#[doc(hidden)]
pub mod internals {
    pub mod bake {
        pub use curvebake_model::bake::*;
    }
    pub mod builder {
        pub use crate::builder::*;
    }
    pub use crate::commands::{inspect, template};
    #[cfg(feature = "watch")]
    pub use crate::commands::{serve, watch};
    pub mod error {
        pub use curvebake_model::error::*;
    }
    /// The exporters and their formats' modules.
    pub mod export {
        pub use curvebake_export::exporter::*;
        pub use curvebake_export::{css, done, exporters, html, joins, js, json, lottie, png};
    }
    pub use curvebake_model::intake;
    pub use curvebake_model::source::{plain_ron, schema};
    /// Finding, reading, parsing and validating curve files.
    pub mod load {
        pub use curvebake_model::load::*;
        pub use curvebake_model::source::*;
    }
    pub use crate::output::{bundle, folder, manifest, pool, write};
    pub mod pipeline {
        pub use crate::run::*;
    }
    pub mod spec {
        pub use curvebake_model::spec::*;
    }
}
