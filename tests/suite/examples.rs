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
