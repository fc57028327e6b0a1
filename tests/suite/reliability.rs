//! Reliability, round two (issue 16): what an adversary tried that once lost outputs, hung a
//! bake, ate memory or disk, or made the manifest vouch for what is not there. Each test names
//! the item it covers.

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
        if path.extension().is_some_and(|e| e == "png") {
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
