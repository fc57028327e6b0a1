//! Design tokens through the tools a design system builds them with: Terrazzo (`tz check`
//! without a config, `tz build` with `@terrazzo/plugin-css`) and Style Dictionary 5 with
//! `style-dictionary.mjs`; the CSS they write loaded after curvebake's own, in Chromium.

use super::{bake_examples, closed_forms, files, js_tools, run};
use crate::common::engines::{engines, Kind, RunOptions, HARNESS_HEAD};
use crate::common::project::{curvebake, stderr};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

/// Style Dictionary's CSS platform as the guide shows it: `build/motion.css`.
const CSS_PLATFORM: &str = "css: { transformGroup: 'curvebake/css', buildPath: 'build/',
    files: [{ destination: 'motion.css', format: 'css/variables' }] }";

/// Makes the tools importable from `out` (the bake's folder, where the scripts run).
fn link_tools(tools: &Path, out: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(tools, out.join("node_modules")).unwrap();
}

/// Builds `out/curves.tokens.json` with Style Dictionary 5 and curvebake's transforms, on
/// `platforms` (the members of its `platforms` object, as JavaScript); a warning fails.
fn style_dictionary(out: &Path, platforms: &str) {
    fs::write(
        out.join("build.mjs"),
        format!(
            "import StyleDictionary from 'style-dictionary';
import {{ register }} from './style-dictionary.mjs';
register(StyleDictionary);
const sd = new StyleDictionary({{
  source: ['curves.tokens.json'],
  log: {{ warnings: 'error' }},
  platforms: {{ {platforms} }},
}});
await sd.buildAllPlatforms();
"
        ),
    )
    .unwrap();
    run(
        Command::new("node").arg("build.mjs").current_dir(out),
        "style-dictionary",
    );
}

/// Builds `out/curves.tokens.json` with `tz build` and `@terrazzo/plugin-css` into
/// `out/tz/tokens.css`; what Terrazzo printed.
fn terrazzo_css(tools: &Path, out: &Path) -> String {
    fs::write(
        out.join("terrazzo.config.mjs"),
        "import { defineConfig } from '@terrazzo/cli';
import css from '@terrazzo/plugin-css';
export default defineConfig({
  tokens: ['./curves.tokens.json'],
  outDir: './tz/',
  plugins: [css({ filename: 'tokens.css' })],
});
",
    )
    .unwrap();
    run(
        Command::new(tools.join(".bin/tz"))
            .args(["build", "-c", "terrazzo.config.mjs"])
            .current_dir(out),
        "tz build",
    )
}

/// The custom properties a style sheet declares (`--name:`), sorted.
fn declared(css: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in css.match_indices("--") {
        let name: String = (css[at..].chars())
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .collect();
        if css[at + name.len()..].trim_start().starts_with(':') {
            names.insert(name);
        }
    }
    names
}

/// A page of every motion's ready class (`names`), with `sheets` linked in order, that
/// reports per class its computed animation and, paused at a few times, what it shows.
fn ready_classes_page(names: &[String], sheets: &[&str]) -> String {
    let links: String = (sheets.iter())
        .map(|s| format!("<link rel=\"stylesheet\" href=\"{s}\">"))
        .collect();
    let boxes: String = (names.iter())
        .map(|n| format!("<div id=\"{n}\" class=\"{n}\"></div>"))
        .collect();
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}{links}</head>
<body>{boxes}<script>
const names = {names};
const shown = {{}};
for (const name of names) {{
  const el = document.getElementById(name);
  const s = getComputedStyle(el);
  const animation = [s.animationName, s.animationDuration, s.animationTimingFunction,
    s.animationComposition, s.animationFillMode].join(" / ");
  const animations = el.getAnimations();
  animations.forEach((a) => a.pause());
  const frames = [0, 50, 100, 266.667, 400, 700, 5000].map((ms) => {{
    animations.forEach((a) => (a.currentTime = ms));
    const c = getComputedStyle(el);
    return [c.translate, c.scale, c.rotate, c.opacity, c.getPropertyValue("--" + name + "-inner"),
      c.getPropertyValue("--" + name + "-outer")].join(" | ");
  }});
  shown[name] = {{ animation, frames }};
}}
cbReport(shown);
</script></body></html>"#,
        names = serde_json::to_string(names).unwrap()
    )
}

