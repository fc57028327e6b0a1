//! The records a manifest is made of, shared with the claims of a bake in progress and the
//! annex of digests: a motion's [`Entry`], a bundle's [`BundleStamp`], a [`KeptWarning`].

use crate::output::regular::open_regular;
use crate::output::stamp::FileStamp;
use curvebake_model::hash::ContentHasher;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A bundle as a bake left it: its path, length and content hash. The chunks the entries
/// locate in it are copied into the next bundle only while the file is exactly this one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleStamp {
    /// Path relative to the output folder.
    pub path: String,
    /// Length in bytes.
    pub len: u64,
    /// Content hash (hex).
    pub hash: String,
}

impl BundleStamp {
    /// Whether the bundle at `path` is still the one this stamp records: of the recorded length
    /// and content hash.
    pub fn describes(&self, path: &Path) -> bool {
        let Ok(file) = open_regular(path) else {
            return false;
        };
        if !file
            .metadata()
            .is_ok_and(|m| m.is_file() && m.len() == self.len)
        {
            return false;
        }
        let mut hasher = ContentHasher::new();
        hasher
            .update_reader(std::io::Read::take(file, self.len))
            .is_ok_and(|()| hasher.hex() == self.hash)
    }
}

/// One motion's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Motion name.
    pub name: String,
    /// Source file: its canonical path (see `source_identity` in the run).
    pub source: String,
    /// Content hash of the resolved spec and run settings.
    pub hash: String,
    /// Content hash of the resolved spec and what its outputs say of it, not which outputs
    /// there are (`SpecHash::content`): while it is unchanged, the motion's files of formats
    /// a bake leaves out still hold what they should.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content: String,
    /// Frames baked.
    pub frames: u64,
    /// Files written for this motion alone (relative to the output folder).
    pub files: Vec<String>,
    /// Each of `files` as the bake left it, in the same order (see `output::stamp`): a
    /// motion is reused only while every one still has its stamp. Empty in a claim and in a
    /// record for ownership only; a record of a motion exported by the bake gets them once
    /// its files are written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stamps: Vec<Option<FileStamp>>,
    /// Where this motion's chunk lies in each bundle (in the order of the manifest's `bundles`):
    /// `[start, length]` in bytes.
    pub chunks: Vec<[u64; 2]>,
    /// Where this motion's line lies in the digests annex (the manifest's `digests`): what it
    /// adds to the files describing the whole bake, kept so that a motion whose file fails
    /// later keeps its place in them, as its chunks keep theirs in the bundles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<[u64; 2]>,
    /// What the exporters (and the bake, of its frames) warned about the motion, said again
    /// by a bake that reuses its outputs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<KeptWarning>,
}

/// A warning an exporter, or the bake itself, gave about a motion (without the file and
/// motion it names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeptWarning {
    /// The format whose exporter gave it ([`curvebake_export::Format::name`]), or
    /// [`BAKE_WARNING`] for what the bake says of the motion's frames whatever the formats.
    pub format: String,
    /// The warning.
    pub text: String,
}

/// The [`KeptWarning::format`] of a warning the bake gives about a motion's frames
/// ([`curvebake_model::bake::long_motion_warning`]), not any format's.
pub const BAKE_WARNING: &str = "bake";

impl KeptWarning {
    /// The warning as the report says it, about motion `name` of `file`.
    pub fn said(&self, file: &Path, name: &str) -> String {
        format!("{}: {name}: {}", file.display(), self.text)
    }
}

/// `warnings` of motion `name` of `file` as the report says them, each once (several formats
/// may find the same: a tolerance the CSS and the module both keep coarser than asked).
pub fn said_once(warnings: &[KeptWarning], file: &Path, name: &str) -> Vec<String> {
    let mut said: Vec<String> = Vec::with_capacity(warnings.len());
    for text in warnings.iter().map(|w| w.said(file, name)) {
        if !said.contains(&text) {
            said.push(text);
        }
    }
    said
}
