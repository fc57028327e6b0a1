//! `play` (issue 28) proved in three browser engines: motions that take input at run time,
//! played by the Web Animations API from stops the shared runtime computes once, against
//! the closed forms of `curvebake_motion` evaluated here at the animation's own time.
//!
//! A page imports each module of a bake, plays it with input (springs of each regime with other
//! from, to and velocity, one flung away from its target; a unitless spring; flings with a
//! run-time velocity onto snap points and into a bound; gravity until a target), pauses each
//! animation and seeks it to 150 instants (in half milliseconds: frame times and the times between)
//! per case, all in one page load, and reports `getComputedStyle` with the handle's
//! `position()` and `velocity()` at each. Every played value must be within the module's bound
//! (0.1 px; 0.001 unitless) of the closed form, and the handle's exact values must agree with
//! it (1e-9 of the motion's scale). A spring is then retargeted 20 times at random instants
//! (twice at one instant, mid-overshoot, near rest): position must not jump and velocity must
//! carry over within 1 % of the peak speed, the chain judged against springs built here from
//! the reported instants. A running spring retargeted twice in one task must not move either,
//! `finished` must resolve when the animation finishes and reject on `cancel()`, a retarget
//! after the end must play again from the rest value (its `finished` pending until that run
//! ends), and a spring cancelled mid-flight must keep the position and velocity of that instant
//! for `position()` and `velocity()`, a retarget then playing again from them. The page also times 200 starts and 200
//! retargets, five rounds (reported, not asserted: the first and the median). A control
//! compares one case against the wrong spring, which must fail. Last, the CSS of a spring
//! played with `--p-under-from` and `--p-under-to` set on the element must be the baked curve
//! stretched between those ends (within 0.01 px of the same class without them, mapped
//! linearly).

use crate::common;

use common::engines::{assert_none_fails, engines, Engine, RunOptions, HARNESS_HEAD};
use common::random::Random;
use curvebake::export::{Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use curvebake_motion::{Friction, Gravity, Inertia, InertiaParams, Motion, Spring};
use serde_json::{json, Value};
use std::path::Path;

/// The motions the page plays (no file of `curves/` is needed: the parameters are here).
const MOTIONS: &str = r#"[
  (name: "p-under", property: "translateY", motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18)),
  (name: "p-critical", property: "translateX", motion: Spring(from: 0, to: 300, stiffness: 400, damping: 40)),
  (name: "p-over", property: "translateX", motion: Spring(from: 0, to: 300, stiffness: 100, damping: 60)),
  (name: "p-scale", property: "scale", motion: Spring(from: 0.5, to: 1, stiffness: 300, damping: 15)),
  (name: "p-fling", property: "translateX", motion: Friction(from: 0, velocity: 1800, friction: 0.02)),
  (name: "p-carousel", property: "translateX", motion: Inertia(from: 0, velocity: -1500, friction: 0.02, min: -1280, max: 0, snap: [0, -320, -640, -960, -1280])),
  (name: "p-sheet", property: "translateY", motion: Inertia(from: 0, velocity: 2400, friction: 0.05, min: 0, max: 600)),
  (name: "p-toss", property: "translateY", motion: Gravity(from: 0, velocity: -900, acceleration: 2250, to: 200)),
  (name: "p-fade", property: "translateY", reduced_motion: "fade", motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18)),
]"#;

/// Seeks per case, as fractions of the animation's duration (then whole milliseconds).
const SEEKS: usize = 150;

/// A case: a module, its input, and the reference closed form.
struct Case {
    module: &'static str,
    input: Value,
    reference: Box<dyn Motion>,
    /// Unitless (scale): bound 0.001, else 0.1.
    unitless: bool,
    /// Ends on arrival (gravity): compare up to the end only.
    ends: bool,
}

fn spring(from: f64, to: f64, v: f64, k: f64, c: f64) -> Box<dyn Motion> {
    Box::new(Spring::new(from, to, v, 1.0, k, c).unwrap())
}

