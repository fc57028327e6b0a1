//! The CSS exporter proved in three browser engines: Chromium, Firefox ESR and WebKitGTK (see
//! `common::engines`; a missing engine is reported as skipped, or fails under
//! `CURVEBAKE_REQUIRE_BROWSER=1`). Each page carries every motion, so each engine loads it once.
//!
//! Every motion of `curves/` and a generated set covering every variant (spring physical and
//! perceptual, friction fling and snap, gravity over a duration / to a position / bouncing,
//! decay direct and solved, explosion ring) at 24, 60 and 120 fps and 0.1 s to 10 s, on every
//! property (translate in px and %, scale, rotate, opacity, custom lengths, numbers and
//! angles), is baked with the JSON and CSS exporters. A page loads `curves.css`, gives one
//! element each ready class, pauses its animation and seeks it (Web Animations API) to every
//! sample time: frame times and times between frames, including the steepest interval. It
//! reads the computed style two ways:
//!
//! * `getComputedStyle`: what a site sees, serialized to 6 significant digits (the transform
//!   as `matrix(a, b, c, d, e, f)`). For the values used here (|x| < 1000) the readout itself
//!   is good to 0.0005 px.
//! * Typed OM (`computedStyleMap()`), in the engines that have it (Chromium, WebKit): the
//!   numbers as the engine holds them (float32 for transform lengths and opacity, double for
//!   registered custom properties).
//!
//! Each reading is compared with the JSON table (between frames: linear interpolation of the
//! two neighbouring frames) within 0.01 for px, % and deg, and 0.0001 for unitless values.
//! Rotation is compared as the angle atan2(b, a) of the matrix, unwrapped towards the
//! expected angle, within 0.01 deg: curvebake treats deg like px (same rest thresholds), and
//! 0.01 deg moves a point 100 px from the centre by 0.017 px. Opacity is compared with the
//! table clamped to [0, 1], as CSS clamps it.
//!
//! The multi-track motions of `curves/tracks.ron` (a sheet that slides, fades and scales; a
//! 2D toss) run one animation per property from their one class (the toss's x and y one of
//! `translate`), all seeked together: each
//! track's property (`translate`'s x or y word, `opacity`, `scale`) is compared with its own
//! table, within its own unit's bound.
//!
//! For each motion from one value to another, a real CSS transition of a registered
//! `<number>` property from `from` to `to` with `var(--<name>-duration)` and
//! `var(--<name>-easing)` is seeked the same way and must land on the table within the
//! motion's bound; and the same from 0 to 400, a range other than the motion's own, must
//! land on the exact motion scaled to that range within its tolerance scaled, and its end
//! step there (the motion's distance from `to` at `D`, scaled) is at most
//! [`END_STEP`](curvebake::spec::END_STEP) of the range: 0.4. A control element runs one motion with the default `ease` timing
//! function, which must miss between frames by far: proof that the comparison can fail.
//!
//! The whole check runs twice: all frames (per-motion layout), and `--css-tolerance 0.05`
//! (bundle layout), where the bound grows by the tolerance.
//!
//! The explosion ring's class draws its band about its element, as ink overflow: rings at the
//! right and bottom edges of the viewport never make the page scroll (every engine), the band
//! is where the radii say and is gone once the ring has ended (Chromium screenshots).

use crate::common;

use common::compare::{compare, Readings, Tally};
use common::readout::leading_number;
use common::tables::{read_tables, Table, PAGE_READERS, UNIT_BOUND};

use common::chromium::{self as browser, CAPTURE_ERRORS};
use common::engines::{engines, Engine, RunOptions, HARNESS_HEAD};
use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::{BakeOptions, Report};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The tolerance of the second run (`--css-tolerance`: distance from the motion).
const TOLERANCE: f64 = 0.05;
/// The range a transition with a motion's easing is also run over (README's recipe uses an
/// easing baked on a few px over hundreds).
const OTHER_RANGE: f64 = 400.0;
/// Motion whose control element runs with `ease`.
const CONTROL: &str = "card-drop";

fn curves_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves")
}

/// A property to animate, and how base values (about -400..1500 "px") map onto it.
struct Target {
    property: &'static str,
    unit: &'static str,
    /// `Some((lo, hi))`: map the variant's range onto lo..hi; `None`: multiply by `scale`.
    range: Option<(f64, f64)>,
    scale: f64,
}

const TARGETS: &[Target] = &[
    Target {
        property: "translateX",
        unit: "px",
        range: None,
        scale: 1.0,
    },
    Target {
        property: "scale",
        unit: "",
        range: Some((0.5, 1.5)),
        scale: 0.0,
    },
    Target {
        property: "translateY",
        unit: "px",
        range: None,
        scale: 1.0,
    },
    Target {
        property: "rotate",
        unit: "deg",
        range: None,
        scale: 0.5,
    },
    Target {
        property: "opacity",
        unit: "",
        range: Some((0.0, 1.0)),
        scale: 0.0,
    },
    Target {
        property: "--cb-len",
        unit: "px",
        range: None,
        scale: 1.0,
    },
    Target {
        property: "translateX",
        unit: "%",
        range: None,
        scale: 0.25,
    },
    Target {
        property: "--cb-num",
        unit: "",
        range: Some((0.0, 1.0)),
        scale: 0.0,
    },
    Target {
        property: "--cb-ang",
        unit: "deg",
        range: None,
        scale: 0.5,
    },
];

