//! Making outputs reach the disk: what a bake wrote is on disk before the manifest that
//! vouches for it is in place.
//!
//! A bake that wrote a few files (the bundles, a handful of motions) flushes each of them and
//! its folder entry: an `fsync` touches only those files, however much else is being written
//! on the machine (a build beside the bake). One that wrote many (the per-motion layout
//! writes thousands) flushes the whole file system once instead (`syncfs`: one journal commit
//! rather than one per file). Large streamed files are flushed on the side while they are
//! still being written, so the final flush has little left to wait for.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Most files flushed one by one; a bake that wrote more flushes the file system.
const FEW_FILES: usize = 32;

/// The files an output folder has written so far (shared by its streamed files).
#[derive(Debug, Clone, Default)]
pub struct Written(Arc<Mutex<Files>>);

#[derive(Debug, Default)]
struct Files {
    /// The files, while there are at most [`FEW_FILES`].
    paths: Vec<PathBuf>,
    /// More than [`FEW_FILES`] were written.
    many: bool,
}

impl Written {
    /// Records that `path` was written (created or replaced).
    pub fn note(&self, path: &Path) {
        let Ok(mut files) = self.0.lock() else {
            return;
        };
        if files.many {
            return;
        }
        if files.paths.len() == FEW_FILES {
            files.many = true;
            files.paths = Vec::new();
        } else {
            files.paths.push(path.to_owned());
        }
    }

    /// Makes every file recorded so far, and the folder entries naming them, reach the disk;
    /// `file` is any open file on the output folder's file system. A failure says which file
    /// or folder failed (`None`: the flush of the whole file system).
    pub fn sync(&self, file: &fs::File) -> Result<(), (Option<PathBuf>, io::Error)> {
        let (paths, many) = match self.0.lock() {
            Ok(files) => (files.paths.clone(), files.many),
            // A writer panicked while recording: flush everything.
            Err(_) => (Vec::new(), true),
        };
        if many {
            return sync_file_system(file).map_err(|e| (None, e));
        }
        for path in &paths {
            let failed = |e| (Some(path.clone()), e);
            // Opened as any file of the output folder is (a FIFO put there cannot hang this).
            match crate::output::regular::open_regular(path) {
                Ok(written) => written.sync_all().map_err(failed)?,
                // Replaced or removed since (by this bake): its successor is recorded too.
                // Anything else there now is no file this bake wrote.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) if e.kind() == io::ErrorKind::InvalidInput => {}
                Err(e) => return Err(failed(e)),
            }
        }
        let folders: BTreeSet<&Path> = paths.iter().filter_map(|p| p.parent()).collect();
        for folder in folders {
            sync_folder_of_entries(folder).map_err(|e| (Some(folder.to_owned()), e))?;
        }
        Ok(())
    }
}

