//! One motion's ES module (`js/<name>.js`): its constants, the keyframes fitted to the motion
//! ([`fit`](crate::fit)), the position and velocity tables, `joins` and `valueAt`, the
//! registration of its custom properties, `animate` and, for a motion that plays with input,
//! `play` ([`play`](super::play)).

use super::play;
use crate::css::{
    clamped_opacity_warning, coarser_tolerance_warning, css_unit, curves, easing_endpoints,
    easing_into, ends_neutral, fit_memory, keyframes_into, stops_estimate, syntax, value_precision,
    write_linear,
};
use crate::fit::{self, Fit};
use crate::joins;
use crate::settings::ExportSettings;
use curvebake_model::bake::Baked;
use curvebake_model::number::{json_text, max_fixed_len, write_json_f64, write_list};
use curvebake_model::spec::{Model, Property};

/// Fewest decimals of keyframe offsets.
pub const OFFSET_DECIMALS: u32 = 6;
/// Offsets get enough decimals that rounding moves no keyframe by more than this many
/// seconds: at 5000 px/s that is 0.0005 px, far below the 0.01 px precision target.
pub const OFFSET_MAX_SHIFT: f64 = 1e-7;

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
pub(super) enum Target {
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
    let needed = libm::log10(0.5 * duration / OFFSET_MAX_SHIFT).ceil();
    // A duration is finite and positive; 17 decimals are beyond what a double holds anyway.
    needed.clamp(f64::from(OFFSET_DECIMALS), 17.0) as u32
}

pub(super) fn string(out: &mut Vec<u8>, s: &str) {
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
pub(super) fn fitted_module(baked: &Baked, settings: &ExportSettings) -> (Vec<u8>, Vec<String>) {
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
    out.extend_from_slice(include_str!("register.js").as_bytes());
    if registers {
        out.extend_from_slice(include_str!("registered.js").as_bytes());
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
    out.extend_from_slice(include_str!("animate.js").as_bytes());
    out.extend_from_slice(&play);
    let overrun = (keyframes.overrun || easing_overrun.get()).then(|| {
        fit::overrun_warning(
            "module's keyframes",
            keyframes.len(),
            fit::MAX_STOPS,
            baked.frames(),
        )
    });
    let warnings = overrun
        .into_iter()
        .chain(coarser_tolerance_warning(&curves))
        .chain(clamped_opacity_warning(baked, &curves));
    (out, warnings.collect())
}

/// The fill of `timing`: the CSS class's ([`ends_neutral`]).
pub(super) fn fill(baked: &Baked) -> &'static str {
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
const VALUE_AT: &str = include_str!("value_at.js");

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

#[cfg(test)]
mod tests {
    use super::*;
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
        let animate = include_str!("animate.js");
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
}
