//! Every example of `--help` and of the docs runs as written, in a fresh copy of the project's
//! `curves/`: each subcommand's examples in order, in one folder, the way a reader tries them.
//! `watch` examples run until their first bake; redirections to `~` go to a scratch home.
//!
//! The docs are README.md, CONTRIBUTING.md and every Markdown file under `docs/` (the guide).
//! In their fenced blocks:
//! - each `curvebake` line of an `sh` block runs and must succeed;
//! - a block that starts with `$ curvebake ...` is a transcript: each command runs, and what it
//!   prints must be the lines shown (`...` stands for any text);
//! - a block right below `<!-- example file: PATH -->` must be the file PATH, `...` standing
//!   for any text, whitespace not compared: PATH under `out/` as a bake of `curves/` writes it
//!   (`curvebake bake`, default options), any other PATH as it is in the project;
//! - every `ron` block is a curve file that bakes, or a list of motion values, one a line, each
//!   of which bakes as a motion (with a `duration` where its comment names one);
//! - `<!-- example setup: SHELL -->` right above a block runs first.
//!
//! Figures the prose states about the examples' bake (durations, sizes, thresholds) are checked
//! against a bake by `every_figure_the_docs_state_is_the_bakes`, and every relative link of the
//! docs must lead to a file (and heading) that exists.

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

/// The docs whose examples run: README.md, CONTRIBUTING.md and every Markdown file under
/// `docs/`, as paths relative to the project.
fn doc_files() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec!["README.md".to_owned(), "CONTRIBUTING.md".to_owned()];
    let mut folders = vec![root.join("docs")];
    let mut found = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(root).unwrap();
                found.push(relative.to_str().unwrap().to_owned());
            }
        }
    }
    found.sort();
    files.extend(found);
    assert!(files.len() >= 5, "the guide is missing: {files:?}");
    files
}

fn read_doc(file: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// A fenced block of the docs: where it is, its info string, its lines, and the HTML comment
/// right above it: a setup (`<!-- example setup: SHELL -->`) or the file it shows
/// (`<!-- example file: PATH -->`), if any.
struct Block {
    file: String,
    lang: String,
    line: usize,
    setup: Option<String>,
    shows: Option<String>,
    lines: Vec<String>,
}

impl Block {
    /// Where the block starts, as `file line N`.
    fn place(&self) -> String {
        format!("{} line {}", self.file, self.line)
    }
}

/// Every fenced block of every doc.
fn doc_blocks() -> Vec<Block> {
    let mut blocks = Vec::new();
    for file in doc_files() {
        let text = read_doc(&file);
        let mut open: Option<Block> = None;
        let mut previous = "";
        for (i, line) in text.lines().enumerate() {
            if let Some(info) = line.trim_start().strip_prefix("```") {
                match open.take() {
                    Some(block) => blocks.push(block),
                    None => {
                        let comment = |kind: &str| {
                            previous
                                .strip_prefix(kind)
                                .and_then(|s| s.strip_suffix(" -->"))
                                .map(str::to_owned)
                        };
                        open = Some(Block {
                            file: file.clone(),
                            lang: info.to_owned(),
                            line: i + 1,
                            setup: comment("<!-- example setup: "),
                            shows: comment("<!-- example file: "),
                            lines: Vec::new(),
                        });
                    }
                }
            } else if let Some(block) = &mut open {
                block.lines.push(line.to_owned());
            }
            previous = line;
        }
        assert!(open.is_none(), "{file}: a fenced block is not closed");
    }
    blocks
}

/// The `PATH` for running the binary as `curvebake`.
fn path_with_binary() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_curvebake")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs `script` with `sh` in `dir`, `curvebake` on the PATH.
fn shell(script: &str, dir: &Path, home: &Path) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path_with_binary())
        .env("HOME", home)
        .output()
        .unwrap()
}

/// Runs a block's setup, if it has one, in `dir`.
fn set_up(block: &Block, dir: &Path, home: &Path) {
    if let Some(setup) = &block.setup {
        let done = shell(setup, dir, home);
        assert!(
            done.status.success(),
            "{}: setup `{setup}` failed:\n{}",
            block.place(),
            String::from_utf8_lossy(&done.stderr)
        );
    }
}

/// `line` without a trailing `# comment`.
fn without_comment(line: &str) -> &str {
    line.split_once(" #")
        .map_or(line, |(command, _)| command)
        .trim()
}

