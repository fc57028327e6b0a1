//! The CSS is exact at every join, in three engines (Chromium, Firefox ESR, WebKitGTK; see
//! `common::engines`): motions whose closed forms hand over between two frames, each seeked
//! to the exact join time `T` (from `Model::joins`), read back within a tenth of the
//! tolerance (0.01 px; plus what reading back costs) of the closed form `x(T)` at a track's
//! own join, and within the tolerance at another track's (`Table::exact`):
//!
//! * a sequence handing over at 0.105 s (between frames 6 and 7 at 60 fps);
//! * a fling hitting its bound at 0.4613 s (frames 27 and 28), the rubber band's start;
//! * a multi-track motion whose opacity ends at 0.3051 s and holds, while its translate runs on.
//!
//! Each is baked three times: the CSS with the `linear()` easing and no tolerance, the CSS
//! with keyframes at the fitted stops (`--css-frames`) within `--css-tolerance 0.05`, and the
//! JS module's keyframes (played with `element.animate(keyframes, timing)`) within the same
//! tolerance. The control: for the sequence and the fling, the chord of the frames around the
//! join misses `x(T)` by more than the bound, so output without a stop at the join fails.

use crate::common;

use common::compare::{decode, Tally};
use common::engines::{engines, RunOptions, HARNESS_HEAD};
use common::tables::{read_tables, PAGE_READERS};
use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use serde_json::{json, Value};
use std::path::Path;

const CURVES: &str = r#"[
    (
        name: "handoff",
        property: "translateX",
        motion: Sequence([
            (motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.105),
            (motion: Spring(to: 40, stiffness: 170, damping: 26)),
        ]),
    ),
    (
        name: "bound",
        property: "translateY",
        motion: Inertia(from: 0, velocity: 2400, friction: 0.05, min: 0, max: 600),
    ),
    (
        name: "sheet",
        tracks: [
            (property: "translateY", motion: Spring(from: 240, to: 0, stiffness: 170, damping: 26)),
            (property: "opacity", motion: Decay(from: 0, to: 1, end_velocity: 0.2), duration: 0.3051),
        ],
    ),
]
"#;

/// The motions whose chord at the join must miss (the control).
const CHORD_MISSES: [&str; 2] = ["handoff", "bound"];

/// What plays the motions: the CSS classes, or the JS modules' keyframes.
#[derive(Clone, Copy, PartialEq)]
enum Player {
    Css,
    Js,
}

/// Seeks every animation of each motion's element (its class's, or the one `animate` made).
const PAGE_SCRIPT: &str = r#"
const result = {};
for (const m of plan.motions) {
  const el = document.getElementById(m.name);
  if (typeof modules !== "undefined") {
    const js = modules[m.name];
    el.animate(js.keyframes, js.timing);
  }
  result[m.name] = seek(el.getAnimations(), el, m.kind, m.props, m.times);
}
cbReport(result);
"#;

