//! ES modules for the Web Animations API: `js/<name>.js` per motion, with its types in
//! `js/<name>.d.ts`, and the package around them: `js/package.json` (`type: module`,
//! `sideEffects: false`, `exports`), `js/index.js` (every motion as a namespace) and
//! `js/motion.d.ts` (the shared `Motion` type). Per-motion layout only: with `--bundle` this
//! format writes nothing.
//!
//! A module exports the keyframes (`element.animate(keyframes, timing)` plays the motion as
//! baked: one keyframe per stop of the fitting core ([`fit`]), whose straight lines stay
//! within the motion's tolerance of its closed form at every instant, with one at each join
//! of its closed forms, valued by them there (a hand-off or a bound hit between two frames,
//! as in the CSS), `offset` = t/D, linear in between), the position table per track (a `Float32Array` in
//! float32's shortest digits, or a `Float64Array` where float32 would move a value by more
//! than the keyframes' rounding) and the velocity table in the same type, with `joins` and
//! `valueAt`, which reads the tables between frames by cubic Hermite ([`joins::of_tracks`]), the
//! duration in seconds and milliseconds, the frame rate,
//! the `linear()` easing and the reduced-motion policy. Custom properties (a `--name`
//! property, or a ring's `--<name>-inner` and `--<name>-outer`) only interpolate once
//! registered, so the module registers them with `CSS.registerProperty` as it makes its
//! keyframes (on import); a property that is already registered (by another import, or by an
//! `@property` rule of the same name in the stylesheet) is left as it is. That call and the
//! typed arrays are marked `/* @__PURE__ */`: nothing else runs on import, so a bundler drops
//! whatever is not used.
//!
//! Keyframe values are written with `write_fixed` (like the CSS exporter), float64 table
//! values with [`write_json_f64`] (shortest round trip, like the JSON tables).

mod play;

pub use play::{playable, Playable, RUNTIME, RUNTIME_PATH};

use super::css::{
    coarser_tolerance_warning, css_unit, curves, easing_endpoints, easing_into, ends_neutral,
    fit_memory, keyframes_into, stops_estimate, syntax, value_precision, write_linear,
};
use crate::exporter::{
    Buffers, Digest, Exporter, FilePath, MotionOutput, OutputFile, Shape, Summary,
};
use crate::fit::{self, Fit};
use crate::joins;
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
use curvebake_model::number::{json_text, max_fixed_len, write_json_f64, write_list};
use curvebake_model::spec::{Model, Property};

/// Fewest decimals of keyframe offsets.
pub const OFFSET_DECIMALS: u32 = 6;
/// Offsets get enough decimals that rounding moves no keyframe by more than this many
/// seconds: at 5000 px/s that is 0.0005 px, far below the 0.01 px precision target.
pub const OFFSET_MAX_SHIFT: f64 = 1e-7;

/// The ES module exporter.
#[derive(Debug, Clone)]
pub struct Js {
    shape: Shape,
    settings: ExportSettings,
}

impl Js {
    /// The exporter for `layout`: a module and its types per motion and the package files,
    /// nothing with `--bundle`. The tolerance of `settings` thins the keyframes as it thins
    /// the CSS.
    pub fn new(layout: Layout, settings: &ExportSettings) -> Self {
        let (files, summary, summaries): (&[FilePath], _, &[&str]) = match layout {
            Layout::PerMotion => (
                &[MODULE, TYPES],
                Summary::Digests,
                &[
                    PACKAGE_PATH,
                    MOTION_TYPES_PATH,
                    INDEX_PATH,
                    INDEX_TYPES_PATH,
                    RUNTIME_PATH,
                ],
            ),
            Layout::Bundle => (&[], Summary::None, &[]),
        };
        Self {
            shape: Shape {
                files,
                bundle: None,
                summary,
                summaries,
            },
            settings: settings.clone(),
        }
    }
}

/// Where one motion's module goes.
const MODULE: FilePath = FilePath {
    folder: "js",
    suffix: ".js",
};

/// Where one motion's type declarations go.
const TYPES: FilePath = FilePath {
    folder: "js",
    suffix: ".d.ts",
};

/// Path of the package manifest of `js/`.
pub const PACKAGE_PATH: &str = "js/package.json";
/// Path of the module that re-exports every motion.
pub const INDEX_PATH: &str = "js/index.js";
/// Path of its type declarations.
pub const INDEX_TYPES_PATH: &str = "js/index.d.ts";
/// Path of the shared `Motion` type.
pub const MOTION_TYPES_PATH: &str = "js/motion.d.ts";

/// A custom property the keyframes animate, as given to `CSS.registerProperty`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomProperty {
    /// `--name`.
    pub name: String,
    /// `<length>`, `<angle>`, `<percentage>` or `<number>`.
    pub syntax: &'static str,
    /// A computationally independent zero of that syntax.
    pub initial_value: &'static str,
}

/// What one track animates in a keyframe.
#[derive(Clone)]
enum Target {
    /// An individual transform property (`translate`, `scale`, `rotate`, never `transform`,
    /// so that it combines with the element's own transform): the text before the value.
    Transform(&'static str),
    /// `opacity: <value>`.
    Opacity,
    /// A custom property `--name: <value><unit>`.
    Custom(String),
    /// One track of a multi-track motion: `<lead><before><value><unit><after>`. A pair of
    /// translateX and translateY writes `, translate: "X Y"` as two parts.
    Part {
        /// `", "` before a new key, `" "` before the second value of `translate`.
        lead: &'static str,
        /// The key and the opening quote (`translate: "`), or nothing.
        before: &'static str,
        /// The track's unit.
        unit: String,
        /// The closing quote, or nothing before the pair's second value.
        after: &'static str,
    },
}

/// The keyframe target of each track, in track order.
fn targets(baked: &Baked, settings: &ExportSettings) -> Vec<Target> {
    let spec = baked.spec;
    if let Model::Ring(_) = spec.model {
        let name = settings.global_name(&spec.name);
        return baked
            .tracks
            .iter()
            .map(|t| Target::Custom(format!("--{name}-{}", t.name)))
            .collect();
    }
    if let Model::Tracks(multi) = &spec.model {
        // translateX and translateY together are one animation of `translate: "X Y"`.
        let pair = multi
            .animations()
            .iter()
            .any(|(_, tracks)| tracks.len() == 2);
        return multi
            .tracks()
            .iter()
            .map(|t| {
                let unit = t.unit.clone();
                let part = |lead, before, after| Target::Part {
                    lead,
                    before,
                    unit: unit.clone(),
                    after,
                };
                // translateX comes right before translateY (the model orders them so).
                match &t.property {
                    Property::TranslateX if pair => part(", ", "translate: \"", ""),
                    Property::TranslateY if pair => part(" ", "", "\""),
                    Property::TranslateX => part(", ", "translate: \"", "\""),
                    Property::TranslateY => part(", ", "translate: \"0 ", "\""),
                    Property::Scale => part(", ", "scale: \"", "\""),
                    Property::Rotate => part(", ", "rotate: \"", "\""),
                    Property::Opacity => Target::Part {
                        lead: ", ",
                        before: "opacity: \"",
                        unit: String::new(),
                        after: "\"",
                    },
                    Property::Custom(name) => Target::Custom(name.clone()),
                }
            })
            .collect();
    }
    let target = match &spec.property {
        Property::TranslateX => Target::Transform("translate: \""),
        Property::TranslateY => Target::Transform("translate: \"0 "),
        Property::Scale => Target::Transform("scale: \""),
        Property::Rotate => Target::Transform("rotate: \""),
        Property::Opacity => Target::Opacity,
        Property::Custom(name) => Target::Custom(settings.custom_property(name)),
    };
    vec![target; baked.tracks.len()]
}

/// The unit the keyframe values are written in: the CSS exporter's (a ring's radii are
/// lengths, px unless the curve file gives a length or %), so that both register
/// `--<name>-inner` and `--<name>-outer` alike.
pub fn value_unit<'a>(baked: &Baked<'a>) -> &'a str {
    css_unit(baked).0
}

