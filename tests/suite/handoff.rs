//! The hand-off formats checked by the tools their users run (installed from npm by
//! `.ci/run` under `$TMPDIR/curvebake-js-tools`, found through `tz` on `PATH` or
//! `$CURVEBAKE_JS_TOOLS`, the `node_modules` folder; a missing tool is a skip, or a failure
//! with `CURVEBAKE_REQUIRE_JS_TOOLS=1`):
//!
//! * tokens ([`tokens`]): Terrazzo's `tz check` finds no error or warning; Style Dictionary 5
//!   with `style-dictionary.mjs` writes CSS variables, each motion's transition with its
//!   exact `linear()` easing and no `[object Object]`; the CSS both write, loaded after
//!   curvebake's, changes no ready class; a bake of the tokens gives the bake of the
//!   RON byte for byte, in every format; Material 3 spring tokens bake, bad tokens are named,
//!   other tokens are skipped with a warning naming them;
//! * Tailwind: the v4 CLI builds a page using `animate-<name>` and `ease-<name>`, which plays
//!   the motion in every browser engine found within its CSS tolerance, at frame and
//!   non-frame times, against the closed form;
//! * Lottie ([`lottie`]): every file validates against the lottie-spec schema, and
//!   lottie-web and dotlottie-web in Chromium, stopped at frame and non-frame times, show
//!   every channel of every motion within the keys' bound of the closed form.

use crate::common;
use common::engines::{engines, Kind, RunOptions, HARNESS_HEAD};
use common::project::{curvebake, stderr};
use curvebake::export::ExportSettings;
use curvebake::internals::export::css::tolerance;
use curvebake::Curve;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

mod lottie;
mod tokens;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/curves");

/// Every format the round trip compares.
const ALL_FORMATS: &str = "json,css,js,html,tokens,tailwind,lottie";

/// The tools' `node_modules`, or `None` (skipped) when they are not installed.
fn js_tools(test: &str) -> Option<PathBuf> {
    let found = match std::env::var_os("CURVEBAKE_JS_TOOLS") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => std::env::var_os("PATH").and_then(|dirs| {
            std::env::split_paths(&dirs)
                .map(|d| d.join("tz"))
                .find(|p| p.is_file())
                .and_then(|tz| Some(tz.parent()?.parent()?.to_owned()))
        }),
    }
    .filter(|dir| dir.join("style-dictionary").is_dir());
    if found.is_none() {
        let why = "@terrazzo/cli, style-dictionary, tailwindcss, @tailwindcss/cli, \
                   @lottie-animation-community/lottie-specs and lottie-web not found (tz on PATH \
                   or $CURVEBAKE_JS_TOOLS)";
        if std::env::var("CURVEBAKE_REQUIRE_JS_TOOLS").is_ok_and(|v| v.trim() == "1") {
            panic!("{test}: {why} (CURVEBAKE_REQUIRE_JS_TOOLS=1)");
        }
        eprintln!("SKIPPED {test}: {why}");
    }
    found
}

/// Runs a tool; its output, or a failure with it.
fn run(command: &mut Command, what: &str) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{what} failed:\n{text}");
    text
}

