//! The exporter interface: what a format declares ([`Shape`]), what it makes of one motion
//! ([`MotionOutput`]) and of the whole bake (from [`Digest`]s). [`crate::exporters`] makes
//! them for a bake.

use crate::done;
use crate::preview::preview_points;
use crate::settings::Format;
use curvebake_model::bake::Baked;
use curvebake_model::spec::ParamGroup;
use std::borrow::Cow;

/// A name in a [`Digest`]: the tool's own (kinds, tracks, parameters), or read back from the
/// manifest for a motion kept from an earlier bake.
pub type Name = Cow<'static, str>;

/// One output file: a path relative to the output folder (always `/`-separated, built from
/// validated names) and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Relative path.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// A file that gathers one chunk per motion, in input order, streamed as motions are baked:
/// `header chunk (separator chunk)* footer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// Relative path.
    pub path: String,
    /// Bytes before the first chunk.
    pub header: Vec<u8>,
    /// Bytes between chunks.
    pub separator: Vec<u8>,
    /// Bytes after the last chunk.
    pub footer: Vec<u8>,
}

/// Where a motion's own file goes: `<folder>/<name><suffix>`, relative to the output folder.
/// The format declares these in its [`Shape`]; the run makes the paths from them, so a
/// motion's files and the paths listed for it (in indexes and the manifest) cannot disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilePath {
    /// Folder under the output folder.
    pub folder: &'static str,
    /// What follows the motion's name (its extension, with the dot).
    pub suffix: &'static str,
}

impl FilePath {
    /// The path of motion `name`'s file (names are validated: no `/`, no `..`).
    pub fn of(self, name: &str) -> String {
        let mut path =
            String::with_capacity(self.folder.len() + name.len() + self.suffix.len() + 1);
        path.push_str(self.folder);
        path.push('/');
        path.push_str(name);
        path.push_str(self.suffix);
        path
    }
}

/// What the digests of the whole bake are kept for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Summary {
    /// Nothing: [`Exporter::summary`] writes nothing.
    None,
    /// [`Exporter::summary`] reads the digests, not their previews.
    Digests,
    /// [`Exporter::summary`] reads the digests and their previews.
    Previews,
}

/// What an exporter writes, fixed when it is made (its layout included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Each motion's own files, in the order [`Exporter::motion`] returns their bytes.
    pub files: &'static [FilePath],
    /// The streamed file gathering one chunk per motion, if any.
    pub bundle: Option<Bundle>,
    /// What [`Exporter::summary`] needs of the digests.
    pub summary: Summary,
    /// Every path [`Exporter::summary`] may write (so that a bake knows them before it
    /// writes anything).
    pub summaries: &'static [&'static str],
}

/// Where an exporter takes the buffers it fills: the run lends the buffers of outputs already
/// written (see `output::pool`), a test or a one-off export takes new ones ([`New`]).
pub trait Buffers: Sync {
    /// An empty buffer with room for at least `capacity` bytes.
    fn buffer(&self, capacity: usize) -> Vec<u8>;
}

/// Every buffer newly allocated.
#[derive(Debug, Clone, Copy, Default)]
pub struct New;

impl Buffers for New {
    fn buffer(&self, capacity: usize) -> Vec<u8> {
        Vec::with_capacity(capacity)
    }
}

/// What an exporter makes of one motion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MotionOutput {
    /// The bytes of the motion's own files, one per [`Shape::files`], in that order.
    pub files: Vec<Vec<u8>>,
    /// This motion's chunk of the exporter's [`Bundle`], if it has one.
    pub chunk: Option<Vec<u8>>,
    /// Format-specific figures for the summary (e.g. CSS stops before and after tolerance).
    pub stats: Vec<(&'static str, u64)>,
    /// What is worth knowing about this motion's output, without its file and name (the run
    /// adds them): e.g. a tolerance that removed an overshoot.
    pub warnings: Vec<String>,
}

/// Bounces that rise at most this much (in the motion's unit) get no preview points of their
/// own, as in the ES module's `joins` ([`crate::joins::READ_NEGLIGIBLE`]).
const PREVIEW_NEGLIGIBLE: f64 = crate::joins::READ_NEGLIGIBLE;

/// Most joins a preview marks (a kept digest listing more does not hold as one).
pub const PREVIEW_MAX_JOINS: usize = 256;

