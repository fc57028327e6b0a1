//! End-to-end bakes of fixture folders, in mdBook's manner: each `tests/fixtures/<case>/` holds
//! `curves/` (the input), `args` (the flags of `curvebake bake`, on one line) and `expected/`
//! (what the real binary must write, one insta snapshot per output file, and the exit code
//! with the error output). A change of output shows as a diff; review it with
//! `cargo insta review`, or accept every change with
//! `INSTA_UPDATE=always cargo test --test suite fixtures` (see `tests/suite/README.md`).
//!
//! These, not the repository's `out/`, are the tests' expected outputs: `out/` is the
//! examples' bake, which CI checks with `curvebake bake --check`.

use crate::common::project::{curvebake, outputs, stderr};
use std::fs;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Every case folder, sorted.
fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(FIXTURES)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    cases.sort();
    cases
}

/// A copy of `from` (files and folders) at `to`.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

/// A snapshot's name for an output path: `css/card.css` is `css__card.css`.
fn snapshot_name(path: &Path) -> String {
    path.to_string_lossy().replace(['/', '\\'], "__")
}

/// The error output without its last line's timing (`... in 0.01 s`), which varies.
fn without_timing(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind(" in ") {
            Some(at) if line.ends_with(" s") => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn each_fixture_bakes_exactly_its_expected_outputs() {
    let cases = cases();
    assert!(cases.len() >= 5, "fixtures missing under {FIXTURES}");
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let args = fs::read_to_string(case.join("args")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&case.join("curves"), &dir.path().join("curves"));
        let mut argv = vec!["bake"];
        argv.extend(args.split_whitespace());
        let run = curvebake(dir.path(), &argv);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(case.join("expected"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_description(format!("curvebake bake {}", args.trim()));
        settings.bind(|| {
            let status = format!(
                "exit code {:?}\n{}",
                run.status.code(),
                without_timing(&stderr(&run))
            );
            insta::assert_snapshot!(format!("{name}.status"), status);
            let files = outputs(&dir.path().join("out"));
            let listed: Vec<String> = files
                .iter()
                .map(|(path, _)| path.display().to_string())
                .filter(|path| !path.starts_with(".curvebake"))
                .collect();
            insta::assert_snapshot!(format!("{name}.files"), listed.join("\n"));
            for (path, bytes) in &files {
                if path.to_string_lossy().starts_with(".curvebake") {
                    continue; // the folder's own bookkeeping, not an output
                }
                let text = String::from_utf8(bytes.clone()).expect("text outputs only");
                insta::assert_snapshot!(format!("{name}.{}", snapshot_name(path)), text);
            }
        });
    }
}
