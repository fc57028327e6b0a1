//! `curvebake watch`: bake, then bake again each time a curve file is saved.
//!
//! Every re-bake is a whole [`Bake`] run with the same options, so it reads every input and
//! keeps the indexes whole, while the output folder's manifest lets it skip the motions that
//! did not change and rewrite only the files whose bytes did. Events are debounced: the first
//! change opens a window ([`DEBOUNCE`] by default) in which further events only add to the
//! list of changed files, so an editor's save burst (write, rename, chmod, ...) bakes once.
//! Errors are reported to the caller and watching goes on. A curve file curvebake itself
//! wrote (the review page's Save, told through [`Saves`]) is baked at once: no editor's burst
//! follows such a write.
//!
//! Every folder watched (an input folder, or the folder of an input file) is checked while
//! the watcher is idle: one deleted and made again, also in one step (`rm -rf curves && mkdir
//! curves`, which may reuse the inode), is watched again and baked. The project file the
//! options came from is watched too: a change to it is reported (the options stay those the
//! watch started with).

use crate::builder::Bake;
use crate::run::{FatalError, Report};
use curvebake_model::source::{is_curve_file_name, is_editor_temp};
use notify::event::{ModifyKind, RemoveKind};
use notify::{EventKind, RecursiveMode, Watcher as _};
use std::collections::{BTreeMap, BTreeSet};
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

/// What reaches the watch loop: the file system's events, and the curve files curvebake
/// itself wrote, with their bytes.
#[derive(Debug)]
enum Signal {
    Event(notify::Result<notify::Event>),
    Saved(PathBuf, Vec<u8>),
}

/// The inbox of a watch: given to [`watch`], after its [`Saves`] went to what writes curve
/// files for the user (the review page's Save under `watch --serve`).
#[derive(Debug)]
pub struct Inbox {
    tx: mpsc::Sender<Signal>,
    rx: mpsc::Receiver<Signal>,
}

impl Inbox {
    /// An empty inbox.
    pub fn new() -> Self {
        let (tx, rx) = mpsc::channel();
        Self { tx, rx }
    }

    /// Where to say what curvebake itself saved.
    pub fn saves(&self) -> Saves {
        Saves(self.tx.clone())
    }
}

impl Default for Inbox {
    fn default() -> Self {
        Self::new()
    }
}

/// Tells a watch that curvebake itself replaced a curve file: the watch bakes it at once,
/// without waiting out the debounce window, and takes the file system's events of that write
/// (which may come before or after) for nothing new as long as the file holds those bytes.
#[derive(Debug, Clone)]
pub struct Saves(mpsc::Sender<Signal>);

impl Saves {
    /// `path` now holds `bytes`, written by curvebake.
    pub fn saved(&self, path: &Path, bytes: &[u8]) {
        let _ = self.0.send(Signal::Saved(absolute(path), bytes.to_vec()));
    }
}

/// Whether the event at `path` is one of curvebake's own writes: the file still holds what
/// [`Saves::saved`] said (in `own`). A file that holds anything else is the user's again.
fn own_write(own: &mut BTreeMap<PathBuf, Vec<u8>>, path: &Path) -> bool {
    let path = absolute(path);
    let Some(bytes) = own.get(&path) else {
        return false;
    };
    if std::fs::read(&path).is_ok_and(|now| now == *bytes) {
        return true;
    }
    own.remove(&path);
    false
}

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
    /// The project file the options came from changed; they stay those of the start.
    ProjectFileChanged(PathBuf),
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

/// What one watcher event changed.
#[derive(Default)]
struct Changes {
    /// Some input (a file to bake).
    inputs: bool,
    /// The project file.
    config: bool,
}

/// What is watched, and which event paths count.
struct Scope {
    /// The folders watched: the input folders (recursively) and the folders of input files.
    folders: Vec<Watched>,
    /// Files given as inputs (their folder is watched, since editors replace files by rename).
    files: Vec<PathBuf>,
    /// The project file the options came from, if any.
    config: Option<PathBuf>,
    /// The output folder: what a bake writes there never counts (the inputs may be inside it).
    out: PathBuf,
}

/// A folder watched.
struct Watched {
    path: PathBuf,
    /// Recursive for an input folder, not for the folder of an input file.
    mode: RecursiveMode,
    /// The identity of the folder watched (`None` while it is missing).
    id: Option<FolderId>,
    /// Its removal was seen: the watch of it is gone, whatever the folder there now says.
    removed: bool,
}

/// What tells one folder from another at the same path: device, inode and birth time on Unix
/// (an inode may be reused at once; elsewhere, only whether it exists).
type FolderId = (u64, u64, Option<std::time::SystemTime>);

fn folder_id(path: &Path) -> Option<FolderId> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_dir())?;
    let born = meta.created().ok();
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino(), born))
    }
    #[cfg(not(unix))]
    {
        Some((0, 0, born))
    }
}