#[test]
fn every_docs_command_runs_as_written() {
    let blocks: Vec<Block> = doc_blocks()
        .into_iter()
        .filter(|b| b.lang == "sh")
        .collect();
    let mut ran = 0;
    for block in &blocks {
        let (dir, home) = sandbox();
        set_up(block, dir.path(), &home);
        for line in &block.lines {
            let command = without_comment(line);
            if command.starts_with("curvebake ") {
                run_as_written(command, dir.path(), &home);
                ran += 1;
            }
        }
    }
    assert!(
        ran >= 15,
        "only {ran} commands found in the docs' sh blocks"
    );
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
fn every_docs_transcript_prints_what_it_shows() {
    let mut ran = 0;
    for block in doc_blocks() {
        if !block
            .lines
            .first()
            .is_some_and(|l| l.starts_with("$ curvebake "))
        {
            continue;
        }
        let (dir, home) = sandbox();
        set_up(&block, dir.path(), &home);
        // Each `$ command` and the lines it shows, up to the next command.
        let mut steps: Vec<(String, Vec<String>)> = Vec::new();
        for line in &block.lines {
            match line.strip_prefix("$ ") {
                Some(command) => steps.push((without_comment(command).to_owned(), Vec::new())),
                None => steps.last_mut().unwrap().1.push(line.clone()),
            }
        }
        for (command, shown) in steps {
            let output = shell(&command, dir.path(), &home);
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
                "{}: `{command}` shows\n{}\nbut prints\n{}",
                block.place(),
                shown.join("\n"),
                printed.join("\n")
            );
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} transcripts found in the docs");
}

/// A fresh copy of `curves/` baked with `curvebake bake` (and `extra` more commands), for the
/// checks of what the docs show of a bake.
fn baked(extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let (dir, home) = sandbox();
    for command in std::iter::once(&"curvebake bake -q").chain(extra) {
        let done = shell(command, dir.path(), &home);
        assert!(
            done.status.success(),
            "`{command}` failed:\n{}",
            String::from_utf8_lossy(&done.stderr)
        );
    }
    (dir, home)
}

/// `text` without any whitespace.
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn every_file_the_docs_show_is_what_a_bake_writes() {
    let (dir, _home) = baked(&[]);
    let mut checked = 0;
    for block in doc_blocks() {
        let Some(path) = &block.shows else { continue };
        // Outputs from the bake, other files (an input, an example) from the project.
        let root = if path.starts_with("out/") {
            dir.path()
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR"))
        };
        let written = fs::read_to_string(root.join(path))
            .unwrap_or_else(|e| panic!("{}: {path}: {e}", block.place()));
        let shown = block.lines.join("\n");
        assert!(
            matches(&squeezed(&shown), &squeezed(&written)),
            "{}: the block is not {path} (as a bake of curves/ writes it):\n{written}",
            block.place()
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} files shown in the docs");
}

#[test]
fn every_ron_example_bakes() {
    let mut baked = 0;
    for block in doc_blocks().into_iter().filter(|b| b.lang == "ron") {
        let whole = block
            .lines
            .iter()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
            .is_some_and(|l| l.starts_with('(') || l.starts_with('['));
        // A whole curve file, or one motion value a line (each given a name and a duration).
        let files: Vec<String> = if whole {
            vec![block.lines.join("\n")]
        } else {
            block
                .lines
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    // As its comment says: "needs `duration`", "reaches `to` at `duration`".
                    let duration = if l.contains("`duration`") {
                        "duration: 1.0, "
                    } else {
                        ""
                    };
                    format!("(name: \"example\", {duration}motion: {l}\n)")
                })
                .collect()
        };
        for text in files {
            let dir = tempfile::tempdir().unwrap();
            fs::create_dir(dir.path().join("curves")).unwrap();
            fs::write(dir.path().join("curves/example.ron"), &text).unwrap();
            let done = shell("curvebake bake --formats json -q", dir.path(), dir.path());
            assert!(
                done.status.success(),
                "{}: this curve file does not bake:\n{text}\n{}",
                block.place(),
                String::from_utf8_lossy(&done.stderr)
            );
            baked += 1;
        }
    }
    assert!(baked >= 12, "only {baked} RON examples in the docs");
}

/// The paragraph (or table) right below `<!-- checked: WHAT -->` in `file`.
fn checked_text(file: &str, what: &str) -> String {
    let text = read_doc(file);
    let marker = format!("<!-- checked: {what} -->\n");
    let start = text
        .find(&marker)
        .unwrap_or_else(|| panic!("{file} has no `{marker}`"))
        + marker.len();
    let rest = &text[start..];
    rest[..rest.find("\n\n").unwrap_or(rest.len())].to_owned()
}

