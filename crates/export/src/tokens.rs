//! Design tokens: `curves.tokens.json` (DTCG Format Module 2025.10), every motion in input
//! order, and `style-dictionary.mjs` beside it, which makes Style Dictionary 5 write them as
//! CSS that plays each motion exactly.
//!
//! DTCG has `duration`, `cubicBezier` and `transition` (whose timing function must be a
//! cubic Bézier) and no spring or `linear()`. Every motion is in the top-level group
//! [`GROUP`], so that a tool's names for the tokens (`--motion-card-drop-duration`) never
//! meet the custom properties of curvebake's own CSS (`--card-drop-duration`, whose values
//! differ: its exact easing, its reduced-motion switch). Each motion is a group there (its
//! global name, prefix included) holding, per track (a one-value motion's only track is the group itself;
//! a multi-track motion has a group per property, a ring `inner` and `outer`):
//!
//! * `duration`: `{value, unit: "ms"}`, the bake's length `D` to the microsecond;
//! * `easing`: the `cubicBezier` nearest to the track's progress ([`crate::bezier`]), its
//!   error in its `$description`;
//! * `transition`: `{duration, delay, timingFunction}` referring to the two (so aliases
//!   resolve), valid for every DTCG tool, its `$description` saying how far off the Bézier is;
//!   its `$extensions."dev.curvebake"` ([`EXTENSION`]) holds what plays it exactly and what
//!   bakes it again: the exact `linear()` easing and its proven bound ([`crate::exact`]), the
//!   motion as written in its file (`ron`), its kind and every parameter (a spring in every
//!   platform's form, Material 3's stiffness and damping ratio among them), property, unit,
//!   the values it travels between, how it ends and its rest thresholds (the track's own),
//!   duration, frame rate and reduced-motion policy.
//!
//! A track that ends where it starts (a ring's radius) has no progress to ease: it gets the
//! `duration` token alone, which then carries the extension.

use crate::bezier;
use crate::css::{curves, Curve};
use crate::exact::{exact_easing, travel};
use crate::exporter::{
    Buffers, Bundle, Digest, Exporter, MotionOutput, OutputFile, Shape, Summary,
};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
use curvebake_model::number::format_number;
use curvebake_model::spec::{Ending, Model, Property, ReducedMotion, TrackEnd};
use serde_json::{json, Map, Value};

/// Path of the tokens.
pub const BUNDLE_PATH: &str = "curves.tokens.json";

/// Path of the Style Dictionary module.
pub const STYLE_DICTIONARY_PATH: &str = "style-dictionary.mjs";

/// The top-level group holding every motion.
pub const GROUP: &str = "motion";

/// The key of curvebake's data under `$extensions` (reverse DNS, as DTCG asks).
pub const EXTENSION: &str = "dev.curvebake";

/// The Style Dictionary module, written as is.
const STYLE_DICTIONARY: &str = include_str!("tokens/style-dictionary.mjs");

/// The tokens exporter.
#[derive(Debug, Clone)]
pub struct Tokens {
    settings: ExportSettings,
    shape: Shape,
}

impl Tokens {
    /// An exporter with these settings: `curves.tokens.json` and `style-dictionary.mjs` (the
    /// bundle layout writes only JSON and CSS).
    pub fn new(layout: Layout, settings: &ExportSettings) -> Self {
        Self {
            settings: settings.clone(),
            shape: Shape {
                files: &[],
                bundle: Some(Bundle {
                    path: BUNDLE_PATH.into(),
                    header: format!("{{\n  \"{GROUP}\": {{\n").into_bytes(),
                    separator: b",\n".to_vec(),
                    footer: b"\n  }\n}\n".to_vec(),
                }),
                summary: match layout {
                    Layout::PerMotion => Summary::Digests,
                    Layout::Bundle => Summary::None,
                },
                summaries: match layout {
                    Layout::PerMotion => &[STYLE_DICTIONARY_PATH],
                    Layout::Bundle => &[],
                },
            },
        }
    }
}