/// One variant: RON of the motion with `{p}` position-like and `{v}` velocity-like fields
/// filled in by [`Variant::ron`], its range in base units, and whether it takes a duration.
struct Variant {
    id: &'static str,
    /// Fields: (name, base value, is a position (affine) or a rate (scaled only)).
    motion: &'static str,
    fields: &'static [(&'static str, f64, bool)],
    range: (f64, f64),
    /// Durations it may take (empty: none allowed); `rests` may also go without one.
    durations: &'static [f64],
    rests: bool,
}

const DURATIONS: &[f64] = &[0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0];

const VARIANTS: &[Variant] = &[
    Variant {
        id: "spring-under",
        motion: "Spring(from: {from}, to: {to}, velocity: {velocity}, mass: 1, stiffness: 170, damping: 12)",
        fields: &[("from", -300.0, true), ("to", 0.0, true), ("velocity", 0.0, false)],
        range: (-300.0, 0.0),
        durations: DURATIONS,
        rests: true,
    },
    Variant {
        id: "spring-over",
        motion: "Spring(from: {from}, to: {to}, velocity: {velocity}, mass: 2, stiffness: 100, damping: 60)",
        fields: &[("from", 0.0, true), ("to", 400.0, true), ("velocity", -500.0, false)],
        range: (0.0, 400.0),
        durations: DURATIONS,
        rests: true,
    },
    Variant {
        id: "spring-perceptual",
        motion: "Spring(from: {from}, to: {to}, perceptual_duration: 0.6, bounce: 0.3)",
        fields: &[("from", 0.0, true), ("to", 300.0, true)],
        range: (0.0, 300.0),
        durations: DURATIONS,
        rests: true,
    },
    Variant {
        id: "fling",
        motion: "Friction(from: {from}, velocity: {velocity}, friction: 0.05)",
        fields: &[("from", 0.0, true), ("velocity", 1500.0, false)],
        range: (0.0, 500.0),
        durations: DURATIONS,
        rests: true,
    },
    Variant {
        id: "snap",
        motion: "Friction(from: {from}, to: {to}, velocity: {velocity})",
        fields: &[("from", 0.0, true), ("to", 360.0, true), ("velocity", 1200.0, false)],
        range: (0.0, 360.0),
        durations: DURATIONS,
        rests: true,
    },
    Variant {
        id: "toss",
        motion: "Gravity(from: {from}, velocity: {velocity}, acceleration: {acceleration})",
        fields: &[("from", 0.0, true), ("velocity", -600.0, false), ("acceleration", 1800.0, false)],
        range: (-100.0, 300.0),
        // Longer tosses fly past 1000 px, beyond what 6 significant digits read to 0.001.
        durations: &[0.1, 0.25, 0.5, 1.0],
        rests: false,
    },
    Variant {
        id: "drop-to",
        motion: "Gravity(from: {from}, velocity: {velocity}, acceleration: {acceleration}, to: {to})",
        fields: &[("from", -400.0, true), ("to", 0.0, true), ("velocity", -100.0, false), ("acceleration", 2000.0, false)],
        range: (-400.0, 0.0),
        durations: &[],
        rests: false,
    },
    Variant {
        id: "bounce",
        motion: "Gravity(from: {from}, velocity: {velocity}, acceleration: {acceleration}, to: {to}, restitution: 0.5)",
        fields: &[("from", -300.0, true), ("to", 0.0, true), ("velocity", 0.0, false), ("acceleration", 2400.0, false)],
        range: (-300.0, 0.0),
        durations: DURATIONS,
        rests: true,
    },
    Variant {
        id: "decay",
        motion: "Decay(from: {from}, velocity: {velocity}, lambda: 5)",
        fields: &[("from", -200.0, true), ("velocity", 1500.0, false)],
        range: (-200.0, 100.0),
        durations: DURATIONS,
        rests: false,
    },
    Variant {
        id: "decay-solved",
        motion: "Decay(from: {from}, to: {to}, end_velocity: {end_velocity})",
        fields: &[("from", -300.0, true), ("to", 0.0, true), ("end_velocity", 50.0, false)],
        range: (-300.0, 0.0),
        durations: &[0.1, 0.25, 0.5, 1.0, 2.0],
        rests: false,
    },
];