#[test]
fn every_figure_the_docs_state_is_the_bakes() {
    let (dir, _home) = baked(&["curvebake bake -q --css-frames --formats css --out frames"]);
    let index: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("out/curves.json")).unwrap()).unwrap();
    let motions = index["motions"].as_array().unwrap();

    // The table of how long the examples are baked: each row's duration and frames.
    let table = checked_text("docs/guide/curves.md", "durations");
    let mut rows = 0;
    for row in table.lines().skip(2) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let motion = motions
            .iter()
            .find(|m| m["name"] == cells[0])
            .unwrap_or_else(|| panic!("docs/guide/curves.md: no motion {} in curves/", cells[0]));
        let duration = format!("{:.2} s", motion["duration"].as_f64().unwrap());
        let frames = motion["frames"].to_string();
        assert_eq!(
            (cells[2], cells[3]),
            (duration.as_str(), frames.as_str()),
            "docs/guide/curves.md, the row of {}: a bake says {duration} and {frames} frames",
            cells[0]
        );
        rows += 1;
    }
    assert!(rows >= 5, "only {rows} rows in the table of durations");

    // The size of the CSS with --css-frames, against the default's.
    let kb = |path: &str| {
        let bytes = fs::metadata(dir.path().join(path)).unwrap().len();
        format!("{:.0} KB", bytes as f64 / 1000.0)
    };
    let sizes = format!(
        "`out/curves.css` takes {} instead of {}",
        kb("frames/curves.css"),
        kb("out/curves.css")
    );
    let css = read_doc("docs/guide/css.md");
    assert!(
        squeezed(&css).contains(&squeezed(&sizes)),
        "docs/guide/css.md should say: the examples' {sizes}"
    );

    // How many frames a bake has, as the code counts them: exactly, card-drop's stored D
    // times 60 is a hair above a whole number, which ceil(D·fps) taken exactly would count
    // one frame over; and a motion baked until rest has D = (frames − 1)/fps.
    let drop = motions.iter().find(|m| m["name"] == "card-drop").unwrap();
    let (duration, frames) = (
        drop["duration"].as_f64().unwrap(),
        drop["frames"].as_u64().unwrap(),
    );
    let n = (frames - 1) as f64;
    // D·60 − n rounded once: its sign is the exact product's.
    assert!(duration.mul_add(60.0, -n) > 0.0, "no longer a hair above");
    assert_eq!(duration, n / 60.0, "D = (frames − 1)/fps");
    let count = format!(
        "card-drop's D = {duration} is stored a hair above {n}/60, so exactly D·60 is a hair \
         above {n}, yet n = {n} and it has {frames} frames"
    );
    let curves = read_doc("docs/guide/curves.md");
    assert!(
        squeezed(&curves).contains(&squeezed(&count)),
        "docs/guide/curves.md should say: {count}"
    );

    // The default rest thresholds, as the bake applies them.
    use curvebake::internals::spec::{REST_FOR_PIXELS, REST_FOR_UNITLESS, REST_FOR_UNITS};
    let thresholds = format!(
        "to {} and {} per second for px and deg, to {} and {} per second for unitless values \
         (scale, opacity), and to {} and {} per second for other units",
        REST_FOR_PIXELS.0,
        REST_FOR_PIXELS.1,
        REST_FOR_UNITLESS.0,
        REST_FOR_UNITLESS.1,
        REST_FOR_UNITS.0,
        REST_FOR_UNITS.1
    );
    let paragraph = checked_text("docs/guide/curves.md", "rest thresholds");
    assert!(
        squeezed(&paragraph).contains(&squeezed(&thresholds)),
        "docs/guide/curves.md should say: Rest thresholds default {thresholds}"
    );
}

/// GitHub's anchor for a heading: lower case, spaces as `-`, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn every_relative_link_in_the_docs_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut links = 0;
    for file in doc_files()
        .into_iter()
        .chain(["tests/suite/README.md".to_owned()])
    {
        let text = read_doc(&file);
        let folder = Path::new(&file).parent().unwrap();
        for (_, rest) in text.match_indices("](").map(|(i, _)| ((), &text[i + 2..])) {
            let target = &rest[..rest.find(')').unwrap()];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                let joined = root.join(folder).join(path);
                assert!(joined.exists(), "{file}: the link ({target}) leads nowhere");
                joined
                    .strip_prefix(root)
                    .map_or_else(|_| path.to_owned(), |p| p.to_str().unwrap().to_owned())
            };
            if !fragment.is_empty() {
                let headings: Vec<String> = fs::read_to_string(root.join(&linked))
                    .unwrap()
                    .lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .map(|l| anchor(l.trim_start_matches('#')))
                    .collect();
                assert!(
                    headings.iter().any(|h| h == fragment),
                    "{file}: the link ({target}) names no heading of {linked}"
                );
            }
            links += 1;
        }
    }
    assert!(links >= 20, "only {links} relative links in the docs");
}