/// Whether a name is that of `sed -i`'s temporary file: `sed` and six letters or digits. (A
/// folder so named, moved away, is then not seen as a change until the next one.)
fn is_sed_temp(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.strip_prefix("sed")
        .is_some_and(|rest| rest.len() == 6 && rest.chars().all(|c| c.is_ascii_alphanumeric()))
}

impl Scope {
    /// Whether an event of `kind` on `path` can change the bake: an input file; a curve file
    /// under an input folder, but not an editor's temporary file, nor one in the output
    /// folder found from above (the search of an input folder does not enter the output
    /// folder, whose `curves.tokens.json` is the bake's own), while one under an input
    /// folder inside the output folder counts; a folder under an input folder, outside the
    /// output folder (a bake makes folders there).
    fn counts(&self, path: &Path, kind: &EventKind) -> bool {
        if self.files.iter().any(|f| f == path) {
            return true;
        }
        let recursive = |w: &&Watched| w.mode == RecursiveMode::Recursive;
        let mut holding =
            (self.folders.iter().filter(recursive)).filter(|w| path.starts_with(&w.path));
        let Some(first) = holding.next() else {
            return false;
        };
        let name = path.file_name().unwrap_or_default();
        if is_editor_temp(name) {
            return false;
        }
        if is_curve_file_name(path) {
            let searched = |w: &Watched| w.path.starts_with(&self.out);
            return !path.starts_with(&self.out) || searched(first) || holding.any(searched);
        }
        // A folder: one that is there, or one removed or moved (a file without an extension
        // that was removed is not one).
        let folder = path.is_dir()
            || matches!(
                kind,
                EventKind::Remove(RemoveKind::Folder) | EventKind::Modify(ModifyKind::Name(_))
            ) && !path.exists()
                && !is_sed_temp(name);
        folder && !path.starts_with(&self.out)
    }

    /// Notes the removal of a watched folder itself (its watch goes with it).
    /// Takes a watcher's event: notes removed folders, adds the inputs it changed (but not
    /// files curvebake saved, as long as they hold what it saved: `own`) to `changed`, and
    /// says whether it changed any input and whether it touched the project file.
    fn take(
        &mut self,
        event: notify::Event,
        changed: &mut BTreeSet<PathBuf>,
        own: &mut BTreeMap<PathBuf, Vec<u8>>,
    ) -> Changes {
        let kind = event.kind;
        if matches!(kind, EventKind::Access(_)) {
            return Changes::default();
        }
        let before = changed.len();
        let mut config = false;
        for path in &event.paths {
            self.note_removal(path, &kind);
            config |= self.config.as_ref() == Some(path);
        }
        changed.extend(
            (event.paths.into_iter()).filter(|p| self.counts(p, &kind) && !own_write(own, p)),
        );
        Changes {
            inputs: changed.len() > before,
            config,
        }
    }

    fn note_removal(&mut self, path: &Path, kind: &EventKind) {
        if matches!(kind, EventKind::Remove(_)) {
            for watched in self.folders.iter_mut().filter(|w| w.path == path) {
                watched.removed = true;
            }
        }
    }

    /// Adds a folder to watch (once).
    fn add(&mut self, path: PathBuf, mode: RecursiveMode) -> bool {
        if self.folders.iter().any(|w| w.path == path) {
            return false;
        }
        let id = folder_id(&path);
        self.folders.push(Watched {
            path,
            mode,
            id,
            removed: false,
        });
        true
    }
}

