//! Output: the one place that touches the output folder. [`write`] confines every path to
//! it and replaces files atomically, [`bundle`] streams the files that gather every motion,
//! [`lock`] lets one bake at a time write a folder, [`manifest`] records what the last bake
//! wrote so the next one can skip or remove it (and [`claims`] what a bake in progress is
//! about to write; [`listed`] the same files as a list a repository commits), and
//! [`digests`] is its annex: what each motion adds to the review page
//! and the contact sheet; [`owned`] which files a bake may replace, [`stamp`] whether a file is
//! still the one a bake left.

pub mod bundle;
pub mod claims;
pub mod digests;
pub mod durable;
pub mod folder;
pub mod listed;
pub mod lock;
pub mod manifest;
pub mod owned;
pub mod pool;
pub mod record;
pub mod regular;
pub mod stamp;
pub mod write;
