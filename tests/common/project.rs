//! Running the real binary on a temporary project folder.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `curvebake args...` in `dir`.
pub fn curvebake(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The standard error of a run, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A temporary project folder holding `curves/` with these files (name, text).
pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("curves")).unwrap();
    for (name, text) in files {
        fs::write(dir.path().join("curves").join(name), text).unwrap();
    }
    dir
}
