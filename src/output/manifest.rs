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
//! ours (with the claims of what it was about to write beside it, see `output::claims`), and
//! no hash that could be trusted.

use crate::output::claims;
use crate::output::digests::DigestsWriter;
use crate::output::listed::{Listed, ListedMotion};
use crate::output::record::{BundleStamp, Entry};
use crate::output::regular::read_regular;
use crate::output::stamp::FileStamp;
use crate::output::write::{OutputDir, StreamedFile, Sync, WriteError};
use curvebake_model::hash::ContentHasher;
use curvebake_model::spec::{Ending, MotionSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
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
    /// Each of `summaries` as the bake left it, in the same order (see `output::stamp`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summary_stamps: Vec<Option<FileStamp>>,
    /// The digests annex as the bake left it (see `output::digests`), when the bake
    /// wrote the review page or the contact sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digests: Option<BundleStamp>,
    /// One entry per motion, in input order.
    pub motions: Vec<Entry>,
    /// The checksum of the manifest's bytes before this field.
    #[serde(default)]
    pub check: String,
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
    /// read for ownership only ([`Manifest::ownership`]). Claims left beside it by a bake that
    /// did not finish (`output::claims`) are added to it, for ownership only too.
    ///
    /// The list of files a repository commits beside it ([`Listed`]) adds, for ownership
    /// only too, what the manifest does not name: a fresh checkout's (no manifest), or a
    /// teammate's new motions after a pull.
    pub fn read(out: &Path) -> Self {
        let mut manifest = Self::read_alone(out);
        if let Some(claims) = claims::read(out) {
            manifest = manifest.ownership().with_claims(claims);
        }
        match Listed::read(out) {
            Some(listed) if !manifest.names_all(&listed) => manifest.with_listed(out, listed),
            _ => manifest,
        }
    }

    /// The list of its files a repository commits ([`Listed`]), as a bake into `out` that
    /// it records writes it.
    pub fn listed(&self, out: &Path) -> Listed {
        let motions = self.motions.iter().map(ListedMotion::of).collect();
        let whole = (self.bundles.iter().map(|b| b.path.clone()))
            .chain(self.summaries.iter().cloned())
            .collect();
        Listed::of(out, motions, whole)
    }

    /// Whether it names every file `listed` does.
    fn names_all(&self, listed: &Listed) -> bool {
        let named: std::collections::HashSet<&String> = self.files().collect();
        listed.files().all(|f| named.contains(f))
    }

    /// With the motions and files of `listed` it does not name, for ownership only.
    fn with_listed(self, out: &Path, listed: Listed) -> Self {
        let mut manifest = self.ownership().with_claims(listed.entries(out));
        for file in listed.whole {
            if !manifest.summaries.contains(&file) {
                manifest.summaries.push(file);
            }
        }
        manifest
    }

    /// [`Manifest::read`], without the claims.
    fn read_alone(out: &Path) -> Self {
        let Ok(bytes) = read_regular(&out.join(MANIFEST_PATH)) else {
            return Self::default();
        };
        let Ok(manifest) = serde_json::from_slice::<Manifest>(&bytes) else {
            return Self::default();
        };
        let checked = checked_bytes(&bytes).is_some_and(|b| hasher_of(b).hex() == manifest.check);
        if checked && manifest.tool == tool() && manifest.places_hold() {
            manifest
        } else {
            manifest.ownership()
        }
    }

    /// Adds the files `claims` name to the entries of their motions (by name), or the claims
    /// as entries of their own for motions it has none of, for ownership only.
    fn with_claims(mut self, claims: Vec<Entry>) -> Self {
        let mut by_name: HashMap<String, usize> = (self.motions.iter().enumerate())
            .map(|(k, e)| (e.name.clone(), k))
            .collect();
        for claim in claims {
            match by_name.get(&claim.name) {
                Some(&k) => {
                    let files = &mut self.motions[k].files;
                    for file in claim.files {
                        if !files.contains(&file) {
                            files.push(file);
                        }
                    }
                }
                None => {
                    by_name.insert(claim.name.clone(), self.motions.len());
                    self.motions.push(claim);
                }
            }
        }
        self.ownership()
    }

    /// Only which files are ours: no hash, no bundle, no digest, no run can be trusted, so
    /// every motion is baked and exported again, and the files of motions that are gone are
    /// still removed. The bundles' paths are kept among the summaries: files that are ours.
    /// Each motion's `content` hash is kept: it only says whether a file of a format the next
    /// bake leaves out still shows the motion (a wrong one keeps such a file, removes none
    /// that holds).
    pub fn ownership(self) -> Self {
        let mut summaries = self.summaries;
        for bundle in self.bundles {
            if !summaries.contains(&bundle.path) {
                summaries.push(bundle.path);
            }
        }
        Self {
            tool: tool(),
            run: String::new(),
            bundles: Vec::new(),
            digests: None,
            summaries,
            summary_stamps: Vec::new(),
            motions: (self.motions.into_iter())
                .map(|e| Entry {
                    hash: String::new(),
                    stamps: Vec::new(),
                    chunks: Vec::new(),
                    digest: None,
                    warnings: Vec::new(),
                    ..e
                })
                .collect(),
            check: String::new(),
        }
    }

    /// Every file it names: its motions' files, its summaries and its bundles (the files a
    /// bake may replace, see `output::owned`).
    pub fn files(&self) -> impl Iterator<Item = &String> {
        (self.motions.iter().flat_map(|e| &e.files))
            .chain(&self.summaries)
            .chain(self.bundles.iter().map(|b| &b.path))
    }

    /// Whether every entry locates one chunk per bundle (or none, for a motion kept from a
    /// failed file), inside the bundle's length and after the previous entry's chunk there.
    /// The same holds for the lines entries locate in the digests annex.
    fn places_hold(&self) -> bool {
        let mut ends = vec![0u64; self.bundles.len()];
        let mut annex_end = 0u64;
        let lines_hold = self
            .motions
            .iter()
            .all(|e| match (e.digest, &self.digests) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some([start, len]), Some(stamp)) => {
                    let fits = start >= annex_end
                        && start.checked_add(len).is_some_and(|e| e <= stamp.len);
                    annex_end = start.saturating_add(len);
                    fits
                }
            });
        lines_hold
            && self.motions.iter().all(|e| {
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

    /// Writes the record of a bake in progress in place of the manifest, durably: the old
    /// manifest's entries for ownership only (see [`Manifest::ownership`]), with any claims an
    /// earlier unfinished bake left (read into them by [`Manifest::read`]). A bake that fails
    /// or is killed leaves it, with the claims of what it was about to write beside it
    /// (`output::claims`), and the next bake then knows which files are ours but trusts none of
    /// them. `whole_bake` are the files of the whole bake (bundles, summaries) the bake in
    /// progress is about to write: named here, they are ours however far it gets.
    pub fn in_progress(&self, out: &OutputDir, whole_bake: &[String]) -> Result<(), WriteError> {
        let mut record = self.clone().ownership();
        for file in whole_bake {
            if !record.summaries.contains(file) {
                record.summaries.push(file.clone());
            }
        }
        let mut writer = ManifestWriter::open(out, false)?;
        for entry in &record.motions {
            writer.push(entry)?;
        }
        let summaries = Summaries {
            paths: &record.summaries,
            stamps: &[],
        };
        writer.finish_with("", &[], summaries, Sync::File)
    }
}

/// The bytes of a manifest that its checksum covers: everything before the checksum field.
fn checked_bytes(bytes: &[u8]) -> Option<&[u8]> {
    let at = bytes
        .windows(CHECK_FIELD.len())
        .rposition(|w| w == CHECK_FIELD)?;
    Some(&bytes[..at])
}

fn hasher_of(bytes: &[u8]) -> ContentHasher {
    let mut hasher = ContentHasher::new();
    hasher.update(bytes);
    hasher
}

/// A manifest written as a bake goes: each motion's entry as its window is written, the rest
/// at the end, into a temporary file renamed into place by [`ManifestWriter::finish`] (so no
/// manifest describes the folder until the bake completes, and the entries are not held).
///
/// The file is `{"motions":[entry,...],"tool":...,"run":...,"bundles":[...],"summaries":[...],
/// "summary_stamps":[...],"digests":...,"check":...}`, the check being the hash of every byte before `,"check"`. It reaches the disk
/// (with the folder entry that names it) before it is in place.
pub struct ManifestWriter {
    file: StreamedFile,
    entries: usize,
    /// Each entry's line of the list a repository commits ([`Listed`]).
    listed: Vec<ListedMotion>,
    /// Every byte written so far.
    hasher: ContentHasher,
    /// The digests annex, when the bake writes one.
    digests: Option<DigestsWriter>,
}

impl ManifestWriter {
    /// Starts the manifest of `out`, and its digests annex if `digests` is set.
    pub fn open(out: &OutputDir, digests: bool) -> Result<Self, WriteError> {
        let file = out.stream(MANIFEST_PATH)?;
        let mut writer = Self {
            file,
            entries: 0,
            listed: Vec::new(),
            hasher: ContentHasher::new(),
            digests: digests.then(|| DigestsWriter::open(out)).transpose()?,
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
        self.listed.push(ListedMotion::of(entry));
        self.append(&bytes)
    }

    /// Appends one motion's entry, and its `digest` line to the annex (if the bake writes
    /// one), locating the line in the entry.
    pub fn push_with(&mut self, mut entry: Entry, digest: Option<&[u8]>) -> Result<(), WriteError> {
        entry.digest = match (&mut self.digests, digest) {
            (Some(annex), Some(line)) => Some(annex.push(line)?),
            _ => None,
        };
        self.push(&entry)
    }

    /// Writes the fields after the entries and moves the manifest into place, once every
    /// output written so far has reached the disk; returns the list of the files it names
    /// but those `gone` since their entries were written (files of formats left out, see the
    /// run's `finish`), for a repository to commit ([`Listed`]).
    pub fn finish(
        mut self,
        out: &Path,
        run: &str,
        bundles: &[BundleStamp],
        (summaries, gone): (Summaries, &[String]),
    ) -> Result<Listed, WriteError> {
        let mut motions = std::mem::take(&mut self.listed);
        if !gone.is_empty() {
            let gone: std::collections::HashSet<&String> = gone.iter().collect();
            for motion in &mut motions {
                motion.files.retain(|f| !gone.contains(f));
            }
        }
        let whole = (bundles.iter().map(|b| b.path.clone()))
            .chain(summaries.paths.iter().cloned())
            .collect();
        self.finish_with(run, bundles, summaries, Sync::Outputs)?;
        Ok(Listed::of(out, motions, whole))
    }

    fn finish_with(
        mut self,
        run: &str,
        bundles: &[BundleStamp],
        summaries: Summaries,
        sync: Sync,
    ) -> Result<(), WriteError> {
        /// The fields after `motions`, in the order they are written.
        #[derive(Serialize)]
        struct Tail<'a> {
            tool: String,
            run: &'a str,
            bundles: &'a [BundleStamp],
            summaries: &'a [String],
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            summary_stamps: &'a [Option<FileStamp>],
            #[serde(skip_serializing_if = "Option::is_none")]
            digests: Option<BundleStamp>,
        }
        let digests = self.digests.take().map(DigestsWriter::finish).transpose()?;
        let tail = Tail {
            tool: tool(),
            run,
            bundles,
            summaries: summaries.paths,
            summary_stamps: summaries.stamps,
            digests,
        };
        let tail = serde_json::to_vec(&tail).expect("the fields serialize");
        // `],` closes the entries; the tail's own `{` is dropped to continue the object, and
        // its `}` to add the checksum of everything before it.
        self.append(b"],")?;
        self.append(&tail[1..tail.len() - 1])?;
        let check = self.hasher.hex();
        self.file.append(CHECK_FIELD)?;
        self.file.append(format!("{check}\"}}\n").as_bytes())?;
        self.file.finish_durably(sync).map(|_| ())
    }
}

/// The files describing the whole bake, as a manifest records them: their paths, and the
/// stamps of each (in the same order) once they are written.
#[derive(Debug, Clone, Copy)]
pub struct Summaries<'a> {
    /// Relative to the output folder.
    pub paths: &'a [String],
    /// One per path, or none.
    pub stamps: &'a [Option<FileStamp>],
}

