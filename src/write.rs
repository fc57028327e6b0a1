//! The one place that touches the output folder.
//!
//! Every file is written to a temporary file in its destination folder and renamed over the
//! old one, so a reader (or a crash) sees the old file or the new one, never a partial one.
//! A file whose bytes would not change is left alone. Paths are relative, built from
//! validated names, and may not leave the output folder, through `..` or a symbolic link.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

/// What happened to one output file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The file was created or replaced.
    Written,
    /// The file already held these bytes.
    Unchanged,
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
#[derive(Debug, Clone)]
pub struct OutputDir {
    root: PathBuf,
}

impl OutputDir {
    /// Opens (creating if needed) the output folder. The folder itself may be given through a
    /// symbolic link; nothing inside it may be one.
    pub fn create(root: &Path) -> Result<Self, WriteError> {
        fs::create_dir_all(root).map_err(io_error(root))?;
        Ok(Self {
            root: root.to_owned(),
        })
    }

    /// An output folder that is only read (for `--check`); it need not exist.
    pub fn existing(root: &Path) -> Self {
        Self {
            root: root.to_owned(),
        }
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
        for component in Path::new(relative).components() {
            match component {
                Component::Normal(part) => {
                    path.push(part);
                    if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                        return Err(escapes("it goes through a symbolic link"));
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

    /// Whether the file at `relative` already holds exactly `bytes`.
    pub fn holds(&self, relative: &str, bytes: &[u8]) -> Result<bool, WriteError> {
        let path = self.resolve(relative)?;
        same_contents(&path, bytes).map_err(io_error(&path))
    }

    /// Writes `bytes` to `relative` atomically, unless the file already holds them.
    pub fn write(&self, relative: &str, bytes: &[u8]) -> Result<Outcome, WriteError> {
        let path = self.resolve(relative)?;
        if same_contents(&path, bytes).map_err(io_error(&path))? {
            return Ok(Outcome::Unchanged);
        }
        let dir = path.parent().unwrap_or(&self.root);
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let mut temp = tempfile::Builder::new()
            .prefix(".curvebake-")
            .tempfile_in(dir)
            .map_err(io_error(dir))?;
        temp.write_all(bytes).map_err(io_error(&path))?;
        temp.persist(&path).map_err(|e| WriteError::Io {
            path: path.display().to_string(),
            source: e.error,
        })?;
        Ok(Outcome::Written)
    }

    /// Removes a file curvebake wrote earlier; a missing file is not an error.
    pub fn remove(&self, relative: &str) -> Result<(), WriteError> {
        let path = self.resolve(relative)?;
        match fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(&path)(e)),
            _ => Ok(()),
        }
    }
}

/// A file written in pieces (a bundle), streamed into a temporary file beside its destination
/// and renamed into place by [`StreamedFile::finish`] only if its bytes differ from the file
/// already there. In check mode nothing is written: only the hash is kept.
pub struct StreamedFile {
    path: PathBuf,
    temp: Option<io::BufWriter<tempfile::NamedTempFile>>,
    hasher: blake3::Hasher,
    len: u64,
}

impl StreamedFile {
    /// Appends bytes.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.hasher.update(bytes);
        self.len += bytes.len() as u64;
        if let Some(temp) = &mut self.temp {
            temp.write_all(bytes).map_err(io_error(&self.path))?;
        }
        Ok(())
    }

    /// Compares with the existing file; moves the new one into place if they differ (unless
    /// this is a check). Returns whether the file was (or, in check mode, would be) written.
    pub fn finish(self) -> Result<Outcome, WriteError> {
        let path = self.path;
        if hash_of(&path).map_err(io_error(&path))? == Some((self.len, self.hasher.finalize())) {
            return Ok(Outcome::Unchanged);
        }
        if let Some(temp) = self.temp {
            let temp = temp
                .into_inner()
                .map_err(|e| io_error(&path)(e.into_error()))?;
            temp.persist(&path).map_err(|e| WriteError::Io {
                path: path.display().to_string(),
                source: e.error,
            })?;
        }
        Ok(Outcome::Written)
    }
}

fn hash_of(path: &Path) -> io::Result<Option<(u64, blake3::Hash)>> {
    match fs::File::open(path) {
        Ok(mut file) => {
            let mut hasher = blake3::Hasher::new();
            let len = io::copy(&mut file, &mut hasher)?;
            Ok(Some((len, hasher.finalize())))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

impl OutputDir {
    /// Starts a streamed file at `relative`; with `dry_run`, only its hash is computed.
    pub fn stream(&self, relative: &str, dry_run: bool) -> Result<StreamedFile, WriteError> {
        let path = self.resolve(relative)?;
        let temp = if dry_run {
            None
        } else {
            let dir = path.parent().unwrap_or(&self.root);
            fs::create_dir_all(dir).map_err(io_error(dir))?;
            let temp = tempfile::Builder::new()
                .prefix(".curvebake-")
                .tempfile_in(dir)
                .map_err(io_error(dir))?;
            Some(io::BufWriter::with_capacity(1 << 16, temp))
        };
        Ok(StreamedFile {
            path,
            temp,
            hasher: blake3::Hasher::new(),
            len: 0,
        })
    }
}

/// Compares a file with `bytes` without reading more than it must.
fn same_contents(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    let mut file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if file.metadata()?.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut existing = Vec::with_capacity(bytes.len());
    file.read_to_end(&mut existing)?;
    Ok(existing == bytes)
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
}
