//! (c) in pairs: the per-motion bake and its write-only floor, run alternately, each into a
//! fresh output folder, and the ratio of their times.
//!
//! `benches/bake.rs` times each with criterion, one after the other, a minute or more apart.
//! On a shared host whose speed drifts by up to 2x within an hour, the ratio of two such
//! means moves as much as the difference being measured; here the two halves of a pair run
//! within a second of each other, and the order alternates.
//!
//! ```sh
//! cargo bench --bench floor_ratio              # 15 pairs of each batch
//! cargo bench --bench floor_ratio -- springs   # only batches whose name holds "springs"
//! ```

mod common;

use common::{bake_once, fresh, outputs, write_curves, write_only, Mix};
use curvebake::export::Layout;
use std::time::{Duration, Instant};

/// Pairs timed per batch.
const PAIRS: usize = 15;

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters the batches by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let scratch = tempfile::tempdir().unwrap();
    println!("batch: per-motion bake and write-only floor, medians of {PAIRS} pairs");
    for (mix, mix_name) in [(Mix::AllKinds, "mix"), (Mix::Springs, "springs")] {
        for n in [1_000, 10_000] {
            for jobs in [1, 2] {
                let name = format!("{mix_name} {n} jobs={jobs}");
                if !filter.iter().all(|f| name.contains(f.as_str())) {
                    continue;
                }
                let curves = scratch.path().join(format!("curves-{mix_name}-{n}"));
                if !curves.exists() {
                    write_curves(&curves, n, mix);
                }
                let reference = fresh(scratch.path());
                bake_once(&curves, reference.path(), Layout::PerMotion, jobs);
                let files = outputs(reference.path());
                drop(reference);
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(jobs)
                    .build()
                    .unwrap();
                let bake = || {
                    let out = fresh(scratch.path());
                    let start = Instant::now();
                    bake_once(&curves, out.path(), Layout::PerMotion, jobs);
                    start.elapsed()
                };
                let floor = || {
                    let out = fresh(scratch.path());
                    let start = Instant::now();
                    write_only(&files, out.path(), &pool);
                    start.elapsed()
                };
                // One pair to warm up, untimed.
                bake();
                floor();
                let mut pairs: Vec<(Duration, Duration)> = (0..PAIRS)
                    .map(|k| {
                        if k % 2 == 0 {
                            let b = bake();
                            (b, floor())
                        } else {
                            let f = floor();
                            (bake(), f)
                        }
                    })
                    .collect();
                report(&name, &mut pairs);
            }
        }
    }
}

/// Prints the median bake and floor times, the ratio of the medians and the quartiles of the
/// pairs' ratios.
fn report(name: &str, pairs: &mut [(Duration, Duration)]) {
    let median = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs[xs.len() / 2]
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let bake = median(pairs.iter().map(|p| ms(p.0)).collect());
    let floor = median(pairs.iter().map(|p| ms(p.1)).collect());
    let mut ratios: Vec<f64> = pairs.iter().map(|p| ms(p.0) / ms(p.1)).collect();
    ratios.sort_by(f64::total_cmp);
    let quartile = |q: usize| ratios[(ratios.len() - 1) * q / 4];
    println!(
        "{name}: bake {bake:.1} ms, floor {floor:.1} ms, ratio {:.2} (pairs: {:.2} to {:.2}, \
         quartiles {:.2} {:.2} {:.2})",
        bake / floor,
        quartile(0),
        quartile(4),
        quartile(1),
        quartile(2),
        quartile(3),
    );
}
