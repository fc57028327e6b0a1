//! Every case of the reference data (tests/data/reference_cases.json, copied from
//! shared/reference/cases.json: values computed at 50 significant digits for the exact binary
//! parameters) checked against the motion core, with the tolerances of its README.

use curvebake::motion::{
    perceptual_parameters, Decay, ExplosionRing, Friction, Gravity, Motion, MotionError, RadiusEnd,
    Settle, Spring,
};
use serde_json::Value;

/// Tolerance of the reference README: 1e-9, relative to the case's scale.
const TOLERANCE: f64 = 1e-9;

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference_cases.json"
    ))
    .expect("reference data is in the repo");
    let data: Value = serde_json::from_str(&text).unwrap();
    let cases = data["cases"].as_array().unwrap().clone();
    assert_eq!(cases.len() as u64, data["count"].as_u64().unwrap());
    cases
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("missing number {key} in {v}"))
}

fn nums(v: &Value, key: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Records the worst relative error seen, and every failure.
#[derive(Default)]
struct Judge {
    worst: (f64, String),
    failures: Vec<String>,
    checked: usize,
}

impl Judge {
    /// |got - expected| <= TOLERANCE·scale.
    fn close(&mut self, id: &str, what: &str, got: f64, expected: f64, scale: f64) {
        self.checked += 1;
        let error = (got - expected).abs() / scale;
        if !(error <= TOLERANCE) {
            self.failures.push(format!(
                "{id} {what}: got {got:e}, expected {expected:e} (error {error:e})"
            ));
        }
        if error > self.worst.0 || error.is_nan() {
            self.worst = (error, format!("{id} {what}"));
        }
    }

    fn error(&mut self, id: &str, got: Result<impl std::fmt::Debug, MotionError>, expected: &str) {
        self.checked += 1;
        match got {
            Err(MotionError::Unsolvable { reason, .. }) if reason.code() == expected => {}
            other => self
                .failures
                .push(format!("{id}: expected error {expected}, got {other:?}")),
        }
    }

    fn trajectory(&mut self, id: &str, case: &Value, motion: &dyn Motion, prefix: &str) {
        let scale = num(case, "scale").max(1.0);
        let times = nums(case, "t");
        for (i, &t) in times.iter().enumerate() {
            let x = nums(case, &format!("{prefix}position"))[i];
            let v = nums(case, &format!("{prefix}velocity"))[i];
            self.close(
                id,
                &format!("{prefix}position(t={t})"),
                motion.position(t),
                x,
                scale,
            );
            self.close(
                id,
                &format!("{prefix}velocity(t={t})"),
                motion.velocity(t),
                v,
                scale,
            );
        }
    }
}

fn check_case(judge: &mut Judge, case: &Value) {
    let id = case["id"].as_str().unwrap();
    let p = &case["params"];
    match (case["kind"].as_str().unwrap(), case["motion"].as_str()) {
        ("motion", Some("spring")) => {
            let s = Spring::new(
                num(p, "from"),
                num(p, "to"),
                num(p, "velocity"),
                num(p, "mass"),
                num(p, "stiffness"),
                num(p, "damping"),
            )
            .unwrap();
            judge.trajectory(id, case, &s, "");
        }
        ("motion", Some("friction")) => {
            let f = Friction::new(num(p, "from"), num(p, "velocity"), num(p, "friction")).unwrap();
            judge.trajectory(id, case, &f, "");
        }
        ("motion", Some("decay")) => {
            let d = Decay::new(num(p, "from"), num(p, "velocity"), num(p, "lambda")).unwrap();
            judge.trajectory(id, case, &d, "");
        }
        ("motion", Some("gravity")) => {
            let g =
                Gravity::new(num(p, "from"), num(p, "velocity"), num(p, "acceleration")).unwrap();
            judge.trajectory(id, case, &g, "");
        }
        ("motion", Some("explosion_ring")) => {
            let end = |r: &Value| RadiusEnd {
                from: num(r, "from"),
                to: num(r, "to"),
                end_velocity: num(r, "end_velocity"),
            };
            let ring =
                ExplosionRing::new(end(&p["inner"]), end(&p["outer"]), num(p, "duration")).unwrap();
            judge.trajectory(id, case, ring.inner(), "inner_");
            judge.trajectory(id, case, ring.outer(), "outer_");
            for (side, solved) in [("inner", ring.inner()), ("outer", ring.outer())] {
                let exp = &case["solved"][side];
                check_solution(
                    judge,
                    &format!("{id} {side}"),
                    solved.decay(),
                    exp,
                    num(p, "duration"),
                );
            }
        }
        ("decay_solve", _) => {
            let s = &case["solve"];
            let got = Decay::solve(
                num(s, "from"),
                num(s, "to"),
                num(s, "end_velocity"),
                num(s, "duration"),
            );
            let expected = &case["expected"];
            match expected["error"].as_str() {
                Some(reason) => judge.error(id, got, reason),
                None => check_solution(
                    judge,
                    id,
                    got.unwrap().decay(),
                    expected,
                    num(s, "duration"),
                ),
            }
        }
        ("perceptual", _) => {
            let q = &case["perceptual"];
            let (m, k, c) = perceptual_parameters(num(q, "duration"), num(q, "bounce")).unwrap();
            let e = &case["expected"];
            for (what, got, exp) in [
                ("mass", m, num(e, "mass")),
                ("stiffness", k, num(e, "stiffness")),
                ("damping", c, num(e, "damping")),
            ] {
                judge.close(id, what, got, exp, exp.abs().max(1.0));
            }
        }
        ("gravity_time_to", _) => {
            let g =
                Gravity::new(num(p, "from"), num(p, "velocity"), num(p, "acceleration")).unwrap();
            let got = g.time_to(num(p, "to"));
            match case["expected"]["time"].as_f64() {
                Some(exp) => judge.close(id, "time", got.unwrap_or(f64::NAN), exp, exp.abs()),
                None => {
                    judge.checked += 1;
                    if got.is_some() {
                        judge
                            .failures
                            .push(format!("{id}: expected never, got {got:?}"));
                    }
                }
            }
        }
        ("friction_rest", _) => {
            let f = Friction::new(num(p, "from"), num(p, "velocity"), num(p, "friction")).unwrap();
            let e = &case["expected"];
            let time = num(e, "time");
            let rest_time = f.rest_time(num(p, "rest_speed")).unwrap();
            if time == 0.0 {
                judge.checked += 1;
                assert_eq!(rest_time, 0.0, "{id}");
            } else {
                judge.close(id, "time", rest_time, time, time.abs());
            }
            let pos = num(e, "position");
            judge.close(
                id,
                "position",
                f.rest_position().unwrap(),
                pos,
                pos.abs().max(1.0),
            );
        }
        ("friction_snap", _) => {
            let got = Friction::snap(num(p, "from"), num(p, "to"), num(p, "velocity"));
            let e = &case["expected"];
            match e["error"].as_str() {
                Some(reason) => judge.error(id, got, reason),
                None => {
                    let exp = num(e, "friction");
                    let f = got.unwrap();
                    judge.close(id, "friction", f.friction(), exp, exp.abs().max(1.0));
                    judge.close(
                        id,
                        "rests at to",
                        f.rest_position().unwrap(),
                        num(p, "to"),
                        num(p, "to").abs(),
                    );
                }
            }
        }
        (kind, motion) => panic!("unknown case kind {kind} {motion:?}"),
    }
}

/// velocity: |got - exp| <= 1e-9·|exp|; lambda: |got - exp|·T <= 1e-9·max(1, |exp·T|).
fn check_solution(judge: &mut Judge, id: &str, got: &Decay, expected: &Value, duration: f64) {
    let v = num(expected, "velocity");
    judge.checked += 1;
    if v == 0.0 {
        assert_eq!(got.initial_velocity(), 0.0, "{id}");
    } else {
        judge.close(id, "velocity", got.initial_velocity(), v, v.abs());
    }
    let lambda = num(expected, "lambda");
    judge.close(
        id,
        "lambda·T",
        got.lambda() * duration,
        lambda * duration,
        (lambda * duration).abs().max(1.0),
    );
}

#[test]
fn every_reference_case_is_within_tolerance() {
    let mut judge = Judge::default();
    for case in cases() {
        check_case(&mut judge, &case);
    }
    println!(
        "checked {} values; worst relative error {:e} at {}",
        judge.checked, judge.worst.0, judge.worst.1
    );
    assert!(
        judge.failures.is_empty(),
        "{} failures:\n{}",
        judge.failures.len(),
        judge.failures.join("\n")
    );
}
