//! (a) One frame of each motion kind, beside a bare inline loop of the same closed form.

#![allow(missing_docs)]
// criterion_group! generates undocumented functions
// The inline loop is the bare closed form with the platform's functions, the floor to beat.
#![allow(clippy::disallowed_methods)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use curvebake::motion::{
    hex, Bounce, Decay, ExplosionRing, Friction, Gravity, Motion, RadiusEnd, Spring,
};
use std::hint::black_box;

/// Frames evaluated per iteration: one second at 60 fps.
const FRAMES: usize = 60;

/// Samples one second at 60 fps the way a bake does (one dynamic call per motion).
fn run(motion: &dyn Motion, buffers: &mut (Vec<f64>, Vec<f64>)) -> f64 {
    let (position, velocity) = buffers;
    position.clear();
    velocity.clear();
    motion.sample(black_box(60.0), 1.0, FRAMES, position, velocity);
    position[FRAMES - 1] + velocity[FRAMES - 1]
}

/// The bare loop: frame times and a closed form written inline, results pushed to buffers.
fn inline(buffers: &mut (Vec<f64>, Vec<f64>), f: impl Fn(f64) -> (f64, f64)) -> f64 {
    let (position, velocity) = buffers;
    position.clear();
    velocity.clear();
    for i in 0..FRAMES {
        let (x, v) = f((i as f64 / 60.0).min(1.0));
        position.push(x);
        velocity.push(v);
    }
    position[FRAMES - 1] + velocity[FRAMES - 1]
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("one frame");
    group.throughput(Throughput::Elements(FRAMES as u64));
    let (from, to, v0, m, k): (f64, f64, f64, f64, f64) = (0.0, 100.0, 0.0, 1.0, 170.0);
    let critical = 2.0 * (k * m).sqrt();
    let cases: Vec<(&str, Box<dyn Motion>)> = vec![
        (
            "spring underdamped",
            Box::new(Spring::new(from, to, v0, m, k, 12.0).unwrap()),
        ),
        (
            "spring near-critical",
            Box::new(Spring::new(from, to, v0, m, k, critical * (1.0 + 1e-9)).unwrap()),
        ),
        (
            "spring overdamped",
            Box::new(Spring::new(from, to, v0, m, k, 80.0).unwrap()),
        ),
        (
            "friction",
            Box::new(Friction::new(0.0, 1000.0, 0.05).unwrap()),
        ),
        (
            "gravity",
            Box::new(Gravity::new(0.0, -600.0, 2000.0).unwrap()),
        ),
        (
            "gravity bounce",
            Box::new(Bounce::new(Gravity::new(-300.0, 0.0, 2400.0).unwrap(), 0.0, 0.55).unwrap()),
        ),
        ("decay", Box::new(Decay::new(0.0, 800.0, 4.0).unwrap())),
        (
            "decay solved",
            Box::new(Decay::solve(0.0, 300.0, 20.0, 1.0).unwrap()),
        ),
    ];
    for (name, motion) in &cases {
        let mut buffers = (Vec::with_capacity(FRAMES), Vec::with_capacity(FRAMES));
        group.bench_function(BenchmarkId::new("curvebake", name), |b| {
            b.iter(|| run(motion.as_ref(), &mut buffers))
        });
    }
    let ring = ExplosionRing::new(
        RadiusEnd {
            from: 0.0,
            to: 150.0,
            end_velocity: 30.0,
        },
        RadiusEnd {
            from: 8.0,
            to: 180.0,
            end_velocity: 15.0,
        },
        1.0,
    )
    .unwrap();
    let mut buffers = (Vec::with_capacity(FRAMES), Vec::with_capacity(FRAMES));
    group.bench_function(BenchmarkId::new("curvebake", "ring (both radii)"), |b| {
        b.iter(|| run(ring.inner(), &mut buffers) + run(ring.outer(), &mut buffers))
    });

    // Bare inline loops of the same closed forms, storing into the same buffers: the floor.
    let (sigma, w, u0) = (12.0 / 2.0, (4.0f64 * 170.0 - 144.0).sqrt() / 2.0, from - to);
    let (bu, bv) = (v0 + sigma * u0, -(170.0 * u0 + sigma * v0));
    let mut buffers = (Vec::with_capacity(FRAMES), Vec::with_capacity(FRAMES));
    group.bench_function(BenchmarkId::new("inline", "spring underdamped"), |b| {
        b.iter(|| {
            let (sigma, w, u0, bu, bv) = black_box((sigma, w, u0, bu, bv));
            inline(&mut buffers, |t| {
                let e = (-sigma * t).exp();
                let (s, c) = (w * t).sin_cos();
                let (cc, ss) = (e * c, e * s / w);
                (to + u0 * cc + bu * ss, v0 * cc + bv * ss)
            })
        })
    });
    group.bench_function(BenchmarkId::new("inline", "decay"), |b| {
        b.iter(|| {
            let (x0, v0, lambda) = black_box((0.0, 800.0, 4.0));
            inline(&mut buffers, |t| {
                (x0 + v0 * t * hex(-lambda * t), v0 * (-lambda * t).exp())
            })
        })
    });
    group.bench_function(BenchmarkId::new("inline", "gravity"), |b| {
        b.iter(|| {
            let (x0, v0, a) = black_box((0.0, -600.0, 2000.0));
            inline(&mut buffers, |t| {
                (x0 + v0 * t + 0.5 * a * t * t, v0 + a * t)
            })
        })
    });
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
