//! The review page `index.html` in headless Chromium: it loads from `file://` with no console
//! error, every card draws its plot, every preview element runs its motion's CSS animation,
//! the replay buttons restart them, and the scrubber shows every preview at its table value
//! at the scrubber's time, at normal and quarter speed, with the cursor of every plot there
//! (that one in every engine found: Chromium, Firefox ESR, WebKitGTK), and every previewed
//! square and bar stays inside its stage at every time, fitted and at 1:1 (every engine too).
//! A screenshot is kept for people to look at.
//!
//! Skipped (with a message) without Chromium, unless `CURVEBAKE_REQUIRE_BROWSER=1`.

use crate::common;

use common::chromium::{self as browser, Action, Options, CAPTURE_ERRORS};
use curvebake::export::Format;
use curvebake::internals::export::html::PAGE_PATH;
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};

fn curves_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves")
}

/// Bakes `curves/` with `formats` into `out`; returns the number of motions.
fn bake(out: &Path, formats: &[Format]) -> usize {
    let options = BakeOptions {
        inputs: vec![curves_dir()],
        out: out.to_owned(),
        formats: formats.to_vec(),
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    report.motions
}

/// The plot panels the page should draw: one per motion, one per track of a multi-track
/// motion (a ring's two radii share one).
fn panels(out: &Path) -> usize {
    let tables = common::tables::read_tables(&[curves_dir()], out);
    assert!(
        tables.iter().filter(|(_, t)| t.is_multi()).count() >= 2,
        "curves/ has multi-track motions"
    );
    tables
        .iter()
        .map(|(_, t)| if t.is_multi() { t.tracks.len() } else { 1 })
        .sum()
}

/// Checks run on the page once it has loaded (images included): images, animations, and the
/// replay button of the first card, then of the whole page.
const CHECK: &str = r#"<pre id="result"></pre>
<script>
addEventListener("load", () => {
  const images = [...document.images];
  const animated = [...document.querySelectorAll("[data-anim]")];
  const report = {
    images: images.length,
    // Cards whose every panel has its curve drawn, and the panels in all.
    plots: [...document.querySelectorAll("article")].filter((card) => {
      const svgs = [...card.querySelectorAll(".plot-svg")];
      return svgs.length > 0 && svgs.every((svg) => svg.querySelector("path.curve"));
    }).length,
    panels: document.querySelectorAll("article .plot-svg").length,
    // A motion of translateX and translateY also draws its path on screen, with time marks.
    paths: [...document.querySelectorAll("article .path-svg")].map((svg) =>
      [svg.closest("article").dataset.motion, svg.querySelectorAll("path.curve").length, svg.querySelectorAll(".path-mark").length > 2]),
    pngLinks: document.querySelectorAll("article figcaption a[href$='.png']").length,
    cards: document.querySelectorAll("article").length,
    animated: animated.length,
    // A motion's class runs its animation, or one per track (`<name>-<property>`, or
    // `<name>-translate` for translateX and translateY), or a spring's and its velocity's
    // (`<name>-velocity`).
    wrongAnimation: animated
      .filter((el) => {
        const names = getComputedStyle(el).animationName.split(", ");
        const anim = el.dataset.anim;
        const velocity = names.length === 2 && names[0] === anim && names[1] === anim + "-velocity";
        return names.length === 1 && names[0] === anim ? false : !velocity && !names.every((n) => n.startsWith(anim + "-"));
      })
      .map((el) => el.dataset.anim + ": " + getComputedStyle(el).animationName),
    // Each card's legend, item by item.
    legends: Object.fromEntries([...document.querySelectorAll("article")].map((card) =>
      [card.dataset.motion, [...card.querySelectorAll(".plot-legend li")].map((li) => li.textContent)])),
    external: [...document.querySelectorAll("[src], [href]")]
      .map((el) => el.getAttribute("src") || el.getAttribute("href"))
      // A `data:` URL (the page's empty icon) fetches nothing.
      .filter((url) => /^(?!data:)[a-z]+:|^\/\//i.test(url)),
  };
  // Move the first animation on, replay its card: a fresh animation starts from 0.
  const first = animated[0];
  if (first && first.getAnimations().length) {
    first.getAnimations()[0].currentTime = 100;
    first.closest("article").querySelector("button[data-replay]").click();
    const after = first.getAnimations();
    report.replayed = after.length === 1 && after[0].currentTime < 100 && after[0].playState === "running";
    animated.forEach((el) => el.getAnimations().forEach((a) => { a.currentTime = 50; }));
    document.querySelector('button[data-replay="all"]').click();
    report.replayedAll = animated.every((el) => el.getAnimations().every((a) => a.currentTime < 50));
  }
  document.getElementById("result").textContent = JSON.stringify(report);
});
</script>
"#;

/// A copy of the page beside it, with the error capture first in `<head>` and [`CHECK`] last
/// in `<body>` (the shipped page stays clean).
fn check_page(out: &Path) -> PathBuf {
    let page = std::fs::read_to_string(out.join(PAGE_PATH)).expect("index.html was written");
    assert_eq!(page.matches("<head>").count(), 1);
    assert_eq!(page.matches("</body>").count(), 1);
    let page = page
        .replace("<head>", &format!("<head>\n{CAPTURE_ERRORS}"))
        .replace("</body>", &format!("{CHECK}</body>"));
    let path = out.join("review-check.html");
    std::fs::write(&path, page).unwrap();
    path
}

/// Loads the checked copy of the page and returns what its script reported, after asserting
/// that nothing went wrong on the console.
fn load(chromium: &Path, out: &Path) -> Value {
    let run = browser::run_page(
        chromium,
        &check_page(out),
        &Options {
            virtual_time_budget_ms: Some(2000),
            ..Options::default()
        },
    );
    assert!(
        run.console.is_empty(),
        "console messages: {:#?}",
        run.console
    );
    let errors = browser::page_errors(&run.stdout);
    assert!(errors.is_empty(), "page errors: {errors:#?}");
    browser::element_json(&run.stdout, "result")
}

#[test]
fn review_page_loads_with_every_image_and_animation() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let motions = bake(
        &out,
        &[Format::Json, Format::Css, Format::Png, Format::Html],
    );
    assert!(motions >= 10);

    let report = load(&chromium, &out);
    assert_eq!(report["cards"], motions, "{report}");
    // One plot per motion, drawn in the page (the PNG is linked; no image loads with script):
    // a panel per motion, and per track of a multi-track motion.
    assert_eq!(report["plots"], motions, "{report}");
    assert_eq!(report["panels"], panels(&out), "{report}");
    assert_eq!(
        report["paths"],
        serde_json::json!([["toss-2d", 1, true]]),
        "{report}"
    );
    assert_eq!(report["pngLinks"], motions, "{report}");
    assert_eq!(report["images"], 0, "{report}");
    assert_eq!(report["animated"], motions, "{report}");
    assert_eq!(report["wrongAnimation"], Value::Array(vec![]), "{report}");
    assert_eq!(report["external"], Value::Array(vec![]), "{report}");
    assert_eq!(report["replayed"], true, "{report}");
    assert_eq!(report["replayedAll"], true, "{report}");
    // A legend names each mark once; a multi-track motion's end lines are named by track, in
    // the track's own unit.
    for (card, items) in report["legends"].as_object().unwrap() {
        let items: Vec<&str> = items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_str().unwrap())
            .collect();
        let mut unique = items.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), items.len(), "{card}: {items:?}");
    }
    let sheet = &report["legends"]["sheet-enter"];
    for item in [
        "translateY rests at 0 px",
        "opacity rests at 1",
        "scale rests at 1",
    ] {
        assert!(
            sheet.as_array().unwrap().contains(&Value::from(item)),
            "{sheet}"
        );
    }

    // Kept (only the picture), so that people can look at it after the test: in the target
    // folder's scratch space, one file that each run replaces.
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-page.png");
    browser::run_page(
        &chromium,
        &out.join(PAGE_PATH),
        &Options {
            action: Action::Screenshot(screenshot.clone()),
            window: (1440, 900),
            virtual_time_budget_ms: Some(2000),
            ..Options::default()
        },
    );
    let shot = image::open(&screenshot)
        .expect("the screenshot decodes")
        .to_rgb8();
    assert_eq!(shot.dimensions(), (1440, 900));
    // Text and plots: dark pixels, and many colours.
    let dark = shot
        .pixels()
        .filter(|p| p.0.iter().map(|&c| u32::from(c)).sum::<u32>() < 3 * 100)
        .count();
    let colours: std::collections::HashSet<[u8; 3]> = shot
        .pixels()
        .map(|p| [p[0] >> 3, p[1] >> 3, p[2] >> 3])
        .collect();
    assert!(
        dark > 5000 && colours.len() > 50,
        "the screenshot looks blank: {dark} dark pixels, {} colours",
        colours.len()
    );
    // Past the test harness's capture, so that it shows in a plain `cargo test`.
    let _ = writeln!(
        std::io::stderr(),
        "review page screenshot: {}",
        screenshot.display()
    );
}

