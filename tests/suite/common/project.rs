//! Running the real binary on a temporary project folder.

use std::fs;
use std::path::{Path, PathBuf};
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

/// Every file under `root`, as (relative path, bytes), sorted by path.
pub fn snapshot(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap().to_owned();
                files.push((relative, fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// What a bake wrote under `root`: [`snapshot`] without the manifest, which records the stamps
/// (inode, times) of the files it lists.
pub fn outputs(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = snapshot(root);
    files.retain(|(path, _)| path != Path::new(curvebake::internals::manifest::MANIFEST_PATH));
    files
}
