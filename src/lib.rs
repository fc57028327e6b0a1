//! curvebake bakes physically based animation curves into lookup tables, CSS and plots.
//!
//! The pipeline is load ([`load`]) -> validate ([`spec`]) -> bake ([`bake`]) -> export
//! ([`export`], one module per format, each returning bytes) -> write ([`mod@write`], the one place
//! that touches the output folder), driven by [`pipeline::run`] over windows of motions that
//! [`intake`] reads as the bake goes. A build script bakes a folder
//! with the same options as the CLI through [`Bake`]; one motion is built from RON with
//! [`Curve`].
//!
//! The [`motion`] module evaluates every motion in closed form:
//!
//! ```
//! use curvebake::motion::{Motion, Spring};
//! let spring = Spring::perceptual(0.0, 240.0, 0.0, 0.5, 0.2).unwrap();
//! let frames: Vec<f64> = (0..=30).map(|i| spring.position(i as f64 / 60.0)).collect();
//! assert_eq!(frames[0], 0.0);
//! ```

pub mod bake;
pub mod builder;
pub mod bundle;
pub mod error;
pub mod export;
pub mod format;
pub mod inspect;
pub mod intake;
pub mod load;
pub mod manifest;
pub mod motion;
pub mod pipeline;
pub mod plain_ron;
pub mod schema;
pub mod spec;
pub mod template;
#[cfg(feature = "watch")]
pub mod watch;
pub mod write;

pub use builder::{Bake, Curve};