impl Exporter for Tokens {
    fn format(&self) -> Format {
        Format::Tokens
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, _: &[String], buffers: &dyn Buffers) -> MotionOutput {
        let global = self.settings.global_name(&baked.spec.name);
        let group = motion_group(baked, &global, &format!("{GROUP}.{global}"), &self.settings);
        let text =
            serde_json::to_string_pretty(&json!({ global: group })).expect("tokens are plain JSON");
        // The object's member, `"name": {...}`, indented as a member of the group `motion`
        // (JSON strings hold no raw line breaks, so the lines are the layout's).
        let inner = text[1..text.len() - 1].trim_matches('\n');
        let lines = 1 + inner.bytes().filter(|&b| b == b'\n').count();
        let mut chunk = buffers.buffer(inner.len() + 2 * lines);
        for (i, line) in inner.lines().enumerate() {
            if i > 0 {
                chunk.push(b'\n');
            }
            chunk.extend_from_slice(b"  ");
            chunk.extend_from_slice(line.as_bytes());
        }
        MotionOutput {
            files: Vec::new(),
            chunk: Some(chunk),
            ..MotionOutput::default()
        }
    }

    fn summary(&self, _: &[Digest]) -> Vec<OutputFile> {
        (self.shape.summaries.iter())
            .map(|&path| OutputFile {
                path: path.into(),
                bytes: STYLE_DICTIONARY.as_bytes().to_vec(),
            })
            .collect()
    }
}

/// A number as JSON, rounded to `decimals` decimals (no `-0`).
fn rounded(x: f64, decimals: i32) -> Value {
    let scale = 10f64.powi(decimals);
    json!((x * scale).round() / scale + 0.0)
}

/// A DTCG duration of `seconds`, in milliseconds to the microsecond.
fn duration(seconds: f64) -> Value {
    json!({ "value": rounded(seconds * 1e3, 3), "unit": "ms" })
}

/// One track as its tokens name it: its key in the motion's group (`None` for a one-value
/// motion, whose group is the track's), the CSS property it animates, its unit, and how it
/// ends within which rest thresholds (a multi-track motion's track its own).
struct TrackOf<'a> {
    key: Option<String>,
    property: String,
    unit: &'a str,
    end: TrackEnd,
}

/// The tracks of a motion whose global name is `global`: a multi-track motion's each
/// animate their own property in their own unit (`translateY` in px, `opacity` unitless),
/// keyed in kebab case as every other name of the file (`translate-y`), a ring's radii the
/// custom properties its CSS makes (`--<global>-inner`); a custom property is named as the CSS
/// registers and animates it (the prefix included).
fn tracks_of<'a>(baked: &'a Baked, global: &str, settings: &ExportSettings) -> Vec<TrackOf<'a>> {
    let spec = baked.spec;
    let ends = spec.track_ends(baked.duration);
    match &spec.model {
        Model::Tracks(t) => (t.tracks().iter().zip(ends))
            .map(|(k, end)| TrackOf {
                key: Some(kebab(k.property.name())),
                property: written(&k.property, settings),
                unit: &k.unit,
                end,
            })
            .collect(),
        _ => match spec.model.tracks().as_slice() {
            [_] => vec![TrackOf {
                key: None,
                property: written(&spec.property, settings),
                unit: &spec.unit,
                end: ends[0],
            }],
            named => (named.iter().zip(ends))
                .map(|((name, _), end)| TrackOf {
                    key: Some((*name).to_owned()),
                    property: format!("--{global}-{name}"),
                    unit: &spec.unit,
                    end,
                })
                .collect(),
        },
    }
}

/// The name of `property` as the CSS animates it: a custom property's with the prefix.
fn written(property: &Property, settings: &ExportSettings) -> String {
    match property {
        Property::Custom(custom) => settings.custom_property(custom),
        other => other.name().to_owned(),
    }
}