/// The joins a preview of `baked` marks: every track's, in one ascending list.
fn preview_joins(baked: &Baked) -> Vec<f64> {
    let d = baked.duration;
    let kinks = baked.spec.model.track_kinks(d, PREVIEW_NEGLIGIBLE);
    let mut joins: Vec<f64> = (kinks.into_iter().flatten())
        .filter(|&t| t > 0.0 && t < d)
        .collect();
    joins.sort_by(f64::total_cmp);
    joins.dedup();
    joins.truncate(PREVIEW_MAX_JOINS);
    joins
}

/// What a join on a plot's time axis is (the PNG plot draws them all alike, a thin dashed
/// line; the review page names each in its legend).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinKind {
    /// A sequence hands over to its next step.
    Handoff,
    /// An inertia motion hits its bound.
    Bound,
    /// A track of a multi-track motion ends before the motion does, and holds its end value.
    TrackEnd,
}

/// The times a track's plot marks, as its PNG panel marks them: its joins (hand-offs, a
/// bound hit, where it ends before the motion: [`curvebake_model::spec::Model::track_joins`],
/// not a bouncing ball's every impact) and when it looks done on its own
/// ([`done::track_looks_done`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrackMarks {
    /// Joins strictly inside the bake, in time order.
    pub joins: Vec<(f64, JoinKind)>,
    /// When the track alone looks done, if the motion has end values.
    pub looks_done: Option<f64>,
}

/// The marks of every track of `baked`, in track order.
fn track_marks(baked: &Baked) -> Vec<TrackMarks> {
    use curvebake_model::spec::Model;
    let d = baked.duration;
    let kind = |m: &Model| match m {
        Model::Inertia(_) => JoinKind::Bound,
        _ => JoinKind::Handoff,
    };
    let joins: Vec<Vec<(f64, JoinKind)>> = match &baked.spec.model {
        Model::Tracks(t) => (t.tracks().iter())
            .map(|track| {
                (track.joins(d).into_iter())
                    .map(|j| {
                        let end = j == track.length && track.length < d;
                        (
                            j,
                            if end {
                                JoinKind::TrackEnd
                            } else {
                                kind(&track.model)
                            },
                        )
                    })
                    .collect()
            })
            .collect(),
        model => (model.track_joins(d).into_iter())
            .map(|joins| joins.into_iter().map(|j| (j, kind(model))).collect())
            .collect(),
    };
    let done = done::track_looks_done(baked);
    (joins.into_iter().enumerate())
        .map(|(k, mut joins)| {
            joins.retain(|&(t, _)| t > 0.0 && t < d);
            joins.sort_by(|a, b| a.0.total_cmp(&b.0));
            joins.dedup_by(|later, earlier| later.0 == earlier.0);
            joins.truncate(PREVIEW_MAX_JOINS);
            TrackMarks {
                joins,
                looks_done: done.as_ref().and_then(|d| d.get(k).copied()),
            }
        })
        .collect()
}

/// A small, bounded record of one baked motion, kept for the files that describe the whole
/// bake (indexes, review page, contact sheet) so that the full frames need not be.
#[derive(Debug, Clone, PartialEq)]
pub struct Digest {
    /// Motion name.
    pub name: String,
    /// Kind (`spring`, ...).
    pub kind: Name,
    /// Property name.
    pub property: String,
    /// Unit.
    pub unit: String,
    /// Frames per second.
    pub fps: f64,
    /// Bake length in seconds.
    pub duration: f64,
    /// Frame count.
    pub frames: usize,
    /// Resolved parameters.
    pub params: Vec<ParamGroup<Name>>,
    /// Relative paths of this motion's own files, every format.
    pub files: Vec<String>,
    /// Per track: name and (time, position) at the times of [`preview_points`]: drawn
    /// straight between them, within [`crate::preview::PREVIEW_SHARE`] of the track's range
    /// of the motion at every instant.
    pub preview: Vec<(Name, Vec<(f64, f64)>)>,
    /// The joins the preview marks.
    pub preview_joins: Vec<f64>,
    /// Per track (in the order of `preview`), the unit of its values: a multi-track motion's
    /// track its own, any other motion's the motion's (empty for unitless).
    pub units: Vec<String>,
    /// Per track, the value it rests at or arrives at (empty when it has none).
    pub ends: Vec<f64>,
    /// When the motion looks done ([`done::looks_done`]), if it has an end value.
    pub looks_done: Option<f64>,
    /// Per track (in the order of `preview`), what its plot marks; empty for a digest kept
    /// from an annex written before they were kept.
    pub marks: Vec<TrackMarks>,
    /// Whether the bake ran until the motion provably rests (then at `duration`).
    pub rests: bool,
    /// Whether the motion arrives at its end values at `duration` (its last frame is them);
    /// neither this nor `rests`: it is cut at a fixed length.
    pub arrives: bool,
    /// Per track, how it ends (`Ending::name`: `rests`, `arrives` or `fixed`; a multi-track
    /// motion's tracks each their own); empty for a digest kept from an annex written before
    /// they were kept.
    pub endings: Vec<Name>,
}