#[test]
fn review_page_without_plots_or_css() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let motions = bake(dir.path(), &[Format::Json, Format::Html]);
    let report = load(&chromium, dir.path());
    assert_eq!(report["cards"], motions, "{report}");
    assert_eq!(report["images"], 0, "{report}");
    // Without PNG files the plots are still drawn, from the page's own data.
    assert_eq!(report["plots"], motions, "{report}");
    assert_eq!(report["panels"], panels(dir.path()), "{report}");
    assert_eq!(report["pngLinks"], 0, "{report}");
    // Without CSS, every preview stands still: no animation, nothing to replay.
    assert_eq!(report["wrongAnimation"].as_array().unwrap().len(), motions);
    assert_eq!(report["external"], Value::Array(vec![]), "{report}");
}

/// Scrubber times (s): early, mid-flight, after the short motions end, near the longest's end.
const SCRUB_TIMES: [f64; 5] = [0.05, 0.2, 0.37, 0.9, 1.55];

/// Moves the page's scrubber (the real control: value and `input` event) to each time, at
/// normal and then quarter speed, and reads every preview element and every plot cursor; at
/// once, or (`WAIT` true) once every preview has finished playing.
const SCRUB: &str = r#"<script type="application/json" id="plan">PLAN</script>
<script>
READERS
addEventListener("load", async () => {
  if (WAIT) await Promise.all(document.getAnimations().map((a) => a.finished));
  const scrub = document.getElementById("scrub");
  const slow = document.getElementById("slow");
  const out = { max: Number(scrub.max), runs: [] };
  for (const quarter of [false, true]) {
    if (quarter) {
      slow.checked = true;
      slow.dispatchEvent(new Event("change", { bubbles: true }));
    }
    for (const t of TIMES) {
      scrub.value = String(t);
      scrub.dispatchEvent(new Event("input", { bubbles: true }));
      const readings = {};
      for (const m of plan) {
        const el = document.querySelector(`[data-anim="${m.name}"]`);
        readings[m.name] = {
          paused: el.getAnimations({ subtree: true }).every((a) => a.playState === "paused"),
          read: read(el, m.kind, m.props),
        };
      }
      const cursors = [...document.querySelectorAll("article .plot-svg")].map((svg) => {
        const p = svg.plotTime, c = p.cursor;
        return [c.getAttribute("visibility"), ((Number(c.getAttribute("x1")) - p.left) / p.width) * p.duration, p.duration];
      });
      out.runs.push({ quarter, t: Number(scrub.value), shown: document.getElementById("scrub-time").textContent, readings, cursors });
    }
  }
  cbReport(out);
});
</script>
"#;

