//! (b) Full bakes of N generated motions to JSON and CSS, 1 and 2 threads, both layouts;
//! (c) the write-only baseline: the same bytes into the same files by the same write method.
//!
//! Each iteration bakes into a fresh output folder (files are created, as on a first bake).

#![allow(missing_docs)] // criterion_group! generates undocumented functions

mod common;

use common::{bake_once, fresh, outputs, write_curves, write_only, Mix};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use curvebake::export::Layout;
use std::time::Duration;

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
                                    write_only(&files, out.path(), &pool);
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
