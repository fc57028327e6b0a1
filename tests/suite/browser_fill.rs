//! After a motion ends, its ES module's `animate()` leaves the element as its CSS class does,
//! in three engines (Chromium, Firefox ESR, WebKitGTK; see `common::engines`).
//!
//! Every motion of `curves/` is baked as CSS and ES modules. A page gives two elements that
//! have their own `translate`, `scale`, `rotate` and `opacity` the motion: one its class, one
//! the module's `animate(element)`; it finishes every animation of both and reads the
//! computed values. Both must show the same thing: a motion that ends at its properties'
//! neutral values (fill `backwards`) hands them back, so the element's own values show; any
//! other holds its last frame (fill `both`). The module's `timing.fill` must follow that rule
//! (read from the tables here), and the examples must have both kinds, so the check can
//! tell. (Before, `animate()` always held the last frame: card-drop kept `translate: 0px`
//! over the element's own.)

use crate::common;

use common::engines::{engines, RunOptions, HARNESS_HEAD};
use common::readout::leading_number;
use common::tables::{read_tables, Table};
use curvebake::export::{Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use serde_json::json;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The elements' own values, as the page's style sets them and `getComputedStyle` reads them.
const OWN: [(&str, &str); 4] = [
    ("translate", "7px 9px"),
    ("scale", "1.25"),
    ("rotate", "11deg"),
    ("opacity", "0.5"),
];

const PAGE_SCRIPT: &str = r#"
const result = {};
for (const name of plan.names) {
  const m = modules[name];
  const els = [document.createElement("div"), document.createElement("div")];
  els[0].className = "own " + name;
  els[1].className = "own";
  for (const el of els) host.appendChild(el);
  m.animate(els[1]);
  const custom = m.customProperties.map((c) => c.name);
  if (m.property && m.property.startsWith("--")) custom.push(m.property);
  const read = (el) => {
    for (const a of el.getAnimations()) a.finish();
    const cs = getComputedStyle(el);
    return plan.properties.concat(custom).map((p) => [p, cs.getPropertyValue(p).trim()]);
  };
  result[name] = { fill: m.timing.fill, css: read(els[0]), js: read(els[1]) };
}
cbReport(result);
"#;

/// Whether a motion ends at its properties' neutral values, read from its table: 1 for
/// scale and opacity, else 0; a ring's radii go back to 0 whatever they end at.
fn ends_neutral(m: &Table) -> bool {
    m.is_ring()
        || (0..m.tracks.len()).all(|k| {
            let x = &m.tracks[k].1;
            let neutral = match m.property_of(k) {
                "scale" | "opacity" => 1.0,
                _ => 0.0,
            };
            (x[x.len() - 1] - neutral).abs() <= 5e-7
        })
}

/// The numbers of a computed value (`7px 9px` is 7 and 9).
fn numbers(text: &str) -> Vec<f64> {
    text.split_whitespace().filter_map(leading_number).collect()
}

#[test]
fn animate_leaves_the_element_as_the_css_class_does_in_every_engine() {
    let engines = engines();
    if engines.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inputs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves")];
    let options = BakeOptions {
        inputs: inputs.clone(),
        out: dir.path().to_owned(),
        formats: vec![Format::Json, Format::Css, Format::Js],
        layout: Layout::PerMotion,
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let tables: Vec<Table> = read_tables(&inputs, dir.path())
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    let fills: Vec<bool> = tables.iter().map(ends_neutral).collect();
    assert!(
        fills.contains(&true) && fills.contains(&false),
        "the examples should end both ways"
    );
    let (mut imports, mut modules) = (String::new(), String::from("const modules = {\n"));
    for (i, m) in tables.iter().enumerate() {
        writeln!(imports, "import * as m{i} from \"./js/{}.js\";", m.name).unwrap();
        writeln!(modules, "  {:?}: m{i},", m.name).unwrap();
    }
    modules.push_str("};\n");
    let own: String = OWN.iter().map(|(p, v)| format!("{p}: {v}; ")).collect();
    let plan = json!({
        "names": tables.iter().map(|m| &m.name).collect::<Vec<_>>(),
        "properties": OWN.map(|(p, _)| p),
    });
    let page = format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8">{HARNESS_HEAD}
<link rel="stylesheet" href="curves.css">
<style>#host > div {{ width: 100px; height: 10px; }} .own {{ {own}}}</style>
<script type="application/json" id="plan">{plan}</script>
</head><body><div id="host"></div>
<script type="module">
{imports}{modules}const plan = JSON.parse(document.getElementById("plan").textContent);
const host = document.getElementById("host");
{PAGE_SCRIPT}</script>
</body></html>
"#
    );
    std::fs::write(dir.path().join("fill.html"), page).unwrap();
    let mut failures = Vec::new();
    for engine in &engines {
        let name = engine.name();
        let outcome = engine.run(dir.path(), "fill.html", &RunOptions::default());
        assert!(outcome.errors.is_empty(), "{name}: {:?}", outcome.errors);
        let mut fail = |what: String| failures.push(format!("{name}: {what}"));
        for (m, neutral) in tables.iter().zip(&fills) {
            let r = &outcome.result[&m.name];
            let fill = if *neutral { "backwards" } else { "both" };
            if r["fill"] != fill {
                fail(format!(
                    "{}: timing.fill is {}, not {fill}",
                    m.name, r["fill"]
                ));
            }
            let (css, js) = (r["css"].as_array().unwrap(), r["js"].as_array().unwrap());
            for (c, j) in css.iter().zip(js) {
                let (property, c, j) = (&c[0], c[1].as_str().unwrap(), j[1].as_str().unwrap());
                let (a, b) = (numbers(c), numbers(j));
                let same =
                    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-3);
                if !same {
                    fail(format!(
                        "{}: {property} after the end: class {c:?}, animate() {j:?}",
                        m.name
                    ));
                }
            }
            if *neutral {
                // Handed back: the element's own values show.
                for (reading, (p, own)) in css.iter().zip(OWN) {
                    if reading[1] != own {
                        fail(format!(
                            "{}: {p} after the end is {}, not its own {own}",
                            m.name, reading[1]
                        ));
                    }
                }
            }
        }
        eprintln!(
            "{name}: {} motions finished ({:.2} s)",
            tables.len(),
            outcome.elapsed.as_secs_f64()
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