/// The custom properties a motion's keyframes animate (none for transforms and opacity).
pub fn custom_properties(baked: &Baked, settings: &ExportSettings) -> Vec<CustomProperty> {
    let (syntax, initial_value) = syntax(css_unit(baked).1);
    targets(baked, settings)
        .into_iter()
        .filter_map(|t| match t {
            Target::Custom(name) => Some(CustomProperty {
                name,
                syntax,
                initial_value,
            }),
            _ => None,
        })
        .collect()
}

/// Decimals of keyframe values in `unit`: the CSS exporter's.
fn value_decimals(unit: &str) -> u32 {
    value_precision(unit).1
}

/// Decimals of the offsets of a bake `duration` seconds long: rounding an offset to d
/// decimals moves it by at most 0.5·10^-d, its keyframe by that times the duration, which
/// must stay within [`OFFSET_MAX_SHIFT`]; and at least [`OFFSET_DECIMALS`].
fn offset_decimals(duration: f64) -> u32 {
    let needed = (0.5 * duration / OFFSET_MAX_SHIFT).log10().ceil();
    // A duration is finite and positive; 17 decimals are beyond what a double holds anyway.
    needed.clamp(f64::from(OFFSET_DECIMALS), 17.0) as u32
}

fn string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing a string into a Vec cannot fail");
}

/// Appends the keyframe of point `i` of `points`: `{offset: 0.5, translate: "12.3456px"}`.
fn keyframe(out: &mut Vec<u8>, baked: &Baked, targets: &[Target], (fit, k): (&Fit, usize)) {
    let unit = value_unit(baked).as_bytes();
    out.extend_from_slice(b"{offset: ");
    // Offsets are the fitted inputs (percent) as fractions: exactly the stops' times.
    fit.inputs[k].write_hundredths(out);
    for (j, target) in targets.iter().enumerate() {
        let x = fit.value(k, j);
        if let Target::Part {
            lead,
            before,
            unit,
            after,
        } = target
        {
            out.extend_from_slice(lead.as_bytes());
            out.extend_from_slice(before.as_bytes());
            x.write(out);
            out.extend_from_slice(unit.as_bytes());
            out.extend_from_slice(after.as_bytes());
            continue;
        }
        out.extend_from_slice(b", ");
        match target {
            Target::Transform(before) => {
                out.extend_from_slice(before.as_bytes());
                x.write(out);
                out.extend_from_slice(unit);
                out.push(b'"');
            }
            Target::Opacity => {
                out.extend_from_slice(b"opacity: \"");
                x.write(out);
                out.push(b'"');
            }
            Target::Custom(name) => {
                string(out, name);
                out.extend_from_slice(b": \"");
                x.write(out);
                out.extend_from_slice(unit);
                out.push(b'"');
            }
            Target::Part { .. } => unreachable!("written above"),
        }
    }
    out.push(b'}');
}

/// Bytes of the module text outside the parts that grow with the frames and stops, with room
/// to spare, not counting the names it repeats.
const FIXED_TEXT: usize = 4096;
/// Longest shortest-round-trip double, as [`write_json_f64`] writes it:
/// `-1.2345678901234567e-308`.
const JSON_F64_LEN: usize = 24;

/// An upper bound on the module's length, so that its buffer is allocated once: per motion,
/// never per frame. `keyframes` is the number of points that may get one (frames and joins).
fn module_capacity(
    baked: &Baked,
    targets: &[Target],
    unit: &str,
    decimals: (u32, u32),
    keyframes: usize,
) -> usize {
    // An offset is a fitted input in hundredths: at most MAX_DECIMALS + 2 decimals.
    let offset = decimals.0.max(crate::fit::MAX_DECIMALS + 2);
    let mut keyframe = "{offset: }, \n".len() + max_fixed_len(1.0, offset);
    for (track, target) in baked.tracks.iter().zip(targets) {
        let max_abs = track.position.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let key = match target {
            Target::Transform(before) => before.len() + 1,
            Target::Opacity => "opacity: \"\"".len(),
            Target::Custom(name) => name.len() + "\"\": \"\"".len(),
            Target::Part {
                before,
                unit,
                after,
                ..
            } => before.len() + unit.len() + after.len(),
        };
        keyframe += ", ".len() + key + max_fixed_len(max_abs, decimals.1) + unit.len();
    }
    // Positions and velocities.
    let tables = 2 * baked.tracks.len() * (JSON_F64_LEN + 1);
    let names = 8 * (baked.spec.name.len() + baked.spec.property.name().len());
    FIXED_TEXT + names + keyframes * keyframe + baked.frames() * tables
}

/// Whether a track's values need a `Float64Array`: rounding one to float32 would move it by
/// more than the rounding of keyframe values to their decimals (0.00005 px, 0.0000005
/// unitless), as happens beyond about 1,000 px.
pub fn needs_float64(values: &[f64], unit: &str) -> bool {
    let rounding = 0.5 * 10f64.powi(-(value_decimals(unit) as i32));
    values
        .iter()
        .any(|&x| !((f64::from(x as f32) - x).abs() <= rounding))
}

/// `x` rounded to float32, in the shortest digits that read back (through `Math.fround`, as
/// a `Float32Array` stores them) as that float32, printed into `buf`. Zero is `0`.
fn f32_text(buf: &mut zmij::Buffer, x: f64) -> &str {
    let x = x as f32;
    if x == 0.0 || !x.is_finite() {
        "0"
    } else {
        let text = buf.format_finite(x);
        text.strip_suffix(".0").unwrap_or(text)
    }
}

