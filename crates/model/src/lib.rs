//! The model of a curvebake motion, from the file to the frames: curve files are found, read
//! and parsed ([`source`]), each motion validated into a [`spec::MotionSpec`] ([`spec`]), and
//! sampled at its frame rate into tracks of positions and velocities ([`bake`]); [`load`] and
//! [`intake`] put those together, one file or one window of motions at a time. Every error
//! names its file and place ([`error`]). Numbers are written in one place ([`number`]) and
//! content hashed in one place ([`hash`]).
//!
//! The closed forms themselves are `curvebake_motion`'s; nothing here writes a file.

// Tests compute their references with the platform's functions (compared within tolerances,
// never by bytes); the outputs go through `libm` (clippy.toml).
#![cfg_attr(test, allow(clippy::disallowed_methods))]
pub mod bake;
pub mod error;
pub mod hash;
pub mod intake;
pub mod load;
pub mod number;
pub mod source;
pub mod spec;
pub mod str_map;
