//! (d) One 1200x800 plot, drawn and encoded as PNG.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::internals::export::{exporters, New};
use curvebake::Curve;
use std::hint::black_box;

fn plot(c: &mut Criterion) {
    let png = exporters(
        &[Format::Png],
        Layout::PerMotion,
        &ExportSettings::default(),
    )
    .remove(0);
    let mut group = c.benchmark_group("one plot 1200x800");
    for (name, ron) in [
        (
            "spring",
            r#"(name: "card", motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18))"#,
        ),
        (
            "ring",
            r#"(name: "ring", duration: 0.9, motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15)))"#,
        ),
    ] {
        let curve = Curve::from_ron(ron).unwrap();
        let baked = curve.bake().unwrap();
        group.bench_function(name, |b| {
            b.iter(|| black_box(png.motion(&baked, &[], &New)))
        });
    }
    group.finish();
}

criterion_group!(benches, plot);
criterion_main!(benches);
