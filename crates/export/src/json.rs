//! JSON lookup tables: `json/<name>.json` per motion (position and velocity per frame) and
//! the index `curves.json`; with `--bundle`, `curves.json` holds every table instead.
//!
//! Floats are written shortest-round-trip, so every f64 reads back exactly. A motion made of
//! several closed forms lists where they hand over under `joins` (seconds), and each track
//! where it is not smooth (a gravity impact too) under its own `joins`, with its position and
//! velocity on each side ([`joins::of_tracks`]), so that a reader between frames ends its
//! cubic pieces there. The table says how the motion ends (`ending`: `rests`, `arrives` or
//! `fixed`) and each track how it ends and within which rest thresholds, the track's own
//! ([`MotionSpec::track_ends`](curvebake_model::spec::MotionSpec::track_ends)), so that a
//! reader handing a track over knows what its last frame is. docs/guide/baking.md lists
//! every field.

use crate::exporter::{Buffers, Bundle, Exporter, FilePath, MotionOutput, Shape, Summary};
use crate::joins;
use crate::settings::{Format, Layout};
use curvebake_model::bake::Baked;
use curvebake_model::number::{json_text, write_json_f64, write_json_f64s};
use curvebake_model::spec::{Model, TrackEnd};

/// The JSON exporter.
#[derive(Debug, Clone)]
pub struct Json {
    layout: Layout,
    shape: Shape,
}

impl Json {
    /// The exporter for `layout`: a table per motion and `curves.json` as their index, or
    /// (`--bundle`) every table in `curves.json`.
    pub fn new(layout: Layout) -> Self {
        let files: &[FilePath] = match layout {
            Layout::PerMotion => &[TABLE],
            Layout::Bundle => &[],
        };
        Self {
            layout,
            shape: Shape {
                files,
                bundle: Some(Bundle {
                    path: INDEX_PATH.into(),
                    header: b"{\"motions\":[\n".to_vec(),
                    separator: b",\n".to_vec(),
                    footer: b"\n]}\n".to_vec(),
                }),
                summary: Summary::None,
                summaries: &[],
            },
        }
    }
}

/// Path of the index (per-motion layout) or of the bundle.
pub const INDEX_PATH: &str = "curves.json";

/// Where one motion's table goes.
const TABLE: FilePath = FilePath {
    folder: "json",
    suffix: ".json",
};

fn string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing a string into a Vec cannot fail");
}

/// Writes `"k":`. Keys are the tool's own identifiers (field, parameter and track names),
/// which JSON never needs to escape.
fn key(out: &mut Vec<u8>, k: &'static str) {
    debug_assert!(
        k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
        "{k}"
    );
    out.push(b'"');
    out.extend_from_slice(k.as_bytes());
    out.extend_from_slice(b"\":");
}

fn number_array(out: &mut Vec<u8>, values: &[f64]) {
    out.push(b'[');
    write_json_f64s(out, values);
    out.push(b']');
}

/// `{...}`: the values of the motion's unnamed group at the top level, then each named group
/// as a nested object under its name.
fn params(out: &mut Vec<u8>, model: &Model) {
    let mut first = true;
    let mut named = false;
    out.push(b'{');
    model.each_param_group(|name, values| match name {
        None => {
            debug_assert!(!named, "the unnamed group comes first");
            fields(out, &mut first, values);
        }
        Some(name) => {
            named = true;
            separate(out, &mut first);
            key(out, name);
            out.push(b'{');
            fields(out, &mut true, values);
            out.push(b'}');
        }
    });
    out.push(b'}');
}

/// Writes `"name":value` for each of `values`, each after a comma unless it is the `first`
/// member of its object.
fn fields<'a>(
    out: &mut Vec<u8>,
    first: &mut bool,
    values: impl IntoIterator<Item = &'a (&'static str, f64)>,
) {
    for (name, v) in values {
        // Printed before the key is written, so that its text is not read back at once
        // (see `write_list`).
        let mut buf = zmij::Buffer::new();
        let text = json_text(&mut buf, *v);
        separate(out, first);
        key(out, name);
        out.extend_from_slice(text.as_bytes());
    }
}

/// A comma before every member of an object but the `first`.
fn separate(out: &mut Vec<u8>, first: &mut bool) {
    if !std::mem::take(first) {
        out.push(b',');
    }
}

