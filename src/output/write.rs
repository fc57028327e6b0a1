//! The one place that touches the output folder.
//!
//! Every file is written to a temporary file in its destination folder and renamed over the
//! old one, so a reader (or a crash) sees the old file or the new one, never a partial one.
//! A file whose bytes would not change is left alone. Paths are relative, built from
//! validated names, and may not leave the output folder, through `..` or a symbolic link.
//! Files are created, replaced and removed in folders reached by descriptor from the output
//! folder's, opened when the bake starts (`output::folder`): a folder swapped for a link while
//! the bake runs sends nothing elsewhere.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use crate::output::durable::{self, Written};
pub use crate::output::folder::TEMP_PREFIX;
use crate::output::folder::{Folder, Temp};
use crate::output::owned::Owned;
use crate::output::owned::LOCK_PATH;
use crate::output::regular::open_regular;
use crate::output::stamp::FileStamp;

/// What happened to one output file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The file was created or replaced.
    Written,
    /// The file already held these bytes.
    Unchanged,
    /// In check mode: the file is missing or holds other bytes (nothing was written).
    Differs,
}

/// Errors writing outputs: each names the path.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A path that would leave the output folder.
    #[error("{path}: refusing to write outside the output folder {root} ({why})")]
    Escapes {
        /// The offending path.
        path: String,
        /// The output folder.
        root: String,
        /// Why.
        why: &'static str,
    },
    /// An output folder given by a relative path through a symbolic link.
    #[error("{root}: refusing to write through the symbolic link {link} (a link in the working folder could send outputs anywhere); give the output folder's real path or an absolute one")]
    LinkedRoot {
        /// The output folder as given.
        root: String,
        /// The first component of it that is a symbolic link.
        link: String,
    },
    /// A file the bake would replace that curvebake did not write (see `output::owned`).
    #[error("{path}: a file curvebake did not write (no manifest or claim of {root} names it): refusing to replace it; move it away, bake into another --out, or pass --force to replace it")]
    NotOurs {
        /// The file.
        path: String,
        /// The output folder.
        root: String,
    },
    /// Files a first bake into a folder without a manifest would replace with other bytes:
    /// the user's (more than one; a bake names them all at once, not one a run).
    #[error("{root}: {count} files curvebake did not write (no manifest or claim of {root} names them) would be replaced: {paths}; refusing to replace them; move them away, bake into another --out, or pass --force to replace them")]
    NotOursFiles {
        /// How many.
        count: usize,
        /// The first of them, and how many more.
        paths: String,
        /// The output folder.
        root: String,
    },
    /// An I/O error.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// The cause.
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> WriteError + '_ {
    move |source| WriteError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The output folder.
#[derive(Debug)]
pub struct OutputDir {
    root: PathBuf,
    /// Folders below the root already seen to be real folders (not links) by this value: a
    /// path is checked from the deepest of them on, and they are not created again. (A bake
    /// writes thousands of files into a few folders.)
    folders: RwLock<HashSet<PathBuf>>,
    /// What this bake has written, for [`Sync::Outputs`].
    written: Written,
    /// The files it may replace.
    owned: Owned,
    /// The folders opened by descriptor so far, by their path relative to the root (`""` is
    /// the root, opened when the folder is created for a bake).
    opened: Mutex<HashMap<PathBuf, Arc<Folder>>>,
    /// Only compared (`--check`): nothing is written or removed.
    compares_only: bool,
}

impl OutputDir {
    /// Opens (creating if needed) the output folder. An absolute path is used as given; a
    /// relative one (inside the working folder, where a checkout may have planted a link) may
    /// not go through a symbolic link. Nothing inside the folder may be one.
    pub fn create(root: &Path) -> Result<Self, WriteError> {
        if root.is_relative() {
            if let Some(link) = first_link(Path::new(""), root) {
                return Err(WriteError::LinkedRoot {
                    root: root.display().to_string(),
                    link: link.display().to_string(),
                });
            }
        }
        if fs::metadata(root).is_ok_and(|m| !m.is_dir()) {
            let error = io::Error::other("the output folder is a file, not a folder");
            return Err(io_error(root)(error));
        }
        fs::create_dir_all(root).map_err(io_error(root))?;
        let out = Self {
            compares_only: false,
            ..Self::existing(root)
        };
        out.folder(Path::new(""), true)?;
        Ok(out)
    }

