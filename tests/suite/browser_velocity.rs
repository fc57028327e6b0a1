//! A spring's CSS with other ends and an initial velocity (issue 28), proved in three browser
//! engines: the ready class played with `--<name>-from`, `--<name>-to` and
//! `--<name>-velocity` set on the element, seeked to random instants (not frame times), must
//! show the closed form x(t) = to + (from - to)·s(t) + v·g(t) of `curvebake_motion`'s spring
//! within the bound of the baked motions (0.1 px), plus what reading a value back costs.
//!
//! Each animation holds its end value from its own end on (the first `to`, the second 0), as
//! the baked motions do. The CSS's proven bound is ε·(|to' - from'|/|to - from| + |v|/V)
//! (`css/velocity.rs`, V = ω0·|to - from|): the cases below keep it under ε, with velocities
//! towards and away from the target, an overdamped spring whose velocity animation outlasts
//! the motion. A control holds one
//! case to the closed form without its velocity, which must fail.

use crate::common;

use common::engines::{assert_none_fails, engines, Engine, RunOptions, HARNESS_HEAD};
use common::random::Random;
use curvebake::export::{Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use curvebake_motion::{Motion, Spring};
use serde_json::{json, Value};
use std::path::Path;

/// The springs (their classes are played with input).
const MOTIONS: &str = r#"[
  (name: "v-under", property: "translateY", motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18), css_velocity: true),
  (name: "v-critical", property: "translateX", motion: Spring(from: 0, to: 300, stiffness: 400, damping: 40), css_velocity: true),
  (name: "v-over", property: "translateX", motion: Spring(from: 0, to: 300, stiffness: 100, damping: 60), css_velocity: true),
]"#;

/// Random instants per case.
const SEEKS: usize = 200;

/// The bound of the baked motions, px.
const BOUND: f64 = 0.1;

/// What reading a value back costs (as `browser_css`), px.
const READ: f64 = 0.002;

/// A case: a class, its input on the element, and its spring (stiffness, damping; mass 1).
struct Case {
    name: &'static str,
    property: &'static str,
    from: f64,
    to: f64,
    velocity: f64,
    spring: (f64, f64),
}

impl Case {
    /// The element's style: the input, and its own value at the end (as the recipe says).
    fn style(&self) -> String {
        let name = self.name;
        let own = match self.property {
            "translateY" => format!("translate: 0 {}px", self.to),
            _ => format!("translate: {}px", self.to),
        };
        format!(
            "--{name}-from: {}px; --{name}-to: {}px; --{name}-velocity: {}; {own}",
            self.from, self.to, self.velocity
        )
    }

    /// The value shown at `t` (s) when the motion ends at `d` and its velocity at `d_v`:
    /// each part as its closed form before its end, its end value from then on.
    fn expected(&self, t: f64, d: f64, d_v: f64, velocity: f64) -> f64 {
        let (k, c) = self.spring;
        let step = Spring::new(self.from, self.to, 0.0, 1.0, k, c).unwrap();
        let impulse = Spring::new(0.0, 0.0, velocity, 1.0, k, c).unwrap();
        let main = if t < d { step.position(t) } else { self.to };
        main + if t < d_v { impulse.position(t) } else { 0.0 }
    }
}

fn cases() -> Vec<Case> {
    let case = |name, property, from, to, velocity, spring| Case {
        name,
        property,
        from,
        to,
        velocity,
        spring,
    };
    vec![
        // Away from the target (up, the target below), then towards it.
        case("v-under", "translateY", 100.0, -50.0, 900.0, (220.0, 18.0)),
        case("v-under", "translateY", -120.0, 60.0, 800.0, (220.0, 18.0)),
        case(
            "v-critical",
            "translateX",
            200.0,
            50.0,
            1200.0,
            (400.0, 40.0),
        ),
        // Its velocity animation outlasts the motion (a stretched duration).
        case("v-over", "translateX", 150.0, 0.0, -900.0, (100.0, 60.0)),
    ]
}

const PAGE_SCRIPT: &str = r#"
const plan = JSON.parse(document.getElementById("plan").textContent);
function played(el, property) {
  const cs = getComputedStyle(el);
  const parts = cs.translate.split(" ");
  const v = parseFloat(parts[property === "translateY" ? 1 : 0]);
  return isNaN(v) ? 0 : v;
}
const out = plan.cases.map((c, i) => {
  const el = document.getElementById("case" + i);
  const as = el.getAnimations();
  for (const a of as) a.pause();
  const durations = as.map((a) => a.effect.getComputedTiming().duration);
  const T = Math.max(...durations);
  const samples = c.seeks.map((f) => {
    for (const a of as) a.currentTime = f * T;
    return [as[0].currentTime, played(el, c.property)];
  });
  return { names: as.map((a) => a.animationName), durations, samples };
});
cbReport({ userAgent: navigator.userAgent, cases: out });
"#;

