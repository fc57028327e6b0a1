//! The real binary on temporary folders: every variant, every error path, determinism across
//! thread counts, and `--check` on a stale and a current output folder.

use crate::common;

use common::project::{curvebake, outputs, project, stderr};

use serde_json::Value;
use std::fs;
use std::path::Path;

/// A project with a copy of the repository's example curves.
fn examples() -> tempfile::TempDir {
    let dir = project(&[]);
    for entry in fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/curves")).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(
            &path,
            dir.path().join("curves").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    dir
}

fn table(dir: &Path, name: &str) -> Value {
    let text = fs::read_to_string(dir.join("out/json").join(format!("{name}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Every file under `root`, relative path -> bytes.
#[test]
fn bakes_every_example_variant_into_json_tables_that_follow_the_sampling_rule() {
    let dir = examples();
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let index: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("out/curves.json")).unwrap())
            .unwrap();
    let motions = index["motions"].as_array().unwrap();
    let kinds: std::collections::BTreeSet<&str> = motions
        .iter()
        .map(|m| m["motion"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            "decay",
            "explosion-ring",
            "friction",
            "gravity",
            "inertia",
            "sequence",
            "spring",
            "tracks"
        ]
    );
    for m in motions {
        let t = table(dir.path(), m["name"].as_str().unwrap());
        let (fps, duration) = (t["fps"].as_f64().unwrap(), t["duration"].as_f64().unwrap());
        let frames = t["frames"].as_u64().unwrap() as usize;
        assert_eq!(
            frames,
            (duration * fps - 1e-9).ceil() as usize + 1,
            "{}",
            m["name"]
        );
        for (_, track) in t["tracks"].as_object().unwrap() {
            assert_eq!(floats(&track["position"]).len(), frames);
            assert_eq!(floats(&track["velocity"]).len(), frames);
        }
    }
}

#[test]
fn a_resting_motion_ends_exactly_at_rest_and_a_solved_decay_exactly_at_to() {
    let dir = project(&[(
        "a.ron",
        r#"[
            (name: "s", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26)),
            (name: "d", duration: 0.5, motion: Decay(from: 0, to: 300, end_velocity: 20)),
            (name: "snap", motion: Friction(from: 10, to: 250, velocity: 900)),
        ]"#,
    )]);
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (name, end) in [("s", 100.0), ("d", 300.0), ("snap", 250.0)] {
        let position = floats(&table(dir.path(), name)["tracks"]["value"]["position"]);
        assert_eq!(*position.last().unwrap(), end, "{name}");
        // The frame before the end is the closed form, still moving (not snapped early).
        assert_ne!(position[position.len() - 2], end, "{name}");
    }
    let spring = table(dir.path(), "s");
    let position = floats(&spring["tracks"]["value"]["position"]);
    assert!(position
        .iter()
        .rev()
        .skip(1)
        .take(5)
        .all(|x| (x - 100.0).abs() > 0.0 && (x - 100.0).abs() < 0.5));
}

/// A reader handing a motion over must know what its last frame is without guessing from the
/// last join: each table, per motion file and in the bundle alike, says how the motion ends
/// (`rests`, `arrives`, `fixed`) and per track the rest thresholds of its unit.
#[test]
fn each_table_says_how_it_ends_and_each_track_within_which_thresholds_in_both_layouts() {
    let dir = project(&[(
        "a.ron",
        r#"[
            (name: "s", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26)),
            (name: "o", property: "opacity", motion: Spring(from: 0, to: 1, stiffness: 170, damping: 26)),
            (name: "d", duration: 0.5, motion: Decay(from: 0, to: 300, end_velocity: 20)),
            (name: "g", duration: 0.4, motion: Gravity(from: 0, velocity: -500, acceleration: 2000)),
            (name: "r", duration: 0.5, motion: ExplosionRing(inner: (from: 0, to: 80, end_velocity: 10), outer: (from: 8, to: 120, end_velocity: 5))),
        ]"#,
    )]);
    let expected = [
        ("s", "rests", ["value"].as_slice(), (0.25, 2.0)),
        ("o", "rests", &["value"], (0.001, 0.01)),
        ("d", "arrives", &["value"], (0.25, 2.0)),
        ("g", "fixed", &["value"], (0.25, 2.0)),
        ("r", "arrives", &["inner", "outer"], (0.25, 2.0)),
    ];
    let check = |t: &Value, layout: &str| {
        let (name, ending, tracks, (rest_delta, rest_speed)) = expected
            .iter()
            .find(|e| e.0 == t["name"])
            .unwrap_or_else(|| panic!("{layout}: {}", t["name"]));
        assert_eq!(t["ending"], *ending, "{layout} {name}");
        for track in *tracks {
            let track = &t["tracks"][track];
            assert_eq!(track["ending"], *ending, "{layout} {name}");
            assert_eq!(track["rest_delta"], *rest_delta, "{layout} {name}");
            assert_eq!(track["rest_speed"], *rest_speed, "{layout} {name}");
        }
    };
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (name, ..) in expected {
        check(&table(dir.path(), name), "json/");
    }
    let out = curvebake(
        dir.path(),
        &["bake", "--formats", "json", "--bundle", "--out", "b"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let bundle: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("b/curves.json")).unwrap())
            .unwrap();
    let motions = bundle["motions"].as_array().unwrap();
    assert_eq!(motions.len(), expected.len());
    for t in motions {
        check(t, "bundle");
    }
}

