//! ES modules for the Web Animations API: `js/<name>.js` per motion, with its types in
//! `js/<name>.d.ts`. Per-motion layout only: with `--bundle` this format writes nothing.
//!
//! A module exports the keyframes (`element.animate(keyframes, timing)` plays the motion as
//! baked: one keyframe per frame, `offset` = t/D, linear in between), the position table per
//! track as a `Float32Array`, the duration in seconds and milliseconds and the frame rate.
//! Custom properties (a `--name` property, or a ring's `--<name>-inner` and
//! `--<name>-outer`) only interpolate once registered, so the module registers them with
//! `CSS.registerProperty` when it is imported; a property that is already registered (by
//! another import, or by an `@property` rule of the same name in the stylesheet) is left as
//! it is.
//!
//! Keyframe values are written with [`write_fixed`] (like the CSS exporter), table values
//! with [`write_json_f64`] (shortest round trip, like the JSON tables).

use super::css::{css_unit, syntax, value_precision};
use super::{Buffers, Exporter, FilePath, Format, Layout, MotionOutput, Shape, Summary};
use crate::bake::Baked;
use crate::export::number::{write_fixed, write_json_f64};
use crate::spec::{Model, Property};

/// Fewest decimals of keyframe offsets.
pub const OFFSET_DECIMALS: u32 = 6;
/// Offsets get enough decimals that rounding moves no keyframe by more than this many
/// seconds: at 5000 px/s that is 0.0005 px, far below the 0.01 px rest distance.
pub const OFFSET_MAX_SHIFT: f64 = 1e-7;

/// The ES module exporter.
#[derive(Debug, Clone)]
pub struct Js {
    shape: Shape,
}

