//! The ES module exporter proved in three browser engines: Chromium, Firefox ESR and WebKitGTK
//! (see `common::engines`).
//!
//! Every motion of `curves/` and a generated set (every motion kind; translate in px and %,
//! scale, rotate, opacity, custom lengths, numbers and angles; rings in px, % and unitless
//! (drawn in px);
//! 24 to 120 fps; up to 10 s) is baked with the JSON and JS exporters. A page next to the
//! output imports every `js/<name>.js` as an ES module, plays each motion with
//! `element.animate(keyframes, {duration: durationMs, fill: "both"})` and with the module's
//! own `animate(element)` (which fills as the CSS class does: a ring's radii are 0 once it
//! ends), pauses both and seeks them (at least 20 times per motion: frame
//! times, times between frames, and the steepest interval), and reads the computed style two
//! ways: `getComputedStyle` (what a site sees, 6 significant digits) and Typed OM
//! (`computedStyleMap()`, the numbers the engine holds, where it has Typed OM). Each reading must match the JSON table
//! (between frames: linear interpolation of the two neighbouring frames) within 0.01 for px,
//! % and deg and 0.0001 for unitless values, as in the CSS test. The page also returns each
//! module's tables, which must be the JSON tables rounded to float32 in a `Float32Array`
//! (or exact in a `Float64Array` where float32 would move a value too far), and its
//! duration, fps, frame count and timing. A control plays one motion with `easing: "ease"`,
//! which must miss by far: proof that the comparison can fail.
//!
//! The page is served over HTTP on 127.0.0.1 and imports the very files a site would serve,
//! with relative `import` statements. A ring module is imported a second time under another URL
//! (`?again`), which registers its custom properties again: the guard must swallow that, and no
//! page error may be recorded.

use crate::common;

use common::compare::{compare, Readings, Tally};
use common::tables::{read_tables, Table, PAGE_READERS, UNIT_BOUND};

use common::engines::{engines, Engine, RunOptions, HARNESS_HEAD};
use curvebake::export::{Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Table played with `ease` as the control.
const CONTROL: &str = "card-drop";
/// Ring imported twice.
const TWICE: &str = "explosion-ring";

/// Motions beyond `curves/`: every kind, property and syntax the module writes.
const GENERATED: &str = r#"[
  (name: "j-spring-under", fps: 24, motion: Spring(from: -300, to: 0, stiffness: 170, damping: 12)),
  (name: "j-spring-over", property: "scale", fps: 120, motion: Spring(from: 0.5, to: 1.5, velocity: -1, mass: 2, stiffness: 100, damping: 60)),
  (name: "j-perceptual-pct", property: "translateY", unit: "%", motion: Spring(from: 0, to: 75, perceptual_duration: 0.6, bounce: 0.3)),
  (name: "j-spring-fixed", property: "rotate", fps: 30, duration: 0.25, motion: Spring(from: 0, to: 90, stiffness: 300, damping: 10)),
  (name: "j-fling-rotate", property: "rotate", fps: 120, motion: Friction(from: 0, velocity: 750, friction: 0.05)),
  (name: "j-snap-opacity", property: "opacity", fps: 24, motion: Friction(from: 0, to: 1, velocity: 3.3)),
  (name: "j-toss-len", property: "--j-len", unit: "px", duration: 1.0, motion: Gravity(from: 0, velocity: -600, acceleration: 1800)),
  (name: "j-drop-num", property: "--j-num", unit: "", fps: 120, motion: Gravity(from: 0, velocity: -0.25, acceleration: 5, to: 1)),
  (name: "j-bounce-angle", property: "--j-ang", unit: "deg", motion: Gravity(from: -150, acceleration: 1200, to: 0, restitution: 0.5)),
  (name: "j-decay-long", duration: 10, motion: Decay(from: -200, velocity: 1500, lambda: 5)),
  (name: "j-solved-scale", property: "scale", fps: 120, duration: 0.5, motion: Decay(from: 0.2, to: 1, end_velocity: 0.4)),
  (name: "j-ring-24", fps: 24, duration: 0.4, motion: ExplosionRing(inner: (from: 0, to: 120, end_velocity: 20), outer: (from: 6, to: 160, end_velocity: 10))),
  (name: "j-ring-pct", unit: "%", fps: 120, duration: 0.9, motion: ExplosionRing(inner: (from: 0, to: 40, end_velocity: 5), outer: (from: 2, to: 60, end_velocity: 4))),
]
"#;

