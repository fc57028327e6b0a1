//! Faults: a writer that fails part way, a process killed in the middle of a large bake, and
//! output paths that would lead outside the output folder through symbolic links. Whatever
//! happens, every output file is the old one or the new one (or absent), never partial, and
//! nothing is written outside the output folder.

use crate::common;

use common::project::{curvebake, stderr};

use curvebake::internals::write::{Outcome, OutputDir, WriteError, TEMP_PREFIX};
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every file under `root` (relative path -> bytes), and separately the temporary files.
fn snapshot(root: &Path) -> (BTreeMap<PathBuf, Vec<u8>>, Vec<PathBuf>) {
    let mut files = BTreeMap::new();
    let mut temps = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(root).unwrap().to_owned();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(TEMP_PREFIX)
            {
                temps.push(relative);
            } else {
                files.insert(relative, fs::read(&path).unwrap());
            }
        }
    }
    (files, temps)
}

/// A manifest without the stamps it records (the inodes and times of its folder's files,
/// which differ between two folders baked alike) and the checksum that covers them.
fn without_stamps(manifest: &[u8]) -> serde_json::Value {
    let mut manifest: serde_json::Value = serde_json::from_slice(manifest).unwrap();
    let fields = manifest.as_object_mut().unwrap();
    fields.remove("summary_stamps");
    fields.remove("check");
    for motion in fields["motions"].as_array_mut().unwrap() {
        motion.as_object_mut().unwrap().remove("stamps");
    }
    manifest
}

/// The files of a [`snapshot`] but the manifest, which records the stamps (inode, times) of
/// the files of its own folder.
fn outputs(files: &BTreeMap<PathBuf, Vec<u8>>) -> BTreeMap<&PathBuf, &Vec<u8>> {
    let manifest = Path::new(curvebake::internals::manifest::MANIFEST_PATH);
    (files.iter()).filter(|(p, _)| *p != manifest).collect()
}

/// Files in `dir` (not below) whose name starts with the temporary prefix.
fn temps_in(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(TEMP_PREFIX))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// An injected writer that fails after N bytes
// ---------------------------------------------------------------------------------------------

/// Writes at most `limit` bytes of what it is given, then fails.
fn failing_after(limit: usize) -> impl FnMut(&mut fs::File, &[u8]) -> io::Result<()> {
    move |file, bytes| {
        let n = limit.min(bytes.len());
        file.write_all(&bytes[..n])?;
        file.flush()?;
        if n < bytes.len() {
            Err(io::Error::other(format!(
                "injected failure after {n} bytes"
            )))
        } else {
            Ok(())
        }
    }
}

#[test]
fn a_writer_that_fails_part_way_leaves_the_old_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = OutputDir::create(dir.path()).unwrap();
    let old = b"{\"old\": true}\n".repeat(100);
    let new = b"{\"new\": true}\n".repeat(1000);
    assert_eq!(out.write("json/a.json", &old).unwrap(), Outcome::Written);
    let path = dir.path().join("json/a.json");
    for limit in [0, 1, 7, 4096, new.len() - 1] {
        let error = out
            .write_with("json/a.json", &new, &mut failing_after(limit))
            .unwrap_err();
        assert!(
            matches!(&error, WriteError::Io { path, .. } if path.ends_with("json/a.json")),
            "{error}"
        );
        assert!(error.to_string().contains("injected failure"), "{error}");
        assert_eq!(fs::read(&path).unwrap(), old, "after failing at {limit}");
        assert_eq!(temps_in(&dir.path().join("json")), Vec::<String>::new());
    }
    // The same writer with room for every byte succeeds, and the new file replaces the old.
    let outcome = out
        .write_with("json/a.json", &new, &mut failing_after(new.len()))
        .unwrap();
    assert_eq!(outcome, Outcome::Written);
    assert_eq!(fs::read(&path).unwrap(), new);
    assert_eq!(temps_in(&dir.path().join("json")), Vec::<String>::new());
}

#[test]
fn a_writer_that_fails_on_a_new_file_leaves_no_file_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let out = OutputDir::create(dir.path()).unwrap();
    let result = out.write_with("css/b.css", b"@keyframes b {}", &mut failing_after(3));
    assert!(result.is_err());
    assert!(!dir.path().join("css/b.css").exists());
    assert_eq!(temps_in(&dir.path().join("css")), Vec::<String>::new());
}