/// One motion's table: name, kind, property (null for a ring, which animates no property of
/// its own, and for a multi-track motion, whose tracks each animate their own), unit (null for
/// a multi-track motion, whose tracks each have their own), fps, duration, frames, ending,
/// params, tracks (each with how it ends and its rest thresholds, a multi-track motion's also
/// with its `unit`).
pub fn table(baked: &Baked, out: &mut Vec<u8>) {
    let spec = baked.spec;
    out.extend_from_slice(b"{\n");
    let ring = matches!(spec.model, Model::Ring(_));
    let multi = matches!(spec.model, Model::Tracks(_));
    for (k, v) in [
        ("name", Some(spec.name.as_str())),
        ("motion", Some(spec.model.kind())),
        ("property", (!ring && !multi).then(|| spec.property.name())),
        ("unit", (!multi).then_some(spec.unit.as_str())),
    ] {
        key(out, k);
        match v {
            Some(v) => string(out, v),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\n");
    }
    key(out, "fps");
    write_json_f64(out, spec.fps);
    out.extend_from_slice(b",\n");
    key(out, "duration");
    write_json_f64(out, baked.duration);
    out.extend_from_slice(b",\n");
    key(out, "frames");
    out.extend_from_slice(itoa::Buffer::new().format(baked.frames()).as_bytes());
    out.extend_from_slice(b",\n");
    key(out, "ending");
    string(out, spec.ending.name());
    out.extend_from_slice(b",\n");
    key(out, "params");
    params(out, &spec.model);
    out.extend_from_slice(b",\n");
    // Where one closed form hands over to the next (sequences, an inertia's bound hit).
    let joins = spec.model.joins_until(baked.duration);
    if !joins.is_empty() {
        key(out, "joins");
        number_array(out, &joins);
        out.extend_from_slice(b",\n");
    }
    key(out, "tracks");
    out.push(b'{');
    let track_joins = joins::of_tracks(baked);
    // A multi-track motion's tracks each say their unit; any other's is the motion's.
    let units = match spec.model {
        Model::Tracks(_) => spec.track_units(),
        _ => Vec::new(),
    };
    let ends = spec.track_ends(baked.duration);
    for (i, (track, joins)) in baked.tracks.iter().zip(&track_joins).enumerate() {
        out.extend_from_slice(if i > 0 { b",\n" } else { b"\n" });
        key(out, track.name);
        out.extend_from_slice(b"{\n");
        if let Some(unit) = units.get(i) {
            key(out, "unit");
            string(out, unit);
            out.extend_from_slice(b",\n");
        }
        track_end(out, &ends[i]);
        key(out, "position");
        number_array(out, &track.position);
        out.extend_from_slice(b",\n");
        key(out, "velocity");
        number_array(out, &track.velocity);
        // Where the track is not smooth: [t, x before, v before, x after, v after].
        if !joins.is_empty() {
            out.extend_from_slice(b",\n");
            key(out, "joins");
            out.push(b'[');
            for (k, join) in joins.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                number_array(out, join);
            }
            out.push(b']');
        }
        out.extend_from_slice(b"}");
    }
    out.extend_from_slice(b"}\n}");
}

/// `"ending":…,"rest_delta":…,"rest_speed":…,` of one track: how its last frame was decided
/// and the thresholds within which it counts as resting, for a reader that hands the track
/// over to a motion of its own.
fn track_end(out: &mut Vec<u8>, end: &TrackEnd) {
    key(out, "ending");
    string(out, end.ending.name());
    out.push(b',');
    key(out, "rest_delta");
    write_json_f64(out, end.rest_delta);
    out.push(b',');
    key(out, "rest_speed");
    write_json_f64(out, end.rest_speed);
    out.extend_from_slice(b",\n");
}

impl Exporter for Json {
    fn format(&self) -> Format {
        Format::Json
    }

    /// `curves.json` is the index (per motion its name, kind, duration, frames and files) in
    /// the per-motion layout, every table with `--bundle`.
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, files: &[String], buffers: &dyn Buffers) -> MotionOutput {
        let mut bytes = buffers.buffer(64 * baked.frames() * baked.tracks.len() + 512);
        table(baked, &mut bytes);
        match self.layout {
            Layout::Bundle => MotionOutput {
                chunk: Some(bytes),
                ..Default::default()
            },
            Layout::PerMotion => {
                bytes.push(b'\n');
                MotionOutput {
                    files: vec![bytes],
                    chunk: Some(index_entry(baked, files, buffers)),
                    ..Default::default()
                }
            }
        }
    }
}

/// A motion's entry in the index: its name, kind, duration, frames and files.
fn index_entry(baked: &Baked, files: &[String], buffers: &dyn Buffers) -> Vec<u8> {
    let mut out = buffers.buffer(256);
    out.push(b'{');
    key(&mut out, "name");
    string(&mut out, &baked.spec.name);
    out.push(b',');
    key(&mut out, "motion");
    string(&mut out, baked.spec.model.kind());
    out.push(b',');
    key(&mut out, "duration");
    write_json_f64(&mut out, baked.duration);
    out.push(b',');
    key(&mut out, "frames");
    out.extend_from_slice(itoa::Buffer::new().format(baked.frames()).as_bytes());
    out.push(b',');
    key(&mut out, "files");
    serde_json::to_writer(&mut out, files).expect("writing into a Vec cannot fail");
    out.push(b'}');
    out
}