/// The module text of one motion.
pub fn module(baked: &Baked, settings: &ExportSettings) -> Vec<u8> {
    fitted_module(baked, settings).0
}

/// The module text of one motion, and the warnings of its fits: keyframes or an easing that
/// overrun the tolerance ([`Fit::overrun`](crate::fit::Fit::overrun)), a tolerance coarser
/// than asked ([`coarser_tolerance_warning`]).
fn fitted_module(baked: &Baked, settings: &ExportSettings) -> (Vec<u8>, Vec<String>) {
    let spec = baked.spec;
    let targets = targets(baked, settings);
    let unit = value_unit(baked);
    // A multi-track motion's values are written with the finest of its units' decimals.
    let finest = match &spec.model {
        Model::Tracks(multi) => (multi.tracks().iter())
            .map(|t| value_decimals(&t.unit))
            .max()
            .unwrap_or(value_decimals(unit)),
        _ => value_decimals(unit),
    };
    let decimals = (offset_decimals(baked.duration), finest);
    // The easing and the keyframes, fitted to the motion as the CSS's are: the easing is
    // the same text as `--<name>-easing`.
    // One fit's memory for both (the easing is written before the keyframes are fitted), so
    // a motion allocates as often with an easing as without.
    let curves = curves(baked, settings);
    let memory = std::cell::RefCell::new(fit_memory(&curves, baked.duration));
    let easing_overrun = std::cell::Cell::new(false);
    let stops = stops_estimate(&curves);
    let endpoints = easing_endpoints(baked);
    // A `linear()` stop: a number and an input, each at most 2 + MAX_DECIMALS + 16 digits.
    let easing_len = endpoints.map_or(0, |_| stops * 64 + 16);
    let registers = !custom_properties(baked, settings).is_empty();
    let play = play::section(baked, &targets, registers);
    let capacity = module_capacity(baked, &targets, unit, decimals, stops);
    let joins = joins::of_tracks(baked);
    let mut out =
        Vec::with_capacity(capacity + easing_len + play.len() + reader_len(baked, &joins));
    header(&mut out, baked);
    // A JSON string: `linear(...)` is digits, signs, points, commas, spaces and `%`, none of
    // which JSON escapes.
    constants(
        &mut out,
        baked,
        settings,
        unit,
        &|o: &mut Vec<u8>| match endpoints {
            Some(endpoints) => {
                let mut fit = memory.borrow_mut();
                easing_into(&curves[0], endpoints, baked.duration, &mut fit);
                easing_overrun.set(fit.overrun);
                o.push(b'"');
                write_linear(o, &fit, 0);
                o.push(b'"');
            }
            None => o.extend_from_slice(b"null"),
        },
    );
    tables(&mut out, baked, unit);
    reader(&mut out, baked, &joins);
    out.extend_from_slice(include_str!("js/register.js").as_bytes());
    if registers {
        out.extend_from_slice(include_str!("js/registered.js").as_bytes());
    }
    line(
        &mut out,
        "/** Web Animations API keyframes: stops fitted to the motion's closed form, within its \
         tolerance of it at every instant, with one at each exact join (a hand-off, a bound \
         hit, a track's end); linear in between. */",
    );
    line(
        &mut out,
        if registers {
            "export const keyframes = /* @__PURE__ */ registered(["
        } else {
            "export const keyframes = ["
        },
    );
    let mut keyframes = memory.borrow_mut();
    keyframes_into(&curves, baked.duration, true, &mut keyframes);
    for k in 0..keyframes.len() {
        keyframe(&mut out, baked, &targets, (&keyframes, k));
        out.extend_from_slice(b",\n");
    }
    line(&mut out, if registers { "]);" } else { "];" });
    line(
        &mut out,
        "/** Timing that plays the keyframes as baked: the first frame before it starts, and \
         after it ends the last frame (fill \"both\"), or the element's own value again \
         (\"backwards\": the motion ends at its properties' neutral values), as the CSS \
         class does. */",
    );
    out.extend_from_slice(
        b"export const timing = {duration: durationMs, easing: \"linear\", fill: ",
    );
    string(&mut out, fill(baked));
    line(&mut out, "};");
    out.extend_from_slice(include_str!("js/animate.js").as_bytes());
    out.extend_from_slice(&play);
    let overrun = (keyframes.overrun || easing_overrun.get())
        .then(|| fit::overrun_warning("module's keyframes", keyframes.len()));
    let warnings = overrun
        .into_iter()
        .chain(coarser_tolerance_warning(&curves));
    (out, warnings.collect())
}

/// The fill of `timing`: the CSS class's ([`ends_neutral`]).
fn fill(baked: &Baked) -> &'static str {
    if ends_neutral(baked) {
        "backwards"
    } else {
        "both"
    }
}

/// Appends `s` and a newline.
fn line(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
    out.push(b'\n');
}

/// The module's first lines: what it is and that it is generated.
fn header(out: &mut Vec<u8>, baked: &Baked) {
    let spec = baked.spec;
    let frames = baked.frames();
    out.extend_from_slice(b"// ");
    out.extend_from_slice(spec.name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(spec.model.kind().as_bytes());
    out.extend_from_slice(b" on ");
    match &spec.model {
        Model::Tracks(multi) => {
            let properties: Vec<&str> = multi.tracks().iter().map(|t| t.property.name()).collect();
            out.extend_from_slice(properties.join(", ").as_bytes());
        }
        _ => out.extend_from_slice(spec.property.name().as_bytes()),
    }
    out.extend_from_slice(format!(", {frames} frames").as_bytes());
    out.push(b'\n');
    line(
        out,
        "// Generated by curvebake: do not edit; edit the curve file and bake again.\n\
         // Play it with `element.animate(keyframes, timing)` or `animate(element)`.\n",
    );
}

/// The module's constants, each with its doc comment; `easing` writes the `easing` constant's
/// value (the motion's `linear()` easing, or `null`).
fn constants(
    out: &mut Vec<u8>,
    baked: &Baked,
    settings: &ExportSettings,
    unit: &str,
    easing: &dyn Fn(&mut Vec<u8>),
) {
    let spec = baked.spec;
    let frames = baked.frames();
    let constant = |out: &mut Vec<u8>, doc: &str, name: &str, value: &dyn Fn(&mut Vec<u8>)| {
        out.extend_from_slice(b"/** ");
        out.extend_from_slice(doc.as_bytes());
        out.extend_from_slice(b" */\nexport const ");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" = ");
        value(out);
        out.extend_from_slice(b";\n");
    };
    constant(out, "Motion name.", "name", &|o| string(o, &spec.name));
    constant(
        out,
        "Motion kind: spring, friction, gravity, decay, inertia, sequence, explosion-ring or tracks.",
        "kind",
        &|o| string(o, spec.model.kind()),
    );
    constant(
        out,
        "The property as written in the curve file; null for a ring, which animates `customProperties`.",
        "property",
        &|o| match spec.model {
            Model::Ring(_) => o.extend_from_slice(b"null"),
            _ => string(o, spec.property.name()),
        },
    );
    constant(
        out,
        "Unit of the keyframe values (may be empty; a ring's radii are lengths, px by default).",
        "unit",
        &|o| string(o, unit),
    );
    constant(out, "Frames per second.", "fps", &|o| {
        write_json_f64(o, spec.fps)
    });
    constant(out, "Duration in seconds.", "duration", &|o| {
        write_json_f64(o, baked.duration)
    });
    constant(out, "Duration in milliseconds.", "durationMs", &|o| {
        write_json_f64(o, baked.duration * 1000.0)
    });
    constant(
        out,
        "The motion's progress as a CSS `linear()` easing (for transitions between any two \
         values), or null for a motion without an end value.",
        "easing",
        easing,
    );
    constant(
        out,
        "What `prefers-reduced-motion: reduce` does: jump, fade or keep.",
        "reducedMotion",
        &|o| string(o, spec.reduced_motion.name()),
    );
    constant(
        out,
        "Frame count: frame i is at min(i / fps, duration) seconds.",
        "frames",
        &|o| o.extend_from_slice(frames.to_string().as_bytes()),
    );
    constant(
        out,
        "Custom properties the keyframes animate, as given to CSS.registerProperty.",
        "customProperties",
        &|o| {
            o.push(b'[');
            for (i, p) in custom_properties(baked, settings).iter().enumerate() {
                if i > 0 {
                    o.extend_from_slice(b", ");
                }
                o.extend_from_slice(b"{name: ");
                string(o, &p.name);
                o.extend_from_slice(b", syntax: ");
                string(o, p.syntax);
                o.extend_from_slice(b", inherits: false, initialValue: ");
                string(o, p.initial_value);
                o.push(b'}');
            }
            o.push(b']');
        },
    );
}

