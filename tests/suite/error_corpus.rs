//! The corpus of broken inputs under `tests/errors/`, run through the real binary: every case
//! must exit 1 with a message that names the file and the place (line:column, or the motion and
//! its field) and says what is wrong, must never panic, and must write nothing for the broken
//! motion. Inputs too big or too odd to commit (10 MB, nesting 10,000 deep, binary garbage,
//! invalid UTF-8) are generated here into a temporary folder.
//!
//! A case is `tests/errors/<case>.ron`, or a folder `tests/errors/<case>/` of several files,
//! with `tests/errors/<case>.expected`: one substring per line that the error output must
//! contain (`{file}` stands for `curves/<case>.ron` and `{dir}` for `curves/<case>`, as the
//! binary names them), `#` comments, and `written: NAME` for each motion of the case that is
//! valid and must be baked. Every other motion must leave no file behind.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/errors");

/// What a case must produce.
#[derive(Debug, Default)]
struct Expected {
    /// Substrings of the error output.
    messages: Vec<String>,
    /// Motions that are valid and must be written.
    written: Vec<String>,
}

impl Expected {
    fn parse(text: &str, case: &str) -> Self {
        let mut expected = Self::default();
        for line in text.lines() {
            let line = line
                .replace("{file}", &format!("curves/{case}.ron"))
                .replace("{dir}", &format!("curves/{case}"));
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            match line.strip_prefix("written: ") {
                Some(name) => expected.written.push(name.trim().to_owned()),
                None => expected.messages.push(line),
            }
        }
        expected
    }

    fn message(text: &str) -> Self {
        Self {
            messages: vec![text.to_owned()],
            written: Vec::new(),
        }
    }
}

/// A temporary project with `curves/` holding the inputs.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("curves")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        fs::copy(from, to).unwrap();
    }
}