fn inertia(
    from: f64,
    velocity: f64,
    friction: f64,
    bounds: (Option<f64>, Option<f64>),
    snap: &[f64],
) -> Box<dyn Motion> {
    Box::new(
        Inertia::new(InertiaParams {
            from,
            velocity,
            friction,
            min: bounds.0,
            max: bounds.1,
            bounce_stiffness: 500.0,
            bounce_damping: 10.0,
            snap: snap.to_vec(),
        })
        .unwrap(),
    )
}

fn cases() -> Vec<Case> {
    let case = |module, input: Value, reference, unitless, ends| Case {
        module,
        input,
        reference,
        unitless,
        ends,
    };
    let carousel = [0.0, -320.0, -640.0, -960.0, -1280.0];
    vec![
        case(
            "p-under",
            json!({}),
            spring(-240.0, 0.0, 0.0, 220.0, 18.0),
            false,
            false,
        ),
        case(
            "p-under",
            json!({"from": 120, "to": -60, "velocity": 900}),
            spring(120.0, -60.0, 900.0, 220.0, 18.0),
            false,
            false,
        ),
        case(
            "p-under",
            json!({"velocity": -3000}),
            spring(-240.0, 0.0, -3000.0, 220.0, 18.0),
            false,
            false,
        ),
        case(
            "p-critical",
            json!({"from": 500, "to": 20, "velocity": 2500}),
            spring(500.0, 20.0, 2500.0, 400.0, 40.0),
            false,
            false,
        ),
        case(
            "p-under",
            json!({"from": 30, "to": 30}),
            spring(30.0, 30.0, 0.0, 220.0, 18.0),
            false,
            false,
        ),
        case(
            "p-critical",
            json!({}),
            spring(0.0, 300.0, 0.0, 400.0, 40.0),
            false,
            false,
        ),
        case(
            "p-over",
            json!({"from": -100, "velocity": -1200}),
            spring(-100.0, 300.0, -1200.0, 100.0, 60.0),
            false,
            false,
        ),
        case(
            "p-scale",
            json!({"from": 1.4, "to": 0.8, "velocity": 6}),
            spring(1.4, 0.8, 6.0, 300.0, 15.0),
            true,
            false,
        ),
        case(
            "p-fling",
            json!({"from": 40, "velocity": -2600}),
            Box::new(Friction::new(40.0, -2600.0, 0.02).unwrap()),
            false,
            false,
        ),
        case(
            "p-carousel",
            json!({"from": -300, "velocity": -2600}),
            inertia(-300.0, -2600.0, 0.02, (Some(-1280.0), Some(0.0)), &carousel),
            false,
            false,
        ),
        case(
            "p-carousel",
            json!({"from": -700, "velocity": 300}),
            inertia(-700.0, 300.0, 0.02, (Some(-1280.0), Some(0.0)), &carousel),
            false,
            false,
        ),
        case(
            "p-carousel",
            json!({"from": -100, "velocity": 900, "snap": [-500, 0]}),
            inertia(
                -100.0,
                900.0,
                0.02,
                (Some(-1280.0), Some(0.0)),
                &[-500.0, 0.0],
            ),
            false,
            false,
        ),
        case(
            "p-sheet",
            json!({"from": 300, "velocity": 5200}),
            inertia(300.0, 5200.0, 0.05, (Some(0.0), Some(600.0)), &[]),
            false,
            false,
        ),
        case(
            "p-sheet",
            json!({"from": 650, "velocity": 400}),
            inertia(650.0, 400.0, 0.05, (Some(0.0), Some(600.0)), &[]),
            false,
            false,
        ),
        // Released past a bound with snap points: the bounce spring back to that bound (as
        // the bake's inertia).
        case(
            "p-carousel",
            json!({"from": 40, "velocity": -3000}),
            inertia(40.0, -3000.0, 0.02, (Some(-1280.0), Some(0.0)), &carousel),
            false,
            false,
        ),
        // Past a bound with a `to` (a retarget's case): onto it, whatever the bounds.
        case(
            "p-sheet",
            json!({"from": 650, "velocity": 0, "to": 300}),
            inertia(650.0, 0.0, 0.05, (None, None), &[300.0]),
            false,
            false,
        ),
        case(
            "p-toss",
            json!({"from": 50, "velocity": -1400}),
            Box::new(Gravity::new(50.0, -1400.0, 2250.0).unwrap()),
            false,
            true,
        ),
    ]
}