/// A table of the module: `export const <name> = {<track>: Float32Array, ...}` of what
/// `values` picks of each track, float64 where its positions need it ([`needs_float64`]).
fn table(
    out: &mut Vec<u8>,
    baked: &Baked,
    unit: &str,
    name: &str,
    values: fn(&curvebake_model::bake::Track) -> &[f64],
) {
    out.extend_from_slice(b"export const ");
    out.extend_from_slice(name.as_bytes());
    line(out, " = {");
    for track in &baked.tracks {
        out.extend_from_slice(b"  ");
        out.extend_from_slice(track.name.as_bytes());
        let wide = needs_float64(&track.position, unit);
        out.extend_from_slice(if wide {
            b": /* @__PURE__ */ new Float64Array(["
        } else {
            b": /* @__PURE__ */ new Float32Array(["
        });
        write_list(out, values(track), if wide { json_text } else { f32_text });
        out.extend_from_slice(b"]),\n");
    }
    line(out, "};");
}

/// `tracks` and `velocities`: each track's positions and velocities per frame as typed
/// arrays.
fn tables(out: &mut Vec<u8>, baked: &Baked, unit: &str) {
    line(
        out,
        "/** Position per frame, per track (`value`; `inner` and `outer` for a ring): float32, \
         or float64 where float32 would move a value by more than the keyframes' rounding. */",
    );
    table(out, baked, unit, "tracks", |t| t.position.as_slice());
    line(
        out,
        "/** Velocity per frame (units per second), per track, in the positions' type: with them \
         `valueAt` reads between frames exactly. */",
    );
    table(out, baked, unit, "velocities", |t| t.velocity.as_slice());
}

/// The text of `valueAt`.
const VALUE_AT: &str = include_str!("js/value_at.js");

/// Bytes of the reader ([`reader`]) of a motion with these `joins`.
fn reader_len(baked: &Baked, joins: &[Vec<[f64; 5]>]) -> usize {
    let entries: usize = joins.iter().map(Vec::len).sum();
    512 + VALUE_AT.len() + baked.tracks.len() * 16 + entries * 5 * (JSON_F64_LEN + 1)
}

/// `joins` ([`joins`]) and `valueAt`, which reads the tables between frames.
fn reader(out: &mut Vec<u8>, baked: &Baked, joins: &[Vec<[f64; 5]>]) {
    line(
        out,
        "/** Per track, where the motion is not smooth between frames (an impact, a hand-off, a \
         bound hit, a track's end) and the end if the last frame holds the rest value: [t, \
         x before, v before, x after, v after]. */",
    );
    line(out, "export const joins = {");
    for (track, joins) in baked.tracks.iter().zip(joins) {
        out.extend_from_slice(b"  ");
        out.extend_from_slice(track.name.as_bytes());
        out.extend_from_slice(b": [");
        for (i, join) in joins.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'[');
            write_list(out, join, json_text);
            out.push(b']');
        }
        line(out, "],");
    }
    line(out, "};");
    out.extend_from_slice(VALUE_AT.as_bytes());
}