impl Digest {
    /// The digest of a baked motion (its files are filled in by the pipeline), with a preview
    /// only when `preview` is set (the contact sheet needs it; nothing else does, and a bake of
    /// many motions should not hold one per motion for nothing).
    pub fn of(baked: &Baked, preview: bool) -> Self {
        let spec = baked.spec;
        let frames = baked.frames();
        let (preview, preview_joins) = if preview {
            let joins = preview_joins(baked);
            let (times, values) = preview_points(baked, &joins);
            let tracks = (baked.tracks.iter().zip(values)).map(|(track, values)| {
                let points = times.iter().copied().zip(values).collect();
                (Name::Borrowed(track.name), points)
            });
            (tracks.collect(), joins)
        } else {
            (Vec::new(), Vec::new())
        };
        Self {
            name: spec.name.clone(),
            kind: Name::Borrowed(spec.model.kind()),
            property: spec.property.name().to_owned(),
            unit: spec.unit.clone(),
            fps: spec.fps,
            duration: baked.duration,
            frames,
            params: (spec.model.params().into_iter())
                .map(|g| ParamGroup {
                    name: g.name.map(Name::Borrowed),
                    values: (g.values.into_iter())
                        .map(|(k, v)| (Name::Borrowed(k), v))
                        .collect(),
                })
                .collect(),
            files: Vec::new(),
            preview,
            preview_joins,
            units: spec.track_units().into_iter().map(String::from).collect(),
            ends: spec.model.end_values(),
            looks_done: done::looks_done(baked),
            marks: track_marks(baked),
            rests: spec.ending == curvebake_model::spec::Ending::Rests,
            arrives: matches!(spec.ending, curvebake_model::spec::Ending::Arrives(_)),
            endings: (spec.track_ends(baked.duration).iter())
                .map(|end| Name::Borrowed(end.ending.name()))
                .collect(),
        }
    }
}

