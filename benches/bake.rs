//! (b) Full bakes of N generated motions to JSON and CSS, 1 and 2 threads, both layouts;
//! (c) the write-only baseline: the same bytes into the same files by the same write method.
//!
//! Each iteration bakes into a fresh output folder (files are created, as on a first bake).

#![allow(missing_docs)] // criterion_group! generates undocumented functions

mod common;

use common::{write_curves, Mix};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use curvebake::export::{Format, Layout};
use curvebake::pipeline::{run, BakeOptions};
use curvebake::write::OutputDir;
use rayon::prelude::*;
use std::path::Path;
use std::time::Duration;
use tempfile::TempDir;

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

fn bake_once(curves: &Path, out: &Path, layout: Layout, jobs: usize) {
    let report = run(&options(curves, out, layout, jobs), &|_, _| {}).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
}

/// Every file under `root`, as (relative path, bytes).
fn outputs(root: &Path) -> Vec<(String, Vec<u8>)> {
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
fn fresh(scratch: &Path) -> TempDir {
    tempfile::Builder::new()
        .prefix("out-")
        .tempdir_in(scratch)
        .unwrap()
}

fn bakes(c: &mut Criterion) {
    let scratch = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("bake json+css");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));
    for (mix, mix_name) in [(Mix::AllKinds, "mix"), (Mix::Springs, "springs")] {
        for n in [1_000, 10_000] {
            let curves = scratch.path().join(format!("curves-{mix_name}-{n}"));
            write_curves(&curves, n, mix);
            for (layout, layout_name) in [
                (Layout::Bundle, "bundle"),
                (Layout::PerMotion, "per-motion"),
            ] {
                for jobs in [1, 2] {
                    let id = BenchmarkId::new(format!("{mix_name} {layout_name} jobs={jobs}"), n);
                    group.bench_function(id, |b| {
                        b.iter_batched(
                            || fresh(scratch.path()),
                            |out| {
                                bake_once(&curves, out.path(), layout, jobs);
                                out
                            },
                            BatchSize::PerIteration,
                        )
                    });
                }
                if layout == Layout::PerMotion {
                    // (c) The floor: the same files, written the same way, no maths or formatting.
                    let reference = fresh(scratch.path());
                    bake_once(&curves, reference.path(), layout, 2);
                    let files = outputs(reference.path());
                    for jobs in [1, 2] {
                        let pool = rayon::ThreadPoolBuilder::new()
                            .num_threads(jobs)
                            .build()
                            .unwrap();
                        let id = BenchmarkId::new(format!("{mix_name} write-only jobs={jobs}"), n);
                        group.bench_function(id, |b| {
                            b.iter_batched(
                                || fresh(scratch.path()),
                                |out| {
                                    let dir = OutputDir::create(out.path()).unwrap();
                                    pool.install(|| {
                                        files.par_iter().for_each(|(path, bytes)| {
                                            dir.write(path, bytes).unwrap();
                                        })
                                    });
                                    out
                                },
                                BatchSize::PerIteration,
                            )
                        });
                    }
                }
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bakes);
criterion_main!(benches);
