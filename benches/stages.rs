//! The bake's own work per motion, stage by stage, with no file written: what a per-motion bake
//! adds to its write-only floor (c), and what `--bundle` (b) mostly consists of.
//!
//! Each iteration runs one stage over 1,000 generated motions (a mix of every kind, one second
//! at 60 fps), so criterion's per-element time is the time per motion.
//!
//! ```sh
//! cargo bench --bench stages
//! ```

#![allow(missing_docs)] // criterion_group! generates undocumented functions

#[allow(dead_code)] // Only the generated inputs are used here; the other benches use the rest.
mod common;

use common::{write_curves, Mix};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::internals::bake::bake;
use curvebake::internals::export::{exporters, MotionOutput};
use curvebake::internals::intake::read_all;
use curvebake::internals::load::find_inputs;
use curvebake::internals::manifest::SpecHasher;
use curvebake::internals::pool::Pool;
use curvebake::internals::spec::Overrides;
use std::hint::black_box;

const MOTIONS: usize = 1_000;

/// Hands an output's buffers back to the pool, as the writer does once they are on disk.
fn recycle(pool: &Pool, output: MotionOutput) {
    pool.recycle(output.files.into_iter().chain(output.chunk));
}

fn stages(c: &mut Criterion) {
    let scratch = tempfile::tempdir().unwrap();
    let curves = scratch.path().join("curves");
    write_curves(&curves, MOTIONS, Mix::AllKinds);
    let files = find_inputs(&[curves]).unwrap();
    let (inputs, errors) = read_all(&files, Overrides::default());
    assert!(errors.is_empty() && inputs.len() == MOTIONS, "{errors:?}");
    let baked: Vec<_> = inputs.iter().map(|i| bake(&i.spec).unwrap()).collect();
    let exporters = exporters(
        &[Format::Json, Format::Css],
        Layout::PerMotion,
        &ExportSettings::default(),
    );
    let pool = Pool::default();
    let hasher = SpecHasher::new(b"run key", b"json,css");

    let mut group = c.benchmark_group("one motion's own work");
    group.throughput(Throughput::Elements(MOTIONS as u64));
    group.sample_size(20);
    group.bench_function("read and check", |b| {
        b.iter(|| read_all(black_box(&files), Overrides::default()))
    });
    group.bench_function("hash the spec", |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|i| hasher.hash(&i.spec).whole.len())
                .sum::<usize>()
        })
    });
    group.bench_function("sample every frame", |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|i| bake(&i.spec).unwrap().frames())
                .sum::<usize>()
        })
    });
    for (exporter, name) in exporters.iter().zip(["json table", "css keyframes"]) {
        group.bench_function(name, |b| {
            b.iter(|| {
                for motion in &baked {
                    let shape = exporter.shape();
                    let paths: Vec<String> = shape
                        .files
                        .iter()
                        .map(|p| p.of(&motion.spec.name))
                        .collect();
                    recycle(&pool, exporter.motion(motion, &paths, &pool));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