/// In every engine found (Chromium, Firefox ESR, WebKitGTK), served over HTTP.
#[test]
fn the_scrubber_shows_every_preview_at_its_table_value() {
    scrubber_check(false);
}

/// Issue 27, item 18: also once every preview has finished playing, those that handed their
/// property back included (card-drop, button-release, modal-fade-in, ...).
#[test]
fn the_scrubber_shows_previews_that_finished_playing() {
    scrubber_check(true);
}

/// Bakes the examples and checks the scrubber in every engine found, scrubbing at once or
/// (`wait`) once every preview has finished playing.
fn scrubber_check(wait: bool) {
    use common::engines::{engines, RunOptions, HARNESS_HEAD};
    use common::tables::{read_tables, PAGE_READERS};
    let engines = engines();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    bake(&out, &[Format::Json, Format::Css, Format::Html]);
    let tables: Vec<_> = read_tables(&[curves_dir()], &out)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    // Every track of a multi-track motion is read and compared with its own table.
    assert!(
        tables.iter().any(|t| t.is_multi()),
        "curves/ has multi-track motions"
    );
    let plan: Vec<Value> = tables.iter().map(|t| t.plan()).collect();
    let longest = tables.iter().map(|t| t.duration).fold(0.0, f64::max);
    assert!(
        longest > SCRUB_TIMES[4],
        "the scrubber must reach every time"
    );
    let script = SCRUB
        .replace("PLAN", &serde_json::to_string(&plan).unwrap())
        .replace("READERS", PAGE_READERS)
        .replace("TIMES", &format!("{SCRUB_TIMES:?}"))
        .replace("WAIT", &wait.to_string());
    let page = std::fs::read_to_string(out.join(PAGE_PATH)).unwrap();
    let page = page
        .replace("<head>", &format!("<head>\n{HARNESS_HEAD}"))
        .replace("</body>", &format!("{script}</body>"));
    std::fs::write(out.join("scrub-check.html"), page).unwrap();
    for engine in &engines {
        let outcome = engine.run(&out, "scrub-check.html", &RunOptions::default());
        assert!(
            outcome.errors.is_empty(),
            "{}: page errors: {:#?}",
            engine.name(),
            outcome.errors
        );
        check_scrub(engine.name(), &outcome.result, &tables, longest);
    }
}

