//! Reliability, rounds two (issue 16), three (issue 27, below the first) and four (the
//! eighteenth session's audit, last): what an adversary tried that once lost outputs, hung a
//! bake, ate memory or disk, or made the manifest vouch for what is not there. Each test
//! names the issue's item it covers.

use crate::common;

use common::project::{curvebake, project, stderr};
use std::fs;
use std::path::Path;

const CARD: &str =
    "(name: \"card\", motion: Spring(from: 0, to: 100, stiffness: 200, damping: 20))";
const FADE: &str =
    "(name: \"fade\", property: \"opacity\", duration: 0.3, motion: Decay(from: 0, to: 1, end_velocity: 0.5))";

/// Every path under `root`, relative, sorted.
fn listing(root: &Path) -> Vec<String> {
    common::project::snapshot(root)
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect()
}

/// Item 1: a failed bake keeps a motion's outputs however the input path is spelled.
#[test]
fn a_broken_file_keeps_its_outputs_whatever_the_spelling_of_the_input_path() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let absolute = root.join("curves").display().to_string();
    for spelling in [
        "./curves",
        absolute.as_str(),
        "curves//",
        "curves/../curves",
    ] {
        let baked = curvebake(root, &["bake", "curves"]);
        assert!(baked.status.success(), "{}", stderr(&baked));
        let before = listing(&root.join("out"));
        assert!(before.iter().any(|p| p.contains("card")), "{before:?}");
        fs::write(
            root.join("curves/card.ron"),
            "(name: \"card\", motion: Spring(",
        )
        .unwrap();
        let failed = curvebake(root, &["bake", spelling]);
        assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
        assert!(
            !stderr(&failed).contains("removed"),
            "{spelling}: {}",
            stderr(&failed)
        );
        assert_eq!(listing(&root.join("out")), before, "{spelling}");
        fs::write(root.join("curves/card.ron"), CARD).unwrap();
    }
}

/// Item 2: devices and FIFOs are refused by name, without hanging or reading forever, and the
/// rest still bakes (exit 1); `bake` and `inspect` of a device refuse it too.
#[cfg(unix)]
#[test]
fn devices_and_fifos_are_refused_and_the_rest_still_bakes() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    std::os::unix::fs::symlink("/dev/zero", root.join("curves/z.ron")).unwrap();
    let fifo = root.join("curves/p.ron");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let baked = curvebake(root, &["bake", "--formats", "json"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(started.elapsed().as_secs() < 30);
    assert!(
        text.contains("curves/z.ron: not a regular file (a character device)"),
        "{text}"
    );
    assert!(
        text.contains("curves/p.ron: not a regular file (a named pipe)"),
        "{text}"
    );
    assert!(root.join("out/json/card.json").is_file(), "{text}");

    let direct = curvebake(root, &["bake", "/dev/zero", "--formats", "json"]);
    assert_eq!(direct.status.code(), Some(1), "{}", stderr(&direct));
    assert!(stderr(&direct).contains("/dev/zero: not a regular file"));
    let inspected = curvebake(root, &["inspect", "/dev/zero"]);
    assert_eq!(inspected.status.code(), Some(1), "{}", stderr(&inspected));
    assert!(stderr(&inspected).contains("/dev/zero: not a regular file"));
}

/// Item 3: a generated batch of 10,000 motions in the README's style (1.5 MB) is read, while a
/// file beyond the limit is refused with its size and the limit, without being read.
#[test]
fn a_generated_design_system_is_read_and_the_limit_names_the_size() {
    let dir = tempfile::tempdir().unwrap();
    let motions: Vec<String> = (0..10_000)
        .map(|k| {
            format!(
                "    // Card {k} drops into place from above and settles with a small overshoot.\n    (\n        name: \"card-drop-{k}\",\n        property: \"translateY\",\n        motion: Spring(from: -240, to: 0, velocity: 0, mass: 1, stiffness: {}, damping: 18),\n    ),\n",
                200 + k % 50
            )
        })
        .collect();
    let text = format!("[\n{}]\n", motions.concat());
    assert!(text.len() > 1_400_000, "{}", text.len());
    let file = dir.path().join("system.ron");
    fs::write(&file, &text).unwrap();
    let (inputs, errors) = curvebake::internals::load::load_file(&file, Default::default());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(inputs.len(), 10_000);

    let huge = dir.path().join("huge.ron");
    let limit = curvebake::internals::load::MAX_INPUT_BYTES;
    fs::File::create(&huge).unwrap().set_len(limit + 1).unwrap();
    let error = curvebake::internals::load::read_source(&huge)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("huge.ron") && error.contains(&format!("file is {} bytes", limit + 1)),
        "{error}"
    );
    assert!(limit >= 16 << 20, "tens of MiB");
}