/// The type declarations of one motion's module: its constants with literal types where they
/// are fixed, and the default export as the shared [`MOTION_TYPES_PATH`] `Motion`.
pub fn types(baked: &Baked) -> Vec<u8> {
    let spec = baked.spec;
    let literal = |s: &str| serde_json::to_string(s).expect("a string serializes");
    let array = |t: &curvebake_model::bake::Track| {
        if needs_float64(&t.position, value_unit(baked)) {
            "Float64Array"
        } else {
            "Float32Array"
        }
    };
    let tracks: Vec<String> = baked
        .tracks
        .iter()
        .map(|t| format!("readonly {}: {}", t.name, array(t)))
        .collect();
    let track_names: Vec<String> = baked.tracks.iter().map(|t| literal(t.name)).collect();
    let joins: Vec<String> = (baked.tracks.iter())
        .map(|t| format!("readonly {}: readonly Join[]", t.name))
        .collect();
    let property = match spec.model {
        Model::Ring(_) => "null".to_owned(),
        _ => literal(spec.property.name()),
    };
    let text = format!(
        "// Types of {name}.js, generated by curvebake.\n\
         \n\
         import type {{ CustomProperty, Join, Motion, ReducedMotion }} from \"./motion.js\";\n\
         export type {{ CustomProperty, Join, Motion, ReducedMotion }};\n\
         \n\
         /** Motion name. */\n\
         export declare const name: {name_literal};\n\
         /** Motion kind. */\n\
         export declare const kind: {kind};\n\
         /** The property as written in the curve file; null for a ring. */\n\
         export declare const property: {property};\n\
         /** Unit of the keyframe values (may be empty; a ring's radii are lengths, px by default). */\n\
         export declare const unit: {unit};\n\
         /** Frames per second. */\n\
         export declare const fps: number;\n\
         /** Duration in seconds. */\n\
         export declare const duration: number;\n\
         /** Duration in milliseconds. */\n\
         export declare const durationMs: number;\n\
         /** Frame count: frame i is at min(i / fps, duration) seconds. */\n\
         export declare const frames: number;\n\
         /** The progress as a CSS `linear()` easing, or null for a motion without an end value. */\n\
         export declare const easing: {easing};\n\
         /** What `prefers-reduced-motion: reduce` does in `animate()`. */\n\
         export declare const reducedMotion: {reduced};\n\
         /** Custom properties the keyframes animate. */\n\
         export declare const customProperties: readonly CustomProperty[];\n\
         /** Position per frame, per track. */\n\
         export declare const tracks: {{ {tracks} }};\n\
         /** Velocity per frame (units per second), per track, in the positions' type. */\n\
         export declare const velocities: {{ {tracks} }};\n\
         /** Per track, where the motion is not smooth between frames, and the end if the last frame holds the rest value. */\n\
         export declare const joins: {{ {joins} }};\n\
         /** The position of `track` (the first by default) at `seconds`, read between frames by cubic Hermite with the velocities: within h⁴/384·max|x⁗| of the motion. */\n\
         export declare function valueAt(seconds: number, track?: {track_names}): number;\n\
         /** Web Animations API keyframes: stops fitted to the motion (within its tolerance at every instant) and its joins, linear in between. */\n\
         export declare const keyframes: Keyframe[];\n\
         /** Timing that plays the keyframes as baked, with the CSS class's fill. */\n\
         export declare const timing: Motion[\"timing\"] & {{ readonly fill: {fill} }};\n\
         /** Registers `customProperties`; a property already registered is left as it is. */\n\
         export declare function registerProperties(): void;\n\
         /** Plays the motion on `element`; `options` add to or override `timing`. */\n\
         export declare function animate(element: Element, options?: KeyframeAnimationOptions): Animation;\n\
         \n\
         declare const motion: Motion<{name_literal}, {track_names}> & {{\n\
         \x20 readonly kind: typeof kind;\n\
         \x20 readonly property: typeof property;\n\
         \x20 readonly unit: typeof unit;\n\
         \x20 readonly tracks: typeof tracks;\n\
         \x20 readonly velocities: typeof velocities;\n\
         }};\n\
         export default motion;\n",
        name = spec.name,
        name_literal = literal(&spec.name),
        kind = literal(spec.model.kind()),
        unit = literal(value_unit(baked)),
        easing = if easing_endpoints(baked).is_some() {
            "string"
        } else {
            "null"
        },
        reduced = literal(spec.reduced_motion.name()),
        fill = literal(fill(baked)),
        tracks = tracks.join("; "),
        joins = joins.join("; "),
        track_names = track_names.join(" | "),
    );
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(play::types(baked).as_bytes());
    bytes
}

/// The shared types of every module (`js/motion.d.ts`).
pub const MOTION_TYPES: &str = r#"// Types shared by the modules curvebake generates.

/** A custom property the keyframes animate, as given to CSS.registerProperty. */
export interface CustomProperty {
  readonly name: string;
  readonly syntax: "<length>" | "<angle>" | "<percentage>" | "<number>";
  readonly inherits: false;
  readonly initialValue: string;
}

/** What `prefers-reduced-motion: reduce` does in `animate()`. */
export type ReducedMotion = "jump" | "fade" | "keep";

/** Where a track is not smooth: its time (s), and position and velocity just before and from
 * it on. */
export type Join = readonly [t: number, xBefore: number, vBefore: number, xAfter: number, vAfter: number];

/** One baked motion: what every module exports, and its default export. */
export interface Motion<Name extends string = string, Track extends string = string> {
  /** Motion name. */
  readonly name: Name;
  /** Motion kind (spring, friction, gravity, decay, inertia, sequence, explosion-ring,
   * tracks; each module's own declarations give its literal). */
  readonly kind: string;
  /** The property as written in the curve file; null for a ring. */
  readonly property: string | null;
  /** Unit of the keyframe values. */
  readonly unit: string;
  /** Frames per second. */
  readonly fps: number;
  /** Duration in seconds. */
  readonly duration: number;
  /** Duration in milliseconds. */
  readonly durationMs: number;
  /** Frame count: frame i is at min(i / fps, duration) seconds. */
  readonly frames: number;
  /** The progress as a CSS `linear()` easing, or null for a motion without an end value. */
  readonly easing: string | null;
  /** What `prefers-reduced-motion: reduce` does in `animate()`. */
  readonly reducedMotion: ReducedMotion;
  /** Custom properties the keyframes animate. */
  readonly customProperties: readonly CustomProperty[];
  /** Position per frame, per track (float32, or float64 where values need it). */
  readonly tracks: { readonly [K in Track]: Float32Array | Float64Array };
  /** Velocity per frame (units per second), per track, in the positions' type. */
  readonly velocities: { readonly [K in Track]: Float32Array | Float64Array };
  /** Per track, where the motion is not smooth between frames (an impact, a hand-off, a bound
   * hit, a track's end), and the end if the last frame holds the rest value. */
  readonly joins: { readonly [K in Track]: readonly Join[] };
  /** The position of `track` (the first by default) at `seconds`, clamped to the bake: the
   * tables read between frames by cubic Hermite with the velocities, a piece ending at each
   * join, within h⁴/384·max|x⁗| of the motion (h = 1/fps). */
  valueAt(seconds: number, track?: Track): number;
  /** Web Animations API keyframes, linear in between. */
  readonly keyframes: Keyframe[];
  /** Timing that plays the keyframes as baked. */
  readonly timing: { readonly duration: number; readonly easing: "linear"; readonly fill: "both" | "backwards" };
  /** Registers `customProperties`; a property already registered is left as it is. */
  readonly registerProperties: () => void;
  /** Plays the motion on `element`; `options` add to or override `timing`. */
  readonly animate: (element: Element, options?: KeyframeAnimationOptions) => Animation;
}

/** A motion playing with input (a module's `play`): its keyframes are computed once, at start
 * and at each retarget, from the closed form; nothing runs per frame. */
export interface Playing {
  /** Continues from the exact position and velocity of now towards `to`: a spring to `to`, a
   * fling onto the snap point `to`, gravity until it reaches `to`. Nothing jumps. */
  retarget(to: number): void;
  /** The position now: the closed form at the animation's current time (the rest value once
   * it has ended; after `cancel()`, the position at the instant it was cancelled). */
  position(): number;
  /** The velocity now, in units per second (0 once it has ended; after `cancel()`, the
   * velocity it had when cancelled). */
  velocity(): number;
  /** Resolves with the animation when the motion ends (after the retargets made until then;
   * a retarget after the end plays a new run, with a promise of its own); rejects with an
   * `AbortError` on `cancel()`. */
  readonly finished: Promise<Animation>;
  /** Stops it and removes its effect, as `Animation.cancel()` does: the element shows its own
   * value again (to keep it where it is, write `position()` to its style first). A retarget
   * afterwards plays again from the instant it was cancelled. */
  cancel(): void;
  /** The Web Animation playing it (a retarget re-times this one): pause, seek or change its rate. */
  readonly animation: Animation;
}

