//! The folders of the output folder as a bake changes them: reached from the output folder's
//! own descriptor, opened once when the bake starts, one name at a time and without
//! following symbolic links (`openat` with `O_NOFOLLOW`), and changed only relative to them
//! (`renameat`, `unlinkat`). So another process that swaps a folder of the output folder (or
//! the output folder itself) for a link while a bake runs cannot send a write or a removal
//! through it: what the bake creates, replaces or removes is in the folders it opened, and
//! opening a folder that has become a link fails.
//!
//! Temporary files are made here too ([`Temp`]): each is removed if it is not moved into
//! place, and [`remove_live_temps`] removes those still open (what a bake stopped by
//! SIGINT or SIGTERM does before it exits).
//!
//! Elsewhere than on Unix a folder is its path, each step checked not to be a link: the same
//! refusals, without the guarantee against a swap between the check and the change.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::output::stamp::FileStamp;

/// Prefix of the temporary files renamed into place (a killed run may leave some behind).
pub const TEMP_PREFIX: &str = ".curvebake-tmp-";

/// One folder of the output folder (or the output folder itself).
#[derive(Debug)]
pub struct Folder {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
    #[cfg(not(unix))]
    path: std::path::PathBuf,
}

/// The error of a step that is a symbolic link (or not a folder).
fn link_error(name: &OsStr) -> io::Error {
    io::Error::other(format!(
        "{} is a symbolic link or not a folder",
        Path::new(name).display()
    ))
}

#[cfg(unix)]
impl Folder {
    /// The folder at `path` (the output folder: links in its path are followed, as the bake
    /// checked them when it began).
    pub fn open(path: &Path) -> io::Result<Self> {
        use rustix::fs::{Mode, OFlags, CWD};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        Ok(Self {
            fd: rustix::fs::openat(CWD, path, flags, Mode::empty())?,
        })
    }

    /// The folder `name` in this one, made when it is missing and `create` is set (`None`
    /// when missing otherwise); an error if it is a link or not a folder.
    pub fn child(&self, name: &OsStr, create: bool) -> io::Result<Option<Self>> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let open = || rustix::fs::openat(&self.fd, name, flags, Mode::empty());
        let fd = match open() {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Err(e.into()),
                }
                open().map_err(|e| self.step_error(name, e))?
            }
            Err(rustix::io::Errno::NOENT) => return Ok(None),
            Err(e) => return Err(self.step_error(name, e)),
        };
        Ok(Some(Self { fd }))
    }

    fn step_error(&self, name: &OsStr, e: rustix::io::Errno) -> io::Error {
        match e {
            rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => link_error(name),
            e => e.into(),
        }
    }

    /// The regular file `name` for reading: without blocking, not through a link.
    pub fn open_regular(&self, name: &OsStr) -> io::Result<fs::File> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let file = fs::File::from(rustix::fs::openat(&self.fd, name, flags, Mode::empty())?);
        if file.metadata()?.is_file() {
            Ok(file)
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ))
        }
    }

    /// A new file `name`, created like any new file (mode 0666 less the umask); an error if
    /// something is there.
    fn create_new(&self, name: &OsStr) -> io::Result<fs::File> {
        use rustix::fs::{Mode, OFlags};
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o666))?;
        Ok(fs::File::from(fd))
    }

    /// Renames `from` to `to` within this folder (replacing a file at `to`).
    fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
    }

    /// Removes the file (or link) `name`.
    pub fn remove(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.fd,
            name,
            rustix::fs::AtFlags::empty(),
        )?)
    }

    /// The stamp of the regular file `name` (not through a link), if there is one.
    pub fn stamp(&self, name: &OsStr) -> Option<FileStamp> {
        FileStamp::at(&self.fd, name)
    }

    /// The names of this folder's entries, each with whether it is a folder (not through a
    /// link) and whether it is a regular file.
    pub fn entries(&self) -> io::Result<Vec<(OsString, bool, bool)>> {
        use rustix::fs::{AtFlags, FileType};
        use std::os::unix::ffi::OsStrExt;
        let mut entries = Vec::new();
        for entry in rustix::fs::Dir::read_from(&self.fd)? {
            let entry = entry?;
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => {
                    let stat = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
                    FileType::from_raw_mode(stat.st_mode)
                }
                kind => kind,
            };
            entries.push((
                name.to_owned(),
                kind == FileType::Directory,
                kind == FileType::RegularFile,
            ));
        }
        Ok(entries)
    }
}

#[cfg(not(unix))]
impl Folder {
    /// The folder at `path`.
    pub fn open(path: &Path) -> io::Result<Self> {
        if fs::metadata(path)?.is_dir() {
            Ok(Self {
                path: path.to_owned(),
            })
        } else {
            Err(link_error(path.as_os_str()))
        }
    }

