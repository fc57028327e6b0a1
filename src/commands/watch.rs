//! `curvebake watch`: bake, then bake again each time a curve file is saved.
//!
//! Every re-bake is a whole [`Bake`] run with the same options, so it reads every input and
//! keeps the indexes whole, while the output folder's manifest lets it skip the motions that
//! did not change and rewrite only the files whose bytes did. Events are debounced: the first
//! change opens a window ([`DEBOUNCE`] by default) in which further events only add to the
//! list of changed files, so an editor's save burst (write, rename, chmod, ...) bakes once.
//! Errors are reported to the caller and watching goes on.

use crate::builder::Bake;
use crate::run::{FatalError, Report};
use curvebake_model::source::{is_curve_file_name, is_editor_temp};
use notify::event::{ModifyKind, RemoveKind};
use notify::{EventKind, RecursiveMode, Watcher as _};
use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long after the first change of a burst the bake waits for more.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// How often an idle watcher checks that its input folders are still the ones it watches: a
/// folder deleted and made again (`git stash`, a generator) is a new folder, which the file
/// system's watch of the old one never sees.
const RECHECK: Duration = Duration::from_secs(1);

/// What the watcher reports.
#[derive(Debug)]
pub enum WatchEvent {
    /// A bake ran: the first one at start (with no changed paths), then one per burst.
    Baked {
        /// The curve files (or folders) whose change started this bake, sorted.
        changed: Vec<PathBuf>,
        /// What the bake did, or why it could not run.
        result: Result<Report, FatalError>,
    },
    /// The file system watcher reported a problem (watching goes on).
    Trouble(String),
}

/// Why watching could not start.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// A bad option.
    #[error("{0}")]
    Usage(String),
    /// An input cannot be watched.
    #[error("{path}: cannot watch: {message}")]
    Watch {
        /// The input.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// A path as the watcher reports it: absolute, with symbolic links resolved where it exists.
fn absolute(path: &Path) -> PathBuf {
    path.canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_owned())
}

/// What is watched, and which event paths count.
struct Scope {
    /// Folders given as inputs (watched recursively), with the identity of the folder watched
    /// (`None` while it is missing).
    dirs: Vec<(PathBuf, Option<FolderId>)>,
    /// Files given as inputs (their folder is watched, since editors replace files by rename).
    files: Vec<PathBuf>,
    /// The output folder: what a bake writes there never counts (the inputs may be inside it).
    out: PathBuf,
}

/// What tells one folder from another at the same path: device and inode on Unix (elsewhere,
/// only whether it exists).
type FolderId = (u64, u64);

fn folder_id(path: &Path) -> Option<FolderId> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_dir())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Some((0, 0))
    }
}

impl Scope {
    /// Whether an event of `kind` on `path` can change the bake: an input file; a curve file
    /// under an input folder (even inside the output folder, where a bake writes no curve
    /// file), but not an editor's temporary file; a folder under an input folder, outside the
    /// output folder (a bake makes folders there).
    fn counts(&self, path: &Path, kind: &EventKind) -> bool {
        if self.files.iter().any(|f| f == path) {
            return true;
        }
        if !self.dirs.iter().any(|(d, _)| path.starts_with(d)) {
            return false;
        }
        let name = path.file_name().unwrap_or_default();
        if is_editor_temp(name) {
            return false;
        }
        if is_curve_file_name(path) {
            return true;
        }
        // A folder: one that is there, or one removed or moved (a file without an extension
        // that was removed is not one).
        let folder = path.is_dir()
            || matches!(
                kind,
                EventKind::Remove(RemoveKind::Folder) | EventKind::Modify(ModifyKind::Name(_))
            ) && !path.exists();
        folder && !path.starts_with(&self.out)
    }
}