/// `name` in kebab case: `translateY` is `translate-y` (the case tools such as Terrazzo
/// expect of token names, and give the names they write).
fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The group of the motion whose global name is `global`, its tokens at `path`.
fn motion_group(baked: &Baked, global: &str, path: &str, settings: &ExportSettings) -> Value {
    let spec = baked.spec;
    let curves = curves(baked, settings);
    let tracks = tracks_of(baked, global, settings);
    if let [track @ TrackOf { key: None, .. }] = tracks.as_slice() {
        return track_group(baked, path, 0, track, &curves[0]);
    }
    let mut group = Map::new();
    group.insert(
        "$description".into(),
        json!(format!(
            "{}: {} of {} tracks, {} s",
            spec.name,
            spec.model.kind(),
            tracks.len(),
            format_seconds(baked.duration)
        )),
    );
    for (j, track) in tracks.iter().enumerate() {
        let key = track.key.clone().expect("a track of several has its key");
        let tokens = track_group(baked, &format!("{path}.{key}"), j, track, &curves[j]);
        group.insert(key, tokens);
    }
    Value::Object(group)
}

/// Seconds for people: to the microsecond, without trailing zeros.
fn format_seconds(seconds: f64) -> String {
    curvebake_model::number::format_number((seconds * 1e6).round() / 1e6)
}

/// The group of track `j` (`track`, played as `curve`), whose tokens are at `path`:
/// `duration`, and for a track that travels `easing` and `transition`.
fn track_group(baked: &Baked, path: &str, j: usize, track: &TrackOf, curve: &Curve) -> Value {
    let spec = baked.spec;
    let motion = curve.motion;
    let unit = track.unit;
    let position = &baked.tracks[j].position;
    let mut data = extension(baked, track);
    let mut group = Map::new();
    let what = match &track.key {
        Some(track) => format!("{} ({track})", spec.name),
        None => spec.name.clone(),
    };
    let mut duration_token = json!({
        "$type": "duration",
        "$value": duration(baked.duration),
        "$description": format!("How long {what} plays."),
    });
    let Some((from, to)) = travel(position, unit) else {
        data.insert("from".into(), json!(position[0]));
        data.insert("to".into(), json!(position[position.len() - 1]));
        duration_token["$description"] = json!(format!(
            "How long {what} plays. It ends where it starts, so it has no progress to ease: \
             its exact keyframes are curvebake's CSS, its motion under $extensions."
        ));
        data.insert(
            "values".into(),
            json!({ "duration": duration_token["$value"] }),
        );
        duration_token["$extensions"] = json!({ EXTENSION: data });
        group.insert("duration".into(), duration_token);
        return Value::Object(group);
    };
    let exact = exact_easing(curve, (from, to), baked.duration);
    let slope = motion.velocity(0.0) * baked.duration / (to - from);
    let at = |u: f64| {
        let x = if u >= 1.0 {
            to
        } else {
            motion.position(baked.duration * u)
        };
        (x - from) / (to - from)
    };
    let progress: Vec<f64> = (0..=bezier::SAMPLES)
        .map(|i| at(i as f64 / bezier::SAMPLES as f64))
        .collect();
    let joins: Vec<f64> = curve.kinks.iter().map(|t| t / baked.duration).collect();
    let fitted = bezier::fit(
        &bezier::Progress {
            samples: &progress,
            at: &at,
            joins: &joins,
        },
        slope,
    );
    let error = rounded(fitted.error, 4);
    data.insert("from".into(), json!(from));
    data.insert("to".into(), json!(to));
    data.insert("linear".into(), json!(exact.text));
    data.insert(
        "linearBound".into(),
        json!({
            "value": exact.bound,
            "progress": exact.progress_bound,
            "unit": unit,
        }),
    );
    data.insert("bezierError".into(), error.clone());
    // What the tokens beside it hold as written, so that a bake from this file can tell an
    // edit of them (which it does not bake: the motion is its `ron`).
    data.insert(
        "values".into(),
        json!({ "duration": duration_token["$value"], "easing": fitted.points }),
    );
    group.insert("duration".into(), duration_token);
    group.insert(
        "easing".into(),
        json!({
            "$type": "cubicBezier",
            "$value": fitted.points,
            "$description": format!(
                "The cubic Bézier nearest to {what}: up to {error} of progress off the motion."
            ),
        }),
    );
    group.insert(
        "transition".into(),
        json!({
            "$type": "transition",
            "$value": {
                "duration": format!("{{{path}.duration}}"),
                "delay": { "value": 0, "unit": "ms" },
                "timingFunction": format!("{{{path}.easing}}"),
            },
            "$description": format!(
                "{what}: {} from {} to {}{}. Its cubic Bézier is up to {error} of \
                 progress off the motion; $extensions.{EXTENSION}.linear plays it within {} {}.",
                spec.model.kind(),
                format_number(from),
                format_number(to),
                if unit.is_empty() { String::new() } else { format!(" {unit}") },
                format_bound(exact.bound),
                if unit.is_empty() { "of its value" } else { unit },
            ),
            "$extensions": { EXTENSION: data },
        }),
    );
    Value::Object(group)
}