/// Runs `bake --formats json` in `dir` and checks the outcome; returns what is wrong, if
/// anything (with the whole output, to see why).
fn check(dir: &Path, expected: &Expected) -> Result<(), String> {
    let output = Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .current_dir(dir)
        .args(["bake", "--formats", "json", "curves"])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut problems = Vec::new();
    if output.status.code() != Some(1) {
        problems.push(format!("exit status {:?}, not 1", output.status.code()));
    }
    if stderr.contains("panicked") || stdout.contains("panicked") {
        problems.push("it panicked".to_owned());
    }
    for message in &expected.messages {
        if !stderr.contains(message.as_str()) {
            problems.push(format!("the output lacks {message:?}"));
        }
    }
    let mut tables: Vec<String> = match fs::read_dir(dir.join("out/json")) {
        Ok(entries) => entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    };
    tables.sort();
    let mut wanted: Vec<String> = expected
        .written
        .iter()
        .map(|n| format!("{n}.json"))
        .collect();
    wanted.sort();
    if tables != wanted {
        problems.push(format!("out/json holds {tables:?}, expected {wanted:?}"));
    }
    if let Ok(text) = fs::read_to_string(dir.join("out/curves.json")) {
        let index: Value = serde_json::from_str(&text).unwrap_or_default();
        let mut indexed: Vec<String> = index["motions"]
            .as_array()
            .map(|m| {
                m.iter()
                    .map(|m| m["name"].as_str().unwrap_or("?").to_owned())
                    .collect()
            })
            .unwrap_or_default();
        indexed.sort();
        let mut valid = expected.written.clone();
        valid.sort();
        if indexed != valid {
            problems.push(format!(
                "out/curves.json lists {indexed:?}, expected {valid:?}"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n--- stderr:\n{stderr}", problems.join("\n")))
    }
}

/// Every committed case: name, its input (file or folder) and what it must produce.
fn corpus() -> Vec<(String, PathBuf, Expected)> {
    let mut cases = Vec::new();
    let mut expectations = Vec::new();
    for entry in fs::read_dir(CORPUS).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        match path.extension().and_then(|e| e.to_str()) {
            Some("expected") => expectations.push(name),
            Some("ron") => cases.push((name, path)),
            None if path.is_dir() => cases.push((name, path)),
            _ => {}
        }
    }
    cases.sort();
    expectations.sort();
    let names: Vec<&String> = cases.iter().map(|c| &c.0).collect();
    assert_eq!(
        names,
        expectations.iter().collect::<Vec<_>>(),
        "every case needs a .expected file and every .expected file a case"
    );
    cases
        .into_iter()
        .map(|(name, path)| {
            let text =
                fs::read_to_string(Path::new(CORPUS).join(format!("{name}.expected"))).unwrap();
            let expected = Expected::parse(&text, &name);
            assert!(
                !expected.messages.is_empty(),
                "{name}.expected names no message"
            );
            (name, path, expected)
        })
        .collect()
}

#[test]
fn every_corpus_case_fails_alone_with_its_message_and_writes_nothing_for_it() {
    let cases = corpus();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for (name, path, expected) in &cases {
        let dir = project();
        let target = if path.is_dir() {
            dir.path().join("curves").join(name)
        } else {
            dir.path().join("curves").join(format!("{name}.ron"))
        };
        copy_tree(path, &target);
        if let Err(e) = check(dir.path(), expected) {
            failures.push(format!("== {name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn the_whole_corpus_at_once_reports_every_error_and_bakes_only_the_valid_motions() {
    let cases = corpus();
    let dir = project();
    let mut all = Expected::default();
    for (name, path, expected) in cases {
        let target = if path.is_dir() {
            dir.path().join("curves").join(&name)
        } else {
            dir.path().join("curves").join(format!("{name}.ron"))
        };
        copy_tree(&path, &target);
        all.messages.extend(expected.messages);
        all.written.extend(expected.written);
    }
    if let Err(e) = check(dir.path(), &all) {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Generated cases
// ---------------------------------------------------------------------------------------------

const SPRING: &str = "motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26)";

/// A project whose only input is `curves/<case>.ron` holding `bytes`.
fn generated(case: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = project();
    fs::write(dir.path().join("curves").join(format!("{case}.ron")), bytes).unwrap();
    dir
}

fn expect(dir: &tempfile::TempDir, expected: Expected) {
    if let Err(e) = check(dir.path(), &expected) {
        panic!("{e}");
    }
}

/// Deterministic pseudo-random bytes (xorshift64*).
fn garbage(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[test]
fn a_file_ten_megabytes_over_the_limit_is_refused_by_its_size_without_being_parsed() {
    let limit = curvebake::internals::load::MAX_INPUT_BYTES;
    let size = limit + 10 * 1024 * 1024;
    let mut text = format!("(name: \"big\", {SPRING})\n").into_bytes();
    text.resize(size as usize, b' ');
    let dir = generated("big", &text);
    expect(
        &dir,
        Expected::message(&format!(
            "curves/big.ron: file is {size} bytes; curve files are limited to {limit} bytes"
        )),
    );
}

#[test]
fn a_file_one_byte_over_the_limit_is_refused_and_one_at_the_limit_is_read() {
    let limit = curvebake::internals::load::MAX_INPUT_BYTES as usize;
    let mut text = format!("(name: \"at-limit\", {SPRING})\n").into_bytes();
    text.resize(limit, b' ');
    let dir = generated("at-limit", &text);
    text.push(b' ');
    fs::write(dir.path().join("curves/over-limit.ron"), &text).unwrap();
    expect(
        &dir,
        Expected {
            messages: vec![format!(
                "curves/over-limit.ron: file is {} bytes; curve files are limited to {limit} bytes",
                limit + 1
            )],
            written: vec!["at-limit".into()],
        },
    );
}

#[test]
fn nesting_ten_thousand_deep_is_an_error_not_a_stack_overflow() {
    let deep = 10_000;
    let open = |s: &str| s.repeat(deep);
    let cases = [
        // A list of lists of lists ... where motions belong.
        (
            "nested-lists",
            format!("{}{}", open("["), open("]")),
            "curves/nested-lists.ron:1:2: Expected opening `(` for a motion `(name: ..., motion: ...)`",
        ),
        // Parentheses around a number.
        (
            "nested-parentheses",
            format!(
                "(name: \"deep\", motion: Spring(from: {}0{}, to: 1, stiffness: 100, damping: 20))",
                open("("),
                open(")")
            ),
            "curves/nested-parentheses.ron:1:36: Expected float",
        ),
        // Some(Some(Some(...))) for an optional number.
        (
            "nested-options",
            format!("(name: \"deep\", fps: {}60{}, {SPRING})", open("Some("), open(")")),
            "curves/nested-options.ron:1:26: Expected float",
        ),
        // Lists nested inside an unknown field.
        (
            "nested-unknown-field",
            format!("(name: \"deep\", colour: {}{}, {SPRING})", open("["), open("]")),
            "curves/nested-unknown-field.ron:1:16: Unexpected field named `colour` in the motion",
        ),
        // Nothing but opening brackets: the file ends 10,000 levels deep.
        (
            "nested-unclosed",
            open("[("),
            "curves/nested-unclosed.ron:1:3: Expected identifier",
        ),
    ];
    for (case, text, message) in cases {
        let dir = generated(case, text.as_bytes());
        expect(&dir, Expected::message(message));
    }
}

#[test]
fn binary_garbage_is_refused_as_not_utf8_text() {
    let mut bytes = garbage(64 * 1024, 0x9E37_79B9_7F4A_7C15);
    // Make sure it is not UTF-8 by chance, and give it a first line.
    bytes[..4].copy_from_slice(b"(n\n\xff");
    let dir = generated("garbage", &bytes);
    expect(
        &dir,
        Expected::message("curves/garbage.ron:2:1: invalid UTF-8: curve files must be UTF-8 text"),
    );
}

#[test]
fn control_characters_that_are_valid_utf8_are_a_syntax_error() {
    let bytes: Vec<u8> = (0u8..32).cycle().take(4096).collect();
    let dir = generated("control", &bytes);
    expect(
        &dir,
        Expected::message(
            "curves/control.ron:1:1: Expected opening `(` for a motion `(name: ..., motion: ...)`",
        ),
    );
}

#[test]
fn invalid_utf8_is_reported_at_its_line_and_column() {
    let mut bytes = b"(\n    name: \"caf".to_vec();
    bytes.push(0xE9); // Latin-1 e-acute, not UTF-8
    bytes.extend_from_slice(format!("\",\n    {SPRING},\n)\n").as_bytes());
    let dir = generated("latin1", &bytes);
    expect(
        &dir,
        Expected {
            messages: vec![
                "curves/latin1.ron:2:15: invalid UTF-8: curve files must be UTF-8 text".into(),
                "2 |     name: \"caf\n".into(),
            ],
            written: Vec::new(),
        },
    );
}

#[test]
fn a_utf16_file_is_refused_as_not_utf8_text() {
    let text = format!("(name: \"wide\", {SPRING})");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let dir = generated("utf16", &bytes);
    expect(
        &dir,
        Expected::message("curves/utf16.ron:1:1: invalid UTF-8: curve files must be UTF-8 text"),
    );
}

#[test]
fn a_utf8_byte_order_mark_is_skipped_and_columns_do_not_count_it() {
    let dir = project();
    let mut ok = b"\xEF\xBB\xBF".to_vec();
    ok.extend_from_slice(format!("(name: \"with-bom\", {SPRING})").as_bytes());
    fs::write(dir.path().join("curves/with-bom.ron"), ok).unwrap();
    let mut bad = b"\xEF\xBB\xBF".to_vec();
    bad.extend_from_slice(format!("(name: \"bad-bom\" {SPRING})").as_bytes());
    fs::write(dir.path().join("curves/bad-bom.ron"), bad).unwrap();
    expect(
        &dir,
        Expected {
            messages: vec!["curves/bad-bom.ron:1:18: Expected comma".into()],
            written: vec!["with-bom".into()],
        },
    );
}
