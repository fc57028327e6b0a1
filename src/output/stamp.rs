//! What tells, without reading it, that a file of the output folder is still the one a bake
//! left: its [`FileStamp`], taken by the bake once the file is in place and kept in the
//! manifest. A file someone edited, cut short or replaced since (`echo x > out/json/a.json`,
//! a bad merge, a full disk) has another stamp, and the next bake exports its motion again
//! and rewrites whatever differs; a stamp that differs while the bytes do not (a folder
//! copied with `cp -r`) costs only that export, since a file holding the right bytes is left
//! alone.
//!
//! A stamp is one `stat`, not a read: checking every output of a bake of 2,000 motions costs
//! what checking that each is there did (see `benches/README.md`).

use curvebake_model::hash::ContentHasher;
use serde::{Deserialize, Serialize};

/// A regular file's length and a signature of what changes whenever its bytes do: on Unix
/// its inode and its modification and status-change times (to the nanosecond; the
/// status-change time cannot be set back by anyone), elsewhere its modification time. In the
/// manifest, `[length, signature]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp([u64; 2]);

impl FileStamp {
    /// The stamp of a file of `len` bytes whose identity and times are `parts`.
    fn of(len: u64, parts: &[i128]) -> Self {
        let mut hasher = ContentHasher::new();
        for part in parts {
            hasher.update(&part.to_le_bytes());
        }
        Self([len, hasher.digest() as u64])
    }

    /// The stamp of the regular file `name` in the folder `dir` (not through a link); `None`
    /// if it is missing or not a regular file.
    #[cfg(unix)]
    pub fn at(dir: &impl std::os::fd::AsFd, name: &std::ffi::OsStr) -> Option<Self> {
        use rustix::fs::{AtFlags, FileType};
        let stat = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            return None;
        }
        // The fields' integer types differ between systems; each fits an i128.
        let nanos = |s: i128, ns: i128| s * 1_000_000_000 + ns;
        let parts = [
            stat.st_ino as i128,
            nanos(stat.st_mtime as i128, stat.st_mtime_nsec as i128),
            nanos(stat.st_ctime as i128, stat.st_ctime_nsec as i128),
        ];
        Some(Self::of(stat.st_size as u64, &parts))
    }

    /// The stamp of the regular file at `path` (not through a link); `None` if it is missing
    /// or not a regular file.
    #[cfg(not(unix))]
    pub fn at_path(path: &std::path::Path) -> Option<Self> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        let modified = meta.modified().ok()?;
        let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
        meta.is_file()
            .then(|| Self::of(meta.len(), &[since.as_nanos() as i128]))
    }
}
