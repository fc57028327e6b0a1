//! The manifest's annex of digests, `.curvebake-digests`: per motion, in the manifest's order,
//! what it adds to the files describing the whole bake (the review page, the contact sheet),
//! as one JSON line, a [`SummaryRecord`]. It is written only when a bake writes one of those
//! files, and read only to keep the digest of a motion whose file fails, so the manifest,
//! which every bake reads, stays small.
//!
//! The manifest locates each motion's line ([`Entry::digest`]) and stamps the annex (length
//! and content hash, [`Manifest::digests`]), as it does a bundle; a line is read only while
//! the annex is the file the stamp describes, and only used if it holds as a digest (the
//! annex is untrusted input like the manifest: see [`SummaryRecord::digest`]).

use crate::output::record::{BundleStamp, Entry};
use crate::output::regular::open_regular;
use crate::output::write::{OutputDir, StreamedFile, WriteError};
use curvebake_export::exporter::PREVIEW_MAX_JOINS;
use curvebake_export::preview::PREVIEW_MAX_POINTS;
use curvebake_export::{Digest, JoinKind, Name, TrackMarks};
use curvebake_model::bake::MAX_FRAMES;
use curvebake_model::hash::ContentHasher;
use curvebake_model::spec::ParamGroup;
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom};

/// File name of the annex inside the output folder.
pub const DIGESTS_PATH: &str = ".curvebake-digests";

/// A motion's [`Digest`] less what its [`Entry`] holds (name, frames, files), for the
/// annex. Numbers are the bits of their `f64` (`f64::to_bits`): exact, where JSON's
/// decimals would be parsed to within an ulp, and never a JSON number a non-finite value
/// cannot be. The preview's times are kept once, its tracks' positions at them.
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
    /// The preview's times (bits; an annex written when they were even has none, and its
    /// previews are not kept).
    #[serde(default)]
    pub preview_times: Option<Vec<u64>>,
    /// Per track: its name and its positions at the preview's times (bits).
    pub preview: Vec<(String, Vec<u64>)>,
    /// The joins of the preview's times (bits; an annex written when previews were frames has
    /// none, and its previews are not kept).
    #[serde(default)]
    pub preview_joins: Option<Vec<u64>>,
    /// Per track, its unit (an annex written before units were kept has none: every track
    /// then has the motion's).
    #[serde(default)]
    pub units: Vec<String>,
    /// Per track, the value it ends at (bits).
    pub ends: Vec<u64>,
    /// When the motion looks done (bits).
    pub looks_done: Option<u64>,
    /// Per track, its plot's marks: its joins (time bits and kind: 0 a hand-off, 1 a bound
    /// hit, 2 the track's end) and when it alone looks done (bits). An annex written before
    /// they were kept has none: the page then marks the motion's looks done alone.
    #[serde(default)]
    pub marks: Option<Vec<Marks>>,
    /// Whether the bake ran until the motion provably rests.
    pub rests: bool,
    /// Whether the motion arrives at its end values at its last frame.
    #[serde(default)]
    pub arrives: bool,
    /// Per track, how it ends (`rests`, `arrives` or `fixed`; an annex written before they
    /// were kept has none: the page then says the motion's).
    #[serde(default)]
    pub endings: Vec<String>,
}