/// Regression (the build): camelCase track groups (`translateY`) were Terrazzo warnings
/// (`core/consistent-naming`) as soon as a config turned its lint on.
#[test]
fn terrazzo_finds_no_problem_and_style_dictionary_writes_each_exact_easing() {
    let Some(tools) = js_tools("tokens") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = bake_examples(dir.path(), "tokens");
    let check = run(
        Command::new(tools.join(".bin/tz"))
            .arg("check")
            .arg(out.join("curves.tokens.json"))
            .current_dir(dir.path()),
        "tz check",
    );
    assert!(check.contains("No errors"), "{check}");
    assert!(!check.to_lowercase().contains("warn"), "{check}");

    link_tools(&tools, &out);
    // With a config, Terrazzo lints by its recommended rules (kebab-case names among them).
    let built = terrazzo_css(&tools, &out);
    assert!(!built.to_lowercase().contains("warn"), "{built}");
    assert!(built.contains("tokens built"), "{built}");
    style_dictionary(&out, CSS_PLATFORM);
    let css = fs::read_to_string(out.join("build/motion.css")).unwrap();
    assert!(!css.contains("[object Object]"), "{css}");
    let tokens: Value =
        serde_json::from_slice(&fs::read(out.join("curves.tokens.json")).unwrap()).unwrap();
    let transitions = transitions(&tokens);
    for (path, token) in &transitions {
        let linear = token["$extensions"]["dev.curvebake"]["linear"]
            .as_str()
            .unwrap();
        // Every name is in kebab case, so Style Dictionary's are the tokens' paths.
        let variable = format!("--{path}: ");
        let line = (css.lines())
            .find(|l| l.trim_start().starts_with(&variable))
            .unwrap_or_else(|| panic!("no {variable} in\n{css}"));
        assert!(line.contains(linear), "{line}");
        assert!(line.contains("ms linear("), "{line}");
    }
    assert!(transitions.len() >= 20, "{} transitions", transitions.len());
}

/// Regression: the tokens CSS of Style Dictionary and Terrazzo declared curvebake's own
/// custom properties (`--card-drop-easing` as the cubic Bézier), so loaded after
/// `curves.css` it made every ready class play the Bézier and lose its reduced motion.
#[test]
fn tokens_css_loaded_after_curves_css_changes_no_ready_class_nor_its_reduced_motion() {
    let Some(tools) = js_tools("tokens css") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = bake_examples(dir.path(), "json,css,tokens");
    link_tools(&tools, &out);
    style_dictionary(&out, CSS_PLATFORM);
    terrazzo_css(&tools, &out);
    let ours = declared(&fs::read_to_string(out.join("curves.css")).unwrap());
    for sheet in ["build/motion.css", "tz/tokens.css"] {
        let theirs = declared(&fs::read_to_string(out.join(sheet)).unwrap());
        assert!(
            theirs.contains("--motion-card-drop-duration"),
            "{sheet}: {theirs:?}"
        );
        let shared: Vec<_> = theirs.intersection(&ours).collect();
        assert!(
            shared.is_empty(),
            "{sheet} declares curves.css's {shared:?}"
        );
    }
    let names: Vec<String> = (files(&out.join("json")).iter())
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    let pages = [
        ("curves.html", vec!["curves.css"]),
        ("sd.html", vec!["curves.css", "build/motion.css"]),
        ("tz.html", vec!["curves.css", "tz/tokens.css"]),
    ];
    for (page, sheets) in &pages {
        fs::write(out.join(page), ready_classes_page(&names, sheets)).unwrap();
    }
    let Some(chromium) = engines().into_iter().find(|e| e.kind == Kind::Chromium) else {
        return;
    };
    for reduced_motion in [false, true] {
        let options = RunOptions {
            reduced_motion,
            ..RunOptions::default()
        };
        let shown: Vec<Value> = (pages.iter())
            .map(|(page, _)| {
                let outcome = chromium.run(&out, page, &options);
                assert!(outcome.errors.is_empty(), "{page}: {:?}", outcome.errors);
                outcome.result
            })
            .collect();
        // curves.css alone is the reference: other tests check that it plays each motion
        // exactly; here it must also switch card-drop off under reduced motion.
        let duration = &shown[0]["card-drop"]["animation"];
        let durations = duration.as_str().unwrap().split(" / ").nth(1).unwrap();
        let off = durations.split(", ").all(|d| d == "0s");
        assert_eq!(off, reduced_motion, "curves.css: card-drop {duration}");
        for ((page, _), seen) in pages.iter().zip(&shown).skip(1) {
            for name in &names {
                assert_eq!(
                    seen[name], shown[0][name],
                    "{page} (reduced motion: {reduced_motion}): .{name} is not as curves.css \
                     alone plays it"
                );
            }
        }
    }
}