#[test]
fn a_writer_that_panics_part_way_leaves_the_old_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = OutputDir::create(dir.path()).unwrap();
    out.write("a.json", b"old").unwrap();
    let panicked = std::panic::catch_unwind(|| {
        let _ = out.write_with("a.json", b"new and longer", &mut |file, bytes| {
            file.write_all(&bytes[..4])?;
            panic!("injected panic while writing");
        });
    });
    assert!(panicked.is_err());
    assert_eq!(fs::read(dir.path().join("a.json")).unwrap(), b"old");
    assert_eq!(temps_in(dir.path()), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn outputs_are_created_with_the_permissions_of_any_new_file_not_private_ones() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = OutputDir::create(dir.path()).unwrap();
    out.write("a.json", b"{}").unwrap();
    // A plain new file gets 0666 less the umask; an output must get the same, not 0600.
    fs::write(dir.path().join("plain"), b"{}").unwrap();
    let mode = |name: &str| {
        fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("a.json"), mode("plain"));
}

// ---------------------------------------------------------------------------------------------
// Writes that would leave the output folder
// ---------------------------------------------------------------------------------------------

const SPRING: &str =
    r#"(name: "card", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26))"#;

/// A project with one valid motion in `curves/`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("curves")).unwrap();
    fs::write(dir.path().join("curves/card.ron"), SPRING).unwrap();
    dir
}

fn is_empty(dir: &Path) -> bool {
    fs::read_dir(dir).unwrap().next().is_none()
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_inside_the_output_folder_is_refused_with_exit_3() {
    let dir = project();
    let elsewhere = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("out")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("out/json")).unwrap();
    let output = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "error: json/card.json: refusing to write outside the output folder out (it goes through a symbolic link)"
        ),
        "{}",
        stderr(&output)
    );
    assert!(!stderr(&output).contains("panicked"));
    assert!(
        is_empty(elsewhere.path()),
        "something was written through the link"
    );
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_to_a_file_inside_the_output_folder_is_not_written_through() {
    let dir = project();
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = elsewhere.path().join("victim.txt");
    fs::write(&victim, "precious").unwrap();
    fs::create_dir_all(dir.path().join("out/json")).unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join("out/json/card.json")).unwrap();
    let output = curvebake(dir.path(), &["bake", "--formats", "json"]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("json/card.json: refusing to write outside the output folder"),
        "{}",
        stderr(&output)
    );
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert!(dir.path().join("out/json/card.json").is_symlink());
}

#[cfg(unix)]
#[test]
fn an_output_folder_given_through_a_symbolic_link_is_refused_with_exit_3() {
    let dir = project();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("site")).unwrap();
    for out in ["site/motion", "site", "./site/motion/deeper"] {
        let output = curvebake(dir.path(), &["bake", "--formats", "json", "--out", out]);
        assert_eq!(output.status.code(), Some(3), "{out}: {}", stderr(&output));
        let link = if out.starts_with("./") {
            "./site"
        } else {
            "site"
        };
        assert!(
            stderr(&output).contains(&format!(
                "error: {out}: refusing to write through the symbolic link {link}"
            )),
            "{out}: {}",
            stderr(&output)
        );
        assert!(
            is_empty(elsewhere.path()),
            "{out}: written through the link"
        );
    }
    // The real path, or any absolute one, is the user's explicit choice and is used as given.
    let real = elsewhere.path().join("motion");
    let output = curvebake(
        dir.path(),
        &["bake", "--formats", "json", "--out", real.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(real.join("json/card.json").exists());
}

/// Issue 27, item 2: a project file's `out` through a link planted in the project is refused
/// however the project file's path is spelled (relative, absolute, from another folder), at
/// the `out` key; an `out` outside the project file's folder is said.
#[cfg(unix)]
#[test]
fn a_project_files_out_through_a_symbolic_link_is_refused_however_the_file_is_named() {
    let dir = project();
    let victim = tempfile::tempdir().unwrap();
    fs::write(victim.path().join("index.html"), "precious").unwrap();
    std::os::unix::fs::symlink(victim.path(), dir.path().join("site")).unwrap();
    fs::write(dir.path().join("curvebake.toml"), "out = \"site\"\n").unwrap();
    let absolute = dir.path().join("curvebake.toml");
    let absolute = absolute.to_str().unwrap();
    let spellings = [
        (dir.path().to_owned(), "curvebake.toml"),
        (dir.path().to_owned(), "./curvebake.toml"),
        (dir.path().to_owned(), absolute),
        (dir.path().join("curves"), "../curvebake.toml"),
        (std::env::temp_dir(), absolute),
    ];
    for (cwd, config) in spellings {
        let output = curvebake(&cwd, &["bake", "curves", "--config", config]);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{config}: {text}");
        assert!(
            text.contains(":1:7: out: refusing to write through the symbolic link"),
            "{config}: {text}"
        );
        assert_eq!(
            fs::read_to_string(victim.path().join("index.html")).unwrap(),
            "precious"
        );
        assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 1, "{config}");
    }
    fs::write(
        dir.path().join("curvebake.toml"),
        "out = \"../elsewhere\"\n",
    )
    .unwrap();
    let output = curvebake(dir.path(), &["bake", "--check"]);
    assert!(
        stderr(&output).contains(
            "warning: curvebake.toml: out = \"../elsewhere\" is outside the project file's folder"
        ),
        "{}",
        stderr(&output)
    );
}