/// The page's script after [`PAGE_READERS`].
const PAGE_SCRIPT: &str = r#"
const results = [];
for (const p of plan.motions) {
  const r = { name: p.name };
  try {
    const m = modules[p.name];
    r.meta = {
      name: m.name, kind: m.kind, property: m.property, unit: m.unit, fps: m.fps,
      duration: m.duration, durationMs: m.durationMs, frames: m.frames,
      keyframes: m.keyframes.length, timing: m.timing,
      customProperties: m.customProperties.map((c) => c.name),
      defaultExport: m.default.keyframes === m.keyframes && m.default.animate === m.animate,
    };
    r.tracks = {};
    for (const [k, v] of Object.entries(m.tracks)) {
      r.tracks[k] = (v instanceof Float32Array || v instanceof Float64Array)
        ? { type: v.constructor.name, values: Array.from(v) } : null;
    }
    const el = document.createElement("div");
    host.appendChild(el);
    const a = el.animate(m.keyframes, { duration: m.durationMs, fill: "both" });
    r.samples = seek(a, el, p.kind, p.props, p.times);
    const el2 = document.createElement("div");
    host.appendChild(el2);
    r.helper = seek(m.animate(el2), el2, p.kind, p.props, p.times);
    if (p.control) {
      const c = document.createElement("div");
      host.appendChild(c);
      const b = c.animate(m.keyframes, { duration: m.durationMs, fill: "both", easing: "ease" });
      r.control = seek(b, c, p.kind, p.props, p.times);
    }
  } catch (e) {
    r.error = String((e && e.stack) || e);
  }
  results.push(r);
}
cbReport({
  userAgent: navigator.userAgent,
  twice: again.customProperties.map((c) => c.name),
  motions: results,
});
"#;

/// Writes the page into the output folder (beside `js/`), as `browser-js-test.html`.
fn write_page(out: &Path, motions: &[Table]) {
    let plan: Vec<Value> = motions
        .iter()
        .map(|m| {
            let mut entry = m.plan();
            entry["control"] = json!(m.name == CONTROL);
            entry
        })
        .collect();
    let plan = json!({ "motions": plan }).to_string();
    assert!(!plan.contains('<'));
    let mut imports = String::new();
    let mut table = String::from("const modules = {\n");
    for (i, m) in motions.iter().enumerate() {
        writeln!(imports, "import * as m{i} from \"./js/{}.js\";", m.name).unwrap();
        writeln!(table, "  {:?}: m{i},", m.name).unwrap();
    }
    writeln!(imports, "import again from \"./js/{TWICE}.js?again\";").unwrap();
    table.push_str("};\n");
    let page = format!(
        r#"<!doctype html>
<html>
<head>
<meta charset="utf-8">
{HARNESS_HEAD}
<style>#host > div {{ width: 100px; height: 10px; }}</style>
<script type="application/json" id="plan">{plan}</script>
</head>
<body>
<div id="host"></div>
<script type="module">
{imports}{table}{PAGE_READERS}{PAGE_SCRIPT}</script>
</body>
</html>
"#
    );
    std::fs::write(out.join("browser-js-test.html"), page).unwrap();
}

/// Whether two doubles agree within a few ulp: serde_json (without its `float_roundtrip`
/// feature) may read a shortest-round-trip decimal one ulp off.
fn same(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs())
}

/// The module's own figures and tables against the JSON table.
fn check_meta(m: &Table, r: &Value, failures: &mut Vec<String>) {
    let meta = &r["meta"];
    let mut expect = |what: &str, ok: bool| {
        if !ok {
            failures.push(format!("{}: {what} (module says {meta})", m.name));
        }
    };
    expect("name", meta["name"] == m.name.as_str());
    expect("fps", same(meta["fps"].as_f64(), m.fps));
    expect("duration", same(meta["duration"].as_f64(), m.duration));
    expect(
        "durationMs",
        same(meta["durationMs"].as_f64(), m.duration * 1000.0),
    );
    expect(
        "frames",
        meta["frames"].as_u64() == Some(m.times.len() as u64),
    );
    // Keyframes placed against the motion (at least both ends, and a stop at each join
    // between two frames); how close they play is what the seeks check.
    let joins = m.joins_between_frames(curvebake::internals::export::js::OFFSET_MAX_SHIFT);
    expect(
        "keyframes at both ends and each join",
        meta["keyframes"]
            .as_u64()
            .is_some_and(|k| k >= (2 + joins) as u64),
    );
    let timing = &meta["timing"];
    expect(
        "timing",
        same(timing["duration"].as_f64(), m.duration * 1000.0)
            && timing["easing"] == "linear"
            && (timing["fill"] == "both" || timing["fill"] == "backwards")
            && timing.as_object().map(|o| o.len()) == Some(3),
    );
    expect("default export", meta["defaultExport"] == true);
    let custom: Vec<String> = if m.is_ring() {
        m.readout().1
    } else if m.property.starts_with("--") {
        vec![m.property.clone()]
    } else {
        Vec::new()
    };
    expect(
        "customProperties",
        meta["customProperties"] == json!(custom),
    );
    for (name, table) in &m.tracks {
        // Float32 unless float32 would move a value by more than the keyframes' rounding.
        let wide = curvebake::internals::export::js::needs_float64(table, &m.unit);
        let js: Vec<f64> =
            serde_json::from_value(r["tracks"][name]["values"].clone()).unwrap_or_default();
        let (array, exact) = if wide {
            (
                "Float64Array",
                js.len() == table.len() && js.iter().zip(table).all(|(&j, &x)| same(Some(j), x)),
            )
        } else {
            (
                "Float32Array",
                js.len() == table.len()
                    && js
                        .iter()
                        .zip(table)
                        .all(|(&j, &x)| same(Some(j), f64::from(x as f32))),
            )
        };
        expect(
            &format!("tracks.{name} is the table as a {array}"),
            r["tracks"][name]["type"] == array && exact,
        );
    }
}