impl Js {
    /// The exporter for `layout`: a module and its types per motion, nothing with `--bundle`.
    pub fn new(layout: Layout) -> Self {
        let files: &[FilePath] = match layout {
            Layout::PerMotion => &[MODULE, TYPES],
            Layout::Bundle => &[],
        };
        Self {
            shape: Shape {
                files,
                bundle: None,
                summary: Summary::None,
            },
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

/// Path of one motion's module.
pub fn module_path(name: &str) -> String {
    MODULE.of(name)
}

/// Path of one motion's type declarations.
pub fn types_path(name: &str) -> String {
    TYPES.of(name)
}

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
}

/// The keyframe target of each track, in track order.
fn targets(baked: &Baked) -> Vec<Target> {
    let spec = baked.spec;
    if let Model::Ring(_) = spec.model {
        return baked
            .tracks
            .iter()
            .map(|t| Target::Custom(format!("--{}-{}", spec.name, t.name)))
            .collect();
    }
    let target = match &spec.property {
        Property::TranslateX => Target::Transform("translate: \""),
        Property::TranslateY => Target::Transform("translate: \"0 "),
        Property::Scale => Target::Transform("scale: \""),
        Property::Rotate => Target::Transform("rotate: \""),
        Property::Opacity => Target::Opacity,
        Property::Custom(name) => Target::Custom(name.clone()),
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
pub fn custom_properties(baked: &Baked) -> Vec<CustomProperty> {
    let (syntax, initial_value) = syntax(css_unit(baked).1);
    targets(baked)
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

/// Appends one keyframe: `{offset: 0.5, translate: "12.3456px"}`.
fn keyframe(out: &mut Vec<u8>, baked: &Baked, targets: &[Target], i: usize, decimals: (u32, u32)) {
    let (offset_decimals, value_decimals) = decimals;
    let unit = value_unit(baked).as_bytes();
    out.extend_from_slice(b"{offset: ");
    let last = baked.frames() - 1;
    // The last frame is at D exactly; say 1 rather than trusting D/D.
    let offset = if i == last {
        1.0
    } else {
        baked.time(i) / baked.duration
    };
    write_fixed(out, offset, offset_decimals);
    for (track, target) in baked.tracks.iter().zip(targets) {
        let x = track.position[i];
        out.extend_from_slice(b", ");
        match target {
            Target::Transform(before) => {
                out.extend_from_slice(before.as_bytes());
                write_fixed(out, x, value_decimals);
                out.extend_from_slice(unit);
                out.push(b'"');
            }
            Target::Opacity => {
                out.extend_from_slice(b"opacity: \"");
                write_fixed(out, x, value_decimals);
                out.push(b'"');
            }
            Target::Custom(name) => {
                string(out, name);
                out.extend_from_slice(b": \"");
                write_fixed(out, x, value_decimals);
                out.extend_from_slice(unit);
                out.push(b'"');
            }
        }
    }
    out.push(b'}');
}

/// Bytes of the module text outside the per-frame parts, with room to spare, not counting
/// the names it repeats.
const FIXED_TEXT: usize = 4096;
/// Longest shortest-round-trip double, as [`write_json_f64`] writes it:
/// `-1.2345678901234567e-308`.
const JSON_F64_LEN: usize = 24;

/// Longest text [`write_fixed`] writes for a value with |x| <= `max_abs`: sign, integer
/// digits (one more than log10 gives, should rounding carry), point and decimals.
fn fixed_len(max_abs: f64, decimals: u32) -> usize {
    let digits = if max_abs < 1.0 {
        1
    } else {
        max_abs.log10().floor() as usize + 2
    };
    2 + digits + decimals as usize
}

/// An upper bound on the module's length, so that its buffer is allocated once: per motion,
/// never per frame.
fn module_capacity(baked: &Baked, targets: &[Target], unit: &str, decimals: (u32, u32)) -> usize {
    let mut keyframe = "{offset: }, \n".len() + fixed_len(1.0, decimals.0);
    for (track, target) in baked.tracks.iter().zip(targets) {
        let max_abs = track.position.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let key = match target {
            Target::Transform(before) => before.len() + 1,
            Target::Opacity => "opacity: \"\"".len(),
            Target::Custom(name) => name.len() + "\"\": \"\"".len(),
        };
        keyframe += ", ".len() + key + fixed_len(max_abs, decimals.1) + unit.len();
    }
    let table = baked.tracks.len() * (JSON_F64_LEN + 1);
    let names = 8 * (baked.spec.name.len() + baked.spec.property.name().len());
    FIXED_TEXT + names + baked.frames() * (keyframe + table)
}

/// The module text of one motion.
pub fn module(baked: &Baked) -> Vec<u8> {
    let spec = baked.spec;
    let frames = baked.frames();
    let targets = targets(baked);
    let unit = value_unit(baked);
    let decimals = (offset_decimals(baked.duration), value_decimals(unit));
    let mut out = Vec::with_capacity(module_capacity(baked, &targets, unit, decimals));
    let line = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(s.as_bytes());
        out.push(b'\n');
    };
    out.extend_from_slice(b"// ");
    out.extend_from_slice(spec.name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(spec.model.kind().as_bytes());
    out.extend_from_slice(b" on ");
    out.extend_from_slice(spec.property.name().as_bytes());
    out.extend_from_slice(format!(", {frames} frames").as_bytes());
    out.push(b'\n');
    line(
        &mut out,
        "// Generated by curvebake: do not edit; edit the curve file and bake again.\n\
         // Play it with `element.animate(keyframes, timing)` or `animate(element)`.\n",
    );
    let constant = |out: &mut Vec<u8>, doc: &str, name: &str, value: &dyn Fn(&mut Vec<u8>)| {
        out.extend_from_slice(b"/** ");
        out.extend_from_slice(doc.as_bytes());
        out.extend_from_slice(b" */\nexport const ");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" = ");
        value(out);
        out.extend_from_slice(b";\n");
    };
    constant(&mut out, "Motion name.", "name", &|o| string(o, &spec.name));
    constant(
        &mut out,
        "Motion kind: spring, friction, gravity, decay or explosion-ring.",
        "kind",
        &|o| string(o, spec.model.kind()),
    );
    constant(
        &mut out,
        "The property as written in the curve file (a ring animates `customProperties`).",
        "property",
        &|o| string(o, spec.property.name()),
    );
    constant(
        &mut out,
        "Unit of the keyframe values (may be empty; a ring's radii are lengths, px by default).",
        "unit",
        &|o| string(o, unit),
    );
    constant(&mut out, "Frames per second.", "fps", &|o| {
        write_json_f64(o, spec.fps)
    });
    constant(&mut out, "Duration in seconds.", "duration", &|o| {
        write_json_f64(o, baked.duration)
    });
    constant(&mut out, "Duration in milliseconds.", "durationMs", &|o| {
        write_json_f64(o, baked.duration * 1000.0)
    });
    constant(
        &mut out,
        "The motion's progress as a CSS `linear()` easing (for transitions between any two \
         values), or null for a motion without an end value.",
        "easing",
        &|o| match super::css::motion_easing(baked, &super::ExportSettings::default()) {
            Some(text) => string(o, std::str::from_utf8(&text).expect("ASCII")),
            None => o.extend_from_slice(b"null"),
        },
    );
    constant(
        &mut out,
        "What `prefers-reduced-motion: reduce` does: jump, fade or keep.",
        "reducedMotion",
        &|o| string(o, spec.reduced_motion.name()),
    );
    constant(
        &mut out,
        "Frame count: frame i is at min(i / fps, duration) seconds.",
        "frames",
        &|o| o.extend_from_slice(frames.to_string().as_bytes()),
    );
    constant(
        &mut out,
        "Custom properties the keyframes animate, as given to CSS.registerProperty.",
        "customProperties",
        &|o| {
            o.push(b'[');
            for (i, p) in custom_properties(baked).iter().enumerate() {
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
    line(
        &mut out,
        "/** Position per frame, per track (`value`; `inner` and `outer` for a ring). */",
    );
    line(&mut out, "export const tracks = {");
    for track in &baked.tracks {
        out.extend_from_slice(b"  ");
        out.extend_from_slice(track.name.as_bytes());
        out.extend_from_slice(b": new Float32Array([");
        for (i, &x) in track.position.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_json_f64(&mut out, x);
        }
        out.extend_from_slice(b"]),\n");
    }
    line(&mut out, "};");
    line(
        &mut out,
        "/** Web Animations API keyframes: one per frame, linear in between. */",
    );
    line(&mut out, "export const keyframes = [");
    for i in 0..frames {
        keyframe(&mut out, baked, &targets, i, decimals);
        out.extend_from_slice(b",\n");
    }
    line(&mut out, "];");
    line(
        &mut out,
        "/** Timing that plays the keyframes as baked, holding the first and last frame. */\n\
         export const timing = {duration: durationMs, easing: \"linear\", fill: \"both\"};\n\
         \n\
         /** Registers `customProperties`; a property already registered is left as it is. */\n\
         export function registerProperties() {\n\
         \x20 if (typeof CSS === \"undefined\" || typeof CSS.registerProperty !== \"function\") return;\n\
         \x20 for (const p of customProperties) {\n\
         \x20   try {\n\
         \x20     CSS.registerProperty(p);\n\
         \x20   } catch (e) {\n\
         \x20     if (!(e && e.name === \"InvalidModificationError\")) throw e;\n\
         \x20   }\n\
         \x20 }\n\
         }\n\
         registerProperties();\n\
         \n\
         /** Plays the motion on `element`; `options` add to or override `timing`. Under\n\
         \x20* `prefers-reduced-motion: reduce` it follows `reducedMotion`: \"jump\" shows the end at\n\
         \x20* once (duration 0), \"fade\" does that and fades the element in, \"keep\" plays it as is. */\n\
         export function animate(element, options) {\n\
         \x20 const reduce = reducedMotion !== \"keep\" && typeof matchMedia === \"function\" &&\n\
         \x20   matchMedia(\"(prefers-reduced-motion: reduce)\").matches;\n\
         \x20 if (!reduce) return element.animate(keyframes, {...timing, ...options});\n\
         \x20 const a = element.animate(keyframes, {...timing, ...options, duration: 0});\n\
         \x20 if (reducedMotion === \"fade\") element.animate({opacity: [0, 1]}, {duration: 200, easing: \"ease-out\"});\n\
         \x20 return a;\n\
         }\n\
         \n\
         export default {name, kind, property, unit, fps, duration, durationMs, frames, \
         customProperties, tracks, keyframes, timing, easing, reducedMotion, registerProperties, animate};",
    );
    out
}

/// The type declarations of one motion's module.
pub fn types(baked: &Baked) -> Vec<u8> {
    let spec = baked.spec;
    let mut out = Vec::with_capacity(2048);
    let literal = |s: &str| serde_json::to_string(s).expect("a string serializes");
    let tracks: Vec<String> = baked
        .tracks
        .iter()
        .map(|t| format!("readonly {}: Float32Array", t.name))
        .collect();
    let text = format!(
        "// Types of {name}.js, generated by curvebake.\n\
         \n\
         /** A custom property the keyframes animate, as given to CSS.registerProperty. */\n\
         export interface CustomProperty {{\n\
         \x20 readonly name: string;\n\
         \x20 readonly syntax: string;\n\
         \x20 readonly inherits: false;\n\
         \x20 readonly initialValue: string;\n\
         }}\n\
         \n\
         /** Motion name. */\n\
         export declare const name: {name_literal};\n\
         /** Motion kind. */\n\
         export declare const kind: {kind};\n\
         /** The property as written in the curve file. */\n\
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
         export declare const easing: string | null;\n\
         /** What `prefers-reduced-motion: reduce` does in `animate()`. */\n\
         export declare const reducedMotion: \"jump\" | \"fade\" | \"keep\";\n\
         /** Custom properties the keyframes animate. */\n\
         export declare const customProperties: readonly CustomProperty[];\n\
         /** Position per frame, per track. */\n\
         export declare const tracks: {{ {tracks} }};\n\
         /** Web Animations API keyframes: one per frame, linear in between. */\n\
         export declare const keyframes: Keyframe[];\n\
         /** Timing that plays the keyframes as baked. */\n\
         export declare const timing: {{ readonly duration: number; readonly easing: \"linear\"; readonly fill: \"both\" }};\n\
         /** Registers `customProperties`; a property already registered is left as it is. */\n\
         export declare function registerProperties(): void;\n\
         /** Plays the motion on `element`; `options` add to or override `timing`. */\n\
         export declare function animate(element: Element, options?: KeyframeAnimationOptions): Animation;\n\
         \n\
         declare const motion: {{\n\
         \x20 readonly name: typeof name;\n\
         \x20 readonly kind: typeof kind;\n\
         \x20 readonly property: typeof property;\n\
         \x20 readonly unit: typeof unit;\n\
         \x20 readonly fps: number;\n\
         \x20 readonly duration: number;\n\
         \x20 readonly durationMs: number;\n\
         \x20 readonly frames: number;\n\
         \x20 readonly customProperties: typeof customProperties;\n\
         \x20 readonly tracks: typeof tracks;\n\
         \x20 readonly keyframes: typeof keyframes;\n\
         \x20 readonly timing: typeof timing;\n\
         \x20 readonly easing: typeof easing;\n\
         \x20 readonly reducedMotion: typeof reducedMotion;\n\
         \x20 readonly registerProperties: typeof registerProperties;\n\
         \x20 readonly animate: typeof animate;\n\
         }};\n\
         export default motion;\n",
        name = spec.name,
        name_literal = literal(&spec.name),
        kind = literal(spec.model.kind()),
        property = literal(spec.property.name()),
        unit = literal(value_unit(baked)),
        tracks = tracks.join("; "),
    );
    out.extend_from_slice(text.as_bytes());
    out
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
        MotionOutput {
            files: vec![module(baked), types(baked)],
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::New;
    use crate::input::load::parse_bytes;
    use crate::spec::{MotionSpec, Overrides};
    use std::path::Path;

    fn spec(ron: &str) -> MotionSpec {
        let file = &parse_bytes(Path::new("t.ron"), ron.as_bytes()).unwrap()[0];
        MotionSpec::from_file(file, Overrides::default()).unwrap()
    }

    fn text(ron: &str) -> String {
        let spec = spec(ron);
        let baked = crate::bake::bake(&spec).unwrap();
        String::from_utf8(module(&baked)).unwrap()
    }

    #[test]
    fn a_translate_has_one_keyframe_per_frame_from_offset_0_to_1() {
        let js = text(
            r#"(name: "slide", duration: 0.05, motion: Gravity(from: 0, velocity: 100, acceleration: 0))"#,
        );
        assert!(js.contains("{offset: 0, translate: \"0px\"},\n"), "{js}");
        assert!(js.contains("{offset: 0.333333, translate: \"1.6667px\"},\n"));
        assert!(js.contains("{offset: 1, translate: \"5px\"},\n"));
        assert!(js.contains("export const frames = 4;"));
        assert!(js.contains("export const durationMs = 50.0;"), "{js}");
        assert!(js
            .contains("value: new Float32Array([0.0,1.6666666666666667,3.3333333333333335,5.0]),"));
        assert!(js.contains("export const customProperties = [];"));
    }

    #[test]
    fn a_ring_animates_and_registers_two_custom_properties() {
        let js = text(
            r#"(name: "boom", duration: 0.1, motion: ExplosionRing(inner: (from: 0, to: 10, end_velocity: 1), outer: (from: 1, to: 20, end_velocity: 1)))"#,
        );
        assert!(js.contains(r#"export const customProperties = [{name: "--boom-inner", syntax: "<length>", inherits: false, initialValue: "0px"}, {name: "--boom-outer", syntax: "<length>", inherits: false, initialValue: "0px"}];"#), "{js}");
        assert!(js.contains(r#"{offset: 1, "--boom-inner": "10px", "--boom-outer": "20px"}"#));
        assert!(js.contains("  inner: new Float32Array(["));
        assert!(js.contains("  outer: new Float32Array(["));
    }

    #[test]
    fn unitless_values_keep_six_decimals_and_opacity_is_a_plain_number() {
        let js = text(
            r#"(name: "fade", property: "opacity", duration: 0.3, motion: Decay(from: 0, to: 1, end_velocity: 0.5))"#,
        );
        assert!(js.contains("{offset: 1, opacity: \"1\"}"), "{js}");
        let k = js
            .lines()
            .find(|l| l.starts_with("{offset: 0.0555556,"))
            .unwrap();
        let value = k.split('"').nth(1).unwrap();
        assert_eq!(value.split('.').nth(1).unwrap().len(), 6, "{k}");
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
    fn a_ring_without_a_length_unit_is_in_px_and_large_units_get_six_decimals() {
        let js = text(
            r#"(name: "dots", property: "scale", duration: 0.1, motion: ExplosionRing(inner: (from: 0, to: 1, end_velocity: 1), outer: (from: 0.5, to: 2, end_velocity: 1)))"#,
        );
        assert!(js.contains(r#"syntax: "<length>", inherits: false, initialValue: "0px"}"#));
        assert!(js.contains(r#"{offset: 1, "--dots-inner": "1px", "--dots-outer": "2px"}"#));
        assert!(js.contains("export const unit = \"px\";"), "{js}");
        let js = text(
            r#"(name: "spin", property: "rotate", unit: "turn", duration: 0.1, motion: Gravity(from: 0, velocity: 1, acceleration: 0))"#,
        );
        assert!(js.contains("rotate: \"0.016667turn\"}"), "{js}");
    }

    #[test]
    fn the_module_buffer_is_allocated_once() {
        for ron in [
            r#"(name: "a", duration: 2, motion: Gravity(from: 0, velocity: 5e8, acceleration: -2e8))"#,
            r#"(name: "b", property: "--a-rather-long-custom-property-name-for-the-test", duration: 1, motion: Decay(from: -1e-300, velocity: 1e-290, lambda: 1))"#,
            r#"(name: "c-name-that-is-rather-long-as-well-to-stretch-the-ring-keys", fps: 1000, duration: 1, motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15)))"#,
            r#"(name: "d", property: "opacity", fps: 1000, duration: 5, motion: Decay(from: 0, to: 1, end_velocity: 0.5))"#,
        ] {
            let spec = spec(ron);
            let baked = crate::bake::bake(&spec).unwrap();
            let unit = value_unit(&baked);
            let decimals = (offset_decimals(baked.duration), value_decimals(unit));
            let bound = module_capacity(&baked, &targets(&baked), unit, decimals);
            let len = module(&baked).len();
            assert!(len <= bound, "{}: {len} bytes > {bound}", spec.name);
        }
    }

    #[test]
    fn a_bundle_gets_no_modules() {
        let spec = spec(r#"(name: "a", duration: 0.1, motion: Gravity(from: 0, acceleration: 1))"#);
        let baked = crate::bake::bake(&spec).unwrap();
        assert_eq!(
            Js::new(Layout::Bundle).motion(&baked, &[], &New),
            MotionOutput::default()
        );
        let js = Js::new(Layout::PerMotion);
        let files = js.motion(&baked, &[], &New).files;
        let paths: Vec<_> = js.shape().files.iter().map(|f| f.of("a")).collect();
        assert_eq!(paths, ["js/a.js", "js/a.d.ts"]);
        assert_eq!(files.len(), paths.len());
    }
}
