//! The piecewise motions (inertia, sequence) against tests/data/composite_reference.json:
//! the same piecewise closed forms evaluated at 50 significant digits by
//! tests/data/make_composite_reference.py (mpmath), for the exact binary parameters, with the
//! joins (t_B, v_B, hand-off states) computed there in high precision too. Tolerance as in
//! shared/reference/README.md: |got - expected| <= 1e-9·max(1, scale); the worst error seen is
//! printed (run with --nocapture), and the joins are held to 1e-12.

use curvebake::internals::plain_ron;
use curvebake::internals::spec::{Model, MotionSpec, Overrides};
use curvebake::motion::{Inertia, InertiaParams, Motion};
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;
/// The joins (t_B, v_B, states at hand-offs) are held tighter: they are a few operations.
const JOIN_TOLERANCE: f64 = 1e-12;

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/composite_reference.json"
    ))
    .unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let cases = data["cases"].as_array().unwrap().clone();
    assert_eq!(cases.len() as u64, data["count"].as_u64().unwrap());
    cases
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}
fn opt(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}
fn list(v: &Value, key: &str) -> Vec<f64> {
    v[key].as_array().unwrap().iter().map(f).collect()
}

/// Compares every sample of `case` with `motion`; returns the worst error relative to the
/// scale, and the worst at the joins (`joins`: times where pieces meet).
fn compare(case: &Value, motion: &dyn Motion, joins: &[f64]) -> (f64, f64) {
    let id = case["id"].as_str().unwrap();
    let scale = f(&case["scale"]).max(1.0);
    let (mut worst, mut at_joins) = (0.0f64, 0.0f64);
    for ((t, x), v) in list(case, "t")
        .into_iter()
        .zip(list(case, "position"))
        .zip(list(case, "velocity"))
    {
        let (gx, gv) = motion.state(t);
        let error = (gx - x).abs().max((gv - v).abs()) / scale;
        assert!(
            error <= TOLERANCE,
            "{id} at t = {t}: got ({gx}, {gv}), expected ({x}, {v}), error {error:e}"
        );
        worst = worst.max(error);
        if joins.contains(&t) {
            at_joins = at_joins.max(error);
        }
    }
    (worst, at_joins)
}

#[test]
fn inertia_matches_the_high_precision_piecewise_closed_form() {
    let mut report = Vec::new();
    for case in cases().iter().filter(|c| c["kind"] == "inertia") {
        let id = case["id"].as_str().unwrap();
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
        assert_eq!(
            inertia.case().name(),
            case["case"].as_str().unwrap(),
            "{id}"
        );
        let mut joins = Vec::new();
        if let Some(tb) = opt(case, "bound_time") {
            let got = inertia.bound_time().unwrap();
            let error = (got - tb).abs() / tb;
            assert!(
                error <= JOIN_TOLERANCE,
                "{id}: t_B {got} vs {tb} ({error:e})"
            );
            let vb = f(&case["bound_velocity"]);
            let curvebake::motion::InertiaCase::HitsBound { velocity, .. } = inertia.case() else {
                unreachable!()
            };
            assert!(
                (velocity - vb).abs() <= JOIN_TOLERANCE * vb.abs(),
                "{id}: v_B"
            );
            // Just before and at t_B: the two pieces agree (position and velocity continuous).
            let before = inertia.state(got - got * f64::EPSILON);
            let at = inertia.state(got);
            let scale = f(&case["scale"]);
            assert!(
                (before.0 - at.0).abs() <= JOIN_TOLERANCE * scale,
                "{id}: x jumps at t_B"
            );
            assert!(
                (before.1 - at.1).abs() <= JOIN_TOLERANCE * scale,
                "{id}: v jumps at t_B"
            );
            joins.push(tb);
        } else {
            assert_eq!(inertia.bound_time(), None, "{id}");
        }
        let (worst, at_joins) = compare(case, &inertia, &joins);
        report.push(format!("{id}: worst {worst:.1e}, at t_B {at_joins:.1e}"));
    }
    println!("{}", report.join("\n"));
}

/// The RON of a reference sequence.
fn sequence_ron(case: &Value) -> String {
    let steps: Vec<String> = case["steps"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let start = if i == 0 {
                format!(
                    "from: {:?}, velocity: {:?}, ",
                    f(&case["from"]),
                    f(&case["start_velocity"])
                )
            } else {
                String::new()
            };
            let motion = match s["kind"].as_str().unwrap() {
                "spring" => format!(
                    "Spring({start}to: {:?}, mass: {:?}, stiffness: {:?}, damping: {:?})",
                    f(&s["to"]),
                    opt(s, "mass").unwrap_or(1.0),
                    f(&s["stiffness"]),
                    f(&s["damping"])
                ),
                "gravity" => format!("Gravity({start}acceleration: {:?})", f(&s["acceleration"])),
                "friction" => {
                    // The first step's velocity is required by Friction; later ones hand over.
                    format!("Friction({start}friction: {:?})", f(&s["friction"]))
                }
                other => panic!("{other}"),
            };
            match opt(s, "duration") {
                Some(d) => format!("(motion: {motion}, duration: {d:?})"),
                None => format!("(motion: {motion})"),
            }
        })
        .collect();
    format!(
        "(name: \"s\", duration: {:?}, motion: Sequence([{}]))",
        f(&case["duration"]),
        steps.join(", ")
    )
}

#[test]
fn sequences_match_the_high_precision_piecewise_closed_form() {
    let mut report = Vec::new();
    for case in cases().iter().filter(|c| c["kind"] == "sequence") {
        let id = case["id"].as_str().unwrap();
        let text = sequence_ron(case);
        let file = &plain_ron::parse(&text).unwrap_or_else(|| panic!("{text}"))[0];
        let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
        let Model::Sequence(sequence) = &spec.model else {
            panic!("{id}: a sequence")
        };
        let handoffs = list(case, "handoffs");
        assert_eq!(sequence.handoffs(), handoffs, "{id}");
        // At each hand-off the next step starts at the exact state the previous one reached.
        for pair in sequence.steps().windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let ends = a.model.single().unwrap().state(a.length.unwrap());
            assert_eq!(ends, b.model.single().unwrap().state(0.0), "{id}: hand-off");
        }
        let (worst, at_joins) = compare(case, sequence, &handoffs);
        report.push(format!(
            "{id}: worst {worst:.1e}, at hand-offs {at_joins:.1e}"
        ));
    }
    println!("{}", report.join("\n"));
}