/// The generated motions, as one RON list.
fn generated_motions() -> String {
    let mut ron = String::from("[\n");
    let mut n = 0;
    for (v, variant) in VARIANTS.iter().enumerate() {
        for (k, fps) in [24, 60, 120].into_iter().enumerate() {
            n += 1;
            let target = &TARGETS[(v + 4 * k) % TARGETS.len()];
            let (a, c) = match target.range {
                Some((lo, hi)) => {
                    let a = (hi - lo) / (variant.range.1 - variant.range.0);
                    (a, lo - variant.range.0 * a)
                }
                None => (target.scale, 0.0),
            };
            let mut motion = variant.motion.to_owned();
            for &(field, value, position) in variant.fields {
                let value = if position { a * value + c } else { a * value };
                motion = motion.replace(&format!("{{{field}}}"), &format!("{value:?}"));
            }
            let duration = if variant.durations.is_empty() || (variant.rests && (v + k) % 3 == 0) {
                String::new()
            } else {
                let d = variant.durations[(n * 3 + k) % variant.durations.len()];
                format!("duration: {d:?}, ")
            };
            writeln!(
                ron,
                "  (name: \"t-{}-{fps}\", property: {:?}, unit: {:?}, fps: {fps}, {duration}motion: {motion}),",
                variant.id, target.property, target.unit
            )
            .unwrap();
        }
    }
    for (k, (fps, duration)) in [(24, 0.4), (60, 1.5), (120, 0.9)].into_iter().enumerate() {
        writeln!(
            ron,
            "  (name: \"t-ring-{k}\", fps: {fps}, duration: {duration:?}, motion: ExplosionRing(\
             inner: (from: 0, to: 120, end_velocity: 20), outer: (from: 6, to: 160, end_velocity: 10))),"
        )
        .unwrap();
    }
    ron.push_str("]\n");
    ron
}

/// A baked motion as its JSON table has it, with the `linear()` easing of its CSS.
struct Motion {
    table: Table,
    /// (from, to) of the `linear()` easing, if the CSS has one.
    easing: Option<(f64, f64)>,
}

