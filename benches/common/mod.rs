//! Generated inputs for the benchmarks, bakes of them, and the write-only floor.

use curvebake::export::{Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::internals::write::OutputDir;
use curvebake::BakeOptions;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::Path;
use tempfile::TempDir;

/// Which motions a generated batch holds.
#[derive(Clone, Copy)]
pub enum Mix {
    /// Springs only (the JavaScript comparison).
    Springs,
    /// All kinds in turn: spring, friction, gravity, decay, solved decay, ring.
    AllKinds,
}

/// One motion of about one second at 60 fps (61 frames).
fn motion(i: usize, mix: Mix) -> String {
    let x = (i % 97) as f64;
    let kind = match mix {
        Mix::Springs => 0,
        Mix::AllKinds => i % 6,
    };
    let body = match kind {
        0 => format!("Spring(from: {x}, to: {}, stiffness: {}, damping: {})", x + 200.0, 150 + i % 50, 12 + i % 10),
        1 => format!("Friction(from: {x}, velocity: {}, friction: 0.05)", 900 + i % 300),
        2 => format!("Gravity(from: {x}, velocity: -600, acceleration: 2000)"),
        3 => format!("Decay(from: {x}, velocity: 800, lambda: 4)"),
        4 => format!("Decay(from: {x}, to: {}, end_velocity: 40)", x + 150.0),
        _ => "ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15))".into(),
    };
    format!("(name: \"m{i}\", duration: 1.0, motion: {body}),\n")
}

/// Writes `n` motions into `dir`, 100 motions per file.
pub fn write_curves(dir: &Path, n: usize, mix: Mix) {
    std::fs::create_dir_all(dir).unwrap();
    for (file, start) in (0..n).step_by(100).enumerate() {
        let mut text = String::from("[\n");
        for i in start..(start + 100).min(n) {
            text.push_str(&motion(i, mix));
        }
        text.push(']');
        let _ = writeln!(text);
        std::fs::write(dir.join(format!("batch-{file:04}.ron")), text).unwrap();
    }
}

fn options(curves: &Path, out: &Path, layout: Layout, jobs: usize) -> BakeOptions {
    BakeOptions {
        inputs: vec![curves.to_owned()],
        out: out.to_owned(),
        layout,
        jobs: Some(jobs),
        formats: vec![Format::Json, Format::Css],
        ..BakeOptions::default()
    }
}

/// Bakes `curves` to JSON and CSS in `out`, with `jobs` threads.
pub fn bake_once(curves: &Path, out: &Path, layout: Layout, jobs: usize) {
    let report = run(&options(curves, out, layout, jobs), &|_, _| {}).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
}

/// Every file under `root`, as (relative path, bytes).
pub fn outputs(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((relative, std::fs::read(&path).unwrap()));
            }
        }
    }
    files
}

/// A new empty output folder, removed when dropped: criterion drops each iteration's output
/// after timing it, so a run does not fill the disk with one batch of outputs per iteration.
pub fn fresh(scratch: &Path) -> TempDir {
    tempfile::Builder::new()
        .prefix("out-")
        .tempdir_in(scratch)
        .unwrap()
}

/// (c) The floor of the per-motion layout: `files` written into `out` by the bake's write
/// method, with no maths or formatting.
pub fn write_only(files: &[(String, Vec<u8>)], out: &Path, pool: &rayon::ThreadPool) {
    let dir = OutputDir::create(out).unwrap();
    pool.install(|| {
        files.par_iter().for_each(|(path, bytes)| {
            dir.write(path, bytes).unwrap();
        })
    });
}