/// One output format, in the layout it was made for: a motion in, bytes out. None touches
/// the file system; adding a format means a [`Shape`] and [`Exporter::motion`] (and
/// [`Exporter::summary`] if it describes the whole bake).
pub trait Exporter: Send + Sync {
    /// Which format this is.
    fn format(&self) -> Format;
    /// What it writes.
    fn shape(&self) -> &Shape;
    /// The motion's files (bytes per [`Shape::files`]), bundle chunk and figures. `files`
    /// lists the motion's own files in every format of this bake (for an index that points
    /// at them); buffers are taken from `buffers`.
    fn motion(&self, baked: &Baked, files: &[String], buffers: &dyn Buffers) -> MotionOutput;
    /// Files describing the whole bake, written after every motion (none unless
    /// [`Shape::summary`] says so).
    fn summary(&self, digests: &[Digest]) -> Vec<OutputFile> {
        let _ = digests;
        Vec::new()
    }
    /// What the bake should say of the files [`Exporter::summary`] writes of `motions`
    /// motions, `with_files` if they have files of their own in some format (a page that
    /// leaves motions out, say), once a bake, also one that finds nothing changed; none by
    /// default.
    fn summary_warnings(&self, motions: usize, with_files: bool) -> Vec<String> {
        let _ = (motions, with_files);
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::bake::bake;

    use crate::test_spec as spec;

    /// A preview drawn straight between its points is within its share of the range of the
    /// motion at every instant (checked at 50 points inside each segment), for a stiff
    /// spring whose swings 121 even points drew as chords 7 % of its travel off; and it ends
    /// at the duration, on the value the last frame holds.
    #[test]
    fn a_preview_drawn_straight_is_within_its_share_of_the_motion() {
        for ron in [
            r#"(name: "s", property: "translateY", motion: Spring(from: -100, to: 0, stiffness: 8000, damping: 12))"#,
            r#"(name: "p", property: "scale", motion: Spring(from: 1, to: 0.94, stiffness: 1218, damping: 69.8))"#,
            r#"(name: "d", duration: 1, motion: Decay(from: 0, velocity: 3000, lambda: 30))"#,
        ] {
            let spec = spec(ron);
            let baked = bake(&spec).unwrap();
            let d = Digest::of(&baked, true);
            let motion = baked.spec.model.single().unwrap();
            let (_, points) = &d.preview[0];
            let positions = &baked.tracks[0].position;
            let range = positions.iter().fold(f64::NEG_INFINITY, |a, &x| a.max(x))
                - positions.iter().fold(f64::INFINITY, |a, &x| a.min(x));
            let share = crate::preview::PREVIEW_SHARE * range;
            for w in points.windows(2) {
                let ((t0, x0), (t1, x1)) = (w[0], w[1]);
                for i in 1..50 {
                    let t = t0 + (t1 - t0) * i as f64 / 50.0;
                    if t >= d.duration {
                        continue;
                    }
                    let drawn = x0 + (x1 - x0) * (t - t0) / (t1 - t0);
                    let off = (drawn - motion.position(t)).abs();
                    assert!(off <= share, "{ron}: at {t}: {off} > {share}");
                }
            }
            assert!(points.len() < 400, "{ron}: {} points", points.len());
            let (held, last) = (positions[positions.len() - 1], points[points.len() - 1]);
            assert!(
                last.0 == d.duration && (last.1 - held).abs() <= share,
                "{ron}"
            );
        }
    }

    /// A motion over a tiny range is previewed as one over a range of 1 (scaled): the same
    /// points, its shape within its range. Its share of 10⁻¹⁰ was past the last digit of
    /// numbers of 1, so the fit ran to its 100,000 stops and was thrown away (0.9 s, 5 s for
    /// 10⁻³¹⁰ and 5·10⁻³²⁴): those are drawn in two stops, between their ends.
    #[test]
    fn a_tiny_motion_is_previewed_in_as_few_points_as_a_large_one() {
        let preview = |to: &str| {
            let ron = format!(r#"(name: "s", motion: Spring(from: 0, to: {to}))"#);
            let spec = spec(&ron);
            let baked = bake(&spec).unwrap();
            Digest::of(&baked, true).preview[0].1.clone()
        };
        let one = preview("1");
        let tiny = preview("1e-10");
        assert!(one.len() < 100, "{} points", one.len());
        assert_eq!(tiny.len(), one.len());
        for (&(t, x), &(t1, x1)) in tiny.iter().zip(&one) {
            assert_eq!(t, t1);
            assert!((x * 1e10 - x1).abs() < 1e-6, "at {t}: {x} against {x1}");
        }
        for to in [1e-310, 5e-324] {
            let points = preview(&format!("{to:e}"));
            assert!(points.len() <= 4, "{to}: {points:?}");
            assert!(
                points.iter().all(|&(_, x)| (0.0..=to).contains(&x)),
                "{to}: {points:?}"
            );
        }
    }

    /// A bouncing ball's preview has each impact (both sides of it) among its times, so a
    /// plot drawn straight between them touches the floor at every bounce, not only where a
    /// frame happens to fall.
    #[test]
    fn a_preview_reaches_the_floor_at_every_impact() {
        let spec = spec(
            r#"(name: "b", property: "translateY", motion: Gravity(from: -250, velocity: 0, acceleration: 2400, to: 0, restitution: 0.55))"#,
        );
        let baked = bake(&spec).unwrap();
        let d = Digest::of(&baked, true);
        assert!(d.preview_joins.len() >= 5, "{:?}", d.preview_joins);
        let (_, points) = &d.preview[0];
        assert!(points.windows(2).all(|w| w[0].0 <= w[1].0));
        let drawn = |t: f64| {
            let k = points
                .partition_point(|p| p.0 <= t)
                .clamp(1, points.len() - 1);
            let ((t0, x0), (t1, x1)) = (points[k - 1], points[k]);
            x0 + (x1 - x0) * (t - t0) / (t1 - t0)
        };
        let share = crate::preview::PREVIEW_SHARE * 250.0;
        for &impact in &d.preview_joins {
            assert!(drawn(impact).abs() <= share, "{impact}: {}", drawn(impact));
        }
    }
}