/// Bakes the examples into `dir/out` in `formats`.
fn bake_examples(dir: &Path, formats: &str) -> PathBuf {
    let run = curvebake(
        dir,
        &["bake", EXAMPLES, "--out", "out", "--formats", formats, "-q"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    dir.join("out")
}

/// The examples' motions, evaluated in closed form, by name.
fn closed_forms() -> Vec<Curve> {
    let mut curves = Vec::new();
    for entry in fs::read_dir(EXAMPLES).unwrap() {
        let path = entry.unwrap().path();
        curves.extend(Curve::all_from_ron(&fs::read_to_string(path).unwrap()).unwrap());
    }
    curves
}

/// Every file under `dir`, relative, sorted (the bake's own bookkeeping left out).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if !path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".curvebake")
            {
                out.push(path.strip_prefix(dir).unwrap().to_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_bake_of_the_examples_tokens_is_the_bake_of_their_ron_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let first = bake_examples(dir.path(), ALL_FORMATS);
    fs::create_dir(dir.path().join("tokens")).unwrap();
    fs::copy(
        first.join("curves.tokens.json"),
        dir.path().join("tokens/examples.tokens.json"),
    )
    .unwrap();
    let again = curvebake(
        dir.path(),
        &[
            "bake",
            "tokens",
            "--out",
            "again",
            "--formats",
            ALL_FORMATS,
            "-q",
        ],
    );
    assert!(again.status.success(), "{}", stderr(&again));
    // A motion's own tokens beside it (its duration and easing) are not skipped ones, nor,
    // as written, edited ones.
    let message = stderr(&again);
    assert!(
        !message.contains("skipped") && !message.contains("not what curvebake wrote"),
        "{message}"
    );
    let again = dir.path().join("again");
    let (a, b) = (files(&first), files(&again));
    assert_eq!(a, b);
    assert!(a.len() > 40, "{a:?}");
    for path in a {
        assert!(
            fs::read(first.join(&path)).unwrap() == fs::read(again.join(&path)).unwrap(),
            "{} differs",
            path.display()
        );
    }
}

/// A designer's edit of a `$value` beside a motion (its duration in a token editor) is not
/// baked, since the motion is its `ron`: the bake says so, naming the tokens, and bakes the
/// motion as written.
#[test]
fn an_edited_token_value_is_named_in_a_warning_and_the_motion_bakes_as_its_ron() {
    let dir = tempfile::tempdir().unwrap();
    let first = bake_examples(dir.path(), "tokens,json");
    let mut tokens: serde_json::Value =
        serde_json::from_slice(&fs::read(first.join("curves.tokens.json")).unwrap()).unwrap();
    let card = &mut tokens["motion"]["card-drop"];
    card["duration"]["$value"]["value"] = serde_json::json!(500);
    card["easing"]["$value"] = serde_json::json!([0.2, 0, 0, 1]);
    fs::create_dir(dir.path().join("tokens")).unwrap();
    fs::write(
        dir.path().join("tokens/edited.tokens.json"),
        serde_json::to_vec_pretty(&tokens).unwrap(),
    )
    .unwrap();
    let again = curvebake(
        dir.path(),
        &["bake", "tokens", "--out", "again", "--formats", "json"],
    );
    let message = stderr(&again);
    assert!(again.status.success(), "{message}");
    assert!(
        message.contains(
            "the $value of 2 tokens `motion.card-drop.duration` and `motion.card-drop.easing` \
             is not what curvebake wrote"
        ),
        "{message}"
    );
    assert_eq!(message.matches("warning").count(), 1, "{message}");
    assert_eq!(
        fs::read(first.join("json/card-drop.json")).unwrap(),
        fs::read(dir.path().join("again/json/card-drop.json")).unwrap()
    );
}

#[test]
fn material_3_spring_tokens_bake_as_springs_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("m3.tokens.json"),
        r##"{ "md": { "sys": { "motion": { "spring": {
  "fast": { "spatial": { "stiffness": { "$type": "number", "$value": 1400 }, "damping": { "$type": "number", "$value": 0.9 } } },
  "slow": { "effects": { "stiffness": { "$type": "number", "$value": -3 }, "damping": { "$type": "number", "$value": 1 } } },
  "huge": { "spatial": { "stiffness": { "$type": "number", "$value": 1e308 }, "damping": { "$type": "number", "$value": 0.9 } } } } } },
  "color": { "$type": "color", "$value": "#ffffff" } } }"##,
    )
    .unwrap();
    let run = curvebake(
        dir.path(),
        &[
            "bake",
            "m3.tokens.json",
            "--out",
            "out",
            "--formats",
            "json",
        ],
    );
    assert!(!run.status.success());
    assert!(
        stderr(&run).contains(
            "m3.tokens.json: token `md.sys.motion.spring.slow.effects.stiffness`: a Material 3 \
             spring's stiffness must be a positive number"
        ),
        "{}",
        stderr(&run)
    );
    // A stiffness whose damping c = 2ζ√k would overflow c²: the stiffness is named, not the
    // ordinary damping ratio.
    assert!(
        stderr(&run).contains(
            "token `md.sys.motion.spring.huge.spatial.stiffness`: a Material 3 spring's \
             stiffness must be at most 4.494e307"
        ),
        "{}",
        stderr(&run)
    );
    // Its two tokens are that error's, not also skipped ones.
    assert!(
        !stderr(&run).contains("effects.damping"),
        "{}",
        stderr(&run)
    );
    let table: Value = serde_json::from_slice(
        &fs::read(
            dir.path()
                .join("out/json/md-sys-motion-spring-fast-spatial.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(table["motion"], "spring");
    assert_eq!(table["params"]["stiffness"], 1400.0);
    assert!((table["params"]["damping_ratio"].as_f64().unwrap() - 0.9).abs() < 1e-12);
}

#[test]
fn tokens_that_are_not_motions_are_skipped_with_a_warning_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let colour = |name: &str| format!(r##""{name}": {{ "$type": "color", "$value": "#fff" }}"##);
    let spring = r#""spring": { "stiffness": { "$value": 700 }, "damping": { "$value": 0.8 } }"#;
    let write = |group: &str, tokens: &[String]| {
        let text = format!(r#"{{ "{group}": {{ {spring}, {} }} }}"#, tokens.join(", "));
        fs::write(dir.path().join(format!("{group}.tokens.json")), text).unwrap();
    };
    write("one", &[colour("ink")]);
    write("five", &["a", "b", "c", "d", "e"].map(colour));
    let run = curvebake(
        dir.path(),
        &["bake", ".", "--out", "out", "--formats", "json"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let why = "neither a curvebake motion ($extensions.dev.curvebake.ron) nor a Material 3 \
               spring (a group with `stiffness` and `damping`)";
    let err = stderr(&run);
    for said in [
        format!("warning: ./one.tokens.json: skipped token `one.ink`: {why}\n"),
        format!(
            "warning: ./five.tokens.json: skipped 5 tokens `five.a`, `five.b`, `five.c` and 2 \
             more: {why}\n"
        ),
    ] {
        assert!(err.contains(&said), "{err}");
    }
    assert!(dir.path().join("out/json/five-spring.json").is_file());
}

#[test]
fn a_token_whose_motion_does_not_read_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("bad.tokens.json"),
        r#"{ "card": { "transition": { "$type": "transition",
  "$value": { "duration": { "value": 1, "unit": "s" }, "delay": { "value": 0, "unit": "ms" }, "timingFunction": [0, 0, 1, 1] },
  "$extensions": { "dev.curvebake": { "ron": "(name: \"card\", motion: Spring(from: 0))" } } } } }"#,
    )
    .unwrap();
    let run = curvebake(dir.path(), &["bake", "bad.tokens.json", "--out", "out"]);
    assert!(!run.status.success());
    let err = stderr(&run);
    assert!(
        err.contains(
            "bad.tokens.json: token `card.transition`: $extensions.dev.curvebake.ron does not \
             read, at 1:38 of the ron: Unexpected missing field named `to` in `Spring`"
        ),
        "{err}"
    );
}

