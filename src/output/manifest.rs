//! The manifest of an output folder: per motion, a content hash of what produced its files
//! (resolved spec, formats, layout, settings, tool version) and the files written. It lets a
//! re-run skip motions whose hash is unchanged and remove the files of motions that are gone,
//! touching only files curvebake wrote.
//!
//! The manifest is untrusted input (a person or a tool may have edited it, a crash may have
//! cut it): it ends with a checksum of everything before it, and its chunk places are checked
//! against its bundles. One that fails either is read for ownership only (which files are
//! ours, so they can still be removed when their motion is gone), and everything is baked
//! again. While a bake runs, the manifest in place is such an ownership record (see
//! [`Manifest::in_progress`]), so a bake that fails or is killed leaves the record of what is
//! ours, and no hash that could be trusted.

use crate::bake::MAX_FRAMES;
use crate::export::{preview_picks, Digest, Name};
use crate::motion::frame_time;
use crate::output::write::{OutputDir, StreamedFile, Sync, WriteError};
use crate::spec::ParamGroup;
use crate::spec::{Ending, MotionSpec};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// File name of the manifest inside the output folder.
pub const MANIFEST_PATH: &str = ".curvebake-manifest.json";

/// What ends the manifest's checked bytes: the checksum field.
const CHECK_FIELD: &[u8] = b",\"check\":\"";

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
    /// The checksum of the manifest's bytes before this field.
    #[serde(default)]
    pub check: String,
}

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
    /// What the motion adds to the files describing the whole bake (the review page, the
    /// contact sheet), when the bake wrote any: so that a motion whose file fails later keeps
    /// its place there, as its chunks keep theirs in the bundles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<SummaryRecord>,
}

/// A motion's [`Digest`] less what its [`Entry`] holds (name, frames, files), for the
/// manifest. Numbers are the bits of their `f64` (`f64::to_bits`): exact, where JSON's
/// decimals would be parsed to within an ulp, and never a JSON number a non-finite value
/// cannot be. The preview holds only positions: its times are those of [`preview_picks`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryRecord {
    /// Kind (`spring`, ...).
    pub kind: String,
    /// Property name.
    pub property: String,
    /// Unit.
    pub unit: String,
    /// Frames per second (bits).
    pub fps: u64,
    /// Bake length in seconds (bits).
    pub duration: u64,
    /// Parameter groups: name, then (name, value bits) pairs.
    pub params: Vec<(Option<String>, Values)>,
    /// Per track: its name and its positions at the picked frames (bits).
    pub preview: Vec<(String, Vec<u64>)>,
    /// Per track, the value it ends at (bits).
    pub ends: Vec<u64>,
    /// When the motion looks done (bits).
    pub looks_done: Option<u64>,
    /// Whether the bake ran until the motion provably rests.
    pub rests: bool,
}

/// Named numbers of a [`SummaryRecord`]: (name, value bits) pairs.
pub type Values = Vec<(String, u64)>;

/// Most tracks, parameter groups and parameters per group a kept summary may list, and most
/// bytes in one of its names (a hand-edited manifest must not make the page huge).
const SUMMARY_LIMITS: (usize, usize, usize, usize) = (8, 16, 64, 256);

impl SummaryRecord {
    /// The record of `digest`.
    pub fn of(digest: &Digest) -> Self {
        let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect();
        Self {
            kind: digest.kind.to_string(),
            property: digest.property.clone(),
            unit: digest.unit.clone(),
            fps: digest.fps.to_bits(),
            duration: digest.duration.to_bits(),
            params: (digest.params.iter())
                .map(|g| {
                    let values = g.values.iter().map(|(k, v)| (k.to_string(), v.to_bits()));
                    (g.name.as_ref().map(|n| n.to_string()), values.collect())
                })
                .collect(),
            preview: (digest.preview.iter())
                .map(|(track, points)| {
                    let positions: Vec<f64> = points.iter().map(|p| p.1).collect();
                    (track.to_string(), bits(&positions))
                })
                .collect(),
            ends: bits(&digest.ends),
            looks_done: digest.looks_done.map(f64::to_bits),
            rests: digest.rests,
        }
    }