/** Input of a spring's `play`; each defaults to the baked value
 * (left out or `undefined`). */
export interface SpringInput {
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  /** Units per second; a velocity away from `to` is fine. */
  readonly velocity?: number | undefined;
}

/** Input of a fling's `play` (friction, decay, inertia); each defaults to the baked value
 * (left out or `undefined`). */
export interface FlingInput {
  readonly from?: number | undefined;
  /** Units per second. */
  readonly velocity?: number | undefined;
  /** Rest exactly here (one snap point). */
  readonly to?: number | undefined;
  /** Rest on the snap point nearest where friction alone would stop (the lower of two):
   * friction carries it there when the point is ahead and at most twice as far as friction
   * alone would go, else the bounce spring takes it (a slow release far from every point). */
  readonly snap?: readonly number[] | undefined;
  /** Bounds: a fling past one hands its velocity to the bounce spring there; one that starts
   * outside springs back to it. With snap points the fling rests on one of them: give points
   * within the bounds. */
  readonly min?: number | undefined;
  readonly max?: number | undefined;
}

/** Input of the `play` of gravity without a floor; each defaults to the baked value
 * (left out or `undefined`). */
export interface GravityInput {
  readonly from?: number | undefined;
  /** Units per second. */
  readonly velocity?: number | undefined;
  /** End on reaching it (else after the baked duration). */
  readonly to?: number | undefined;
}
"#;

/// `js/package.json`: ES modules without side effects for bundlers (a module's only effect,
/// registering its custom properties, comes with its `keyframes`), the index as `.` and each
/// motion as `./<name>` (or `./<name>.js`), with their types.
pub const PACKAGE_JSON: &str = r#"{
  "name": "curvebake-motions",
  "private": true,
  "type": "module",
  "sideEffects": false,
  "types": "./index.d.ts",
  "exports": {
    ".": { "types": "./index.d.ts", "default": "./index.js" },
    "./package.json": "./package.json",
    "./*.js": { "types": "./*.d.ts", "default": "./*.js" },
    "./*": { "types": "./*.d.ts", "default": "./*.js" }
  }
}
"#;

/// The JavaScript name of a motion in the index: its name in camelCase (`card-drop` is
/// `cardDrop`). Names that come to the same one take it in the order of the motions' names,
/// the later with `_2`, `_3`... (`card-drop` before `cardDrop`), so that the order of the
/// inputs changes no export; a suffixed name another motion takes as its own is skipped.
fn identifiers(digests: &[Digest]) -> Vec<String> {
    let camel: Vec<String> = digests.iter().map(|d| camel_case(&d.name)).collect();
    let mut order: Vec<usize> = (0..digests.len()).collect();
    order.sort_by(|&a, &b| (&camel[a], &digests[a].name).cmp(&(&camel[b], &digests[b].name)));
    let taken: std::collections::HashSet<&str> = camel.iter().map(String::as_str).collect();
    let mut unique = vec![String::new(); digests.len()];
    let mut suffixed = std::collections::HashSet::new();
    for (k, &i) in order.iter().enumerate() {
        let first = k == 0 || camel[order[k - 1]] != camel[i];
        unique[i] = if first {
            camel[i].clone()
        } else {
            (2..)
                .map(|n| format!("{}_{n}", camel[i]))
                .find(|id| !taken.contains(id.as_str()) && !suffixed.contains(id))
                .expect("a free suffix")
        };
        suffixed.insert(unique[i].clone());
    }
    unique
}

/// `name` in camelCase: each `-` dropped and the letter after it upper case.
fn camel_case(name: &str) -> String {
    let mut id = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            id.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            id.push(c);
        }
    }
    id
}

/// `js/index.js` and `js/index.d.ts`: every motion's module as a namespace, in input order.
fn index(digests: &[Digest]) -> (String, String) {
    let mut js = String::from(
        "// Every motion's module, generated by curvebake. Import one namespace, or one module\n\
         // directly; bundlers keep only what is used (package.json: sideEffects false).\n",
    );
    let mut dts = String::from("// Types of index.js, generated by curvebake.\n\nexport type { CustomProperty, Motion, ReducedMotion } from \"./motion.js\";\n\
         export type { FlingInput, GravityInput, Playing, SpringInput } from \"./motion.js\";\n");
    for (d, id) in digests.iter().zip(identifiers(digests)) {
        js.push_str(&format!("export * as {id} from \"./{}.js\";\n", d.name));
        dts.push_str(&format!("export * as {id} from \"./{}.js\";\n", d.name));
    }
    (js, dts)
}

impl Exporter for Js {
    fn format(&self) -> Format {
        Format::Js
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, _: &[String], _: &dyn Buffers) -> MotionOutput {
        if self.shape.files.is_empty() {
            return MotionOutput::default();
        }
        let (module, warnings) = fitted_module(baked, &self.settings);
        MotionOutput {
            files: vec![module, types(baked)],
            warnings,
            ..Default::default()
        }
    }