/// Flushes every file written on `file`'s file system: one `syncfs` on Linux (cheaper than an
/// `fsync` per output: the journal commits once), `sync` on other Unix systems.
fn sync_file_system(file: &fs::File) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: the descriptor is open for the duration of the call.
        if unsafe { libc::syncfs(file.as_raw_fd()) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        let _ = file;
        // SAFETY: sync takes no arguments and cannot fail.
        unsafe { libc::sync() };
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Makes the entries of `folder` durable (an `fsync` of the folder, on Unix).
fn sync_folder_of_entries(folder: &Path) -> io::Result<()> {
    #[cfg(unix)]
    fs::File::open(folder)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

/// Makes the folder entry of `path` durable.
pub fn sync_folder(path: &Path) -> io::Result<()> {
    path.parent().map_or(Ok(()), sync_folder_of_entries)
}

/// Bytes a streamed file is written between two flushes started on the side (see
/// [`SideFlush`]; measured: benches/README.md, "Tuning decisions").
pub const SIDE_FLUSH_STEP: u64 = 2 << 20;

/// Flushes (`fdatasync`) of a file while it is still being written, each on a thread of its
/// own, one at a time: the final flush then waits only for the bytes written since the last
/// one. Starting write-back alone (`sync_file_range`) is not enough where the disk has a
/// write cache: the final flush must still empty that cache of everything the file wrote,
/// while the cores stay idle (measured: benches/README.md, "Tuning decisions").
///
/// A flush that fails is remembered and reported by [`SideFlush::finish`]: once one flush has
/// seen a write error, a later one may not see it again.
#[derive(Debug, Default)]
pub struct SideFlush {
    running: Option<std::thread::JoinHandle<io::Result<()>>>,
    failed: Option<io::Error>,
}

impl SideFlush {
    /// Starts flushing `file` on a thread of its own, unless a flush is still running (or a
    /// thread cannot be had: the final flush does the work then).
    pub fn start(&mut self, file: &fs::File) {
        if self.running.as_ref().is_some_and(|r| !r.is_finished()) {
            return;
        }
        self.collect();
        let Ok(file) = file.try_clone() else {
            return;
        };
        self.running = std::thread::Builder::new()
            .name("curvebake-flush".into())
            .spawn(move || file.sync_data())
            .ok();
    }

    /// Waits for the running flush; returns the first failure of any.
    pub fn finish(mut self) -> io::Result<()> {
        self.collect();
        self.failed.map_or(Ok(()), Err)
    }

    /// Takes in the last flush's outcome (waiting for it if it still runs).
    fn collect(&mut self) {
        let Some(running) = self.running.take() else {
            return;
        };
        let outcome = running
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("a flush of the file panicked")));
        if let Err(e) = outcome {
            self.failed.get_or_insert(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_files_are_flushed_one_by_one_and_many_through_the_file_system() {
        let dir = tempfile::tempdir().unwrap();
        let written = Written::default();
        let any = fs::File::open(dir.path()).unwrap();
        for i in 0..FEW_FILES {
            let path = dir.path().join(format!("f{i}"));
            fs::write(&path, b"x").unwrap();
            written.note(&path);
        }
        assert!(!written.0.lock().unwrap().many);
        written.sync(&any).unwrap();
        // A file recorded and then removed by the bake is not an error.
        fs::remove_file(dir.path().join("f0")).unwrap();
        written.sync(&any).unwrap();
        written.note(&dir.path().join("one-more"));
        let files = written.0.lock().unwrap();
        assert!(files.many && files.paths.is_empty());
        drop(files);
        written.sync(&any).unwrap();
    }

    #[test]
    fn flushes_on_the_side_finish_with_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut flush = SideFlush::default();
        let file = fs::File::create(dir.path().join("streamed")).unwrap();
        for _ in 0..3 {
            flush.start(&file);
        }
        flush.finish().unwrap();
    }

    /// A pipe cannot be flushed: the failure is kept until the end, and a later start does
    /// not lose it.
    #[cfg(unix)]
    #[test]
    fn a_failed_flush_on_the_side_is_reported_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let file = fs::File::create(dir.path().join("streamed")).unwrap();
        let (reader, _writer) = io::pipe().unwrap();
        let pipe = fs::File::from(std::os::fd::OwnedFd::from(reader));
        let mut flush = SideFlush::default();
        flush.start(&pipe);
        flush.collect();
        flush.start(&file);
        assert_eq!(
            flush.finish().unwrap_err().raw_os_error(),
            Some(libc::EINVAL)
        );
    }

    /// Issue 27, item 20: a failure names the file that failed, not the manifest being
    /// finished.
    #[test]
    fn a_failure_names_the_file_that_failed() {
        let dir = tempfile::tempdir().unwrap();
        let written = Written::default();
        let any = fs::File::open(dir.path()).unwrap();
        fs::write(dir.path().join("a-file"), b"x").unwrap();
        let under_a_file = dir.path().join("a-file/out.json");
        written.note(&under_a_file);
        let (failed, _) = written.sync(&any).unwrap_err();
        assert_eq!(failed, Some(under_a_file));
    }
}