    /// An output folder that is only read (for `--check`); it need not exist.
    pub fn existing(root: &Path) -> Self {
        Self {
            root: root.to_owned(),
            folders: RwLock::default(),
            written: Written::default(),
            owned: Owned::default(),
            opened: Mutex::default(),
            compares_only: true,
        }
    }

    /// The folder at `relative` (a folder path below the root, `""` for the root), reached
    /// one name at a time from the root's descriptor without following links, and made when
    /// it is missing and `create` is set (`None` when it is missing otherwise). Folders once
    /// opened stay open for the bake.
    fn folder(&self, relative: &Path, create: bool) -> Result<Option<Arc<Folder>>, WriteError> {
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(folder) = opened.get(relative) {
            return Ok(Some(Arc::clone(folder)));
        }
        let root = match opened.get(Path::new("")) {
            Some(root) => Arc::clone(root),
            None => match Folder::open(&self.root) {
                Ok(root) => {
                    let root = Arc::new(root);
                    opened.insert(PathBuf::new(), Arc::clone(&root));
                    root
                }
                // A folder only compared (`--check`) need not exist.
                Err(e) if e.kind() == io::ErrorKind::NotFound && !create => return Ok(None),
                Err(e) => return Err(io_error(&self.root)(e)),
            },
        };
        let mut folder = root;
        let mut path = PathBuf::new();
        for name in relative.iter() {
            path.push(name);
            folder = match opened.get(&path) {
                Some(known) => Arc::clone(known),
                None => {
                    let escapes = |e: io::Error| WriteError::Escapes {
                        path: path.display().to_string(),
                        root: self.root.display().to_string(),
                        why: if e.kind() == io::ErrorKind::Other {
                            "it goes through a symbolic link"
                        } else {
                            "it cannot be opened"
                        },
                    };
                    let Some(child) = folder.child(name, create).map_err(escapes)? else {
                        return Ok(None);
                    };
                    let child = Arc::new(child);
                    opened.insert(path.clone(), Arc::clone(&child));
                    child
                }
            };
        }
        Ok(Some(folder))
    }

    /// The folder holding the file at `relative` (see [`OutputDir::folder`]) and the file's
    /// name in it.
    fn parent_of(
        &self,
        relative: &str,
        create: bool,
    ) -> Result<Option<(Arc<Folder>, OsString)>, WriteError> {
        let relative = Path::new(relative);
        let name = relative.file_name().unwrap_or_default().to_owned();
        let parent = relative.parent().unwrap_or(Path::new(""));
        Ok(self.folder(parent, create)?.map(|folder| (folder, name)))
    }

    /// [`OutputDir::parent_of`], made if missing.
    fn made_parent_of(&self, relative: &str) -> Result<(Arc<Folder>, OsString), WriteError> {
        let made = self.parent_of(relative, true)?;
        Ok(made.expect("a folder made when missing"))
    }

    /// From now on replaces only files that are ours: `paths` (relative), the bookkeeping
    /// files and those [`OutputDir::claim`]ed (see `output::owned`).
    pub fn guard(&mut self, paths: impl IntoIterator<Item = String>) {
        self.owned.guard(paths);
    }

