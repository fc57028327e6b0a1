//! Lottie (lottie-spec 1.0.1): `lottie/<name>.json` per motion, one shape layer whose
//! transform channels play the motion, for the players of the web, iOS, Android, Flutter and
//! React Native.
//!
//! * A square (a ring: two circles, the band between them filled even-odd) centred on a
//!   canvas large enough for the motion; `fr` is the motion's frame rate, `op` its length in
//!   frames (`D · fps`).
//! * Channels: `translateX`/`translateY` the position's x/y (split, so each is
//!   one-dimensional) in px, `scale` the scale in %, `rotate` the rotation in degrees,
//!   `opacity` 0-100; a ring's radii the circles' sizes; a custom property (no transform of
//!   its own) the position's x, with a warning. Every track of a multi-track motion drives
//!   its channel.
//! * Keyframes are cubic segments with the exact velocities as tangents
//!   ([`hermite`]: keys at every join, gravity impact and velocity zero, and between them as
//!   few as keep the proven bound `h⁴/384 · max|x⁗|` within the tolerance). A segment from
//!   `(t0, s0, v0)` to `(t1, s1, v1)` (`Δt` seconds, `Δs = s1 - s0`) is written with the
//!   handles `o = {x: 1/3, y: v0·Δt/(3Δs)}` and `i = {x: 2/3, y: 1 - v1·Δt/(3Δs)}`: with x at
//!   thirds the Bézier's time is linear, and its value is then exactly the Hermite cubic.
//!
//! The tolerance is the motion's own (`tolerance`), else that of the exact easings
//! ([`EXACT_TOLERANCE_TARGETS`] precision targets: 0.1 px).

pub mod hermite;

use crate::css::value_precision;
use crate::exporter::{Buffers, Exporter, FilePath, MotionOutput, Shape, Summary};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
use curvebake_model::spec::{Model, MotionSpec, Property};
use hermite::Key;
use serde_json::{json, Value};

/// Where one motion's animation goes.
const FILE: FilePath = FilePath {
    folder: "lottie",
    suffix: ".json",
};

/// How far the keys may stray from the motion, as a multiple of the unit's precision target
/// (`value_precision`: 0.01 px, 0.0001 of a unitless value): 0.1 px, 0.001.
pub const EXACT_TOLERANCE_TARGETS: f64 = 10.0;

/// Side of the square drawn, px.
const SQUARE: f64 = 100.0;

/// Room around the motion on the canvas, px.
const MARGIN: f64 = 100.0;

/// Pixels of one CSS length unit the canvas can show: px, and em/rem at the browsers'
/// default 16 px; other lengths are drawn as px (with a warning).
fn px_per_unit(unit: &str) -> Option<f64> {
    match unit {
        "px" | "" => Some(1.0),
        "em" | "rem" => Some(16.0),
        _ => None,
    }
}

/// Degrees of one angle unit.
fn degrees_per_unit(unit: &str) -> f64 {
    match unit {
        "turn" => 360.0,
        "rad" => 180.0 / std::f64::consts::PI,
        "grad" => 0.9,
        _ => 1.0,
    }
}

/// The Lottie exporter.
#[derive(Debug, Clone)]
pub struct Lottie {
    shape: Shape,
}

impl Lottie {
    /// An exporter: a file per motion in the per-motion layout (the bundle layout writes only
    /// JSON and CSS).
    pub fn new(layout: Layout, _: &ExportSettings) -> Self {
        Self {
            shape: Shape {
                files: match layout {
                    Layout::PerMotion => &[FILE],
                    Layout::Bundle => &[],
                },
                bundle: None,
                summary: Summary::None,
                summaries: &[],
            },
        }
    }
}

/// The transform channel a track drives.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Channel {
    X,
    Y,
    Scale,
    Rotation,
    Opacity,
    /// A ring's circle of this index (0 inner, 1 outer): its size is twice the radius.
    Circle(usize),
}

/// One track as Lottie plays it: its channel, the value `origin + factor · x` of `x`, its
/// keys and bound (in the motion's unit).
struct Played {
    channel: Channel,
    factor: f64,
    keys: hermite::Keys,
}