/// A tokens file of the layout before the group `motion` (each motion at the top level)
/// still bakes as the RON it came from.
#[test]
fn a_tokens_file_without_the_motion_group_still_bakes_as_its_ron() {
    let dir = tempfile::tempdir().unwrap();
    let first = bake_examples(dir.path(), "json,css,tokens");
    let tokens: Value =
        serde_json::from_slice(&fs::read(first.join("curves.tokens.json")).unwrap()).unwrap();
    let old = serde_json::to_string_pretty(&tokens["motion"]).unwrap();
    fs::write(dir.path().join("old.tokens.json"), old).unwrap();
    let again = curvebake(
        dir.path(),
        &[
            "bake",
            "old.tokens.json",
            "--out",
            "again",
            "--formats",
            "json,css",
            "-q",
        ],
    );
    assert!(again.status.success(), "{}", stderr(&again));
    let again = dir.path().join("again");
    for folder in ["json", "css"] {
        let (a, b) = (files(&first.join(folder)), files(&again.join(folder)));
        assert_eq!(a, b);
        for path in a {
            let (a, b) = (
                first.join(folder).join(&path),
                again.join(folder).join(&path),
            );
            assert!(
                fs::read(a).unwrap() == fs::read(b).unwrap(),
                "{}",
                path.display()
            );
        }
    }
}

/// Every transition token of `tokens` (depth first), with its path joined by `-`.
fn transitions(tokens: &Value) -> Vec<(String, &Value)> {
    let mut found = Vec::new();
    let mut stack = vec![(String::new(), tokens)];
    while let Some((path, node)) = stack.pop() {
        let Value::Object(members) = node else {
            continue;
        };
        if members.get("$type") == Some(&Value::from("transition")) {
            found.push((path, node));
            continue;
        }
        for (key, child) in members.iter().filter(|(k, _)| !k.starts_with('$')) {
            let path = match path.is_empty() {
                true => key.clone(),
                false => format!("{path}-{key}"),
            };
            stack.push((path, child));
        }
    }
    found
}