#[test]
fn es_modules_play_the_tables_with_element_animate_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("generated.ron");
    std::fs::write(&generated, GENERATED).unwrap();
    let inputs = vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves"),
        generated,
    ];
    let out = dir.path().join("out");
    let options = BakeOptions {
        inputs: inputs.clone(),
        out: out.clone(),
        formats: vec![Format::Json, Format::Js],
        layout: Layout::PerMotion,
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let motions: Vec<Table> = read_tables(&inputs, &out)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert!(motions.len() >= 25, "{} motions", motions.len());
    assert!(motions.iter().any(|m| m.name == CONTROL));

    write_page(&out, &motions);
    let mut failures = Vec::new();
    for engine in &engines {
        let tally = check_in_engine(engine, &out, &motions);
        failures.extend(tally.into_iter().map(|f| format!("{}: {f}", engine.name())));
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Loads the page in an engine and checks every module and reading; returns the failures.
fn check_in_engine(engine: &Engine, out: &Path, motions: &[Table]) -> Vec<String> {
    let outcome = engine.run(out, "browser-js-test.html", &RunOptions::default());
    assert!(
        outcome.errors.is_empty(),
        "{}: page errors: {:?}",
        engine.name(),
        outcome.errors
    );
    let result = &outcome.result;
    eprintln!(
        "{} motions: {} ran {:.2} s ({})",
        motions.len(),
        engine.name(),
        outcome.elapsed.as_secs_f64(),
        result["userAgent"].as_str().unwrap_or("?")
    );
    assert_eq!(
        result["twice"],
        json!([format!("--{TWICE}-inner"), format!("--{TWICE}-outer")]),
        "the ring module imported a second time"
    );
    let results: HashMap<&str, &Value> = result["motions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r))
        .collect();
    let mut tally = Tally::default();
    let mut helper = Tally::default();
    let mut control = Tally::default();
    for m in motions {
        let r = results[m.name.as_str()];
        if let Some(error) = r.get("error") {
            tally
                .failures
                .push(format!("{}: script error {error}", m.name));
            continue;
        }
        check_meta(m, r, &mut tally.failures);
        compare(
            m,
            &r["samples"],
            &m.label(),
            m.bound(),
            Readings::Motion,
            &mut tally,
        );
        let label = format!("animate(): {}", m.label());
        // `animate()` fills as the CSS class does: a ring's radii are back at 0 once it ends.
        let filled = Table {
            ring_ends_hidden: m.is_ring(),
            ..m.clone()
        };
        compare(
            &filled,
            &r["helper"],
            &label,
            m.bound(),
            Readings::Motion,
            &mut helper,
        );
        if m.name == CONTROL {
            compare(
                m,
                &r["control"],
                "control",
                f64::INFINITY,
                Readings::Motion,
                &mut control,
            );
        }
    }
    eprintln!(
        "{}: element.animate(keyframes, {{duration, fill}}):\n{}",
        engine.name(),
        tally.table()
    );
    eprintln!("{}: animate(element):\n{}", engine.name(), helper.table());
    let control_worst = control.worst();
    eprintln!(
        "{}: control {CONTROL} with `ease` between keyframes is off by up to {control_worst:.3} px",
        engine.name()
    );
    assert!(
        control_worst > 100.0 * UNIT_BOUND,
        "the control with `ease` matched the table: the comparison cannot tell"
    );
    // At least 20 seeks per motion and track, read by computed style (and Typed OM where the
    // engine has it: not Firefox).
    assert!(
        tally.samples >= 20 * motions.len(),
        "{} readings for {} motions",
        tally.samples,
        motions.len()
    );
    tally.failures.extend(helper.failures);
    tally.failures
}