/// Content hashes of motions under one run key, whose parts are absorbed once and not again
/// for every motion.
#[derive(Debug, Clone)]
pub struct SpecHasher {
    /// Keyed with what the outputs say of a motion.
    content: ContentHasher,
    /// Keyed with which outputs there are.
    outputs: ContentHasher,
}

/// A motion's two hashes (hex).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecHash {
    /// Of the motion and what its outputs say of it: equal, a file of any format made for it
    /// is still right.
    pub content: String,
    /// Of that and which outputs there are: equal, its outputs are.
    pub whole: String,
}

impl SpecHasher {
    /// Hashes motions under a run key's two parts: what the outputs say of a motion
    /// (`content`) and which outputs there are (`outputs`).
    pub fn new(content: &[u8], outputs: &[u8]) -> Self {
        Self {
            content: ContentHasher::keyed(content),
            outputs: ContentHasher::keyed(outputs),
        }
    }

    /// The content hashes of one motion: every field that decides its outputs (floats by their
    /// exact bits), without formatting a single number: the run key, then the fields,
    /// length-prefixed in a fixed order.
    pub fn hash(&self, spec: &MotionSpec) -> SpecHash {
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
        put(&[u8::from(spec.css_velocity())]);
        for group in spec.model.inputs() {
            put(group.name.unwrap_or("").as_bytes());
            for (name, value) in group.values {
                put(name.as_bytes());
                put(&value.to_bits().to_le_bytes());
            }
        }
        let mut hasher = self.content.clone();
        hasher.update(&bytes);
        let content = hasher.hex();
        let mut hasher = self.outputs.clone();
        hasher.update(content.as_bytes());
        SpecHash {
            whole: hasher.hex(),
            content,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::claims::ClaimsWriter;

    fn entry(name: &str, hash: &str, files: &[&str]) -> Entry {
        Entry {
            name: name.to_owned(),
            source: format!("/curves/{name}.ron"),
            hash: hash.to_owned(),
            content: String::new(),
            frames: 3,
            files: files.iter().map(|f| f.to_string()).collect(),
            stamps: Vec::new(),
            chunks: Vec::new(),
            digest: None,
            warnings: Vec::new(),
        }
    }

    /// A spring's content hash covers each of its own parameters (its equivalents in other
    /// forms follow from them and are not hashed).
    #[test]
    fn a_springs_hash_changes_with_each_of_its_parameters() {
        use curvebake_model::source::parse_bytes;
        use curvebake_model::spec::Overrides;
        let hash = |motion: &str| {
            let ron = format!(r#"(name: "s", property: "translateY", motion: {motion})"#);
            let file = &parse_bytes(Path::new("s.ron"), ron.as_bytes()).unwrap()[0];
            let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
            SpecHasher::new(b"key", b"json").hash(&spec).whole
        };
        let base = "Spring(from: 0, to: 100, velocity: 0, mass: 1, stiffness: 170, damping: 26)";
        assert_eq!(hash(base), hash(base));
        for changed in [
            "Spring(from: 1, to: 100, velocity: 0, mass: 1, stiffness: 170, damping: 26)",
            "Spring(from: 0, to: 101, velocity: 0, mass: 1, stiffness: 170, damping: 26)",
            "Spring(from: 0, to: 100, velocity: 1, mass: 1, stiffness: 170, damping: 26)",
            "Spring(from: 0, to: 100, velocity: 0, mass: 2, stiffness: 170, damping: 26)",
            "Spring(from: 0, to: 100, velocity: 0, mass: 1, stiffness: 171, damping: 26)",
            "Spring(from: 0, to: 100, velocity: 0, mass: 1, stiffness: 170, damping: 27)",
        ] {
            assert_ne!(hash(base), hash(changed), "{changed}");
        }
    }

    /// Claims left by an unfinished bake are read into the manifest for ownership only: a
    /// motion it names gets the files claimed for it, a motion it lacks gets an entry, and no
    /// hash or run is trusted, even a complete manifest's (a bake killed after moving its
    /// manifest into place, before removing its claims).
    #[test]
    fn leftover_claims_are_read_into_the_manifest_for_ownership() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        let mut writer = ManifestWriter::open(&out, false).unwrap();
        writer.push(&entry("a", "h1", &["json/a.json"])).unwrap();
        let summaries = Summaries {
            paths: &["curves.json".into()],
            stamps: &[],
        };
        writer
            .finish(dir.path(), "run", &[], (summaries, &[]))
            .unwrap();
        let complete = Manifest::read(dir.path());
        assert_eq!(
            (complete.run.as_str(), complete.motions[0].hash.as_str()),
            ("run", "h1")
        );

        let claims = [
            entry("a", "", &["json/a.json", "css/a.css"]),
            entry("b", "", &["json/b.json", "css/b.css"]),
        ];
        ClaimsWriter::new(&out)
            .unwrap()
            .claim(&out, &claims)
            .unwrap();
        let read = Manifest::read(dir.path());
        assert_eq!(read.run, "");
        assert_eq!(read.summaries, ["curves.json"]);
        let owned: Vec<(&str, &str, Vec<&str>)> = (read.motions.iter())
            .map(|e| {
                (
                    e.name.as_str(),
                    e.hash.as_str(),
                    e.files.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            owned,
            [
                ("a", "", vec!["json/a.json", "css/a.css"]),
                ("b", "", vec!["json/b.json", "css/b.css"])
            ]
        );
        // The next bake's record of its progress carries them, and names the files of the
        // whole bake it is about to write (ours however far it gets); its claims start afresh.
        let whole_bake = ["curves.json".to_owned(), "index.html".to_owned()];
        read.in_progress(&out, &whole_bake).unwrap();
        claims::remove(&out).unwrap();
        let in_progress = Manifest::read(dir.path());
        assert_eq!(in_progress.motions, read.motions);
        assert_eq!(in_progress.summaries, whole_bake);
    }
}
