//! Writing a curve file back: a temporary file beside it, filled, flushed to disk, given the
//! old file's permissions and renamed over it, so that a reader (the watcher, an editor) sees
//! the old bytes or the new ones, never a part.

use std::io::Write as _;
use std::path::Path;

/// The prefix of the temporary file: a dot file without the `.ron` extension, which the
/// watcher never takes for a curve file.
const TEMP_PREFIX: &str = ".curvebake-save-";

/// Replaces the file at `path` (its target, when it is a symbolic link, so the link stays a
/// link) with `bytes`, atomically.
pub fn replace_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let real = path.canonicalize()?;
    let dir = real
        .parent()
        .ok_or_else(|| std::io::Error::other("the file has no folder"))?;
    let permissions = std::fs::metadata(&real)?.permissions();
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    std::fs::set_permissions(temp.path(), permissions)?;
    temp.persist(&real).map_err(|e| e.error)?;
    Ok(())
}
