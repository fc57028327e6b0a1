//! The review page `index.html` in headless Chromium: it loads from `file://` with no console
//! error, every image loads, every preview element runs its motion's CSS animation, and the
//! replay buttons restart them. A screenshot is kept for people to look at.
//!
//! Skipped (with a message) without Chromium, unless `CURVEBAKE_REQUIRE_BROWSER=1`.

use crate::common;

use common::chromium::{self as browser, Action, Options, CAPTURE_ERRORS};
use curvebake::export::html::PAGE_PATH;
use curvebake::export::Format;
use curvebake::internals::pipeline::{run, BakeOptions};
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

/// Checks run on the page once it has loaded (images included): images, animations, and the
/// replay button of the first card, then of the whole page.
const CHECK: &str = r#"<pre id="result"></pre>
<script>
addEventListener("load", () => {
  const images = [...document.images];
  const animated = [...document.querySelectorAll("[data-anim]")];
  const report = {
    images: images.length,
    broken: images.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.src),
    cards: document.querySelectorAll("article").length,
    animated: animated.length,
    wrongAnimation: animated
      .filter((el) => getComputedStyle(el).animationName !== el.dataset.anim)
      .map((el) => el.dataset.anim + ": " + getComputedStyle(el).animationName),
    external: [...document.querySelectorAll("[src], [href]")]
      .map((el) => el.getAttribute("src") || el.getAttribute("href"))
      .filter((url) => /^[a-z]+:|^\/\//i.test(url)),
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
    // One plot per motion (the contact sheet is a link, not an image).
    assert_eq!(report["images"], motions, "{report}");
    assert_eq!(report["broken"], Value::Array(vec![]), "{report}");
    assert_eq!(report["animated"], motions, "{report}");
    assert_eq!(report["wrongAnimation"], Value::Array(vec![]), "{report}");
    assert_eq!(report["external"], Value::Array(vec![]), "{report}");
    assert_eq!(report["replayed"], true, "{report}");
    assert_eq!(report["replayedAll"], true, "{report}");

    // Kept (only the picture), so that people can look at it after the test.
    let kept = tempfile::Builder::new()
        .prefix("curvebake-review-page-")
        .tempdir()
        .unwrap()
        .keep();
    let screenshot = kept.join("review-page.png");
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
    // Without CSS, every preview stands still: no animation, nothing to replay.
    assert_eq!(report["wrongAnimation"].as_array().unwrap().len(), motions);
    assert_eq!(report["external"], Value::Array(vec![]), "{report}");
}
