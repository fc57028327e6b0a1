//! One bake at a time per output folder: a bake holds an exclusive lock on
//! `.curvebake-lock` in the folder while it reads the manifest, writes outputs and writes the
//! manifest, so two bakes with different options (`watch` beside a manual `bake --fps 50`)
//! cannot leave a manifest that describes files the other one wrote. A second bake waits for
//! the first, saying so on stderr. `--check` takes a shared lock, so it never compares a
//! folder halfway through a bake. The lock is the kernel's (`flock`), so it goes with the
//! process that holds it, however that process ends: no stale lock to clear by hand.

use crate::output::write::{open_regular, OutputDir, WriteError};
use std::fs;
#[cfg(unix)]
use std::io::Write;
use std::path::Path;

/// File name of the lock inside the output folder (empty; only its lock matters).
pub const LOCK_PATH: &str = ".curvebake-lock";

/// A held lock, released when dropped.
#[derive(Debug)]
pub struct OutputLock {
    _file: fs::File,
}

impl OutputLock {
    /// Takes the exclusive lock of `out`, creating the lock file; if another bake holds it,
    /// says so and waits for it.
    pub fn exclusive(out: &OutputDir) -> Result<Self, WriteError> {
        let path = out.resolve(LOCK_PATH)?;
        let io = |source| WriteError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut options = fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
        }
        let file = options.open(&path).map_err(io)?;
        if !file.metadata().map_err(io)?.is_file() {
            let other = "not a regular file: remove it, a bake makes its lock file itself";
            return Err(io(std::io::Error::other(other)));
        }
        lock(&file, true, out.root()).map_err(io)?;
        Ok(Self { _file: file })
    }

    /// Takes a shared lock of `out` for reading (`--check`), if the folder has a lock file;
    /// waits while a bake holds it. Creates nothing.
    pub fn shared(out: &OutputDir) -> Option<Self> {
        let path = out.resolve(LOCK_PATH).ok()?;
        let file = open_regular(&path).ok()?;
        lock(&file, false, out.root()).ok()?;
        Some(Self { _file: file })
    }
}

/// Locks `file` (exclusive or shared), waiting, with a word on stderr, if it is held.
#[cfg(unix)]
fn lock(file: &fs::File, exclusive: bool, root: &Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let mode = if exclusive {
        libc::LOCK_EX
    } else {
        libc::LOCK_SH
    };
    let flock = |flags| loop {
        // SAFETY: the descriptor is open for the duration of the call.
        if unsafe { libc::flock(file.as_raw_fd(), flags) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    };
    match flock(mode | libc::LOCK_NB) {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
            // Best effort: a closed stderr does not stop the bake.
            let _ = writeln!(
                std::io::stderr(),
                "waiting for another bake of {} to finish (it holds {})",
                root.display(),
                root.join(LOCK_PATH).display()
            );
            flock(mode)
        }
        other => other,
    }
}

/// Without `flock`, bakes are not serialised.
#[cfg(not(unix))]
fn lock(_: &fs::File, _: bool, _: &Path) -> std::io::Result<()> {
    Ok(())
}
