//! Everyday use, on the real binary in temporary folders: `inspect` (text and JSON), `new`
//! (every template bakes; no overwriting), `completions`, `--help`, `watch` (re-bakes on a
//! save, once per burst, keeps going after an error), and the library builder writing what
//! the CLI writes.

use crate::common;

use common::project::{curvebake, outputs, project};

use curvebake::export::Format;
use serde_json::Value;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The spring used for known figures: ζ = 18/(2√220) ≈ 0.6068, ω0 = √220 ≈ 14.83 rad/s.
const SPRING: &str = r#"(
    name: "drop",
    property: "translateY",
    motion: Spring(from: -240, to: 0, velocity: 0, mass: 1, stiffness: 220, damping: 18),
)
"#;

/// A list with a solved decay and a ring.
const DECAYS: &str = r#"[
    (name: "arrive", duration: 0.45, motion: Decay(from: -100, to: 0, end_velocity: 20)),
    (name: "burst", duration: 0.9, motion: ExplosionRing(
        inner: (from: 0, to: 150, end_velocity: 30),
        outer: (from: 8, to: 180, end_velocity: 15),
    )),
]
"#;

/// How long any wait for the watcher may take before the test fails: generous, so that a
/// loaded machine does not make the test flaky.
const PATIENCE: Duration = Duration::from_secs(90);

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn inspect_shows_the_figures_of_a_known_spring() {
    let dir = project(&[("drop.ron", SPRING)]);
    let out = curvebake(dir.path(), &["inspect", "drop"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Rows are label, padding, value: compare with runs of spaces made one.
    let squeezed = |s: &str| {
        s.split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let squeezed_stdout = stdout.lines().map(squeezed).collect::<Vec<_>>().join("\n");
    for expected in [
        "drop (curves/drop.ron)",
        "spring on translateY in px",
        "stiffness 220, damping 18",
        "damping ratio  0.6068 (underdamped)",
        "natural 14.83 rad/s (2.361 Hz), damped 11.79 rad/s",
        "period         0.5329 s",
        // The same spring in every platform's form (2π/ω0 = 0.4236 s, ζ = 0.6068).
        "as SwiftUI, Flutter perceptual_duration 0.4236, bounce 0.3932",
        "as SwiftUI response 0.4236, damping_fraction 0.6068",
        "as Android, Compose stiffness 220, damping_ratio 0.6068",
        "as motion.dev visual_duration 0.353, bounce 0.3932",
        // (220 - 194)/3.62 + 30 and (18 - 25)/3 + 8.
        "as Origami, Rebound origami_tension 37.18, origami_friction 5.667",
        // e^(-ζπ/√(1-ζ²)) = 9.088 % of 240 px = 21.81 px, at π/ωd = 0.2665 s; the frames
        // catch its peak at 0.2667 s.
        "overshoot      9.088 % (21.81 px) at 0.2667 s (frames); 9.088 % at 0.2665 s (closed form)",
        "peak speed     1760 px/s at 0.08333 s (frames)",
        "resting value  0 px",
        "settle time    0.8571 s (envelope bound for 0.24 px: 0.1 % of the travel, rest_speed 2 px/s)",
    ] {
        assert!(
            squeezed_stdout.contains(&squeezed(expected)),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    let spark = stdout
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("position"))
        .expect("a sparkline row");
    let blocks: Vec<char> = spark.trim().chars().collect();
    assert_eq!(blocks.len(), 40, "{spark}");
    assert!(blocks.iter().all(|c| ('▁'..='█').contains(c)), "{spark}");
    // From -240 up past 0 and back: lowest first, highest at the overshoot.
    assert_eq!(blocks[0], '▁');
    assert!(blocks.contains(&'█'));
}

#[test]
fn inspect_json_parses_and_agrees_with_the_closed_form() {
    let dir = project(&[("drop.ron", SPRING), ("decays.ron", DECAYS)]);
    let out = curvebake(
        dir.path(),
        &["inspect", "--json", "drop", "curves/decays.ron"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("inspect --json is JSON");
    let motions = json["motions"].as_array().unwrap();
    let names: Vec<&str> = motions
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["drop", "arrive", "burst"]);

    let drop = &motions[0];
    let zeta = 18.0 / (2.0 * 220f64.sqrt());
    let spring = &drop["spring"];
    assert!((spring["damping_ratio"].as_f64().unwrap() - zeta).abs() < 1e-12);
    assert!((spring["natural_frequency"].as_f64().unwrap() - 220f64.sqrt()).abs() < 1e-12);
    assert_eq!(drop["params"]["stiffness"], 220.0);
    assert_eq!(drop["ending"], "rests");
    let closed = spring["overshoot"]["percent"].as_f64().unwrap();
    let expected = 100.0 * (-zeta * std::f64::consts::PI / (1.0 - zeta * zeta).sqrt()).exp();
    assert!((closed - expected).abs() < 1e-9, "{closed} vs {expected}");
    let track = &drop["tracks"][0];
    let frames = track["overshoot"]["percent"].as_f64().unwrap();
    assert_eq!(track["overshoot"]["source"], "frames");
    // Frames sample the continuous peak: never above it, and at 60 fps within 0.01 %.
    assert!(
        frames <= closed + 1e-9 && closed - frames < 0.01,
        "{frames} vs {closed}"
    );
    assert_eq!(track["resting_value"], 0.0);
    assert_eq!(track["sparkline"].as_str().unwrap().chars().count(), 40);

    let arrive = &motions[1];
    assert_eq!(arrive["tracks"][0]["decay"]["branch"], "W-1");
    assert_eq!(arrive["ending"], "arrives");
    assert!(arrive["tracks"][0]["decay"]["lambda"].as_f64().unwrap() > 0.0);
    let burst = &motions[2];
    let tracks: Vec<&str> = burst["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tracks, ["inner", "outer"]);
    for t in burst["tracks"].as_array().unwrap() {
        let d = &t["decay"];
        assert_eq!(d["branch"], "W-1");
        assert!(
            (d["end_velocity"].as_f64().unwrap() - if t["name"] == "inner" { 30.0 } else { 15.0 })
                .abs()
                < 1e-9
        );
    }
}

/// A sheet whose fade is a solved decay that holds its `to` after 0.3 s.
const SHEET: &str = r#"(
    name: "sheet",
    tracks: [
        (property: "translateY", motion: Spring(from: 480, to: 0, stiffness: 260, damping: 24)),
        (property: "opacity", motion: Decay(from: 0, to: 1, end_velocity: 0.2), duration: 0.3),
    ],
)
"#;

#[test]
fn inspect_says_what_a_track_holds_when_it_looks_done_and_that_a_ring_has_no_property() {
    let dir = project(&[("sheet.ron", SHEET), ("decays.ron", DECAYS)]);
    let out = curvebake(dir.path(), &["inspect", "--json", "sheet", "burst"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (sheet, burst) = (&json["motions"][0], &json["motions"][1]);
    // The fade holds 1 from 0.3 s on (its decay would rest above 1, had it run on).
    assert_eq!(sheet["tracks"][1]["resting_value"], 1.0);
    assert_eq!(burst["property"], Value::Null);

    // When it looks done: the first frame from which every later frame of each track is
    // within 0.5 px (translateY) or 0.1 % of its range (opacity) of its end value.
    let table = sheet_table(dir.path());
    let fps = table["fps"].as_f64().unwrap();
    let mut first = 0;
    for (name, within) in [("translateY", 0.5), ("opacity", 0.001)] {
        let x: Vec<f64> = (table["tracks"][name]["position"].as_array().unwrap().iter())
            .map(|v| v.as_f64().unwrap())
            .collect();
        let end = x[x.len() - 1];
        let off = x.iter().rposition(|v| (v - end).abs() > within);
        first = first.max(off.map_or(0, |i| i + 1));
    }
    let done = sheet["looks_done"].as_f64().unwrap();
    assert!(
        (done - first as f64 / fps).abs() < 1e-9,
        "{done} vs frame {first}"
    );

    let out = curvebake(dir.path(), &["inspect", "sheet", "burst"]);
    let stdout = text(&out.stdout);
    for row in [
        "opacity resting value     1\n",
        "explosion-ring, radii in px:",
        "every later frame of each track within 0.5 px of its end value, 0.1 % of its range in another unit",
    ] {
        assert!(stdout.contains(row), "missing {row:?} in:\n{stdout}");
    }
}

/// The JSON table of `curves/sheet.ron` under `root`, baked.
fn sheet_table(root: &std::path::Path) -> Value {
    let bake = curvebake(root, &["bake", "curves/sheet.ron", "--formats", "json"]);
    assert!(bake.status.success(), "{}", text(&bake.stderr));
    let json = fs::read_to_string(root.join("out/json/sheet.json")).unwrap();
    serde_json::from_str(&json).unwrap()
}

/// A multi-track motion is described by all its tracks, not by its first: inspect said
/// "tracks on translateY in px" of the sheet, and its `--json` gave translateY and px as the
/// motion's `property` and `unit`, where the JSON tables write null (each track says its own).
#[test]
fn inspect_names_every_track_of_a_multi_track_motion_and_gives_it_no_property_or_unit() {
    let dir = project(&[("sheet.ron", SHEET)]);
    let out = curvebake(dir.path(), &["inspect", "--json", "sheet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sheet = &json["motions"][0];
    assert_eq!(sheet["property"], Value::Null);
    assert_eq!(sheet["unit"], Value::Null);
    // Nor the first track's rest thresholds (px, for an opacity and a scale too): each track
    // gives its own.
    for field in ["rest_delta", "rest_speed", "end_delta"] {
        assert_eq!(sheet[field], Value::Null, "{field}");
    }
    let tracks: Vec<(&str, &str)> = (sheet["tracks"].as_array().unwrap().iter())
        .map(|t| (t["name"].as_str().unwrap(), t["unit"].as_str().unwrap()))
        .collect();
    assert_eq!(tracks, [("translateY", "px"), ("opacity", "")]);

    // As the JSON tables have it.
    let table = sheet_table(dir.path());
    assert_eq!(table["property"], sheet["property"]);
    assert_eq!(table["unit"], sheet["unit"]);

    let out = curvebake(dir.path(), &["inspect", "sheet"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("tracks: translateY (px), opacity; "),
        "{stdout}"
    );
    assert!(!stdout.contains(" on translateY"), "{stdout}");
    // Its settle time is the last track's end, not a bound for the first track's thresholds.
    assert!(!stdout.contains("rest_speed 2 px/s"), "{stdout}");
}

/// A target with a folder in it is a path: missing, it is a usage error (exit 2), as
/// errors.md says, not a motion name not found (exit 1). And `--json` is JSON whatever the
/// file's name (a name that is not UTF-8 written with its odd bytes replaced).
#[test]
fn inspect_names_missing_paths_and_writes_json_for_any_file_name() {
    let dir = project(&[("drop.ron", SPRING)]);
    for target in ["missing/", "./missing"] {
        let out = curvebake(dir.path(), &["inspect", target]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{target}: {}",
            text(&out.stderr)
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"w\xff\xfe.ron");
        fs::write(
            dir.path().join("curves").join(name),
            "(name: \"weird\", motion: Spring(from: 0, to: 1))",
        )
        .unwrap();
        let out = curvebake(dir.path(), &["inspect", "--json", "weird"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(json["motions"][0]["file"], "curves/w\u{fffd}\u{fffd}.ron");
    }
}

#[test]
fn inspect_reports_errors_like_bake_and_exits_1() {
    let broken = "[\n  (name: \"ok\", duration: 1, motion: Gravity(from: 0, acceleration: 10)),\n  (name: \"bad\", motion: Spring(from: 0, to: 1, stiffness: 100, damping: -3)),\n]\n";
    let dir = project(&[
        ("broken.ron", broken),
        (
            "syntax.ron",
            "(name: \"x\", motion: Spring(from: 0,, to: 1))",
        ),
    ]);
    for (k, file) in ["curves/broken.ron", "curves/syntax.ron"]
        .into_iter()
        .enumerate()
    {
        // Each into its own folder: a bake of the other file's folder would say (issue 27,
        // item 4) that it removes the outputs of inputs it does not read.
        let out = format!("out-{k}");
        let bake = curvebake(
            dir.path(),
            &["bake", "-q", "--formats", "json", "--out", &out, file],
        );
        let inspect = curvebake(dir.path(), &["inspect", file]);
        assert_eq!(bake.status.code(), Some(1));
        assert_eq!(inspect.status.code(), Some(1));
        assert!(!bake.stderr.is_empty());
        assert_eq!(text(&inspect.stderr), text(&bake.stderr), "{file}");
    }
    // The valid motion of the file is still shown.
    let out = curvebake(dir.path(), &["inspect", "curves/broken.ron"]);
    assert!(text(&out.stdout).starts_with("ok (curves/broken.ron)"));

    let missing = curvebake(dir.path(), &["inspect", "no-such-motion"]);
    assert_eq!(missing.status.code(), Some(1));
    let stderr = text(&missing.stderr);
    assert!(
        stderr.contains("error: curves: no motion named \"no-such-motion\""),
        "{stderr}"
    );
    // The broken files are shown too: the motion might be in one of them.
    assert!(
        stderr.contains("motion.Spring.damping must be >= 0, got -3"),
        "{stderr}"
    );
    let usage = curvebake(dir.path(), &["inspect"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn every_new_template_bakes_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["spring", "friction", "gravity", "decay", "ring"] {
        let name = format!("my-{kind}");
        let out = curvebake(dir.path(), &["new", kind, &name, "--dir", "motion"]);
        assert!(out.status.success(), "{kind}: {}", text(&out.stderr));
        let file = dir.path().join("motion").join(format!("{name}.ron"));
        let source = fs::read_to_string(&file).unwrap();
        assert!(source.starts_with(&format!("// {name}: ")), "{source}");
        assert!(source.contains(&format!("name: \"{name}\"")));
    }
    let out = curvebake(dir.path(), &["bake", "motion"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for kind in ["spring", "friction", "gravity", "decay", "ring"] {
        for file in [
            format!("json/my-{kind}.json"),
            format!("js/my-{kind}.js"),
            format!("js/my-{kind}.d.ts"),
        ] {
            assert!(dir.path().join("out").join(&file).is_file(), "{file}");
        }
    }
    let out = curvebake(
        dir.path(),
        &["inspect", "--curves", "motion", "my-ring", "my-spring"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Lambert W branch"));
}

#[test]
fn new_refuses_to_overwrite_and_to_reuse_a_name() {
    let dir = project(&[("drop.ron", SPRING)]);
    let before = fs::read(dir.path().join("curves/drop.ron")).unwrap();
    let out = curvebake(dir.path(), &["new", "decay", "drop"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("curves/drop.ron: already exists; refusing to overwrite it"),
        "{stderr}"
    );
    assert_eq!(
        fs::read(dir.path().join("curves/drop.ron")).unwrap(),
        before
    );

    // Another file, but a name the bake would reject as a duplicate (ignoring case).
    let out = curvebake(dir.path(), &["new", "spring", "Drop"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("already holds a motion named \"drop\""));
    assert!(!dir.path().join("curves/Drop.ron").exists());

    for bad in ["9lives", "two words", "a/b", ""] {
        let out = curvebake(dir.path(), &["new", "spring", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("invalid name"), "{bad:?}");
    }
}

#[test]
fn completions_are_scripts_for_each_shell() {
    let dir = tempfile::tempdir().unwrap();
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef curvebake"),
        ("fish", "complete -c curvebake"),
    ] {
        let out = curvebake(dir.path(), &["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = text(&out.stdout);
        assert!(script.contains(marker), "{shell}:\n{script}");
        for word in [
            "inspect",
            "watch",
            "new",
            "completions",
            "formats",
            "debounce",
        ] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    assert_eq!(
        curvebake(dir.path(), &["completions", "tcsh"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn every_subcommand_has_help_with_examples() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["bake", "inspect", "watch", "new", "completions"] {
        let out = curvebake(dir.path(), &[command, "--help"]);
        assert!(out.status.success(), "{command}");
        let help = text(&out.stdout);
        assert!(help.contains("Examples:"), "{command}:\n{help}");
        assert!(
            help.contains(&format!("curvebake {command}")),
            "{command}:\n{help}"
        );
    }
    let watch = text(&curvebake(dir.path(), &["watch", "--help"]).stdout);
    assert!(
        !watch.contains("  --check"),
        "no --check option line:\n{watch}"
    );
    assert!(watch.contains("--debounce"));
    let bake = text(&curvebake(dir.path(), &["bake", "--help"]).stdout);
    assert!(bake.contains("json, css, png, html, js"), "{bake}");
}

#[test]
fn the_library_builder_writes_what_the_cli_writes() {
    let dir = project(&[("drop.ron", SPRING), ("decays.ron", DECAYS)]);
    let cli = curvebake(
        dir.path(),
        &[
            "bake",
            "--formats",
            "json,css,js",
            "--jobs",
            "2",
            "--out",
            "cli",
        ],
    );
    assert!(cli.status.success(), "{}", text(&cli.stderr));
    let report = curvebake::Bake::new(dir.path().join("curves"))
        .out(dir.path().join("lib"))
        .formats([Format::Json, Format::Css, Format::Js])
        .jobs(2)
        .run()
        .expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.motions, 3);
    let (cli, lib) = (
        outputs(&dir.path().join("cli")),
        outputs(&dir.path().join("lib")),
    );
    assert!(!lib.is_empty());
    assert_eq!(
        cli.iter().map(|f| &f.0).collect::<Vec<_>>(),
        lib.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert!(cli == lib, "the CLI and the builder wrote different bytes");

    // A single motion from RON text, sampled in code, is the table the bake wrote.
    let curve = curvebake::Curve::from_ron(SPRING).unwrap();
    let table: Value =
        serde_json::from_slice(&fs::read(dir.path().join("lib/json/drop.json")).unwrap()).unwrap();
    let position = table["tracks"]["value"]["position"].as_array().unwrap();
    for (i, x) in position.iter().enumerate().take(position.len() - 1) {
        let t = i as f64 / 60.0;
        assert!(
            (curve.position(t) - x.as_f64().unwrap()).abs() < 1e-9,
            "frame {i}"
        );
    }
}

#[test]
fn js_is_a_default_format_with_nothing_in_a_bundle() {
    let dir = project(&[("drop.ron", SPRING)]);
    let out = curvebake(dir.path(), &["bake", "--formats", "json,js"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let js = fs::read_to_string(dir.path().join("out/js/drop.js")).unwrap();
    assert!(js.contains("export const keyframes = [\n{offset: 0, translate: \"0 -240px\"},"));
    assert!(dir.path().join("out/js/drop.d.ts").is_file());
    let out = curvebake(
        dir.path(),
        &[
            "bake",
            "--bundle",
            "--formats",
            "json,js",
            "--out",
            "bundle",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!dir.path().join("bundle/js").exists());
    let index: Value =
        serde_json::from_slice(&fs::read(dir.path().join("out/curves.json")).unwrap()).unwrap();
    let files = &index["motions"][0]["files"];
    assert!(
        files.as_array().unwrap().iter().any(|f| f == "js/drop.js"),
        "{files}"
    );
}

/// A running `curvebake watch`, killed when dropped, with its stderr gathered by a thread.
pub(crate) struct Watcher {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Watcher {
    pub(crate) fn start(dir: &Path, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_curvebake"))
            .current_dir(dir)
            .arg("watch")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stderr = child.stderr.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Self { child, lines }
    }

    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    pub(crate) fn bakes(&self) -> usize {
        self.lines()
            .iter()
            .filter(|l| l.starts_with("baked"))
            .count()
    }

    /// Waits until `done` holds, failing with what the watcher printed if it takes longer than
    /// [`PATIENCE`] or the watcher exits.
    pub(crate) fn wait_for(&mut self, what: &str, mut done: impl FnMut(&Self) -> bool) {
        let started = Instant::now();
        while !done(self) {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!(
                    "watch exited ({status}) while waiting for {what}:\n{}",
                    self.lines().join("\n")
                );
            }
            assert!(
                started.elapsed() < PATIENCE,
                "no {what} after {PATIENCE:?}; watch printed:\n{}",
                self.lines().join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn last_position(table: &Path) -> Option<f64> {
    let json: Value = serde_json::from_slice(&fs::read(table).ok()?).ok()?;
    json["tracks"]["value"]["position"]
        .as_array()?
        .last()?
        .as_f64()
}

fn spring_to(to: u32) -> String {
    SPRING.replace("to: 0,", &format!("to: {to},"))
}

/// An output folder that is also the input folder: the tokens file the bake writes there
/// reads as a curve file, but its write starts no second bake.
#[test]
fn what_a_watch_writes_among_its_inputs_starts_no_bake() {
    let dir = project(&[("drop.ron", SPRING)]);
    let source = dir.path().join("curves/drop.ron");
    let mut watch = Watcher::start(
        dir.path(),
        &[
            "curves",
            "--out",
            "curves",
            "--formats",
            "json,tokens",
            "--debounce",
            "200",
        ],
    );
    watch.wait_for("first bake", |w| w.bakes() == 1);
    assert!(dir.path().join("curves/curves.tokens.json").is_file());
    fs::write(&source, SPRING.replace("stiffness: 220", "stiffness: 230")).unwrap();
    watch.wait_for("the bake after the edit", |w| w.bakes() == 2);
    // Time for the tokens file's events to start a third bake, were they taken for an edit.
    std::thread::sleep(Duration::from_millis(2000));
    assert_eq!(watch.bakes(), 2, "{}", watch.lines().join("\n"));
}

#[test]
fn watch_rebakes_what_changed_once_per_burst_and_survives_errors() {
    let other = SPRING.replace("\"drop\"", "\"other\"");
    let dir = project(&[("drop.ron", SPRING), ("other.ron", &other)]);
    let drop = dir.path().join("out/json/drop.json");
    let other_table = dir.path().join("out/json/other.json");
    let source = dir.path().join("curves/drop.ron");
    // A long debounce, so that a burst is a burst even on a loaded machine.
    let mut watch = Watcher::start(dir.path(), &["--formats", "json,js", "--debounce", "700"]);
    watch.wait_for("first bake", |w| {
        w.lines().iter().any(|l| l.starts_with("watching curves"))
    });
    assert_eq!(last_position(&drop), Some(0.0));
    assert_eq!(watch.bakes(), 1);
    let other_bytes = fs::read(&other_table).unwrap();
    let other_modified = fs::metadata(&other_table).unwrap().modified().unwrap();

    // A save re-bakes; only the changed motion's files are written.
    fs::write(&source, spring_to(100)).unwrap();
    watch.wait_for("a re-bake after the edit", |_| {
        last_position(&drop) == Some(100.0)
    });
    watch.wait_for("the bake line", |w| w.bakes() == 2);
    let line = watch
        .lines()
        .into_iter()
        .rfind(|l| l.starts_with("baked"))
        .unwrap();
    assert!(
        line.starts_with("baked after changes to curves/drop.ron: 2 motions"),
        "{line}"
    );
    assert!(dir.path().join("out/js/drop.js").is_file());
    assert_eq!(fs::read(&other_table).unwrap(), other_bytes);
    assert_eq!(
        fs::metadata(&other_table).unwrap().modified().unwrap(),
        other_modified
    );

    // A broken save is reported, and watching goes on.
    fs::write(&source, "(name: \"drop\", motion: Spring(from: 0,, to: 1))").unwrap();
    watch.wait_for("the error", |w| {
        w.lines()
            .iter()
            .any(|l| l.starts_with("error: curves/drop.ron:1:"))
    });
    watch.wait_for("the bake line", |w| w.bakes() == 3);
    assert_eq!(
        last_position(&drop),
        Some(100.0),
        "a failed motion keeps its outputs"
    );

    // An editor's save burst (five writes in a row) bakes once, with the last content.
    for to in 201..=205 {
        fs::write(&source, spring_to(to)).unwrap();
    }
    watch.wait_for("a re-bake after the burst", |_| {
        last_position(&drop) == Some(205.0)
    });
    watch.wait_for("the bake line", |w| w.bakes() == 4);
    // Give a wrongly split burst time to show up as a fifth bake.
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(watch.bakes(), 4, "{}", watch.lines().join("\n"));
    assert!(
        watch.child.try_wait().unwrap().is_none(),
        "watch is still running"
    );
}

#[test]
fn watch_refuses_check_and_missing_inputs() {
    let dir = project(&[("drop.ron", SPRING)]);
    let out = curvebake(dir.path(), &["watch", "--check"]);
    assert_eq!(out.status.code(), Some(2));
    let out = curvebake(dir.path(), &["watch", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nowhere: cannot watch"),
        "{}",
        text(&out.stderr)
    );
}