    /// Records `relative` paths as ours, before anything is written there: an error naming
    /// the first that holds something that is not ours already.
    pub fn claim<'a>(
        &self,
        relative: impl IntoIterator<Item = &'a str> + Clone,
    ) -> Result<(), WriteError> {
        for path in relative.clone() {
            self.may_replace(path, &self.resolve(path)?)?;
        }
        self.owned.adopt(relative);
        Ok(())
    }

    /// Whether the file at `relative` (resolved to `path`) may be replaced: it is ours, or
    /// no file is there (a folder in the way is no file of the user's that could be lost: the
    /// rename onto it fails).
    fn may_replace(&self, relative: &str, path: &Path) -> Result<(), WriteError> {
        let file_there = fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir());
        if self.owned.contains(relative) || !file_there {
            Ok(())
        } else {
            Err(WriteError::NotOurs {
                path: path.display().to_string(),
                root: self.root.display().to_string(),
            })
        }
    }

    fn known_folder(&self, path: &Path) -> bool {
        self.folders.read().is_ok_and(|f| f.contains(path))
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves a relative output path, refusing anything that could leave the folder: an
    /// absolute path, `..`, or a symbolic link at any existing level below the root.
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, WriteError> {
        let escapes = |why| WriteError::Escapes {
            path: relative.to_owned(),
            root: self.root.display().to_string(),
            why,
        };
        let mut path = self.root.clone();
        let mut components = Path::new(relative).components().peekable();
        while let Some(component) = components.next() {
            match component {
                Component::Normal(part) => {
                    path.push(part);
                    let folder = components.peek().is_some();
                    if folder && self.known_folder(&path) {
                        continue;
                    }
                    match fs::symlink_metadata(&path) {
                        Ok(m) if m.file_type().is_symlink() => {
                            return Err(escapes("it goes through a symbolic link"));
                        }
                        Ok(m) if folder && m.is_dir() => {
                            if let Ok(mut folders) = self.folders.write() {
                                folders.insert(path.clone());
                            }
                        }
                        _ => {}
                    }
                }
                Component::CurDir => {}
                _ => return Err(escapes("only plain relative paths are allowed")),
            }
        }
        if path == self.root {
            return Err(escapes("it names the folder itself"));
        }
        Ok(path)
    }

    /// Whether something is at `relative` (false for a path that may not be written).
    pub fn exists(&self, relative: &str) -> bool {
        self.resolve(relative).is_ok_and(|path| path.exists())
    }

    /// The stamp of the regular file at `relative` (see `output::stamp`), if there is one.
    pub fn stamp(&self, relative: &str) -> Option<FileStamp> {
        self.resolve(relative).ok()?;
        let (folder, name) = self.parent_of(relative, false).ok()??;
        folder.stamp(&name)
    }

    /// Whether each of `files` is still the file its stamp (the same place of `stamps`)
    /// records: none missing, none changed since (see `output::stamp`).
    pub fn still_holds(&self, files: &[String], stamps: &[Option<FileStamp>]) -> bool {
        files.len() == stamps.len()
            && (files.iter().zip(stamps)).all(|(f, s)| s.is_some() && self.stamp(f) == *s)
    }

    /// The stamps of `files`, as they are now.
    pub fn stamps(&self, files: &[String]) -> Vec<Option<FileStamp>> {
        files.iter().map(|f| self.stamp(f)).collect()
    }

    /// Whether the file at `relative` already holds exactly `bytes`.
    pub fn holds(&self, relative: &str, bytes: &[u8]) -> Result<bool, WriteError> {
        let path = self.resolve(relative)?;
        same_contents(open_regular(&path), bytes).map_err(io_error(&path))
    }

    /// Writes `bytes` to `relative` atomically, unless the file already holds them.
    pub fn write(&self, relative: &str, bytes: &[u8]) -> Result<Outcome, WriteError> {
        self.write_with(relative, bytes, &mut |file, bytes| file.write_all(bytes))
    }

    /// [`OutputDir::write`], with `fill` putting the bytes into the temporary file: a seam for
    /// fault injection. If `fill` fails, the destination keeps its old contents and the
    /// temporary file is removed.
    pub fn write_with(
        &self,
        relative: &str,
        bytes: &[u8],
        fill: &mut dyn FnMut(&mut fs::File, &[u8]) -> io::Result<()>,
    ) -> Result<Outcome, WriteError> {
        let path = self.resolve(relative)?;
        let (folder, name) = self.made_parent_of(relative)?;
        if same_contents(folder.open_regular(&name), bytes).map_err(io_error(&path))? {
            return Ok(Outcome::Unchanged);
        }
        self.may_replace(relative, &path)?;
        let dir = path.parent().unwrap_or(&self.root);
        let mut temp = Temp::new_in(&folder).map_err(io_error(dir))?;
        fill(temp.as_file_mut(), bytes).map_err(io_error(&path))?;
        temp.persist(&name).map_err(io_error(&path))?;
        self.written.note(&path);
        Ok(Outcome::Written)
    }

    /// Makes an empty file at `relative`, in place of whatever was there (a rename: a link
    /// planted there is replaced, not followed), open for appending. For a record of the bake
    /// itself, not an output: its writer decides when it reaches the disk.
    pub fn create_appended(&self, relative: &str) -> Result<fs::File, WriteError> {
        let path = self.resolve(relative)?;
        let (folder, name) = self.made_parent_of(relative)?;
        let temp = Temp::new_in(&folder).map_err(io_error(&path))?;
        temp.persist(&name).map_err(io_error(&path))
    }

    /// Removes a file curvebake wrote earlier; a missing file is not an error. Returns whether
    /// there was one.
    pub fn remove(&self, relative: &str) -> Result<bool, WriteError> {
        let path = self.resolve(relative)?;
        let Some((folder, name)) = self.parent_of(relative, false)? else {
            return Ok(false);
        };
        match folder.remove(&name) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io_error(&path)(e)),
        }
    }
}