fn write_page(out: &Path, cases: &[Case], plan: &Value) {
    let names: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.name).collect();
    let links: String = names
        .iter()
        .map(|n| format!("<link rel=\"stylesheet\" href=\"css/{n}.css\">\n"))
        .collect();
    let elements: String = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "<div id=\"case{i}\" class=\"{}\" style=\"{}\"></div>\n",
                c.name,
                c.style()
            )
        })
        .collect();
    let plan = plan.to_string();
    assert!(!plan.contains('<'));
    let page = format!(
        "<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n{HARNESS_HEAD}\n{links}\
         <style>div {{ width: 100px; height: 10px; }}</style>\n\
         <script type=\"application/json\" id=\"plan\">{plan}</script>\n</head>\n<body>\n\
         {elements}<script>\n{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
    );
    std::fs::write(out.join("browser-velocity-test.html"), page).unwrap();
}

#[test]
fn a_spring_class_with_other_ends_and_a_velocity_plays_the_closed_form_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("velocity.ron");
    std::fs::write(&source, MOTIONS).unwrap();
    let out = dir.path().join("out");
    let options = BakeOptions {
        inputs: vec![source],
        out: out.clone(),
        formats: vec![Format::Css],
        layout: Layout::PerMotion,
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let cases = cases();
    // Random instants (fractions of the later end, up to a little past it; any time, not
    // frames or whole milliseconds).
    let mut random = Random(2828);
    let plan = json!({
        "cases": cases.iter().map(|c| {
            let seeks: Vec<f64> = (0..SEEKS).map(|_| random.range(0.0, 1.05)).collect();
            json!({"property": c.property, "seeks": seeks})
        }).collect::<Vec<_>>(),
    });
    write_page(&out, &cases, &plan);
    assert_none_fails(&engines, |engine| check_in_engine(engine, &out, &cases));
}

/// Loads the page in one engine; returns the failures.
fn check_in_engine(engine: &Engine, out: &Path, cases: &[Case]) -> Vec<String> {
    let outcome = engine.run(out, "browser-velocity-test.html", &RunOptions::default());
    assert!(
        outcome.errors.is_empty(),
        "{}: page errors: {:?}",
        engine.name(),
        outcome.errors
    );
    let r = &outcome.result;
    let mut failures = Vec::new();
    let mut worst = 0.0f64;
    let mut control = 0.0f64;
    for (c, result) in cases.iter().zip(r["cases"].as_array().unwrap()) {
        let names: Vec<&str> = (result["names"].as_array().unwrap().iter())
            .map(|n| n.as_str().unwrap())
            .collect();
        let velocity_name = format!("{}-velocity", c.name);
        if names != [c.name, velocity_name.as_str()] {
            failures.push(format!("{}: animations {names:?}", c.name));
            continue;
        }
        let durations: Vec<f64> = (result["durations"].as_array().unwrap().iter())
            .map(|d| d.as_f64().unwrap() / 1000.0)
            .collect();
        let (d, d_v) = (durations[0], durations[1]);
        for s in result["samples"].as_array().unwrap() {
            let (t, shown) = (s[0].as_f64().unwrap() / 1000.0, s[1].as_f64().unwrap());
            let x = c.expected(t, d, d_v, c.velocity);
            // Chromium's 6 significant digits come on top.
            let error = (shown - x).abs();
            if !(error <= BOUND + READ + 5e-6 * x.abs()) {
                failures.push(format!(
                    "{} {}: at {:.4} ms shows {shown}, closed form {x} ({error:.5} off)",
                    c.name,
                    c.style(),
                    t * 1000.0
                ));
            }
            worst = worst.max(error);
            if c.name == "v-under" && t < d {
                control = control.max((shown - c.expected(t, d, d_v, 0.0)).abs());
            }
        }
        eprintln!("{}: {}: durations {d} s and {d_v} s", engine.name(), c.name);
    }
    if !(control > 1.0) {
        failures.push(format!(
            "control: the closed form without the velocity came within {control} px"
        ));
    }
    eprintln!(
        "{}: {:.1} s; worst error {worst:.4} px; {}",
        engine.name(),
        outcome.elapsed.as_secs_f64(),
        r["userAgent"].as_str().unwrap_or("?"),
    );
    failures
}