/// Regression: every track of a multi-track motion carried its first track's property, so
/// Style Dictionary's `--motion-sheet-enter-opacity-transition` was `translate ...` and
/// played nothing.
#[test]
fn each_transition_style_dictionary_writes_plays_its_own_track_in_chromium() {
    let Some(tools) = js_tools("tokens transitions") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = bake_examples(dir.path(), "css,tokens");
    link_tools(&tools, &out);
    style_dictionary(&out, CSS_PLATFORM);
    let tokens: Value =
        serde_json::from_slice(&fs::read(out.join("curves.tokens.json")).unwrap()).unwrap();
    let curves = closed_forms();
    let mut cases = Vec::new();
    for (path, token) in transitions(&tokens) {
        let data = &token["$extensions"]["dev.curvebake"];
        let property = data["property"].as_str().unwrap();
        let curve = (curves.iter())
            .find(|c| c.name() == data["name"])
            .unwrap_or_else(|| panic!("{path}: no motion {}", data["name"]));
        let baked = curve.bake().unwrap();
        let track = match baked.tracks.as_slice() {
            [only] => only,
            tracks => (tracks.iter())
                .find(|t| data["track"] == t.name || t.name == property)
                .unwrap_or_else(|| panic!("{path}: no track {data}")),
        };
        let fps = curve.spec().fps;
        // The frames but the last (a rest step the easing's end takes at once).
        let frames: Vec<(f64, f64)> = (track.position.iter().enumerate())
            .take(track.position.len() - 1)
            .map(|(i, &x)| (i as f64 / fps * 1000.0, x))
            .collect();
        let css_property = match property {
            "translateX" | "translateY" => "translate",
            other => other,
        };
        cases.push(serde_json::json!({
            "variable": format!("--{path}"), "property": property, "cssProperty": css_property,
            "unit": data["unit"], "from": data["from"], "to": data["to"], "frames": frames,
            "bound": data["linearBound"]["value"],
        }));
    }
    assert!(
        cases
            .iter()
            .any(|c| c["variable"] == "--motion-sheet-enter-opacity-transition"),
        "{cases:?}"
    );
    let page = format!(
        r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}
<link rel="stylesheet" href="curves.css"><link rel="stylesheet" href="build/motion.css">
</head><body><script>
const cases = {cases};
// A value of the track's property in its unit, and the number a computed style shows.
const write = (c, x) => {{
  const v = c.unit ? x + c.unit : String(x);
  if (c.property === "translateX") return ["translate", v + " 0px"];
  if (c.property === "translateY") return ["translate", "0px " + v];
  return [c.property, v];
}};
const read = (c, style) => {{
  const text = c.property.startsWith("--") ? style.getPropertyValue(c.property) : style[c.cssProperty];
  const parts = !text || text === "none" ? ["0", "0"] : text.trim().split(" ");
  return parseFloat(parts[c.property === "translateY" ? 1 : 0] ?? "0");
}};
const seen = {{}};
for (const c of cases) {{
  const el = document.createElement("div");
  document.body.append(el);
  el.style.setProperty(...write(c, c.from));
  getComputedStyle(el).getPropertyValue(c.cssProperty);
  el.style.transition = `var(${{c.variable}})`;
  el.style.setProperty(...write(c, c.to));
  const animations = el.getAnimations();
  const played = animations.map((a) => a.transitionProperty);
  let worst = null;
  if (animations.length === 1) {{
    animations[0].pause();
    worst = 0;
    for (const [ms, x] of c.frames) {{
      animations[0].currentTime = ms;
      worst = Math.max(worst, Math.abs(read(c, getComputedStyle(el)) - x));
    }}
  }}
  seen[c.variable] = {{ played, worst, transition: getComputedStyle(el).transitionProperty }};
}}
cbReport(seen);
</script></body></html>"#,
        cases = Value::Array(cases.clone())
    );
    fs::write(out.join("transitions.html"), page).unwrap();
    let Some(chromium) = engines().into_iter().find(|e| e.kind == Kind::Chromium) else {
        return;
    };
    let outcome = chromium.run(&out, "transitions.html", &RunOptions::default());
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    for case in &cases {
        let variable = case["variable"].as_str().unwrap();
        let seen = &outcome.result[variable];
        assert_eq!(
            seen["played"],
            serde_json::json!([case["cssProperty"]]),
            "{variable}: {seen}"
        );
        // Only lengths in px and plain numbers read back as the track's values.
        if matches!(case["unit"].as_str(), Some("px" | "" | "deg")) {
            // The engine's serialisation: 6 significant digits (BROWSERS.md).
            let bound = case["bound"].as_f64().unwrap() * (1.0 + 1e-3) + 1e-4;
            let worst = seen["worst"].as_f64().unwrap_or(f64::INFINITY);
            assert!(worst <= bound, "{variable}: {worst} off (bound {bound})");
        }
    }
    eprintln!("transitions: {}", outcome.result);
}

/// Style Dictionary's other stock platforms, with curvebake's groups, as the guide shows them.
const NATIVE_PLATFORMS: &str = "
    scss: { transformGroup: 'curvebake/scss', buildPath: 'build/',
      files: [{ destination: '_motion.scss', format: 'scss/variables' }] },
    swift: { transformGroup: 'curvebake/ios-swift', buildPath: 'build/',
      files: [{ destination: 'Motion.swift', format: 'ios-swift/class.swift',
        options: { className: 'Motion', import: ['SwiftUI'] } }] },
    compose: { transformGroup: 'curvebake/compose', buildPath: 'build/',
      files: [{ destination: 'Motion.kt', format: 'compose/object',
        options: { className: 'Motion', packageName: 'com.example.motion',
          import: ['androidx.compose.animation.core.*'] } }] },
    android: { transformGroup: 'curvebake/android', buildPath: 'build/',
      files: [{ destination: 'motion.xml', format: 'android/resources',
        options: { resourceMap: { duration: 'integer', cubicBezier: 'string',
          transition: 'string' } } }] }";

/// A track's group of tokens: its path (kebab case, joined by `-`), its duration in ms, its
/// easing's control points and whether it has a transition.
struct TrackTokens {
    path: String,
    ms: f64,
    easing: Option<[f64; 4]>,
    transition: bool,
}

/// Every track's group of `tokens` (a group with a `duration` token).
fn track_tokens(tokens: &Value) -> Vec<TrackTokens> {
    let mut found = Vec::new();
    let mut stack = vec![(String::new(), tokens)];
    while let Some((path, node)) = stack.pop() {
        if node["duration"]["$type"] == "duration" {
            let easing = node["easing"]["$value"].as_array().map(|p| {
                let p: Vec<f64> = p.iter().map(|x| x.as_f64().unwrap()).collect();
                [p[0], p[1], p[2], p[3]]
            });
            found.push(TrackTokens {
                path,
                ms: node["duration"]["$value"]["value"].as_f64().unwrap(),
                easing,
                transition: node.get("transition").is_some(),
            });
            continue;
        }
        let Value::Object(members) = node else {
            continue;
        };
        for (key, child) in members.iter().filter(|(k, _)| !k.starts_with('$')) {
            let path = match path.is_empty() {
                true => key.clone(),
                false => format!("{path}-{key}"),
            };
            stack.push((path, child));
        }
    }
    found
}