/// The 20 retargets: (fraction of the current animation's duration, new target). Twice at
/// fraction 0 right after a retarget (two in one frame), some mid-overshoot, some near rest.
fn retargets() -> Vec<(f64, f64)> {
    let mut random = Random(28);
    (0..20)
        .map(|i| {
            let to = (random.next() - 0.5) * 800.0;
            let at = match i % 5 {
                1 => 0.0,
                2 => 0.05 + 0.15 * random.next(),
                3 => 0.9 + 0.09 * random.next(),
                _ => random.next(),
            };
            (at, to)
        })
        .collect()
}

const PAGE_SCRIPT: &str = r#"
const plan = JSON.parse(document.getElementById("plan").textContent);
const host = document.getElementById("host");
const round = (t) => Math.round(t * 2) / 2;
function played(el, property) {
  const cs = getComputedStyle(el);
  if (property === "scale") { const s = parseFloat(cs.scale); return isNaN(s) ? 1 : s; }
  const parts = cs.translate.split(" ");
  const v = parseFloat(parts[property === "translateY" ? 1 : 0]);
  return isNaN(v) ? 0 : v;
}
function fresh() { const el = document.createElement("div"); host.appendChild(el); return el; }
// One reading: [t read back (ms), played, position(), velocity()].
function at(h, el, property, t) {
  const a = h.animation;
  a.currentTime = t;
  return [a.currentTime, played(el, property), h.position(), h.velocity()];
}
async function main() {
  const out = { userAgent: navigator.userAgent, cases: [], chain: null };
  // The CSS classes' animations, started here and paused at once: one that ends at the
  // element's own value leaves no animation behind once it ends (fill backwards), which a
  // slow page would reach before the cases below are done.
  const cssElements = ["css-base", "css-ends"].map((id) => document.getElementById(id));
  for (const e of cssElements) e.className = "p-under";
  const cssAnimations = cssElements.map((e) => e.getAnimations()[0]);
  for (const a of cssAnimations) a.pause();
  for (const c of plan.cases) {
    const m = modules[c.module], el = fresh();
    const h = m.play(el, c.input);
    h.animation.pause();
    const T = h.animation.effect.getTiming().duration;
    const samples = plan.seeks.map((f) => at(h, el, m.property, round(f * T)));
    out.cases.push({ T, samples });
    h.cancel();
  }
  // 20 retargets of a paused spring, each after a few seeks on the animation it ends.
  {
    const m = modules[plan.chain.module], el = fresh();
    const h = m.play(el, plan.chain.input);
    h.animation.pause();
    const steps = [];
    for (const [f, to] of plan.chain.retargets) {
      const T = h.animation.effect.getTiming().duration, t = round(f * T);
      const seeks = [0.25, 0.5, 0.75].map((g) => at(h, el, m.property, round(g * t)));
      const before = at(h, el, m.property, t);
      h.retarget(to);
      const a = h.animation;
      steps.push({ to, seeks, before, after: [a.currentTime, played(el, m.property), h.position(), h.velocity()], paused: a.playState });
    }
    h.cancel();
    out.chain = steps;
  }
  // A running spring retargeted twice in one task: nothing moves.
  {
    const m = modules[plan.chain.module], el = fresh();
    const h = m.play(el, plan.chain.input);
    await new Promise((r) => setTimeout(r, 150));
    const before = [played(el, m.property), h.position(), h.velocity()];
    h.retarget(80);
    h.retarget(-40);
    const after = [played(el, m.property), h.position(), h.velocity()];
    out.running = { before, after, currentTime: h.animation.currentTime, state: h.animation.playState };
    h.cancel();
  }
  // finished resolves when the animation finishes, rejects on cancel.
  {
    const m = modules[plan.chain.module];
    const h = m.play(fresh(), { to: 10 }), g = m.play(fresh(), { to: 20 });
    h.retarget(30);
    h.animation.finish();
    g.cancel();
    const timeout = new Promise((r) => setTimeout(() => r("timeout"), 2000));
    out.finished = await Promise.race([h.finished.then(() => "resolved", (e) => "rejected " + e), timeout]);
    out.cancelled = await Promise.race([g.finished.then(() => "resolved", (e) => e.name), timeout]);
    // Ended: at rest, exactly (Gecko and WebKit read its time back a hair before its end).
    out.ended = [h.position(), h.velocity()];
    // Retargeted after its end, it plays again from where it rests (30), from its time 0; a
    // cancel then leaves no unhandled rejection (the page's errors).
    h.retarget(-20);
    out.again = [h.animation.playState, h.animation.currentTime, h.position(), h.velocity()];
    // Its `finished` is the new run's: pending until that ends.
    const tick = new Promise((r) => setTimeout(() => r("pending"), 50));
    out.finishedAgain = [await Promise.race([h.finished.then(() => "resolved"), tick])];
    h.animation.finish();
    out.finishedAgain.push(await Promise.race([h.finished.then(() => "resolved"), timeout]));
    h.cancel();
  }
  // Cancelled mid-flight (the grab of a drag): position() and velocity() stay those of the
  // instant it was cancelled at; a retarget then plays again from there.
  {
    const m = modules[plan.chain.module];
    const h = m.play(fresh(), { from: -240, to: 0 });
    h.animation.pause();
    h.animation.currentTime = 120;
    const at = [h.position(), h.velocity()];
    h.cancel();
    const after = [h.position(), h.velocity()];
    h.retarget(50);
    out.grab = { at, after, again: [h.animation.playState, h.position(), h.velocity()] };
    h.cancel();
  }
  // Played backwards (`reverse()`), then retargeted: it plays forwards from where it is, at
  // once (it finished at time 0 and stood still before).
  {
    const m = modules[plan.chain.module];
    const h = m.play(fresh(), { from: 200, to: 0 });
    h.animation.pause();
    h.animation.currentTime = 150;
    h.animation.reverse();
    const at = [h.position(), h.velocity()];
    h.retarget(100);
    h.animation.pause();
    h.animation.currentTime = 50;
    out.reversed = { at, rate: h.animation.playbackRate, state: h.animation.playState, later: [h.position(), h.velocity()] };
    h.cancel();
  }
  // The CSS with other ends (--p-under-from: 100px, --p-under-to: -50px, and the element at
  // -50px as the recipe says, for after the end) beside the baked one.
  out.css = plan.seeks.map((f) => cssAnimations.map((a, i) => { a.currentTime = round(f * 800); return played(cssElements[i], "translateY"); }));
  // Script cost of a start and of a retarget (reported, not asserted), five rounds each, the
  // first (the runtime not yet compiled by the engine) and the median round: 200 starts
  // stacked on one element, then 200 retargets; and 200 starts each on an element of its own
  // (as a page starts a motion: nothing else animating there), then their retargets. Beside
  // them, the engine's part alone on elements of their own: the calls a start and a retarget
  // make (a copy of the motion's effect, targeted, played, re-timed with a motion's easing),
  // without the runtime's script.
  {
    const m = modules[plan.chain.module], n = 200;
    const proto = new KeyframeEffect(m.play(fresh(), { from: 0, velocity: 1000 }).animation.effect), timing = proto.getTiming();
    proto.target = null;
    // As the runtime's `go` calls them.
    const retime = (e, a) => {
      e.updateTiming({ duration: timing.duration, fill: "both", easing: timing.easing });
      a.currentTime = 0;
      a.playbackRate = Math.abs(a.playbackRate);
    };
    const engine = {
      play(el) {
        const e = new KeyframeEffect(proto);
        e.target = el;
        const a = new Animation(e);
        a.play();
        retime(e, a);
        return { retarget: () => retime(e, a), cancel: () => a.cancel() };
      },
    };
    const rounds = (own, player = m) => {
      const out = [];
      for (let r = 0; r < 5; r++) {
        const one = fresh(), els = Array.from({ length: n }, () => (own ? fresh() : one)), hs = [];
        let t0 = performance.now();
        for (let i = 0; i < n; i++) hs.push(player.play(els[i], { from: i - 100, velocity: 10 * i }));
        const start = (performance.now() - t0) / n;
        t0 = performance.now();
        for (let i = 0; i < n; i++) hs[i].retarget(i);
        out.push([start, (performance.now() - t0) / n]);
        for (const h of hs) h.cancel();
      }
      return out;
    };
    const stacked = rounds(false), own = rounds(true), engineOnly = rounds(true, engine);
    const median = (rs, k) => rs.map((r) => r[k]).sort((a, b) => a - b)[2];
    out.cost = { start: stacked[0][0], retarget: stacked[0][1], startMedian: median(stacked, 0), retargetMedian: median(stacked, 1),
      ownStartMedian: median(own, 0), ownRetargetMedian: median(own, 1),
      engineStartMedian: median(engineOnly, 0), engineRetargetMedian: median(engineOnly, 1),
      keyframes: proto.getKeyframes().length, stops: timing.easing.split(",").length };
  }
  cbReport(out);
}
main().catch((e) => { console.error(String((e && e.stack) || e)); cbReport(null); });
"#;

