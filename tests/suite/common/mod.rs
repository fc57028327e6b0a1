//! Helpers shared by the integration tests. A test crate includes them with `mod common;`
//! and uses what it needs (the rest is allowed to be dead code in that crate).
//!
//! * [`chromium`]: headless Chromium. Find it ([`chromium::chromium`]: skip, or fail when
//!   `CURVEBAKE_REQUIRE_BROWSER=1`), load a page and get its DOM back
//!   ([`chromium::dump_dom`]), take a screenshot ([`chromium::screenshot`]), read the page's
//!   console and errors, and pull a JSON result out of the dumped DOM
//!   ([`chromium::element_json`]). See that module for the page protocol.
//! * [`engines`]: Chromium, Firefox ESR and WebKitGTK (under Xvfb) for tests that prove
//!   output in all three: a served page reports its numbers back by `POST` ([`engines::engines`]
//!   skips a missing engine with a message, or fails under `CURVEBAKE_REQUIRE_BROWSER=1`).
//! * [`compare`]: browser readings against a bake's tables, and the worst errors.
//! * [`project`]: the real binary run on a temporary project folder.
//! * [`random`]: a deterministic generator for drawn test cases.
//! * [`readout`]: turning what the browser reports back into numbers.
//! * [`tables`]: a bake's JSON tables read back, what a page reads of each motion and the
//!   bound it must meet, and the page script that reads computed styles.

#![allow(dead_code)]

pub mod chromium;
pub mod compare;
pub mod engines;
pub mod project;
pub mod random;
pub mod readout;
pub mod tables;
pub mod watch;
