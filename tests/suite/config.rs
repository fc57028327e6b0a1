//! The project file `curvebake.toml`: `bake`, `bake --check`, `watch`, `inspect` and the
//! library's `Bake` read it; flags override it; its errors read like a curve file's.

use crate::common::project::{curvebake, outputs, project, stderr};
use std::fs;

const SPRING: &str = r#"(name: "a", motion: Spring(from: 0, to: 10, stiffness: 300, damping: 30))"#;

#[test]
fn bake_and_check_read_the_project_file_so_ci_needs_no_flags() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    fs::write(
        root.join("curvebake.toml"),
        "out = \"site/motion\"\nformats = [\"css\"]\nfps = 30\n",
    )
    .unwrap();
    let baked = curvebake(root, &["bake"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    let files = outputs(&root.join("site/motion"));
    let names: Vec<_> = files
        .iter()
        .map(|(p, _)| p.display().to_string())
        .filter(|name| !name.starts_with('.')) // the bake's lock
        .collect();
    assert_eq!(names, ["css/a.css", "curves.css"], "only CSS, in `out`");
    assert!(!root.join("out").exists());
    // `--check` with no flags agrees with that bake; a flag that changes it makes it differ.
    let check = curvebake(root, &["bake", "--check"]);
    assert!(check.status.success(), "{}", stderr(&check));
    let differs = curvebake(root, &["bake", "--check", "--fps", "60"]);
    assert_eq!(differs.status.code(), Some(1), "{}", stderr(&differs));
    assert!(
        stderr(&differs).contains("differs: site/motion/"),
        "{}",
        stderr(&differs)
    );
}

#[test]
fn flags_override_the_project_file_and_no_config_ignores_it() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    fs::write(
        root.join("curvebake.toml"),
        "out = \"from-config\"\nformats = [\"json\"]\n",
    )
    .unwrap();
    let baked = curvebake(root, &["bake", "--out", "from-flag"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    assert!(root.join("from-flag/json/a.json").exists());
    assert!(
        !root.join("from-flag/css").exists(),
        "formats still from the file"
    );
    assert!(!root.join("from-config").exists());
    let plain = curvebake(root, &["--no-config", "bake", "--formats", "css"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(root.join("out/css/a.css").exists());
}

#[test]
fn a_project_file_elsewhere_is_read_relative_to_its_folder() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    fs::create_dir(root.join("design")).unwrap();
    fs::write(
        root.join("design/motion.toml"),
        "inputs = [\"../curves\"]\nout = \"baked\"\nformats = [\"json\"]\n",
    )
    .unwrap();
    let baked = curvebake(root, &["--config", "design/motion.toml", "bake"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    assert!(root.join("design/baked/json/a.json").exists());
    let inspected = curvebake(root, &["--config", "design/motion.toml", "inspect", "a"]);
    assert!(inspected.status.success(), "{}", stderr(&inspected));
}

#[test]
fn a_bad_project_file_is_reported_like_a_curve_file_and_nothing_is_baked() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    fs::write(root.join("curvebake.toml"), "out = \"o\"\nfps = 0\n").unwrap();
    for args in [&["bake"][..], &["bake", "--check"], &["inspect", "a"]] {
        let run = curvebake(root, args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let err = stderr(&run);
        assert!(
            err.contains("curvebake.toml:2:7: fps must be in [1, 1000] frames per second, got 0"),
            "{args:?}: {err}"
        );
        assert!(err.contains("2 | fps = 0"), "the line and its caret: {err}");
    }
    assert!(!root.join("o").exists());
}

#[test]
fn a_project_files_unknown_or_empty_formats_are_told_every_format_there_is() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    for (formats, said) in [
        ("[\"gif\"]", "formats: unknown format \"gif\"; use "),
        ("[]", "formats must name at least one format ("),
    ] {
        fs::write(
            root.join("curvebake.toml"),
            format!("formats = {formats}\n"),
        )
        .unwrap();
        let run = curvebake(root, &["bake"]);
        assert_eq!(run.status.code(), Some(2), "{formats}");
        let err = stderr(&run);
        assert!(err.contains(said), "{err}");
        assert!(err.contains("tokens, tailwind or lottie"), "{err}");
    }
}

#[test]
fn new_config_writes_a_project_file_that_bakes_as_the_defaults() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    let written = curvebake(root, &["new", "config"]);
    assert!(written.status.success(), "{}", stderr(&written));
    let text = fs::read_to_string(root.join("curvebake.toml")).unwrap();
    assert!(text.contains("# formats = "), "{text}");
    let again = curvebake(root, &["new", "config"]);
    assert_eq!(again.status.code(), Some(1), "refuses to overwrite");
    assert_eq!(
        fs::read_to_string(root.join("curvebake.toml")).unwrap(),
        text
    );
    let baked = curvebake(root, &["bake"]);
    assert!(baked.status.success(), "{}", stderr(&baked));
    assert!(root.join("out/json/a.json").exists());
}

#[test]
fn the_library_reads_the_project_file_and_its_methods_override_it() {
    let dir = project(&[("a.ron", SPRING)]);
    let root = dir.path();
    let path = root.join("curvebake.toml");
    fs::write(&path, "formats = [\"json\"]\nfps = 30\n").unwrap();
    let bake = curvebake::Bake::with_config(&path).unwrap().fps(20.0);
    assert_eq!(bake.options().inputs, [root.join("curves")]);
    assert_eq!(bake.options().fps, Some(20.0));
    let report = bake.run().unwrap();
    assert_eq!(report.motions, 1);
    assert!(root.join("out/json/a.json").exists());
}