fn write_page(out: &Path, plan: &Value) {
    let mut imports = String::from("const modules = {};\n");
    let names: std::collections::BTreeSet<&str> = cases().iter().map(|c| c.module).collect();
    for (i, name) in names.iter().enumerate() {
        imports.push_str(&format!(
            "import * as m{i} from \"./js/{name}.js\";\nmodules[{name:?}] = m{i};\n"
        ));
    }
    let plan = plan.to_string();
    assert!(!plan.contains('<'));
    let page = format!(
        "<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n{HARNESS_HEAD}\n\
         <style>#host > div {{ width: 100px; height: 10px; }}</style>\n\
         <script type=\"application/json\" id=\"plan\">{plan}</script>\n</head>\n<body>\n\
         <link rel=\"stylesheet\" href=\"css/p-under.css\">\n\
         <div id=\"host\"></div><div id=\"css-base\"></div>\
         <div id=\"css-ends\" style=\"--p-under-from: 100px; --p-under-to: -50px; translate: 0 -50px\"></div>\n<script type=\"module\">\n{imports}{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
    );
    std::fs::write(out.join("browser-play-test.html"), page).unwrap();
}

/// Bakes [`MOTIONS`] (JS and CSS, a folder per format); returns the folder to keep and `out`.
fn bake() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("play.ron");
    std::fs::write(&source, MOTIONS).unwrap();
    let out = dir.path().join("out");
    let options = BakeOptions {
        inputs: vec![source],
        out: out.clone(),
        formats: vec![Format::Js, Format::Css],
        layout: Layout::PerMotion,
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    (dir, out)
}