/// A bound for people: two significant digits, rounded up.
fn format_bound(bound: f64) -> String {
    if bound <= 0.0 {
        return "0".into();
    }
    let scale = 10f64.powi(1 - libm::log10(bound).floor() as i32);
    format_number((bound * scale).ceil() / scale)
}

/// What every token of a motion's `track` carries under [`EXTENSION`]: the motion as
/// written and its resolved form, and how the track is played.
fn extension(baked: &Baked, track: &TrackOf) -> Map<String, Value> {
    let spec = baked.spec;
    let mut data = Map::new();
    if let Some(text) = &spec.text {
        data.insert("ron".into(), json!(text.as_str()));
    }
    data.insert("name".into(), json!(spec.name));
    if let Some(key) = &track.key {
        data.insert("track".into(), json!(key));
    }
    data.insert("kind".into(), json!(spec.model.kind()));
    let mut parameters = Map::new();
    for group in spec.model.params() {
        let values: Map<String, Value> = (group.values.iter())
            .map(|(k, v)| ((*k).to_owned(), json!(v)))
            .collect();
        match group.name {
            Some(name) => {
                parameters.insert(name.to_owned(), Value::Object(values));
            }
            None => parameters.extend(values),
        }
    }
    if let Model::Spring(s) = &spec.model {
        // Material 3 Expressive springs: stiffness (of a unit mass) and damping ratio.
        parameters.insert(
            "material3".into(),
            json!({ "stiffness": s.stiffness() / s.mass(), "damping": s.damping_ratio() }),
        );
    }
    data.insert("parameters".into(), Value::Object(parameters));
    data.insert("property".into(), json!(track.property));
    data.insert("unit".into(), json!(track.unit));
    data.insert("duration".into(), json!(baked.duration));
    data.insert("fps".into(), json!(spec.fps));
    data.insert("frames".into(), json!(baked.frames()));
    // The track's own: a multi-track motion's tracks end each their own way, within the
    // thresholds of their own unit.
    data.insert(
        "ends".into(),
        json!(match track.end.ending {
            Ending::Fixed(_) => "after its duration",
            Ending::Arrives(_) => "on arrival",
            Ending::Rests => "at rest",
        }),
    );
    data.insert("restDelta".into(), json!(track.end.rest_delta));
    data.insert("restSpeed".into(), json!(track.end.rest_speed));
    data.insert(
        "reducedMotion".into(),
        json!(match spec.reduced_motion {
            ReducedMotion::Jump => "jump",
            ReducedMotion::Fade => "fade",
            ReducedMotion::Keep => "keep",
        }),
    );
    data
}
