//! The manifest of an output folder: per motion, a content hash of what produced its files
//! (resolved spec, formats, layout, settings, tool version) and the files written. It lets a
//! re-run skip motions whose hash is unchanged and remove the files of motions that are gone,
//! touching only files curvebake wrote.

use crate::output::write::{OutputDir, StreamedFile, WriteError};
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
    /// Hash of the run settings and every input file (path and bytes) in order, recorded only
    /// by a bake without errors (empty otherwise): equal means nothing changed.
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
    /// Source file: its canonical path (see `source_identity` in the run).
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
}

/// A manifest written as a bake goes: each motion's entry as its window is written, the rest
/// at the end, into a temporary file renamed into place by [`ManifestWriter::finish`] (so no
/// manifest describes the folder until the bake completes, and the entries are not held).
///
/// The file is `{"motions":[entry,...],"tool":...,"run":...,"bundles":[...],"summaries":[...]}`.
pub struct ManifestWriter {
    file: StreamedFile,
    entries: usize,
}

impl ManifestWriter {
    /// Starts the manifest of `out`.
    pub fn open(out: &OutputDir) -> Result<Self, WriteError> {
        let mut file = out.stream(MANIFEST_PATH, false)?;
        file.append(b"{\"motions\":[")?;
        Ok(Self { file, entries: 0 })
    }

    /// Appends one motion's entry.
    pub fn push(&mut self, entry: &Entry) -> Result<(), WriteError> {
        let mut bytes = Vec::with_capacity(256);
        if self.entries > 0 {
            bytes.push(b',');
        }
        serde_json::to_writer(&mut bytes, entry).expect("an entry serializes");
        self.entries += 1;
        self.file.append(&bytes)
    }

    /// Writes the fields after the entries and moves the manifest into place.
    pub fn finish(
        mut self,
        run: &str,
        bundles: &[BundleStamp],
        summaries: &[String],
    ) -> Result<(), WriteError> {
        /// The fields after `motions`, in the order they are written.
        #[derive(Serialize)]
        struct Tail<'a> {
            tool: String,
            run: &'a str,
            bundles: &'a [BundleStamp],
            summaries: &'a [String],
        }
        let tail = Tail {
            tool: tool(),
            run,
            bundles,
            summaries,
        };
        let tail = serde_json::to_vec(&tail).expect("the fields serialize");
        // `],` closes the entries; the tail's own `{` is dropped to continue the object.
        self.file.append(b"],")?;
        self.file.append(&tail[1..])?;
        self.file.append(b"\n")?;
        self.file.finish().map(|_| ())
    }
}

/// Feeds `part` to `hasher`, length-prefixed so that boundaries cannot shift.
fn absorb(hasher: &mut blake3::Hasher, part: &[u8]) {
    hasher.update(&(part.len() as u64).to_le_bytes());
    hasher.update(part);
}

fn hex(hasher: &blake3::Hasher) -> String {
    hasher.finalize().to_hex()[..32].to_owned()
}

/// A hasher that has absorbed `run_key`: the start of every hash of one run.
fn keyed(run_key: &[u8]) -> blake3::Hasher {
    let mut hasher = blake3::Hasher::new();
    absorb(&mut hasher, run_key);
    hasher
}

/// The digest of one input file for [`RunHasher`]: its path and its bytes.
pub fn source_digest(path: &Path, bytes: &[u8]) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new();
    absorb(&mut hasher, path.as_os_str().as_encoded_bytes());
    absorb(&mut hasher, bytes);
    *hasher.finalize().as_bytes()
}

/// The hash of a run ([`Manifest::run`]): the run key, then each input file's
/// [`source_digest`] in input order.
#[derive(Debug, Clone)]
pub struct RunHasher {
    hasher: blake3::Hasher,
}

impl RunHasher {
    /// Starts the hash of a run under `run_key`.
    pub fn new(run_key: &[u8]) -> Self {
        Self {
            hasher: keyed(run_key),
        }
    }

    /// Adds the next input file.
    pub fn add(&mut self, digest: &[u8; 32]) {
        self.hasher.update(digest);
    }

    /// The hex hash.
    pub fn finish(&self) -> String {
        hex(&self.hasher)
    }
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
        Self {
            keyed: keyed(run_key),
        }
    }

    /// The content hash of one motion: every field that decides its outputs (floats by their
    /// exact bits), without formatting a single number: the run key, then the fields,
    /// length-prefixed in a fixed order.
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
        for x in [spec.tolerance, spec.relative_tolerance] {
            put(&x.map_or(u64::MAX, f64::to_bits).to_le_bytes());
        }
        put(spec.reduced_motion.name().as_bytes());
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