/// Under `prefers-reduced-motion: reduce`, `play` (policy `jump`) shows the rest value at once,
/// and so does a retarget, in every engine: WebKit does not ease an animation of no duration,
/// so the runtime's jump is an animation finished at once, not one of no time. A motion whose
/// policy is `fade` also fades the element in; one whose policy is `jump` does not.
#[test]
fn under_reduced_motion_play_shows_the_rest_value_at_once_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let (_dir, out) = bake();
    let page = format!(
        "<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n{HARNESS_HEAD}\n</head>\n<body>\n\
         <script type=\"module\">\n\
         import {{ play }} from \"./js/p-under.js\";\n\
         import {{ play as playFading }} from \"./js/p-fade.js\";\n\
         const el = document.createElement(\"div\");\n\
         document.body.append(el);\n\
         const y = () => parseFloat(getComputedStyle(el).translate.split(\" \")[1]);\n\
         const h = play(el, {{ from: 100, to: 40, velocity: 500 }});\n\
         const shown = [y()];\n\
         h.retarget(-30);\n\
         shown.push(y());\n\
         const faded = document.createElement(\"div\");\n\
         document.body.append(faded);\n\
         playFading(faded, {{ to: 40 }});\n\
         const fades = (e) => e.getAnimations().filter((a) => a.effect.getKeyframes().some((k) => \"opacity\" in k)).length;\n\
         cbReport({{ reduce: matchMedia(\"(prefers-reduced-motion: reduce)\").matches, shown, fades: [fades(el), fades(faded)] }});\n\
         </script>\n</body>\n</html>\n"
    );
    std::fs::write(out.join("reduced.html"), page).unwrap();
    let options = RunOptions {
        reduced_motion: true,
        ..RunOptions::default()
    };
    assert_none_fails(&engines, |engine| {
        let outcome = engine.run(&out, "reduced.html", &options);
        let r = &outcome.result;
        let shown: Vec<f64> = (r["shown"].as_array().into_iter().flatten())
            .map(|x| x.as_f64().unwrap_or(f64::NAN))
            .collect();
        let at_rest =
            shown.len() == 2 && (shown[0] - 40.0).abs() <= 0.1 && (shown[1] + 30.0).abs() <= 0.1;
        if outcome.errors.is_empty()
            && r["reduce"] == true
            && at_rest
            && r["fades"] == json!([0, 1])
        {
            vec![]
        } else {
            vec![format!(
                "shows {r} (40 then -30, and fades [0, 1] expected), errors {:?}",
                outcome.errors
            )]
        }
    });
}

