//! The ES modules' reader `valueAt` judged in Node against `curvebake_motion`: for every
//! motion of `curves/`, at random instants, at the middle of every frame interval and about
//! every join (impacts, hand-offs, bound hits, track ends, the rest step at `D`), each track
//! read between frames by cubic Hermite with the stored velocities must be within the bound
//! the maths gives of the closed form: h⁴/384·max|x⁗| (a piece is smooth: every join ends
//! one), the tables' float32 rounding (2⁻²⁴ of a position, (4/27)·h·2⁻²⁴ of each velocity),
//! and after a bouncing ball's last join the band it still bounces in (rise r at most
//! `READ_NEGLIGIBLE`: 2r + (8/27)·h·√(2·g·r)). From `D` on it reads the last frame. A control
//! reads the same tables straight between frames and must miss by far. With `node` missing
//! the test is skipped, or fails under `CURVEBAKE_REQUIRE_JS_TOOLS=1`.
//!
//! The JSON tables read the same way, as `docs/guide/baking.md` tells a game to read them
//! (each track's `joins` ending a piece), by a reader written here from that text alone.

use crate::common::random::Random;
use crate::play_runtime::node;
use curvebake::export::ExportSettings;
use curvebake::internals::bake::{bake, Baked};
use curvebake::internals::export::joins::READ_NEGLIGIBLE;
use curvebake::internals::export::js::{module, RUNTIME};
use curvebake::internals::intake::read_all;
use curvebake::spec::{MotionSpec, Overrides};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

/// Random instants per track.
const RANDOM: usize = 400;

/// The instants to read a baked motion at: random ones, frame midpoints, and about each
/// join and the end.
fn instants(baked: &Baked, r: &mut Random) -> Vec<f64> {
    let d = baked.duration;
    let mut t: Vec<f64> = (0..RANDOM).map(|_| r.range(0.0, d)).collect();
    t.extend((1..baked.frames()).map(|i| (baked.time(i - 1) + baked.time(i)) / 2.0));
    let joins = baked.spec.model.track_kinks(d, READ_NEGLIGIBLE);
    for j in joins.iter().flatten().chain([&d]) {
        t.extend([j - 1e-4, j - 1e-9, *j, j + 1e-9, j + 1e-4]);
    }
    t.retain(|&t| (0.0..=d + 1e-3).contains(&t));
    t
}

/// What `valueAt` must read of track `k` at `t`: the closed form before `D`, the last frame
/// from it on.
fn expected(baked: &Baked, k: usize, t: f64) -> f64 {
    let position = &baked.tracks[k].position;
    if t >= baked.duration {
        return position[position.len() - 1];
    }
    baked.spec.model.tracks()[k].1.position(t)
}

/// The bound of track `k` from the maths (see the module documentation).
fn bound(baked: &Baked, k: usize) -> f64 {
    let (d, h) = (baked.duration, 1.0 / baked.spec.fps);
    let motion = baked.spec.model.tracks()[k].1;
    let magnitude = |(lo, hi): (f64, f64)| lo.abs().max(hi.abs());
    let hermite = h.powi(4) / 384.0 * magnitude(motion.derivative_range(4, 0.0, d));
    let largest = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let track = &baked.tracks[k];
    let f32_rounding = 2f64.powi(-24);
    let rounding =
        f32_rounding * (largest(&track.position) + 2.0 * 4.0 / 27.0 * h * largest(&track.velocity));
    let banded = baked.spec.model.track_kinks_banded(d, READ_NEGLIGIBLE)[k]
        .iter()
        .any(|kink| kink.band.is_some());
    let band = if banded {
        let g = magnitude(motion.derivative_range(2, 0.0, d));
        2.0 * READ_NEGLIGIBLE + 8.0 / 27.0 * h * (2.0 * g * READ_NEGLIGIBLE).sqrt()
    } else {
        0.0
    };
    hermite + rounding + band + 1e-9 * largest(&track.position).max(1.0)
}