/// The first path `base/<the first components of relative>` that is a symbolic link, if any:
/// where a relative output folder would leave the folder it is relative to (the working
/// folder, or a project file's) for wherever a link planted there points.
pub fn first_link(base: &Path, relative: &Path) -> Option<PathBuf> {
    let mut prefix = base.to_owned();
    for component in relative.components() {
        prefix.push(component);
        if fs::symlink_metadata(&prefix).is_ok_and(|m| m.file_type().is_symlink()) {
            return Some(prefix);
        }
    }
    None
}

/// A file written in pieces (a bundle), streamed into a temporary file beside its destination
/// and renamed into place by [`StreamedFile::finish`] only if its bytes differ from the file
/// already there, which is read alongside and compared as the pieces arrive. In check mode
/// nothing is written: only the comparison is made.
pub struct StreamedFile {
    path: PathBuf,
    /// Its name in its folder (where `temp` is).
    name: OsString,
    temp: Option<io::BufWriter<Temp>>,
    /// The existing file, while every byte so far has matched it.
    existing: Option<io::BufReader<fs::File>>,
    scratch: Vec<u8>,
    /// Bytes appended since a flush was last started on the side.
    unflushed: u64,
    side_flush: durable::SideFlush,
    /// What the output folder has written.
    written: Written,
}

impl StreamedFile {
    /// Appends bytes.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.append_all(&[bytes])
    }

    /// Appends pieces, one after another: a window's worth goes to the file in a single
    /// vectored write (not copied into a buffer first).
    pub fn append_all(&mut self, pieces: &[&[u8]]) -> Result<(), WriteError> {
        if let Some(existing) = &mut self.existing {
            for piece in pieces {
                self.scratch.resize(piece.len(), 0);
                if existing.read_exact(&mut self.scratch).is_err() || self.scratch != *piece {
                    self.existing = None;
                    break;
                }
            }
        }
        if let Some(temp) = &mut self.temp {
            let total: usize = pieces.iter().map(|p| p.len()).sum();
            let written = if total < temp.capacity() {
                write_all_vectored(temp, pieces)
            } else {
                // `BufWriter` cannot tell that a file takes vectored writes (that query is
                // unstable), so it would copy every piece through its buffer: pieces this
                // large go to the file itself, once what is buffered is out.
                temp.flush()
                    .and_then(|()| write_all_vectored(temp.get_mut(), pieces))
            };
            written.map_err(io_error(&self.path))?;
            self.unflushed += total as u64;
            if self.unflushed >= durable::SIDE_FLUSH_STEP {
                self.side_flush.start(temp.get_ref().as_file());
                self.unflushed = 0;
            }
        }
        Ok(())
    }

    /// Moves the new file into place if it differs from the existing one (unless this is a
    /// check). Returns whether the file was (or, in check mode, would be) written.
    pub fn finish(self) -> Result<Outcome, WriteError> {
        self.finish_with(Sync::Nothing)
    }

    /// [`StreamedFile::finish`] for a file that vouches for others (the manifest): its bytes,
    /// and with [`Sync::Outputs`] every file its output folder has written so far, reach the
    /// disk before it is moved into place, and the rename reaches the disk before this returns.
    pub fn finish_durably(self, sync: Sync) -> Result<Outcome, WriteError> {
        self.finish_with(sync)
    }

    fn finish_with(self, sync: Sync) -> Result<Outcome, WriteError> {
        let path = self.path;
        // Same bytes so far, and the existing file ends here too.
        let same = self
            .existing
            .is_some_and(|mut existing| matches!(existing.read(&mut [0u8; 1]), Ok(0)));
        if same && sync == Sync::Nothing {
            return Ok(Outcome::Unchanged);
        }
        let Some(temp) = self.temp else {
            // Check mode: only compared.
            return Ok(if same {
                Outcome::Unchanged
            } else {
                Outcome::Differs
            });
        };
        let temp = temp
            .into_inner()
            .map_err(|e| io_error(&path)(e.into_error()))?;
        // A write error a flush on the side saw is this file's, whatever is flushed next.
        self.side_flush.finish().map_err(io_error(&path))?;
        if sync != Sync::Nothing {
            if sync == Sync::Outputs {
                // A failure is the failing output's, not this file's.
                self.written
                    .sync(temp.as_file())
                    .map_err(|(failed, source)| {
                        let folder = path.parent().unwrap_or(&path).display();
                        WriteError::Io {
                            path: failed.map_or_else(
                                || format!("{folder} (flushing its file system)"),
                                |f| f.display().to_string(),
                            ),
                            source,
                        }
                    })?;
            }
            temp.as_file().sync_all().map_err(io_error(&path))?;
        }
        temp.persist(&self.name).map_err(io_error(&path))?;
        self.written.note(&path);
        if sync != Sync::Nothing {
            durable::sync_folder(&path).map_err(io_error(&path))?;
        }
        Ok(if same {
            Outcome::Unchanged
        } else {
            Outcome::Written
        })
    }
}

