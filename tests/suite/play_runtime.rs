//! The runtime of `play` (`js/runtime.js`) judged in Node against `curvebake_motion`, for many
//! drawn inputs: what it hands Web Animations (two keyframes and a `linear()` easing, read
//! here as a browser reads them: the stops' values between the keyframes' values, linear
//! between stops) must stay within the bound (0.1 px; 0.001 unitless) of the closed form at
//! every instant, on and after the last stop too (rest), for springs of damping ratios from
//! 0.05 to 30 (critical exactly included), flings onto snap points, behind them and into
//! bounds, and gravity to a target. Each segment is checked at its ends and 15 points inside,
//! which with the closed form's bounded curvature leaves nothing between; the bound is the one
//! the runtime proves (chord h²/8·max|x''| under the decay envelope), so this checks the
//! envelope and the stepping, not a sampled guess. Under `prefers-reduced-motion: reduce` it
//! must jump to the rest value (policy `jump`), also fade the element in (`fade`), or play
//! (`keep`). With `node` missing the test is skipped, or fails under
//! `CURVEBAKE_REQUIRE_JS_TOOLS=1`. A control checks the wrong spring fails.

use crate::common::random::Random;
use curvebake_export::js::CHORD_SHARE;
use curvebake_motion::{Gravity, Inertia, InertiaParams, Motion, Spring};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

/// Inside points checked per segment.
const INSIDE: usize = 15;

/// Node, or None (skipped; a failure under `CURVEBAKE_REQUIRE_JS_TOOLS=1`).
pub(crate) fn node() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|dirs| {
        std::env::split_paths(&dirs)
            .map(|d| d.join("node"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            !std::env::var("CURVEBAKE_REQUIRE_JS_TOOLS").is_ok_and(|v| v.trim() == "1"),
            "node not found on PATH (CURVEBAKE_REQUIRE_JS_TOOLS=1)"
        );
        eprintln!("SKIPPED play_runtime: node not found on PATH");
    }
    found
}

/// What `play` handed `element.animate`, read as an engine plays it.
#[derive(Debug)]
struct Played {
    /// The first animation's duration.
    duration_ms: f64,
    /// Its current time once `play` returned.
    current_ms: f64,
    /// Its stops: (progress, value), linear between them.
    stops: Vec<(f64, f64)>,
    /// How many animations were made (a fade-in's too).
    animations: usize,
    /// Position and velocity the handle reads once the animation is made finished at the
    /// case's `finishedAt`, if it has one.
    finished_at: Option<(f64, f64)>,
    /// How many times the first animation was played (started, or started again).
    plays: u64,
}

