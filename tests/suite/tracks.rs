//! Multi-track motions (curves/tracks.ron: a sheet that slides, fades and scales;
//! a 2D toss), through the real binary: the JSON has one table per property under `tracks`,
//! a track that ends before the others holds its end value with velocity 0, the CSS plays
//! every track from one class (translateX and translateY as one animation of `translate: X Y`), the JS
//! writes the pair as one `translate`, the plot has a panel per track, and a tolerance that
//! flattens a track's bounce is warned about, naming the track.

use crate::common::project::{curvebake, project, stderr};
use serde_json::Value;

const EXAMPLES: &str = include_str!("../../curves/tracks.ron");

fn baked() -> tempfile::TempDir {
    let dir = project(&[("tracks.ron", EXAMPLES)]);
    let out = curvebake(dir.path(), &["bake", "--formats", "json,css,js,png"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

fn read(dir: &tempfile::TempDir, path: &str) -> String {
    std::fs::read_to_string(dir.path().join("out").join(path)).unwrap()
}

#[test]
fn tracks_of_different_lengths_share_one_timeline_and_hold_their_ends() {
    let dir = baked();
    let table: Value = serde_json::from_str(&read(&dir, "json/sheet-enter.json")).unwrap();
    let tracks = table["tracks"].as_object().unwrap();
    let keys: Vec<&str> = tracks.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["opacity", "scale", "translateY"],
        "keyed by property"
    );
    let (fps, duration) = (
        table["fps"].as_f64().unwrap(),
        table["duration"].as_f64().unwrap(),
    );
    let frames = table["frames"].as_u64().unwrap() as usize;
    let opacity_end = table["params"]["opacity"]["end"].as_f64().unwrap();
    assert_eq!(opacity_end, 0.3);
    // The slide rests after about 0.73 s at the default thresholds, the scale sooner.
    assert!(duration > 0.7, "the slide is the longest track: {duration}");
    for (name, track) in tracks {
        let x = track["position"].as_array().unwrap();
        let v = track["velocity"].as_array().unwrap();
        assert_eq!((x.len(), v.len()), (frames, frames), "{name}");
        let end = table["params"][name]["end"].as_f64().unwrap();
        let to = table["params"][name]["to"].as_f64().unwrap();
        for i in 0..frames {
            let t = (i as f64 / fps).min(duration);
            if t >= end {
                // Ended: exactly its end value, at rest.
                assert_eq!(x[i].as_f64().unwrap(), to, "{name} frame {i}");
                assert_eq!(v[i].as_f64().unwrap(), 0.0, "{name} frame {i}");
            }
        }
    }
    // Where a track ends before the last one is a join.
    let joins: Vec<f64> = table["joins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_f64().unwrap())
        .collect();
    assert!(joins.contains(&0.3), "{joins:?}");
}

/// A multi-track motion animates no one property in one unit: its table says so with nulls,
/// and each track says its own unit, how it ends and its own rest thresholds (the opacity, a
/// decay solved to arrive at its 0.3 s, arrives while the whole rests; the unitless tracks
/// rest within the unitless defaults, not the px ones).
#[test]
fn a_multi_track_table_leaves_property_and_unit_to_tracks_that_each_say_how_they_end() {
    let dir = baked();
    let table: Value = serde_json::from_str(&read(&dir, "json/sheet-enter.json")).unwrap();
    assert_eq!(table["property"], Value::Null);
    assert_eq!(table["unit"], Value::Null);
    assert_eq!(table["ending"], "rests");
    for (track, unit, ending, rest_delta, rest_speed) in [
        ("translateY", "px", "rests", 0.25, 2.0),
        ("opacity", "", "arrives", 0.001, 0.01),
        ("scale", "", "rests", 0.001, 0.01),
    ] {
        let t = &table["tracks"][track];
        assert_eq!(t["unit"], unit, "{track}");
        assert_eq!(t["ending"], ending, "{track}");
        assert_eq!(t["rest_delta"], rest_delta, "{track}");
        assert_eq!(t["rest_speed"], rest_speed, "{track}");
    }
}

/// The tokens' `ends`, `restDelta` and `restSpeed` are each track's own, as the hand-off guide
/// says, not the whole motion's (which gave the unitless tracks the px thresholds and the
/// opacity `at rest`).
#[test]
fn each_tracks_tokens_carry_its_own_ending_and_rest_thresholds() {
    let dir = project(&[("tracks.ron", EXAMPLES)]);
    let out = curvebake(dir.path(), &["bake", "--formats", "tokens"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tokens: Value = serde_json::from_str(&read(&dir, "curves.tokens.json")).unwrap();
    for (track, ends, rest_delta, rest_speed) in [
        ("translate-y", "at rest", 0.25, 2.0),
        ("opacity", "on arrival", 0.001, 0.01),
        ("scale", "at rest", 0.001, 0.01),
    ] {
        let data =
            &tokens["motion"]["sheet-enter"][track]["transition"]["$extensions"]["dev.curvebake"];
        assert_eq!(data["ends"], ends, "{track}");
        assert_eq!(data["restDelta"], rest_delta, "{track}");
        assert_eq!(data["restSpeed"], rest_speed, "{track}");
    }
}

#[test]
fn one_class_plays_every_track_and_x_y_animate_one_translate() {
    let dir = baked();
    let css = read(&dir, "css/toss-2d.css");
    let class = css
        .split(".toss-2d {")
        .nth(1)
        .expect("one class for the motion");
    let class = class.split('}').next().unwrap();
    // One animation of `translate` itself (as a single motion's), no declaration of it and no
    // registered variables: a `transition` or `:hover` rule on `translate` combines with it.
    assert_eq!(
        class.trim(),
        "animation:\n    toss-2d-translate var(--toss-2d-translate-duration) linear both;",
        "{class}"
    );
    assert!(!css.contains("@property"), "{css}");
    assert!(
        css.contains("@keyframes toss-2d-translate {\n  0% { translate: 0px 0px; }\n"),
        "{css}"
    );
    let sheet = read(&dir, "css/sheet-enter.css");
    let class = sheet
        .split(".sheet-enter {")
        .nth(1)
        .unwrap()
        .split('}')
        .next()
        .unwrap();
    for track in ["translateY", "opacity", "scale"] {
        assert!(class.contains(&format!("sheet-enter-{track} var(--sheet-enter-{track}-duration) var(--sheet-enter-{track}-easing)")), "{class}");
    }
    // Each easing-first track keeps its own keyframes on its own property.
    assert!(
        sheet.contains(
            "@keyframes sheet-enter-opacity {\n  from { opacity: var(--sheet-enter-opacity-from, 0); }\n  to { opacity: var(--sheet-enter-opacity-to, 1); }"
        ),
        "{sheet}"
    );
    let js = read(&dir, "js/toss-2d.js");
    assert!(js.contains("{offset: 0, translate: \"0px 0px\"}"), "{js}");
}

#[test]
fn the_plot_has_a_panel_per_track() {
    let dir = baked();
    // toss-2d: its two tracks, then its path on screen.
    for (name, panels) in [("sheet-enter", 3), ("toss-2d", 3)] {
        let bytes = std::fs::read(dir.path().join(format!("out/png/{name}.png"))).unwrap();
        let img = image::load_from_memory(&bytes).unwrap();
        assert_eq!((img.width(), img.height()), (1200, 800 * panels), "{name}");
    }
}

/// Regression: the JS module thins every track of a motion together, and the stop search
/// used to accept at most two tracks: a motion of three or more with a positive tolerance
/// panicked (exit 101) instead of baking.
#[test]
fn five_tracks_with_a_tolerance_bake_in_every_format() {
    let track = |(property, to): (&str, f64)| {
        format!("(property: {property:?}, motion: Spring(from: 0, to: {to}, stiffness: 260, damping: 12)),")
    };
    let properties = [
        ("translateX", 100.0),
        ("translateY", 50.0),
        ("scale", 1.0),
        ("rotate", 90.0),
        ("opacity", 1.0),
    ];
    let tracks: String = properties.into_iter().map(track).collect();
    let dir = project(&[("five.ron", &format!("(name: \"five\", tracks: [{tracks}])"))]);
    let run = curvebake(
        dir.path(),
        &[
            "bake",
            "--css-tolerance",
            "0.05",
            "--formats",
            "json,css,js",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    for file in ["css/five.css", "js/five.js", "json/five.json"] {
        assert!(!read(&dir, file).is_empty(), "{file}");
    }
}

#[test]
fn a_tolerance_that_flattens_a_tracks_bounce_is_warned_about_by_track() {
    // The sheet's scale bounces about 0.02 past 1: a tolerance of 0.5 taken as it is
    // (relative_tolerance 1: the whole range, 0.06568) flattens it, and the warning names
    // the track (the overdamped translate has no bounce to lose); a bake that reuses the
    // outputs says it again.
    let sheet = r#"(name: "sheet", tolerance: 0.5, relative_tolerance: 1, tracks: [
        (property: "translateY", motion: Spring(from: 40, to: 0, stiffness: 260, damping: 40)),
        (property: "scale", motion: Spring(from: 0.94, to: 1, perceptual_duration: 0.35, bounce: 0.4)),
    ])"#;
    let dir = project(&[("sheet.ron", sheet)]);
    for run in ["first", "reused"] {
        let out = curvebake(dir.path(), &["bake", "--formats", "css"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let err = stderr(&out);
        let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
        assert_eq!(warnings.len(), 1, "{run}: {err}");
        let path = std::path::Path::new("curves").join("sheet.ron");
        assert!(
            warnings[0].starts_with(&format!(
                "warning: {}: sheet: track `scale`: the CSS tolerance 0.06568 removes its overshoot of 0.0",
                path.display()
            )),
            "{run}: {}",
            warnings[0]
        );
    }
}