/// Issue 27, item 1: a folder of the output folder swapped for a symbolic link to another
/// folder while a bake runs (after the bake has opened it): writes and removals still go to
/// the folder the bake opened, nothing is written or removed in the link's target, and a
/// folder opened after the swap is refused.
#[cfg(unix)]
#[test]
fn a_folder_swapped_for_a_link_during_a_bake_sends_nothing_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("out");
    let victim = tempfile::tempdir().unwrap();
    for name in ["a.json", "b.json", "c.json"] {
        fs::write(victim.path().join(name), "precious").unwrap();
    }
    let out = OutputDir::create(&root).unwrap();
    for name in ["a", "b"] {
        out.write(&format!("json/{name}.json"), b"ours").unwrap();
    }
    // Another process moves the folder away and puts a link in its place.
    fs::rename(root.join("json"), root.join("json-moved")).unwrap();
    std::os::unix::fs::symlink(victim.path(), root.join("json")).unwrap();
    std::os::unix::fs::symlink(victim.path(), root.join("css")).unwrap();

    assert!(out.remove("json/a.json").unwrap());
    assert_eq!(out.write("json/c.json", b"new").unwrap(), Outcome::Written);
    let mut stream = out.stream("json/b.json").unwrap();
    stream.append(b"streamed").unwrap();
    stream.finish().unwrap();
    assert!(matches!(
        out.write("css/a.css", b"x"),
        Err(WriteError::Escapes { .. })
    ));
    for name in ["a.json", "b.json", "c.json"] {
        let kept = fs::read_to_string(victim.path().join(name)).unwrap();
        assert_eq!(kept, "precious", "{name}");
    }
    assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 3);
    let moved = root.join("json-moved");
    assert!(!moved.join("a.json").exists());
    assert_eq!(fs::read(moved.join("b.json")).unwrap(), b"streamed");
    assert_eq!(fs::read(moved.join("c.json")).unwrap(), b"new");
}