/// Plays every `b` (the runtime's baked motion, without `key`) with its input in Node, with a
/// stub element whose `animate` records what it is given; `reduce` answers the media query.
fn run_node(cases: &[Value], reduce: bool) -> Vec<Played> {
    let node = node().expect("checked by the caller");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("runtime.mjs"),
        curvebake::internals::export::js::RUNTIME,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("cases.json"),
        Value::from(cases.to_vec()).to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("run.mjs"),
        format!(
            r#"import {{ play }} from "./runtime.mjs";
import {{ readFileSync }} from "node:fs";
globalThis.matchMedia = () => ({{ matches: {reduce} }});
// Web Animations as the runtime uses them: a copy of the motion's effect, targeted, re-timed,
// played by a new Animation; `element.animate` only for the fade.
let made;
globalThis.KeyframeEffect = class {{
  constructor(source, frames) {{
    [this.target, this.frames, this.copy] = source instanceof KeyframeEffect ? [null, source.frames, true] : [source, frames, false];
    this.timing = {{}};
  }}
  updateTiming(timing) {{ Object.assign(this.timing, timing); }}
}};
globalThis.Animation = class {{
  constructor(effect) {{ Object.assign(this, {{ effect, currentTime: null, finished: new Promise(() => {{}}) }}); made.push(this); }}
  play() {{ this.currentTime ??= 0; this.plays = (this.plays ?? 0) + 1; }}
  pause() {{}}
  cancel() {{}}
  finish() {{ this.currentTime = this.effect.timing.duration; }}
}};
const out = [];
for (const c of JSON.parse(readFileSync(new URL("./cases.json", import.meta.url)))) {{
  made = [];
  const element = {{ animate(frames, timing) {{ made.push({{ effect: {{ frames, timing }} }}); }} }};
  // As a module passes it: the property at 0 and 1, and the fade-in under "fade".
  const b = {{ ...c.b, keep: c.b.policy == "keep", keyframes: [{{ v: 0 }}, {{ v: 1 }}], fade: c.b.policy == "fade" ? (e) => e.animate({{ opacity: [0, 1] }}, {{ duration: 200 }}) : null }};
  const handle = play(element, c.input, b);
  const [animation] = made;
  const {{ effect: {{ frames, timing, target, copy }}, currentTime }} = animation;
  if (!(copy && target === element && b.effect instanceof KeyframeEffect)) throw new Error("not a copy of the motion's effect on the element");
  for (const to of c.retargets ?? []) handle.retarget(to);
  // Where the handle says it is once the animation finished at `finishedAt` ms (0: played
  // backwards to its start).
  let at = null;
  if (c.finishedAt != null) {{
    Object.assign(animation, {{ currentTime: c.finishedAt, playState: "finished" }});
    at = [handle.position(), handle.velocity()];
  }}
  // Or once the page cancelled the animation itself (not through the handle), and then a
  // retarget.
  if (c.cancelledOutside) {{
    Object.assign(animation, {{ currentTime: null, playState: "idle" }});
    at = [handle.position(), handle.velocity()];
    handle.retarget(c.cancelledOutside);
  }}
  out.push([timing.duration, frames.map((f) => [f.offset ?? null, f.v]), timing.easing, made.length, currentTime, at, animation.plays]);
}}
console.log(JSON.stringify(out));
"#
        ),
    )
    .unwrap();
    let output = Command::new(node)
        .arg(dir.path().join("run.mjs"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "node: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let played: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    played
        .iter()
        .map(|p| Played {
            duration_ms: p[0].as_f64().unwrap(),
            current_ms: p[4].as_f64().unwrap(),
            stops: stops(&p[1], p[2].as_str().unwrap()),
            animations: p[3].as_u64().unwrap() as usize,
            finished_at: p[5]
                .as_array()
                .map(|at| (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())),
            plays: p[6].as_u64().unwrap(),
        })
        .collect()
}

/// The stops an engine plays from two keyframes (`[[offset, a], [offset, b]]`, the offsets
/// implied: 0 and 1) and a `linear()` easing: (progress, a + output·(b - a)). As CSS Easing
/// says, a stop without its input takes 0 first, 1 last, and otherwise is spaced evenly
/// between the nearest stops with one.
fn stops(keyframes: &Value, easing: &str) -> Vec<(f64, f64)> {
    let value = |i: usize| match (&keyframes[i][0], keyframes[i][1].as_f64()) {
        (Value::Null, Some(x)) => x,
        _ => panic!("not two keyframes at their implied offsets: {keyframes}"),
    };
    assert_eq!(keyframes.as_array().map(Vec::len), Some(2), "{keyframes}");
    let (a, b) = (value(0), value(1));
    let inside = easing
        .strip_prefix("linear(")
        .and_then(|e| e.strip_suffix(')'))
        .unwrap_or_else(|| panic!("not a linear() easing: {easing}"));
    let number = |s: &str| {
        s.parse::<f64>()
            .unwrap_or_else(|_| panic!("{s:?} in {easing}"))
    };
    let written: Vec<(Option<f64>, f64)> = inside
        .split(',')
        .map(
            |stop| match stop.split_whitespace().collect::<Vec<_>>()[..] {
                [output] => (None, number(output)),
                [output, percent] => (
                    Some(number(percent.strip_suffix('%').unwrap_or(percent)) / 100.0),
                    number(output),
                ),
                _ => panic!("not one stop: {stop:?} in {easing}"),
            },
        )
        .collect();
    let last = written.len() - 1;
    let input = |k: usize| match written[k].0 {
        None if k == 0 => Some(0.0),
        None if k == last => Some(1.0),
        given => given,
    };
    let mut out = Vec::with_capacity(written.len());
    let mut before = 0;
    for (k, &(_, output)) in written.iter().enumerate() {
        let p = input(k).unwrap_or_else(|| {
            let after = (k..=last).find(|&i| input(i).is_some()).unwrap();
            let (pa, pb) = (input(before).unwrap(), input(after).unwrap());
            pa + (pb - pa) * (k - before) as f64 / (after - before) as f64
        });
        if input(k).is_some() {
            before = k;
        }
        out.push((p, a + output * (b - a)));
    }
    out
}

/// A drawn case: the runtime's input and baked motion, and the closed form it must play.
struct Case {
    input: Value,
    b: Value,
    reference: Box<dyn Motion>,
    tol: f64,
    /// Gravity ends on arrival: nothing to check after the end.
    ends: bool,
}

fn cases() -> Vec<Case> {
    let mut r = Random(2028);
    let mut cases = Vec::new();
    // The longest a start plays, as a module of a motion that rests passes it.
    let common =
        |tol: f64, policy: &str| json!({"tol": CHORD_SHARE * tol, "policy": policy, "cap": 60.0});
    let merge = |mut a: Value, b: Value| {
        a.as_object_mut()
            .unwrap()
            .extend(b.as_object().unwrap().clone());
        a
    };
    for i in 0..60 {
        // Damping ratios from 0.05 to 30, and exactly 1 every tenth case.
        let (m, k) = (r.range(0.5, 3.0), r.range(50.0, 1500.0));
        let zeta = if i % 10 == 0 {
            1.0
        } else {
            (r.range(0.05f64.ln(), 30f64.ln())).exp()
        };
        let c = zeta * 2.0 * (m * k).sqrt();
        let unitless = i % 7 == 3;
        let scale = if unitless { 2.0 } else { 600.0 };
        let (from, to, v) = (
            r.range(-scale, scale),
            r.range(-scale, scale),
            r.range(-10.0, 10.0) * scale,
        );
        // Per unit of mass, as the modules pass them.
        let b = json!({"from": 0, "to": 1, "velocity": 0, "stiffness": k / m, "damping": c / m});
        let tol = if unitless { 0.001 } else { 0.1 };
        cases.push(Case {
            input: json!({"from": from, "to": to, "velocity": v}),
            b: merge(b, common(tol, "jump")),
            reference: Box::new(Spring::new(from, to, v, m, k, c).unwrap()),
            tol,
            ends: false,
        });
    }
    for i in 0..40 {
        let friction: f64 = r.range(0.01, 0.5);
        let (lo, hi) = (-1280.0, 0.0);
        let snap: Vec<f64> = if i % 2 == 0 {
            (0..5).map(|p| -320.0 * p as f64).collect()
        } else {
            vec![]
        };
        // Every fourth, a slow release onto the snap points (friction or the spring: GLIDE).
        let speed = if i % 4 == 2 { 60.0 } else { 6000.0 };
        let (from, velocity) = (r.range(-1400.0, 100.0), r.range(-speed, speed));
        let (k, c) = (r.range(200.0, 800.0), r.range(5.0, 40.0));
        let b = json!({"from": 0, "velocity": 0, "lambda": -friction.ln(), "stiffness": k,
            "damping": c, "min": lo, "max": hi, "snap": snap});
        cases.push(Case {
            input: json!({"from": from, "velocity": velocity}),
            b: merge(b, common(0.1, "jump")),
            reference: Box::new(
                Inertia::new(InertiaParams {
                    from,
                    velocity,
                    friction,
                    min: Some(lo),
                    max: Some(hi),
                    bounce_stiffness: k,
                    bounce_damping: c,
                    snap,
                })
                .unwrap(),
            ),
            tol: 0.1,
            ends: false,
        });
    }
    for _ in 0..10 {
        let (from, velocity, a) = (
            r.range(-200.0, 0.0),
            r.range(-1500.0, 0.0),
            r.range(500.0, 4000.0),
        );
        let b = json!({"from": 0, "velocity": 0, "acceleration": a, "to": 300});
        cases.push(Case {
            input: json!({"from": from, "velocity": velocity}),
            b: merge(b, common(0.1, "jump")),
            reference: Box::new(Gravity::new(from, velocity, a).unwrap()),
            tol: 0.1,
            ends: true,
        });
    }
    cases
}

/// The largest distance between the played stops and `reference`, and its time.
fn worst(played: &Played, reference: &dyn Motion, ends: bool) -> (f64, f64) {
    let duration = played.duration_ms / 1000.0;
    let frames: Vec<(f64, f64)> = played
        .stops
        .iter()
        .map(|&(p, x)| (p * duration, x))
        .collect();
    let mut worst = (0.0f64, 0.0);
    let mut check = |t: f64, shown: f64| {
        let error = (shown - reference.position(t)).abs();
        if error > worst.0 {
            worst = (error, t);
        }
    };
    for pair in frames.windows(2) {
        let ((ta, xa), (tb, xb)) = (pair[0], pair[1]);
        for j in 0..=INSIDE + 1 {
            let u = j as f64 / (INSIDE + 1) as f64;
            check(ta + u * (tb - ta), xa + u * (xb - xa));
        }
    }
    let rest = frames[frames.len() - 1].1;
    if !ends {
        for j in 1..=40 {
            check(duration * (1.0 + j as f64 / 8.0) + j as f64 * 0.05, rest);
        }
    }
    worst
}

/// The drawn cases and what the runtime plays of each, or None without node (skipped).
fn drawn_cases_played() -> Option<(Vec<Case>, Vec<Played>)> {
    node()?;
    let cases = cases();
    let inputs: Vec<Value> = cases
        .iter()
        .map(|c| json!({"input": c.input, "b": c.b}))
        .collect();
    let played = run_node(&inputs, false);
    Some((cases, played))
}

#[test]
fn the_runtime_plays_within_the_bound_of_the_closed_form_for_drawn_inputs() {
    let Some((cases, played)) = drawn_cases_played() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut stops, mut closest) = (0, 0.0f64);
    for (c, p) in cases.iter().zip(&played) {
        stops = stops.max(p.stops.len());
        let (error, t) = worst(p, c.reference.as_ref(), c.ends);
        closest = closest.max(error / c.tol);
        if !(error <= c.tol) {
            failures.push(format!("{} with {}: {error} off at {t} s", c.b, c.input));
        }
    }
    eprintln!(
        "{} drawn cases, at most {stops} stops, worst error {closest:.3} of the bound",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The control: the first spring's stops against another spring.
    let other = Spring::new(0.0, 1.0, 0.0, 1.0, 170.0, 26.0).unwrap();
    assert!(worst(&played[0], &other, false).0 > 1.0);
}

/// How long after the motion is within 0.2 of the bound of its rest a run may still play (so
/// that `finished` resolves): the hold comes once the decay envelope of |x - rest| is within
/// 0.9 of the bound, and a step within which it falls ends just past there. Not a proven
/// bound (the envelope is above |x - rest|): a guard against runs that went on for seconds
/// over a few hundredths of a pixel (a carousel fling finished 2.9 s after it was within
/// 0.02 px of its page, a creeping overdamped spring 2.8 s).
const LATEST_END_AFTER_REST: f64 = 0.1;

#[test]
fn a_run_ends_soon_after_its_motion_comes_to_rest() {
    let Some((cases, played)) = drawn_cases_played() else {
        return;
    };
    let mut latest = (0.0f64, String::new());
    for (c, p) in cases.iter().zip(&played).filter(|(c, _)| !c.ends) {
        let duration = p.duration_ms / 1000.0;
        let rest = p.stops[p.stops.len() - 1].1;
        // The last millisecond at which the motion is farther from rest than 0.2 of the bound.
        let steps = (duration * 1000.0).ceil() as usize;
        let at_rest = (0..=steps)
            .rev()
            .map(|i| i as f64 / 1000.0)
            .find(|&t| (c.reference.position(t) - rest).abs() > 0.2 * c.tol)
            .unwrap_or(0.0);
        if duration - at_rest > latest.0 {
            latest = (duration - at_rest, format!("{} with {}", c.b, c.input));
        }
    }
    eprintln!(
        "the latest end: {:.3} s after rest ({})",
        latest.0, latest.1
    );
    assert!(
        latest.0 <= LATEST_END_AFTER_REST,
        "{:.3} s: {}",
        latest.0,
        latest.1
    );
}

#[test]
fn a_spring_all_but_undamped_plays_for_the_longest_a_start_plays_and_stops_there() {
    if node().is_none() {
        return;
    }
    // Damping 1e-5 would rest only after days (millions of stops: a page's script ran out of
    // memory); damping 0 never rests, its module's cap is the baked duration (2 s).
    let spring = |damping: f64, cap: f64| {
        json!({"input": {}, "b": {"from": 0, "to": 100, "velocity": 0,
            "stiffness": 220, "damping": damping, "tol": CHORD_SHARE * 0.1, "policy": "jump", "cap": cap}})
    };
    let played = run_node(&[spring(1e-5, 60.0), spring(0.0, 2.0)], false);
    for (p, (damping, seconds)) in played.iter().zip([(1e-5, 60.0), (0.0, 2.0)]) {
        assert_eq!(p.duration_ms, seconds * 1000.0, "damping {damping}");
        // About 74 stops a period of 0.42 s (steps of √(8·0.09/(220·100)) s at full swing):
        // some 10,500 in a minute, not millions.
        let periods = seconds / (2.0 * std::f64::consts::PI / 220f64.sqrt());
        assert!(
            p.stops.len() as f64 <= 80.0 * periods,
            "damping {damping}: {} stops",
            p.stops.len()
        );
        let exact = Spring::new(0.0, 100.0, 0.0, 1.0, 220.0, damping).unwrap();
        let (error, t) = worst(p, &exact, true);
        assert!(error <= 0.1, "damping {damping}: {error} off at {t} s");
    }
}

#[test]
fn gravity_plays_until_it_arrives_however_long_and_never_past_its_duration_if_it_never_does() {
    if node().is_none() {
        return;
    }
    // A module's `cap` for gravity is its baked duration (it never rests): here 0.2 s.
    let gravity = |to: f64| {
        json!({"input": {"velocity": -500, "to": to}, "b": {"from": 0, "velocity": 0,
            "acceleration": 1000, "tol": CHORD_SHARE * 0.1, "policy": "jump", "cap": 0.2}})
    };
    let played = run_node(&[gravity(300.0), gravity(-1000.0)], false);
    // Thrown up, it falls back to 300 at (500 + √(500² + 2·1000·300))/1000 s: all of it plays.
    let arrival = (500.0 + (500.0f64.powi(2) + 2.0 * 1000.0 * 300.0).sqrt()) / 1000.0;
    assert!(
        (played[0].duration_ms - 1000.0 * arrival).abs() < 1e-6,
        "{}",
        played[0].duration_ms
    );
    let exact = Gravity::new(0.0, -500.0, 1000.0).unwrap();
    let (error, t) = worst(&played[0], &exact, true);
    assert!(error <= 0.1, "{error} off at {t} s");
    // A `to` above the top of its flight is never reached: it plays the baked duration.
    assert!(
        (played[1].duration_ms - 200.0).abs() < 1e-9,
        "{}",
        played[1].duration_ms
    );
}

#[test]
fn under_reduced_motion_play_follows_the_policy() {
    if node().is_none() {
        return;
    }
    let b = |policy: &str| {
        json!({"input": {"from": 10, "to": 50}, "b": {"from": 0, "to": 1, "velocity": 0,
            "stiffness": 200, "damping": 20, "tol": CHORD_SHARE * 0.1, "policy": policy, "cap": 1}})
    };
    let reduced = run_node(&[b("jump"), b("fade"), b("keep")], true);
    // jump: at its end at once, the rest value; fade: that and an opacity animation; keep:
    // the whole motion.
    let at_end = |p: &Played| {
        (
            p.current_ms == p.duration_ms,
            p.stops.last().copied(),
            p.animations,
        )
    };
    assert_eq!(at_end(&reduced[0]), (true, Some((1.0, 50.0)), 1));
    assert_eq!(at_end(&reduced[1]), (true, Some((1.0, 50.0)), 2));
    // Retargeted again and again, it fades in once, at its start (each retarget faded it in
    // again from 0: a toast clicked fast blinked).
    let mut retargeted = b("fade");
    retargeted["retargets"] = json!([20, 30, 40]);
    assert_eq!(run_node(&[retargeted], true)[0].animations, 2);
    let plays = |p: &Played| p.current_ms == 0.0 && p.duration_ms > 0.0 && p.stops.len() > 10;
    assert!(plays(&reduced[2]), "{:?}", reduced[2]);
    let played = run_node(&[b("jump")], false);
    assert!(plays(&played[0]), "{:?}", played[0]);
}

/// The handle reads where the animation is: at rest once it ran forwards to its end (Firefox
/// and WebKit may report a time a little below it), at the start, standing still, once it ran
/// backwards to time 0 (`animation.updatePlaybackRate(-1)`; it read the rest value there,
/// then the start's velocity).
#[test]
fn a_finished_animation_reads_its_rest_forwards_and_its_start_backwards() {
    if node().is_none() {
        return;
    }
    let case = |finished_at: f64| {
        json!({"input": {"from": 100, "to": 0, "velocity": -500}, "finishedAt": finished_at,
            "b": {"from": 0, "to": 1, "velocity": 0, "stiffness": 200, "damping": 20,
            "tol": CHORD_SHARE * 0.1, "policy": "keep", "cap": 60}})
    };
    let played = run_node(&[case(0.0), case(1e9)], false);
    assert_eq!(played[0].finished_at, Some((100.0, 0.0)));
    let duration = played[1].duration_ms;
    let below_end = run_node(&[case(duration - 1e-3)], false);
    for p in [&played[1], &below_end[0]] {
        assert_eq!(p.finished_at, Some((0.0, 0.0)), "{p:?}");
    }
}

/// An animation the page cancels itself (`h.animation.cancel()`, or every one of
/// `el.getAnimations()`) leaves the handle no time to read: it reads the motion's start (it
/// threw a TypeError from `position()` and `retarget()`), and a retarget plays it again (it
/// left it paused at 0, its `finished` pending for ever).
#[test]
fn a_handle_whose_animation_the_page_cancelled_reads_its_start_and_plays_again() {
    if node().is_none() {
        return;
    }
    let case = json!({"input": {"from": 100, "to": 0, "velocity": -500}, "cancelledOutside": 40,
        "b": {"from": 0, "to": 1, "velocity": 0, "stiffness": 200, "damping": 20,
        "tol": CHORD_SHARE * 0.1, "policy": "keep", "cap": 60}});
    let played = run_node(&[case], false);
    assert_eq!(played[0].finished_at, Some((100.0, -500.0)));
    assert_eq!(
        played[0].plays, 2,
        "started, then started again by the retarget"
    );
}
