//! The composite motions of issue 17 (inertia, sequences, multi-track motions, every
//! platform's spring form) against tests/data/composite_reference.json: the same piecewise
//! closed forms evaluated at 50 significant digits by tests/data/make_composite_reference.py
//! (mpmath), for the exact binary parameters, with the joins (t_B, v_B, hand-off times and
//! states, track ends) computed there in high precision too.
//!
//! Each motion is built from the case's RON and baked as `curvebake bake` does; its JSON table
//! (the bytes the JSON exporter writes, read back) is compared frame by frame, and each join on
//! both sides: the state the model reaches just below it, the state it hands over, the state
//! after it; what `inspect` says of it (an inertia's case and bound hit, a sequence's
//! hand-offs, each track's first and last frames) is checked too. Tolerance: |got - expected| <= 1e-12·max(1, scale), `scale` the case's (or the
//! track's) largest |position| or |velocity| (shared/reference/README.md asks 1e-9 and aims
//! for 1e-12); the worst error per case is printed (run with --nocapture).

use curvebake::internals::export::json;
use curvebake::internals::inspect::inspect;
use curvebake::internals::spec::Model;
use curvebake::motion::{Inertia, InertiaParams, Motion};
use curvebake::Curve;
use serde_json::Value;

/// Frames, joins and resolved parameters, relative to max(1, scale).
const TOLERANCE: f64 = 1e-12;

fn cases(kind: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/composite_reference.json"
    ))
    .unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len() as u64, data["count"].as_u64().unwrap());
    let of_kind: Vec<Value> = cases
        .iter()
        .filter(|c| c["kind"] == kind)
        .cloned()
        .collect();
    assert!(!of_kind.is_empty(), "no {kind} cases");
    of_kind
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}
fn opt(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}
fn list(v: &Value, key: &str) -> Vec<f64> {
    v[key].as_array().unwrap().iter().map(f).collect()
}
fn id(case: &Value) -> &str {
    case["id"].as_str().unwrap()
}
/// A `{value, exact}` pair of the reference.
fn value(v: &Value) -> f64 {
    f(&v["value"])
}
/// A state `[x, v]` of the reference.
fn state(v: &Value) -> (f64, f64) {
    (value(&v[0]), value(&v[1]))
}

/// Equal to within 2 ulps: serde_json's parser (without its `float_roundtrip` feature) may land
/// an ulp off the double a JSON number was written from.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 2.0 * f64::EPSILON * a.abs().max(b.abs())
}
fn same_list(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(*x, *y))
}

/// The error of a state relative to max(1, scale), checked against [`TOLERANCE`].
fn state_error(what: &str, got: (f64, f64), expected: (f64, f64), scale: f64) -> f64 {
    let error = (got.0 - expected.0).abs().max((got.1 - expected.1).abs()) / scale.max(1.0);
    assert!(
        error <= TOLERANCE,
        "{what}: got {got:?}, expected {expected:?}, error {error:e}"
    );
    error
}

/// The motion of a case's RON, and its JSON table as the exporter writes it.
fn bake(case: &Value) -> (Curve, Value) {
    let ron = case["ron"].as_str().unwrap();
    let curve = Curve::from_ron(ron).unwrap_or_else(|e| panic!("{}: {e}\n{ron}", id(case)));
    let baked = curve.bake().unwrap();
    let mut bytes = Vec::new();
    json::table(&baked, &mut bytes);
    (curve, serde_json::from_slice(&bytes).unwrap())
}

/// The table's frame times min(i/fps, D) are the reference's `t`.
fn check_frame_times(case: &Value, table: &Value) -> Vec<f64> {
    let (fps, duration) = (f(&table["fps"]), f(&table["duration"]));
    let frames = table["frames"].as_u64().unwrap() as usize;
    let times: Vec<f64> = (0..frames)
        .map(|i| (i as f64 / fps).min(duration))
        .collect();
    let expected = list(case, "t");
    assert!(
        same_list(&times, &expected),
        "{}: frame times {times:?}, expected {expected:?}",
        id(case)
    );
    times
}

