//! The files of the output folder that curvebake wrote, by motion, as a list a repository can
//! commit with them: `.curvebake-files`.
//!
//! The manifest is bound to one machine (absolute paths, file stamps) and is kept out of
//! version control. Without it, a fresh checkout of a committed output folder would not know
//! which of its files are curvebake's: its first bake after an edit would take the bundles it
//! changes for the user's and refuse to replace them, and the files of a motion deleted
//! upstream would stay. This list says both, the same on every machine: per motion its name,
//! its source file (relative to the output folder) and its files, and the files of the whole
//! bake. A bake reads it for ownership only, beside the manifest, and
//! writes it after the manifest; a list that does not read is ignored (it names nothing as
//! curvebake's).

use crate::output::record::Entry;
use crate::output::regular::read_regular;
use crate::output::write::{OutputDir, WriteError};
use crate::run::source_identity;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// File name of the list inside the output folder.
pub const LISTED_PATH: &str = ".curvebake-files";

/// What the file holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listed {
    /// A line for people who open it.
    #[serde(default)]
    pub about: String,
    /// Per motion, in input order.
    pub motions: Vec<ListedMotion>,
    /// The files of the whole bake (bundles, the review page, summaries).
    pub whole: Vec<String>,
}

/// One motion's line of the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedMotion {
    /// Motion name.
    pub name: String,
    /// Its source file, relative to the output folder (`../curves/card.ron`).
    pub source: String,
    /// Its files, relative to the output folder.
    pub files: Vec<String>,
    /// The hash of the motion and what its files say of it (the manifest's `content`): a
    /// bake that leaves out some of the formats keeps their files while it holds.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content: String,
}

impl ListedMotion {
    /// A motion's line from its manifest record, its source still as the record names it.
    pub fn of(entry: &Entry) -> Self {
        Self {
            name: entry.name.clone(),
            source: entry.source.clone(),
            files: entry.files.clone(),
            content: entry.content.clone(),
        }
    }
}

const ABOUT: &str = "the files of this folder that curvebake wrote: commit this list with them \
                     (and not .curvebake-manifest.json, which is this machine's)";

impl Listed {
    /// The list of a bake into `out` of its `motions` (their sources as canonical paths) and
    /// the files of the whole bake.
    pub fn of(out: &Path, mut motions: Vec<ListedMotion>, whole: Vec<String>) -> Self {
        let out = source_identity(out);
        for motion in &mut motions {
            motion.source = relative_to(Path::new(&out), Path::new(&motion.source));
        }
        Self {
            about: ABOUT.to_owned(),
            motions,
            whole,
        }
    }

    /// Writes it into `out` (atomically, unless the file already holds these bytes).
    pub fn write(&self, out: &OutputDir) -> Result<(), WriteError> {
        out.write(LISTED_PATH, &self.bytes()).map(|_| ())
    }

    /// Whether `out` holds it, byte for byte.
    pub fn is_in(&self, out: &OutputDir) -> bool {
        out.holds(LISTED_PATH, &self.bytes()).unwrap_or(false)
    }

    /// Its text: JSON, one field a line, so that a commit's diff shows what changed.
    fn bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("the list serializes");
        bytes.push(b'\n');
        bytes
    }

    /// The list of `out`, if it reads as one.
    pub fn read(out: &Path) -> Option<Self> {
        let bytes = read_regular(&out.join(LISTED_PATH)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Its motions as manifest records for ownership only (no hash but their `content`), each source (relative
    /// to `out`) made the path a bake names it by (absolute, canonical where it exists).
    pub fn entries(&self, out: &Path) -> Vec<Entry> {
        let out = source_identity(out);
        (self.motions.iter())
            .map(|m| Entry {
                name: m.name.clone(),
                source: source_identity(&Path::new(&out).join(&m.source)),
                hash: String::new(),
                content: m.content.clone(),
                frames: 0,
                files: m.files.clone(),
                stamps: Vec::new(),
                chunks: Vec::new(),
                digest: None,
                warnings: Vec::new(),
            })
            .collect()
    }

    /// Every file it names.
    pub fn files(&self) -> impl Iterator<Item = &String> {
        (self.motions.iter().flat_map(|m| &m.files)).chain(&self.whole)
    }
}

/// `path` relative to the folder `from` (both absolute): up from `from` to the folders they
/// share, then down (`../curves/card.ron`), with `/` between its parts on every platform (the
/// list is committed: a checkout on Windows bakes the same bytes as one on Linux). Paths with
/// nothing in common (two drives) stay as they are.
fn relative_to(from: &Path, path: &Path) -> String {
    let (from, to): (Vec<_>, Vec<_>) = (from.components().collect(), path.components().collect());
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if shared == 0 {
        return path.display().to_string();
    }
    let up = std::iter::repeat("..".into()).take(from.len() - shared);
    let down = to[shared..]
        .iter()
        .map(|part| part.as_os_str().to_string_lossy());
    up.chain(down).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_reads_back_its_motions_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("site/out")).unwrap();
        std::fs::create_dir_all(root.join("curves")).unwrap();
        std::fs::write(root.join("curves/a.ron"), "").unwrap();
        let out_path = root.join("site/out");
        let out = OutputDir::create(&out_path).unwrap();
        let source = root.join("curves/a.ron").display().to_string();
        let motion = ListedMotion {
            name: "a".into(),
            source: source.clone(),
            files: vec!["json/a.json".into()],
            content: "c0ffee".into(),
        };
        let listed = Listed::of(&out_path, vec![motion], vec!["curves.css".into()]);
        assert_eq!(listed.motions[0].source, "../../curves/a.ron");
        listed.write(&out).unwrap();
        let read = Listed::read(&out_path).unwrap();
        assert_eq!(read, listed);
        let files: Vec<&String> = read.files().collect();
        assert_eq!(files, ["json/a.json", "curves.css"]);
        assert_eq!(read.entries(&out_path)[0].source, source);
        assert_eq!(read.entries(&out_path)[0].content, "c0ffee");
        // Anything else names nothing.
        std::fs::write(out_path.join(LISTED_PATH), "not a list").unwrap();
        assert_eq!(Listed::read(&out_path), None);
    }
}