/// Issue 27, item 6: a bake stopped by SIGINT or SIGTERM removes its temporary files (and ends
/// as the signal ends a process).
#[cfg(unix)]
#[test]
fn a_bake_stopped_by_sigint_or_sigterm_leaves_no_temporary_files() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        write_curves(&dir.path().join("curves"), MOTIONS, 1);
        let mut child = Command::new(env!("CARGO_BIN_EXE_curvebake"))
            .current_dir(dir.path())
            .args(["bake", "--quiet", "--formats", "json,css"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // While the bundles are streamed, their temporary files are there.
        let out = dir.path().join("out");
        let mut seen = false;
        for _ in 0..6000 {
            if out.is_dir() && !temps_in(&out).is_empty() {
                seen = true;
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(seen, "no temporary file was seen while the bake ran");
        // SAFETY: signalling our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "{status}");
        let (_, temps) = snapshot(&out);
        assert!(temps.is_empty(), "signal {signal}: {temps:?}");
    }
}

#[test]
fn an_output_folder_that_is_a_file_is_refused_with_exit_3() {
    let dir = project();
    fs::write(dir.path().join("afile"), "keep me").unwrap();
    let output = curvebake(dir.path(), &["bake", "--formats", "json", "--out", "afile"]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("error: afile: the output folder is a file, not a folder"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("afile")).unwrap(),
        "keep me"
    );
}

// ---------------------------------------------------------------------------------------------
// A process killed in the middle of a large bake
// ---------------------------------------------------------------------------------------------

/// Motions in the large bake.
const MOTIONS: usize = 3000;

/// Writes `count` motions in 30 files; `version` changes every motion's outputs.
fn write_curves(curves: &Path, count: usize, version: u32) {
    let _ = fs::remove_dir_all(curves);
    fs::create_dir_all(curves).unwrap();
    let per_file = count.div_ceil(30);
    for f in 0..30 {
        let motions: Vec<String> = (f * per_file..((f + 1) * per_file).min(count))
            .map(|k| {
                format!(
                    "(name: \"m{k:04}\", fps: 120, duration: 2, motion: Spring(from: {k}, to: {}, \
                     stiffness: {}, damping: 10))",
                    k + 500,
                    100 + k % 50 + version as usize
                )
            })
            .collect();
        fs::write(
            curves.join(format!("f{f:02}.ron")),
            format!("[\n{}\n]\n", motions.join(",\n")),
        )
        .unwrap();
    }
}

/// Starts a bake into `out` and SIGKILLs it after `delay`; returns whether it was still
/// running when killed.
fn bake_and_kill(dir: &Path, out: &str, delay: Duration) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .current_dir(dir)
        .args(["bake", "--formats", "json", "--quiet", "--out", out])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

/// Takes the manifest and the claims out of `found`, checking that the manifest is one of the
/// `allowed` versions' or the record of a bake in progress: which files are ours (`owned`
/// motions), no hash to trust. Every output file left is known to be ours: the manifest or
/// the claims beside it name it (what the killed bake wrote for motions no manifest named).
fn take_manifest(
    found: &mut BTreeMap<PathBuf, Vec<u8>>,
    allowed: &[&BTreeMap<PathBuf, Vec<u8>>],
    owned: usize,
) {
    let manifest = Path::new(".curvebake-manifest.json");
    let claims = found.remove(Path::new(".curvebake-claims"));
    let record = found.remove(manifest);
    let mut ours: Vec<String> = [
        "curves.json",
        "index.html",
        ".curvebake-lock",
        ".curvebake-files",
    ]
    .map(String::from)
    .into();
    let mut name_files = |entries: &[serde_json::Value]| {
        for m in entries {
            let files = m["files"].as_array().unwrap();
            ours.extend(files.iter().map(|f| f.as_str().unwrap().to_owned()));
        }
    };
    // The bake finished before it was killed: its manifest is the complete one.
    let complete = record.as_ref().is_some_and(|record| {
        (allowed.iter().filter_map(|v| v.get(manifest)))
            .any(|m| without_stamps(m) == without_stamps(record))
    });
    match &record {
        // Killed before the bake wrote its record: a fresh folder only.
        None => assert_eq!(owned, 0, "the record of what is ours disappeared"),
        Some(_) if complete => {}
        Some(record) => {
            let record: serde_json::Value = serde_json::from_slice(record).unwrap();
            assert_eq!(record["run"], "", "{record}");
            let motions = record["motions"].as_array().unwrap();
            assert_eq!(motions.len(), owned, "{record}");
            assert!(motions.iter().all(|m| m["hash"] == ""), "{record}");
            name_files(motions);
        }
    }
    if let Some(claims) = claims {
        let lines = claims.split(|&b| b == b'\n').filter(|l| !l.is_empty());
        let claims: Vec<serde_json::Value> = lines
            .map_while(|l| serde_json::from_slice(l).ok())
            .collect();
        name_files(&claims);
    }
    if complete {
        return;
    }
    let unknown: Vec<&PathBuf> = (found.keys())
        .filter(|p| !ours.contains(&p.display().to_string()))
        .collect();
    assert!(
        unknown.is_empty(),
        "{} files no record names, {:?} first",
        unknown.len(),
        unknown.first()
    );
}

/// Checks that every file in `found` is one of the `allowed` versions of it; returns how many
/// files are each version (by index), panicking on a file that is none of them.
fn classify(
    found: &BTreeMap<PathBuf, Vec<u8>>,
    allowed: &[&BTreeMap<PathBuf, Vec<u8>>],
    what: &str,
) -> Vec<usize> {
    let mut counts = vec![0; allowed.len()];
    for (path, bytes) in found {
        match allowed
            .iter()
            .position(|version| version.get(path) == Some(bytes))
        {
            Some(k) => counts[k] += 1,
            None => {
                let json = serde_json::from_slice::<serde_json::Value>(bytes);
                panic!(
                    "{what}: {} is neither version ({} bytes, parses as JSON: {})",
                    path.display(),
                    bytes.len(),
                    json.is_ok()
                );
            }
        }
    }
    counts
}

#[test]
fn a_bake_killed_part_way_leaves_only_complete_files_and_a_rerun_repairs_everything() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let curves = root.join("curves");

    // Version A, baked completely into out/; version B baked cleanly into ref/.
    write_curves(&curves, MOTIONS, 0);
    let output = curvebake(root, &["bake", "--formats", "json", "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (a, _) = snapshot(&root.join("out"));
    write_curves(&curves, MOTIONS, 1);
    let started = Instant::now();
    let output = curvebake(
        root,
        &["bake", "--formats", "json", "--quiet", "--out", "ref"],
    );
    let full = started.elapsed();
    assert!(output.status.success(), "{}", stderr(&output));
    let (b, _) = snapshot(&root.join("ref"));
    assert_eq!(
        b.len(),
        MOTIONS + 4,
        "tables, index, manifest, lock and the list of files"
    );

    // Killed while replacing A by B: each file is A's or B's, never partial.
    let mut caught_running = 0;
    let mut leftovers = Vec::new();
    for fraction in [0.3, 0.6, 0.9] {
        let running = bake_and_kill(root, "out", full.mul_f64(fraction));
        caught_running += usize::from(running);
        let (mut found, temps) = snapshot(&root.join("out"));
        assert_eq!(found.len(), MOTIONS + 4, "an output file disappeared");
        take_manifest(&mut found, &[&a, &b], MOTIONS);
        let counts = classify(&found, &[&a, &b], "replacing A by B");
        eprintln!(
            "killed at {fraction} of {full:?} (running: {running}): {} files A, {} files B, {} temporary files",
            counts[0],
            counts[1],
            temps.len()
        );
        leftovers = temps;
    }

    // Killed while baking into an empty folder: each file is B's or absent, and known to be
    // ours (claimed before it was written). Killed sooner if the bake finished first.
    let (fraction, running) = [0.5, 0.3, 0.15]
        .into_iter()
        .map(|fraction| {
            let _ = fs::remove_dir_all(root.join("fresh"));
            (
                fraction,
                bake_and_kill(root, "fresh", full.mul_f64(fraction)),
            )
        })
        .find(|(_, running)| *running)
        .unwrap_or((0.15, false));
    caught_running += usize::from(running);
    let (mut found, temps) = snapshot(&root.join("fresh"));
    take_manifest(&mut found, &[&b], 0);
    let counts = classify(&found, &[&b], "baking into an empty folder");
    eprintln!(
        "killed a fresh bake at {fraction} (running: {running}): {} of {} files written, {} temporary files",
        counts[0],
        b.len(),
        temps.len()
    );
    assert!(
        caught_running > 0,
        "no kill landed while the bake was running; make it larger"
    );
    // The killed bake's motions were all new; half of them are deleted (their files are
    // left out of the inputs): the next bake removes their files, and nothing of the user's.
    fs::create_dir_all(root.join("kept")).unwrap();
    for f in 0..15 {
        let file = format!("f{f:02}.ron");
        fs::copy(curves.join(&file), root.join("kept").join(&file)).unwrap();
    }
    let fresh = root.join("fresh");
    fs::create_dir_all(fresh.join("json")).unwrap();
    fs::write(fresh.join("json/mine.json"), "{}").unwrap();
    fs::write(fresh.join("notes.txt"), "mine").unwrap();
    let output = curvebake(
        root,
        &[
            "bake",
            "kept",
            "--formats",
            "json",
            "--quiet",
            "--out",
            "fresh",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let (mut left, _) = snapshot(&fresh);
    assert_eq!(left.remove(Path::new("json/mine.json")).unwrap(), b"{}");
    assert_eq!(left.remove(Path::new("notes.txt")).unwrap(), b"mine");
    let tables = (left.keys()).filter(|p| p.starts_with("json")).count();
    assert_eq!(tables, MOTIONS / 2, "the deleted motions' tables are gone");

    // A re-run repairs everything, and --check agrees.
    let output = curvebake(root, &["bake", "--formats", "json", "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = curvebake(root, &["bake", "--formats", "json", "--check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (repaired, temps) = snapshot(&root.join("out"));
    assert!(
        outputs(&repaired) == outputs(&b),
        "the re-run did not restore what a clean bake writes"
    );
    // Temporary files the killed runs left are removed by the re-run, which holds the lock.
    eprintln!(
        "temporary files left by the killed runs: {}",
        leftovers.len()
    );
    assert!(temps.is_empty(), "{temps:?}");
}

/// A bake holds the folder's lock, so every temporary file there is a leftover of a run that
/// ended (issue 27, item 6: what a SIGKILL left): all are removed, recent ones too, but not
/// those of another output folder inside this one (it has a lock of its own).
#[test]
fn a_bake_removes_temporary_files_left_and_keeps_everything_else() {
    let dir = project();
    let out = dir.path().join("out");
    fs::create_dir_all(out.join("css")).unwrap();
    let place = |relative: &str, age: Duration| {
        let path = out.join(relative);
        fs::write(&path, b"left behind").unwrap();
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(std::time::SystemTime::now() - age)
            .unwrap();
    };
    let hour = Duration::from_secs(3600);
    // A killed run's temporary files, an hour old, at the top and in a format's folder.
    place(&format!("{TEMP_PREFIX}old"), hour);
    place(&format!("css/{TEMP_PREFIX}old"), hour);
    // One just left.
    place(&format!("css/{TEMP_PREFIX}recent"), Duration::ZERO);
    // Not curvebake's, however old.
    place("css/notes.txt", hour);
    // Another output folder's, inside this one: a bake of it may be running.
    fs::create_dir_all(out.join("nested")).unwrap();
    place("nested/.curvebake-lock", hour);
    place(&format!("nested/{TEMP_PREFIX}theirs"), hour);

    let output = curvebake(dir.path(), &["bake", "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(temps_in(&out).is_empty(), "{:?}", temps_in(&out));
    assert!(temps_in(&out.join("css")).is_empty());
    assert_eq!(
        temps_in(&out.join("nested")),
        [format!("{TEMP_PREFIX}theirs")]
    );
    assert_eq!(fs::read(out.join("css/notes.txt")).unwrap(), b"left behind");
    assert!(out.join("css/card.css").exists());
}

/// The manifest of a complete bake of A says A's files are current. A bake towards B killed
/// part way leaves some of B's files; going back to A, the re-run must rewrite them. A bake
/// removes the manifest before its first write and writes it back only when complete, so the
/// killed run leaves none and the re-run does not trust stale hashes.
#[test]
fn a_rerun_after_a_killed_bake_repairs_files_the_manifest_thinks_are_current() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let curves = root.join("curves");
    write_curves(&curves, MOTIONS, 0);
    let started = Instant::now();
    let output = curvebake(root, &["bake", "--formats", "json", "--quiet"]);
    let full = started.elapsed();
    assert!(output.status.success(), "{}", stderr(&output));
    let (a, _) = snapshot(&root.join("out"));
    write_curves(&curves, MOTIONS, 1);
    // Kill part way; if the bake already finished (a fast machine), kill sooner next time.
    let caught = [0.3, 0.15, 0.05]
        .into_iter()
        .any(|fraction| bake_and_kill(root, "out", full.mul_f64(fraction)));
    assert!(caught, "every bake finished before it could be killed");
    let (found, _) = snapshot(&root.join("out"));
    let changed = found
        .iter()
        .filter(|(p, bytes)| a.get(*p) != Some(bytes))
        .count();
    assert!(changed > 0, "the killed bake changed nothing; kill later");
    write_curves(&curves, MOTIONS, 0);
    let output = curvebake(root, &["bake", "--formats", "json", "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = curvebake(root, &["bake", "--formats", "json", "--check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (after, _) = snapshot(&root.join("out"));
    assert!(outputs(&after) == outputs(&a));
}
