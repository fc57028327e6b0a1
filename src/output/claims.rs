//! The claims of a bake in progress: the files it is about to write that no manifest names
//! yet (those of motions new in this bake, or of formats new to a motion), recorded before
//! any of them is written, so that a bake killed at any point leaves a record of every file
//! that may be ours.
//!
//! The record of a bake in progress has two parts: the manifest in place, naming the files of
//! the last bake ([`crate::output::manifest::Manifest::in_progress`]), and this file beside
//! it, `.curvebake-claims`: one manifest entry per line, for ownership only (no hash). A bake
//! appends a window's claims and makes them reach the disk (`fdatasync`) before the window is
//! written, and removes the file once its own manifest, which names everything it wrote, is in
//! place. A line cut short by a kill is ignored: its window was not written yet.

use crate::output::durable;
use crate::output::record::Entry;
use crate::output::regular::read_regular;
use crate::output::write::{OutputDir, WriteError};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// File name of the claims inside the output folder.
pub const CLAIMS_PATH: &str = ".curvebake-claims";

/// The claims a bake that did not finish left in `out`, in the order they were made; `None`
/// when there are none (no bake was interrupted since the last one completed). Lines that do
/// not parse as entries (one cut short by a kill, a hand edit) end what is read.
pub fn read(out: &Path) -> Option<Vec<Entry>> {
    let bytes = read_regular(&out.join(CLAIMS_PATH)).ok()?;
    Some(
        bytes
            .split(|&b| b == b'\n')
            .map_while(|line| serde_json::from_slice::<Entry>(line).ok())
            .collect(),
    )
}

/// Removes the claims from `out` (a missing file is not an error): once the manifest in place
/// names every file they do.
pub fn remove(out: &OutputDir) -> Result<(), WriteError> {
    out.remove(CLAIMS_PATH).map(|_| ())
}

/// The claims of the bake in progress, made as it goes.
#[derive(Debug)]
pub struct ClaimsWriter {
    path: PathBuf,
    /// Open once the first claim is made (a bake that claims nothing writes no file).
    file: Option<fs::File>,
}

impl ClaimsWriter {
    /// Claims in `out`, none made yet.
    pub fn new(out: &OutputDir) -> Result<Self, WriteError> {
        Ok(Self {
            path: out.resolve(CLAIMS_PATH)?,
            file: None,
        })
    }

    /// Records `entries` (ownership only: which files of which motion from which source), on
    /// disk when this returns. The first claim makes the file (in place of any left by an
    /// earlier bake, whose claims the manifest in place carries by then) and its folder entry
    /// durable too.
    pub fn claim(&mut self, out: &OutputDir, entries: &[Entry]) -> Result<(), WriteError> {
        if entries.is_empty() {
            return Ok(());
        }
        let mut lines = Vec::with_capacity(entries.len() * 128);
        for entry in entries {
            serde_json::to_writer(&mut lines, entry).expect("an entry serializes");
            lines.push(b'\n');
        }
        let io = |source: io::Error| WriteError::Io {
            path: self.path.display().to_string(),
            source,
        };
        match &mut self.file {
            Some(file) => {
                file.write_all(&lines).map_err(io)?;
                file.sync_data().map_err(io)?;
            }
            None => {
                let mut file = out.create_appended(CLAIMS_PATH)?;
                file.write_all(&lines).map_err(io)?;
                file.sync_data().map_err(io)?;
                durable::sync_folder(&self.path).map_err(io)?;
                self.file = Some(file);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, files: &[&str]) -> Entry {
        Entry {
            name: name.to_owned(),
            source: format!("/curves/{name}.ron"),
            hash: String::new(),
            content: String::new(),
            frames: 0,
            files: files.iter().map(|f| f.to_string()).collect(),
            stamps: Vec::new(),
            chunks: Vec::new(),
            digest: None,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn claims_are_read_back_up_to_a_line_cut_short() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        assert_eq!(read(dir.path()), None);
        let mut claims = ClaimsWriter::new(&out).unwrap();
        claims.claim(&out, &[]).unwrap();
        assert_eq!(read(dir.path()), None, "no claim, no file");
        let (a, b) = (
            entry("a", &["css/a.css"]),
            entry("b", &["css/b.css", "json/b.json"]),
        );
        claims.claim(&out, std::slice::from_ref(&a)).unwrap();
        claims.claim(&out, std::slice::from_ref(&b)).unwrap();
        assert_eq!(read(dir.path()), Some(vec![a.clone(), b.clone()]));
        // A kill part way through the next line.
        let mut file = fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(CLAIMS_PATH))
            .unwrap();
        file.write_all(b"{\"name\":\"c\",\"sou").unwrap();
        assert_eq!(read(dir.path()), Some(vec![a.clone(), b]));
        // The next bake's first claim replaces the file.
        let mut next = ClaimsWriter::new(&out).unwrap();
        next.claim(&out, std::slice::from_ref(&a)).unwrap();
        assert_eq!(read(dir.path()), Some(vec![a]));
        remove(&out).unwrap();
        remove(&out).unwrap();
        assert_eq!(read(dir.path()), None);
    }
}