/// What [`StreamedFile::finish_durably`] makes reach the disk besides the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// Nothing (a plain [`StreamedFile::finish`]).
    Nothing,
    /// The file and the folder entry naming it.
    File,
    /// Every file the output folder has written so far, with the folder entries naming them
    /// (so that all the outputs a manifest lists are on disk before it is; see
    /// `output::durable`), then the file and its folder entry.
    Outputs,
}

impl OutputDir {
    /// Whether the folder is only compared (`--check`, [`OutputDir::existing`]): what would be
    /// written is compared with what is there, and nothing is written or removed.
    pub fn compares_only(&self) -> bool {
        self.compares_only
    }

    /// Starts a streamed file at `relative` (only compared, in a folder that
    /// [`OutputDir::compares_only`]).
    pub fn stream(&self, relative: &str) -> Result<StreamedFile, WriteError> {
        let dry_run = self.compares_only;
        let path = self.resolve(relative)?;
        let parent = self.parent_of(relative, !dry_run)?;
        let temp = match &parent {
            Some((folder, _)) if !dry_run => {
                self.may_replace(relative, &path)?;
                let temp = Temp::new_in(folder).map_err(io_error(&path))?;
                Some(io::BufWriter::with_capacity(1 << 16, temp))
            }
            _ => None,
        };
        let existing = (parent.as_ref())
            .and_then(|(folder, name)| folder.open_regular(name).ok())
            .map(|f| io::BufReader::with_capacity(1 << 16, f));
        Ok(StreamedFile {
            name: path.file_name().unwrap_or_default().to_owned(),
            path,
            temp,
            existing,
            scratch: Vec::new(),
            unflushed: 0,
            side_flush: durable::SideFlush::default(),
            written: self.written.clone(),
        })
    }
}