/// `kebab` (`motion-toss-2d-translate-x`) in camel case, as Style Dictionary's
/// `name/camel` gives it (`motionToss2dTranslateX`).
fn camel(kebab: &str) -> String {
    let mut out = String::new();
    for (i, word) in kebab.split('-').enumerate() {
        let mut chars = word.chars();
        if let (true, Some(first)) = (i > 0, chars.next()) {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        } else {
            out.push_str(word);
        }
    }
    out
}

/// Regression: Style Dictionary's stock groups other than css wrote `[object Object]` for
/// every duration and transition (and `0.313,1.214,0,1.105` as Swift).
#[test]
fn style_dictionary_writes_durations_and_easings_in_each_platforms_form() {
    let Some(tools) = js_tools("tokens platforms") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = bake_examples(dir.path(), "tokens");
    link_tools(&tools, &out);
    style_dictionary(&out, NATIVE_PLATFORMS);
    let read = |file: &str| fs::read_to_string(out.join("build").join(file)).unwrap();
    let (scss, swift, kotlin, xml) = (
        read("_motion.scss"),
        read("Motion.swift"),
        read("Motion.kt"),
        read("motion.xml"),
    );
    for (file, text) in [
        ("scss", &scss),
        ("swift", &swift),
        ("kt", &kotlin),
        ("xml", &xml),
    ] {
        assert!(!text.contains("[object Object]"), "{file}:\n{text}");
    }
    let tokens: Value =
        serde_json::from_slice(&fs::read(out.join("curves.tokens.json")).unwrap()).unwrap();
    let tracks = track_tokens(&tokens);
    assert!(tracks.len() >= 25, "{} tracks", tracks.len());
    // A line that is `line`, or `line` and a comment after a space.
    let has = |text: &str, line: String| {
        let found = (text.lines()).any(|l| {
            (l.trim_start().strip_prefix(&line))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        });
        assert!(found, "no `{line}` in\n{text}");
    };
    for track in &tracks {
        let (kebab, camel, snake) = (
            &track.path,
            camel(&track.path),
            track.path.replace('-', "_"),
        );
        // SwiftUI's TimeInterval in seconds, Compose's durationMillis and Android's in ms.
        let seconds = (track.ms / 1e3 * 1e6).round() / 1e6;
        let millis = track.ms.round();
        has(&scss, format!("${kebab}-duration: {}ms;", track.ms));
        has(
            &swift,
            format!("public static let {camel}Duration = {seconds}"),
        );
        has(&kotlin, format!("val {camel}Duration = {millis}"));
        has(
            &xml,
            format!("<integer name=\"{snake}_duration\">{millis}</integer>"),
        );
        let Some([x1, y1, x2, y2]) = track.easing else {
            continue;
        };
        let unit_curve = format!(
            "UnitCurve.bezier(startControlPoint: UnitPoint(x: {x1}, y: {y1}), \
             endControlPoint: UnitPoint(x: {x2}, y: {y2}))"
        );
        let easing = format!("CubicBezierEasing({x1}f, {y1}f, {x2}f, {y2}f)");
        has(
            &scss,
            format!("${kebab}-easing: cubic-bezier({x1}, {y1}, {x2}, {y2});"),
        );
        has(
            &swift,
            format!("public static let {camel}Easing = {unit_curve}"),
        );
        has(&kotlin, format!("val {camel}Easing = {easing}"));
        has(
            &xml,
            format!("<string name=\"{snake}_easing\">{x1},{y1},{x2},{y2}</string>"),
        );
        if track.transition {
            has(&scss, format!("${kebab}-transition:"));
            has(
                &swift,
                format!(
                    "public static let {camel}Transition = \
                     Animation.timingCurve({unit_curve}, duration: {seconds})"
                ),
            );
            has(
                &kotlin,
                format!(
                    "val {camel}Transition = tween<Float>(durationMillis = {millis}, \
                     delayMillis = 0, easing = {easing})"
                ),
            );
            has(
                &xml,
                format!(
                    "<string name=\"{snake}_transition\">{millis} 0 {x1},{y1},{x2},{y2}</string>"
                ),
            );
        }
    }
}