/// Bakes, then re-bakes on every burst of changes to the inputs, calling `report` after each
/// bake (and on watcher trouble, and when the project file `config` the options came from
/// changes) until it returns [`ControlFlow::Break`]. `debounce` is the window after the first
/// change of a burst (see [`DEBOUNCE`]); the files `inbox` hears of are baked at once.
pub fn watch(
    bake: &Bake,
    debounce: Duration,
    config: Option<&Path>,
    inbox: Inbox,
    mut report: impl FnMut(WatchEvent) -> ControlFlow<()>,
) -> Result<(), WatchError> {
    let options = bake
        .resolved()
        .map_err(|e| WatchError::Usage(e.to_string()))?;
    let bake = Bake::from(options.clone());
    let Inbox { tx, rx } = inbox;
    let events = move |event| {
        let _ = tx.send(Signal::Event(event));
    };
    let mut watcher = notify::recommended_watcher(events).map_err(|e| WatchError::Watch {
        path: PathBuf::from("."),
        message: e.to_string(),
    })?;
    let mut scope = Scope::watching(&mut watcher, &options, config)?;

    let mut changed = BTreeSet::new();
    // The files curvebake saved, with their bytes.
    let mut own = BTreeMap::new();
    let mut config_changed = false;
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
                    Ok(Signal::Saved(path, bytes)) => {
                        changed.insert(path.clone());
                        own.insert(path, bytes);
                        deadline = Some(Instant::now());
                    }
                    Ok(Signal::Event(Ok(event))) => {
                        let changes = scope.take(event, &mut changed, &mut own);
                        config_changed |= changes.config;
                        if deadline.is_none() && changes.inputs {
                            deadline = Some(Instant::now() + debounce);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) if deadline.is_none() => {
                        if std::mem::take(&mut config_changed) {
                            let path = scope.config.clone().unwrap_or_default();
                            if report(WatchEvent::ProjectFileChanged(path)).is_break() {
                                return Ok(());
                            }
                        }
                        // Idle: a folder made again is watched again, and baked.
                        match scope.rewatch(&mut watcher, &mut report, &mut changed) {
                            ControlFlow::Break(()) => return Ok(()),
                            ControlFlow::Continue(true) => {
                                deadline = Some(Instant::now() + debounce);
                            }
                            ControlFlow::Continue(false) => {}
                        }
                    }
                    Ok(Signal::Event(Err(e))) => {
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
        if let Ok(done) = &result {
            // The output folder exists now: resolve it as the events will name it.
            scope.out = absolute(&options.out);
            // What the bake wrote that reads as a curve file (`curves.tokens.json`, in an
            // output folder that is also an input folder) is its own: its events start no
            // bake while it holds those bytes.
            for file in done.written.iter().map(|w| options.out.join(w)) {
                if is_curve_file_name(&file) {
                    if let Ok(bytes) = std::fs::read(&file) {
                        own.insert(absolute(&file), bytes);
                    }
                }
            }
        } else {
            // What was saved is not baked: its events count again.
            own.clear();
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

impl Scope {
    /// Watches the inputs of `options` (folders recursively, the folder of each file) and the
    /// folder of the project file `config` the options came from.
    fn watching(
        watcher: &mut notify::RecommendedWatcher,
        options: &crate::BakeOptions,
        config: Option<&Path>,
    ) -> Result<Self, WatchError> {
        let mut scope = Scope {
            folders: Vec::new(),
            files: Vec::new(),
            config: None,
            out: absolute(&options.out),
        };
        for input in &options.inputs {
            let fail = |message: String| WatchError::Watch {
                path: input.clone(),
                message,
            };
            let meta = std::fs::metadata(input).map_err(|e| fail(e.to_string()))?;
            let (target, mode) = if meta.is_dir() {
                (absolute(input), RecursiveMode::Recursive)
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
            if scope.add(target.clone(), mode) {
                watcher
                    .watch(&target, mode)
                    .map_err(|e| fail(e.to_string()))?;
            }
        }
        if let Some(config) = config {
            let config = absolute(config);
            let folder = config.parent().map(Path::to_owned).unwrap_or_default();
            // Unless an input folder holds it already (watching it again would change how).
            let covered = (scope.folders.iter())
                .any(|w| folder.starts_with(&w.path) && w.mode == RecursiveMode::Recursive);
            if !covered && scope.add(folder.clone(), RecursiveMode::NonRecursive) {
                // Best effort: the bake does not need it.
                let _ = watcher.watch(&folder, RecursiveMode::NonRecursive);
            }
            scope.config = Some(config);
        }
        Ok(scope)
    }

    /// While idle: watches again each folder made again since (and adds it to `changed`, to
    /// be baked), and reports one that is gone. `Continue(true)`: something to bake.
    fn rewatch(
        &mut self,
        watcher: &mut notify::RecommendedWatcher,
        report: &mut impl FnMut(WatchEvent) -> ControlFlow<()>,
        changed: &mut BTreeSet<PathBuf>,
    ) -> ControlFlow<(), bool> {
        let mut again_any = false;
        for watched in &mut self.folders {
            let (path, id) = (&watched.path, &mut watched.id);
            let now = folder_id(path);
            let again = watched.removed && now.is_some();
            if now == *id && !again {
                continue;
            }
            *id = now;
            if now.is_none() {
                let gone = format!(
                    "{} is gone; it is baked again when it is back",
                    path.display()
                );
                if report(WatchEvent::Trouble(gone)).is_break() {
                    return ControlFlow::Break(());
                }
                continue;
            }
            watched.removed = false;
            let _ = watcher.unwatch(path);
            if let Err(e) = watcher.watch(path, watched.mode) {
                watched.id = None;
                let trouble = format!("{}: {e}", path.display());
                if report(WatchEvent::Trouble(trouble)).is_break() {
                    return ControlFlow::Break(());
                }
                continue;
            }
            changed.insert(watched.path.clone());
            again_any = true;
        }
        ControlFlow::Continue(again_any)
    }
}