/// The chain's spring: p-under's (mass 1, stiffness 220, damping 18).
fn chain_spring(from: f64, to: f64, v: f64) -> Spring {
    Spring::new(from, to, v, 1.0, 220.0, 18.0).unwrap()
}

#[test]
fn play_with_input_stays_within_the_bound_of_the_closed_form_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let (_dir, out) = bake();
    let cases = cases();
    // Fractions of the duration: uniform, denser at the start, and past the end.
    let seeks: Vec<f64> = (0..SEEKS)
        .map(|i| {
            let u = i as f64 / (SEEKS - 10) as f64;
            if i < SEEKS - 10 {
                u * u * 0.5 + u * 0.5
            } else {
                1.0 + 0.1 * (i + 10 - SEEKS) as f64
            }
        })
        .collect();
    let plan = json!({
        "cases": cases.iter().map(|c| json!({"module": c.module, "input": c.input})).collect::<Vec<_>>(),
        "seeks": seeks,
        "chain": {
            "module": "p-under",
            "input": {"from": -240, "to": 0, "velocity": 0},
            "retargets": retargets().iter().map(|&(f, to)| json!([f, to])).collect::<Vec<_>>(),
        },
    });
    write_page(&out, &plan);
    assert_none_fails(&engines, |engine| check_in_engine(engine, &out, &cases));
}