impl Exporter for Lottie {
    fn format(&self) -> Format {
        Format::Lottie
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, _: &[String], buffers: &dyn Buffers) -> MotionOutput {
        let (animation, keys, warnings) = animation(baked);
        let files = (self.shape.files.iter())
            .map(|_| {
                let text = serde_json::to_vec(&animation).expect("plain JSON");
                let mut file = buffers.buffer(text.len());
                file.extend_from_slice(&text);
                file
            })
            .collect();
        MotionOutput {
            files,
            chunk: None,
            stats: vec![
                ("lottie_keys", keys as u64),
                (
                    "lottie_frames",
                    (baked.frames() * baked.tracks.len()) as u64,
                ),
            ],
            warnings,
        }
    }
}

/// The animation of a motion, its number of keys (all tracks) and its warnings.
fn animation(baked: &Baked) -> (Value, usize, Vec<String>) {
    let spec = baked.spec;
    let mut warnings = Vec::new();
    let named = spec.model.tracks();
    let tracks: Vec<(Property, String)> = match &spec.model {
        Model::Tracks(t) => (t.tracks().iter())
            .map(|k| (k.property.clone(), k.unit.clone()))
            .collect(),
        _ => vec![(spec.property.clone(), spec.unit.clone()); named.len()],
    };
    let tolerances: Vec<f64> = (tracks.iter())
        .map(|(_, unit)| tolerance(spec, unit))
        .collect();
    // Impacts until the bounces rise at most a tenth of the smallest tolerance: from the last
    // one on, a hold on the floor is within that (`hermite::keys`).
    let negligible = tolerances.iter().copied().fold(f64::INFINITY, f64::min) / 10.0;
    let kinks = spec.model.track_kinks_banded(baked.duration, negligible);
    let mut played = Vec::new();
    for (j, ((_, motion), (property, unit))) in named.iter().zip(&tracks).enumerate() {
        let mut px = || {
            px_per_unit(unit).unwrap_or_else(|| {
                warnings.push(format!("Lottie draws {unit} as px"));
                1.0
            })
        };
        let (channel, factor) = match (&spec.model, property) {
            (Model::Ring(_), _) => (Channel::Circle(j), 2.0 * px()),
            (_, Property::TranslateX) => (Channel::X, px()),
            (_, Property::TranslateY) => (Channel::Y, px()),
            (_, Property::Scale) => (Channel::Scale, if unit == "%" { 1.0 } else { 100.0 }),
            (_, Property::Rotate) => (Channel::Rotation, degrees_per_unit(unit)),
            (_, Property::Opacity) => (Channel::Opacity, if unit == "%" { 1.0 } else { 100.0 }),
            (_, Property::Custom(name)) => {
                let factor = px();
                warnings.push(format!(
                    "Lottie has no {name}: it moves the square along x instead"
                ));
                (Channel::X, factor)
            }
        };
        let mut keys = hermite::keys(*motion, baked.duration, &kinks[j], tolerances[j]);
        if keys.bound > tolerances[j] {
            warnings.push(crate::fit::overrun_warning(
                "Lottie",
                keys.keys.len(),
                hermite::MAX_KEYS,
                baked.frames(),
            ));
        }
        let table = &baked.tracks[j].position;
        hermite::end_on(&mut keys, table[table.len() - 1]);
        played.push(Played {
            channel,
            factor,
            keys,
        });
    }
    let keys = played.iter().map(|p| p.keys.keys.len()).sum();
    (composition(baked, &played), keys, warnings)
}

/// The tolerance of a track in `unit`: the motion's own, else that of the exact easings.
pub fn tolerance(spec: &MotionSpec, unit: &str) -> f64 {
    (spec.tolerance)
        .filter(|t| *t > 0.0)
        .unwrap_or(EXACT_TOLERANCE_TARGETS * value_precision(unit).0)
}