/// Bakes, then re-bakes on every burst of changes to the inputs, calling `report` after each
/// bake (and on watcher trouble) until it returns [`ControlFlow::Break`]. `debounce` is the
/// window after the first change of a burst (see [`DEBOUNCE`]).
pub fn watch(
    bake: &Bake,
    debounce: Duration,
    mut report: impl FnMut(WatchEvent) -> ControlFlow<()>,
) -> Result<(), WatchError> {
    let options = bake
        .resolved()
        .map_err(|e| WatchError::Usage(e.to_string()))?;
    let bake = Bake::from(options.clone());
    let (tx, rx) = mpsc::channel::<notify::Result<notify::Event>>();
    let mut watcher = notify::recommended_watcher(tx).map_err(|e| WatchError::Watch {
        path: PathBuf::from("."),
        message: e.to_string(),
    })?;
    let mut scope = Scope {
        dirs: Vec::new(),
        files: Vec::new(),
        out: absolute(&options.out),
    };
    for input in &options.inputs {
        let fail = |message: String| WatchError::Watch {
            path: input.clone(),
            message,
        };
        let meta = std::fs::metadata(input).map_err(|e| fail(e.to_string()))?;
        let (target, mode) = if meta.is_dir() {
            let path = absolute(input);
            scope.dirs.push((path.clone(), folder_id(&path)));
            (path, RecursiveMode::Recursive)
        } else {
            // The folder resolved, the file name as given: events name the file itself, even
            // when it is a symbolic link.
            let parent = match input.parent() {
                Some(p) if !p.as_os_str().is_empty() => absolute(p),
                _ => absolute(Path::new(".")),
            };
            let name = input
                .file_name()
                .ok_or_else(|| fail("not a file name".into()))?;
            scope.files.push(parent.join(name));
            (parent, RecursiveMode::NonRecursive)
        };
        watcher
            .watch(&target, mode)
            .map_err(|e| fail(e.to_string()))?;
    }

    let mut changed = BTreeSet::new();
    let mut first = true;
    loop {
        if !first {
            // Wait for the first change of a burst, then gather the burst.
            let mut deadline: Option<Instant> = None;
            loop {
                let event = match deadline {
                    None => rx.recv_timeout(RECHECK),
                    Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
                };
                match event {
                    Ok(Ok(event)) => {
                        if matches!(event.kind, EventKind::Access(_)) {
                            continue;
                        }
                        let before = changed.len();
                        let kind = event.kind;
                        changed.extend(event.paths.into_iter().filter(|p| scope.counts(p, &kind)));
                        if deadline.is_none() && changed.len() > before {
                            deadline = Some(Instant::now() + debounce);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) if deadline.is_none() => {
                        // Idle: an input folder made again is watched again, and baked.
                        for (path, id) in &mut scope.dirs {
                            let now = folder_id(path);
                            if now == *id {
                                continue;
                            }
                            *id = now;
                            if now.is_none() {
                                let gone = format!(
                                    "{} is gone; it is baked again when it is back",
                                    path.display()
                                );
                                if report(WatchEvent::Trouble(gone)).is_break() {
                                    return Ok(());
                                }
                                continue;
                            }
                            let _ = watcher.unwatch(path);
                            if let Err(e) = watcher.watch(path, RecursiveMode::Recursive) {
                                *id = None;
                                let trouble = format!("{}: {e}", path.display());
                                if report(WatchEvent::Trouble(trouble)).is_break() {
                                    return Ok(());
                                }
                                continue;
                            }
                            changed.insert(path.clone());
                            deadline = Some(Instant::now() + debounce);
                        }
                    }
                    Ok(Err(e)) => {
                        if report(WatchEvent::Trouble(e.to_string())).is_break() {
                            return Ok(());
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => break,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                }
            }
        }
        first = false;
        let result = bake.run();
        if result.is_ok() {
            // The output folder exists now: resolve it as the events will name it.
            scope.out = absolute(&options.out);
        }
        let event = WatchEvent::Baked {
            changed: std::mem::take(&mut changed).into_iter().collect(),
            result,
        };
        if report(event).is_break() {
            return Ok(());
        }
    }
}