/// A key written twice in one object of a tokens file is an error at its place, as a field
/// twice in RON is (the last one silently won).
#[test]
fn a_key_written_twice_in_a_tokens_file_is_an_error_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("twice.tokens.json"),
        "{ \"space\": { \"$type\": \"dimension\", \"$value\": \"4px\" },\n  \"space\": { \"$type\": \"dimension\", \"$value\": \"8px\" } }\n",
    )
    .unwrap();
    let run = curvebake(dir.path(), &["bake", "twice.tokens.json", "--out", "out"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("twice.tokens.json:2:")
            && stderr(&run).contains("the key \"space\" is written twice in one object"),
        "{}",
        stderr(&run)
    );
}

/// Bakes the examples into `dir/out` (JSON and Tailwind) and builds a site in `dir/site`
/// whose page uses the classes in `html` with the Tailwind v4 CLI: the site and the CSS built.
fn tailwind_site(tools: &Path, dir: &Path, html: &str) -> (PathBuf, String) {
    let out = bake_examples(dir, "json,tailwind");
    let site = dir.join("site");
    fs::create_dir(&site).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(tools, site.join("node_modules")).unwrap();
    fs::copy(out.join("tailwind.css"), site.join("motion.css")).unwrap();
    fs::write(
        site.join("input.css"),
        "@import \"tailwindcss\";\n@import \"./motion.css\";\n",
    )
    .unwrap();
    fs::write(site.join("page.html"), format!("<!-- uses -->\n{html}")).unwrap();
    run(
        Command::new(tools.join(".bin/tailwindcss"))
            .args(["-i", "input.css", "-o", "built.css"])
            .current_dir(&site),
        "tailwindcss",
    );
    let built = fs::read_to_string(site.join("built.css")).unwrap();
    (site, built)
}