/// Compares a JSON track (`position`, `velocity` per frame) with a reference table; returns
/// the worst error.
fn compare_frames(what: &str, times: &[f64], track: &Value, expected: &Value) -> f64 {
    let scale = f(&expected["scale"]);
    let (x, v) = (list(track, "position"), list(track, "velocity"));
    let (ex, ev) = (list(expected, "position"), list(expected, "velocity"));
    assert_eq!((x.len(), v.len()), (ex.len(), ev.len()), "{what}: frames");
    let mut worst = 0.0f64;
    for (i, t) in times.iter().enumerate() {
        let at = format!("{what} frame {i} (t = {t})");
        worst = worst.max(state_error(&at, (x[i], v[i]), (ex[i], ev[i]), scale));
    }
    worst
}

/// Just below time t (a relative step of one epsilon).
fn below(t: f64) -> f64 {
    t - t * f64::EPSILON
}

#[test]
fn inertia_matches_the_high_precision_piecewise_closed_form() {
    let mut report = Vec::new();
    for case in cases("inertia") {
        let id = id(&case);
        let p = &case["params"];
        let inertia = Inertia::new(InertiaParams {
            from: f(&p["from"]),
            velocity: f(&p["velocity"]),
            friction: f(&p["friction"]),
            min: opt(p, "min"),
            max: opt(p, "max"),
            bounce_stiffness: opt(p, "bounce_stiffness").unwrap_or(500.0),
            bounce_damping: opt(p, "bounce_damping").unwrap_or(10.0),
            snap: p.get("snap").map_or(Vec::new(), |s| {
                s.as_array().unwrap().iter().map(f).collect()
            }),
        })
        .unwrap();
        let name = case["case"].as_str().unwrap();
        assert_eq!(inertia.case().name(), name, "{id}");
        let scale = f(&case["scale"]);
        let mut at_join = 0.0f64;
        // What `inspect` says of the same motion written in RON: the case and t_B, v_B.
        let (curve, _) = bake(&case);
        let figures = inspect(&curve.bake().unwrap())
            .inertia
            .expect("inertia figures");
        assert_eq!(figures.case, name, "{id}: inspect's case");
        let text = inspect(&curve.bake().unwrap()).to_text();
        assert!(text.contains(name), "{id}: {text}");
        if let Some(tb) = opt(&case, "bound_time") {
            let got = inertia.bound_time().unwrap();
            assert!(
                (got - tb).abs() <= TOLERANCE * tb,
                "{id}: t_B {got} vs {tb}"
            );
            let vb = f(&case["bound_velocity"]);
            let curvebake::motion::InertiaCase::HitsBound { velocity, .. } = inertia.case() else {
                unreachable!()
            };
            assert!((velocity - vb).abs() <= TOLERANCE * vb.abs(), "{id}: v_B");
            assert_eq!(figures.bound_time, Some(got), "{id}: inspect's t_B");
            assert_eq!(
                figures.bound_velocity,
                Some(velocity),
                "{id}: inspect's v_B"
            );
            assert!(text.contains("reaches the bound at"), "{id}: {text}");
            // Just before and at t_B: the friction's state and the spring's start agree
            // (position and velocity continuous), and both are the reference's (x = B, v_B).
            let bound = inertia.state(got).0;
            let (before, at) = (inertia.state(below(got)), inertia.state(got));
            for (what, s) in [("below t_B", before), ("at t_B", at)] {
                let e = state_error(&format!("{id} {what}"), s, (bound, vb), scale);
                at_join = at_join.max(e);
            }
        } else {
            assert_eq!(inertia.bound_time(), None, "{id}");
            assert_eq!(figures.bound_time, None, "{id}: inspect's t_B");
        }
        let mut worst = 0.0f64;
        for ((t, x), v) in list(&case, "t")
            .into_iter()
            .zip(list(&case, "position"))
            .zip(list(&case, "velocity"))
        {
            let at = format!("{id} at t = {t}");
            worst = worst.max(state_error(&at, inertia.state(t), (x, v), scale));
        }
        report.push(format!("{id}: frames {worst:.1e}, at t_B {at_join:.1e}"));
    }
    println!("{}", report.join("\n"));
}

