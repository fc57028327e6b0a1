//! The manifest of an output folder: per motion, a content hash of what produced its files
//! (resolved spec, formats, layout, settings, tool version) and the files written. It lets a
//! re-run skip motions whose hash is unchanged and remove the files of motions that are gone,
//! touching only files curvebake wrote.

use crate::spec::{Ending, MotionSpec};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// File name of the manifest inside the output folder.
pub const MANIFEST_PATH: &str = ".curvebake-manifest.json";

/// What curvebake wrote into an output folder.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Tool name and version that wrote it.
    pub tool: String,
    /// Hash of the run settings plus every motion hash in order: equal means nothing changed.
    pub run: String,
    /// The bundles written, in exporter order, as they were left.
    pub bundles: Vec<BundleStamp>,
    /// The files describing the whole bake (`curves.json`, `index.html`, `png/all.png`).
    pub summaries: Vec<String>,
    /// One entry per motion, in input order.
    pub motions: Vec<Entry>,
    /// When the manifest was written (read from the file system, not stored in it).
    #[serde(skip)]
    pub written: Option<std::time::SystemTime>,
}

/// A bundle as a bake left it.
///
/// A bundle of the recorded length and no newer than the manifest (which is written after
/// every bundle) is taken to be the one this manifest describes, the test make applies to its
/// targets, so the chunks the entries locate in it can be copied into the next bundle instead
/// of exported again. An edit that keeps the length within the file system's timestamp
/// granularity of the bake goes unnoticed; `--check` compares exactly and `--force` exports
/// everything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleStamp {
    /// Path relative to the output folder.
    pub path: String,
    /// Length in bytes.
    pub len: u64,
}

/// One motion's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Motion name.
    pub name: String,
    /// Source file, as found.
    pub source: String,
    /// Content hash of the resolved spec and run settings.
    pub hash: String,
    /// Frames baked.
    pub frames: u64,
    /// Files written for this motion alone (relative to the output folder).
    pub files: Vec<String>,
    /// Where this motion's chunk lies in each bundle (in the order of [`Manifest::bundles`]):
    /// `[start, length]` in bytes.
    pub chunks: Vec<[u64; 2]>,
}

/// The tool's name, version and source fingerprint, part of every hash: a new version, or any
/// change to the code that writes outputs, re-bakes everything.
pub fn tool() -> String {
    format!(
        "curvebake {}+{}",
        env!("CARGO_PKG_VERSION"),
        env!("CURVEBAKE_SOURCE_HASH")
    )
}

impl Manifest {
    /// Reads the manifest of `out`; a missing or unreadable one is empty (everything is baked).
    pub fn read(out: &Path) -> Self {
        let path = out.join(MANIFEST_PATH);
        let written = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok())
            .filter(|m| m.tool == tool())
            .map(|m| Manifest { written, ..m })
            .unwrap_or_default()
    }

    /// Whether the bundle at `path` is still the one `stamp` records: of the recorded length,
    /// and no newer than this manifest.
    pub fn describes(&self, stamp: &BundleStamp, path: &Path) -> bool {
        let Ok(meta) = std::fs::metadata(path) else {
            return false;
        };
        let newer = match (meta.modified(), self.written) {
            (Ok(modified), Some(written)) => modified > written,
            _ => true,
        };
        meta.len() == stamp.len && !newer
    }

    /// The manifest's bytes (deterministic: entries in input order).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a manifest serializes");
        bytes.push(b'\n');
        bytes
    }
}

/// A hex content hash of `parts`, each length-prefixed so boundaries cannot shift.
pub fn hash(parts: &[&[u8]]) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in parts {
        absorb(&mut hasher, part);
    }
    hex(&hasher)
}

fn absorb(hasher: &mut blake3::Hasher, part: &[u8]) {
    hasher.update(&(part.len() as u64).to_le_bytes());
    hasher.update(part);
}

fn hex(hasher: &blake3::Hasher) -> String {
    hasher.finalize().to_hex()[..32].to_owned()
}

/// Content hashes of motions under one run key (the tool, layout, formats and settings),
/// which is absorbed once and not again for every motion.
#[derive(Debug, Clone)]
pub struct SpecHasher {
    keyed: blake3::Hasher,
}

impl SpecHasher {
    /// Hashes motions under `run_key`.
    pub fn new(run_key: &[u8]) -> Self {
        let mut keyed = blake3::Hasher::new();
        absorb(&mut keyed, run_key);
        Self { keyed }
    }

    /// The content hash of one motion: every field that decides its outputs (floats by their
    /// exact bits), without formatting a single number. Equal to
    /// `hash(&[run_key, ..fields])` with the fields length-prefixed in a fixed order.
    pub fn hash(&self, spec: &MotionSpec) -> String {
        let mut bytes = Vec::with_capacity(512);
        let mut put = |part: &[u8]| {
            bytes.extend_from_slice(&(part.len() as u64).to_le_bytes());
            bytes.extend_from_slice(part);
        };
        put(spec.name.as_bytes());
        put(spec.property.name().as_bytes());
        put(spec.unit.as_bytes());
        put(spec.model.kind().as_bytes());
        let (ending, length) = match spec.ending {
            Ending::Fixed(d) => (0u8, d),
            Ending::Arrives(d) => (1, d),
            Ending::Rests => (2, 0.0),
        };
        put(&[ending]);
        for x in [spec.fps, length, spec.rest_delta, spec.rest_speed] {
            put(&x.to_bits().to_le_bytes());
        }
        for group in spec.model.params() {
            put(group.name.unwrap_or("").as_bytes());
            for (name, value) in group.values {
                put(name.as_bytes());
                put(&value.to_bits().to_le_bytes());
            }
        }
        let mut hasher = self.keyed.clone();
        hasher.update(&bytes);
        hex(&hasher)
    }
}
