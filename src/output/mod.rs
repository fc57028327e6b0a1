//! Output: the one place that touches the output folder. [`write`] confines every path to
//! it and replaces files atomically, [`bundle`] streams the files that gather every motion,
//! [`lock`] lets one bake at a time write a folder, and [`manifest`] records what the last bake wrote so the next one can skip or remove it.

pub mod bundle;
pub mod lock;
pub mod manifest;
pub mod pool;
pub mod write;
