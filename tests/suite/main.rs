//! The integration suite in one binary (one link after an edit, not one per module): each module is
//! one area, run as `cargo test --test suite <module>`. `tests/allocations.rs` stays apart
//! because its counting allocator is a whole binary's choice.

// References are computed with the platform's functions (compared within tolerances, never by
// bytes); the outputs go through `libm` (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

mod browser_compose;
mod browser_css;
mod browser_engines;
mod browser_fill;
mod browser_joins;
mod browser_js;
mod browser_play;
mod browser_velocity;
mod cli;
mod composite_reference;
mod config;
mod error_corpus;
mod everyday;
mod examples;
mod faults;
mod fixtures;
mod handoff;
mod incremental;
mod js_package;
mod live_review;
mod motion_properties;
mod plain_ron;
mod play_runtime;
mod plots;
mod portable;
mod prefix;
mod properties_outputs;
mod read_tables;
mod reference;
mod reliability;
mod review_page;
mod tracks;
mod tune_page;
