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
    // Each track as it ends: the opacity is a decay solved to arrive at 1 at 0.3 s (the
    // legend said the motion's "rests at").
    for item in [
        "translateY rests at 0 px",
        "opacity arrives at 1",
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

/// A decay that runs 20 s, beside the examples: the scrubber's all-motions span.
const LONG_DECAY: &str = r#"[(name: "long-decay", property: "translateX", duration: 20,
    motion: Decay(from: 0, velocity: 300, lambda: 0.25))]"#;

/// What the marks, names, cursor and scrubber spans test reads off the page, on a phone's
/// window (390 x 844): the time of every mark line on each card's panels (from the line's x),
/// each card's legend, the parameter groups' headings, the cursor's colour against every
/// series colour (every card picked, so the comparison draws the whole palette), and the
/// scrubber's end and time as its span and keys change.
const MARKS: &str = r#"<pre id="result"></pre>
<script>
addEventListener("load", () => {
  const times = (svg, cls) => [...svg.querySelectorAll(`line.${cls}`)].map((l) => svg.plotScale.t(Number(l.getAttribute("x1"))));
  const cards = [...document.querySelectorAll("article[data-motion]")];
  const panels = Object.fromEntries(cards.map((card) => [card.dataset.motion,
    [...card.querySelectorAll(".plot-svg")].map((svg) => ({ join: times(svg, "join"), done: times(svg, "done") }))]));
  const legends = Object.fromEntries(cards.map((card) =>
    [card.dataset.motion, [...card.querySelectorAll(".plot-legend li")].map((li) => li.textContent)]));
  const groups = [...new Set([...document.querySelectorAll(".numbers .group th")].map((th) => th.textContent))];
  const scrub = document.getElementById("scrub"), span = document.getElementById("scrub-span");
  const input = (t) => { scrub.value = String(t); scrub.dispatchEvent(new Event("input", { bubbles: true })); };
  const setSpan = (v) => { span.value = v; span.dispatchEvent(new Event("change", { bubbles: true })); };
  const pick = (name, on) => {
    const box = document.querySelector(`input[data-pick="${name}"]`);
    box.checked = on;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const key = (k, shift) => scrub.dispatchEvent(new KeyboardEvent("keydown", { key: k, shiftKey: !!shift, bubbles: true, cancelable: true }));
  const now = () => ({ max: Number(scrub.max), value: Number(scrub.value), text: scrub.getAttribute("aria-valuetext") });
  const out = { panels, legends, groups, spans: {} };
  // Every motion picked: the comparison draws every series colour there is.
  cards.forEach((c) => pick(c.dataset.motion, true));
  input(0.25);
  const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
  out.cursor = rgb(getComputedStyle(document.querySelector("article .plot-svg .cursor")).stroke);
  out.series = [...new Set([...document.querySelectorAll(".plot-svg path.curve")].map((p) => p.getAttribute("stroke")))];
  cards.forEach((c) => pick(c.dataset.motion, false));
  out.spans.all = now();
  pick("card-drop", true);
  pick("modal-fade-in", true);
  setSpan("picked");
  out.spans.picked = now();
  input(0.5);
  pick("card-drop", false);
  out.spans.pickedFade = now();
  // The card-drop card at the top of the window, under the header: the motions on screen.
  setSpan("view");
  const card = document.getElementById("motion-card-drop");
  scrollTo(0, card.getBoundingClientRect().top + scrollY - document.querySelector("header.top").offsetHeight);
  setSpan("view");
  const top = document.querySelector("header.top").offsetHeight;
  out.spans.view = { ...now(), onScreen: cards.filter((a) => { const r = a.getBoundingClientRect(); return r.bottom > top && r.top < innerHeight; }).map((a) => a.dataset.motion) };
  input(0);
  key("ArrowRight");
  out.spans.right = now();
  key("ArrowRight", true);
  out.spans.shiftRight = now();
  key("End");
  out.spans.end = now();
  key("PageDown");
  out.spans.pageDown = now();
  setSpan("all");
  out.spans.back = now();
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script>
"#;

/// Item 1 of the visual review: a card's plot marks the joins its PNG marks (a sequence's
/// hand-off, a bound hit, a track's end; none of a ball's impacts) and, on each panel of a
/// multi-track motion, that track's own "looks done"; item 2: the legend names the end value
/// as the PNG does (arrives at) and the spring's forms are headed as the PNG names them
/// (motion.dev, not motion_dev); item 3: the scrub cursor is no series' colour and stands
/// out on white; item 4: the scrubber spans every motion, the motions on screen or those
/// compared (a 20 s decay beside a 0.87 s drop), and its keys step by frames.
#[test]
fn the_page_marks_joins_and_names_as_the_plots_and_spans_its_scrubber() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, long) = (dir.path().join("out"), dir.path().join("long"));
    std::fs::create_dir(&long).unwrap();
    std::fs::write(long.join("long.ron"), LONG_DECAY).unwrap();
    let options = BakeOptions {
        inputs: vec![curves_dir(), long],
        out: out.clone(),
        formats: vec![Format::Json, Format::Css, Format::Html],
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let page = std::fs::read_to_string(out.join(PAGE_PATH)).unwrap();
    let page = page
        .replace("<head>", &format!("<head>\n{CAPTURE_ERRORS}"))
        .replace("</body>", &format!("{MARKS}</body>"));
    let path = out.join("marks.html");
    std::fs::write(&path, page).unwrap();
    let run = browser::run_page(
        &chromium,
        &path,
        &Options {
            window: (390, 844),
            virtual_time_budget_ms: Some(2000),
            ..Options::default()
        },
    );
    let errors = browser::page_errors(&run.stdout);
    assert!(errors.is_empty(), "page errors: {errors:#?}");
    let r = browser::element_json(&run.stdout, "result");

    // Marks: (card, per panel: join times, looks-done times).
    let near = |got: &Value, want: &[f64]| {
        let got: Vec<f64> = got
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() < 2e-3)
    };
    // Per panel: its join times and its looks-done times.
    type Panel<'a> = (&'a [f64], &'a [f64]);
    let expect: [(&str, &[Panel]); 6] = [
        ("press-release", &[(&[0.1], &[0.6667])]),
        ("toss-catch", &[(&[0.3], &[0.7667])]),
        ("bouncing-ball", &[(&[], &[1.6667])]),
        ("scroll-end", &[(&[0.4613], &[1.2667])]),
        ("card-drop", &[(&[], &[0.6667])]),
        (
            "sheet-enter",
            &[(&[0.722], &[0.5]), (&[0.3], &[0.3]), (&[0.5474], &[0.5333])],
        ),
    ];
    for (card, panels) in expect {
        let got = r["panels"][card].as_array().unwrap();
        assert_eq!(got.len(), panels.len(), "{card}: {got:?}");
        for (g, (join, done)) in got.iter().zip(panels) {
            assert!(
                near(&g["join"], join),
                "{card}: joins {} not {join:?}",
                g["join"]
            );
            assert!(
                near(&g["done"], done),
                "{card}: looks done {} not {done:?}",
                g["done"]
            );
        }
    }
    let legend = |card: &str| -> Vec<String> {
        (r["legends"][card].as_array().unwrap().iter())
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    for (card, item) in [
        ("press-release", "hand-off 0.1 s"),
        ("toss-catch", "hand-off 0.3 s"),
        ("scroll-end", "hits the bound 0.4613 s"),
        ("sheet-enter", "translateY looks done 0.5 s"),
        ("sheet-enter", "opacity looks done 0.3 s"),
        ("sheet-enter", "scale looks done 0.5333 s"),
        ("sheet-enter", "opacity ends 0.3 s, then holds"),
        ("panel-arrive", "arrives at 0 %"),
        ("modal-fade-in", "arrives at 1"),
        ("card-drop", "rests at 0 px"),
    ] {
        assert!(
            legend(card).iter().any(|i| i == item),
            "{card}: {:?}",
            legend(card)
        );
    }
    for (card, items) in r["legends"].as_object().unwrap() {
        assert!(
            !items
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i.as_str().unwrap().contains("ends at")),
            "{card}: {items}"
        );
    }
    let groups: Vec<&str> = (r["groups"].as_array().unwrap().iter())
        .map(|v| v.as_str().unwrap())
        .collect();
    for form in ["as motion.dev", "as android", "as perceptual"] {
        assert!(groups.contains(&form), "{groups:?}");
    }
    assert!(
        !groups.iter().any(|g| g.contains("motion_dev")),
        "{groups:?}"
    );

    // The cursor: 4.5:1 on white at least, and unlike every series colour.
    let rgb = |v: &Value| -> [f64; 3] {
        let c: Vec<f64> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        [c[0], c[1], c[2]]
    };
    let cursor = rgb(&r["cursor"]);
    let luminance = |c: [f64; 3]| {
        let lin = |x: f64| {
            let x = x / 255.0;
            if x <= 0.03928 {
                x / 12.92
            } else {
                ((x + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    };
    let contrast = 1.05 / (luminance(cursor) + 0.05);
    assert!(
        contrast >= 4.5,
        "cursor {cursor:?}: {contrast:.2}:1 on white"
    );
    let series: Vec<[f64; 3]> = (r["series"].as_array().unwrap().iter())
        .map(|s| {
            let hex = s.as_str().unwrap().trim_start_matches('#');
            let byte = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
            [byte(0), byte(2), byte(4)]
        })
        .collect();
    assert!(series.len() >= 8, "the whole palette drawn: {series:?}");
    // Apart from every series by lightness alone (2:1 at least; the old red cursor was 1.1:1
    // from the second series' red), so that it tells apart without telling hues apart.
    for &s in &series {
        let (a, b) = (luminance(s) + 0.05, luminance(cursor) + 0.05);
        let apart = a.max(b) / a.min(b);
        assert!(
            apart >= 2.0,
            "cursor {cursor:?} near series {s:?}: {apart:.2}:1"
        );
    }

    // The scrubber's spans.
    let spans = &r["spans"];
    let f = |v: &Value| v.as_f64().unwrap();
    assert_eq!(f(&spans["all"]["max"]), 20.0, "{spans}");
    assert!(
        (f(&spans["picked"]["max"]) - 0.8667).abs() < 1e-3,
        "{spans}"
    );
    // Only the fade left picked: the span is its 0.3 s, the time 0.5 s brought back to it.
    let fade = &spans["pickedFade"];
    assert!(
        (f(&fade["max"]) - 0.3).abs() < 1e-9 && (f(&fade["value"]) - 0.3).abs() < 1e-9,
        "{fade}"
    );
    assert_eq!(fade["text"], "0.300 seconds of 0.3", "{fade}");
    let view = &spans["view"];
    let on_screen: Vec<&str> = (view["onScreen"].as_array().unwrap().iter())
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        on_screen.contains(&"card-drop") && !on_screen.contains(&"long-decay"),
        "{view}"
    );
    assert!(
        f(&view["max"]) >= 0.8667 - 1e-3 && f(&view["max"]) < 5.0,
        "{view}"
    );
    assert!(
        (f(&spans["right"]["value"]) - 1.0 / 60.0).abs() < 1e-9,
        "{spans}"
    );
    assert!(
        (f(&spans["shiftRight"]["value"]) - 11.0 / 60.0).abs() < 1e-9,
        "{spans}"
    );
    assert!(
        (f(&spans["end"]["value"]) - f(&view["max"])).abs() < 1e-9,
        "{spans}"
    );
    assert!(
        (f(&spans["pageDown"]["value"]) - 0.9 * f(&view["max"])).abs() < 1e-9,
        "{spans}"
    );
    assert!(
        spans["right"]["text"]
            .as_str()
            .unwrap()
            .starts_with("0.017 seconds of "),
        "{spans}"
    );
    // Back to every motion: the time is kept.
    assert_eq!(f(&spans["back"]["max"]), 20.0, "{spans}");
    assert_eq!(
        spans["back"]["value"], spans["pageDown"]["value"],
        "{spans}"
    );
}