/// Sequences, including steps that end on their own (arrival, closed-form rest, a bounce's
/// resting impact, a spring's rest): the baked frames, the hand-off times, and at each hand-off
/// the state just below it, the state the step hands over (the very doubles the next step
/// starts from) and the state after it.
#[test]
fn sequences_match_the_high_precision_piecewise_closed_form() {
    let mut report = Vec::new();
    for case in cases("sequence") {
        let id = id(&case);
        let (curve, table) = bake(&case);
        let times = check_frame_times(&case, &table);
        let worst = compare_frames(id, &times, &table["tracks"]["value"], &case);
        let Model::Sequence(sequence) = &curve.spec().model else {
            panic!("{id}: a sequence")
        };
        let joins = case["joins"].as_array().unwrap();
        let written = list(&table, "joins");
        assert!(
            same_list(&written, &sequence.handoffs()),
            "{id}: the JSON's joins {written:?}"
        );
        assert_eq!(written.len(), joins.len(), "{id}: hand-offs");
        // `inspect` and the JSON `params` say when each step starts and hands over.
        let steps = inspect(&curve.bake().unwrap()).steps.expect("step figures");
        assert_eq!(steps.len(), joins.len() + 1, "{id}: inspect's steps");
        for (i, (step, t)) in steps.iter().zip(sequence.handoffs()).enumerate() {
            assert_eq!(step.handoff, Some(t), "{id}: inspect's hand-off {i}");
            assert_eq!(steps[i + 1].start, t, "{id}: inspect's start {}", i + 1);
            let group = &table["params"][format!("step_{i}")];
            assert!(
                same(f(&group["handoff"]), t),
                "{id}: params.step_{i}.handoff"
            );
        }
        assert_eq!(steps.last().unwrap().handoff, None, "{id}: the last step");
        let scale = f(&case["scale"]);
        let mut at_joins = 0.0f64;
        for (i, (join, t)) in joins.iter().zip(sequence.handoffs()).enumerate() {
            let expected = f(&join["time"]);
            let what = format!("{id} hand-off {i} ({})", join["ends"].as_str().unwrap());
            assert!(
                (t - expected).abs() <= TOLERANCE * expected,
                "{what}: at {t}, expected {expected}"
            );
            let (step, next) = (&sequence.steps()[i], &sequence.steps()[i + 1]);
            let handed = step.model.single().unwrap().state(step.length.unwrap());
            let started = next.model.single().unwrap().state(0.0);
            assert_eq!(
                handed, started,
                "{what}: the next step starts where this one ends"
            );
            for (side, got, key) in [
                ("below", sequence.state(below(t)), "left_limit"),
                ("handed over", handed, "left"),
                ("at", sequence.state(t), "right"),
            ] {
                let e = state_error(&format!("{what} {side}"), got, state(&join[key]), scale);
                at_joins = at_joins.max(e);
            }
        }
        report.push(format!(
            "{id}: frames {worst:.1e}, at hand-offs {at_joins:.1e}"
        ));
    }
    println!("{}", report.join("\n"));
}