/// Writes every byte of `pieces`, in order, with as few vectored writes as the writer takes.
fn write_all_vectored(writer: &mut impl Write, pieces: &[&[u8]]) -> io::Result<()> {
    let mut slices: Vec<io::IoSlice> = pieces.iter().map(|p| io::IoSlice::new(p)).collect();
    let mut slices = &mut slices[..];
    io::IoSlice::advance_slices(&mut slices, 0); // Skips empty pieces.
    while !slices.is_empty() {
        match writer.write_vectored(slices) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(written) => io::IoSlice::advance_slices(&mut slices, written),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// What opening a symbolic link with `O_NOFOLLOW` fails with.
#[cfg(unix)]
const ELOOP: i32 = libc::ELOOP;
#[cfg(not(unix))]
const ELOOP: i32 = -1;

impl OutputDir {
    /// Removes the temporary files that runs which ended before this bake left (killed, or
    /// stopped by a signal they could not catch) where a bake writes: the output folder and
    /// its subfolders (through no link), not theirs in turn, since every output is at most a
    /// folder deep (`css/card.css`). A subfolder is opened for that look alone, not kept for
    /// the bake, so an output folder holding a site's thousand folders costs no descriptor
    /// each, and their trees are not read. A bake holds the folder's lock, so no other bake has
    /// temporary files there; a subfolder that has a lock of its own is another output
    /// folder, and is left alone. Returns how many were removed.
    pub fn remove_leftovers(&self) -> usize {
        let Ok(Some(root)) = self.folder(Path::new(""), false) else {
            return 0;
        };
        let Ok(entries) = root.entries() else {
            return 0;
        };
        let mut removed = remove_temporary(&root, &entries);
        for (name, is_folder, _) in entries {
            if !is_folder {
                continue;
            }
            let Ok(Some(folder)) = root.child(&name, false) else {
                continue;
            };
            let Ok(inside) = folder.entries() else {
                continue;
            };
            if !inside
                .iter()
                .any(|(name, ..)| name == OsStr::new(LOCK_PATH))
            {
                removed += remove_temporary(&folder, &inside);
            }
        }
        removed
    }
}

/// Removes the temporary files among `entries` of `folder`; how many.
fn remove_temporary(folder: &Folder, entries: &[(OsString, bool, bool)]) -> usize {
    (entries.iter())
        .filter(|(name, _, is_file)| {
            *is_file
                && name.to_string_lossy().starts_with(TEMP_PREFIX)
                && folder.remove(name).is_ok()
        })
        .count()
}

/// Compares a file (the result of opening it with `open_regular`) with `bytes` without
/// reading more than it must. Anything there that is not a regular file differs.
fn same_contents(opened: io::Result<fs::File>, bytes: &[u8]) -> io::Result<bool> {
    let mut file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => return Ok(false),
        Err(e) if e.raw_os_error() == Some(ELOOP) => return Ok(false),
        Err(e) => return Err(e),
    };
    if file.metadata()?.len() != bytes.len() as u64 {
        return Ok(false);
    }
    // Compared a block at a time: a large file (a review page of many motions) is not read
    // into memory whole.
    let mut block = vec![0; bytes.len().min(1 << 16)];
    for expected in bytes.chunks(block.len().max(1)) {
        let existing = &mut block[..expected.len()];
        match file.read_exact(existing) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
            read => read?,
        }
        if existing != expected {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_folder_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        for bad in ["../x", "/etc/passwd", "a/../../b", ""] {
            assert!(
                matches!(out.resolve(bad), Err(WriteError::Escapes { .. })),
                "{bad}"
            );
        }
        assert!(out.resolve("json/a.json").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_inside_the_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("css")).unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        assert!(matches!(
            out.write("css/a.css", b"x"),
            Err(WriteError::Escapes { .. })
        ));
        assert_eq!(fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    }

    #[test]
    fn unchanged_bytes_are_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        assert_eq!(out.write("a/b.txt", b"hello").unwrap(), Outcome::Written);
        assert_eq!(out.write("a/b.txt", b"hello").unwrap(), Outcome::Unchanged);
        assert_eq!(out.write("a/b.txt", b"hullo").unwrap(), Outcome::Written);
        assert_eq!(fs::read(dir.path().join("a/b.txt")).unwrap(), b"hullo");
    }

    #[test]
    fn a_streamed_file_holds_small_and_large_pieces_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        // Pieces below, at and far above the writer's buffer, so both ways of writing meet.
        let pieces: Vec<Vec<u8>> = [3, 70_000, 5, 1 << 16, 0, 300_000, 7]
            .iter()
            .enumerate()
            .map(|(k, &len)| (0..len).map(|i| (i * 31 + k) as u8).collect())
            .collect();
        let mut file = out.stream("bundle.txt").unwrap();
        file.append(&pieces[0]).unwrap();
        let middle: Vec<&[u8]> = pieces[1..6].iter().map(Vec::as_slice).collect();
        file.append_all(&middle).unwrap();
        file.append(&pieces[6]).unwrap();
        assert_eq!(file.finish().unwrap(), Outcome::Written);
        assert_eq!(
            fs::read(dir.path().join("bundle.txt")).unwrap(),
            pieces.concat()
        );
    }

    #[test]
    fn a_streamed_file_in_check_mode_only_compares() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::existing(dir.path());
        let stream = |bytes: &[u8]| {
            let mut file = out.stream("bundle.txt").unwrap();
            file.append(bytes).unwrap();
            file.finish().unwrap()
        };
        assert_eq!(stream(b"new"), Outcome::Differs);
        assert!(!dir.path().join("bundle.txt").exists());
        fs::write(dir.path().join("bundle.txt"), b"old").unwrap();
        assert_eq!(stream(b"new"), Outcome::Differs);
        assert_eq!(stream(b"old"), Outcome::Unchanged);
        assert_eq!(fs::read(dir.path().join("bundle.txt")).unwrap(), b"old");
    }
}