/// The composition: canvas, frame rate, one layer.
fn composition(baked: &Baked, played: &[Played]) -> Value {
    let spec = baked.spec;
    let fps = spec.fps;
    let op = out_point(baked.duration, fps);
    // Room for the square wherever it goes, and for a ring's outer circle.
    let reach = (played.iter())
        .filter(|p| matches!(p.channel, Channel::X | Channel::Y | Channel::Circle(_)))
        .flat_map(|p| p.keys.keys.iter().map(move |k| (p.factor * k.x).abs()))
        .fold(0.0, f64::max);
    let side = (2.0 * (reach + MARGIN) / 10.0).ceil() * 10.0;
    let centre = side / 2.0;
    let channel = |c: Channel| played.iter().find(|p| p.channel == c);
    let scalar = |c: Channel, origin: f64, rest: f64| match channel(c) {
        Some(p) => animated(p, origin, 1, fps),
        None => json!({ "a": 0, "k": rest }),
    };
    let pair = |c: Channel, origin: f64, rest: f64| match channel(c) {
        Some(p) => animated(p, origin, 2, fps),
        None => json!({ "a": 0, "k": [rest, rest] }),
    };
    let transform = json!({
        "a": { "a": 0, "k": [0, 0] },
        "p": {
            "s": true,
            "x": scalar(Channel::X, centre, centre),
            "y": scalar(Channel::Y, centre, centre),
        },
        "s": pair(Channel::Scale, 0.0, 100.0),
        "r": scalar(Channel::Rotation, 0.0, 0.0),
        "o": scalar(Channel::Opacity, 0.0, 100.0),
    });
    let shapes = if let Model::Ring(_) = spec.model {
        let circle = |k: usize, name: &str| {
            json!({
                "ty": "el",
                "nm": name,
                "p": { "a": 0, "k": [0, 0] },
                "s": pair(Channel::Circle(k), 0.0, 0.0),
            })
        };
        vec![circle(0, "inner"), circle(1, "outer"), fill(2)]
    } else {
        vec![
            json!({
                "ty": "rc",
                "nm": "square",
                "p": { "a": 0, "k": [0, 0] },
                "s": { "a": 0, "k": [SQUARE, SQUARE] },
                "r": { "a": 0, "k": 12 },
            }),
            fill(1),
        ]
    };
    let mut group = shapes;
    group.push(json!({
        "ty": "tr",
        "a": { "a": 0, "k": [0, 0] },
        "p": { "a": 0, "k": [0, 0] },
        "s": { "a": 0, "k": [100, 100] },
        "r": { "a": 0, "k": 0 },
        "o": { "a": 0, "k": 100 },
    }));
    json!({
        "v": "5.7.0",
        "nm": spec.name,
        "fr": fps,
        "ip": 0,
        "op": op,
        "w": side,
        "h": side,
        "ddd": 0,
        "assets": [],
        "layers": [{
            "ty": 4,
            "nm": spec.name,
            "ind": 1,
            "ddd": 0,
            "sr": 1,
            "ip": 0,
            "op": op,
            "st": 0,
            "ks": transform,
            "shapes": [{ "ty": "gr", "nm": spec.name, "it": group }],
        }],
    })
}

/// The out point `op` of a motion of `duration` seconds at `fps`: a whole frame at least one
/// past the motion's end, `ceil(D·fps) + 1`. Players stop one frame before `op`
/// (dotlottie-web's `setFrame` takes frames up to `op - 1` only, and `op = D·fps` never showed
/// the end of a motion whose end falls between frames); the last key holds from `D·fps` on.
fn out_point(duration: f64, fps: f64) -> f64 {
    (duration * fps).ceil() + 1.0
}

/// A fill (fill rule `rule`: 1 non-zero, 2 even-odd).
fn fill(rule: u8) -> Value {
    json!({
        "ty": "fl",
        "c": { "a": 0, "k": [0.231, 0.51, 0.965, 1] },
        "o": { "a": 0, "k": 100 },
        "r": rule,
    })
}

/// An animated property of `dims` equal dimensions playing `origin + factor · x`.
fn animated(p: &Played, origin: f64, dims: usize, fps: f64) -> Value {
    let keys = &p.keys.keys;
    let value = |k: &Key| origin + p.factor * k.x;
    let same = |x: f64| vec![x; dims];
    let frames: Vec<Value> = (keys.iter().enumerate())
        .map(|(n, k)| {
            let Some(next) = keys.get(n + 1) else {
                return json!({ "t": k.t * fps, "s": same(value(k)) });
            };
            let (dt, ds) = (next.t - k.t, next.x - k.x);
            let (out_y, in_y) = if ds == 0.0 {
                // The motion holds still here (its velocity is 0 at both ends and between).
                (0.0, 1.0)
            } else {
                (k.v_out * dt / (3.0 * ds), 1.0 - next.v_in * dt / (3.0 * ds))
            };
            json!({
                "t": k.t * fps,
                "s": same(value(k)),
                "o": { "x": same(1.0 / 3.0), "y": same(out_y) },
                "i": { "x": same(2.0 / 3.0), "y": same(in_y) },
            })
        })
        .collect();
    json!({ "a": 1, "k": frames })
}

#[cfg(test)]
mod tests;