/// What the scrubber page reported in one engine, against the tables.
fn check_scrub(engine: &str, report: &Value, tables: &[common::tables::Table], longest: f64) {
    use common::compare::decode;
    assert_eq!(
        report["max"], longest,
        "{engine}: the scrubber spans the longest motion"
    );
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2 * SCRUB_TIMES.len());
    let mut checked = 0;
    let (mut worst, mut worst_at) = (0.0, String::new());
    for run in runs {
        let t = run["t"].as_f64().unwrap();
        assert!(SCRUB_TIMES.contains(&t), "{run}");
        assert_eq!(run["shown"], format!("{t:.3} s"));
        for m in tables {
            let r = &run["readings"][&m.name];
            assert_eq!(
                r["paused"], true,
                "{engine}: {} not paused at {t}: {run}",
                m.name
            );
            let readings = r["read"].as_array().unwrap();
            assert_eq!(readings.len(), m.tracks.len(), "{}", m.name);
            for (k, reading) in readings.iter().enumerate() {
                // Past its end, a motion holds its last frame.
                // The previews play the CSS: within its tolerance of the exact motion.
                let mut expected = m.exact(k, t.min(m.duration));
                if m.property_of(k) == "opacity" {
                    expected = expected.clamp(0.0, 1.0);
                }
                let (computed, _) = decode(m, k, reading, expected);
                let computed = computed
                    .unwrap_or_else(|| panic!("{engine}: {} unreadable: {reading}", m.name));
                // A preview held at its end shows either side of the rest step there.
                let error = match m.step_near(k, t.min(m.duration)) {
                    Some((a, b)) => [expected, a, b].map(|e| (computed - e).abs()),
                    None => [(computed - expected).abs(); 3],
                }
                .into_iter()
                .fold(f64::INFINITY, f64::min);
                let bound = m.exact_bound_of(k);
                if error / bound > worst {
                    worst = error / bound;
                    worst_at = format!("{} at {t} s (quarter speed: {})", m.name, run["quarter"]);
                }
                assert!(
                    error <= bound,
                    "{engine}: {} {} at t = {t} s (quarter speed: {}): the preview shows {computed}, the table says {expected}",
                    m.name,
                    m.tracks[k].0,
                    run["quarter"]
                );
                checked += 1;
            }
        }
        for cursor in run["cursors"].as_array().unwrap() {
            let (at, duration) = (cursor[1].as_f64().unwrap(), cursor[2].as_f64().unwrap());
            assert_eq!(cursor[0], "visible", "{engine}: {run}");
            assert!(
                (at - t.min(duration)).abs() < 1e-9,
                "cursor at {at}, not {t}"
            );
        }
    }
    assert!(checked >= 2 * SCRUB_TIMES.len() * tables.len());
    let _ = writeln!(
        std::io::stderr(),
        "scrubber in {engine}: {checked} preview readings, worst error {worst:.3} of the bound ({worst_at})"
    );
}