impl std::ops::Deref for Motion {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

/// Bakes `inputs` with the JSON and CSS exporters.
fn bake(inputs: &[PathBuf], out: &Path, layout: Layout, tolerance: f64) -> Report {
    let options = BakeOptions {
        inputs: inputs.to_vec(),
        out: out.to_owned(),
        layout,
        formats: vec![Format::Json, Format::Css],
        settings: ExportSettings {
            css_tolerance: tolerance,
            ..ExportSettings::default()
        },
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    report
}

/// Reads every table of a per-motion bake, in input order, with the easing of its CSS.
fn read_motions(inputs: &[PathBuf], out: &Path) -> Vec<Motion> {
    read_tables(inputs, out)
        .into_iter()
        .map(|(spec, table)| {
            // The CSS has an easing for a motion between two values that ends on the second.
            let css = std::fs::read_to_string(out.join(format!("css/{}.css", spec.name))).unwrap();
            let has_easing = css.contains(&format!("--{}-easing: linear(", spec.name));
            let endpoints = spec.model.endpoints();
            let x = &table.tracks[0].1;
            match endpoints {
                Some((_, to)) if x[x.len() - 1] == to => {
                    assert!(has_easing, "{} has no easing", spec.name)
                }
                None => assert!(!has_easing, "{} has an easing", spec.name),
                _ => {}
            }
            Motion {
                table: Table {
                    ring_ends_hidden: table.is_ring(),
                    ..table
                },
                easing: endpoints.filter(|_| has_easing),
            }
        })
        .collect()
}

/// The page's script after [`PAGE_READERS`].
const PAGE_SCRIPT: &str = r#"
const results = [];
for (const m of plan.motions) {
  const r = { name: m.name };
  try {
    const el = document.createElement("div");
    el.className = m.name;
    host.appendChild(el);
    const animations = el.getAnimations();
    r.animations = animations.length;
    r.animation_names = animations.map((a) => a.animationName);
    // One animation, or one per track of a multi-track motion, all seeked together.
    if (animations.length >= 1) r.samples = seek(animations, el, m.kind, m.props, m.times);
    if (m.control) {
      const c = document.createElement("div");
      c.style.animation = m.name + " " + m.control + " both";
      host.appendChild(c);
      const a = c.getAnimations();
      if (a.length === 1) r.control = seek(a[0], c, m.kind, m.props, m.times);
    }
    if (m.easing) {
      const p = document.createElement("div");
      p.style.transition = "--cb-probe var(--" + m.name + "-duration) var(--" + m.name + "-easing)";
      p.style.setProperty("--cb-probe", String(m.easing[0]));
      host.appendChild(p);
      getComputedStyle(p).getPropertyValue("--cb-probe");
      p.style.setProperty("--cb-probe", String(m.easing[1]));
      const a = p.getAnimations();
      r.easing_animations = a.length;
      if (a.length === 1) r.easing = seek(a[0], p, "custom", ["--cb-probe"], m.times);
      // The same easing over another range, as README's transition recipe uses it.
      const q = document.createElement("div");
      q.style.transition = "--cb-probe var(--" + m.name + "-duration) var(--" + m.name + "-easing)";
      q.style.setProperty("--cb-probe", "0");
      host.appendChild(q);
      getComputedStyle(q).getPropertyValue("--cb-probe");
      q.style.setProperty("--cb-probe", String(plan.range));
      const b = q.getAnimations();
      if (b.length === 1) r.range_easing = seek(b[0], q, "custom", ["--cb-probe"], m.times);
    }
  } catch (e) {
    r.error = String((e && e.stack) || e);
  }
  results.push(r);
}
cbReport({ userAgent: navigator.userAgent, motions: results });
"#;

/// Writes the test page next to `curves.css`, as `browser-test.html`.
fn write_page(out: &Path, motions: &[Motion]) {
    let plan: Vec<Value> = motions
        .iter()
        .map(|m| {
            let mut entry = m.plan();
            entry["easing"] = json!(m.easing.map(|(from, to)| [from, to]));
            entry["control"] = json!((m.name == CONTROL).then(|| format!("{}s", m.duration)));
            entry
        })
        .collect();
    let plan = json!({ "motions": plan, "range": OTHER_RANGE }).to_string();
    assert!(!plan.contains('<'));
    let page = format!(
        r#"<!doctype html>
<html>
<head>
<meta charset="utf-8">
{HARNESS_HEAD}
<link rel="stylesheet" href="curves.css">
<style>
@property --cb-probe {{ syntax: '<number>'; inherits: false; initial-value: 0; }}
:where(#host > div) {{ width: 100px; height: 10px; }}
</style>
<script type="application/json" id="plan">{plan}</script>
</head>
<body>
<div id="host"></div>
<script>{PAGE_READERS}{PAGE_SCRIPT}</script>
</body>
</html>
"#
    );
    std::fs::write(out.join("browser-test.html"), page).unwrap();
}

/// Loads the page (written by [`write_page`]) in an engine and checks every reading; returns
/// the tally.
fn check_in_engine(
    engine: &Engine,
    inputs: &[PathBuf],
    tables: &[Motion],
    out: &Path,
    tolerance: f64,
) -> Tally {
    let outcome = engine.run(out, "browser-test.html", &RunOptions::default());
    assert!(
        outcome.errors.is_empty(),
        "{}: page errors: {:?}",
        engine.name(),
        outcome.errors
    );
    let result = &outcome.result;
    eprintln!(
        "{} motions from {} inputs, tolerance {tolerance}: {} ran {:.2} s ({})",
        tables.len(),
        inputs.len(),
        engine.name(),
        outcome.elapsed.as_secs_f64(),
        result["userAgent"].as_str().unwrap_or("?")
    );
    let results: HashMap<&str, &Value> = result["motions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r))
        .collect();
    let mut tally = Tally::default();
    let mut control_worst: f64 = 0.0;
    for m in tables {
        let r = results[m.name.as_str()];
        if let Some(error) = r.get("error") {
            tally
                .failures
                .push(format!("{}: script error {error}", m.name));
            continue;
        }
        // The class runs the motion's animation, or one per property (`<name>-<property>`,
        // translateX and translateY together as `<name>-translate`); a spring on translate
        // with an easing also its velocity's, which adds nothing here (no
        // `--<name>-velocity`; `browser_velocity` plays it with one).
        let expected: Vec<String> = if m.is_multi() {
            let both = ["translateX", "translateY"]
                .iter()
                .all(|p| m.tracks.iter().any(|(q, _)| q == p));
            let mut names: Vec<String> = (m.tracks.iter())
                .map(|(p, _)| match p.as_str() {
                    "translateX" | "translateY" if both => format!("{}-translate", m.name),
                    p => format!("{}-{p}", m.name),
                })
                .collect();
            names.dedup();
            names
        } else if m.spec.css_velocity() && m.easing.is_some() {
            vec![m.name.clone(), format!("{}-velocity", m.name)]
        } else {
            vec![m.name.clone()]
        };
        let mut names: Vec<String> =
            serde_json::from_value(r["animation_names"].clone()).unwrap_or_default();
        names.sort();
        if names != expected {
            tally.failures.push(format!(
                "{}: the class runs {} animations ({:?}), not {expected:?}",
                m.name, r["animations"], names
            ));
            continue;
        }
        let bound = m.bound() + tolerance;
        compare(
            m,
            &r["samples"],
            &m.label(),
            bound,
            Readings::Motion,
            &mut tally,
        );
        if m.easing.is_some() {
            if r["easing_animations"] != 1 {
                tally.failures.push(format!(
                    "{}: the transition with var(--{}-easing) did not start",
                    m.name, m.name
                ));
            } else {
                let label = format!(
                    "linear() easing, {}",
                    if m.bound() == UNIT_BOUND {
                        "units"
                    } else {
                        "unitless"
                    }
                );
                compare(m, &r["easing"], &label, bound, Readings::Probe, &mut tally);
                other_range(m, &r["range_easing"], tolerance, &mut tally);
            }
        }
        if m.name == CONTROL {
            let mut control = Tally::default();
            let infinite = f64::INFINITY;
            compare(
                m,
                &r["control"],
                "control",
                infinite,
                Readings::Motion,
                &mut control,
            );
            control_worst = control.worst();
        }
    }
    eprintln!("{}:\n{}", engine.name(), tally.table());
    eprintln!(
        "{}: control {CONTROL} with the default `ease` between stops is off by up to {control_worst:.3} px",
        engine.name()
    );
    assert!(
        control_worst > 100.0 * UNIT_BOUND,
        "the control with `ease` matched the table: the comparison cannot tell"
    );
    tally
}

/// A transition of a probe from 0 to [`OTHER_RANGE`] with the motion's easing, against the
/// exact motion scaled to that range, `R·(x(t) - from)/(to - from)`: within the motion's
/// tolerance (in a bake with `--css-tolerance css_tolerance`) scaled the same way (the easing
/// is its progress) and what reading back costs. The easing ends on `to` at `D`: its step
/// there, the motion's distance from `to` scaled, is at most `END_STEP` of the range, and
/// either side of it is the motion.
fn other_range(m: &Motion, seeks: &Value, css_tolerance: f64, tally: &mut Tally) {
    let (from, to) = m.easing.unwrap();
    let scale = OTHER_RANGE / (to - from);
    let end_step = (m.exact(0, m.duration * (1.0 - 1e-12)) - to).abs() * scale.abs();
    tally.record(
        "end step over another range",
        "closed form",
        end_step,
        curvebake::spec::END_STEP * OTHER_RANGE,
        &format!("{} over {OTHER_RANGE}", m.name),
    );
    // The motion's tolerance in this bake (`--css-tolerance extra`, if above 0).
    let settings = ExportSettings {
        css_tolerance,
        ..ExportSettings::default()
    };
    let tolerance =
        curvebake::internals::export::css::tolerance(&m.spec, &settings, &m.unit, &m.tracks[0].1)
            .kept;
    // Reading back: 6 significant digits of the probe, and what the motion's own readings
    // may add, scaled.
    let bound = (tolerance + m.exact_bound_of(0) - m.tolerances[0]) * scale.abs() + 1e-3;
    let Some(seeks) = seeks.as_array() else {
        tally.failures.push(format!(
            "{}: the transition over {OTHER_RANGE} did not start",
            m.name
        ));
        return;
    };
    for (seek, &sent) in seeks.iter().zip(&m.samples) {
        let t = sent / 1000.0;
        let expected = (m.exact(0, t) - from) * scale;
        // About the end, either side of the step is the motion.
        let sides = m.step_near(0, t).map_or(vec![expected], |(a, b)| {
            vec![expected, (a - from) * scale, (b - from) * scale]
        });
        let reading = &seek[1][0];
        let what = format!(
            "{} over {OTHER_RANGE} at t={sent} ms: expected {expected}, read {reading}",
            m.name
        );
        match leading_number(reading[0].as_str().unwrap_or_default()) {
            Some(v) => {
                let error = sides
                    .iter()
                    .map(|e| (v - e).abs())
                    .fold(f64::INFINITY, f64::min);
                tally.record(
                    "easing over another range",
                    "computed style",
                    error,
                    bound,
                    &what,
                );
            }
            None => tally.failures.push(format!("unreadable: {what}")),
        }
    }
}

#[test]
fn keyframes_and_easings_land_on_the_tables_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("generated.ron");
    std::fs::write(&generated, generated_motions()).unwrap();
    let inputs = vec![curves_dir(), generated];

    // Every frame, one file per motion (and curves.css).
    let exact_dir = dir.path().join("exact");
    let report = bake(&inputs, &exact_dir, Layout::PerMotion, 0.0);
    let tables = read_motions(&inputs, &exact_dir);
    assert_eq!(tables.len(), report.motions);
    assert!(tables.len() >= 40, "{} motions", tables.len());
    // The bundle is the per-motion files in input order.
    let mut bundle = std::fs::read(exact_dir.join("curves.css")).unwrap();
    let header_end = bundle.windows(3).position(|w| w == b"\n\n/").unwrap() + 2;
    bundle.drain(..header_end);
    let joined: Vec<Vec<u8>> = tables
        .iter()
        .map(|m| std::fs::read(exact_dir.join(format!("css/{}.css", m.name))).unwrap())
        .collect();
    assert!(
        bundle == joined.join(&b"\n"[..]),
        "curves.css is not the per-motion files in order"
    );
    let all = report.stats["css_stops_before"];
    let default_stops = report.stats["css_stops_after"];

    write_page(&exact_dir, &tables);
    let mut failures = Vec::new();
    for engine in &engines {
        let tally = check_in_engine(engine, &inputs, &tables, &exact_dir, 0.0);
        assert!(tally.samples >= 20 * tables.len());
        failures.extend(
            tally
                .failures
                .into_iter()
                .map(|f| format!("{}: {f}", engine.name())),
        );
    }

    // With a tolerance, in the bundle layout (curves.css only).
    let tolerant_dir = dir.path().join("tolerant");
    let report = bake(&inputs, &tolerant_dir, Layout::Bundle, TOLERANCE);
    assert!(!tolerant_dir.join("css").exists());
    let (before, after) = (
        report.stats["css_stops_before"],
        report.stats["css_stops_after"],
    );
    eprintln!("--css-tolerance {TOLERANCE}: {before} stops -> {after}");
    assert_eq!(before, all);
    // Half the default distance for px and deg asks for more stops (a unitless motion's
    // tolerance stays 0.5 % of its range, looser than the default 5e-4).
    assert!(
        after > default_stops,
        "{after} stops at {TOLERANCE}, {default_stops} by default"
    );
    write_page(&tolerant_dir, &tables);
    for engine in &engines {
        let tally = check_in_engine(engine, &inputs, &tables, &tolerant_dir, TOLERANCE);
        failures.extend(
            tally
                .failures
                .into_iter()
                .map(|f| format!("{} (tolerance {TOLERANCE}): {f}", engine.name())),
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The example ring baked (JSON and CSS, per motion) into `out`, and its table.
fn example_ring(out: &Path) -> Motion {
    let inputs = vec![curves_dir().join("explosion.ron")];
    bake(&inputs, out, Layout::PerMotion, 0.0);
    let ring = read_motions(&inputs, out).remove(0);
    assert!(ring.is_ring());
    ring
}

/// Where the drawing test puts the free ring's centre (px from the top left).
const RING_AT: (f64, f64) = (200.0, 200.0);

/// Drawing is checked on screenshots, which only the Chromium harness takes (the radii, the
/// outset and the page's overflow are checked in every engine by the tests beside this one).
/// An empty element at `RING_AT` and one in the viewport's bottom right corner carry the
/// class, seeked to the middle frame: the band (between the radii at that time) is drawn
/// about each element's position, in every direction that is on screen, with background
/// just inside and outside it and at the centre. Once the animation has ended, nothing is
/// drawn. The mid-animation screenshot is kept, to look at.
#[test]
fn the_ring_class_draws_the_band_about_its_element_and_ends() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let ring = example_ring(dir.path());
    let t = ring.times[ring.times.len() / 2];
    let (inner, outer) = (ring.exact(0, t), ring.exact(1, t));
    eprintln!("ring at {t} s: inner {inner:.2} px, outer {outer:.2} px");
    let shoot = |seek: &str, png: &Path| {
        let page = dir.path().join("ring.html");
        std::fs::write(
            &page,
            format!(
                r#"<!doctype html>
<html><head><meta charset="utf-8">{CAPTURE_ERRORS}<link rel="stylesheet" href="css/{name}.css">
<style>html, body {{ margin: 0; background: #fff; }} .{name} {{ position: absolute; color: #f00; }}</style></head>
<body><div class="{name}" style="left: {x}px; top: {y}px"></div><div class="{name}" style="right: 0; bottom: 0"></div>
<script>
for (const a of document.getAnimations()) {{ a.pause(); {seek}; }}
</script></body></html>
"#,
                name = ring.name,
                x = RING_AT.0,
                y = RING_AT.1,
            ),
        )
        .unwrap();
        let run = browser::screenshot(&chromium, &page, png, 600, 420);
        assert!(run.console.is_empty(), "console: {:?}", run.console);
        image::open(png).unwrap().to_rgb8()
    };
    // Kept for people to look at, as the review page's screenshot is.
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ring-mid-animation.png");
    let image = shoot(&format!("a.currentTime = {}", t * 1000.0), &png);
    let (width, height) = (f64::from(image.width()), f64::from(image.height()));
    let pixel = |centre: (f64, f64), radius: f64, degrees: f64| {
        let (s, c) = degrees.to_radians().sin_cos();
        let (x, y) = (centre.0 + radius * c, centre.1 + radius * s);
        image.get_pixel(x.round() as u32, y.round() as u32).0
    };
    let red = |p: [u8; 3]| p[0] > 200 && p[1] < 60 && p[2] < 60;
    let white = |p: [u8; 3]| p.iter().all(|&c| c > 240);
    // The corner ring is on screen only up and to the left of the corner.
    let rings = [
        (RING_AT, &[0.0, 45.0, 90.0, 135.0, 200.0, 300.0][..]),
        ((width - 1.0, height - 1.0), &[190.0, 225.0, 260.0][..]),
    ];
    for (centre, directions) in rings {
        for &degrees in directions {
            let band = pixel(centre, (inner + outer) / 2.0, degrees);
            assert!(
                red(band),
                "band about {centre:?} at {degrees} deg is {band:?}"
            );
            for radius in [inner - 3.0, outer + 3.0, 0.0] {
                let p = pixel(centre, radius, degrees);
                assert!(
                    white(p),
                    "radius {radius} about {centre:?} at {degrees} deg is {p:?}, not background"
                );
            }
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "ring screenshot mid-animation: {}",
        png.display()
    );
    let ended = shoot("a.finish()", &dir.path().join("ring-ended.png"));
    let drawn = ended.pixels().filter(|p| !white(p.0)).count();
    assert_eq!(drawn, 0, "pixels still drawn after the ring ended");
}

/// The page [`the_ring_never_makes_the_page_overflow_in_every_engine`] loads: rings on an
/// empty element in the bottom right corner of the viewport and on a 40 px square touching
/// its right edge, seeked to `ms`. It reports the page's scroll sizes and how far it can
/// scroll, each ring's radii and border image, then the same once the rings have ended, and
/// then (the control) with a box of the ring's size in the same corner: the box the ring
/// class once drew in, which does make the page overflow.
fn overflow_page(name: &str, ms: f64, largest: f64) -> String {
    format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8">{HARNESS_HEAD}<link rel="stylesheet" href="css/{name}.css">
<style>html, body {{ margin: 0; }} .{name} {{ position: absolute; color: #f00; }}</style></head>
<body>
<div class="{name}" style="right: 0; bottom: 0"></div>
<div class="{name}" style="right: 0; top: 50%; width: 40px; height: 40px"></div>
<script>
const rings = [...document.querySelectorAll(".{name}")];
const s = document.scrollingElement;
const measure = () => {{
  scrollTo(1e6, 1e6);
  const m = {{ scrollWidth: s.scrollWidth, scrollHeight: s.scrollHeight,
    clientWidth: s.clientWidth, clientHeight: s.clientHeight, scrollX, scrollY }};
  scrollTo(0, 0);
  return m;
}};
const read = (el) => {{
  const cs = getComputedStyle(el);
  return {{ inner: cs.getPropertyValue("--{name}-inner"), outer: cs.getPropertyValue("--{name}-outer"),
    outset: cs.borderImageOutset, source: cs.borderImageSource, animations: el.getAnimations().length }};
}};
for (const el of rings) {{ const a = el.getAnimations()[0]; a.pause(); a.currentTime = {ms}; }}
const result = {{ during: measure(), rings: rings.map(read) }};
for (const el of rings) el.getAnimations().forEach((a) => a.finish());
result.ended = rings.map(read);
result.afterwards = measure();
const box = document.createElement("div");
box.style.cssText = "position: absolute; right: -{largest}px; bottom: -{largest}px; width: {size}px; height: {size}px";
document.body.appendChild(box);
result.control = measure();
cbReport(result);
</script></body></html>
"#,
        size = 2.0 * largest,
    )
}

/// The ring draws outside its element as ink overflow only: in each engine, with rings at the
/// right and bottom edges of the viewport seeked to the middle frame, the page is exactly as
/// large as the viewport and cannot scroll, while each ring's radii are on the table (0.01 px)
/// and its border image is the gradient with an outset of the largest radius. Once the
/// animations end the radii are 0 (nothing drawn, see the screenshot test) and the page still
/// does not scroll. The control, a box of the ring's size in the same corner, must overflow by
/// its overhang: proof that the measure sees overflow.
#[test]
fn the_ring_never_makes_the_page_overflow_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ring = example_ring(dir.path());
    let t = ring.times[ring.times.len() / 2];
    let largest = ring.tracks[1].1.iter().fold(0.0f64, |m, &r| m.max(r));
    std::fs::write(
        dir.path().join("overflow.html"),
        overflow_page(&ring.name, t * 1000.0, largest),
    )
    .unwrap();
    let number = |v: &Value| {
        common::readout::leading_number(v.as_str().unwrap_or(""))
            .unwrap_or_else(|| panic!("not a number: {v}"))
    };
    for engine in &engines {
        let name = engine.name();
        let outcome = engine.run(dir.path(), "overflow.html", &RunOptions::default());
        assert!(outcome.errors.is_empty(), "{name}: {:?}", outcome.errors);
        let r = &outcome.result;
        eprintln!("{name}: {r}");
        for (when, m) in [("during", &r["during"]), ("afterwards", &r["afterwards"])] {
            assert_eq!(m["scrollWidth"], m["clientWidth"], "{name} {when}: {m}");
            assert_eq!(m["scrollHeight"], m["clientHeight"], "{name} {when}: {m}");
            assert_eq!(
                (&m["scrollX"], &m["scrollY"]),
                (&json!(0), &json!(0)),
                "{name} {when}"
            );
        }
        let c = &r["control"];
        let overhang =
            |size: &str, client: &str| c[size].as_f64().unwrap() - c[client].as_f64().unwrap();
        assert!(
            overhang("scrollWidth", "clientWidth") >= largest - 1.0
                && overhang("scrollHeight", "clientHeight") >= largest - 1.0,
            "{name}: the control box does not overflow: {c}"
        );
        for (during, ended) in r["rings"]
            .as_array()
            .unwrap()
            .iter()
            .zip(r["ended"].as_array().unwrap())
        {
            for (k, edge) in ["inner", "outer"].into_iter().enumerate() {
                let error = (number(&during[edge]) - ring.exact(k, t)).abs();
                assert!(
                    error <= ring.exact_bound_of(k),
                    "{name}: {edge} radius off by {error} px: {during}"
                );
                assert_eq!(
                    number(&ended[edge]),
                    0.0,
                    "{name}: {edge} after the end: {ended}"
                );
            }
            assert!(
                (number(&during["outset"]) - largest).abs() <= UNIT_BOUND,
                "{name}: {during}"
            );
            let source = during["source"].as_str().unwrap();
            assert!(source.starts_with("radial-gradient("), "{name}: {source}");
            assert_eq!(ended["animations"], 0, "{name}: {ended}");
        }
    }
}

#[test]
fn reduced_motion_shows_each_policys_result_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = dir.path().join("extra.ron");
    std::fs::write(
        &extra,
        r#"[
  (name: "faded", property: "translateY", reduced_motion: "fade",
   motion: Spring(from: -100, to: 0, stiffness: 300, damping: 30)),
  (name: "kept", property: "translateX", reduced_motion: "keep", duration: 1,
   motion: Gravity(from: 0, velocity: 100, acceleration: 0)),
]"#,
    )
    .unwrap();
    let inputs = vec![curves_dir(), extra];
    bake(&inputs, dir.path(), Layout::Bundle, 0.0);
    // Each element reads, at once and 100 ms in (real time): a jump is at its end (card-drop
    // is back at the element's own translate, button-press holds 0.94, the ring is gone), a
    // fade is at its end and fading in, a kept motion (opacity by default) still runs. A page's
    // own slower duration on an element (css.md's `--card-drop-duration: 2.4s`, a track's of a
    // multi-track class) jumps too.
    std::fs::write(
        dir.path().join("reduced.html"),
        format!(
            r#"<!doctype html>
<html><head><meta charset="utf-8">{HARNESS_HEAD}<link rel="stylesheet" href="curves.css"></head>
<body><div id="host"></div>
<script>
const names = ["card-drop", "button-press", "explosion-ring", "modal-fade-in", "faded", "kept", "card-drop", "sheet-enter"];
const styles = {{ 6: "--card-drop-duration: 2.4s", 7: "--sheet-enter-translateY-duration: 2s; --sheet-enter-scale-duration: 2s" }};
const keys = names.map((n, i) => (i in styles ? n + "-slow" : n));
const read = (el) => {{
  const cs = getComputedStyle(el);
  return {{ translate: cs.translate, scale: cs.scale, opacity: cs.opacity,
    inner: cs.getPropertyValue("--explosion-ring-inner"),
    animations: el.getAnimations().map((a) => a.animationName + ":" + a.playState) }};
}};
const els = names.map((n, i) => {{
  const el = document.createElement("div");
  el.className = n;
  el.style.cssText = styles[i] ?? "";
  document.getElementById("host").appendChild(el);
  return el;
}});
const result = {{ reduce: matchMedia("(prefers-reduced-motion: reduce)").matches, at0: {{}} }};
els.forEach((el, i) => {{ result.at0[keys[i]] = read(el); }});
cbReport(result);
</script></body></html>
"#
        ),
    )
    .unwrap();
    let options = RunOptions {
        reduced_motion: true,
        ..RunOptions::default()
    };
    for engine in &engines {
        let outcome = engine.run(dir.path(), "reduced.html", &options);
        assert!(
            outcome.errors.is_empty(),
            "{}: {:?}",
            engine.name(),
            outcome.errors
        );
        let result = &outcome.result;
        let name = engine.name();
        eprintln!("{name}: {result}");
        assert_eq!(
            result["reduce"], true,
            "{name}: reduced motion was not asked for"
        );
        let at = |motion: &str, key: &str| result["at0"][motion][key].as_str().unwrap().to_owned();
        let number = |motion: &str, key: &str| {
            common::readout::leading_number(&at(motion, key))
                .unwrap_or_else(|| panic!("{name}: {motion} {key} = {:?}", at(motion, key)))
        };
        // Jump, ending at the neutral value: the element's own translate (none).
        assert_eq!(at("card-drop", "translate"), "none", "{name}");
        // Jump, holding its end.
        assert!(
            (number("button-press", "scale") - 0.94).abs() < 1e-6,
            "{name}"
        );
        // The ring jumped to its end: radii back at 0, nothing drawn.
        assert_eq!(number("explosion-ring", "inner"), 0.0, "{name}");
        // Opacity keeps its motion by default: it starts at 0.
        assert_eq!(number("modal-fade-in", "opacity"), 0.0, "{name}");
        // Fade: at its end position, transparent as the fade starts.
        assert_eq!(at("faded", "translate"), "none", "{name}");
        assert_eq!(number("faded", "opacity"), 0.0, "{name}");
        // Keep: at its first frame.
        assert_eq!(number("kept", "translate"), 0.0, "{name}");
        // Slowed on the element, still a jump: at the end, nothing running.
        assert_eq!(at("card-drop-slow", "translate"), "none", "{name}");
        let running = |motion: &str| result["at0"][motion]["animations"].to_string();
        assert!(!running("card-drop-slow").contains("running"), "{name}");
        assert_eq!(at("sheet-enter-slow", "translate"), "none", "{name}");
        assert!(!running("sheet-enter-slow").contains("running"), "{name}");
    }
}