/// Item 4: a tiny input cannot make outputs grow beyond frames times a small constant: a
/// motion whose values reach 1e300 is an error that names the track, and one just inside the
/// limit writes no long numbers and no `Infinity` in its JS table.
#[test]
fn huge_magnitudes_are_refused_and_numbers_stay_short() {
    let dir = project(&[
        (
            "a.ron",
            "(name: \"a\", fps: 10, duration: 1, motion: Gravity(from: 0, velocity: 1e300, acceleration: 1e300))",
        ),
        (
            "b.ron",
            "(name: \"b\", fps: 10, duration: 1, motion: Gravity(from: 0, velocity: 9e8, acceleration: 0))",
        ),
    ]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "css,js,json,png"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(
        text.contains("curves/a.ron: a: value position reaches") && text.contains("limit"),
        "{text}"
    );
    assert!(!root.join("out/css/a.css").exists());
    for (path, bytes) in common::project::snapshot(&root.join("out")) {
        // The runtime of `play` holds no motion's numbers (and says `Infinity` for its own).
        if path.extension().is_some_and(|e| e == "png") || path.ends_with("js/runtime.js") {
            continue;
        }
        let text = String::from_utf8(bytes).unwrap();
        let longest = text
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
            .map(str::len)
            .max()
            .unwrap_or(0);
        assert!(
            longest < 40,
            "{}: a number of {longest} characters",
            path.display()
        );
        assert!(!text.contains("Infinity"), "{}", path.display());
    }
}

/// Item 5: a second bake of one output folder waits for the first (which holds the lock),
/// says so, and then bakes; `--check` waits too.
#[cfg(unix)]
#[test]
fn a_second_bake_of_one_folder_waits_for_the_first() {
    use std::os::fd::AsRawFd;
    use std::process::{Command, Stdio};
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let first = curvebake(root, &["bake", "--formats", "json"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let lock = fs::File::open(root.join("out/.curvebake-lock")).unwrap();
    // SAFETY: the descriptor is open.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) }, 0);
    let spawn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_curvebake"))
            .current_dir(root)
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut second = spawn(&["bake", "--formats", "json", "--fps", "50"]);
    let mut check = spawn(&["bake", "--formats", "json", "--fps", "50", "--check"]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        second.try_wait().unwrap().is_none(),
        "the second bake did not wait"
    );
    assert!(check.try_wait().unwrap().is_none(), "--check did not wait");
    drop(lock);
    let second = second.wait_with_output().unwrap();
    let text = stderr(&second);
    assert!(second.status.success(), "{text}");
    assert!(
        text.contains("waiting for another bake of out to finish"),
        "{text}"
    );
    // The check ran after the bake (it waited for the lock the bake took first) or before it;
    // either way a check now agrees with the folder.
    let _ = check.wait_with_output().unwrap();
    let check = curvebake(
        root,
        &["bake", "--formats", "json", "--fps", "50", "--check"],
    );
    assert!(check.status.success(), "{}", stderr(&check));
}

/// Item 6: after a bake that fails part way, the next bake still knows which files were ours:
/// `--check` reports those of a deleted motion as stale, and the bake removes them.
#[test]
fn outputs_of_deleted_motions_are_not_orphaned_by_a_failed_bake() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "json,css"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    assert!(root.join("out/json/fade.json").is_file());
    fs::remove_file(root.join("curves/fade.ron")).unwrap();
    fs::write(root.join("curves/card.ron"), CARD.replace("200", "300")).unwrap();
    // An obstacle where card's table goes: the bake fails writing it (exit 3).
    fs::remove_file(root.join("out/json/card.json")).unwrap();
    fs::create_dir_all(root.join("out/json/card.json/in-the-way")).unwrap();
    let failed = curvebake(root, &["bake", "--formats", "json,css"]);
    assert_eq!(failed.status.code(), Some(3), "{}", stderr(&failed));
    fs::remove_dir_all(root.join("out/json/card.json")).unwrap();

    let check = curvebake(root, &["bake", "--formats", "json,css", "--check"]);
    let text = stderr(&check);
    assert_eq!(check.status.code(), Some(1), "{text}");
    assert!(text.contains("stale: out/json/fade.json"), "{text}");
    let repaired = curvebake(root, &["bake", "--formats", "json,css"]);
    assert!(repaired.status.success(), "{}", stderr(&repaired));
    assert!(!root.join("out/json/fade.json").exists());
    assert!(!root.join("out/css/fade.css").exists());
}

/// Item 6, for motions new in the bake that fails: the files it wrote for them are claimed
/// before they are written, so after their source is deleted the next bake removes them, and
/// touches nothing of the user's. (A failure part way leaves what a kill does: the record of
/// the bake in progress and its claims; `faults.rs` kills real bakes.)
#[test]
fn outputs_of_new_motions_are_not_orphaned_by_a_failed_bake() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let out = root.join("out");
    let baked = curvebake(root, &["bake"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    // The user's own files in the output folder, one named like a motion's.
    let mine = [
        ("notes.txt", "mine"),
        ("css/site.css", "body {}"),
        ("json/new-c.json", "{}"),
    ];
    for (file, text) in mine {
        fs::write(out.join(file), text).unwrap();
    }
    let new = ["new-a", "new-b"].map(|n| CARD.replace("\"card\"", &format!("\"{n}\"")));
    fs::write(
        root.join("curves/new.ron"),
        format!("[{}]", new.join(",\n")),
    )
    .unwrap();
    fs::write(
        root.join("curves/wall.ron"),
        CARD.replace("\"card\"", "\"wall\""),
    )
    .unwrap();
    // An obstacle where wall's table goes: the bake writes the others' files, then fails.
    fs::create_dir_all(out.join("json/wall.json/in-the-way")).unwrap();
    let failed = curvebake(root, &["bake"]);
    assert_eq!(failed.status.code(), Some(3), "{}", stderr(&failed));
    let theirs = |name: &str| -> Vec<String> {
        let suffix = |f: &String| f.contains(&format!("/{name}."));
        listing(&out).into_iter().filter(suffix).collect()
    };
    assert_eq!(
        theirs("new-a"),
        [
            "css/new-a.css",
            "js/new-a.d.ts",
            "js/new-a.js",
            "json/new-a.json",
            "png/new-a.png"
        ],
        "the failed bake wrote the new motion's files"
    );
    // Wall's table was claimed but never written: it is not reported as stale or removed.
    fs::remove_dir_all(out.join("json/wall.json")).unwrap();
    fs::remove_file(root.join("curves/new.ron")).unwrap();
    fs::remove_file(root.join("curves/wall.ron")).unwrap();

    let check = curvebake(root, &["bake", "--check"]);
    let text = stderr(&check);
    assert_eq!(check.status.code(), Some(1), "{text}");
    assert!(text.contains("stale: out/png/new-b.png"), "{text}");
    assert!(text.contains("stale: out/css/wall.css"), "{text}");
    assert!(!text.contains("wall.json"), "{text}");
    let repaired = curvebake(root, &["bake"]);
    assert!(repaired.status.success(), "{}", stderr(&repaired));
    let gone = ["new-a", "new-b", "wall"]
        .iter()
        .all(|n| theirs(n).is_empty());
    assert!(gone, "{:?}", listing(&out));
    for (file, text) in mine {
        assert_eq!(fs::read_to_string(out.join(file)).unwrap(), text, "{file}");
        fs::remove_file(out.join(file)).unwrap();
    }
    let again = curvebake(root, &["bake", "--check"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(common::project::outputs(&out) == fresh(root, "ref", "json,css,js,png,html"));
}

/// Bakes `root/curves` into a fresh folder `name` and returns its outputs.
fn fresh(root: &Path, name: &str, formats: &str) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let baked = curvebake(root, &["bake", "--formats", formats, "--out", name]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    common::project::outputs(&root.join(name))
}

/// An edit of a manifest.
type Edit = dyn Fn(&mut serde_json::Value);

/// Item 7: a hand-edited manifest (a huge chunk length, chunk places swapped between motions,
/// garbage) is untrusted input: the bake neither aborts nor copies wrong bytes, but bakes
/// everything again.
#[test]
fn a_hand_edited_manifest_falls_back_to_a_full_bake() {
    let motions: Vec<String> = (0..6)
        .map(|k| {
            CARD.replace("card", &format!("card{k}"))
                .replace("200", &format!("2{k}0"))
        })
        .collect();
    let list = format!("[{}]", motions.join(",\n"));
    let dir = project(&[("cards.ron", &list)]);
    let root = dir.path();
    let manifest = root.join("out/.curvebake-manifest.json");
    let edits: [(&str, &Edit); 2] = [
        ("a huge chunk length", &|m| {
            m["motions"][1]["chunks"][0][1] = serde_json::json!(u64::MAX / 2);
        }),
        ("chunk places swapped", &|m| {
            let a = m["motions"][1]["chunks"].clone();
            let b = m["motions"][2]["chunks"].clone();
            let (sa, la) = (a[0][0].as_u64().unwrap(), a[0][1].as_u64().unwrap());
            let lb = b[0][1].as_u64().unwrap();
            // Still adjacent, still inside the bundle: only the lengths are traded.
            m["motions"][1]["chunks"][0] = serde_json::json!([sa, lb]);
            m["motions"][2]["chunks"][0] =
                serde_json::json!([sa + lb + (b[0][0].as_u64().unwrap() - sa - la), la]);
        }),
    ];
    for (what, edit) in edits {
        let _ = fs::remove_dir_all(root.join("out"));
        fs::write(root.join("curves/cards.ron"), &list).unwrap();
        let baked = curvebake(root, &["bake", "--formats", "json,css"]);
        assert!(baked.status.success(), "{}", stderr(&baked));
        let mut value: serde_json::Value =
            serde_json::from_slice(&fs::read(&manifest).unwrap()).unwrap();
        edit(&mut value);
        fs::write(&manifest, serde_json::to_vec(&value).unwrap()).unwrap();
        // One motion changes, so the others' chunks would be copied from the bundle.
        fs::write(
            root.join("curves/cards.ron"),
            list.replace("stiffness: 250", "stiffness: 251"),
        )
        .unwrap();
        let again = curvebake(root, &["bake", "--formats", "json,css"]);
        assert!(again.status.success(), "{what}: {}", stderr(&again));
        let _ = fs::remove_dir_all(root.join("ref"));
        assert!(
            common::project::outputs(&root.join("out")) == fresh(root, "ref", "json,css"),
            "{what}: the outputs differ from a fresh bake"
        );
    }
    // A manifest that is not one names no file as ours, but the list of files beside it
    // still does: the bake goes on.
    fs::write(&manifest, "{\"motions\": 7}").unwrap();
    let listed = curvebake(root, &["bake", "--formats", "json,css"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    // With neither read, no file is ours: the bake replaces none (issue 27, item 3) until
    // told to with `--force`, which then bakes everything afresh.
    fs::write(&manifest, "{\"motions\": 7}").unwrap();
    fs::write(root.join("out/.curvebake-files"), "[]").unwrap();
    let refused = curvebake(root, &["bake", "--formats", "json,css"]);
    assert_eq!(refused.status.code(), Some(3), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("--force"), "{}", stderr(&refused));
    let forced = curvebake(root, &["bake", "--formats", "json,css", "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    let _ = fs::remove_dir_all(root.join("ref"));
    assert!(common::project::outputs(&root.join("out")) == fresh(root, "ref", "json,css"));
}

/// Item 8: what a crash can leave (the record of a bake in progress in place, outputs cut to
/// nothing because their data never reached the disk) is repaired by the next bake, and the
/// manifest a bake leaves is whole (its checksum holds).
#[test]
fn a_bake_repairs_what_a_crash_left() {
    use curvebake::internals::manifest::Manifest;
    use curvebake::internals::write::OutputDir;
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let expected = fresh(root, "out", "json,css,html");
    let out = root.join("out");
    let manifest = Manifest::read(&out);
    assert!(
        !manifest.run.is_empty() && !manifest.check.is_empty(),
        "{manifest:?}"
    );
    manifest
        .in_progress(&OutputDir::create(&out).unwrap(), &[])
        .unwrap();
    for file in ["json/card.json", "css/fade.css", "curves.css", "index.html"] {
        fs::write(out.join(file), b"").unwrap();
    }
    let check = curvebake(root, &["bake", "--formats", "json,css,html", "--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let repaired = curvebake(root, &["bake", "--formats", "json,css,html"]);
    assert!(repaired.status.success(), "{}", stderr(&repaired));
    assert!(common::project::outputs(&out) == expected);
    let manifest = Manifest::read(&out);
    assert!(
        !manifest.run.is_empty(),
        "the repaired folder is trusted again"
    );
}

/// Item 9: in a list, a typo or a wrong type is that motion's error, at its line:column, and
/// the other motions are still baked; a syntax error that hides where motions end stops the
/// file.
#[test]
fn each_motion_of_a_list_has_its_own_field_errors() {
    let list = "[\n    (name: \"a\", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 10)),\n    (name: \"b\", motion: Spring(from: 0, to: 1, stifness: 100, damping: 10)),\n    (name: \"c\", motion: Spring(from: 0, to: \"one\", stiffness: 100, damping: 10)),\n    (name: \"d\", motion: Spring(from: 0, to: 1, stifness: 100, damping: 10)),\n    // a comment, with a comma\n    (name: \"e\", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 10)),\n]\n";
    let dir = project(&[
        ("list.ron", list),
        (
            "cut.ron",
            "[(name: \"f\", motion: Spring(from: 0, to: \"1)),]",
        ),
    ]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "json"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(
        text.contains("curves/list.ron:3:48: Unexpected field named `stifness`"),
        "{text}"
    );
    assert!(
        text.contains("curves/list.ron:4:44: Expected float"),
        "{text}"
    );
    assert!(
        text.contains("curves/list.ron:5:48: Unexpected field named `stifness`"),
        "{text}"
    );
    assert!(text.contains("curves/cut.ron:"), "{text}");
    assert!(text.contains(", 4 errors"), "{text}");
    for name in ["a", "e"] {
        assert!(
            root.join(format!("out/json/{name}.json")).is_file(),
            "{name}: {text}"
        );
    }
    for name in ["b", "c", "d", "f"] {
        assert!(
            !root.join(format!("out/json/{name}.json")).exists(),
            "{name}"
        );
    }
}

/// Item 10: a motion that fails keeps its last good chunk in `curves.css` (and with
/// `--bundle`, in `curves.json`), not only its own files.
#[test]
fn a_failing_motion_keeps_its_chunks_in_the_bundles() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    for layout in [&["--formats", "css,json"][..], &["--bundle"][..]] {
        let _ = fs::remove_dir_all(root.join("out"));
        fs::write(root.join("curves/card.ron"), CARD).unwrap();
        let args = |check: bool| {
            let mut args = vec!["bake"];
            args.extend_from_slice(layout);
            if check {
                args.push("--check");
            }
            args
        };
        let baked = curvebake(root, &args(false));
        assert!(baked.status.success(), "{}", stderr(&baked));
        let css = fs::read_to_string(root.join("out/curves.css")).unwrap();
        assert!(css.contains("@keyframes card"), "{css}");
        // A typo, then a motion that cannot be baked: card keeps its chunk both times, and
        // again in the bake after that.
        for broken in [
            CARD.replace("stiffness", "stifness"),
            CARD.replace("to: 100", "to: 1e300"),
            CARD.replace("stiffness", "stifness"),
        ] {
            fs::write(root.join("curves/card.ron"), &broken).unwrap();
            let failed = curvebake(root, &args(false));
            assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
            let css = fs::read_to_string(root.join("out/curves.css")).unwrap();
            assert!(css.contains("@keyframes card"), "{layout:?}: {css}");
            assert!(css.contains("@keyframes fade"), "{layout:?}: {css}");
            if layout == ["--bundle"] {
                let json = fs::read_to_string(root.join("out/curves.json")).unwrap();
                assert!(json.contains("\"card\""), "{json}");
            }
            // A check agrees with that bake: it keeps the same chunks (it said the bundles
            // differed, and to bake again, which changed nothing).
            let check = curvebake(root, &args(true));
            assert!(
                stderr(&check).contains(": 0 files differ"),
                "{layout:?}: {}",
                stderr(&check)
            );
        }
        fs::write(root.join("curves/card.ron"), CARD).unwrap();
        let fixed = curvebake(root, &args(false));
        assert!(fixed.status.success(), "{}", stderr(&fixed));
        let check = curvebake(root, &args(true));
        assert!(check.status.success(), "{}", stderr(&check));
    }
}

/// Item 10, the files describing the whole bake: a motion that fails keeps its last good card
/// in `index.html` (the very bytes) and its entry in the `curves.json` index, after the motions
/// that baked, as its chunk in `curves.css`; through a second failing bake too; the failing
/// bake's files are byte-identical whatever the thread count; an edited annex is not read.
#[test]
fn a_failing_motion_keeps_its_card_and_its_index_entry() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let out = root.join("out");
    let read = |path: &str| fs::read_to_string(out.join(path)).unwrap();
    let card_of = |page: &str, name: &str| -> Option<String> {
        let start = page.find(&format!("<article id=\"motion-{name}\""))?;
        let end = start + page[start..].find("</article>").unwrap();
        Some(page[start..end].to_owned())
    };
    let order = |text: &str, marks: [&str; 2]| -> Vec<usize> {
        marks.iter().map(|m| text.find(m).unwrap()).collect()
    };
    let baked = curvebake(root, &["bake"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    let good = card_of(&read("index.html"), "card").unwrap();
    // The page's totals ("2 motions, N frames") of the good bake, which the failing one keeps.
    let totals = |page: &str| -> String {
        let start = page
            .find("2 motions, ")
            .expect("the page counts both motions");
        let end = start + page[start..].find(" frames").unwrap();
        page[start..end].to_owned()
    };
    let good_totals = totals(&read("index.html"));

    fs::write(
        root.join("curves/card.ron"),
        CARD.replace("stiffness", "stifness"),
    )
    .unwrap();
    let before = common::project::snapshot(&out);
    let mut bakes = Vec::new();
    for jobs in ["1", "3"] {
        fs::remove_dir_all(&out).unwrap();
        for (path, bytes) in &before {
            fs::create_dir_all(out.join(path).parent().unwrap()).unwrap();
            fs::write(out.join(path), bytes).unwrap();
        }
        let failed = curvebake(root, &["bake", "--jobs", jobs]);
        assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
        bakes.push(common::project::outputs(&out));
    }
    assert!(bakes[0] == bakes[1], "the failing bake depends on --jobs");
    for round in 0..2 {
        let page = read("index.html");
        assert_eq!(
            card_of(&page, "card").as_deref(),
            Some(&*good),
            "round {round}"
        );
        assert_eq!(totals(&page), good_totals, "round {round}");
        let cards = order(&page, ["id=\"motion-fade\"", "id=\"motion-card\""]);
        let index = read("curves.json");
        let entries = order(&index, ["\"name\":\"fade\"", "\"name\":\"card\""]);
        let css = read("curves.css");
        let chunks = order(&css, ["@keyframes fade", "@keyframes card"]);
        for places in [cards, entries, chunks] {
            assert!(places[0] < places[1], "round {round}: {index}");
        }
        let again = curvebake(root, &["bake"]);
        assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    }
    // The annex the card is kept in is untrusted like the manifest: edited, it is not read.
    let annex = out.join(".curvebake-digests");
    let mut edited = fs::read(&annex).unwrap();
    edited[10] ^= 1;
    fs::write(&annex, edited).unwrap();
    let untrusted = curvebake(root, &["bake"]);
    assert_eq!(untrusted.status.code(), Some(1), "{}", stderr(&untrusted));
    let page = read("index.html");
    assert!(card_of(&page, "card").is_none() && page.contains("1 motion, 19 frames"));

    fs::write(root.join("curves/card.ron"), CARD).unwrap();
    let fixed = curvebake(root, &["bake"]);
    assert!(fixed.status.success(), "{}", stderr(&fixed));
    let page = read("index.html");
    assert_eq!(card_of(&page, "card").as_deref(), Some(&*good));
    let cards = order(&page, ["id=\"motion-card\"", "id=\"motion-fade\""]);
    assert!(cards[0] < cards[1]);
    let check = curvebake(root, &["bake", "--check"]);
    assert!(check.status.success(), "{}", stderr(&check));
}

/// Item 11: an unreadable subfolder is an input error (exit 1), its motions keep their outputs
/// and the other folders still bake; a symbolic link to a folder is followed, and a loop is an
/// error naming it.
#[cfg(unix)]
#[test]
fn unreadable_and_linked_subfolders() {
    use std::os::unix::fs::PermissionsExt;
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    fs::create_dir(root.join("curves/more")).unwrap();
    fs::write(root.join("curves/more/fade.ron"), FADE).unwrap();
    let linked = tempfile::tempdir().unwrap();
    fs::write(
        linked.path().join("toss.ron"),
        CARD.replace("\"card\"", "\"toss\""),
    )
    .unwrap();
    std::os::unix::fs::symlink(linked.path(), root.join("curves/linked")).unwrap();
    let baked = curvebake(root, &["bake", "--formats", "json"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    assert!(
        root.join("out/json/toss.json").is_file(),
        "a linked folder is followed"
    );
    assert!(root.join("out/json/fade.json").is_file());

    fs::set_permissions(root.join("curves/more"), fs::Permissions::from_mode(0o000)).unwrap();
    let readable = fs::read_dir(root.join("curves/more")).is_ok(); // true when run as root
    std::os::unix::fs::symlink(root.join("curves"), linked.path().join("back")).unwrap();
    let failed = curvebake(root, &["bake", "--formats", "json"]);
    fs::set_permissions(root.join("curves/more"), fs::Permissions::from_mode(0o755)).unwrap();
    let text = stderr(&failed);
    assert_eq!(failed.status.code(), Some(1), "{text}");
    assert!(
        text.contains("curves/linked/back: a symbolic link loop"),
        "{text}"
    );
    if !readable {
        assert!(
            text.contains("curves/more: cannot search this folder"),
            "{text}"
        );
    }
    for name in ["card", "fade", "toss"] {
        assert!(
            root.join(format!("out/json/{name}.json")).is_file(),
            "{name}: {text}"
        );
    }
}

/// A chain of folders each holding two symbolic links to the next (no loop) was searched
/// 2^depth times: depth 18 took 9 s and gave 262,143 "name is already used" errors for the one
/// file at the bottom. Each folder is searched once and each file is one input, however many
/// links (or hard links) reach it.
#[cfg(unix)]
#[test]
fn folders_shared_by_links_are_searched_once_and_each_file_baked_once() {
    use std::os::unix::fs::symlink;
    let depth = 14;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..=depth {
        let folder = root.join(format!("d{i}"));
        fs::create_dir(&folder).unwrap();
        let motion = CARD.replace("\"card\"", &format!("\"m{i}\""));
        fs::write(folder.join(format!("m{i}.ron")), motion).unwrap();
        if i > 0 {
            symlink(format!("../d{i}"), root.join(format!("d{}/a", i - 1))).unwrap();
            symlink(format!("../d{i}"), root.join(format!("d{}/b", i - 1))).unwrap();
        }
    }
    let bottom = root.join(format!("d{depth}"));
    symlink(format!("m{depth}.ron"), bottom.join("z-link.ron")).unwrap();
    fs::hard_link(
        bottom.join(format!("m{depth}.ron")),
        bottom.join("z-hard.ron"),
    )
    .unwrap();

    let baked = curvebake(root, &["bake", "d0", "--formats", "json"]);
    let text = stderr(&baked);
    assert!(baked.status.success(), "{text}");
    assert!(!text.contains("already used"), "{text}");
    assert!(
        text.contains(&format!("{} motions,", depth + 1)),
        "one motion a folder: {text}"
    );
    let tables = fs::read_dir(root.join("out/json")).unwrap().count();
    assert_eq!(tables, depth + 1);
}

/// The review page of 748,123 small springs asked for 4.6 GB up front and the bake aborted;
/// 100,000 made a page of 348 MB, silently. The page shows the first
/// `MAX_PAGE_MOTIONS` motions, and the bake says once how many it left out (also a bake that
/// finds nothing changed); the other outputs have them all.
#[test]
fn the_review_page_of_a_large_bake_shows_the_first_motions_and_warns_once() {
    use curvebake::internals::export::html::MAX_PAGE_MOTIONS;
    let count = MAX_PAGE_MOTIONS + 1;
    let motions: String = (0..count)
        .map(|i| format!("(name: \"m{i}\", motion: Spring(from: 0, to: 1)),\n"))
        .collect();
    let dir = project(&[("many.ron", &format!("[\n{motions}]\n"))]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "json,html"]);
    let text = stderr(&baked);
    assert!(baked.status.success(), "{text}");
    let warned: Vec<&str> = text.lines().filter(|l| l.contains("index.html")).collect();
    assert_eq!(warned.len(), 1, "{text}");
    assert!(
        warned[0].starts_with("warning: index.html: shows the first")
            && warned[0].contains(&format!("motions of {count} and leaves out the other 1 "))
            && warned[0].contains("the other formats of this bake have them all"),
        "{text}"
    );
    let page = fs::read_to_string(root.join("out/index.html")).unwrap();
    assert_eq!(
        page.matches("<article id=\"motion-").count(),
        MAX_PAGE_MOTIONS
    );
    assert!(page.contains(&format!("the first {MAX_PAGE_MOTIONS} shown, 1 left out")));
    let last = format!("<article id=\"motion-m{}\"", count - 1);
    assert!(!page.contains(&last), "the last one is left out");
    assert_eq!(fs::read_dir(root.join("out/json")).unwrap().count(), count);
    // A bake again with nothing changed says it again (it said nothing, the page still short).
    let again = curvebake(root, &["bake", "--formats", "json,html"]);
    let again_text = stderr(&again);
    let said: Vec<&str> = again_text
        .lines()
        .filter(|l| l.contains("index.html"))
        .collect();
    assert_eq!(said, warned, "{again_text}");
}

/// Waits a little longer than a debounce and the watcher's idle check.
fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(1500));
}

/// Item 12: after its input folder is deleted and made again, `watch` bakes it again.
#[test]
fn watch_picks_up_an_input_folder_made_again() {
    use crate::everyday::Watcher;
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let mut watch = Watcher::start(root, &["--formats", "json"]);
    watch.wait_for("the first bake", |w| w.bakes() >= 1);
    fs::remove_dir_all(root.join("curves")).unwrap();
    settle();
    fs::create_dir(root.join("curves")).unwrap();
    fs::write(root.join("curves/fade.ron"), FADE).unwrap();
    watch.wait_for("fade baked", |_| root.join("out/json/fade.json").is_file());
    let before = watch.bakes();
    fs::write(root.join("curves/card.ron"), CARD).unwrap();
    watch.wait_for("card baked", |w| {
        w.bakes() > before && root.join("out/json/card.json").is_file()
    });
}

/// Item 13: with the inputs inside the output folder, edits to them are baked, and what a
/// bake writes there does not start another bake.
#[test]
fn watch_sees_inputs_inside_the_output_folder_and_not_its_own_outputs() {
    use crate::everyday::Watcher;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("site/curves")).unwrap();
    fs::write(root.join("site/curves/card.ron"), CARD).unwrap();
    let mut watch = Watcher::start(
        root,
        &["site/curves", "--out", "site", "--formats", "json,css"],
    );
    watch.wait_for("the first bake", |w| w.bakes() >= 1);
    settle();
    assert_eq!(
        watch.bakes(),
        1,
        "its own outputs started a bake: {:?}",
        watch.lines()
    );
    fs::write(root.join("site/curves/fade.ron"), FADE).unwrap();
    watch.wait_for("fade baked", |_| root.join("site/json/fade.json").is_file());
    settle();
    assert_eq!(watch.bakes(), 2, "{:?}", watch.lines());
}

/// Item 14: editors' temporary files (a swap file, a lock, a backup, an extensionless file
/// written and deleted) neither start a bake nor are read as inputs.
#[test]
fn watch_ignores_editors_temporary_files() {
    use crate::everyday::Watcher;
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let mut watch = Watcher::start(root, &["--formats", "json"]);
    watch.wait_for("the first bake", |w| w.bakes() >= 1);
    settle();
    let curves = root.join("curves");
    fs::write(curves.join(".card.ron.swp"), "swap").unwrap();
    fs::write(curves.join("card.ron~"), "backup").unwrap();
    fs::write(curves.join("#card.ron#"), "autosave").unwrap();
    fs::write(curves.join(".#card.ron"), "lock").unwrap();
    fs::write(curves.join("4913"), "").unwrap();
    fs::remove_file(curves.join("4913")).unwrap();
    settle();
    assert_eq!(watch.bakes(), 1, "{:?}", watch.lines());
    let baked = curvebake(root, &["bake", "--formats", "json", "--check"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
}

/// Item 15: a closed stderr (`2>&1 | head -1` with much to say) does not panic: the bake
/// exits with its own status.
#[test]
fn a_closed_stderr_does_not_panic() {
    use std::process::{Command, Stdio};
    let motions: Vec<String> = (0..1000)
        .map(|k| {
            format!("(name: \"m{k}\", motion: Spring(from: 0, to: 1, stifness: 100, damping: 10))")
        })
        .collect();
    let dir = project(&[("many.ron", &format!("[{}]", motions.join(",\n")))]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .current_dir(dir.path())
        .args(["bake", "--formats", "json", "--check"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status}");
}

/// Item 16 (the messages that blamed the wrong thing, where fixed): `--check` says which
/// files are stale instead of "removed"; a reserved name names the contact sheet's real path;
/// the caret stands under the column after wide characters.
#[test]
fn messages_blame_the_right_thing() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "json"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    fs::remove_file(root.join("curves/fade.ron")).unwrap();
    let check = curvebake(root, &["bake", "--formats", "json", "--check"]);
    let text = stderr(&check);
    assert!(
        text.contains(", 1 stale") && !text.contains("removed"),
        "{text}"
    );

    fs::write(
        root.join("curves/fade.ron"),
        FADE.replace("\"fade\"", "\"All\""),
    )
    .unwrap();
    fs::write(
        root.join("curves/wide.ron"),
        "(name: \"wide\", property: \"translateY\", unit: \"px\", /* 日本語 */ motion: Sprung())",
    )
    .unwrap();
    let failed = curvebake(root, &["bake", "--formats", "json"]);
    let text = stderr(&failed);
    assert!(text.contains("\"All\" is reserved: png/all.png"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("wide.ron:1:"))
        .unwrap();
    // Under `Sprung`: the line's text before it, with the three wide characters taking two
    // cells each.
    let source = lines[at + 1];
    let caret = lines[at + 2];
    let before = &source[..source.find("Sprung").unwrap()];
    let cells = before.chars().count() + 3;
    assert_eq!(caret.find('^'), Some(cells), "{text}");

    // Gravity with acceleration 1e308 reaches `to` (2·a·d no longer overflows into "never
    // reaches"); what is wrong is its speed, said with a readable time.
    fs::write(
        root.join("curves/g.ron"),
        "(name: \"g\", motion: Gravity(from: 0, to: 100, acceleration: 1e308))",
    )
    .unwrap();
    let failed = curvebake(root, &["bake", "--formats", "json"]);
    let text = stderr(&failed);
    assert!(!text.contains("never reaches"), "{text}");
    assert!(
        text.contains(
            "g: value velocity reaches 1.4142135623730947e155 at t = 1.4142135623730948e-153 s"
        ),
        "{text}"
    );
}

/// Items 17 and 18: `--jobs` beyond 256 is a usage error, at once; `--check --out` naming a
/// file is a usage error (exit 2) that says why.
#[test]
fn too_many_jobs_and_a_file_for_out_are_usage_errors() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let jobs = curvebake(root, &["bake", "--jobs", "16000"]);
    assert_eq!(jobs.status.code(), Some(2), "{}", stderr(&jobs));
    assert!(stderr(&jobs).contains("--jobs"), "{}", stderr(&jobs));
    let options = curvebake::BakeOptions {
        inputs: vec![root.join("curves")],
        out: root.join("out"),
        jobs: Some(16_000),
        ..Default::default()
    };
    let error = curvebake::Bake::from(options).run().unwrap_err();
    assert!(error.to_string().contains("at most 256"), "{error}");

    fs::write(root.join("notes.txt"), "notes").unwrap();
    let check = curvebake(root, &["bake", "--check", "--out", "notes.txt"]);
    let text = stderr(&check);
    assert_eq!(check.status.code(), Some(2), "{text}");
    assert!(
        text.contains("notes.txt: --out names a file, not an output folder"),
        "{text}"
    );
}

/// The adversary's sixth round: an `--out` that goes up (`..`) out of folders that do not
/// exist made them, outside the output folder; a device is no folder to write under either
/// (both usage errors, exit 2, nothing made).
#[test]
fn an_out_through_missing_folders_or_a_device_is_a_usage_error() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let up = curvebake(root, &["bake", "--out", "a/b/c/../../d"]);
    let text = stderr(&up);
    assert_eq!(up.status.code(), Some(2), "{text}");
    assert!(
        text.contains("--out goes up (`..`) out of a/b/c, which does not exist"),
        "{text}"
    );
    assert!(!root.join("a").exists());
    fs::create_dir_all(root.join("a/b/c")).unwrap();
    let through = curvebake(root, &["bake", "--out", "a/b/c/../../d"]);
    assert!(through.status.success(), "{}", stderr(&through));
    assert!(root.join("a/d/css/card.css").is_file());
    let device = curvebake(root, &["bake", "--out", "/dev/null/x"]);
    let text = stderr(&device);
    assert_eq!(device.status.code(), Some(2), "{text}");
    assert!(
        text.contains("--out lies under the file /dev/null"),
        "{text}"
    );
}

// Round three: issue 27.

/// Issue 27, item 7: a `Sequence` nested 1,500 deep is an error naming the file (no stack
/// overflow), and the valid file beside it is baked.
#[test]
fn a_sequence_nested_deep_is_an_error_and_the_rest_bakes() {
    let mut motion = "Spring(from: 0, to: 1)".to_owned();
    for _ in 0..1500 {
        motion = format!("Sequence([(motion: {motion})])");
    }
    let deep = format!("(name: \"deep\", motion: {motion})");
    let dir = project(&[("card.ron", CARD), ("deep.ron", &deep)]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "json"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(
        text.contains("curves/deep.ron:1:") && text.contains("nested more than"),
        "{text}"
    );
    assert!(root.join("out/json/card.json").is_file(), "{text}");
    let inspected = curvebake(root, &["inspect", "curves/deep.ron"]);
    assert_eq!(inspected.status.code(), Some(1), "{}", stderr(&inspected));
}

/// Issue 27, item 9: a list on one line with an error in every motion keeps, per error, only
/// a window of the line around its column, however long the line; the status document the
/// review page polls stays small alike.
#[cfg(feature = "watch")]
#[test]
fn errors_in_one_long_line_keep_only_a_window_of_it() {
    use curvebake::internals::error::Problem;
    let motions: Vec<String> = (0..3000)
        .map(|k| format!("(name: \"m{k}\", motion: Spring(from: 0, to: 1, stifness: 100))"))
        .collect();
    let text = format!("[{}]", motions.join(", "));
    assert!(text.len() > 150_000);
    let file = Path::new("one-line.ron");
    let curvebake::internals::load::Loaded { inputs, errors, .. } =
        curvebake::internals::load::load_bytes(file, text.as_bytes(), Default::default());
    assert!(inputs.is_empty());
    assert_eq!(errors.len(), 3000);
    for (k, error) in errors.iter().enumerate() {
        let Problem::Syntax {
            line,
            col,
            source_line,
            ..
        } = &error.problem
        else {
            panic!("{error}")
        };
        assert_eq!(*line, 1);
        assert!(source_line.chars().count() <= 160, "{}", source_line.len());
        // The caret stands under the misspelt field of motion k.
        let shown = error.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        let caret = lines[2].find('^').unwrap() - lines[1].find("| ").unwrap();
        let at = &lines[1][lines[1].find("| ").unwrap() + caret..];
        assert!(at.starts_with("stifness"), "{k} at {col}: {shown}");
    }
    let report = curvebake::Report {
        errors,
        ..Default::default()
    };
    let status = curvebake::internals::serve::status_json(1, &Ok(report), None);
    // About a kilobyte an error (the window twice, the message), not the line's 150 KB.
    assert!(status.len() < 3000 * 2000, "{} bytes", status.len());
}

/// Issue 27, items 11 and 16 (and round four's `runtime`): motion names that would clash with
/// the JS package's own files (`index`, `motion`, `runtime`) or that Windows reads as devices are refused, naming why; the other
/// motions bake, and `--check` passes after the bake.
#[test]
fn names_of_generated_files_and_windows_devices_are_refused() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    for name in [
        "index", "Motion", "Runtime", "con", "NUL", "aux", "Com1", "lpt9", "prn",
    ] {
        fs::write(
            root.join(format!("curves/{}.ron", name.to_lowercase())),
            CARD.replace("\"card\"", &format!("\"{name}\"")),
        )
        .unwrap();
    }
    let baked = curvebake(root, &["bake"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(
        text.contains("\"index\" is reserved: js/index.js"),
        "{text}"
    );
    assert!(
        text.contains("\"Motion\" is reserved: js/motion.d.ts"),
        "{text}"
    );
    // Round four: the runtime of `play` (it was silently taken for the motion's module).
    assert!(
        text.contains("\"Runtime\" is reserved: js/runtime.js"),
        "{text}"
    );
    for name in ["con", "NUL", "aux", "Com1", "lpt9", "prn"] {
        assert!(
            text.contains(&format!("\"{name}\" is reserved: Windows")),
            "{name}: {text}"
        );
    }
    let check = curvebake(root, &["bake", "--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(
        stderr(&check).contains(" 0 files differ"),
        "{}",
        stderr(&check)
    );
    let new = curvebake(root, &["new", "spring", "index"]);
    assert_eq!(new.status.code(), Some(2), "{}", stderr(&new));
}

/// Issue 27, item 12: a custom property that another motion's CSS makes (`--b-duration`, a
/// ring's radius), or that another motion animates in a unit of another kind, is refused
/// with the names of both motions; one animated alike by two motions is fine.
#[test]
fn custom_properties_that_clash_are_refused_with_both_motions() {
    let b = "(name: \"b\", motion: Spring(from: 0, to: 100))";
    let takes =
        "(name: \"a\", property: \"--b-duration\", unit: \"px\", motion: Spring(from: 0, to: 100))";
    let ring = "(name: \"r\", duration: 0.5, motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15)))";
    let inner = "(name: \"z\", property: \"--r-inner\", motion: Spring(from: 0, to: 1))";
    let glow_px =
        "(name: \"glow-px\", property: \"--glow\", unit: \"px\", motion: Spring(from: 0, to: 10))";
    let glow_em =
        "(name: \"glow-em\", property: \"--glow\", unit: \"em\", motion: Spring(from: 0, to: 1))";
    let glow_deg = "(name: \"glow-deg\", property: \"--glow\", unit: \"deg\", motion: Spring(from: 0, to: 90))";
    let dir = project(&[
        ("1.ron", takes),
        ("2.ron", b),
        ("3.ron", ring),
        ("4.ron", inner),
        ("5.ron", glow_px),
        ("6.ron", glow_em),
        ("7.ron", glow_deg),
    ]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "css"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    // `b` comes after `a`, whose property is b's duration: b's name is what clashes.
    assert!(
        text.contains("curves/2.ron: b: name, which makes --b-duration (its duration), clashes with motion \"a\" (in curves/1.ron), which animates it in px"),
        "{text}"
    );
    assert!(
        text.contains("curves/4.ron: z: property \"--r-inner\" as a number clashes with motion \"r\" (in curves/3.ron), which makes it (its inner radius)"),
        "{text}"
    );
    assert!(
        text.contains("curves/7.ron: glow-deg: property \"--glow\" in deg clashes with motion \"glow-px\" (in curves/5.ron), which animates it in px"),
        "{text}"
    );
    assert!(!text.contains("glow-em"), "{text}");
    // A motion's own property named like its own duration.
    fs::write(
        root.join("curves/8.ron"),
        "(name: \"own\", property: \"--own-duration\", motion: Spring(from: 0, to: 1))",
    )
    .unwrap();
    let own = curvebake(root, &["bake", "--formats", "css"]);
    assert!(
        stderr(&own).contains("curves/8.ron: own: property \"--own-duration\" as a number clashes with motion \"own\", which makes it (its duration)"),
        "{}",
        stderr(&own)
    );
    assert!(root.join("out/css/glow-em.css").is_file());
    assert!(!root.join("out/css/b.css").exists());
}

/// Issue 27, item 15: a frame rate below one a second, or a duration beyond the limit, is
/// refused by field, with short numbers.
#[test]
fn tiny_frame_rates_and_huge_durations_are_refused() {
    let dir = project(&[
        ("a.ron", "(name: \"a\", fps: 1e-300, motion: Spring(from: 0, to: 1))"),
        ("b.ron", "(name: \"b\", duration: 1e300, motion: Gravity(from: 0, acceleration: 10))"),
        ("c.ron", "(name: \"c\", fps: 5e-324, motion: Spring(from: 0, to: 1))"),
        ("d.ron", "(name: \"d\", motion: Sequence([(motion: Spring(from: 0, to: 1), duration: 1e300), (motion: Spring(to: 0))]))"),
    ]);
    let root = dir.path();
    let baked = curvebake(root, &["bake", "--formats", "json,css"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(
        text.contains("a: fps must be in [1, 1000] frames per second, got 1e-300"),
        "{text}"
    );
    assert!(
        text.contains("b: duration must be at most 1000000 s, got 1e300"),
        "{text}"
    );
    assert!(
        text.contains("d: motion.Sequence[0].duration must be at most"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.len() < 200), "{text}");
    assert!(!root.join("out/json").exists(), "{text}");
    let flag = curvebake(root, &["bake", "--fps", "1e-300"]);
    assert_eq!(flag.status.code(), Some(2), "{}", stderr(&flag));
    assert!(stderr(&flag).contains("--fps"), "{}", stderr(&flag));
}

/// Issue 27, item 17: a sequence whose last step is gravity without a floor bakes to the
/// motion's `duration`.
#[test]
fn a_last_gravity_step_runs_to_the_motions_duration() {
    let toss = "(name: \"toss\", duration: 1, motion: Sequence([(motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.09), (motion: Gravity(acceleration: 2200))]))";
    let dir = project(&[("toss.ron", toss)]);
    let baked = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    let json = fs::read_to_string(dir.path().join("out/json/toss.json")).unwrap();
    assert!(json.contains("\"frames\":61"), "{json}");
}

/// Issue 27, item 20: with classic Mac line endings (CR only) an error is placed on its own
/// line and echoes that line, not the whole file.
#[test]
fn carriage_return_line_endings_place_errors_on_their_line() {
    let text = "(\r    name: \"card\",\r    motion: Spring(from: 0, to: 1, stifness: 100),\r)\r";
    let dir = project(&[("card.ron", text)]);
    let baked = curvebake(dir.path(), &["bake", "--formats", "json"]);
    let text = stderr(&baked);
    assert_eq!(baked.status.code(), Some(1), "{text}");
    assert!(text.contains("curves/card.ron:3:"), "{text}");
    assert!(!text.contains("name: \"card\""), "{text}");
}

/// Issue 27, items 10 and 21: the server answers every file with `nosniff`, and one client
/// that asks for a large file and reads none of it does not hold up the others.
#[cfg(feature = "watch")]
#[test]
fn the_server_answers_others_while_a_client_does_not_read() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    // Far more than the socket buffers hold.
    fs::write(out.join("curves.json"), vec![b' '; 64 << 20]).unwrap();
    fs::write(out.join("index.html"), "<p>page</p>").unwrap();
    let server = curvebake::internals::serve::Server::start(&out, 0).unwrap();
    let addr = server.addr();
    let ask = |target: &str| {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        stream
    };
    let mut stalled = Vec::new();
    for _ in 0..3 {
        stalled.push(ask("/curves.json"));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    for target in ["/index.html", "/_curvebake/status"] {
        let mut stream = ask(target);
        // A guard against a hang, not a measurement: far longer than an answer takes.
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{target}: {answer}");
        assert!(
            answer.contains("X-Content-Type-Options: nosniff"),
            "{target}: {answer}"
        );
    }
    drop(stalled);
}

/// Issue 27, item 3: the first bake into a folder that holds the user's own files (a site's
/// `index.html`, `js/package.json`, a stylesheet named like a motion) replaces none of them:
/// it stops before writing anything, names the file and says how to go on (exit 3);
/// `--force` replaces them, and after that they are ours.
#[test]
fn a_bake_refuses_to_replace_files_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("site/curves")).unwrap();
    fs::create_dir_all(root.join("site/js")).unwrap();
    fs::create_dir_all(root.join("site/css")).unwrap();
    fs::write(root.join("site/curves/card.ron"), CARD).unwrap();
    let mine = [
        ("site/index.html", "<h1>my site</h1>"),
        ("site/js/package.json", "{\"name\": \"my-site\"}"),
        ("site/css/card.css", ".card { color: red }"),
    ];
    for (path, text) in mine {
        fs::write(root.join(path), text).unwrap();
    }
    let before = listing(&root.join("site"));
    for formats in ["json,css,js,html", "css", "js", "html"] {
        let baked = curvebake(
            root,
            &["bake", "site/curves", "--out", "site", "--formats", formats],
        );
        let text = stderr(&baked);
        assert_eq!(baked.status.code(), Some(3), "{formats}: {text}");
        // One file named as one, several all at once.
        assert!(
            text.contains("curvebake did not write") && text.contains("--force"),
            "{formats}: {text}"
        );
        for (path, mine) in mine {
            assert_eq!(
                fs::read_to_string(root.join(path)).unwrap(),
                mine,
                "{formats}"
            );
        }
    }
    let css = curvebake(
        root,
        &["bake", "site/curves", "--out", "site", "--formats", "css"],
    );
    assert!(
        stderr(&css).contains("site/css/card.css"),
        "{}",
        stderr(&css)
    );
    let html = curvebake(
        root,
        &["bake", "site/curves", "--out", "site", "--formats", "html"],
    );
    assert!(
        stderr(&html).contains("site/index.html"),
        "{}",
        stderr(&html)
    );
    let ours = |p: &String| !p.starts_with(".curvebake-");
    let after: Vec<String> = listing(&root.join("site"))
        .into_iter()
        .filter(ours)
        .collect();
    assert_eq!(
        after, before,
        "nothing written but the folder's bookkeeping"
    );

    let forced = curvebake(root, &["bake", "site/curves", "--out", "site", "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert_ne!(
        fs::read_to_string(root.join("site/index.html")).unwrap(),
        "<h1>my site</h1>"
    );
    fs::write(
        root.join("site/curves/card.ron"),
        CARD.replace("200", "210"),
    )
    .unwrap();
    let again = curvebake(root, &["bake", "site/curves", "--out", "site"]);
    assert!(again.status.success(), "{}", stderr(&again));
}

/// Issue 27, item 5: files of formats a later bake leaves out stay owned by the manifest, so
/// that when their motion is gone they are removed with its other files, and `--check` sees
/// them; also after `--bundle`.
#[test]
fn files_of_formats_left_out_are_removed_with_their_motion() {
    let gone = CARD.replace("\"card\"", "\"gone\"");
    for later in [&["--formats", "json"][..], &["--bundle"][..]] {
        let dir = project(&[("card.ron", CARD), ("gone.ron", &gone)]);
        let root = dir.path();
        let bake = |args: &[&str]| {
            let mut all = vec!["bake"];
            all.extend(args);
            let baked = curvebake(root, &all);
            assert!(baked.status.success(), "{args:?}: {}", stderr(&baked));
        };
        bake(&[]);
        bake(later);
        fs::remove_file(root.join("curves/gone.ron")).unwrap();
        let check = curvebake(root, &["bake", "--check"]);
        assert_eq!(
            check.status.code(),
            Some(1),
            "{later:?}: {}",
            stderr(&check)
        );
        bake(later);
        bake(&[]);
        let left: Vec<String> = listing(&root.join("out"))
            .into_iter()
            .filter(|p| p.contains("gone"))
            .collect();
        assert!(left.is_empty(), "{later:?}: {left:?}");
        let check = curvebake(root, &["bake", "--check"]);
        assert!(check.status.success(), "{later:?}: {}", stderr(&check));
    }
}

/// Runs `curvebake args` in `dir`, killing it if it has not ended after a minute (a guard
/// against a hang, not a measurement): its exit code, `None` if it hung.
#[cfg(unix)]
fn run_or_kill(dir: &Path, args: &[&str]) -> Option<i32> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Issue 27, item 8: a FIFO in the output folder, at an output file, the manifest, the
/// claims, the list of files or the lock, hangs neither `bake` nor `bake --check`: an output,
/// the claims, the list and the manifest are replaced (the list still names the files the
/// unread manifest did), a lock that is not a file is an error naming it.
#[cfg(unix)]
#[test]
fn fifos_in_the_output_folder_hang_nothing() {
    let cases = [
        ("json/card.json", 0),
        (".curvebake-claims", 0),
        (".curvebake-files", 0),
        (".curvebake-lock", 3),
        (".curvebake-manifest.json", 0),
    ];
    for (at, code) in cases {
        let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
        let root = dir.path();
        let baked = curvebake(root, &["bake", "--formats", "json"]);
        assert!(baked.status.success(), "{}", stderr(&baked));
        fs::write(root.join("curves/card.ron"), CARD.replace("200", "300")).unwrap();
        let fifo = root.join("out").join(at);
        let _ = fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let check = run_or_kill(root, &["bake", "--formats", "json", "--check"]);
        assert_eq!(check, Some(1), "{at}: --check");
        let bake = run_or_kill(root, &["bake", "--formats", "json"]);
        assert_eq!(bake, Some(code), "{at}: bake");
    }
}

/// Issue 27, item 19: the project file's odd values are errors at their key, a folder given
/// as `--config` is named as such, and flags undo `layout = "bundle"` and `css_frames = true`.
#[test]
fn project_file_values_are_checked_and_flags_undo_its_switches() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let config = root.join("curvebake.toml");
    for (text, expected) in [
        (
            "plot_size = [1200, 800, 3]\n",
            "curvebake.toml:1:13: plot_size must be [width, height], got 3 numbers",
        ),
        (
            "formats = []\n",
            "curvebake.toml:1:11: formats must name at least one format",
        ),
        ("out = \"\"\n", "curvebake.toml:1:7: out must name a folder"),
    ] {
        fs::write(&config, text).unwrap();
        let baked = curvebake(root, &["bake"]);
        assert_eq!(baked.status.code(), Some(2), "{text}: {}", stderr(&baked));
        assert!(
            stderr(&baked).contains(expected),
            "{text}: {}",
            stderr(&baked)
        );
        assert!(!stderr(&baked).contains("manifest"), "{}", stderr(&baked));
    }
    let folder = curvebake(root, &["bake", "--config", "curves"]);
    assert_eq!(folder.status.code(), Some(2), "{}", stderr(&folder));
    assert!(
        stderr(&folder).contains("curves: a folder, not a project file"),
        "{}",
        stderr(&folder)
    );

    fs::write(
        &config,
        "layout = \"bundle\"\ncss_frames = true\nformats = [\"css\"]\n",
    )
    .unwrap();
    let bundled = curvebake(root, &["bake"]);
    assert!(bundled.status.success(), "{}", stderr(&bundled));
    assert!(!root.join("out/css/card.css").exists());
    let per_motion = curvebake(root, &["bake", "--no-bundle", "--no-css-frames"]);
    assert!(per_motion.status.success(), "{}", stderr(&per_motion));
    let css = fs::read_to_string(root.join("out/css/card.css")).unwrap();
    assert!(css.contains("--card-easing: linear("), "{css}");
}

/// Issue 27, item 20: `inspect` of a missing file is a usage error as in `bake`; `--out`
/// under a file is a usage error naming `--out`; two file names that differ only in Unicode
/// normalisation are told apart in the duplicate-name error.
#[test]
fn missing_inputs_paths_under_files_and_lookalike_names_are_said_plainly() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let inspected = curvebake(root, &["inspect", "missing.ron"]);
    assert_eq!(inspected.status.code(), Some(2), "{}", stderr(&inspected));
    let baked = curvebake(root, &["bake", "missing.ron"]);
    assert_eq!(baked.status.code(), Some(2), "{}", stderr(&baked));

    fs::write(root.join("notes.txt"), "notes").unwrap();
    for args in [&["bake", "--check"][..], &["bake"][..]] {
        let mut args = args.to_vec();
        args.extend(["--out", "notes.txt/site"]);
        let under = curvebake(root, &args);
        let text = stderr(&under);
        assert_eq!(under.status.code(), Some(2), "{args:?}: {text}");
        assert!(
            text.contains("notes.txt/site: --out lies under the file notes.txt"),
            "{text}"
        );
    }

    let composed = CARD.replace("\"card\"", "\"cafe\"");
    fs::write(root.join("curves/caf\u{e9}.ron"), &composed).unwrap();
    fs::write(root.join("curves/cafe\u{301}.ron"), &composed).unwrap();
    let twice = curvebake(root, &["bake", "--formats", "json"]);
    let text = stderr(&twice);
    assert_eq!(twice.status.code(), Some(1), "{text}");
    assert!(
        text.contains("caf\\u{e9}.ron") && text.contains("cafe\\u{301}.ron"),
        "{text}"
    );
}

/// Issue 27, item 4: baking `b/` into an output folder last baked from `a/` says that the
/// folder was baked from other inputs, names them and what goes (also in `--check`); a
/// motion deleted from the same inputs is no such news.
#[test]
fn baking_other_inputs_into_a_folder_says_whose_outputs_go() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (folder, name) in [("a", "card"), ("b", "fade")] {
        fs::create_dir(root.join(folder)).unwrap();
        let text = if name == "card" { CARD } else { FADE };
        fs::write(root.join(folder).join(format!("{name}.ron")), text).unwrap();
    }
    fs::write(
        root.join("a/more.ron"),
        CARD.replace("\"card\"", "\"more\""),
    )
    .unwrap();
    let first = curvebake(root, &["bake", "a", "--formats", "json"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let check = curvebake(root, &["bake", "b", "--formats", "json", "--check"]);
    assert!(
        stderr(&check).contains("a bake would remove the outputs of their 2 motions (2 files)"),
        "{}",
        stderr(&check)
    );
    let second = curvebake(root, &["bake", "b", "--formats", "json"]);
    let text = stderr(&second);
    assert!(second.status.success(), "{text}");
    let a = root.join("a").canonicalize().unwrap();
    assert!(
        text.contains(&format!(
            "warning: out was last baked from other inputs as well: {}; removing the outputs of their 2 motions (2 files)",
            a.display()
        )),
        "{text}"
    );
    fs::write(root.join("b/card.ron"), CARD).unwrap();
    assert!(curvebake(root, &["bake", "b", "--formats", "json"])
        .status
        .success());
    fs::remove_file(root.join("b/card.ron")).unwrap();
    let deleted = curvebake(root, &["bake", "b", "--formats", "json"]);
    assert!(
        !stderr(&deleted).contains("other inputs"),
        "{}",
        stderr(&deleted)
    );
}

/// The adversary's sixth round: a bake with errors leaves the outputs of other inputs' motions
/// where they are (a bake of one broken file, or of a tokens file holding no motion, once
/// removed every output of the folder and said so in a warning); a bake without errors then
/// removes them, as above.
#[test]
fn a_bake_with_errors_keeps_the_outputs_of_other_inputs() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let first = curvebake(root, &["bake", "curves", "--formats", "json"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let outputs = |root: &Path| fs::read_dir(root.join("out/json")).unwrap().count();
    assert_eq!(outputs(root), 2);
    fs::write(root.join("empty.tokens.json"), "{}").unwrap();
    fs::write(
        root.join("broken.ron"),
        "(name: \"broken\", motion: Spring(stiffness: -1))",
    )
    .unwrap();
    for broken in ["empty.tokens.json", "broken.ron"] {
        let bake = curvebake(root, &["bake", broken, "--formats", "json"]);
        let text = stderr(&bake);
        assert_eq!(bake.status.code(), Some(1), "{text}");
        assert!(!text.contains("removing"), "{text}");
        assert_eq!(outputs(root), 2, "{broken}: {text}");
        let check = curvebake(root, &["bake", "curves", "--formats", "json", "--check"]);
        assert!(check.status.success(), "{broken}: {}", stderr(&check));
    }
    fs::write(
        root.join("other.ron"),
        FADE.replace("\"fade\"", "\"other\""),
    )
    .unwrap();
    let clean = curvebake(root, &["bake", "other.ron", "--formats", "json"]);
    assert!(
        stderr(&clean).contains("removing the outputs of their 2 motions"),
        "{}",
        stderr(&clean)
    );
    assert_eq!(outputs(root), 1);
}

/// Issue 27, item 13: `watch` of a file keeps baking after its folder is deleted and made
/// again; after `rm -rf curves && mkdir curves` in one step (the inode may come back) the
/// folder is watched again; `sed -i`'s temporary file is not listed as a change.
#[cfg(unix)]
#[test]
fn watch_survives_its_folders_made_again_and_ignores_sed_temporaries() {
    use crate::everyday::Watcher;
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let mut file = Watcher::start(root, &["curves/card.ron", "--formats", "json"]);
    file.wait_for("the first bake", |w| w.bakes() >= 1);
    fs::remove_dir_all(root.join("curves")).unwrap();
    settle();
    fs::create_dir(root.join("curves")).unwrap();
    fs::write(root.join("curves/card.ron"), CARD.replace("200", "210")).unwrap();
    file.wait_for("a bake of the file made again", |w| w.bakes() >= 2);
    let before = file.bakes();
    fs::write(root.join("curves/card.ron"), CARD.replace("200", "220")).unwrap();
    file.wait_for("a bake after an edit", |w| w.bakes() > before);
    drop(file);

    let mut folder = Watcher::start(root, &["curves", "--formats", "json"]);
    folder.wait_for("the first bake", |w| w.bakes() >= 1);
    let status = std::process::Command::new("sh")
        .current_dir(root)
        .args(["-c", "rm -rf curves && mkdir curves"])
        .status()
        .unwrap();
    assert!(status.success());
    settle();
    fs::write(root.join("curves/fade.ron"), FADE).unwrap();
    folder.wait_for("fade baked", |_| root.join("out/json/fade.json").is_file());
    let before = folder.bakes();
    fs::write(root.join("curves/card.ron"), CARD).unwrap();
    folder.wait_for("card baked after that", |w| {
        w.bakes() > before && root.join("out/json/card.json").is_file()
    });
    settle();
    let before = folder.bakes();
    let sed = std::process::Command::new("sed")
        .current_dir(root)
        .args(["-i", "s/200/230/", "curves/card.ron"])
        .status()
        .unwrap();
    assert!(sed.success());
    folder.wait_for("the sed edit baked", |w| w.bakes() > before);
    let line = folder
        .lines()
        .into_iter()
        .rfind(|l| l.starts_with("baked"))
        .unwrap();
    assert!(!line.contains("/sed"), "{line}");
}

/// Issue 27, item 14: `watch` says when its project file changes (it keeps the options it
/// started with, and says a restart is needed).
#[test]
fn watch_says_when_its_project_file_changes() {
    use crate::everyday::Watcher;
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    fs::write(root.join("curvebake.toml"), "formats = [\"json\"]\n").unwrap();
    let mut watch = Watcher::start(root, &[]);
    watch.wait_for("the first bake", |w| w.bakes() >= 1);
    fs::write(root.join("curvebake.toml"), "formats = [\"css\"]\n").unwrap();
    watch.wait_for("the word about the project file", |w| {
        w.lines()
            .iter()
            .any(|l| l.contains("curvebake.toml changed; watch keeps the options it started with"))
    });
}

/// Issue 27, item 3, with a fresh checkout: a committed `out/` comes without its manifest
/// (the manifest is not committed), and the README's first command bakes into it. Its files
/// hold exactly what the bake writes, so they are adopted: nothing is replaced, the bake
/// succeeds and records them. One file that differs (the user's) still stops the bake
/// before anything is written.
#[test]
fn a_committed_bake_without_its_manifest_is_adopted_and_a_differing_file_is_not() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let formats = "json,css,js,html";
    let committed = fresh(root, "out", formats);
    let bookkeeping = |root: &Path| {
        for entry in fs::read_dir(root.join("out")).unwrap() {
            let path = entry.unwrap().path();
            if path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".curvebake-")
            {
                fs::remove_file(path).unwrap();
            }
        }
    };
    bookkeeping(root);
    let first = curvebake(root, &["bake", "--formats", formats]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains(" 0 files written"),
        "{}",
        stderr(&first)
    );
    assert!(common::project::outputs(&root.join("out")) == committed);
    assert!(root.join("out/.curvebake-manifest.json").is_file());

    bookkeeping(root);
    fs::write(root.join("out/css/card.css"), ".card { color: red }").unwrap();
    let before = listing(&root.join("out"));
    let refused = curvebake(root, &["bake", "--formats", formats]);
    assert_eq!(refused.status.code(), Some(3), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("css/card.css"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(
        fs::read_to_string(root.join("out/css/card.css")).unwrap(),
        ".card { color: red }"
    );
    let after: Vec<String> = listing(&root.join("out"))
        .into_iter()
        .filter(|p| !p.starts_with(".curvebake-"))
        .collect();
    assert_eq!(
        after, before,
        "nothing written but the folder's bookkeeping"
    );
}

/// A run of the binary that must end within `limit`: killed and failed past it (a hang must
/// fail the test, not the suite's time).
fn curvebake_within(dir: &Path, args: &[&str], limit: std::time::Duration) -> std::process::Output {
    let started = std::time::Instant::now();
    let (out, err) = (dir.join(".run-stdout"), dir.join(".run-stderr"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .current_dir(dir)
        .args(args)
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "curvebake {args:?} ran past {limit:?}: {}",
                fs::read_to_string(&err).unwrap()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: fs::read(&out).unwrap(),
        stderr: fs::read(&err).unwrap(),
    }
}

/// Round four: motions far faster than a frame (a spring of stiffness 1e100, a decay of rate
/// 1e300) once hung every format that fits stops (the times of a spring's extrema stopped
/// advancing, a Lottie segment shrank by halves without end, the fit crawled at its finest
/// input). They bake, in every format, in a bounded time and a few stops; the example beside
/// them keeps its outputs.
#[test]
fn motions_far_faster_than_a_frame_bake_in_bounded_time() {
    let fast = r#"[
  (name: "stiff", motion: Spring(from: 0, to: 100, stiffness: 1e100, damping: 1e50)),
  (name: "stiffer-than-inputs", motion: Spring(from: 0, to: 100, stiffness: 1e40, damping: 1e20)),
  (name: "overdamped", duration: 1, motion: Spring(from: 0, to: 100, stiffness: 1, damping: 1e100)),
  (name: "sudden", duration: 1, motion: Decay(from: -280, velocity: 2200, lambda: 1e300)),
  (name: "sudden-then-spring", duration: 1, motion: Sequence([
    (motion: Decay(from: 0, velocity: 100, lambda: 1e200), duration: 0.5),
    (motion: Spring(to: 0)),
  ])),
]"#;
    let dir = project(&[("fast.ron", fast), ("card.ron", CARD)]);
    let root = dir.path();
    let formats = "json,css,js,tokens,tailwind,lottie";
    let limit = std::time::Duration::from_secs(120);
    let baked = curvebake_within(root, &["bake", "--formats", formats], limit);
    assert!(baked.status.success(), "{}", stderr(&baked));
    let css = fs::read_to_string(root.join("out/css/stiff.css")).unwrap();
    let easing = css.lines().find(|l| l.contains("--stiff-easing")).unwrap();
    assert!(easing.matches(',').count() < 8, "{easing}");
    assert!(
        fs::metadata(root.join("out/lottie/sudden.json"))
            .unwrap()
            .len()
            < 20_000
    );
    assert!(root.join("out/css/card.css").is_file());
    let checked = curvebake_within(root, &["bake", "--formats", formats, "--check"], limit);
    assert!(checked.status.success(), "{}", stderr(&checked));
}

/// Round four: a motion no stops can follow (a spring oscillating thousands of times within a
/// frame) is capped at the fit's most stops, and the bake says so for each output that plays
/// it (the CSS, the module's keyframes), naming it.
#[test]
fn a_motion_no_stops_can_follow_is_named_in_a_warning() {
    let wild = "(name: \"wild\", motion: Spring(from: 0, to: 100, stiffness: 1e27, damping: 1e10))";
    let dir = project(&[("wild.ron", wild)]);
    let root = dir.path();
    let limit = std::time::Duration::from_secs(120);
    let baked = curvebake_within(root, &["bake", "--formats", "css,js"], limit);
    assert!(baked.status.success(), "{}", stderr(&baked));
    let message = stderr(&baked);
    for output in ["its CSS", "its module's keyframes"] {
        let warning = format!("wild: {output} cannot follow it within its tolerance");
        assert!(
            message.contains(&warning) && message.contains("faster than its frames"),
            "{message}"
        );
    }
}

/// A multi-track motion whose tracks together take more stops than one fit may, each within
/// its tolerance, bakes without that warning (it once fired on the stops written in all, not
/// on a fit that could not keep its tolerance).
#[test]
fn many_stops_kept_within_the_tolerance_are_no_warning() {
    let busy = r#"(name: "busy", tolerance: 0, tracks: [
  (property: "translateX", motion: Spring(from: 0, to: 1000, stiffness: 60000, damping: 2)),
  (property: "rotate", motion: Spring(from: 0, to: 1000, stiffness: 60000, damping: 2)),
  (property: "opacity", motion: Spring(from: 0, to: 1, stiffness: 60000, damping: 2)),
  (property: "scale", motion: Spring(from: 0, to: 1, stiffness: 60000, damping: 2)),
])"#;
    let dir = project(&[("busy.ron", busy)]);
    let root = dir.path();
    let limit = std::time::Duration::from_secs(120);
    let baked = curvebake_within(root, &["bake", "--formats", "css,js"], limit);
    let message = stderr(&baked);
    assert!(baked.status.success(), "{message}");
    let stops: usize = (message.split("CSS stops ").nth(1))
        .and_then(|s| s.split(" -> ").nth(1))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no stops in: {message}"));
    assert!(stops > 100_000, "{stops} stops: {message}");
    assert!(!message.contains("cannot follow"), "{message}");
}

/// Round six: a motion over a hundred thousand px cannot be played within 0.1 px (browsers
/// resolve about 1e-5 of a value), so its tolerance is coarser than asked; the bake says so,
/// once for the formats that fit it, and says nothing when the finest was asked
/// (`tolerance: 0`); a tiny motion's tolerance is held at the finest kept, and the bake says
/// that instead.
#[test]
fn a_tolerance_coarser_than_asked_is_said_once() {
    let far = r#"[
  (name: "far", motion: Spring(from: 0, to: 100000, stiffness: 170, damping: 26)),
  (name: "finest", tolerance: 0, motion: Spring(from: 0, to: 100000, stiffness: 170, damping: 26)),
  (name: "tiny", motion: Spring(from: 0, to: 0.00001, stiffness: 170, damping: 26)),
]"#;
    let dir = project(&[("far.ron", far)]);
    let baked = curvebake(dir.path(), &["bake", "--formats", "css,js,tokens"]);
    let message = stderr(&baked);
    assert!(baked.status.success(), "{message}");
    let said = "far: it is played within 1 px of the motion, not the 0.1 px asked";
    assert_eq!(message.matches(said).count(), 1, "{message}");
    assert!(!message.contains("finest: it is played"), "{message}");
    // A range of 1e-5 px: 0.5 % of it is under the finest tolerance kept, which is not what
    // browsers resolve of its largest value (1e-10 px).
    let tiny = "tiny: it is played within 1e-6 px of the motion, not the 5e-8 px asked: 1e-6 \
                is the finest tolerance curvebake keeps";
    assert_eq!(message.matches(tiny).count(), 1, "{message}");
}

/// Round five (the adversary's audit, F3): a bake whose input folder holds its output folder
/// (`bake . --out out`), or is it (`--out curves`), never reads its own outputs back as
/// inputs: `curves.tokens.json` is a curve file by its name, and a second bake once failed
/// on it for good ("name is already used"). Each bake succeeds, and the second writes nothing.
#[test]
fn a_bake_never_reads_its_own_outputs_as_inputs() {
    for (input, out) in [(".", "out"), ("curves", "curves")] {
        let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
        let root = dir.path();
        let args = ["bake", input, "--out", out, "--formats", "tokens,json"];
        let first = curvebake(root, &args);
        assert!(first.status.success(), "{input}: {}", stderr(&first));
        assert!(root.join(out).join("curves.tokens.json").is_file());
        for _ in 0..2 {
            let again = curvebake(root, &args);
            let text = stderr(&again);
            assert!(again.status.success(), "{input} --out {out}: {text}");
            assert!(
                text.contains("2 motions") && text.contains(" 0 files written"),
                "{text}"
            );
        }
    }
}

/// Round five (F5): an output a bake wrote and the manifest lists, edited, cut short or
/// changed in place since (same length), is rewritten by the next bake, which once said "0
/// files written" while `--check` listed them; `--check` says how to repair them.
#[test]
fn a_bake_rewrites_the_outputs_it_wrote_that_were_damaged_since() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let bake = ["bake", "--formats", "json,css"];
    let baked = curvebake(root, &bake);
    assert!(baked.status.success(), "{}", stderr(&baked));
    let out = root.join("out");
    let before = common::project::outputs(&out);
    fs::write(out.join("json/card.json"), "garbage\n").unwrap();
    fs::write(out.join("css/fade.css"), "").unwrap();
    let mut same_length = fs::read(out.join("json/fade.json")).unwrap();
    same_length[0] ^= 1;
    fs::write(out.join("json/fade.json"), same_length).unwrap();

    let checked = curvebake(root, &["bake", "--formats", "json,css", "--check"]);
    let text = stderr(&checked);
    assert_eq!(checked.status.code(), Some(1), "{text}");
    for damaged in ["json/card.json", "css/fade.css", "json/fade.json"] {
        assert!(text.contains(&format!("differs: out/{damaged}")), "{text}");
    }
    assert!(
        text.contains("run the same command without --check"),
        "{text}"
    );

    let repaired = curvebake(root, &bake);
    let text = stderr(&repaired);
    assert!(repaired.status.success(), "{text}");
    assert!(text.contains(": 3 files written"), "{text}");
    assert_eq!(common::project::outputs(&out), before);
    let checked = curvebake(root, &["bake", "--formats", "json,css", "--check"]);
    assert!(checked.status.success(), "{}", stderr(&checked));
}

/// Round four (F4): a bake once held a descriptor for every subfolder of its output folder
/// (it looked through each for leftover temporary files), so an output folder that is a
/// site with a thousand folders failed with "Too many open files" under the common limit of
/// 1,024 (here 256), naming the manifest. It bakes, and the site's folders are left as they
/// were.
#[cfg(unix)]
#[test]
fn an_output_folder_of_many_subfolders_bakes_under_a_low_descriptor_limit() {
    let dir = project(&[("card.ron", CARD)]);
    let root = dir.path();
    let assets = root.join("site/assets");
    for i in 0..600 {
        fs::create_dir_all(assets.join(format!("d{i}"))).unwrap();
    }
    let binary = env!("CARGO_BIN_EXE_curvebake");
    let baked = std::process::Command::new("sh")
        .current_dir(root)
        .arg("-c")
        .arg(format!(
            "ulimit -n 256 && exec '{binary}' bake --no-config --out site --formats json,css"
        ))
        .output()
        .unwrap();
    assert!(baked.status.success(), "{}", stderr(&baked));
    assert!(root.join("site/css/card.css").is_file());
    assert_eq!(fs::read_dir(&assets).unwrap().count(), 600);
}

/// Round four (F8.5): a first bake into a folder of the user's files named only the first it
/// would replace, so the user moved them one run at a time. It names them all (the first
/// five, and how many more), writes nothing, and exits 3.
#[test]
fn a_refused_first_bake_names_every_file_of_the_users_it_would_replace() {
    let dir = project(&[("card.ron", CARD), ("fade.ron", FADE)]);
    let root = dir.path();
    let out = root.join("out");
    fs::create_dir_all(out.join("css")).unwrap();
    fs::create_dir_all(out.join("json")).unwrap();
    for file in ["index.html", "css/card.css", "json/fade.json"] {
        fs::write(out.join(file), "mine").unwrap();
    }
    let refused = curvebake(root, &["bake", "--formats", "json,css,html"]);
    let message = stderr(&refused);
    assert_eq!(refused.status.code(), Some(3), "{message}");
    assert!(
        message.contains("3 files curvebake did not write"),
        "{message}"
    );
    for file in ["index.html", "css/card.css", "json/fade.json"] {
        assert!(message.contains(file), "{file}: {message}");
        assert_eq!(fs::read_to_string(out.join(file)).unwrap(), "mine");
    }
    assert!(!out.join("json/card.json").exists(), "nothing written");
}