    fn summary(&self, digests: &[Digest]) -> Vec<OutputFile> {
        if self.shape.summary == Summary::None {
            return Vec::new();
        }
        let (js, dts) = index(digests);
        [
            (PACKAGE_PATH, PACKAGE_JSON.to_owned()),
            (MOTION_TYPES_PATH, MOTION_TYPES.to_owned()),
            (INDEX_PATH, js),
            (INDEX_TYPES_PATH, dts),
            (RUNTIME_PATH, RUNTIME.to_owned()),
        ]
        .into_iter()
        .map(|(path, text)| OutputFile {
            path: path.to_owned(),
            bytes: text.into_bytes(),
        })
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exporter::New;

    use crate::test_spec as spec;

    fn text(ron: &str) -> String {
        let spec = spec(ron);
        let baked = curvebake_model::bake::bake(&spec).unwrap();
        String::from_utf8(module(&baked, &ExportSettings::default())).unwrap()
    }

    #[test]
    fn a_straight_translate_is_two_keyframes_from_offset_0_to_1() {
        let js = text(
            r#"(name: "slide", duration: 0.05, motion: Gravity(from: 0, velocity: 100, acceleration: 0))"#,
        );
        assert!(
            js.contains("{offset: 0, translate: \"0px\"},\n{offset: 1, translate: \"5px\"},\n"),
            "{js}"
        );
        assert!(js.contains("export const frames = 4;"));
        assert!(js.contains("export const durationMs = 50.0;"), "{js}");
        assert!(
            js.contains("value: /* @__PURE__ */ new Float32Array([0,1.6666666,3.3333333,5]),"),
            "{js}"
        );
        assert!(js.contains("export const customProperties = [];"));
    }

    /// The constants the module's scripts repeat from Rust (they are written once, not
    /// assembled): the reduced-motion fade's length, as the CSS's, and the glide limit of a
    /// fling onto a snap point, as the bake's inertia.
    #[test]
    fn the_scripts_use_the_bakes_constants() {
        let fade_ms = curvebake_model::spec::REDUCED_FADE_SECONDS * 1000.0;
        let animate = include_str!("js/animate.js");
        assert!(
            animate.contains(&format!("{{duration: {fade_ms}, ")),
            "{animate}"
        );
        let glide = curvebake_motion::GLIDE;
        assert!(play::RUNTIME.contains(&format!("q > 0 && q <= {glide} ?")));
    }

    /// The drawer of js.md's recipe: a decay baked for 0.6 s, released towards an edge. A
    /// start of it glides and springs onto its `to`, which takes longer than 0.6 s: it may
    /// play for a minute (it ended 5 to 20 px short, still moving, when cut at 0.6 s).
    #[test]
    fn a_decay_cut_at_its_duration_plays_with_input_until_it_rests() {
        let js = text(
            r#"(name: "drawer", duration: 0.6, motion: Decay(from: 0, velocity: 1200, lambda: 6))"#,
        );
        assert!(js.contains(", cap: 60.0};"), "{js}");
        let glow = text(
            r#"(name: "glow", duration: 1.2, motion: Decay(from: 0, velocity: 10, lambda: -1))"#,
        );
        assert!(glow.contains("No `play`"), "{glow}");
    }

    #[test]
    fn a_ring_animates_and_registers_two_custom_properties() {
        let js = text(
            r#"(name: "boom", duration: 0.1, motion: ExplosionRing(inner: (from: 0, to: 10, end_velocity: 1), outer: (from: 1, to: 20, end_velocity: 1)))"#,
        );
        assert!(js.contains(r#"export const customProperties = [{name: "--boom-inner", syntax: "<length>", inherits: false, initialValue: "0px"}, {name: "--boom-outer", syntax: "<length>", inherits: false, initialValue: "0px"}];"#), "{js}");
        assert!(js.contains(r#"{offset: 1, "--boom-inner": "10px", "--boom-outer": "20px"}"#));
        assert!(js.contains("  inner: /* @__PURE__ */ new Float32Array(["));
        assert!(js.contains("  outer: /* @__PURE__ */ new Float32Array(["));
        // Registration comes with the keyframes, so a bundler drops both together.
        assert!(js.contains("export const keyframes = /* @__PURE__ */ registered([\n"));
        assert!(js.contains("export const property = null;"));
        assert!(!js.contains("\nregisterProperties();"));
    }

    #[test]
    fn unitless_values_keep_six_decimals_and_opacity_is_a_plain_number() {
        let js = text(
            r#"(name: "fade", property: "opacity", duration: 0.3, motion: Decay(from: 0, to: 1, end_velocity: 0.5))"#,
        );
        assert!(js.contains("{offset: 1, opacity: \"1\"}"), "{js}");
        // Within 5e-4 of the motion: values with 4 decimals (rounding 5e-5, an eighth of it
        // would be 6.25e-5), more at no stop.
        for k in js.lines().filter(|l| l.starts_with("{offset: ")) {
            let value = k.split('"').nth(1).unwrap();
            assert!(value.split('.').nth(1).map_or(0, str::len) <= 4, "{k}");
        }
    }

    #[test]
    fn longer_bakes_get_more_offset_decimals() {
        assert_eq!(offset_decimals(0.05), 6);
        assert_eq!(offset_decimals(0.2), 6);
        assert_eq!(offset_decimals(0.5), 7);
        assert_eq!(offset_decimals(10.0), 8);
        assert_eq!(offset_decimals(1e9), 16);
        assert_eq!(offset_decimals(1e12), 17);
        for d in [0.01, 0.3, 1.0, 2.75, 10.0, 600.0] {
            let shift = 0.5 * 10f64.powi(-(offset_decimals(d) as i32)) * d;
            assert!(shift <= OFFSET_MAX_SHIFT * (1.0 + 1e-12), "{d}: {shift}");
        }
    }

    #[test]
    fn a_ring_is_in_its_length_unit_and_large_units_get_six_decimals() {
        let js = text(
            r#"(name: "dots", unit: "%", duration: 0.1, motion: ExplosionRing(inner: (from: 0, to: 1, end_velocity: 1), outer: (from: 0.5, to: 2, end_velocity: 1)))"#,
        );
        assert!(js.contains(r#"syntax: "<percentage>", inherits: false, initialValue: "0%"}"#));
        assert!(js.contains(r#"{offset: 1, "--dots-inner": "1%", "--dots-outer": "2%"}"#));
        assert!(js.contains("export const unit = \"%\";"), "{js}");
        let js = text(
            r#"(name: "spin", property: "rotate", unit: "turn", duration: 0.1, motion: Gravity(from: 0, velocity: 1, acceleration: 0))"#,
        );
        assert!(js.contains("{offset: 1, rotate: \"0.1turn\"}"), "{js}");
    }

    #[test]
    fn the_module_buffer_is_allocated_once() {
        for ron in [
            r#"(name: "a", duration: 2, motion: Gravity(from: 0, velocity: 5e8, acceleration: -2e8))"#,
            r#"(name: "b", property: "--a-rather-long-custom-property-name-for-the-test", duration: 1, motion: Decay(from: -1e-300, velocity: 1e-290, lambda: 1))"#,
            r#"(name: "c-name-that-is-rather-long-as-well-to-stretch-the-ring-keys", fps: 1000, duration: 1, motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15)))"#,
            r#"(name: "d", property: "opacity", fps: 1000, duration: 5, motion: Decay(from: 0, to: 1, end_velocity: 0.5))"#,
            // A hand-off between two frames: a keyframe of its own.
            r#"(name: "e", duration: 0.3, motion: Sequence([(motion: Spring(from: 0, to: 1e8, stiffness: 300, damping: 20), duration: 0.105), (motion: Spring(to: -1e8, stiffness: 170, damping: 26))]))"#,
        ] {
            let spec = spec(ron);
            let baked = curvebake_model::bake::bake(&spec).unwrap();
            let unit = value_unit(&baked);
            let decimals = (offset_decimals(baked.duration), value_decimals(unit));
            let settings = ExportSettings::default();
            let stops = stops_estimate(&curves(&baked, &settings));
            let endpoints = easing_endpoints(&baked);
            let easing_len = endpoints.map_or(0, |_| stops * 64 + 16);
            let bound = module_capacity(&baked, &targets(&baked, &settings), unit, decimals, stops)
                + easing_len;
            let len = module(&baked, &ExportSettings::default()).len();
            assert!(len <= bound, "{}: {len} bytes > {bound}", spec.name);
        }
    }

    #[test]
    fn tables_use_float32_digits_unless_float32_would_move_a_value() {
        let mut out = Vec::new();
        for x in [0.0, -0.0, 0.1, 1.0, -240.0, 1e-7, 123456.789] {
            out.clear();
            write_list(&mut out, &[x], f32_text);
            let text = std::str::from_utf8(&out).unwrap();
            let back: f32 = text.parse().unwrap();
            assert_eq!(back, x as f32, "{x} -> {text}");
            assert!(!text.ends_with(".0"), "{text}");
        }
        assert!(!needs_float64(&[0.0, 0.5, 999.9], "px"));
        assert!(needs_float64(&[0.0, 16_777_217.0], "px"));
        assert!(!needs_float64(&[0.25, 0.75], ""));
        assert!(needs_float64(&[16_777_217.0], ""));
        let js = text(
            r#"(name: "far", duration: 0.1, motion: Gravity(from: 5000.123, velocity: 100, acceleration: 0))"#,
        );
        assert!(
            js.contains("value: /* @__PURE__ */ new Float64Array([5000.123,"),
            "{js}"
        );
    }

    #[test]
    fn a_larger_tolerance_thins_the_keyframes_and_the_easing() {
        let spec = spec(
            r#"(name: "drop", rest_delta: 0.01, rest_speed: 0.1, motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18))"#,
        );
        let baked = curvebake_model::bake::bake(&spec).unwrap();
        let settings = ExportSettings {
            css_tolerance: 1.0,
            ..ExportSettings::default()
        };
        let thin = String::from_utf8(module(&baked, &settings)).unwrap();
        let fine = String::from_utf8(module(&baked, &ExportSettings::default())).unwrap();
        let count = |js: &str| js.lines().filter(|l| l.starts_with("{offset: ")).count();
        assert!(
            count(&thin) * 2 < count(&fine),
            "{} {}",
            count(&thin),
            count(&fine)
        );
        let easing = |js: &str| {
            js.lines()
                .find(|l| l.starts_with("export const easing"))
                .unwrap()
                .len()
        };
        assert!(easing(&thin) < easing(&fine));
    }

    #[test]
    fn a_join_between_frames_is_a_keyframe_at_its_closed_form() {
        let spec = spec(
            r#"(name: "s", motion: Sequence([
                (motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.105),
                (motion: Spring(to: 40, stiffness: 170, damping: 26)),
            ]))"#,
        );
        let baked = curvebake_model::bake::bake(&spec).unwrap();
        let exact = spec.model.single().unwrap().position(0.105);
        let offset = 0.105 / baked.duration;
        let settings = ExportSettings {
            css_tolerance: 3.0,
            ..ExportSettings::default()
        };
        let speed = spec.model.single().unwrap().velocity(0.105).abs();
        for (settings, tolerance) in [(ExportSettings::default(), 0.1), (settings, 3.0)] {
            let js = String::from_utf8(module(&baked, &settings)).unwrap();
            let distance = |l: &&str| {
                let o: f64 = l.split(',').next().unwrap().parse().unwrap();
                (o - offset).abs()
            };
            let keyframe = js
                .lines()
                .filter_map(|l| l.strip_prefix("{offset: "))
                .min_by(|a, b| distance(a).total_cmp(&distance(b)))
                .unwrap();
            // Moving the stop from the join costs at most a twentieth of the tolerance.
            assert!(distance(&keyframe) * baked.duration * speed <= tolerance / 20.0);
            let value: f64 = keyframe
                .split('"')
                .nth(1)
                .unwrap()
                .trim_end_matches("px")
                .parse()
                .unwrap();
            assert!(
                (value - exact).abs() <= tolerance / 40.0,
                "{keyframe} vs {exact}"
            );
        }
    }

    #[test]
    fn index_names_are_camel_case_and_unique() {
        let digest = |name: &str| {
            let spec = spec(&format!(
                r#"(name: "{name}", duration: 0.1, motion: Gravity(from: 0, acceleration: 1))"#
            ));
            Digest::of(&curvebake_model::bake::bake(&spec).unwrap(), false)
        };
        let digests = [digest("card-drop"), digest("cardDrop"), digest("a_b-c")];
        assert_eq!(identifiers(&digests), ["cardDrop", "cardDrop_2", "a_bC"]);
        // The same names whatever the order of the inputs; a suffixed name that is another
        // motion's own is skipped.
        let reordered = [digest("cardDrop"), digest("a_b-c"), digest("card-drop")];
        assert_eq!(identifiers(&reordered), ["cardDrop_2", "a_bC", "cardDrop"]);
        let owned = [
            digest("cardDrop"),
            digest("cardDrop_2"),
            digest("card-drop"),
        ];
        assert_eq!(
            identifiers(&owned),
            ["cardDrop_3", "cardDrop_2", "cardDrop"]
        );
        let (js, dts) = index(&digests);
        assert!(js.contains("export * as cardDrop from \"./card-drop.js\";\n"));
        assert!(js.contains("export * as cardDrop_2 from \"./cardDrop.js\";\n"));
        assert!(dts.contains("export * as a_bC from \"./a_b-c.js\";\n"));
        let package: serde_json::Value = serde_json::from_str(PACKAGE_JSON).unwrap();
        assert_eq!(package["type"], "module");
        assert_eq!(package["sideEffects"], false);
        assert_eq!(package["exports"]["."]["default"], "./index.js");
    }

    #[test]
    fn a_bundle_gets_no_modules() {
        let spec = spec(r#"(name: "a", duration: 0.1, motion: Gravity(from: 0, acceleration: 1))"#);
        let baked = curvebake_model::bake::bake(&spec).unwrap();
        let settings = ExportSettings::default();
        assert_eq!(
            Js::new(Layout::Bundle, &settings).motion(&baked, &[], &New),
            MotionOutput::default()
        );
        assert!(Js::new(Layout::Bundle, &settings).summary(&[]).is_empty());
        let js = Js::new(Layout::PerMotion, &settings);
        let files = js.motion(&baked, &[], &New).files;
        let paths: Vec<_> = js.shape().files.iter().map(|f| f.of("a")).collect();
        assert_eq!(paths, ["js/a.js", "js/a.d.ts"]);
        assert_eq!(files.len(), paths.len());
        let summary: Vec<_> = js.summary(&[]).into_iter().map(|f| f.path).collect();
        assert_eq!(
            summary,
            [
                PACKAGE_PATH,
                MOTION_TYPES_PATH,
                INDEX_PATH,
                INDEX_TYPES_PATH,
                RUNTIME_PATH
            ]
        );
    }
}