/// Multi-track motions whose tracks end at different times: D, the frame times, every
/// track's table, its end L_k (the JSON `params.<track>.end`) and on both sides of it the
/// closed form below L_k and the end value held with velocity 0 from L_k on.
#[test]
fn tracks_match_the_high_precision_closed_forms_and_hold_their_ends() {
    let mut report = Vec::new();
    for case in cases("tracks") {
        let id = id(&case);
        let (curve, table) = bake(&case);
        assert!(same(f(&table["duration"]), f(&case["duration"])), "{id}: D");
        let times = check_frame_times(&case, &table);
        let Model::Tracks(tracks) = &curve.spec().model else {
            panic!("{id}: tracks")
        };
        let expected_tracks = case["tracks"].as_object().unwrap();
        assert_eq!(
            tracks.tracks().len(),
            expected_tracks.len(),
            "{id}: track count"
        );
        let figures = inspect(&curve.bake().unwrap()).tracks;
        assert_eq!(
            figures.len(),
            tracks.tracks().len(),
            "{id}: inspect's tracks"
        );
        let mut ends = Vec::new();
        let mut own_joins = Vec::new();
        for (((name, motion), track), figure) in tracks
            .named()
            .into_iter()
            .zip(tracks.tracks())
            .zip(&figures)
        {
            let expected = &expected_tracks[name];
            let what = format!("{id} {name}");
            // `inspect` describes each track: its first and last frames.
            assert_eq!(figure.name, name, "{what}: inspect's track");
            let (xs, scale) = (list(expected, "position"), f(&expected["scale"]).max(1.0));
            for (got, x) in [(figure.start, xs[0]), (figure.end, xs[xs.len() - 1])] {
                assert!(
                    (got - x).abs() <= TOLERANCE * scale,
                    "{what}: inspect says {got}, expected {x}"
                );
            }
            let worst = compare_frames(&what, &times, &table["tracks"][name], expected);
            // L_k: a spring's rest time is the Rust's own (the reference read it from there
            // and checks it is a time of rest); the others are closed forms.
            let (end, expected_end) = (f(&table["params"][name]["end"]), f(&expected["end"]));
            assert!(same(end, track.length), "{what}: the JSON's end");
            let end = track.length;
            if expected["end_from_rust"].as_bool().unwrap() {
                assert!(
                    same(end, expected_end),
                    "{what}: the rest time changed to {end:?}; put it in the script's RUST_REST_TIMES"
                );
            } else {
                assert!(
                    (end - expected_end).abs() <= TOLERANCE * expected_end,
                    "{what}: ends at {end}, expected {expected_end}"
                );
            }
            let scale = f(&expected["scale"]);
            let single = track.model.single().unwrap();
            let mut at_end = 0.0f64;
            for (side, got, key) in [
                ("below its end", motion.state(below(end)), "left_limit"),
                ("its closed form at its end", single.state(end), "left"),
                ("at its end", motion.state(end), "right"),
                ("after its end", motion.state(end + 1.0), "right"),
            ] {
                let e = state_error(&format!("{what} {side}"), got, state(&expected[key]), scale);
                at_end = at_end.max(e);
            }
            assert_eq!(motion.state(end), (track.end_value, 0.0), "{what}: holds");
            ends.push(end);
            // A track's own hand-offs or bound hit before its end are joins too (their times
            // are checked against the reference by the sequences' and inertias' tests).
            own_joins.extend(track.model.joins().into_iter().filter(|&t| t < end));
            report.push(format!(
                "{what}: ends at {end} s, frames {worst:.1e}, at its end {at_end:.1e}"
            ));
        }
        // The joins are the track ends before the bake's end (a whole frame after the last
        // track's rest, when it rests), and each track's own joins.
        let last = table["duration"].as_f64().unwrap();
        let mut joins: Vec<f64> = ends.into_iter().filter(|&e| e < last).collect();
        joins.extend(own_joins);
        joins.sort_by(f64::total_cmp);
        joins.dedup();
        let written = table
            .get("joins")
            .map_or(Vec::new(), |_| list(&table, "joins"));
        assert!(
            same_list(&written, &joins),
            "{id}: joins {written:?}, expected {joins:?}"
        );
    }
    println!("{}", report.join("\n"));
}

/// Every platform's spring form: the resolved mass, stiffness and damping and the equivalents
/// in every other form (the JSON `params`), and the spring's frames.
#[test]
fn spring_forms_resolve_and_move_as_the_high_precision_formulas() {
    let mut report = Vec::new();
    for case in cases("spring_form") {
        let id = id(&case);
        let (_, table) = bake(&case);
        let params = &table["params"];
        let close = |what: &str, got: f64, expected: f64| {
            let error = (got - expected).abs() / expected.abs().max(1.0);
            assert!(
                error <= TOLERANCE,
                "{id} {what}: got {got}, expected {expected} ({error:e})"
            );
            error
        };
        let mut worst_params = 0.0f64;
        for (name, expected) in case["resolved"].as_object().unwrap() {
            worst_params = worst_params.max(close(name, f(&params[name]), value(expected)));
        }
        let equivalents = case["equivalents"].as_object().unwrap();
        for group in ["perceptual", "response", "android", "motion_dev", "origami"] {
            let (got, expected) = (params.get(group), equivalents.get(group));
            assert_eq!(got.is_some(), expected.is_some(), "{id}: group {group}");
            let (Some(got), Some(expected)) = (got, expected) else {
                continue;
            };
            for (name, e) in expected.as_object().unwrap() {
                let what = format!("{group}.{name}");
                worst_params = worst_params.max(close(&what, f(&got[name]), value(e)));
            }
        }
        let times = check_frame_times(&case, &table);
        let worst = compare_frames(id, &times, &table["tracks"]["value"], &case);
        report.push(format!(
            "{id}: params {worst_params:.1e}, frames {worst:.1e}"
        ));
    }
    println!("{}", report.join("\n"));
}
