//! Every example command of `--help` runs as written, in a fresh copy of the project's
//! `curves/`: each subcommand's examples in order, in one folder, the way a reader tries them.
//! `watch` examples run until their first bake; redirections to `~` go to a scratch home.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The commands listed under `Examples:` in `curvebake <args> --help`, comments removed.
fn help_examples(args: &[&str]) -> Vec<String> {
    let help = Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    let examples = text
        .split_once("Examples:\n")
        .unwrap_or_else(|| panic!("`curvebake {args:?} --help` has no examples:\n{text}"))
        .1;
    examples
        .lines()
        .map_while(|l| l.strip_prefix("  "))
        .map(|l| {
            l.split_once(" #")
                .map_or(l, |(command, _)| command)
                .trim()
                .to_owned()
        })
        .collect()
}

/// A fresh project: a copy of the repository's `curves/`, and an empty home folder.
fn sandbox() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let curves = Path::new(env!("CARGO_MANIFEST_DIR")).join("curves");
    fs::create_dir(dir.path().join("curves")).unwrap();
    for entry in fs::read_dir(curves).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(
            &path,
            dir.path().join("curves").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    let home = dir.path().join("home");
    fs::create_dir(&home).unwrap();
    (dir, home)
}

/// Runs `line` with `sh` in `dir` as a reader would, `curvebake` on the PATH; a `watch` runs
/// until it has baked once. Panics with the output unless it succeeds.
fn run_as_written(line: &str, dir: &Path, home: &Path) {
    // A redirection into a folder of the home that a shell setup would have.
    if let Some((_, target)) = line.split_once("> ~/") {
        fs::create_dir_all(home.join(target).parent().unwrap()).unwrap();
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_curvebake")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let watch = line.starts_with("curvebake watch");
    // `exec`: the shell becomes `curvebake watch`, so that killing it stops the watch.
    let script = if watch {
        format!("exec {line}")
    } else {
        line.to_owned()
    };
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", home);
    if !watch {
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "`{line}` failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        return;
    }
    let mut child = command.stderr(Stdio::piped()).spawn().unwrap();
    let (send, lines) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    let mut seen = Vec::new();
    let watching = loop {
        match lines.recv_timeout(Duration::from_secs(120)) {
            Ok(l) if l.starts_with("watching ") => break true,
            Ok(l) => seen.push(l),
            Err(_) => break false,
        }
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        watching,
        "`{line}` never started watching:\n{}",
        seen.join("\n")
    );
    assert!(
        !seen.iter().any(|l| l.starts_with("error")),
        "`{line}`:\n{}",
        seen.join("\n")
    );
}

#[test]
fn every_help_example_runs_as_written() {
    let commands: [&[&str]; 6] = [
        &[],
        &["bake"],
        &["inspect"],
        &["watch"],
        &["new"],
        &["completions"],
    ];
    for args in commands {
        let examples = help_examples(args);
        assert!(!examples.is_empty(), "{args:?}");
        let (dir, home) = sandbox();
        for line in &examples {
            run_as_written(line, dir.path(), &home);
        }
    }
}

/// A fenced block of README.md: its info string, its lines, and the setup in an HTML comment
/// right above it (`<!-- example setup: SHELL -->`), if any.
struct Block {
    lang: String,
    line: usize,
    setup: Option<String>,
    lines: Vec<String>,
}

fn readme_blocks() -> Vec<Block> {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut previous = "";
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => {
                    let setup = previous
                        .strip_prefix("<!-- example setup: ")
                        .and_then(|s| s.strip_suffix(" -->"))
                        .map(str::to_owned);
                    open = Some(Block {
                        lang: info.to_owned(),
                        line: i + 1,
                        setup,
                        lines: Vec::new(),
                    });
                }
            }
        } else if let Some(block) = &mut open {
            block.lines.push(line.to_owned());
        }
        previous = line;
    }
    blocks
}

/// `line` without a trailing `# comment`.
fn without_comment(line: &str) -> &str {
    line.split_once(" #")
        .map_or(line, |(command, _)| command)
        .trim()
}

#[test]
fn every_readme_command_runs_as_written() {
    let blocks: Vec<Block> = readme_blocks()
        .into_iter()
        .filter(|b| b.lang == "sh")
        .collect();
    let mut ran = 0;
    for block in &blocks {
        let (dir, home) = sandbox();
        for line in &block.lines {
            let command = without_comment(line);
            if command.starts_with("curvebake ") {
                run_as_written(command, dir.path(), &home);
                ran += 1;
            }
        }
    }
    assert!(ran >= 10, "only {ran} commands found in README's sh blocks");
}

/// Whether `actual` is `expected`, where `...` in `expected` stands for any text and a
/// summary's time (`in 0.02 s`) for any time.
fn matches(expected: &str, actual: &str) -> bool {
    let time = |s: &str| -> String {
        match s.rfind(" in ") {
            Some(i) if s.ends_with(" s") && s[i + 4..s.len() - 2].parse::<f64>().is_ok() => {
                format!("{} in TIME s", &s[..i])
            }
            _ => s.to_owned(),
        }
    };
    let (expected, actual) = (time(expected), time(actual));
    let pieces: Vec<&str> = expected.split("...").collect();
    let mut rest = actual.as_str();
    for (i, piece) in pieces.iter().enumerate() {
        let found = if i == 0 {
            rest.starts_with(piece).then_some(0)
        } else if i == pieces.len() - 1 {
            rest.ends_with(piece).then(|| rest.len() - piece.len())
        } else {
            rest.find(piece)
        };
        match found {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    pieces.len() > 1 || rest.is_empty()
}

#[test]
fn every_readme_transcript_prints_what_it_shows() {
    let bin = Path::new(env!("CARGO_BIN_EXE_curvebake")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for block in readme_blocks() {
        if !block
            .lines
            .first()
            .is_some_and(|l| l.starts_with("$ curvebake "))
        {
            continue;
        }
        let (dir, home) = sandbox();
        let shell = |script: &str| {
            Command::new("sh")
                .arg("-c")
                .arg(script)
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("HOME", &home)
                .output()
                .unwrap()
        };
        if let Some(setup) = &block.setup {
            let done = shell(setup);
            assert!(
                done.status.success(),
                "README line {}: setup `{setup}` failed",
                block.line
            );
        }
        // Each `$ command` and the lines it shows, up to the next command.
        let mut steps: Vec<(String, Vec<String>)> = Vec::new();
        for line in &block.lines {
            match line.strip_prefix("$ ") {
                Some(command) => steps.push((without_comment(command).to_owned(), Vec::new())),
                None => steps.last_mut().unwrap().1.push(line.clone()),
            }
        }
        for (command, shown) in steps {
            let output = shell(&command);
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stderr),
                String::from_utf8_lossy(&output.stdout)
            );
            let printed: Vec<&str> = printed.lines().collect();
            let agree = printed.len() == shown.len()
                && shown.iter().zip(&printed).all(|(e, a)| matches(e, a));
            assert!(
                agree,
                "README line {}: `{command}` shows\n{}\nbut prints\n{}",
                block.line,
                shown.join("\n"),
                printed.join("\n")
            );
            ran += 1;
        }
    }
    assert!(ran >= 5, "only {ran} transcripts found in README");
}