/// A track's marks in a [`SummaryRecord`]: its joins (time bits, kind code) and when it
/// looks done (bits).
pub type Marks = (Vec<(u64, u8)>, Option<u64>);

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
            preview_times: Some(
                (digest.preview.first()).map_or_else(Vec::new, |(_, points)| {
                    points.iter().map(|p| p.0.to_bits()).collect()
                }),
            ),
            preview: (digest.preview.iter())
                .map(|(track, points)| {
                    let positions: Vec<f64> = points.iter().map(|p| p.1).collect();
                    (track.to_string(), bits(&positions))
                })
                .collect(),
            preview_joins: Some(bits(&digest.preview_joins)),
            units: digest.units.clone(),
            ends: bits(&digest.ends),
            looks_done: digest.looks_done.map(f64::to_bits),
            marks: Some(
                (digest.marks.iter())
                    .map(|m| {
                        let joins = m.joins.iter().map(|&(t, kind)| {
                            let code = match kind {
                                JoinKind::Handoff => 0,
                                JoinKind::Bound => 1,
                                JoinKind::TrackEnd => 2,
                            };
                            (t.to_bits(), code)
                        });
                        (joins.collect(), m.looks_done.map(f64::to_bits))
                    })
                    .collect(),
            ),
            rests: digest.rests,
            arrives: digest.arrives,
            endings: digest.endings.iter().map(|e| e.to_string()).collect(),
        }
    }

    /// The digest this record keeps for `entry`, or `None` if the record does not hold as
    /// one (the manifest is untrusted): every number finite, fps > 0, duration >= 0, frames
    /// from 1 to [`MAX_FRAMES`], joins ascending inside (0, duration) and at most
    /// [`PREVIEW_MAX_JOINS`], preview times in [0, duration] in order and no more than a
    /// preview has, each track with one position per preview time, names short and lists
    /// bounded.
    pub fn digest(&self, entry: &Entry) -> Option<Digest> {
        let (max_tracks, max_groups, max_values, max_name) = SUMMARY_LIMITS;
        let number = |bits: u64| Some(f64::from_bits(bits)).filter(|x| x.is_finite());
        let name = |s: &str| (s.len() <= max_name).then(|| Name::Owned(s.to_owned()));
        let frames = usize::try_from(entry.frames)
            .ok()
            .filter(|f| (1..=MAX_FRAMES).contains(f))?;
        let fps = number(self.fps).filter(|&f| f > 0.0)?;
        let duration = number(self.duration).filter(|&d| d >= 0.0)?;
        let joins = (self.preview_joins.as_ref()?.iter())
            .map(|&t| number(t).filter(|&t| t > 0.0 && t < duration))
            .collect::<Option<Vec<_>>>()?;
        if joins.len() > PREVIEW_MAX_JOINS || joins.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        let marks = (self.marks.iter().flatten())
            .map(|(joins, done)| {
                let joins = (joins.iter())
                    .map(|&(t, code)| {
                        let kind = match code {
                            0 => JoinKind::Handoff,
                            1 => JoinKind::Bound,
                            2 => JoinKind::TrackEnd,
                            _ => return None,
                        };
                        Some((number(t).filter(|&t| t > 0.0 && t < duration)?, kind))
                    })
                    .collect::<Option<Vec<_>>>()?;
                let ascending = joins.windows(2).all(|w| w[0].0 < w[1].0);
                let looks_done = match done {
                    Some(bits) => Some(number(*bits).filter(|&t| (0.0..=duration).contains(&t))?),
                    None => None,
                };
                (ascending && joins.len() <= PREVIEW_MAX_JOINS)
                    .then_some(TrackMarks { joins, looks_done })
            })
            .collect::<Option<Vec<_>>>()?;
        let times = (self.preview_times.as_ref()?.iter())
            .map(|&t| number(t).filter(|&t| (0.0..=duration).contains(&t)))
            .collect::<Option<Vec<_>>>()?;
        if times.len() > PREVIEW_MAX_POINTS + 2 * PREVIEW_MAX_JOINS + 1
            || times.windows(2).any(|w| w[0] > w[1])
        {
            return None;
        }
        if self.preview.len() > max_tracks
            || marks.len() > max_tracks
            || self.ends.len() > max_tracks
            || self.units.len() > max_tracks
            || self.params.len() > max_groups
            || self.params.iter().any(|(_, v)| v.len() > max_values)
            || [&self.property, &self.unit]
                .into_iter()
                .chain(&self.units)
                .any(|s| s.len() > max_name)
        {
            return None;
        }
        let preview = (self.preview.iter())
            .map(|(track, positions)| {
                if positions.len() != times.len() {
                    return None;
                }
                let points = (times.iter().zip(positions))
                    .map(|(&t, &x)| Some((t, number(x)?)))
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
            units: if self.units.is_empty() {
                vec![self.unit.clone(); self.preview.len()]
            } else {
                self.units.clone()
            },
            preview,
            preview_joins: joins,
            ends: self
                .ends
                .iter()
                .map(|&e| number(e))
                .collect::<Option<_>>()?,
            looks_done: match self.looks_done {
                Some(bits) => Some(number(bits)?),
                None => None,
            },
            marks,
            rests: self.rests,
            arrives: self.arrives,
            endings: (self.endings.iter())
                .map(|e| match e.as_str() {
                    "rests" => Some(Name::Borrowed("rests")),
                    "arrives" => Some(Name::Borrowed("arrives")),
                    "fixed" => Some(Name::Borrowed("fixed")),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .filter(|e| e.len() <= max_tracks)?,
        })
    }
}

/// A motion's line in the annex: its [`SummaryRecord`] as JSON, then a newline.
pub fn line(digest: &Digest) -> Vec<u8> {
    let mut line = serde_json::to_vec(&SummaryRecord::of(digest)).expect("a record serializes");
    line.push(b'\n');
    line
}

/// The annex being written, a line per motion as its entry is.
pub struct DigestsWriter {
    file: StreamedFile,
    /// Bytes appended so far.
    written: u64,
    /// Every byte appended so far, for the stamp.
    hasher: ContentHasher,
}

impl DigestsWriter {
    /// Starts the annex of `out`.
    pub fn open(out: &OutputDir) -> Result<Self, WriteError> {
        Ok(Self {
            file: out.stream(DIGESTS_PATH)?,
            written: 0,
            hasher: ContentHasher::new(),
        })
    }

    /// Appends a motion's line; returns where it lies: `[start, length]`.
    pub fn push(&mut self, line: &[u8]) -> Result<[u64; 2], WriteError> {
        self.file.append(line)?;
        self.hasher.update(line);
        let place = [self.written, line.len() as u64];
        self.written += line.len() as u64;
        Ok(place)
    }

    /// Moves the annex into place (if its bytes changed); returns its stamp. It reaches the
    /// disk with the other outputs, before the manifest that stamps it.
    pub fn finish(self) -> Result<BundleStamp, WriteError> {
        self.file.finish()?;
        Ok(BundleStamp {
            path: DIGESTS_PATH.into(),
            len: self.written,
            hash: self.hasher.hex(),
        })
    }
}

/// The last good digest of each of `entries` (motions kept from the `old` manifest), with its
/// line to write again: `None` for an entry without one, and for all of them when the annex
/// in `out` is not the one `old` stamps. The annex is hashed only if some entry has a line.
pub fn kept(
    out: &OutputDir,
    stamp: Option<&BundleStamp>,
    entries: &[Entry],
) -> Vec<Option<(Digest, Vec<u8>)>> {
    let none = || entries.iter().map(|_| None).collect();
    if entries.iter().all(|e| e.digest.is_none()) {
        return none();
    }
    let Some(stamp) = stamp else {
        return none();
    };
    let Ok(path) = out.resolve(DIGESTS_PATH) else {
        return none();
    };
    if !stamp.describes(&path) {
        return none();
    }
    let Ok(mut file) = open_regular(&path) else {
        return none();
    };
    let mut read = |[start, len]: [u64; 2]| -> Option<Vec<u8>> {
        // Within the stamped length: the manifest's places were checked against it.
        let mut line = vec![
            0;
            usize::try_from(len)
                .ok()
                .filter(|&l| l as u64 <= stamp.len)?
        ];
        file.seek(SeekFrom::Start(start)).ok()?;
        file.read_exact(&mut line).ok()?;
        Some(line)
    };
    entries
        .iter()
        .map(|entry| {
            let line = read(entry.digest?)?;
            let record: SummaryRecord = serde_json::from_slice(&line).ok()?;
            Some((record.digest(entry)?, line))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::bake::bake;
    use curvebake_model::source::parse_bytes;
    use curvebake_model::spec::{MotionSpec, Overrides};
    use std::path::Path;

    /// A ring (two tracks, named parameter groups) of 300 frames, its digest with a preview,
    /// and the entry that would record it.
    fn ring() -> (Digest, Entry, SummaryRecord) {
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
            content: String::new(),
            frames: digest.frames as u64,
            files: digest.files.clone(),
            stamps: Vec::new(),
            chunks: Vec::new(),
            digest: None,
            warnings: Vec::new(),
        };
        let record = SummaryRecord::of(&digest);
        (digest, entry, record)
    }

    /// A bouncing ball of 105 frames, its digest with a preview, and the entry that would
    /// record it.
    fn ball() -> (Digest, Entry) {
        let ron = r#"(name: "ball", property: "translateY", motion: Gravity(
            from: -300, velocity: 0, acceleration: 2400, to: 0, restitution: 0.55))"#;
        let file = &parse_bytes(Path::new("t.ron"), ron.as_bytes()).unwrap()[0];
        let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
        let baked = bake(&spec).unwrap();
        let digest = Digest::of(&baked, true);
        let (_, mut entry, _) = ring();
        (entry.name, entry.frames) = ("ball".into(), digest.frames as u64);
        entry.files = digest.files.clone();
        (digest, entry)
    }

    /// Through the annex's JSON line and back, a kept digest is the digest that was
    /// recorded, to the bit (the preview's times are made again from its joins).
    #[test]
    fn a_summary_gives_back_its_digest_exactly() {
        let (ball, ball_entry) = ball();
        assert!(!ball.preview_joins.is_empty());
        let record: SummaryRecord = serde_json::from_slice(&line(&ball)).unwrap();
        assert_eq!(record.digest(&ball_entry), Some(ball));
        let (digest, entry, _) = ring();
        assert_eq!(digest.preview.len(), 2);
        assert!(digest.params.iter().any(|g| g.name.is_some()));
        let line = line(&digest);
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        let record: SummaryRecord = serde_json::from_slice(&line).unwrap();
        assert_eq!(record.digest(&entry), Some(digest));
    }

    /// A summary that does not hold as a digest (a hand-edited annex or manifest) gives none:
    /// nothing non-finite, no preview of the wrong length, no frame count out of range, no
    /// huge name.
    #[test]
    fn a_summary_that_does_not_hold_gives_no_digest() {
        let (_, entry, record) = ring();
        type Edit = fn(&mut Entry, &mut SummaryRecord);
        let edits: [(&str, Edit); 12] = [
            ("a preview of frames, as annexes were", |_, r| {
                r.preview_joins = None
            }),
            ("a join past the end", |_, r| {
                r.preview_joins = Some(vec![3.5f64.to_bits()])
            }),
            ("joins out of order", |_, r| {
                r.preview_joins = Some(vec![2.0f64.to_bits(), 1.0f64.to_bits()])
            }),
            ("a mark of no kind", |_, r| {
                r.marks = Some(vec![(vec![(1.0f64.to_bits(), 7)], None)])
            }),
            ("a track looking done past the end", |_, r| {
                r.marks = Some(vec![(Vec::new(), Some(9.0f64.to_bits()))])
            }),
            ("fps NaN", |_, r| r.fps = f64::NAN.to_bits()),
            ("fps 0", |_, r| r.fps = 0),
            ("duration inf", |_, r| r.duration = f64::INFINITY.to_bits()),
            ("a position short", |_, r| {
                r.preview[1].1.pop();
            }),
            ("no frames", |e, _| e.frames = 0),
            ("too many frames", |e, _| e.frames = u64::MAX),
            ("a huge name", |_, r| {
                r.params[0].1[0].0 = "x".repeat(1 << 20)
            }),
        ];
        for (what, edit) in edits {
            let (mut entry, mut record) = (entry.clone(), record.clone());
            edit(&mut entry, &mut record);
            assert_eq!(record.digest(&entry), None, "{what}");
        }
    }
}