    /// The digest this record keeps for `entry`, or `None` if the record does not hold as
    /// one (the manifest is untrusted): every number finite, fps > 0, duration >= 0, frames
    /// from 1 to [`MAX_FRAMES`], each track with one position per picked frame, names short
    /// and lists bounded.
    pub fn digest(&self, entry: &Entry) -> Option<Digest> {
        let (max_tracks, max_groups, max_values, max_name) = SUMMARY_LIMITS;
        let number = |bits: u64| Some(f64::from_bits(bits)).filter(|x| x.is_finite());
        let name = |s: &str| (s.len() <= max_name).then(|| Name::Owned(s.to_owned()));
        let frames = usize::try_from(entry.frames)
            .ok()
            .filter(|f| (1..=MAX_FRAMES).contains(f))?;
        let fps = number(self.fps).filter(|&f| f > 0.0)?;
        let duration = number(self.duration).filter(|&d| d >= 0.0)?;
        let picks: Vec<usize> = preview_picks(frames).collect();
        if self.preview.len() > max_tracks
            || self.ends.len() > max_tracks
            || self.params.len() > max_groups
            || self.params.iter().any(|(_, v)| v.len() > max_values)
            || [&self.property, &self.unit]
                .iter()
                .any(|s| s.len() > max_name)
        {
            return None;
        }
        let preview = (self.preview.iter())
            .map(|(track, positions)| {
                if positions.len() != picks.len() {
                    return None;
                }
                let points = (picks.iter().zip(positions))
                    .map(|(&i, &x)| Some((frame_time(i, fps, duration), number(x)?)))
                    .collect::<Option<Vec<_>>>()?;
                Some((name(track)?, points))
            })
            .collect::<Option<Vec<_>>>()?;
        let params = (self.params.iter())
            .map(|(group, values)| {
                Some(ParamGroup {
                    name: match group {
                        Some(g) => Some(name(g)?),
                        None => None,
                    },
                    values: (values.iter())
                        .map(|(k, v)| Some((name(k)?, number(*v)?)))
                        .collect::<Option<Vec<_>>>()?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Digest {
            name: entry.name.clone(),
            kind: name(&self.kind)?,
            property: self.property.clone(),
            unit: self.unit.clone(),
            fps,
            duration,
            frames,
            params,
            files: entry.files.clone(),
            preview,
            ends: self
                .ends
                .iter()
                .map(|&e| number(e))
                .collect::<Option<_>>()?,
            looks_done: match self.looks_done {
                Some(bits) => Some(number(bits)?),
                None => None,
            },
            rests: self.rests,
        })
    }
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
    /// Reads the manifest of `out`. A missing or unparsable one is empty (everything is baked,
    /// nothing is known to be ours); one whose checksum, tool or chunk places do not hold is
    /// read for ownership only ([`Manifest::ownership`]).
    pub fn read(out: &Path) -> Self {
        let Ok(bytes) = std::fs::read(out.join(MANIFEST_PATH)) else {
            return Self::default();
        };
        let Ok(manifest) = serde_json::from_slice::<Manifest>(&bytes) else {
            return Self::default();
        };
        let checked = checked_bytes(&bytes).is_some_and(|b| hex(&hasher_of(b)) == manifest.check);
        if checked && manifest.tool == tool() && manifest.places_hold() {
            manifest
        } else {
            manifest.ownership()
        }
    }

    /// Only which files are ours: no hash, no bundle, no summary, no run can be trusted, so every motion
    /// is baked and exported again, and the files of motions that are gone are still removed.
    pub fn ownership(self) -> Self {
        Self {
            tool: tool(),
            run: String::new(),
            bundles: Vec::new(),
            summaries: self.summaries,
            motions: (self.motions.into_iter())
                .map(|e| Entry {
                    hash: String::new(),
                    chunks: Vec::new(),
                    summary: None,
                    ..e
                })
                .collect(),
            check: String::new(),
        }
    }

    /// Whether every entry locates one chunk per bundle (or none, for a motion kept from a
    /// failed file), inside the bundle's length and after the previous entry's chunk there.
    fn places_hold(&self) -> bool {
        let mut ends = vec![0u64; self.bundles.len()];
        self.motions.iter().all(|e| {
            e.chunks.is_empty()
                || (e.chunks.len() == self.bundles.len()
                    && e.chunks.iter().zip(&self.bundles).zip(&mut ends).all(
                        |((&[start, len], stamp), end)| {
                            let fits = start >= *end
                                && start.checked_add(len).is_some_and(|e| e <= stamp.len);
                            *end = start.saturating_add(len);
                            fits
                        },
                    ))
        })
    }

    /// Whether the bundle at `path` is still the one `stamp` records: of the recorded length
    /// and content hash.
    pub fn describes(&self, stamp: &BundleStamp, path: &Path) -> bool {
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        if !file
            .metadata()
            .is_ok_and(|m| m.is_file() && m.len() == stamp.len)
        {
            return false;
        }
        let mut hasher = blake3::Hasher::new();
        hasher
            .update_reader(std::io::Read::take(file, stamp.len))
            .is_ok_and(|h| hex(h) == stamp.hash)
    }

    /// Writes the record of a bake in progress in place of the manifest, durably: the old
    /// manifest's entries for ownership only (see [`Manifest::ownership`]). A bake that fails
    /// or is killed leaves it, and the next bake then knows which files are ours but trusts
    /// none of them.
    pub fn in_progress(&self, out: &OutputDir) -> Result<(), WriteError> {
        let record = self.clone().ownership();
        let mut writer = ManifestWriter::open(out)?;
        for entry in &record.motions {
            writer.push(entry)?;
        }
        writer.finish_with("", &[], &record.summaries, Sync::File)
    }
}

/// The bytes of a manifest that its checksum covers: everything before the checksum field.
fn checked_bytes(bytes: &[u8]) -> Option<&[u8]> {
    let at = bytes
        .windows(CHECK_FIELD.len())
        .rposition(|w| w == CHECK_FIELD)?;
    Some(&bytes[..at])
}

fn hasher_of(bytes: &[u8]) -> blake3::Hasher {
    let mut hasher = blake3::Hasher::new();
    hasher.update(bytes);
    hasher
}

/// A manifest written as a bake goes: each motion's entry as its window is written, the rest
/// at the end, into a temporary file renamed into place by [`ManifestWriter::finish`] (so no
/// manifest describes the folder until the bake completes, and the entries are not held).
///
/// The file is `{"motions":[entry,...],"tool":...,"run":...,"bundles":[...],"summaries":[...],
/// "check":...}`, the check being the hash of every byte before `,"check"`. It reaches the disk
/// (with the folder entry that names it) before it is in place.
pub struct ManifestWriter {
    file: StreamedFile,
    entries: usize,
    /// Every byte written so far.
    hasher: blake3::Hasher,
}

impl ManifestWriter {
    /// Starts the manifest of `out`.
    pub fn open(out: &OutputDir) -> Result<Self, WriteError> {
        let file = out.stream(MANIFEST_PATH, false)?;
        let mut writer = Self {
            file,
            entries: 0,
            hasher: blake3::Hasher::new(),
        };
        writer.append(b"{\"motions\":[")?;
        Ok(writer)
    }

    fn append(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.hasher.update(bytes);
        self.file.append(bytes)
    }

    /// Appends one motion's entry.
    pub fn push(&mut self, entry: &Entry) -> Result<(), WriteError> {
        let mut bytes = Vec::with_capacity(256);
        if self.entries > 0 {
            bytes.push(b',');
        }
        serde_json::to_writer(&mut bytes, entry).expect("an entry serializes");
        self.entries += 1;
        self.append(&bytes)
    }

    /// Writes the fields after the entries and moves the manifest into place, once every
    /// output written so far has reached the disk.
    pub fn finish(
        self,
        run: &str,
        bundles: &[BundleStamp],
        summaries: &[String],
    ) -> Result<(), WriteError> {
        self.finish_with(run, bundles, summaries, Sync::FileSystem)
    }

    fn finish_with(
        mut self,
        run: &str,
        bundles: &[BundleStamp],
        summaries: &[String],
        sync: Sync,
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
        // `],` closes the entries; the tail's own `{` is dropped to continue the object, and
        // its `}` to add the checksum of everything before it.
        self.append(b"],")?;
        self.append(&tail[1..tail.len() - 1])?;
        let check = hex(&self.hasher);
        self.file.append(CHECK_FIELD)?;
        self.file.append(format!("{check}\"}}\n").as_bytes())?;
        self.file.finish_durably(sync).map(|_| ())
    }
}

/// Feeds `part` to `hasher`, length-prefixed so that boundaries cannot shift.
fn absorb(hasher: &mut blake3::Hasher, part: &[u8]) {
    hasher.update(&(part.len() as u64).to_le_bytes());
    hasher.update(part);
}

/// The first 128 bits of a hash, in hex.
pub fn hex(hasher: &blake3::Hasher) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::bake;
    use crate::input::load::parse_bytes;
    use crate::spec::{MotionSpec, Overrides};

    /// A ring (two tracks, named parameter groups) of 300 frames, its digest with a preview,
    /// and the entry that would record it.
    fn ring() -> (Digest, Entry) {
        let ron = r#"(name: "burst", fps: 100, duration: 2.99, motion: ExplosionRing(
            inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15)))"#;
        let file = &parse_bytes(Path::new("t.ron"), ron.as_bytes()).unwrap()[0];
        let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
        let baked = bake(&spec).unwrap();
        let mut digest = Digest::of(&baked, true);
        digest.files = vec!["css/burst.css".into()];
        let entry = Entry {
            name: "burst".into(),
            source: "t.ron".into(),
            hash: String::new(),
            frames: digest.frames as u64,
            files: digest.files.clone(),
            chunks: Vec::new(),
            summary: Some(SummaryRecord::of(&digest)),
        };
        (digest, entry)
    }

    /// Through the manifest's JSON and back, a kept digest is the digest that was recorded,
    /// to the bit (the preview's times are made again from the picked frames).
    #[test]
    fn a_summary_gives_back_its_digest_exactly() {
        let (digest, entry) = ring();
        assert_eq!(digest.preview.len(), 2);
        assert!(digest.params.iter().any(|g| g.name.is_some()));
        let json = serde_json::to_string(&entry).unwrap();
        let read: Entry = serde_json::from_str(&json).unwrap();
        assert_eq!(read, entry);
        let kept = read.summary.as_ref().unwrap().digest(&read).unwrap();
        assert_eq!(kept, digest);
    }

    /// A summary that does not hold as a digest (a hand-edited manifest) gives none: nothing
    /// non-finite, no preview of the wrong length, no frame count out of range, no huge name.
    #[test]
    fn a_summary_that_does_not_hold_gives_no_digest() {
        let (_, entry) = ring();
        type Edit = fn(&mut Entry);
        let edits: [(&str, Edit); 7] = [
            ("fps NaN", |e| {
                e.summary.as_mut().unwrap().fps = f64::NAN.to_bits()
            }),
            ("fps 0", |e| e.summary.as_mut().unwrap().fps = 0),
            ("duration inf", |e| {
                e.summary.as_mut().unwrap().duration = f64::INFINITY.to_bits()
            }),
            ("a position short", |e| {
                e.summary.as_mut().unwrap().preview[1].1.pop();
            }),
            ("no frames", |e| e.frames = 0),
            ("too many frames", |e| e.frames = u64::MAX),
            ("a huge name", |e| {
                e.summary.as_mut().unwrap().params[0].1[0].0 = "x".repeat(1 << 20)
            }),
        ];
        for (what, edit) in edits {
            let mut edited = entry.clone();
            edit(&mut edited);
            let summary = edited.summary.as_ref().unwrap();
            assert_eq!(summary.digest(&edited), None, "{what}");
        }
    }
}