#[test]
fn every_error_is_reported_with_its_place_and_valid_motions_are_still_baked() {
    let dir = project(&[
        ("good.ron", r#"(name: "good", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 20))"#),
        ("card.ron", "(\n  name: \"card-drop\",\n  motion: Spring(from: 0, to: 1, stiffness: 100, damping: -3),\n)"),
        ("typo.ron", "(\n  name: \"typo\",\n  motion: Spring(from: 0, to: 1, stiffnes: 100, damping: 3),\n)"),
        ("never.ron", r#"(name: "never", motion: Friction(from: 0, velocity: 10, friction: 1))"#),
    ]);
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("card.ron: card-drop: motion.Spring.damping must be >= 0, got -3"),
        "{err}"
    );
    assert!(err.contains("typo.ron:3:"), "{err}");
    assert!(err.contains("stiffnes"), "{err}");
    assert!(
        err.contains("  motion: Spring(from: 0, to: 1, stiffnes: 100, damping: 3),"),
        "{err}"
    );
    assert!(
        err.contains("never.ron: never: never comes to rest"),
        "{err}"
    );
    assert!(dir.path().join("out/json/good.json").exists());
    assert!(!dir.path().join("out/json/card-drop.json").exists());
}

#[test]
fn names_must_be_unique_across_files_ignoring_case() {
    let spring = |name: &str| {
        format!(r#"(name: "{name}", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 20))"#)
    };
    let dir = project(&[("a.ron", &spring("Card")), ("b.ron", &spring("card"))]);
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("b.ron: card: name is already used by a motion in curves/a.ron"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn usage_errors_exit_with_status_2() {
    let dir = examples();
    for args in [
        &["bake", "--fps", "0"][..],
        &["bake", "--jobs", "0"],
        &["bake", "--formats", "gif"],
        &["bake", "missing/"],
        &["frobnicate"],
    ] {
        let out = curvebake(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn outputs_are_byte_identical_across_runs_and_thread_counts() {
    let dir = examples();
    let one = curvebake(dir.path(), &["bake", "--jobs", "1", "--out", "one"]);
    assert!(one.status.success(), "{}", stderr(&one));
    let two = curvebake(dir.path(), &["bake", "--jobs", "2", "--out", "two"]);
    assert!(two.status.success(), "{}", stderr(&two));
    let (a, b) = (
        outputs(&dir.path().join("one")),
        outputs(&dir.path().join("two")),
    );
    assert!(a.len() > 15);
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (x, y) in a.iter().zip(&b) {
        assert!(
            x.1 == y.1,
            "{} differs between --jobs 1 and --jobs 2",
            x.0.display()
        );
    }
}

/// A batch of several windows (a bake takes 256 motions at a time): `files` files of 40
/// springs each, the fourth broken, one motion of the eighth impossible to bake, one of the
/// tenth invalid; `edit` changes the stiffness of one motion in the sixth.
fn many_windows(dir: &Path, files: usize, edit: bool) {
    let curves = dir.join("curves");
    fs::create_dir_all(&curves).unwrap();
    for f in 0..files {
        let text = if f == 3 {
            "[(name: \"oops\", motion: Spring(".to_owned()
        } else {
            let motions: Vec<String> = (0..40)
                .map(|k| {
                    let stiffness = if edit && f == 5 && k == 7 {
                        333
                    } else {
                        100 + k
                    };
                    let stiffness = if f == 9 && k == 20 {
                        -1.0
                    } else {
                        stiffness as f64
                    };
                    let duration = if f == 7 && k == 3 {
                        "duration: 100000, "
                    } else {
                        ""
                    };
                    format!(
                        "(name: \"m{f}-{k}\", {duration}motion: Spring(from: 0, to: {f}, \
                         stiffness: {stiffness}, damping: 15))"
                    )
                })
                .collect();
            format!("[{}]", motions.join(",\n"))
        };
        fs::write(curves.join(format!("f{f:02}.ron")), text).unwrap();
    }
}

/// A run's exit code and its standard error, with the output folder's name and the time
/// taken (the summary's last words, `in 0.04 s`) left out.
fn account(output: &std::process::Output, out: &str) -> (Option<i32>, String) {
    let text = stderr(output).replace(out, "OUT");
    let without_time = |line: &str| {
        let timed = line.strip_suffix(" s").and_then(|l| l.rsplit_once(" in "));
        timed.map_or(line.to_owned(), |(before, _)| before.to_owned())
    };
    let lines: Vec<String> = text.lines().map(without_time).collect();
    (output.status.code(), lines.join("\n"))
}

#[test]
fn many_windows_and_their_errors_come_out_the_same_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    many_windows(dir.path(), 24, false);
    for layout in [&[][..], &["--bundle"][..]] {
        let mut first = None;
        for jobs in ["1", "2", "3"] {
            let out = format!("out-{jobs}{}", layout.join(""));
            let mut args = vec!["bake", "--formats", "json,css,js", "--jobs", jobs];
            args.extend(["--out", out.as_str()]);
            args.extend(layout);
            let baked = curvebake(dir.path(), &args);
            let baked = account(&baked, &out);
            assert_eq!(baked.0, Some(1), "{}", baked.1);
            // The broken file, the invalid motion, then the one that cannot be baked.
            let errors: Vec<&str> = baked.1.lines().filter(|l| l.starts_with("error")).collect();
            assert_eq!(errors.len(), 3, "{}", baked.1);
            assert!(errors[0].contains("f03.ron"), "{}", baked.1);
            assert!(errors[1].contains("f09.ron: m9-20"), "{}", baked.1);
            assert!(errors[2].contains("f07.ron: m7-3"), "{}", baked.1);
            let written = outputs(&dir.path().join(&out));
            match &first {
                None => first = Some((baked, written)),
                Some((b, w)) => {
                    assert_eq!(&baked, b, "--jobs {jobs} reported otherwise than --jobs 1");
                    assert!(&written == w, "--jobs {jobs} wrote otherwise than --jobs 1");
                }
            }
        }
    }

    // After an edit, --check lists the same files in the same order, and the re-bakes agree.
    many_windows(dir.path(), 24, true);
    let mut first = None;
    for jobs in ["1", "2", "3"] {
        let out = format!("out-{jobs}");
        let args = [
            "bake",
            "--formats",
            "json,css,js",
            "--jobs",
            jobs,
            "--out",
            &out,
        ];
        let checked = account(
            &curvebake(dir.path(), &[&args[..], &["--check"]].concat()),
            &out,
        );
        assert!(
            checked.1.contains("differs: OUT/json/m5-7.json"),
            "{}",
            checked.1
        );
        let differ = checked
            .1
            .lines()
            .filter(|l| l.starts_with("differs: "))
            .count();
        let rebaked = account(&curvebake(dir.path(), &args), &out);
        let wrote = format!(": {differ} files written");
        assert!(rebaked.1.contains(&wrote), "{}\n{}", checked.1, rebaked.1);
        let written = outputs(&dir.path().join(&out));
        match &first {
            None => first = Some((checked, rebaked, written)),
            Some((c, r, w)) => {
                assert_eq!(&checked, c, "--check --jobs {jobs} differs from --jobs 1");
                assert_eq!(
                    &rebaked, r,
                    "a re-bake with --jobs {jobs} differs from --jobs 1"
                );
                assert!(
                    &written == w,
                    "a re-bake with --jobs {jobs} wrote otherwise"
                );
            }
        }
    }
}

#[test]
fn check_fails_on_a_stale_output_folder_and_passes_on_a_current_one() {
    let dir = examples();
    let missing = curvebake(dir.path(), &["bake", "--check"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(!dir.path().join("out").exists(), "--check wrote something");
    assert!(curvebake(dir.path(), &["bake"]).status.success());
    let current = curvebake(dir.path(), &["bake", "--check"]);
    assert!(current.status.success(), "{}", stderr(&current));
    fs::write(dir.path().join("out/json/card-drop.json"), "{}").unwrap();
    let stale = curvebake(dir.path(), &["bake", "--check"]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        stderr(&stale).contains("differs: out/json/card-drop.json"),
        "{}",
        stderr(&stale)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("out/json/card-drop.json")).unwrap(),
        "{}"
    );
}

#[test]
fn a_motion_that_fails_keeps_its_previous_outputs() {
    let dir = project(&[(
        "a.ron",
        r#"(name: "a", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 20))"#,
    )]);
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    let before = fs::read(dir.path().join("out/json/a.json")).unwrap();
    fs::write(
        dir.path().join("curves/a.ron"),
        r#"(name: "a", motion: Spring(from: 0, to: 1, stiffness: 0, damping: 20))"#,
    )
    .unwrap();
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("motion.Spring.stiffness must be > 0, got 0"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read(dir.path().join("out/json/a.json")).unwrap(),
        before
    );
}

/// A motion that validates but cannot be baked (too many frames) keeps its outputs and its
/// record while it fails, so that removing it later still removes its outputs.
#[test]
fn a_motion_that_fails_to_bake_keeps_its_record_until_it_is_removed() {
    let dir = springs(&["a", "b"]);
    let bake = || curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(bake().status.success());
    let too_long = r#"(name: "b", duration: 100000, motion: Spring(from: 0, to: 1, stiffness: 100, damping: 20))"#;
    fs::write(dir.path().join("curves/b.ron"), too_long).unwrap();
    let failing = bake();
    assert_eq!(failing.status.code(), Some(1), "{}", stderr(&failing));
    assert!(
        stderr(&failing).contains("more than the limit"),
        "{}",
        stderr(&failing)
    );
    assert!(dir.path().join("out/json/b.json").exists());
    let manifest = fs::read_to_string(dir.path().join("out/.curvebake-manifest.json")).unwrap();
    assert!(manifest.contains("\"json/b.json\""), "{manifest}");

    fs::remove_file(dir.path().join("curves/b.ron")).unwrap();
    let removed = bake();
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert!(!dir.path().join("out/json/b.json").exists());
    assert!(dir.path().join("out/json/a.json").exists());
}

#[test]
fn a_rerun_with_nothing_changed_writes_nothing() {
    let dir = examples();
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    let again = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(
        stderr(&again).contains(": 0 files written"),
        "{}",
        stderr(&again)
    );
}

fn spring_file(name: &str, stiffness: u32) -> String {
    format!(
        r#"(name: "{name}", motion: Spring(from: 0, to: 1, stiffness: {stiffness}, damping: 20))"#
    )
}

/// A project with one file per name, `<name>.ron`, each holding a spring of stiffness 100.
fn springs(names: &[&str]) -> tempfile::TempDir {
    let files: Vec<(String, String)> = names
        .iter()
        .map(|name| (format!("{name}.ron"), spring_file(name, 100)))
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    project(&files)
}

#[test]
fn an_edit_rebakes_only_the_motions_of_that_file() {
    let dir = springs(&["a", "b"]);
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    fs::write(dir.path().join("curves/b.ron"), spring_file("b", 150)).unwrap();
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    let err = stderr(&out);
    // b's table and the index change; a is skipped by its hash.
    assert!(
        err.contains("2 motions, ") && err.contains(": 2 files written"),
        "{err}"
    );
    let manifest = fs::read_to_string(dir.path().join("out/.curvebake-manifest.json")).unwrap();
    assert!(
        manifest.contains("\"json/a.json\"") && manifest.contains("\"json/b.json\""),
        "{manifest}"
    );
}

#[test]
fn a_bake_of_fewer_formats_keeps_the_others_while_every_motion_holds_and_removes_them_after() {
    let dir = springs(&["a", "b"]);
    let bake = |args: &[&str]| {
        let out = curvebake(dir.path(), &[&["bake"][..], args].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let there = |file: &str| dir.path().join("out").join(file).exists();
    let css_and_js = [
        "css/a.css",
        "css/b.css",
        "curves.css",
        "js/a.js",
        "js/b.d.ts",
        "js/index.js",
        "js/runtime.js",
        "js/package.json",
    ];
    bake(&["--formats", "json,css,js"]);
    // Nothing changed but the formats: the CSS and the modules still show a and b.
    let err = bake(&["--formats", "json"]);
    assert!(!err.contains("removed"), "{err}");
    for file in css_and_js {
        assert!(there(file), "{file} kept");
    }
    assert!(bake(&["--formats", "json", "--check"]).contains(": 0 files differ"));

    // b changes: the CSS and the package would show it as it was, so they go whole (a's
    // module kept without the runtime it imports would not load).
    fs::write(dir.path().join("curves/b.ron"), spring_file("b", 150)).unwrap();
    let check = curvebake(dir.path(), &["bake", "--formats", "json", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    let said = stderr(&check);
    assert!(
        said.contains("stale: ") && said.contains("(of a format this bake leaves out"),
        "{said}"
    );
    let err = bake(&["--formats", "json"]);
    assert!(
        err.contains("warning: removed ")
            && err.contains("a bake with those formats writes them again"),
        "{err}"
    );
    for file in css_and_js {
        assert!(!there(file), "{file} removed");
    }
    assert!(there("json/a.json") && there("json/b.json"));
    let listed = fs::read_to_string(dir.path().join("out/.curvebake-files")).unwrap();
    assert!(
        !listed.contains("css/"),
        "the list names no removed file: {listed}"
    );
    assert!(bake(&["--formats", "json", "--check"]).contains(": 0 files differ"));
    // A bake of every format writes them again.
    bake(&["--formats", "json,css,js"]);
    assert!(there("css/b.css") && there("js/index.js"));
    assert!(bake(&["--formats", "json,css,js", "--check"]).contains(": 0 files differ"));
}

#[test]
fn a_bake_of_fewer_formats_after_a_motion_is_gone_leaves_no_file_that_names_it() {
    let dir = springs(&["a", "b"]);
    let bake = |args: &[&str]| {
        let out = curvebake(dir.path(), &[&["bake"][..], args].concat());
        assert!(out.status.success(), "{}", stderr(&out));
    };
    bake(&["--formats", "json,js,html"]);
    fs::remove_file(dir.path().join("curves/b.ron")).unwrap();
    bake(&["--formats", "json"]);
    let out = dir.path().join("out");
    for file in ["js/b.js", "js/index.js", "index.html", "js/a.js"] {
        assert!(!out.join(file).exists(), "{file} removed");
    }
    assert!(out.join("json/a.json").exists());
}

/// A fresh clone has the committed outputs and their list, not the manifest: a bake of
/// fewer formats keeps the others, its motions unchanged (the list carries their content
/// hashes; it removed all 92 files of the examples).
#[test]
fn a_fresh_clones_bake_of_fewer_formats_keeps_the_committed_others() {
    let dir = springs(&["a", "b"]);
    assert!(curvebake(dir.path(), &["bake", "--formats", "json,css,js"])
        .status
        .success());
    for machine_local in [".curvebake-manifest.json", ".curvebake-digests"] {
        let _ = fs::remove_file(dir.path().join("out").join(machine_local));
    }
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("removed"), "{}", stderr(&out));
    for file in ["css/a.css", "curves.css", "js/a.js", "js/index.js"] {
        assert!(dir.path().join("out").join(file).exists(), "{file} kept");
    }
}

/// A bake with errors that leaves out formats once a motion changed removes them as a
/// clean one does: kept, they would show the motion as it was, and the next bake, with the
/// motion's new record, would think them right (the review page kept an old curve for good).
#[test]
fn a_bake_with_errors_of_fewer_formats_still_removes_the_others_once_a_motion_changed() {
    let dir = springs(&["a", "b"]);
    let bake = |args: &[&str]| curvebake(dir.path(), &[&["bake"][..], args].concat());
    assert!(bake(&["--formats", "json,css"]).status.success());
    fs::write(dir.path().join("curves/a.ron"), spring_file("a", 150)).unwrap();
    fs::write(dir.path().join("curves/b.ron"), "garbage(").unwrap();
    assert_eq!(bake(&["--formats", "json"]).status.code(), Some(1));
    assert!(!dir.path().join("out/curves.css").exists());
    fs::write(dir.path().join("curves/b.ron"), spring_file("b", 100)).unwrap();
    assert!(bake(&["--formats", "json"]).status.success());
    let check = bake(&["--formats", "json,css", "--check"]);
    assert!(stderr(&check).contains("differs: "), "{}", stderr(&check));
}

#[test]
fn an_edit_that_changes_no_motion_rewrites_only_the_manifest() {
    let dir = project(&[("a.ron", &spring_file("a", 100))]);
    let manifest = || fs::read_to_string(dir.path().join("out/.curvebake-manifest.json")).unwrap();
    assert!(curvebake(dir.path(), &["bake", "--formats", "json,css"])
        .status
        .success());
    let before = manifest();
    // The file's bytes change (so the no-change path is not taken), its motion does not.
    let edited = format!("// a comment\n{}", spring_file("a", 100));
    fs::write(dir.path().join("curves/a.ron"), edited).unwrap();
    let out = curvebake(dir.path(), &["bake", "--formats", "json,css"]);
    let err = stderr(&out);
    assert!(err.contains(": 0 files written"), "{err}");
    let after = manifest();
    let run = |m: &str| m.split("\"run\":").nth(1).unwrap()[..34].to_owned();
    assert_ne!(
        run(&before),
        run(&after),
        "the manifest records the new file"
    );
    assert_eq!(
        before.split("\"tool\"").next(),
        after.split("\"tool\"").next(),
        "and the same motion entries"
    );
}

/// The CSS stop count a bake reports (`CSS stops N -> M`), summed over the motions it exported.
fn css_stops_exported(err: &str) -> u64 {
    let (_, after) = err.split_once("CSS stops ").unwrap_or((err, "0 "));
    after.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn an_edit_exports_only_its_motions_and_copies_the_other_bundle_chunks() {
    let frames = |dir: &Path, name: &str| -> u64 {
        let table = fs::read_to_string(dir.join(format!("fresh/json/{name}.json")));
        let table: Value = serde_json::from_str(&table.unwrap()).unwrap();
        table["frames"].as_u64().unwrap()
    };
    for layout in [&[][..], &["--bundle"]] {
        let dir = springs(&["a", "b", "c"]);
        let bake = |extra: &[&str]| {
            let args = [&["bake", "--formats", "json,css"][..], layout, extra].concat();
            let out = curvebake(dir.path(), &args);
            assert!(out.status.success(), "{}", stderr(&out));
            stderr(&out)
        };
        bake(&[]);
        fs::write(dir.path().join("curves/b.ron"), spring_file("b", 150)).unwrap();
        let err = bake(&[]);
        bake(&["--out", "fresh"]);
        // Only b was exported again; a's and c's chunks came from the previous bundles: the
        // stops reported are b's easing's (counted in curves.css), from b's frames.
        let css = fs::read_to_string(dir.path().join("fresh/curves.css")).unwrap();
        let b = &css[css.find("--b-easing: linear(").unwrap()..];
        let b_stops = b[..b.find(')').unwrap()].matches(',').count() as u64 + 1;
        let after = err
            .split_once("CSS stops ")
            .unwrap()
            .1
            .split(' ')
            .nth(2)
            .unwrap();
        assert_eq!(after.parse::<u64>().unwrap(), b_stops, "{layout:?}: {err}");
        let only_b = css_stops_exported(&err);
        if layout.is_empty() {
            assert_eq!(only_b, frames(dir.path(), "b"), "{err}");
        }
        assert_eq!(
            outputs(&dir.path().join("out")),
            outputs(&dir.path().join("fresh")),
            "{layout:?}"
        );

        // A bundle edited by hand is not copied from: the next bake exports every motion and
        // repairs it. (The edit changes the length: a same-length edit is told apart by the
        // modification time alone, which may not have ticked since the bake.)
        let bundle = dir.path().join("out/curves.css");
        let edited = fs::read_to_string(&bundle)
            .unwrap()
            .replace("@keyframes a ", "@keyframes xx ");
        fs::write(&bundle, edited).unwrap();
        fs::write(dir.path().join("curves/c.ron"), spring_file("c", 150)).unwrap();
        let err = bake(&[]);
        bake(&["--out", "fresh"]);
        // Every motion was exported: more frames than b's alone.
        assert!(css_stops_exported(&err) > only_b, "{layout:?}: {err}");
        assert_eq!(
            outputs(&dir.path().join("out")),
            outputs(&dir.path().join("fresh")),
            "{layout:?}"
        );
    }
}

#[test]
fn a_motion_back_from_a_failing_file_is_exported_again_not_copied() {
    // While b.ron fails, the bundles are written without b, so its old chunk positions point
    // at other bytes: once fixed, b must be exported, not copied from there.
    let dir = springs(&["a", "b", "c"]);
    let bake = |out: &str| curvebake(dir.path(), &["bake", "--formats", "json,css", "--out", out]);
    assert!(bake("out").status.success());
    fs::write(
        dir.path().join("curves/b.ron"),
        "(name: \"b\", motion: Spring(",
    )
    .unwrap();
    assert_eq!(bake("out").status.code(), Some(1));
    fs::write(dir.path().join("curves/b.ron"), spring_file("b", 100)).unwrap();
    assert!(bake("out").status.success());
    assert!(bake("fresh").status.success());
    assert_eq!(
        outputs(&dir.path().join("out")),
        outputs(&dir.path().join("fresh"))
    );
}

#[test]
fn outputs_of_a_removed_motion_are_removed_and_nothing_else_is_touched() {
    let dir = springs(&["a", "b"]);
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    fs::write(dir.path().join("out/json/notes.txt"), "mine").unwrap();
    fs::remove_file(dir.path().join("curves/b.ron")).unwrap();
    let check = curvebake(dir.path(), &["bake", "--formats", "json", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stderr(&check).contains("stale: out/json/b.json"),
        "{}",
        stderr(&check)
    );
    let out = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(stderr(&out).contains("1 removed"), "{}", stderr(&out));
    assert!(!dir.path().join("out/json/b.json").exists());
    assert!(dir.path().join("out/json/a.json").exists());
    assert_eq!(
        fs::read_to_string(dir.path().join("out/json/notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_file_removed_while_it_failed_loses_its_outputs() {
    let dir = springs(&["a", "b"]);
    let bake = || curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(bake().status.success());
    fs::write(
        dir.path().join("curves/b.ron"),
        "(name: \"b\", motion: Spring(",
    )
    .unwrap();
    assert_eq!(bake().status.code(), Some(1));
    assert!(dir.path().join("out/json/b.json").exists());
    // Nothing else changed since the last bake, but b is gone now, not failing.
    fs::remove_file(dir.path().join("curves/b.ron")).unwrap();
    let out = bake();
    assert!(stderr(&out).contains("1 removed"), "{}", stderr(&out));
    assert!(!dir.path().join("out/json/b.json").exists());
}

#[test]
fn a_file_that_fails_keeps_the_outputs_of_its_motions() {
    let dir = project(&[("a.ron", &spring_file("a", 100))]);
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    fs::write(
        dir.path().join("curves/a.ron"),
        "(name: \"a\", motion: Spring(",
    )
    .unwrap();
    assert_eq!(
        curvebake(dir.path(), &["bake", "--formats", "json"])
            .status
            .code(),
        Some(1)
    );
    assert!(dir.path().join("out/json/a.json").exists());
}

#[test]
fn deleted_bundles_and_summaries_are_restored_by_a_rerun() {
    let dir = examples();
    assert!(curvebake(dir.path(), &["bake"]).status.success());
    let out = dir.path().join("out");
    let before = outputs(&out);
    for shared in ["curves.css", "curves.json", "index.html", "png/all.png"] {
        fs::remove_file(out.join(shared)).unwrap();
        let again = curvebake(dir.path(), &["bake"]);
        assert!(
            stderr(&again).contains(": 1 file written"),
            "{shared}: {}",
            stderr(&again)
        );
        assert_eq!(outputs(&out), before, "{shared}");
    }
}

#[test]
fn force_and_deleted_outputs_bypass_the_manifest() {
    let dir = project(&[("a.ron", &spring_file("a", 100))]);
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    fs::remove_file(dir.path().join("out/json/a.json")).unwrap();
    assert!(curvebake(dir.path(), &["bake", "--formats", "json"])
        .status
        .success());
    assert!(
        dir.path().join("out/json/a.json").exists(),
        "a deleted output is restored"
    );
    fs::write(dir.path().join("out/json/a.json"), "{}").unwrap();
    let forced = curvebake(dir.path(), &["bake", "--formats", "json", "--force"]);
    assert!(
        stderr(&forced).contains(": 1 file written"),
        "{}",
        stderr(&forced)
    );
    assert_ne!(
        fs::read_to_string(dir.path().join("out/json/a.json")).unwrap(),
        "{}"
    );
}

#[test]
fn new_outside_the_curves_folder_prints_commands_that_work_and_refuses_names_taken_in_curves() {
    let dir = project(&[(
        "drop.ron",
        r#"(name: "burst", motion: Spring(from: 0, to: 1))"#,
    )]);
    let root = dir.path();
    let taken = curvebake(root, &["new", "ring", "Burst", "--dir", "fx"]);
    assert_eq!(taken.status.code(), Some(1), "{}", stderr(&taken));
    assert!(stderr(&taken).contains("drop.ron: already holds a motion named \"burst\""));
    let written = curvebake(root, &["new", "ring", "ring-a", "--dir", "fx"]);
    assert!(written.status.success(), "{}", stderr(&written));
    let told = stderr(&written);
    assert!(
        told.contains("`curvebake bake fx`") && told.contains("`curvebake inspect fx/ring-a.ron`"),
        "{told}"
    );
    // The commands it printed work as printed.
    assert!(curvebake(root, &["inspect", "fx/ring-a.ron"])
        .status
        .success());
    assert!(curvebake(root, &["bake", "fx"]).status.success());
    let ring = std::fs::read_to_string(root.join("fx/ring-a.ron")).unwrap();
    assert!(
        !ring.contains("property:"),
        "rings ignore `property`:\n{ring}"
    );
}

#[test]
fn a_spring_with_every_field_left_out_takes_the_defaults_the_readme_lists() {
    let dir = project(&[("s.ron", r#"(name: "s", motion: Spring(from: 0, to: 100))"#)]);
    let root = dir.path();
    let inspected = curvebake(root, &["inspect", "--json", "s"]);
    assert!(inspected.status.success(), "{}", stderr(&inspected));
    let json = String::from_utf8_lossy(&inspected.stdout);
    let stiffness_170 = json.contains("\"stiffness\": 170.0") && json.contains("\"damping\": 26.0");
    assert!(stiffness_170, "{json}");
    let mixed = project(&[(
        "m.ron",
        r#"(name: "m", motion: Spring(from: 0, to: 1, stiffness: 100, perceptual_duration: 0.5))"#,
    )]);
    let err = curvebake(mixed.path(), &["bake"]);
    assert_eq!(err.status.code(), Some(1));
    assert!(
        stderr(&err).contains("needs exactly one form of parameters"),
        "{}",
        stderr(&err)
    );
}

#[test]
fn an_input_folder_without_curve_files_is_an_error_not_an_empty_bake() {
    let dir = project(&[]);
    let run = curvebake(dir.path(), &["bake"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("curves: no curve files (.ron) here"),
        "{}",
        stderr(&run)
    );
    assert!(!dir.path().join("out").exists(), "nothing written");
}

#[test]
fn curve_files_with_an_upper_case_extension_are_read() {
    let dir = project(&[(
        "Loud.RON",
        r#"(name: "loud", motion: Spring(from: 0, to: 1))"#,
    )]);
    let run = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(dir.path().join("out/json/loud.json").exists());
}

#[test]
fn formats_a_bundle_leaves_out_are_named_and_a_bundle_of_nothing_is_refused() {
    let dir = project(&[("a.ron", r#"(name: "a", motion: Spring(from: 0, to: 1))"#)]);
    let root = dir.path();
    let quiet = curvebake(root, &["bake", "--bundle"]);
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    assert!(
        !stderr(&quiet).contains("warning"),
        "the default formats: {}",
        stderr(&quiet)
    );
    let named = curvebake(root, &["bake", "--bundle", "--formats", "json,png,js"]);
    assert!(named.status.success(), "{}", stderr(&named));
    assert!(
        stderr(&named)
            .contains("warning: a bundle holds only JSON and CSS: png, js will not be written"),
        "{}",
        stderr(&named)
    );
    let nothing = curvebake(root, &["bake", "--bundle", "--formats", "png"]);
    assert_eq!(nothing.status.code(), Some(2), "{}", stderr(&nothing));
    assert!(
        stderr(&nothing).contains("a bundle holds only JSON and CSS"),
        "{}",
        stderr(&nothing)
    );
}

/// A motion whose frames span more than 10 s is named with a warning, whatever decided its
/// length: before, only one that rests that late was (a `duration` of 999.999 s at 1000 fps
/// wrote 73 MB without a word), and a motion that failed to bake was warned of too, beside its
/// error.
#[test]
fn a_motion_of_many_frames_is_named_with_a_warning_and_one_that_fails_is_not() {
    let dir = project(&[(
        "slow.ron",
        r#"[
            (name: "slow", motion: Friction(from: 0, velocity: 1800, friction: 0.9)),
            (name: "long-on-purpose", duration: 12, motion: Friction(from: 0, velocity: 1800, friction: 0.9)),
            (name: "fine-grained", fps: 1000, duration: 100.5, motion: Decay(from: 0, velocity: 100, lambda: 0.001)),
            (name: "just-under", fps: 1000, duration: 99.999, motion: Decay(from: 0, velocity: 100, lambda: 0.001)),
            (name: "quick", motion: Spring(from: 0, to: 1)),
            (name: "too-far", motion: Spring(from: 0, to: 1e300)),
        ]"#,
    )]);
    let run = curvebake(dir.path(), &["bake", "--formats", "json"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "too-far fails: {err}");
    assert!(err.contains("too-far: value position reaches"), "{err}");
    // A motion that rests late, and one whose asked length makes more than 100,000 frames;
    // not a 12 s motion asked for, nor one that failed.
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(
        warnings[0].starts_with("warning: curves/slow.ron: slow: comes to rest only after ")
            && warnings[0].contains(" frames: the JSON tables and the modules grow with them)"),
        "{err}"
    );
    assert!(
        warnings[1].starts_with(
            "warning: curves/slow.ron: fine-grained: lasts 100.5 s at 1000 fps (100501 frames: \
             the JSON tables and the modules grow with them); give it a shorter `duration`, or \
             a lower `fps`, if they should be smaller"
        ),
        "{err}"
    );
}

#[test]
fn a_tolerance_that_removes_an_overshoot_is_warned_about() {
    // button-release's bounce goes about 0.02 past 1: a tolerance of 0.5 taken as it is
    // (relative_tolerance 1: the whole range, 0.06568) flattens it; the default
    // relative bound (0.5 % of the range) keeps it, and says nothing.
    let flattened = r#"(name: "release", property: "scale", tolerance: 0.5, relative_tolerance: 1,
        motion: Spring(from: 0.94, to: 1, perceptual_duration: 0.35, bounce: 0.4))"#;
    let kept = r#"(name: "kept", property: "scale", tolerance: 0.05,
        motion: Spring(from: 0.94, to: 1, perceptual_duration: 0.35, bounce: 0.4))"#;
    let dir = project(&[("a.ron", flattened), ("b.ron", kept)]);
    let out = curvebake(dir.path(), &["bake", "--formats", "css"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    let path = Path::new("curves").join("a.ron");
    assert!(
        warnings[0].starts_with(&format!(
            "warning: {}: release: the CSS tolerance 0.06568 removes its overshoot of 0.0",
            path.display()
        )),
        "{}",
        warnings[0]
    );
    let css = fs::read_to_string(dir.path().join("out/css/release.css")).unwrap();
    // Within 0.5 of the spring, the played curve never goes past 1: the bounce is gone.
    let easing = css.split("--release-easing: linear(").nth(1).unwrap();
    let easing = easing.split(')').next().unwrap();
    assert!(
        easing
            .split(',')
            .all(|stop| stop.split(' ').next().unwrap().parse::<f64>().unwrap() <= 1.0),
        "{css}"
    );

    // Bakes that reuse the motion's outputs say it again: one that changes nothing, and one
    // that re-exports only the other motion.
    let again = |why: &str| {
        let out = curvebake(dir.path(), &["bake", "--formats", "css"]);
        assert!(out.status.success(), "{why}: {}", stderr(&out));
        let err = stderr(&out);
        let said: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
        assert_eq!(said, warnings, "{why}: {err}");
        err
    };
    assert!(again("nothing changed").contains(" 0 files written"));
    let changed = kept.replace("bounce: 0.4", "bounce: 0.3");
    fs::write(dir.path().join("curves/b.ron"), changed).unwrap();
    assert!(again("another motion changed").contains(" 1 unchanged"));
}

#[test]
fn css_frames_writes_keyframes_at_the_stops_for_browsers_without_linear() {
    let spring = r#"(name: "drop", property: "translateY", motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18))"#;
    let dir = project(&[("a.ron", spring)]);
    let out = curvebake(
        dir.path(),
        &["bake", "--formats", "json,css", "--css-frames"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let css = fs::read_to_string(dir.path().join("out/css/drop.css")).unwrap();
    let frames = table(dir.path(), "drop")["frames"].as_u64().unwrap() as usize;
    // A keyframe per fitted stop (within 0.1 px of the spring at every instant, fewer than
    // its frames), timed linearly; the easing is still there for transitions.
    let stops = css.matches("{ translate: 0 ").count();
    assert!(stops > 2 && stops < frames, "{stops} of {frames}: {css}");
    assert!(
        css.contains("animation: drop var(--drop-duration) linear backwards;"),
        "{css}"
    );
    assert!(css.contains("--drop-easing: linear(0,"), "{css}");
    let config = project(&[("a.ron", spring)]);
    fs::write(
        config.path().join("curvebake.toml"),
        "css_frames = true\nformats = [\"json\", \"css\"]\n",
    )
    .unwrap();
    let out = curvebake(config.path(), &["bake"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(config.path().join("out/css/drop.css")).unwrap(),
        css
    );
}

/// Two first bakes at once into a new folder, with other options (`make -j` on a fresh CI
/// runner): one waits for the other, then bakes; neither takes the other's files for the
/// user's. (Before, the one that waited compared the folder with its own options, found
/// every file different and stopped with exit 3, six times in eight.)
#[test]
fn two_first_bakes_at_once_into_a_new_folder_both_bake() {
    for _ in 0..4 {
        let dir = examples();
        let start = |fps: &str| {
            std::process::Command::new(env!("CARGO_BIN_EXE_curvebake"))
                .current_dir(dir.path())
                .args(["bake", "-q", "--formats", "json,css", "--fps", fps])
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (start("30"), start("90"));
        for child in [a, b] {
            let output = child.wait_with_output().unwrap();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
}

/// A repository commits its output folder with the list of its files (`.curvebake-files`),
/// not the manifest, which is one machine's. A fresh checkout then bakes after a motion is
/// added and another deleted upstream: the files the committed bake wrote are known to be
/// curvebake's (the bundles it changes are replaced), the deleted motion's are stale for
/// `--check` and removed by the bake. Without the list, the same checkout is refused, as a
/// folder of someone else's files would be.
#[test]
fn a_fresh_checkout_of_a_committed_output_folder_bakes_after_changes_upstream() {
    for with_list in [true, false] {
        let dir = examples();
        let root = dir.path();
        let baked = curvebake(root, &["bake", "-q", "--formats", "json,css"]);
        assert!(baked.status.success(), "{}", stderr(&baked));
        // The checkout: the committed files, without what is this machine's.
        let mut gone = vec![
            ".curvebake-manifest.json",
            ".curvebake-digests",
            ".curvebake-lock",
        ];
        if !with_list {
            gone.push(".curvebake-files");
        }
        for file in gone {
            let _ = fs::remove_file(root.join("out").join(file));
        }
        fs::remove_file(root.join("curves/fling.ron")).unwrap();
        fs::write(
            root.join("curves/new.ron"),
            "(name: \"brand-new\", motion: Spring(from: 0, to: 1, stiffness: 200, damping: 20))",
        )
        .unwrap();
        let check = curvebake(root, &["bake", "--check", "--formats", "json,css"]);
        assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
        let bake = curvebake(root, &["bake", "-q", "--formats", "json,css"]);
        if !with_list {
            assert_eq!(bake.status.code(), Some(3), "{}", stderr(&bake));
            continue;
        }
        assert!(
            stderr(&check).contains("stale: out/json/fling.json"),
            "{}",
            stderr(&check)
        );
        assert!(bake.status.success(), "{}", stderr(&bake));
        assert!(!root.join("out/json/fling.json").exists());
        assert!(root.join("out/json/brand-new.json").exists());
    }
}