    /// The folder `name` in this one, made when it is missing and `create` is set.
    pub fn child(&self, name: &OsStr, create: bool) -> io::Result<Option<Self>> {
        let path = self.path.join(name);
        match fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => Ok(Some(Self { path })),
            Ok(_) => Err(link_error(name)),
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                fs::create_dir(&path).or_else(|e| {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        Ok(())
                    } else {
                        Err(e)
                    }
                })?;
                self.child(name, false)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The regular file `name` for reading, not through a link.
    pub fn open_regular(&self, name: &OsStr) -> io::Result<fs::File> {
        let path = self.path.join(name);
        if fs::symlink_metadata(&path)?.is_file() {
            fs::File::open(path)
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ))
        }
    }

    fn create_new(&self, name: &OsStr) -> io::Result<fs::File> {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        fs::rename(self.path.join(from), self.path.join(to))
    }

    /// Removes the file `name`.
    pub fn remove(&self, name: &OsStr) -> io::Result<()> {
        fs::remove_file(self.path.join(name))
    }

    /// The stamp of the regular file `name` (not through a link), if there is one.
    pub fn stamp(&self, name: &OsStr) -> Option<FileStamp> {
        FileStamp::at_path(&self.path.join(name))
    }

    /// The names of this folder's entries, each with whether it is a folder and whether it is
    /// a regular file.
    pub fn entries(&self) -> io::Result<Vec<(OsString, bool, bool)>> {
        let mut entries = Vec::new();
        for entry in fs::read_dir(&self.path)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            entries.push((entry.file_name(), kind.is_dir(), kind.is_file()));
        }
        Ok(entries)
    }
}

/// A temporary file being filled in a folder, removed unless [`Temp::persist`] moves it into
/// place. While it exists it is listed for [`remove_live_temps`].
#[derive(Debug)]
pub struct Temp {
    file: fs::File,
    pending: Pending,
}

/// Where a temporary file is, until it is moved into place or removed.
#[derive(Debug)]
struct Pending {
    folder: Arc<Folder>,
    name: OsString,
    id: u64,
    placed: bool,
}

/// Where each temporary file that exists is, by id.
type Live = HashMap<u64, (Arc<Folder>, OsString)>;

/// The temporary files that exist.
static LIVE: Mutex<Option<Live>> = Mutex::new(None);
/// The next temporary file's id.
static NEXT: AtomicU64 = AtomicU64::new(0);

impl Temp {
    /// A new temporary file in `folder`.
    pub fn new_in(folder: &Arc<Folder>) -> io::Result<Self> {
        // Listed as it is made: none is made after `remove_live_temps`.
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let id = NEXT.fetch_add(1, Ordering::Relaxed);
            let name = OsString::from(format!("{TEMP_PREFIX}{}-{id}", std::process::id()));
            let file = match folder.create_new(&name) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                created => created?,
            };
            live.get_or_insert_with(HashMap::new)
                .insert(id, (Arc::clone(folder), name.clone()));
            let pending = Pending {
                folder: Arc::clone(folder),
                name,
                id,
                placed: false,
            };
            return Ok(Self { file, pending });
        }
    }

    /// The file.
    pub fn as_file(&self) -> &fs::File {
        &self.file
    }

    /// The file, to fill.
    pub fn as_file_mut(&mut self) -> &mut fs::File {
        &mut self.file
    }

    /// Moves the file into place as `name` of its folder (replacing a file there), and
    /// returns it, open.
    pub fn persist(mut self, name: &OsStr) -> io::Result<fs::File> {
        let pending = &mut self.pending;
        pending.folder.rename(&pending.name, name)?;
        pending.placed = true;
        Ok(self.file)
    }
}

impl io::Write for Temp {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file.write(bytes)
    }
    fn write_vectored(&mut self, bytes: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.file.write_vectored(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.placed {
            let _ = self.folder.remove(&self.name);
        }
        forget(self.id);
    }
}

/// Takes a temporary file off the list of live ones.
fn forget(id: u64) {
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(live) = live.as_mut() {
        live.remove(&id);
    }
}

/// Removes every temporary file that exists (being filled, not yet moved into place); for a
/// process about to exit on a signal. Returns how many it removed. It keeps the list locked,
/// so no file is made or moved into place after it.
pub fn remove_live_temps() -> usize {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    let mut removed = 0;
    for (folder, name) in live.iter().flat_map(HashMap::values) {
        if folder.remove(name).is_ok() {
            removed += 1;
        }
    }
    // Held on purpose: the process exits with the list locked.
    std::mem::forget(live);
    removed
}