/// Reads every case in Node: per case, per track, `valueAt` and the straight line between
/// frames (the control) at each instant.
fn run_node(dir: &std::path::Path, cases: &[Value]) -> Vec<Value> {
    std::fs::write(
        dir.join("cases.json"),
        Value::from(cases.to_vec()).to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join("run.mjs"),
        r#"import { readFileSync } from "node:fs";
const out = [];
for (const c of JSON.parse(readFileSync(new URL("./cases.json", import.meta.url)))) {
  const m = await import(`./${c.name}.js`);
  out.push(Object.keys(m.tracks).map((k) => {
    const x = m.tracks[k];
    const straight = (t) => {
      const u = Math.min(t, m.duration) * m.fps, i = Math.min(Math.floor(u), m.frames - 2);
      const b = Math.min((i + 1) / m.fps, m.duration), a = i / m.fps;
      return x[i] + (x[i + 1] - x[i]) * (Math.min(t, m.duration) - a) / (b - a);
    };
    return c.t.map((t) => [m.valueAt(t, k), straight(t)]);
  }));
}
console.log(JSON.stringify(out));
"#,
    )
    .unwrap();
    let output = Command::new(node().expect("checked by the caller"))
        .arg(dir.join("run.mjs"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "node: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn value_at_reads_the_tables_between_frames_within_its_bound() {
    if node().is_none() {
        return;
    }
    let curves = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves");
    let files = curvebake::internals::load::find_inputs(&[curves]).unwrap();
    let (inputs, errors) = read_all(&files, Overrides::default());
    assert!(errors.is_empty(), "{errors:?}");
    let specs: Vec<MotionSpec> = inputs.into_iter().map(|i| i.spec).collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("runtime.js"), RUNTIME).unwrap();
    let mut r = Random(2026);
    let mut baked = Vec::new();
    let mut cases = Vec::new();
    for spec in &specs {
        let b = bake(spec).unwrap();
        let text = module(&b, &ExportSettings::default());
        std::fs::write(dir.path().join(format!("{}.js", spec.name)), text).unwrap();
        let t = instants(&b, &mut r);
        cases.push(json!({"name": spec.name, "t": t}));
        baked.push((b, t));
    }
    let readings = run_node(dir.path(), &cases);
    let mut failures = Vec::new();
    let mut control_worst = 0.0f64;
    for ((b, instants), reading) in baked.iter().zip(&readings) {
        let mut worst = (0.0f64, 0.0, 0.0);
        for (k, track) in reading.as_array().unwrap().iter().enumerate() {
            let bound = bound(b, k);
            for (&t, pair) in instants.iter().zip(track.as_array().unwrap()) {
                let (read, straight) = (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap());
                let exact = expected(b, k, t);
                let error = (read - exact).abs();
                control_worst = control_worst.max((straight - exact).abs());
                if error > worst.0 {
                    worst = (error, t, bound);
                }
                if !(error <= bound) {
                    failures.push(format!(
                        "{} track {k} at t={t}: read {read}, exact {exact}, off by {error} > {bound}",
                        b.spec.name
                    ));
                }
            }
        }
        eprintln!(
            "{}: valueAt worst {:.3e} at t={:.6} (bound {:.3e})",
            b.spec.name, worst.0, worst.1, worst.2
        );
    }
    eprintln!("control (straight between frames): worst {control_worst:.3}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        control_worst > 1.0,
        "straight lines between frames matched: the comparison cannot tell"
    );
}

/// A table of the JSON format read as baking.md says: frame i at `min(i/fps, D)`, cubic
/// Hermite between frames, each of the track's `joins` `[t, x before, v before, x after, v
/// after]` in an interval (or on its far frame) ending a piece; from `D` on, the last frame.
fn read_json_track(table: &Value, track: &str, t: f64) -> f64 {
    let (fps, d) = (
        table["fps"].as_f64().unwrap(),
        table["duration"].as_f64().unwrap(),
    );
    let numbers = |key: &str| -> Vec<f64> {
        (table["tracks"][track][key].as_array().unwrap().iter())
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let (x, v) = (numbers("position"), numbers("velocity"));
    let n = x.len();
    if t >= d {
        return x[n - 1];
    }
    let time = |i: usize| (i as f64 / fps).min(d);
    let i = ((t * fps).floor() as usize).min(n - 2);
    let (mut a, b) = ((time(i), x[i], v[i]), (time(i + 1), x[i + 1], v[i + 1]));
    let joins = table["tracks"][track]["joins"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for join in joins.iter().map(|j| j.as_array().unwrap()) {
        let j: Vec<f64> = join.iter().map(|x| x.as_f64().unwrap()).collect();
        if a.0 < j[0] && j[0] <= b.0 {
            // At the join's own time, the value from it on.
            if t < j[0] {
                return hermite(a, (j[0], j[1], j[2]), t);
            }
            a = (j[0], j[3], j[4]);
        }
    }
    hermite(a, b, t)
}

/// The cubic with position and velocity `(t, x, v)` at both ends, at `t`.
fn hermite((t0, x0, v0): (f64, f64, f64), (t1, x1, v1): (f64, f64, f64), t: f64) -> f64 {
    let h = t1 - t0;
    let s = (t - t0) / h;
    let (s2, s3) = (s * s, s * s * s);
    (2.0 * s3 - 3.0 * s2 + 1.0) * x0
        + (s3 - 2.0 * s2 + s) * h * v0
        + (3.0 * s2 - 2.0 * s3) * x1
        + (s3 - s2) * h * v1
}

/// Every example, and a ball whose impacts fall between frames, read from its JSON table
/// between frames within the bound of the maths (as `valueAt` above), but over the last
/// interval of a motion that rests, which ends on the rest value (within `rest_delta`).
#[test]
fn json_tables_read_between_frames_by_their_joins_within_the_bound() {
    use curvebake::export::Layout;
    use curvebake::internals::export::{json::Json, Exporter, New};
    let curves = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves");
    let files = curvebake::internals::load::find_inputs(&[curves]).unwrap();
    let (inputs, errors) = read_all(&files, Overrides::default());
    assert!(errors.is_empty(), "{errors:?}");
    let mut specs: Vec<MotionSpec> = inputs.into_iter().map(|i| i.spec).collect();
    let ball = "(name: \"off-frames\", property: \"translateY\", motion: Gravity(from: -250, \
                acceleration: 2400, to: 0, restitution: 0.5))";
    let parsed =
        curvebake::internals::load::parse_bytes(std::path::Path::new("ball.ron"), ball.as_bytes());
    specs.push(MotionSpec::from_file(&parsed.unwrap()[0], Overrides::default()).unwrap());
    let mut r = Random(2027);
    let mut failures = Vec::new();
    for spec in &specs {
        let b = bake(spec).unwrap();
        let output = Json::new(Layout::PerMotion).motion(&b, &[], &New);
        let table: Value = serde_json::from_slice(&output.files[0]).unwrap();
        let last_interval = b.time(b.frames().saturating_sub(2));
        for (k, track) in b.tracks.iter().enumerate() {
            let slack = if rests(&b) { b.spec.rest_delta } else { 0.0 };
            let bound = bound(&b, k);
            for t in instants(&b, &mut r) {
                let exact = expected(&b, k, t);
                let error = (read_json_track(&table, track.name, t) - exact).abs();
                let allowed = bound + if t > last_interval { slack } else { 0.0 };
                if !(error <= allowed) {
                    failures.push(format!(
                        "{} {} at t={t}: off by {error} > {allowed}",
                        b.spec.name, track.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether the bake of `b` ran until it rests (its last frame the rest value).
fn rests(b: &Baked) -> bool {
    b.spec.ending == curvebake::spec::Ending::Rests
}