/// Loads the page in one engine; returns the failures.
fn check_in_engine(engine: &Engine, out: &Path, cases: &[Case]) -> Vec<String> {
    let outcome = engine.run(out, "browser-play-test.html", &RunOptions::default());
    assert!(
        outcome.errors.is_empty(),
        "{}: page errors: {:?}",
        engine.name(),
        outcome.errors
    );
    let r = &outcome.result;
    let mut failures = Vec::new();
    let mut worst = (0.0f64, String::new());
    let mut control = 0.0f64;
    for (c, result) in cases.iter().zip(r["cases"].as_array().unwrap()) {
        let tol = if c.unitless { 0.001 } else { 0.1 };
        let duration = result["T"].as_f64().unwrap() / 1000.0;
        let mut scale = 1.0f64;
        for s in result["samples"].as_array().unwrap() {
            let s: Vec<f64> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NAN))
                .collect();
            scale = scale.max(s[1].abs());
        }
        let wrong = spring(0.0, 1.0, 0.0, 170.0, 26.0);
        for s in result["samples"].as_array().unwrap() {
            let s: Vec<f64> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NAN))
                .collect();
            let (t, shown, position, velocity) = (s[0] / 1000.0, s[1], s[2], s[3]);
            if c.ends && t > duration {
                continue;
            }
            let (x, v) = c.reference.state(t);
            // getComputedStyle's 6 significant digits (Chromium) come on top of the bound.
            let error = (shown - x).abs();
            if !(error <= tol + 5e-6 * x.abs()) {
                failures.push(format!(
                    "{} {}: at {:.1} ms shows {shown}, closed form {x} ({error:.4} off)",
                    c.module,
                    c.input,
                    t * 1000.0
                ));
            }
            if error > worst.0 && !c.unitless {
                worst = (
                    error,
                    format!("{} {} at {:.1} ms", c.module, c.input, t * 1000.0),
                );
            }
            if c.module == "p-critical" && c.input == json!({}) {
                control = control.max((shown - 300.0 * wrong.position(t)).abs());
            }
            // The handle's exact values (at rest after the end: within the bound there).
            let exact = if t < duration {
                1e-9 * scale.max(1.0) * 1e3
            } else {
                tol
            };
            if !((position - x).abs() <= exact) {
                failures.push(format!(
                    "{} {}: position() at {:.1} ms is {position}, closed form {x}",
                    c.module,
                    c.input,
                    t * 1000.0
                ));
            }
            if t < duration && !((velocity - v).abs() <= 1e-9 * (1.0 + v.abs() + scale) * 1e3) {
                failures.push(format!(
                    "{} {}: velocity() at {:.1} ms is {velocity}, closed form {v}",
                    c.module,
                    c.input,
                    t * 1000.0
                ));
            }
        }
    }
    if !(control > 1.0) {
        failures.push(format!(
            "control: the wrong spring came within {control} px"
        ));
    }
    // The chain of 20 retargets.
    let mut motion = chain_spring(-240.0, 0.0, 0.0);
    let mut peak = 0.0f64;
    let mut chain_worst = (0.0f64, 0.0f64);
    for (i, step) in r["chain"].as_array().unwrap().iter().enumerate() {
        let get = |k: &str| -> Vec<f64> {
            step[k]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NAN))
                .collect()
        };
        for s in step["seeks"].as_array().unwrap() {
            let s: Vec<f64> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            let x = motion.position(s[0] / 1000.0);
            peak = peak.max(motion.velocity(s[0] / 1000.0).abs());
            if !((s[1] - x).abs() <= 0.1 + 5e-6 * x.abs()) {
                failures.push(format!(
                    "retarget {i}: at {} ms shows {}, closed form {x}",
                    s[0], s[1]
                ));
            }
        }
        let (before, after) = (get("before"), get("after"));
        let (x, v) = motion.state(before[0] / 1000.0);
        peak = peak.max(v.abs());
        let to = step["to"].as_f64().unwrap();
        if !((before[2] - x).abs() <= 1e-6 && (after[2] - x).abs() <= 1e-6) {
            failures.push(format!(
                "retarget {i}: position {} then {}, closed form {x}",
                before[2], after[2]
            ));
        }
        let jump = (after[1] - before[1]).abs();
        chain_worst.0 = chain_worst.0.max(jump);
        if !(jump <= 0.2 && (after[1] - x).abs() <= 0.1 + 5e-6 * x.abs()) {
            failures.push(format!(
                "retarget {i}: shows {} then {} (closed form {x})",
                before[1], after[1]
            ));
        }
        let dv = (after[3] - v).abs();
        chain_worst.1 = chain_worst.1.max(dv);
        if !(dv <= 0.01 * peak.max(1.0) && after[0] == 0.0 && step["paused"] == "paused") {
            failures.push(format!(
                "retarget {i}: velocity {v} then {} (peak {peak}), new animation at {} ms, {}",
                after[3], after[0], step["paused"]
            ));
        }
        motion = chain_spring(x, to, v);
    }
    let running = &r["running"];
    let (b, a) = (&running["before"], &running["after"]);
    let f = |v: &Value, i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    // The new animation starts at the old one's instant, up to the engine's clock (Gecko
    // reads it back 1 ns later): far below a visible move or a velocity change. What it shows
    // is held to the exact position there, not to what the page showed just before: WebKit
    // may still report the running animation's value at its last rendered frame.
    if !((f(a, 0) - f(a, 1)).abs() <= 0.2
        && (f(a, 1) - f(b, 1)).abs() <= 1e-3
        && (f(a, 2) - f(b, 2)).abs() <= 1e-3 * f(b, 2).abs().max(1.0))
    {
        failures.push(format!("running retarget moved: {running}"));
    }
    // The CSS between other ends is the baked curve stretched: x = to + (from - to)·s(t).
    let mut css_worst = 0.0f64;
    for pair in r["css"].as_array().unwrap() {
        let (base, ends) = (f(pair, 0), f(pair, 1));
        let expected = -50.0 + 150.0 * base / -240.0;
        css_worst = css_worst.max((ends - expected).abs());
    }
    eprintln!(
        "{}: CSS between other ends: {css_worst:.4} px from the stretched curve",
        engine.name()
    );
    if !(css_worst <= 0.01 + 5e-6 * 240.0) {
        failures.push(format!(
            "CSS with --p-under-from and --p-under-to: {css_worst} px from the stretched curve"
        ));
    }
    let again = &r["again"];
    // (Gecko may read the new start back 1 ns in, as for a running retarget; Gecko and WebKit
    // read the ended animation's time a hair before its end, where the spring is within the
    // bound of its rest, nearly still.)
    if !(again[0] == "running"
        && f(again, 1).abs() <= 1e-3
        && (f(again, 2) - 30.0).abs() <= 0.1
        && f(again, 3).abs() <= 1.0)
    {
        failures.push(format!(
            "retarget after the end: {again} (running from 0 at 30 expected)"
        ));
    }
    if r["finishedAgain"] != json!(["pending", "resolved"]) {
        failures.push(format!(
            "finished after a retarget past the end: {} (pending, then resolved)",
            r["finishedAgain"]
        ));
    }
    let grab = &r["grab"];
    let (at, after, again) = (&grab["at"], &grab["after"], &grab["again"]);
    // The spring at 120 ms is far from rest and moving; after the cancel, the same state.
    if !(f(at, 1).abs() > 100.0
        && f(after, 0) == f(at, 0)
        && f(after, 1) == f(at, 1)
        && again[0] == "running"
        && (f(again, 1) - f(at, 0)).abs() <= 1e-6
        && (f(again, 2) - f(at, 1)).abs() <= 1e-6 * f(at, 1).abs())
    {
        failures.push(format!(
            "cancelled at 120 ms: {grab} (position and velocity kept, then running from them)"
        ));
    }
    let reversed = &r["reversed"];
    let (at, later) = (&reversed["at"], &reversed["later"]);
    // 50 ms on from where it was reversed, forwards: the spring from there to 100, moved.
    let expected = chain_spring(f(at, 0), 100.0, f(at, 1)).position(0.05);
    if !(reversed["rate"].as_f64() == Some(1.0)
        && reversed["state"] == "paused"
        && (f(later, 0) - expected).abs() <= 1e-6 * expected.abs().max(1.0)
        && (f(later, 0) - f(at, 0)).abs() > 1.0)
    {
        failures.push(format!(
            "retargeted after reverse(): {reversed} (forwards, at {expected} 50 ms on)"
        ));
    }
    let ended = &r["ended"];
    if !(f(ended, 0) == 30.0 && f(ended, 1) == 0.0) {
        failures.push(format!(
            "position() and velocity() once finished: {} ([30, 0] expected: the rest)",
            r["ended"]
        ));
    }
    if r["finished"] != "resolved" || r["cancelled"] != "AbortError" {
        failures.push(format!(
            "finished: {}, after cancel: {}",
            r["finished"], r["cancelled"]
        ));
    }
    eprintln!(
        "{}: {:.1} s; worst played error {:.4} px ({}); 20 retargets: largest jump shown {:.4} px, velocity change {:.2e} px/s (peak {peak:.0}); start {:.4} ms, retarget {:.4} ms of script in the first 200 stacked on one element (median round: {:.4} ms, {:.4} ms; each on its own element: {:.4} ms, {:.4} ms, of which the engine's calls alone {:.4} ms, {:.4} ms; {} keyframes, {} stops); {}",
        engine.name(),
        outcome.elapsed.as_secs_f64(),
        worst.0,
        worst.1,
        chain_worst.0,
        chain_worst.1,
        r["cost"]["start"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["retarget"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["startMedian"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["retargetMedian"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["ownStartMedian"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["ownRetargetMedian"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["engineStartMedian"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["engineRetargetMedian"].as_f64().unwrap_or(f64::NAN),
        r["cost"]["keyframes"],
        r["cost"]["stops"],
        r["userAgent"].as_str().unwrap_or("?"),
    );
    failures
}