/// Regression: `animate-card-drop` was the theme's `--animate-card-drop`, one animation
/// without its composition, so it dropped the release velocity (`--card-drop-velocity`)
/// that the class `.card-drop` plays.
#[test]
fn tailwind_animate_plays_what_the_ready_class_plays_velocity_and_variants_included() {
    let Some(tools) = js_tools("tailwind velocity") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let velocity = "style=\"--card-drop-velocity: 3000\"";
    let boxes = format!(
        "<div id=\"class\" class=\"card-drop\" {velocity}></div>\n\
         <div id=\"animate\" class=\"animate-card-drop\" {velocity}></div>\n\
         <div id=\"motion-safe\" class=\"motion-safe:animate-card-drop\" {velocity}></div>\n"
    );
    let (site, built) = tailwind_site(&tools, dir.path(), &boxes);
    assert!(
        built.contains(".motion-safe\\:animate-card-drop"),
        "{built}"
    );
    let page = format!(
        r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}
<link rel="stylesheet" href="built.css"></head><body>{boxes}<script>
const shown = {{}};
for (const el of document.querySelectorAll("div[id]")) {{
  const animations = el.getAnimations();
  animations.forEach((a) => a.pause());
  const frames = [0, 50, 100, 266.667, 400, 700].map((ms) => {{
    animations.forEach((a) => (a.currentTime = ms));
    const s = getComputedStyle(el);
    return [s.translate, s.scale, s.opacity].join(" | ");
  }});
  const s = getComputedStyle(el);
  shown[el.id] = {{ animations: animations.length, composition: s.animationComposition,
    duration: s.animationDuration, frames }};
}}
cbReport(shown);
</script></body></html>"#
    );
    fs::write(site.join("velocity.html"), page).unwrap();
    let Some(chromium) = engines().into_iter().find(|e| e.kind == Kind::Chromium) else {
        return;
    };
    for reduced_motion in [false, true] {
        let options = RunOptions {
            reduced_motion,
            ..RunOptions::default()
        };
        let outcome = chromium.run(&site, "velocity.html", &options);
        assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
        let shown = &outcome.result;
        // The motion and its velocity (under reduced motion both are over at once).
        let playing = if reduced_motion { 0 } else { 2 };
        assert_eq!(shown["class"]["animations"], playing, "{shown}");
        // `motion-safe:` plays only without reduced motion.
        let utilities: &[&str] = match reduced_motion {
            false => &["animate", "motion-safe"],
            true => &["animate"],
        };
        for utility in utilities {
            assert_eq!(
                shown[utility], shown["class"],
                "reduced motion {reduced_motion}: {utility} does not play as .card-drop"
            );
        }
    }
}