fn page(plan: &Value, names: &[&str], player: Player) -> String {
    let plan = plan.to_string();
    assert!(!plan.contains('<'));
    // The CSS page runs a classic script (once its stylesheet applies), the JS page a module.
    let (class, head, script, modules) = match player {
        Player::Css => (
            true,
            r#"<link rel="stylesheet" href="curves.css">"#,
            "<script>",
            String::new(),
        ),
        Player::Js => {
            let imports: String = (names.iter().enumerate())
                .map(|(i, n)| format!("import * as m{i} from \"./js/{n}.js\";\n"))
                .collect();
            let table: String = (names.iter().enumerate())
                .map(|(i, n)| format!("  {n:?}: m{i},\n"))
                .collect();
            let modules = format!("{imports}const modules = {{\n{table}}};\n");
            (false, "", r#"<script type="module">"#, modules)
        }
    };
    let elements: String = names
        .iter()
        .map(|n| match class {
            true => format!(r#"<div id="{n}" class="{n}"></div>"#),
            false => format!(r#"<div id="{n}"></div>"#),
        })
        .collect();
    format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8">{HARNESS_HEAD}
{head}
<style>html, body {{ margin: 0; }} #host > div {{ width: 100px; height: 10px; }}</style>
<script type="application/json" id="plan">{plan}</script>
</head><body>
<div id="host">{elements}</div>
{script}{modules}{PAGE_READERS}{PAGE_SCRIPT}</script>
</body></html>
"#
    )
}

fn bake(inputs: &[std::path::PathBuf], out: &Path, settings: ExportSettings) {
    let options = BakeOptions {
        inputs: inputs.to_vec(),
        out: out.to_owned(),
        layout: Layout::PerMotion,
        formats: vec![Format::Json, Format::Css, Format::Js],
        settings,
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
}

#[test]
fn the_css_and_js_land_on_the_closed_form_at_every_join_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let curves = dir.path().join("curves");
    std::fs::create_dir(&curves).unwrap();
    std::fs::write(curves.join("joins.ron"), CURVES).unwrap();
    let inputs = vec![curves];
    let thinned = ExportSettings {
        css_tolerance: 0.05,
        ..ExportSettings::default()
    };
    let variants = [
        ("easing", ExportSettings::default(), Player::Css),
        (
            "frames, tolerance 0.05",
            ExportSettings {
                css_frames: true,
                ..thinned.clone()
            },
            Player::Css,
        ),
        ("js, tolerance 0.05", thinned, Player::Js),
    ];
    let mut failures = Vec::new();
    for (variant, settings, player) in variants {
        let out = dir.path().join(variant.replace([' ', ','], "-"));
        bake(&inputs, &out, settings);
        let motions = read_tables(&inputs, &out);
        let joins: Vec<Vec<f64>> = motions.iter().map(|(s, _)| s.model.joins()).collect();
        for ((spec, table), joins) in motions.iter().zip(&joins) {
            assert!(!joins.is_empty(), "{}: no joins", spec.name);
            for &t in joins {
                // Strictly between two frames, far from both.
                let frames = t * spec.fps;
                assert!(
                    frames.fract() > 0.1 && frames.fract() < 0.9,
                    "{}: {t}",
                    spec.name
                );
                if CHORD_MISSES.contains(&spec.name.as_str()) {
                    let chord = table.chord(0, t);
                    let exact = table.at(0, t);
                    assert!(
                        (chord - exact).abs() > 5.0 * table.bound(),
                        "{}: the chord at {t} s ({chord}) is already within the bound of {exact}: \
                         the check cannot tell",
                        spec.name
                    );
                }
            }
        }
        let plan = json!({
            "motions": motions.iter().zip(&joins).map(|((_, table), joins)| {
                let (kind, props) = table.readout();
                let times: Vec<f64> = joins.iter().map(|t| t * 1000.0).collect();
                json!({ "name": table.name, "kind": kind, "props": props, "times": times })
            }).collect::<Vec<_>>(),
        });
        let names: Vec<&str> = motions.iter().map(|(s, _)| s.name.as_str()).collect();
        std::fs::write(out.join("joins.html"), page(&plan, &names, player)).unwrap();
        for engine in &engines {
            let outcome = engine.run(&out, "joins.html", &RunOptions::default());
            let name = engine.name();
            assert!(outcome.errors.is_empty(), "{name}: {:?}", outcome.errors);
            let mut tally = Tally::default();
            for ((spec, table), joins) in motions.iter().zip(&joins) {
                let seeks = outcome.result[&spec.name].as_array().unwrap();
                assert_eq!(seeks.len(), joins.len(), "{name}: {}", spec.name);
                for (seek, &t) in seeks.iter().zip(joins) {
                    let read_back = seek[0].as_f64().unwrap();
                    // WebKit reads back whole microseconds (see `common::compare`).
                    assert!((read_back - t * 1000.0).abs() <= 5e-4 + 1e-9, "{read_back}");
                    let readings = seek[1].as_array().unwrap();
                    // One reading per track, in the table's order.
                    assert_eq!(readings.len(), table.tracks.len(), "{name}: {}", spec.name);
                    for (k, reading) in readings.iter().enumerate() {
                        let track = &table.tracks[k].0;
                        // The exact motion: at the track's own join, its stop there (the
                        // closed form's value, to a fortieth of the tolerance, moved to its
                        // written time for at most a twentieth); at another track's, within
                        // the tolerance.
                        let exact = table.exact(k, t);
                        let own = table.joins[k].iter().any(|&(j, _)| j == t);
                        let slack = table.exact_bound_of(k) - table.tolerances[k];
                        let bound = if own {
                            0.1 * table.tolerances[k] + slack
                        } else {
                            table.exact_bound_of(k)
                        };
                        let (computed, typed) = decode(table, k, reading, exact);
                        let what = format!(
                            "{} {track} at the join {t} s: expected {exact}, read {} / {}",
                            spec.name, reading[0], reading[1]
                        );
                        let no_typed_om = reading[1].as_str() == Some("n/a");
                        for (readout, value) in [("computed style", computed), ("typed OM", typed)]
                        {
                            if readout == "typed OM" && no_typed_om {
                                continue;
                            }
                            match value {
                                Some(v) => tally.record(
                                    &format!("{variant}: {} {track}", spec.name),
                                    readout,
                                    (v - exact).abs(),
                                    bound,
                                    &what,
                                ),
                                None => tally.failures.push(format!("unreadable: {what}")),
                            }
                        }
                    }
                }
            }
            eprintln!(
                "{name}, {variant} ({:.2} s): worst {:.6}\n{}",
                outcome.elapsed.as_secs_f64(),
                tally.worst(),
                tally.table()
            );
            // At least the computed style of every track at every join.
            let readings: usize = (motions.iter().zip(&joins))
                .map(|((_, table), joins)| table.tracks.len() * joins.len())
                .sum();
            assert!(
                tally.samples >= readings,
                "{name}: {} readings",
                tally.samples
            );
            failures.extend(tally.failures.into_iter().map(|f| format!("{name}: {f}")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