/// Seeks every preview, through the scrubber, to every 50 ms up to the longest motion, fitted
/// and then at 1:1, and reports each square (or bar) that leaves its stage: its box (with every
/// transform, the fit's included) against the stage's inside, fitted, or the stage's
/// scrollable area at 1:1.
const STAYS_IN: &str = r#"<script>
addEventListener("load", () => {
  const scrub = document.getElementById("scrub"), actual = document.getElementById("actual");
  const out = { samples: 0, outside: [], scales: {} };
  for (const oneToOne of [false, true]) {
    actual.checked = oneToOne;
    actual.dispatchEvent(new Event("change", { bubbles: true }));
    for (let t = 0; t <= Number(scrub.max) + 0.025; t += 0.05) {
      scrub.value = String(Math.min(t, Number(scrub.max)));
      scrub.dispatchEvent(new Event("input", { bubbles: true }));
      for (const el of document.querySelectorAll(".stage .puck, .stage .bar")) {
        const stage = el.closest(".stage"), s = stage.getBoundingClientRect(), r = el.getBoundingClientRect();
        const left = s.left + stage.clientLeft, top = s.top + stage.clientTop;
        const [right, bottom] = oneToOne
          ? [left + stage.scrollWidth, top + stage.scrollHeight]
          : [left + stage.clientWidth, top + stage.clientHeight];
        out.samples++;
        if (!oneToOne) out.scales[el.dataset.anim] = stage.querySelector(".scale-note").textContent;
        if (r.left < left - 0.5 || r.right > right + 0.5 || r.top < top - 0.5 || r.bottom > bottom + 0.5) {
          out.outside.push(`${el.dataset.anim} at ${scrub.value} s${oneToOne ? " (1:1)" : ""}: ` +
            `[${r.left}, ${r.right}] x [${r.top}, ${r.bottom}] in [${left}, ${right}] x [${top}, ${bottom}]`);
        }
      }
    }
  }
  cbReport(out);
});
</script>
"#;

/// Every square and bar stays inside its stage at every time, fitted (both axes at once: a 2D
/// toss along x and y, a 480 px slide, a scale past 1) and at 1:1 (the stage grows or scrolls
/// to the travel), in every engine found.
#[test]
fn every_preview_stays_inside_its_stage() {
    use common::engines::{engines, RunOptions, HARNESS_HEAD};
    let engines = engines();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let motions = bake(&out, &[Format::Json, Format::Css, Format::Html]);
    let page = std::fs::read_to_string(out.join(PAGE_PATH)).unwrap();
    let page = page
        .replace("<head>", &format!("<head>\n{HARNESS_HEAD}"))
        .replace("</body>", &format!("{STAYS_IN}</body>"));
    std::fs::write(out.join("stays-in.html"), page).unwrap();
    for engine in &engines {
        let outcome = engine.run(&out, "stays-in.html", &RunOptions::default());
        let name = engine.name();
        assert!(outcome.errors.is_empty(), "{name}: {:?}", outcome.errors);
        let r = &outcome.result;
        let _ = writeln!(
            std::io::stderr(),
            "{name}: {} samples; fitted scales {}",
            r["samples"],
            r["scales"]
        );
        // Every motion but the ring has a square or a bar, seeked at least 20 times each way.
        assert!(
            r["samples"].as_u64().unwrap() >= 2 * 20 * (motions as u64 - 1),
            "{r}"
        );
        assert_eq!(r["outside"], Value::Array(vec![]), "{name}: left the stage");
    }
}