#[test]
fn tailwind_builds_animate_ease_and_duration_utilities_that_play_each_motion_in_every_engine() {
    let Some(tools) = js_tools("tailwind") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "card-drop",
        "button-release",
        "toast-rotate-in",
        "modal-fade-in",
    ];
    let boxes: String = names
        .iter()
        .map(|n| {
            format!(
                "<div id=\"{n}\" class=\"animate-{n}\"></div>\
                 <div id=\"t-{n}\" class=\"transition ease-{n} duration-{n}\"></div>\n"
            )
        })
        .collect();
    let (site, built) = tailwind_site(&tools, dir.path(), &boxes);
    for n in names {
        assert!(
            built.contains(&format!(".animate-{n} {{")),
            "no animate-{n}"
        );
        assert!(
            built.contains(&format!("animation: {n} var(--{n}-duration)")),
            "animate-{n} does not play {n}"
        );
        assert!(
            built.contains(&format!("transition-timing-function: var(--{n}-easing)")),
            "ease-{n} is not the easing"
        );
        assert!(
            built.contains(&format!("transition-duration: var(--{n}-duration)")),
            "duration-{n} is not the duration"
        );
    }
    // Expected values: the closed form at frame and non-frame times; each motion's bound its
    // CSS tolerance (the fitting core's proven bound is within it).
    let curves = closed_forms();
    let mut expected = serde_json::Map::new();
    let mut bounds = Vec::new();
    let mut durations = Vec::new();
    for n in names {
        let curve = curves.iter().find(|c| c.name() == n).unwrap();
        let spec = curve.spec();
        let baked = curve.bake().unwrap();
        let values = &baked.tracks[0].position;
        bounds.push(tolerance(spec, &ExportSettings::default(), &spec.unit, values).kept);
        durations.push(baked.duration * 1000.0);
        let samples: Vec<(f64, f64)> = (0..40)
            .map(|q| {
                let t = baked.duration * (q as f64 + 0.37 * (q % 3) as f64) / 40.0;
                (t * 1000.0, curve.position(t))
            })
            .collect();
        expected.insert(
            n.to_owned(),
            serde_json::json!({ "property": spec.property.name(), "samples": samples }),
        );
    }
    let page = format!(
        r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}
<link rel="stylesheet" href="built.css"></head><body>{boxes}<script>
const expected = {expected};
const worst = {{}};
for (const [name, c] of Object.entries(expected)) {{
  const el = document.getElementById(name);
  const animations = el.getAnimations();
  animations.forEach((a) => a.pause());
  let w = 0;
  for (const [ms, x] of c.samples) {{
    animations.forEach((a) => (a.currentTime = ms));
    const style = getComputedStyle(el);
    const p = c.property;
    const text = p === "translateY" ? style.translate.split(" ")[1] : p === "translateX" ? style.translate.split(" ")[0] : style[p];
    // A rotation or translation of nothing serialises as `none`.
    const shown = !text || text === "none" ? 0 : parseFloat(text);
    w = Math.max(w, Math.abs(shown - x));
  }}
  worst[name] = w;
  // A transition timed by `transition ease-<name> duration-<name>`: the motion's duration.
  const t = document.getElementById("t-" + name);
  getComputedStyle(t).opacity;
  t.style.opacity = "0.5";
  const [transition] = t.getAnimations();
  worst["t-" + name] = transition ? transition.effect.getComputedTiming().duration : null;
}}
cbReport(worst);
</script></body></html>"#,
        expected = Value::Object(expected)
    );
    fs::write(site.join("play.html"), page).unwrap();
    for engine in engines() {
        let outcome = engine.run(&site, "play.html", &RunOptions::default());
        assert!(
            outcome.errors.is_empty(),
            "{}: {:?}",
            engine.name(),
            outcome.errors
        );
        for (n, duration) in names.iter().zip(&durations) {
            let ms = outcome.result[format!("t-{n}")]
                .as_f64()
                .unwrap_or(f64::NAN);
            assert!(
                (ms - duration).abs() < 1e-3,
                "{} transition ease-{n} duration-{n}: {ms} ms, not {duration}",
                engine.name()
            );
        }
        for (n, bound) in names.iter().zip(&bounds) {
            let worst = outcome.result[n].as_f64().unwrap_or(f64::INFINITY);
            // The engines' serialisation: 6 significant digits (BROWSERS.md).
            let bound = bound * (1.0 + 1e-3) + 1e-4;
            assert!(
                worst <= bound,
                "{} {n}: {worst} off (bound {bound})",
                engine.name()
            );
        }
        eprintln!("tailwind in {}: {}", engine.name(), outcome.result);
    }
}
