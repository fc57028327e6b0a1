//! CSS: `css/<name>.css` per motion and `curves.css` with every motion in input order (with
//! `--bundle`, only `curves.css`).
//!
//! Each motion becomes (see [`property_css`], written once per animated property):
//!
//! * `--<name>-duration` on `:root`, and for a motion that travels from one value to another
//!   ([`Model::endpoints`]) and ends there, `--<name>-easing`: a CSS `linear()` easing of the
//!   progress `(x - from) / (to - from)` over `t / D`, overshoot included (written by
//!   the `easing` module). (A `duration` that cuts a motion short of `to` leaves the easing out: a
//!   transition always ends on its end value, so it would jump at the end.)
//! * `@keyframes <name>`: for a motion with an easing, two stops (`from`, `to`) that the
//!   easing times; for any other (and rings), one stop per kept frame, timed `linear`.
//!   Keyframes declare the individual properties `translate`, `scale` and `rotate` (never
//!   `transform`, so motions combine with each other and with the element's own transform),
//!   `opacity` or a custom property.
//! * Every join of a motion's closed forms (a sequence's hand-off, an inertia's bound hit, the
//!   end of a track that stops before the others: [`Model::joins`]) is a stop of its own, at
//!   its exact time and with the closed form's value there, in the easing and in per-frame
//!   keyframes alike, and no tolerance drops it (the `timeline` module): between two frames
//!   the curve would otherwise show their chord at the join, not the hand-off.
//! * A ready class `.<name> { animation: <name> var(--<name>-duration) <easing> <fill>; }`:
//!   fill `backwards` for a motion that ends at its property's neutral value (afterwards the
//!   element's own value applies), `both` otherwise.
//! * For a custom property, an `@property` registration (syntax from the unit, `inherits:
//!   false`, a zero initial value) so that browsers interpolate it.
//! * For an explosion ring, registered `--<name>-inner` and `--<name>-outer` animated in one
//!   `@keyframes`, and a class that draws the band between them as a `radial-gradient` border
//!   image centred on the element, outside its box as ink overflow (which never scrolls the
//!   page); it ends with the radii back at 0 (nothing drawn).
//!
//! # Digits
//!
//! Every number goes through [`write_fixed`] (exact rounding, no `-0`, no exponent). The
//! digits are decided per motion from its numbers:
//!
//! * Values: 4 decimals for px, %, deg, pt, mm and grad, whose precision target is 0.01 unit;
//!   6 decimals for unitless values and the larger units (em, rem, vw, turn, ...), whose
//!   target is 0.0001 unit. Rounding then costs 1/200 of the target.
//! * Times: a stop that is off by δ seconds moves the curve by up to `slope · δ`, so the
//!   timing error budget is `δ = min(0.05 ms, target / (10 · max slope))`, half of it for the
//!   stop offsets (`100 · t_i / D` percent, with decimals also enough to keep consecutive
//!   stops apart) and half for the duration `D`. Offsets get at most 12 decimals; stops that
//!   still coincide (a last frame interval under 10⁻¹⁴ of `D`) keep the later frame.
//! * `linear()` progress values: enough decimals that `|to - from|` times their rounding
//!   stays within a quarter of the precision target; a stop's input is written only where
//!   even spacing does not imply it.
//!
//! # Tolerance
//!
//! With `--css-tolerance X` the fewest stops are kept (a shortest path over all segments that
//! stay within the tolerance, exact for every frame, not just the ones a Ramer-Douglas-Peucker
//! recursion looks at; a greedy furthest reach past a work limit) such that linear
//! interpolation between kept stops stays within `X` of every baked frame (and join) of every
//! track, after the rounding and timing error budgets above are taken off `X`; every join is
//! kept, and no segment passes over one. The `linear()` easing keeps the same frames: its
//! error in progress is the value error divided by `|to - from|`. A track whose table goes
//! past `to` while its kept stops do not is warned about (its overshoot is lost), naming the
//! track in a multi-track motion.
//!
//! Nothing reaches the CSS but fixed text, validated names (`spec::check_name`), units from
//! the fixed list of [`unit_kind`] and formatted numbers.

use crate::easing;
use crate::exporter::{Buffers, Bundle, Exporter, FilePath, MotionOutput, Shape, Summary};
use crate::settings::{ExportSettings, Format, Layout};
use crate::timeline::Timeline;
use curvebake_model::bake::Baked;
use curvebake_model::number::{format_number, max_fixed_len, write_fixed, FIXED_SCRATCH};
use curvebake_model::spec::{
    unit_kind, Model, MotionSpec, Property, ReducedMotion, UnitKind, REDUCED_FADE_SECONDS,
};
use curvebake_motion::Motion;
use std::cell::RefCell;

/// Path of the file with every motion.
pub const BUNDLE_PATH: &str = "curves.css";

/// First bytes of [`BUNDLE_PATH`].
const BUNDLE_HEADER: &[u8] =
    b"/* curvebake: every motion, in input order. Generated; do not edit. */\n\n";

/// Longest time a stop may be off by (the offset and duration budgets together), in seconds.
const MAX_TIMING_ERROR: f64 = 5e-5;

/// Most decimals of a stop offset (percent) or a duration (seconds).
const MAX_TIME_DECIMALS: u32 = 12;

/// Cone steps the fewest-stops search may take per motion before it falls back to the greedy
/// furthest reach (which keeps the tolerance, with maybe a few more stops).
const FEWEST_STOPS_WORK: usize = 16_000_000;

/// Where one motion's CSS goes.
const FILE: FilePath = FilePath {
    folder: "css",
    suffix: ".css",
};

/// Path of one motion's CSS.
pub fn file_path(name: &str) -> String {
    FILE.of(name)
}

/// The CSS exporter.
#[derive(Debug, Clone)]
pub struct Css {
    settings: ExportSettings,
    shape: Shape,
}

impl Css {
    /// An exporter for `layout` with these settings: `curves.css` in both layouts, and a file
    /// per motion in the per-motion layout.
    pub fn new(layout: Layout, settings: &ExportSettings) -> Self {
        let files: &[FilePath] = match layout {
            Layout::PerMotion => &[FILE],
            Layout::Bundle => &[],
        };
        Self {
            settings: settings.clone(),
            shape: Shape {
                files,
                bundle: Some(Bundle {
                    path: BUNDLE_PATH.into(),
                    header: BUNDLE_HEADER.to_vec(),
                    separator: b"\n".to_vec(),
                    footer: Vec::new(),
                }),
                summary: Summary::None,
                summaries: &[],
            },
        }
    }
}

impl Exporter for Css {
    fn format(&self) -> Format {
        Format::Css
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, _: &[String], buffers: &dyn Buffers) -> MotionOutput {
        // Sized once for the keyframes and the easing, so formatting never grows it per frame.
        let mut bytes = buffers
            .buffer(CAPACITY_BASE + baked.frames() * CAPACITY_PER_FRAME * baked.tracks.len());
        let written = motion_css(baked, &self.settings, &mut bytes);
        // The motion's own file (if it has one) holds the same bytes as its chunk.
        let files = (self.shape.files.iter())
            .map(|_| {
                let mut file = buffers.buffer(bytes.len());
                file.extend_from_slice(&bytes);
                file
            })
            .collect();
        MotionOutput {
            files,
            chunk: Some(bytes),
            stats: vec![
                // A multi-track motion writes each track's stops.
                ("css_stops_before", written.points as u64),
                ("css_stops_after", written.stops as u64),
            ],
            warnings: written.lost.iter().map(LostOvershoot::warning).collect(),
        }
    }
}

/// Bytes reserved per motion besides its frames (comment, class, registrations).
const CAPACITY_BASE: usize = 2048;
/// Bytes reserved per frame and track: a keyframe stop (at most about 70 bytes) and a
/// `linear()` point (about 25).
const CAPACITY_PER_FRAME: usize = 112;

/// Precision target (in the unit) and value decimals for a unit: 0.01 unit for px, %, deg,
/// pt, mm and grad, with 4 decimals (rounding costs 1/200 of it); 0.0001 for unitless values
/// and larger units (em, rem, vw, turn, ...), with 6. The JS exporter writes the same digits.
pub(crate) fn value_precision(unit: &str) -> (f64, u32) {
    match unit {
        "px" | "%" | "deg" | "pt" | "mm" | "grad" => (0.01, 4),
        _ => (1e-4, 6),
    }
}

/// `@property` syntax and initial value for values of a unit kind. The initial value must be
/// computationally independent, so a length starts at `0px` whatever its unit (`0em` would
/// make the whole registration invalid).
pub(crate) fn syntax(kind: UnitKind) -> (&'static str, &'static str) {
    match kind {
        UnitKind::Number => ("<number>", "0"),
        UnitKind::Length => ("<length>", "0px"),
        UnitKind::Angle => ("<angle>", "0deg"),
        UnitKind::Percentage => ("<percentage>", "0%"),
    }
}

/// The unit the CSS is written in: the motion's own, except for a ring, whose radii are
/// lengths (a ring given no length unit is drawn in px).
pub(crate) fn css_unit<'a>(baked: &Baked<'a>) -> (&'a str, UnitKind) {
    let spec = baked.spec;
    let kind = unit_kind(&spec.unit).unwrap_or(UnitKind::Number);
    match (&spec.model, kind) {
        (Model::Ring(_), UnitKind::Length | UnitKind::Percentage) => (&spec.unit, kind),
        (Model::Ring(_), _) => ("px", UnitKind::Length),
        _ => (&spec.unit, kind),
    }
}

/// Smallest `k` in `0..=max` with `10^-k <= bound` (`max` if none).
fn decimals_for(bound: f64, max: u32) -> u32 {
    (0..max)
        .find(|&k| 10f64.powi(-(k as i32)) <= bound)
        .unwrap_or(max)
}

/// Largest `|x[i+1] - x[i]| / (t[i+1] - t[i])` over every track.
fn max_slope(times: &[f64], tracks: &[&[f64]]) -> f64 {
    let mut slope: f64 = 0.0;
    for x in tracks {
        for i in 1..times.len() {
            slope = slope.max((x[i] - x[i - 1]).abs() / (times[i] - times[i - 1]));
        }
    }
    slope
}

/// How one CSS property's value is declared in a keyframe: the text before the number and
/// after it, and the value at which the property has no effect.
///
/// Transforms go to the individual properties `translate`, `scale` and `rotate`, never to
/// `transform`: a motion on one of them combines with motions on the others and with the
/// element's own `transform` (which the browser applies after them), during and after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Declaration {
    /// `translate: `, `translate: 0 `, `scale: `, `rotate: `, `opacity: ` or `--name: `.
    pub before: Vec<u8>,
    /// The unit (may be empty).
    pub after: Vec<u8>,
    /// The value at which the property leaves the element as it is: 0 for `translate`,
    /// `rotate` and a registered custom property (its initial value), 1 for `scale` and
    /// `opacity`. A motion that ends there hands the property back to the element's own
    /// value when it ends (fill `backwards`); any other holds its last value (fill `both`).
    pub neutral: f64,
}

impl Declaration {
    /// The declaration of `property`, valued in `unit`. `custom` is the name a custom
    /// property is written under (the prefixed `--name`).
    pub fn new(property: &Property, custom: &[u8], unit: &str) -> Self {
        let (before, neutral): (&[u8], f64) = match property {
            Property::TranslateX => (b"translate: ", 0.0),
            Property::TranslateY => (b"translate: 0 ", 0.0),
            Property::Scale => (b"scale: ", 1.0),
            Property::Rotate => (b"rotate: ", 0.0),
            Property::Opacity => (b"opacity: ", 1.0),
            Property::Custom(_) => return Self::custom(custom, unit),
        };
        Self {
            before: before.to_vec(),
            after: unit.as_bytes().to_vec(),
            neutral,
        }
    }

    /// A registered custom property `--name` (its initial value, 0, is neutral).
    pub fn custom(name: &[u8], unit: &str) -> Self {
        Self {
            before: [name, b": "].concat(),
            after: unit.as_bytes().to_vec(),
            neutral: 0.0,
        }
    }
}

/// One animated property of a motion, as [`property_css`] writes it. A motion with several
/// tracks on different properties calls it once per track, each under its own name.
#[derive(Debug, Clone)]
pub struct PropertyTrack<'a> {
    /// The name of the keyframes, the class and the custom properties
    /// (`--<name>-duration`, `--<name>-easing`), prefix included.
    pub name: &'a [u8],
    /// What the keyframes declare.
    pub declaration: Declaration,
    /// Unit of the values (decides the precision target, see `value_precision`).
    pub unit: &'a str,
    /// Frame rate (frames are at `min(i / fps, duration)`).
    pub fps: f64,
    /// Frame times, seconds.
    pub times: &'a [f64],
    /// Bake length, seconds.
    pub duration: f64,
    /// The value at each frame.
    pub values: &'a [f64],
    /// `(T, x(T))` at each join of the track's closed forms, in time order (see the
    /// `timeline` module): each is a stop of its own, kept by any tolerance.
    pub joins: &'a [(f64, f64)],
    /// `(from, to)` when the track travels from one value to another and its last frame is
    /// `to`: it is then one progress curve, written as a `linear()` easing.
    pub endpoints: Option<(f64, f64)>,
    /// Largest distance (in the unit) the written curve may stray from a frame; 0 keeps every
    /// frame.
    pub tolerance: f64,
    /// Write per-frame keyframes even for a track with endpoints (for browsers without
    /// `linear()`).
    pub frame_keyframes: bool,
    /// What `prefers-reduced-motion: reduce` does.
    pub reduced_motion: ReducedMotion,
}

/// Fraction of a motion's range that bounds its CSS tolerance when neither the motion nor
/// the bake says otherwise: `--css-tolerance 0.05` keeps a scale from 0.94 to 1 within
/// 0.0003 (0.5 % of its range with overshoot), not 0.05, which would flatten it.
pub const DEFAULT_RELATIVE_TOLERANCE: f64 = 0.005;

/// The tolerance of a motion's CSS: `min(absolute, relative × range)`, the absolute one the
/// motion's `tolerance` or else the bake's `--css-tolerance`, the relative one its
/// `relative_tolerance` or else [`DEFAULT_RELATIVE_TOLERANCE`], and the range the spread of
/// every track's values (overshoot included).
pub fn tolerance(spec: &MotionSpec, settings: &ExportSettings, tracks: &[&[f64]]) -> f64 {
    let absolute = spec.tolerance.unwrap_or(settings.css_tolerance);
    let relative = spec
        .relative_tolerance
        .unwrap_or(DEFAULT_RELATIVE_TOLERANCE);
    let (lo, hi) = tracks
        .iter()
        .flat_map(|x| x.iter())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    absolute.min(relative * (hi - lo).max(0.0))
}

/// The digits of one track's numbers, decided from them (see the module documentation).
struct Digits {
    /// Precision target of a value, in the unit.
    target: f64,
    /// Decimals of values.
    value: u32,
    /// Longest a stop may be off in time, seconds (half of it for offsets, half for `D`).
    timing: f64,
    /// Decimals of the duration in seconds.
    duration: u32,
}

impl Digits {
    fn of(unit: &str, times: &[f64], tracks: &[&[f64]]) -> Self {
        let (target, value) = value_precision(unit);
        let slope = max_slope(times, tracks);
        let timing = if slope > 0.0 {
            MAX_TIMING_ERROR.min(target / (10.0 * slope))
        } else {
            MAX_TIMING_ERROR
        };
        Self {
            target,
            value,
            timing,
            duration: decimals_for(timing, MAX_TIME_DECIMALS),
        }
    }

    /// Error of a value's rounding to [`Digits::value`] decimals.
    fn rounding(&self) -> f64 {
        0.5 * 10f64.powi(-(self.value as i32))
    }

    /// What a tolerance leaves for dropping stops once rounding and timing are paid for.
    fn simplification(&self, tolerance: f64, rounding: f64) -> f64 {
        tolerance - rounding - self.target / 10.0
    }
}

/// Writes one motion's CSS; returns what it holds, over all its properties (for a motion
/// written as an easing, the stops are those of its `linear()`).
fn motion_css(baked: &Baked, settings: &ExportSettings, out: &mut Vec<u8>) -> Written {
    let spec = baked.spec;
    let global = settings.global_name(&spec.name);
    let name = global.as_bytes();
    let times: Vec<f64> = (0..baked.frames()).map(|i| baked.time(i)).collect();
    let (unit, kind) = css_unit(baked);

    // Header comment: name, kind, property, unit, frames.
    out.extend_from_slice(b"/* ");
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(spec.model.kind().as_bytes());
    if let Model::Ring(_) = spec.model {
        out.extend_from_slice(b" radii");
    } else {
        out.extend_from_slice(b" on ");
        match &spec.property {
            Property::Custom(custom) => {
                out.extend_from_slice(settings.custom_property(custom).as_bytes())
            }
            property => out.extend_from_slice(property.name().as_bytes()),
        }
    }
    if !unit.is_empty() {
        out.extend_from_slice(b" in ");
        out.extend_from_slice(unit.as_bytes());
    }
    out.extend_from_slice(b", ");
    out.extend_from_slice(itoa::Buffer::new().format(baked.frames()).as_bytes());
    out.extend_from_slice(b" frames at ");
    write_fixed(out, spec.fps, 6);
    out.extend_from_slice(b" fps */\n");

    let tracks: Vec<&[f64]> = baked.tracks.iter().map(|t| t.position.as_slice()).collect();
    let tolerance = tolerance(spec, settings, &tracks);
    if let Model::Ring(_) = spec.model {
        return Written {
            points: times.len(),
            stops: ring_css(baked, name, &times, tolerance, out),
            lost: Vec::new(),
        };
    }
    if let Model::Tracks(multi) = &spec.model {
        return tracks_css(baked, multi, &times, settings, out);
    }
    let custom = match &spec.property {
        Property::Custom(custom) => settings.custom_property(custom),
        _ => String::new(),
    };
    if !custom.is_empty() {
        register(out, custom.as_bytes(), kind);
    }
    let custom = custom.as_bytes();
    let values = baked.tracks[0].position.as_slice();
    let endpoints = easing_endpoints(baked);
    property_css(
        &PropertyTrack {
            name,
            declaration: Declaration::new(&spec.property, custom, unit),
            unit,
            fps: spec.fps,
            times: &times,
            duration: baked.duration,
            values,
            joins: &motion_joins(baked),
            endpoints,
            tolerance,
            frame_keyframes: settings.css_frames,
            reduced_motion: spec.reduced_motion,
        },
        out,
    )
}

/// The `(from, to)` of a single-track motion's easing: a motion from one value to another
/// (not a ring) whose last frame is `to` (within the rounding of its values). A transition
/// ends on its end value, so a bake cut short by a `duration` would jump at the end: it gets
/// no easing.
pub(crate) fn easing_endpoints(baked: &Baked) -> Option<(f64, f64)> {
    if let Model::Ring(_) = baked.spec.model {
        return None;
    }
    let (unit, _) = css_unit(baked);
    let values = baked.tracks[0].position.as_slice();
    let rounding = 0.5 * 10f64.powi(-(value_precision(unit).1 as i32));
    baked
        .spec
        .model
        .endpoints()
        .filter(|&(_, to)| (values[values.len() - 1] - to).abs() <= rounding)
}

/// The working memory of one animated property's CSS ([`property_css`], or a ring's), taken
/// once when it starts and sized by its frames: the frames chosen as stops (for its easing or
/// its keyframes) and the formatted offsets of per-frame keyframes. Choosing and writing its
/// stops then allocates nothing, so a property costs the same few allocations whatever its
/// frames, its stops and the way it is written (the offsets' memory is taken even for a
/// property written as an easing, which leaves it unused). Per-frame keyframes give the
/// memory their stops were made in to the stops the thread keeps for later motions.
#[derive(Debug)]
struct Memory {
    stops: StopsMemory,
    offsets: Stops,
}

impl Memory {
    /// Room for a property of `frames` frames whose CSS tolerance is `tolerance`.
    fn new(frames: usize, tolerance: f64) -> Self {
        Self {
            stops: StopsMemory::new(frames, tolerance),
            offsets: Stops::with_capacity(frames),
        }
    }
}

/// The CSS of a multi-track motion: each track through [`property_css`] under the name
/// `<name>-<property>` (its own duration and easing variables, keyframes and class), then one
/// class `.<name>` that plays every track. `translateX` and `translateY` together animate the
/// registered `--<name>-translateX` and `--<name>-translateY`, and the class sets
/// `translate: var(--<name>-translateX) var(--<name>-translateY)`: two animations of
/// `translate` would replace each other, while each variable keeps its own easing. What it
/// holds is every track's, each lost overshoot naming its track.
fn tracks_css(
    baked: &Baked,
    multi: &curvebake_model::spec::Tracks,
    times: &[f64],
    settings: &ExportSettings,
    out: &mut Vec<u8>,
) -> Written {
    let spec = baked.spec;
    // The class, keyframes and variables carry the prefix, as a single motion's do.
    let global = settings.global_name(&spec.name);
    let both_translates = [Property::TranslateX, Property::TranslateY]
        .iter()
        .all(|p| multi.tracks().iter().any(|t| &t.property == p));
    let mut written = Written::default();
    let mut animations: Vec<(Vec<u8>, bool, bool)> = Vec::new();
    let mut translate: Vec<Vec<u8>> = Vec::new();
    for (track, baked_track) in multi.tracks().iter().zip(&baked.tracks) {
        let name = format!("{global}-{}", track.property.name()).into_bytes();
        let values = baked_track.position.as_slice();
        let as_variable = both_translates
            && matches!(track.property, Property::TranslateX | Property::TranslateY);
        let declaration = if as_variable {
            let variable = [b"--".as_slice(), &name].concat();
            let kind = unit_kind(&track.unit).unwrap_or(UnitKind::Length);
            register(out, &variable, kind);
            translate.push(variable.clone());
            Declaration::custom(&variable, &track.unit)
        } else {
            Declaration::new(&track.property, b"", &track.unit)
        };
        let digits = Digits::of(&track.unit, times, &[values]);
        let rounding = digits.rounding();
        let endpoints = track
            .model
            .endpoints()
            .filter(|&(_, to)| (values[values.len() - 1] - to).abs() <= rounding);
        let neutral_end = (values[values.len() - 1] - declaration.neutral).abs() <= rounding;
        let tolerance = tolerance(spec, settings, &[values]);
        let track_written = property_css(
            &PropertyTrack {
                name: &name,
                declaration,
                unit: &track.unit,
                fps: spec.fps,
                times,
                duration: baked.duration,
                values,
                joins: &at_joins(track, &track.joins(baked.duration)),
                endpoints,
                tolerance,
                frame_keyframes: false,
                reduced_motion: spec.reduced_motion,
            },
            out,
        );
        written.add(track_written, &track.property);
        animations.push((name, endpoints.is_some(), neutral_end));
    }
    out.push(b'.');
    out.extend_from_slice(global.as_bytes());
    out.extend_from_slice(b" {\n");
    if !translate.is_empty() {
        out.extend_from_slice(b"  translate:");
        for variable in &translate {
            out.extend_from_slice(b" var(");
            out.extend_from_slice(variable);
            out.push(b')');
        }
        out.extend_from_slice(b";\n");
    }
    out.extend_from_slice(b"  animation:");
    for (i, (name, eased, neutral_end)) in animations.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        animation_item(out, name, *eased, *neutral_end);
    }
    out.extend_from_slice(b";\n}\n");
    written
}

/// Writes an `@property` registration: syntax from the unit kind, not inherited, zero.
fn register(out: &mut Vec<u8>, property: &[u8], kind: UnitKind) {
    let (syntax, initial) = syntax(kind);
    out.extend_from_slice(b"@property ");
    out.extend_from_slice(property);
    out.extend_from_slice(b" { syntax: '");
    out.extend_from_slice(syntax.as_bytes());
    out.extend_from_slice(b"'; inherits: false; initial-value: ");
    out.extend_from_slice(initial.as_bytes());
    out.extend_from_slice(b"; }\n");
}

/// How far `values` go past `to`, away from `from` (0 if they never do), over the frames
/// `at` (all frames if `None`).
fn overshoot(values: &[f64], (from, to): (f64, f64), at: Option<&[usize]>) -> f64 {
    let sign = if to >= from { 1.0 } else { -1.0 };
    let past = |x: f64| ((x - to) * sign).max(0.0);
    match at {
        Some(kept) => kept.iter().map(|&i| past(values[i])).fold(0.0, f64::max),
        None => values.iter().map(|&x| past(x)).fold(0.0, f64::max),
    }
}

/// What one motion's or property's CSS holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Written {
    /// The points its stops were chosen from: its frames and the joins inserted between
    /// them, per property.
    pub points: usize,
    /// The stops written (each easing's, or each per-frame keyframes').
    pub stops: usize,
    /// Each overshoot its tolerance removed.
    pub lost: Vec<LostOvershoot>,
}

impl Written {
    /// Adds what the CSS of a multi-track motion's track on `property` holds.
    fn add(&mut self, other: Written, property: &Property) {
        self.points += other.points;
        self.stops += other.stops;
        let named = other.lost.into_iter().map(|lost| LostOvershoot {
            track: Some(property.name().to_owned()),
            ..lost
        });
        self.lost.extend(named);
    }
}

/// An overshoot the tolerance took away: the table goes past `to` by `table` (in the unit),
/// the written curve by no more than its rounding.
#[derive(Debug, Clone, PartialEq)]
pub struct LostOvershoot {
    /// The property of the track it happened on, in a multi-track motion.
    pub track: Option<String>,
    /// How far the table goes past `to`.
    pub table: f64,
    /// The tolerance that allowed it.
    pub tolerance: f64,
}

impl LostOvershoot {
    /// The bake's warning: ``the CSS tolerance T removes its overshoot of X past `to`; ...``,
    /// after ``track `<property>`: `` on a track.
    pub fn warning(&self) -> String {
        let track = match &self.track {
            Some(property) => format!("track `{property}`: "),
            None => String::new(),
        };
        format!(
            "{track}the CSS tolerance {} removes its overshoot of {} past `to`; give it a \
             smaller `tolerance` or `relative_tolerance` to keep the bounce",
            format_number(self.tolerance),
            format_number(self.table),
        )
    }
}

/// Writes the CSS of one animated property: `--<name>-duration` (and for a track with
/// endpoints `--<name>-easing`) on `:root`, `@keyframes <name>` and the ready class `.<name>`;
/// returns what it holds ([`Written`]).
///
/// A track with endpoints is easing-first: `@keyframes` of two stops, `from` and `to`, timed
/// by the `linear()` easing of its progress, so that the curve is written once and the class
/// reads `var(--<name>-duration)` and `var(--<name>-easing)` (overriding either on an element
/// changes the class's animation there). Any other track (or with
/// [`PropertyTrack::frame_keyframes`]) gets a stop per kept frame and `linear` timing.
///
/// It also says whether its tolerance removed an overshoot: the table goes past `to` by more
/// than the values' rounding, and the kept stops (linear in between, so the curve peaks at a
/// stop) do not. A curve within the tolerance of every frame keeps any overshoot larger than
/// the tolerance, so what is lost is at most the tolerance: still the bounce a person sees.
pub fn property_css(track: &PropertyTrack, out: &mut Vec<u8>) -> Written {
    let name = track.name;
    let points = Points::new(
        track.unit,
        (track.times, track.duration),
        track.values,
        track.joins,
    );
    let (digits, timeline) = (&points.digits, &points.timeline);
    let easing = track.endpoints.filter(|_| !track.frame_keyframes);
    let last = track.values[track.values.len() - 1];
    let neutral_end = (last - track.declaration.neutral).abs() <= digits.rounding();
    let mut memory = Memory::new(timeline.len(), track.tolerance);

    out.extend_from_slice(b":root {\n  --");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration: ");
    write_fixed(out, track.duration, digits.duration);
    out.extend_from_slice(b"s;\n");
    let mut lost = None;
    let easing_stops = match track.endpoints {
        Some(endpoints) => {
            out.extend_from_slice(b"  --");
            out.extend_from_slice(name);
            out.extend_from_slice(b"-easing: ");
            let easing = Easing::of(&points, endpoints, track.tolerance, &mut memory.stops);
            easing.write(out);
            out.extend_from_slice(b";\n");
            let table = overshoot(&timeline.tracks[0], endpoints, None);
            let kept = overshoot(&timeline.tracks[0], endpoints, Some(easing.stops));
            if table > digits.rounding() && kept <= digits.rounding() {
                lost = Some(LostOvershoot {
                    track: None,
                    table,
                    tolerance: track.tolerance,
                });
            }
            easing.stops.len()
        }
        None => 0,
    };
    out.extend_from_slice(b"}\n");

    let written = if easing.is_some() {
        let from = track.values[0];
        out.extend_from_slice(b"@keyframes ");
        out.extend_from_slice(name);
        out.extend_from_slice(b" {\n");
        for (offset, x) in [(&b"from"[..], from), (b"to", last)] {
            out.extend_from_slice(b"  ");
            out.extend_from_slice(offset);
            out.extend_from_slice(b" { ");
            // A registered custom property with a var() in its keyframes stops interpolating
            // in Gecko (it animates discretely): its ends stay plain numbers.
            if track.declaration.before.starts_with(b"--") {
                declare(out, &track.declaration, x, digits.value);
            } else {
                declare_end(out, &track.declaration, (name, offset), x, digits.value);
            }
            out.extend_from_slice(b" }\n");
        }
        out.extend_from_slice(b"}\n");
        easing_stops
    } else {
        keep_stops(
            &timeline.times,
            &[&timeline.tracks[0]],
            digits.simplification(track.tolerance, digits.rounding()),
            &timeline.joins,
            &mut memory.stops,
        );
        frame_keyframes(
            out,
            name,
            &Clock {
                fps: track.fps,
                times: &timeline.times,
                duration: track.duration,
                added: &timeline.added,
            },
            &[(&timeline.tracks[0], &track.declaration)],
            &mut memory,
            digits,
        )
    };

    out.push(b'.');
    out.extend_from_slice(name);
    out.extend_from_slice(b" {\n");
    animation(out, name, easing.is_some(), neutral_end);
    out.extend_from_slice(b"}\n");
    reduced_motion(out, name, track.reduced_motion, neutral_end);
    Written {
        points: timeline.len(),
        stops: written,
        lost: lost.into_iter().collect(),
    }
}

/// Writes what `prefers-reduced-motion: reduce` does to the class `.<name>`:
///
/// * [`ReducedMotion::Jump`]: `--<name>-duration: 0s` on `:root`, so the class (and any
///   transition using the variable) shows the end at once; `animationend` still fires.
/// * [`ReducedMotion::Fade`]: the same jump, and `@keyframes <name>-fade` takes the element
///   from transparent to its own opacity in [`REDUCED_FADE_SECONDS`].
/// * [`ReducedMotion::Keep`]: nothing is written.
fn reduced_motion(out: &mut Vec<u8>, name: &[u8], policy: ReducedMotion, neutral_end: bool) {
    if policy == ReducedMotion::Keep {
        return;
    }
    if policy == ReducedMotion::Fade {
        out.extend_from_slice(b"@keyframes ");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-fade {\n  from { opacity: 0; }\n}\n");
    }
    out.extend_from_slice(b"@media (prefers-reduced-motion: reduce) {\n  :root { --");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration: 0s; }\n");
    if policy == ReducedMotion::Fade {
        out.extend_from_slice(b"  .");
        out.extend_from_slice(name);
        out.extend_from_slice(b" { animation: ");
        out.extend_from_slice(name);
        out.extend_from_slice(if neutral_end {
            b" 0s backwards, "
        } else {
            b" 0s both, "
        });
        out.extend_from_slice(name);
        out.extend_from_slice(b"-fade ");
        write_fixed(out, REDUCED_FADE_SECONDS, 3);
        out.extend_from_slice(b"s ease-out backwards; }\n");
    }
    out.extend_from_slice(b"}\n");
}

/// One property's points (its frames and joins, [`Timeline`]) and the digits of its
/// numbers, decided from its frames: what its easing and its keyframes are written from.
pub(crate) struct Points<'a> {
    timeline: Timeline<'a>,
    digits: Digits,
    /// Bake length `D`, seconds.
    duration: f64,
}

impl<'a> Points<'a> {
    /// The frames `(times, D)` and `values` of a property in `unit`, with its `joins`
    /// (`(T, x(T))`, in time order) merged in; a join within half the timing budget of a
    /// frame (the part of it a stop offset may use) marks that frame instead.
    fn new(
        unit: &str,
        (times, duration): (&'a [f64], f64),
        values: &'a [f64],
        joins: &[(f64, f64)],
    ) -> Self {
        let digits = Digits::of(unit, times, &[values]);
        let join_times: Vec<f64> = joins.iter().map(|&(t, _)| t).collect();
        let at = |_, j: usize| joins[j].1;
        Self {
            timeline: Timeline::new(times, &[values], &join_times, at, digits.timing / 2.0),
            digits,
            duration,
        }
    }

    /// Number of points (frames and inserted joins).
    pub fn len(&self) -> usize {
        self.timeline.len()
    }
}

/// The `(T, x(T))` of a single-track motion's joins ([`Model::joins`]), `x` its closed form.
fn motion_joins(baked: &Baked) -> Vec<(f64, f64)> {
    match baked.spec.model.single() {
        Some(motion) => at_joins(motion, &baked.spec.model.joins()),
        None => Vec::new(),
    }
}

/// `(T, x(T))` for each join time `T` of `motion`: its closed form at that exact time.
fn at_joins(motion: &dyn Motion, joins: &[f64]) -> Vec<(f64, f64)> {
    joins.iter().map(|&t| (t, motion.position(t))).collect()
}

/// The points of a single-track motion's CSS: its frames at `times` and its joins.
pub(crate) fn motion_points<'a>(baked: &'a Baked, times: &'a [f64]) -> Points<'a> {
    let (unit, _) = css_unit(baked);
    let values = baked.tracks[0].position.as_slice();
    Points::new(unit, (times, baked.duration), values, &motion_joins(baked))
}

/// The `linear()` easing of a track, its stops chosen: what `--<name>-easing` writes, and the
/// JS module's `easing`.
pub(crate) struct Easing<'a> {
    progress: easing::Progress,
    points: &'a Points<'a>,
    /// The points kept as its stops (every join among them).
    stops: &'a [usize],
}

impl<'a> Easing<'a> {
    /// The easing of the track of `points` from `endpoints.0` to `endpoints.1`, within
    /// `tolerance`; its stops are chosen in `memory`.
    fn of(
        points: &'a Points<'a>,
        endpoints: (f64, f64),
        tolerance: f64,
        memory: &'a mut StopsMemory,
    ) -> Self {
        let (digits, timeline) = (&points.digits, &points.timeline);
        let progress = easing::Progress::new(endpoints.0, endpoints.1, digits.target);
        let stops = keep_stops(
            &timeline.times,
            &[&timeline.tracks[0]],
            digits.simplification(tolerance, progress.rounding()),
            &timeline.joins,
            memory,
        );
        Self {
            progress,
            points,
            stops,
        }
    }

    /// Where the stops are in time.
    fn inputs(&self) -> easing::Inputs<'_> {
        easing::Inputs {
            times: &self.points.timeline.times,
            duration: self.points.duration,
            budget: self.points.digits.timing / 2.0,
        }
    }

    /// Appends `linear(...)`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let values = &self.points.timeline.tracks[0];
        easing::write_linear(out, &self.progress, values, &self.inputs(), self.stops);
    }

    /// An upper bound on the bytes [`Easing::write`] appends.
    pub fn max_len(&self) -> usize {
        let values = &self.points.timeline.tracks[0];
        easing::max_len(&self.progress, values, &self.inputs(), self.stops)
    }
}

/// The easing a motion's CSS writes (`--<name>-easing`), for the JS module's `easing`; `None`
/// for a motion without one. `points` are its frames and joins ([`motion_points`]); its stops
/// are chosen in `memory`.
pub(crate) fn motion_easing<'a>(
    baked: &'a Baked,
    settings: &ExportSettings,
    points: &'a Points<'a>,
    memory: &'a mut StopsMemory,
) -> Option<Easing<'a>> {
    let endpoints = easing_endpoints(baked)?;
    let values = baked.tracks[0].position.as_slice();
    Some(Easing::of(
        points,
        endpoints,
        tolerance(baked.spec, settings, &[values]),
        memory,
    ))
}

/// Writes `  animation: <name> var(--<name>-duration) <timing> <fill>;`: the easing
/// `var(--<name>-easing)` or `linear` (per-frame stops), and fill `backwards` when the motion
/// ends at its property's neutral value (afterwards the element's own value applies again),
/// else `both`.
fn animation(out: &mut Vec<u8>, name: &[u8], eased: bool, neutral_end: bool) {
    out.extend_from_slice(b"  animation: ");
    animation_item(out, name, eased, neutral_end);
    out.extend_from_slice(b";\n");
}

/// One animation of the `animation` list: `<name> var(--<name>-duration) <easing> <fill>`.
fn animation_item(out: &mut Vec<u8>, name: &[u8], eased: bool, neutral_end: bool) {
    out.extend_from_slice(name);
    out.extend_from_slice(b" var(--");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration) ");
    if eased {
        out.extend_from_slice(b"var(--");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-easing)");
    } else {
        out.extend_from_slice(b"linear");
    }
    out.extend_from_slice(if neutral_end { b" backwards" } else { b" both" });
}

/// Appends `<before><x><after>;`.
fn declare(out: &mut Vec<u8>, declaration: &Declaration, x: f64, decimals: u32) {
    out.extend_from_slice(&declaration.before);
    write_fixed(out, x, decimals);
    out.extend_from_slice(&declaration.after);
    out.push(b';');
}

/// Writes `<property>: var(--<name>-<end>, <value>);`: an end of a progress curve's
/// `@keyframes` that an element may set (`--card-drop-from: 40px`), for `translate`, `scale`,
/// `rotate` and `opacity` (not a custom property: see [`property_css`]). The easing is the
/// motion's progress, so the curve between any two ends is the baked one stretched: exact for
/// a spring baked with no initial velocity (x = to + (from - to)·s(t)); with one, its velocity
/// scales with the distance.
fn declare_end(
    out: &mut Vec<u8>,
    declaration: &Declaration,
    (name, end): (&[u8], &[u8]),
    x: f64,
    decimals: u32,
) {
    out.extend_from_slice(&declaration.before);
    out.extend_from_slice(b"var(--");
    out.extend_from_slice(name);
    out.push(b'-');
    out.extend_from_slice(end);
    out.extend_from_slice(b", ");
    write_fixed(out, x, decimals);
    out.extend_from_slice(&declaration.after);
    out.extend_from_slice(b");");
}

/// Where the points of per-frame keyframes are in time.
struct Clock<'a> {
    /// Frame rate: frame `i` is at `min(i / fps, D)`.
    fps: f64,
    /// Time of each point: the frames, with `added` in order among them.
    times: &'a [f64],
    /// Bake length `D`, seconds.
    duration: f64,
    /// Join times inserted between frames ([`Timeline::added`]).
    added: &'a [f64],
}

/// Writes `@keyframes <name>` with a stop per point kept in `memory` (by [`keep_stops`]),
/// each declaring every track; returns the number of stops. `clock` says where the points
/// are in time.
///
/// The stops' offsets are formatted in `memory` unless this thread made the same ones lately
/// ([`RECENT_STOPS`]); new ones are kept there in the memory they were made in (the kept
/// frames and the offsets'), so keeping them allocates nothing.
fn frame_keyframes(
    out: &mut Vec<u8>,
    name: &[u8],
    clock: &Clock,
    tracks: &[(&[f64], &Declaration)],
    memory: &mut Memory,
    digits: &Digits,
) -> usize {
    let Clock {
        fps,
        times,
        duration,
        added,
    } = *clock;
    let stops = std::mem::take(&mut memory.stops.kept);
    // Offsets (percent of D): half the timing budget, and apart from each other.
    let min_gap = stops
        .windows(2)
        .map(|w| 100.0 * (times[w[1]] - times[w[0]]) / duration)
        .fold(f64::INFINITY, f64::min);
    let offset_decimals = decimals_for(
        (100.0 * digits.timing / duration).min(min_gap / 2.0),
        MAX_TIME_DECIMALS,
    );
    let offset = |i: usize| 100.0 * times[i] / duration;
    let key = OffsetsKey {
        frames: stops,
        fps: fps.to_bits(),
        duration: duration.to_bits(),
        added: added.iter().map(|t| t.to_bits()).collect(),
        decimals: offset_decimals,
    };
    RECENT_STOPS.with_borrow_mut(|recent| {
        let found = recent
            .iter()
            .position(|slot| slot.as_ref().is_some_and(|(k, _)| *k == key));
        let slot = found.unwrap_or_else(|| {
            distinct_offsets(&mut memory.offsets, &key.frames, offset, offset_decimals);
            // The oldest goes; the slots are a fixed array, and the new one takes the
            // memory its frames and offsets are in, so keeping them allocates nothing.
            recent.rotate_right(1);
            recent[0] = Some((key, std::mem::take(&mut memory.offsets)));
            0
        });
        let (_, stops) = recent[slot].as_ref().expect("found or just kept");
        out.extend_from_slice(b"@keyframes ");
        out.extend_from_slice(name);
        out.extend_from_slice(b" {\n");
        for (i, offset) in stops.iter() {
            out.extend_from_slice(b"  ");
            out.extend_from_slice(offset);
            out.extend_from_slice(b"% {");
            for (x, declaration) in tracks {
                out.push(b' ');
                declare(out, declaration, x[i], digits.value);
            }
            out.extend_from_slice(b" }\n");
        }
        out.extend_from_slice(b"}\n");
        stops.len()
    })
}

/// An explosion ring: registered `--<name>-inner` and `--<name>-outer`, animated together in
/// per-frame keyframes (two radii are not one progress curve), and a class that draws the
/// band between them. The radii's initial values are 0, so once the animation ends (fill
/// `backwards`) the band is empty and nothing is drawn.
fn ring_css(baked: &Baked, name: &[u8], times: &[f64], tolerance: f64, out: &mut Vec<u8>) -> usize {
    let (unit, kind) = css_unit(baked);
    let tracks: Vec<&[f64]> = baked.tracks.iter().map(|t| t.position.as_slice()).collect();
    let digits = Digits::of(unit, times, &tracks);
    let declarations: Vec<Declaration> = baked
        .tracks
        .iter()
        .map(|t| {
            let property = [&b"--"[..], name, b"-", t.name.as_bytes()].concat();
            register(out, &property, kind);
            Declaration::custom(&property, unit)
        })
        .collect();
    out.extend_from_slice(b":root {\n  --");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration: ");
    write_fixed(out, baked.duration, digits.duration);
    out.extend_from_slice(b"s;\n}\n");
    let mut memory = Memory::new(times.len(), tolerance);
    keep_stops(
        times,
        &tracks,
        digits.simplification(tolerance, digits.rounding()),
        &[],
        &mut memory.stops,
    );
    let pairs: Vec<(&[f64], &Declaration)> = tracks.iter().copied().zip(&declarations).collect();
    let written = frame_keyframes(
        out,
        name,
        &Clock {
            fps: baked.spec.fps,
            times,
            duration: baked.duration,
            added: &[],
        },
        &pairs,
        &mut memory,
        &digits,
    );
    out.push(b'.');
    out.extend_from_slice(name);
    out.extend_from_slice(b" {\n");
    animation(out, name, false, true);
    ring_drawing(out, name, unit.as_bytes(), kind, &tracks, digits.value);
    out.extend_from_slice(b"}\n");
    reduced_motion(out, name, baked.spec.reduced_motion, true);
    written
}

/// The declarations of a ring's class after `animation`: the band between the radii as a
/// radial gradient in `currentColor`, drawn as the element's border image (`slice 0 fill`:
/// the whole gradient in the middle area; `width 0`: no border area, whatever the element's
/// own border), centred on the element's border box. Length radii draw past the box: an
/// `outset` of the largest radius makes the image area the box grown by that radius on every
/// side, so the largest ring fits around the box's centre (an empty element is a point, its
/// ring a circle of the radius about it). The spec (CSS Backgrounds 3, `border-image-outset`)
/// makes what is drawn outside the border box ink overflow, which never adds scrollable
/// overflow: a ring at the edge of the page does not scroll it. `%` radii are of the element's
/// own box (half its shorter side is 100 %), so they get no outset.
fn ring_drawing(
    out: &mut Vec<u8>,
    name: &[u8],
    unit: &[u8],
    kind: UnitKind,
    tracks: &[&[f64]],
    decimals: u32,
) {
    let var = |out: &mut Vec<u8>, edge: &[u8]| {
        out.extend_from_slice(b" var(--");
        out.extend_from_slice(name);
        out.push(b'-');
        out.extend_from_slice(edge);
        out.push(b')');
    };
    out.extend_from_slice(
        b"  border-image-source: radial-gradient(circle closest-side at center, transparent",
    );
    var(out, b"inner");
    out.extend_from_slice(b", currentColor");
    var(out, b"inner");
    out.extend_from_slice(b", currentColor");
    var(out, b"outer");
    out.extend_from_slice(b", transparent");
    var(out, b"outer");
    out.extend_from_slice(
        b");
  border-image-slice: 0 fill;
  border-image-width: 0;
",
    );
    if kind == UnitKind::Length {
        let largest = tracks
            .iter()
            .flat_map(|x| x.iter())
            .fold(0.0f64, |m, &r| m.max(r.abs()));
        out.extend_from_slice(b"  border-image-outset: ");
        write_fixed(out, largest, decimals);
        out.extend_from_slice(unit);
        out.extend_from_slice(
            b";
",
        );
    }
}

/// What a motion's stop offsets follow from: the points kept, the frame rate and the bake
/// length (frame `i` is at `min(i / fps, D)`), the join times inserted among the frames, and
/// the decimals.
#[derive(Debug, PartialEq)]
struct OffsetsKey {
    frames: Vec<usize>,
    fps: u64,
    duration: u64,
    added: Vec<u64>,
    decimals: u32,
}

/// How many of the stops a thread made last it keeps.
const RECENT_STOPS_KEPT: usize = 8;

thread_local! {
    /// The stops this thread made last, newest first, and what they followed from. The
    /// motions of a bake often share their frame rate and length, and then every offset (a
    /// few kinds of motion in turn may differ in decimals): they are formatted once, not once
    /// per motion.
    static RECENT_STOPS: RefCell<[Option<(OffsetsKey, Stops)>; RECENT_STOPS_KEPT]> =
        const { RefCell::new([const { None }; RECENT_STOPS_KEPT]) };
}

/// The keyframe stops, each with its offset (percent) formatted once for the keyframes and
/// the easing.
#[derive(Debug, Clone, Default)]
struct Stops {
    /// Frame index of each stop.
    frames: Vec<usize>,
    /// Every offset's text, one after another.
    text: Vec<u8>,
    /// Where each offset's text ends in `text`.
    ends: Vec<usize>,
}

impl Stops {
    /// Room for the stops of `frames` frames, whatever their offsets' decimals (at most
    /// [`MAX_TIME_DECIMALS`] on at most 3 integer digits).
    fn with_capacity(frames: usize) -> Self {
        Self {
            frames: Vec::with_capacity(frames),
            text: Vec::with_capacity(
                frames * max_fixed_len(100.0, MAX_TIME_DECIMALS) + FIXED_SCRATCH,
            ),
            ends: Vec::with_capacity(frames),
        }
    }

    /// Stop `k`: its frame and its offset's text.
    fn get(&self, k: usize) -> (usize, &[u8]) {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        (self.frames[k], &self.text[start..self.ends[k]])
    }

    fn len(&self) -> usize {
        self.frames.len()
    }

    fn iter(&self) -> impl Iterator<Item = (usize, &[u8])> {
        (0..self.len()).map(|k| self.get(k))
    }
}

/// Formats the offsets of `frames` into `stops` (emptied first; made with room for them, see
/// [`Stops::with_capacity`]) and removes stops whose offsets format the same as their
/// predecessor's: the later frame stays, except that the first stop (0%) always does.
fn distinct_offsets(
    stops: &mut Stops,
    frames: &[usize],
    offset: impl Fn(usize) -> f64,
    decimals: u32,
) {
    stops.frames.clear();
    stops.text.clear();
    stops.ends.clear();
    for &i in frames {
        let start = stops.text.len();
        write_fixed(&mut stops.text, offset(i), decimals);
        let k = stops.len();
        if k > 0 && stops.get(k - 1).1 == &stops.text[start..] {
            stops.text.truncate(start);
            if k > 1 {
                // The later frame takes the earlier one's place (and text).
                stops.frames[k - 1] = i;
            }
            continue;
        }
        stops.frames.push(i);
        stops.ends.push(stops.text.len());
    }
}

/// The memory [`keep_stops`] works in: the kept frames, and the shortest-path search's counts
/// and links. Made once per property and sized by its frames, it lets stops be chosen without
/// allocating, however many are kept and whichever search runs.
#[derive(Debug, Default)]
pub struct StopsMemory {
    /// The frames kept.
    kept: Vec<usize>,
    /// Per frame, the fewest segments that reach it ([`fewest_stops`]).
    count: Vec<u32>,
    /// Per frame, the frame before it on a shortest path.
    previous: Vec<usize>,
}

impl StopsMemory {
    /// Room for a property of `frames` frames whose tolerance is `tolerance`: the search's
    /// only when it is positive (at 0 every frame is kept, and a tolerance only shrinks as
    /// rounding is paid for).
    pub fn new(frames: usize, tolerance: f64) -> Self {
        let search = if tolerance > 0.0 { frames } else { 0 };
        Self {
            kept: Vec::with_capacity(frames),
            count: Vec::with_capacity(search),
            previous: Vec::with_capacity(search),
        }
    }
}

/// The frames to keep as stops so that linear interpolation between them stays within
/// `tolerance` of every frame of every track: all of them for a tolerance <= 0, else the
/// fewest (or, past a work limit, a greedy furthest reach). First and last are always kept,
/// and so is every frame of `joins` (ascending): no segment passes over one. They are chosen
/// in `memory`, whose kept frames are returned.
pub fn keep_stops<'m>(
    times: &[f64],
    tracks: &[&[f64]],
    tolerance: f64,
    joins: &[usize],
    memory: &'m mut StopsMemory,
) -> &'m mut Vec<usize> {
    let n = times.len();
    if !(tolerance > 0.0) || n <= 2 {
        memory.kept.clear();
        memory.kept.extend(0..n);
        return &mut memory.kept;
    }
    let frames = Frames {
        times,
        tracks,
        tolerance,
        joins,
    };
    if !fewest_stops(&frames, FEWEST_STOPS_WORK, memory) {
        greedy_stops(&frames, &mut memory.kept);
    }
    &mut memory.kept
}

/// What stops are chosen from: the frames' times and every track's values, the tolerance,
/// and the frames that must be kept.
struct Frames<'a> {
    times: &'a [f64],
    tracks: &'a [&'a [f64]],
    tolerance: f64,
    /// Frames every segment ends at rather than passes over (ascending).
    joins: &'a [usize],
}

impl Frames<'_> {
    /// The furthest frame a segment from frame `a` may reach: the first join after `a`, else
    /// the last frame.
    fn reach(&self, a: usize) -> usize {
        let next = self.joins.partition_point(|&j| j <= a);
        self.joins
            .get(next)
            .copied()
            .unwrap_or(self.times.len() - 1)
    }
}

/// Most tracks thinned together: a ring has two radii, and a multi-track motion animates
/// each of the five built-in properties (translateX, translateY, scale, rotate, opacity) at
/// most once (`spec::tracks` refuses a repeat or a custom property), and the JS module thins
/// all of a motion's tracks at once.
const MAX_TRACKS: usize = 5;

/// Calls `valid(b)`, in increasing `b` up to [`Frames::reach`], for every frame `b > a` such
/// that the segment from frame `a` to frame `b` stays within the tolerance of every frame
/// between them, on every track; returns the number of frames looked at.
///
/// For a fixed start, the slopes that pass within the tolerance of frame `i` form an interval
/// `[(x_i - tol - x_a) / (t_i - t_a), (x_i + tol - x_a) / (t_i - t_a)]`; the segment to `b` is
/// valid when its slope lies in the intersection (the cone) over the frames before `b`. Once
/// the cone is empty no later `b` can be valid.
fn scan_segments(frames: &Frames, a: usize, mut valid: impl FnMut(usize)) -> usize {
    let Frames {
        times,
        tracks,
        tolerance,
        ..
    } = *frames;
    assert!(tracks.len() <= MAX_TRACKS, "at most {MAX_TRACKS} tracks");
    let mut cones = [(f64::NEG_INFINITY, f64::INFINITY); MAX_TRACKS];
    let cones = &mut cones[..tracks.len()];
    let reach = frames.reach(a);
    for b in a + 1..=reach {
        let dt = times[b] - times[a];
        let inside = tracks.iter().zip(cones.iter()).all(|(x, &(lo, hi))| {
            let s = (x[b] - x[a]) / dt;
            lo <= s && s <= hi
        });
        if inside {
            valid(b);
        }
        let mut empty = false;
        for (x, cone) in tracks.iter().zip(cones.iter_mut()) {
            cone.0 = cone.0.max((x[b] - tolerance - x[a]) / dt);
            cone.1 = cone.1.min((x[b] + tolerance - x[a]) / dt);
            empty |= cone.0 > cone.1;
        }
        if empty {
            return b - a;
        }
    }
    reach + 1 - a
}

/// The fewest stops, into `memory.kept`: a shortest path from the first frame to the last
/// over every valid segment (Imai-Iri). `false` (and nothing kept) if it would look at more
/// than `work` frames.
fn fewest_stops(frames: &Frames, work: usize, memory: &mut StopsMemory) -> bool {
    let n = frames.times.len();
    let StopsMemory {
        kept,
        count,
        previous,
    } = memory;
    kept.clear();
    count.clear();
    count.resize(n, u32::MAX);
    previous.clear();
    previous.resize(n, 0);
    count[0] = 0;
    let mut done = 0usize;
    for a in 0..n - 1 {
        // Every frame is reachable: the segment from the frame before has nothing between.
        let next = count[a] + 1;
        done += scan_segments(frames, a, |b| {
            if next < count[b] {
                count[b] = next;
                previous[b] = a;
            }
        });
        if done > work {
            return false;
        }
    }
    kept.push(n - 1);
    while let Some(&b) = kept.last().filter(|&&b| b > 0) {
        kept.push(previous[b]);
    }
    kept.reverse();
    true
}

/// From each stop, the furthest frame a valid segment reaches; into `stops` (emptied first).
fn greedy_stops(frames: &Frames, stops: &mut Vec<usize>) {
    let n = frames.times.len();
    stops.clear();
    stops.push(0);
    let mut a = 0;
    while a < n - 1 {
        let mut furthest = a + 1;
        scan_segments(frames, a, |b| furthest = b);
        stops.push(furthest);
        a = furthest;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exporter::{Exporter, New};
    use curvebake_model::bake::bake;
    use curvebake_model::spec::{MotionSpec, Overrides};
    use curvebake_model::{
        intake::read_all,
        source::{find_inputs, parse_bytes},
    };
    use std::path::{Path, PathBuf};

    fn spec(ron: &str) -> MotionSpec {
        let files = parse_bytes(Path::new("test.ron"), ron.as_bytes()).unwrap();
        MotionSpec::from_file(&files[0], Overrides::default()).unwrap()
    }

    fn css(spec: &MotionSpec, tolerance: f64) -> (String, MotionOutput) {
        css_with(
            spec,
            &ExportSettings {
                css_tolerance: tolerance,
                ..ExportSettings::default()
            },
        )
    }

    fn css_with(spec: &MotionSpec, settings: &ExportSettings) -> (String, MotionOutput) {
        let baked = bake(spec).unwrap();
        let exporter = Css::new(Layout::PerMotion, settings);
        let output = exporter.motion(&baked, &[], &New);
        let text = String::from_utf8(output.chunk.clone().unwrap()).unwrap();
        (text, output)
    }

    /// The CSS of `spec` made on a new thread, whose remembered offsets are empty.
    fn css_on_a_new_thread(spec: &MotionSpec) -> String {
        let spec = spec.clone();
        std::thread::spawn(move || css(&spec, 0.0).0)
            .join()
            .unwrap()
    }

    /// The fewest stops, with no work limit.
    fn fewest(times: &[f64], tracks: &[&[f64]], tolerance: f64) -> Vec<usize> {
        let frames = Frames {
            times,
            tracks,
            tolerance,
            joins: &[],
        };
        let mut memory = StopsMemory::default();
        assert!(fewest_stops(&frames, usize::MAX, &mut memory));
        memory.kept
    }

    /// The greedy furthest-reach stops.
    fn greedy(times: &[f64], tracks: &[&[f64]], tolerance: f64) -> Vec<usize> {
        let frames = Frames {
            times,
            tracks,
            tolerance,
            joins: &[],
        };
        let mut stops = Vec::new();
        greedy_stops(&frames, &mut stops);
        stops
    }

    #[test]
    fn remembered_offsets_are_used_only_for_the_same_frames_rate_and_length() {
        // 0.505 s and 0.51 s are both 32 frames at 60 fps, the last one at the bake's end (100%),
        // so every offset between the first and the last differs; at 30 fps 0.51 s is 17 frames.
        let ron = |name: &str, timing: &str| {
            format!("(name: \"{name}\", {timing}, motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26))")
        };
        let short = spec(&ron("a", "duration: 0.505"));
        let long = spec(&ron("b", "duration: 0.51"));
        let slow = spec(&ron("c", "fps: 30, duration: 0.51"));
        let fresh: Vec<String> = [&short, &long, &slow, &short]
            .iter()
            .map(|s| css_on_a_new_thread(s))
            .collect();
        // In turn on one thread, each after another whose offsets it must not reuse.
        let in_turn: Vec<String> = [&short, &long, &slow, &short]
            .iter()
            .map(|s| css(s, 0.0).0)
            .collect();
        assert_eq!(in_turn, fresh);
        let offsets = |css: &str| -> Vec<String> {
            css.lines()
                .filter_map(|l| l.trim().split_once("% {").map(|(o, _)| o.to_owned()))
                .collect()
        };
        let (a, b) = (offsets(&fresh[0]), offsets(&fresh[1]));
        assert_eq!((a.len(), b.len()), (32, 32));
        assert!(
            a[1..31].iter().zip(&b[1..31]).all(|(x, y)| x != y),
            "{a:?} {b:?}"
        );
    }

    #[test]
    fn three_frames_of_gravity() {
        // x = 50 t², frames at 0, 0.05, 0.1 s: 0, 0.125, 0.5 px.
        let spec = spec(
            "(name: \"drop\", fps: 20, duration: 0.1, \
             motion: Gravity(from: 0, acceleration: 100))",
        );
        let (text, output) = css(&spec, 0.0);
        assert_eq!(
            text,
            "/* drop: gravity on translateX in px, 3 frames at 20 fps */
:root {
  --drop-duration: 0.1s;
}
@keyframes drop {
  0% { translate: 0px; }
  50% { translate: 0.125px; }
  100% { translate: 0.5px; }
}
.drop {
  animation: drop var(--drop-duration) linear both;
}
@media (prefers-reduced-motion: reduce) {
  :root { --drop-duration: 0s; }
}
"
        );
        assert_eq!(output.files.len(), 1);
        assert_eq!(file_path("drop"), "css/drop.css");
        assert_eq!(output.files[0], text.as_bytes());
        assert_eq!(
            output.stats,
            vec![("css_stops_before", 3), ("css_stops_after", 3)]
        );
    }

    #[test]
    fn easing_of_a_motion_between_two_values() {
        // From -2 with velocity 0 and acceleration 1600 to 0: arrives at t = 1/20 s. At fps
        // 40 the frames are 0, 0.025 (x = -1.5) and 0.05 s; progress 0, 0.25, 1 (5 decimals:
        // |to - from| = 2 times their rounding stays under a quarter of 1e-4), evenly spaced,
        // so no input is written. Two keyframes, timed by the easing; it does not end at
        // scale 1, so it holds its end (fill both).
        let spec = spec(
            "(name: \"shelf\", property: \"scale\", fps: 40, \
             motion: Gravity(from: -2, acceleration: 1600, to: 0))",
        );
        let (text, _) = css(&spec, 0.0);
        assert_eq!(
            text,
            "/* shelf: gravity on scale, 3 frames at 40 fps */
:root {
  --shelf-duration: 0.05s;
  --shelf-easing: linear(0,0.25,1);
}
@keyframes shelf {
  from { scale: var(--shelf-from, -2); }
  to { scale: var(--shelf-to, 0); }
}
.shelf {
  animation: shelf var(--shelf-duration) var(--shelf-easing) both;
}
@media (prefers-reduced-motion: reduce) {
  :root { --shelf-duration: 0s; }
}
"
        );
    }

    #[test]
    fn reduced_motion_follows_the_policy() {
        let fade = spec(
            "(name: \"m\", property: \"scale\", reduced_motion: \"fade\", \
             motion: Spring(from: 0.9, to: 1, stiffness: 300, damping: 30))",
        );
        let (text, _) = css(&fade, 0.0);
        assert!(
            text.ends_with(
                "@keyframes m-fade {\n  from { opacity: 0; }\n}\n\
                 @media (prefers-reduced-motion: reduce) {\n  :root { --m-duration: 0s; }\n  \
                 .m { animation: m 0s backwards, m-fade 0.2s ease-out backwards; }\n}\n"
            ),
            "{text}"
        );
        // Opacity keeps its motion by default; a transform jumps.
        let fade_in = "(name: \"o\", property: \"opacity\", duration: 0.3, \
                       motion: Decay(from: 0, to: 1, end_velocity: 0.5))";
        assert!(!css(&spec(fade_in), 0.0).0.contains("reduced-motion"));
        let files = parse_bytes(
            Path::new("t.ron"),
            b"(name: \"x\", reduced_motion: \"slow\", duration: 1, \
              motion: Gravity(from: 0, acceleration: 1))",
        )
        .unwrap();
        let error = MotionSpec::from_file(&files[0], Overrides::default()).unwrap_err();
        assert_eq!(error.field, "reduced_motion");
    }

    /// A sequence handing over at 0.105 s and a fling hitting its bound at 0.4613 s: both
    /// between two frames at 60 fps.
    const JOINED: [&str; 2] = [
        r#"(name: "handoff", property: "translateX", motion: Sequence([
            (motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.105),
            (motion: Spring(to: 40, stiffness: 170, damping: 26)),
        ]))"#,
        r#"(name: "bound", property: "translateY",
            motion: Inertia(from: 0, velocity: 2400, friction: 0.05, min: 0, max: 600))"#,
    ];

    /// The stops of the first `linear(...)` in `text`: progress and input (percent), if
    /// written.
    fn linear_stops(text: &str) -> Vec<(f64, Option<f64>)> {
        let inside = text
            .split_once("linear(")
            .unwrap()
            .1
            .split(')')
            .next()
            .unwrap();
        inside
            .split(',')
            .map(|stop| {
                let mut parts = stop.split(' ');
                let progress = parts.next().unwrap().parse().unwrap();
                let input = parts
                    .next()
                    .map(|p| p.trim_end_matches('%').parse().unwrap());
                (progress, input)
            })
            .collect()
    }

    #[test]
    fn a_join_between_frames_is_a_stop_at_its_closed_form_whatever_the_tolerance() {
        for ron in JOINED {
            let spec = spec(ron);
            let baked = bake(&spec).unwrap();
            let [join] = spec.model.joins()[..] else {
                panic!("one join")
            };
            let fps = spec.fps;
            assert!(
                (join * fps).fract() > 0.1 && (join * fps).fract() < 0.9,
                "{join}"
            );
            let exact = spec.model.single().unwrap().position(join);
            let (from, to) = easing_endpoints(&baked).unwrap();
            let at = 100.0 * join / baked.duration;
            for tolerance in [0.0, 0.05, 3.0] {
                let (text, _) = css(&spec, tolerance);
                let stops = linear_stops(&text);
                let stop = stops
                    .iter()
                    .find(|(_, input)| input.is_some_and(|i| (i - at).abs() < 1e-3))
                    .unwrap_or_else(|| panic!("no stop at {at} %: {text}"));
                let value = from + stop.0 * (to - from);
                // The progress rounding is at most a quarter of the 0.01 px target.
                assert!(
                    (value - exact).abs() <= 0.0025,
                    "{value} vs {exact}: {text}"
                );
                // And its input within half the timing budget (at most 0.05 ms).
                let input = stop.1.unwrap();
                assert!(
                    (input - at).abs() * baked.duration / 100.0 <= 2.5e-5,
                    "{input}"
                );
            }
        }
    }

    #[test]
    fn per_frame_keyframes_have_a_stop_at_the_join() {
        let settings = ExportSettings {
            css_frames: true,
            css_tolerance: 3.0,
            ..ExportSettings::default()
        };
        for ron in JOINED {
            let spec = spec(ron);
            let baked = bake(&spec).unwrap();
            let join = spec.model.joins()[0];
            let exact = spec.model.single().unwrap().position(join);
            let (text, _) = css_with(&spec, &settings);
            let at = 100.0 * join / baked.duration;
            let keyframe = text
                .lines()
                .find(|l| {
                    l.split_once("% {")
                        .and_then(|(offset, _)| offset.trim().parse::<f64>().ok())
                        .is_some_and(|o| (o - at).abs() < 1e-3)
                })
                .unwrap_or_else(|| panic!("no keyframe at {at} %: {text}"));
            let value: f64 = keyframe
                .rsplit(' ')
                .find_map(|w| w.trim_end_matches("px;").parse().ok())
                .unwrap();
            assert!((value - exact).abs() <= 5e-5, "{keyframe} vs {exact}");
        }
    }

    #[test]
    fn a_track_that_ends_before_the_others_has_a_stop_where_it_ends() {
        let spec = spec(
            r#"(name: "t", tracks: [
                (property: "translateX", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26)),
                (property: "opacity", motion: Decay(from: 0, to: 1, end_velocity: 0.2), duration: 0.3051),
            ])"#,
        );
        let baked = bake(&spec).unwrap();
        assert_eq!(spec.model.joins(), vec![0.3051]);
        let (text, _) = css(&spec, 0.0);
        let opacity = text.split("--t-opacity-easing: ").nth(1).unwrap();
        let at = 100.0 * 0.3051 / baked.duration;
        let stops = linear_stops(opacity);
        let k = stops
            .iter()
            .position(|(_, input)| input.is_some_and(|i| (i - at).abs() < 1e-3))
            .unwrap_or_else(|| panic!("no stop at {at} %: {opacity}"));
        // It arrives there, and holds it: every later stop is 1.
        assert!(stops[k..].iter().all(|&(p, _)| p == 1.0), "{opacity}");
    }

    #[test]
    fn a_multi_track_motion_warns_of_the_overshoot_a_track_loses() {
        let ron = |extra: &str| {
            format!(
                r#"(name: "m", {extra}tracks: [
                    (property: "translateY", motion: Spring(from: 40, to: 0, stiffness: 260, damping: 30)),
                    (property: "scale", motion: Spring(from: 0.94, to: 1, perceptual_duration: 0.35, bounce: 0.4)),
                ])"#
            )
        };
        let (text, output) = css(&spec(&ron("tolerance: 0.05, relative_tolerance: 1, ")), 0.0);
        assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
        assert!(
            output.warnings[0]
                .starts_with("track `scale`: the CSS tolerance 0.05 removes its overshoot of 0.0"),
            "{}",
            output.warnings[0]
        );
        let scale = text.split("--m-scale-easing: ").nth(1).unwrap();
        assert!(
            linear_stops(scale).iter().all(|&(p, _)| p <= 1.0),
            "{scale}"
        );
        // The default relative bound keeps the bounce, and says nothing.
        let (_, output) = css(&spec(&ron("tolerance: 0.05, ")), 0.0);
        assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    }

    #[test]
    fn thinning_keeps_every_join() {
        // A straight line: any tolerance keeps only the ends, and the joins.
        let times: Vec<f64> = (0..=10).map(|i| f64::from(i) / 10.0).collect();
        let x: Vec<f64> = times.iter().map(|t| 5.0 * t).collect();
        let mut memory = StopsMemory::new(times.len(), 1.0);
        assert_eq!(keep_stops(&times, &[&x], 1.0, &[], &mut memory), &[0, 10]);
        assert_eq!(
            keep_stops(&times, &[&x], 1.0, &[3, 7], &mut memory),
            &[0, 3, 7, 10]
        );
        let frames = Frames {
            times: &times,
            tracks: &[&x],
            tolerance: 1.0,
            joins: &[3, 7],
        };
        let mut greedy = Vec::new();
        greedy_stops(&frames, &mut greedy);
        assert_eq!(greedy, vec![0, 3, 7, 10]);
    }

    #[test]
    fn a_tolerance_keeps_to_a_fraction_of_the_range() {
        // The README's --css-tolerance 0.05 on a bouncy scale from 0.94 to 1: the default
        // relative bound (0.5 % of the range) keeps its overshoot; a motion's own
        // relative_tolerance of 1 lets the absolute one flatten it.
        let ron = |extra: &str| {
            format!(
                "(name: \"b\", property: \"scale\", {extra}\
                 motion: Spring(from: 0.94, to: 1, perceptual_duration: 0.35, bounce: 0.4))"
            )
        };
        let overshoot = |text: &str| {
            let easing = text
                .split_once("linear(")
                .unwrap()
                .1
                .split(')')
                .next()
                .unwrap();
            easing
                .split(',')
                .map(|p| p.split(' ').next().unwrap().parse::<f64>().unwrap())
                .fold(0.0f64, f64::max)
        };
        let (kept, output) = css(&spec(&ron("")), 0.05);
        assert!(overshoot(&kept) > 1.08, "{kept}");
        assert!(output.stats[1].1 > 5);
        let (flat, _) = css(&spec(&ron("relative_tolerance: 1, ")), 0.05);
        assert!(flat.contains("linear(0,1)"), "{flat}");
        // A motion's own absolute tolerance wins over the bake's.
        let (own, _) = css(&spec(&ron("tolerance: 0, ")), 0.05);
        let (all, _) = css(&spec(&ron("")), 0.0);
        assert_eq!(own, all);
    }

    #[test]
    fn a_custom_property_is_registered() {
        let spec = spec(
            "(name: \"glow\", property: \"--glow\", unit: \"em\", fps: 2, duration: 0.5, \
             motion: Decay(from: 1, velocity: 0, lambda: 1))",
        );
        let (text, _) = css(&spec, 0.0);
        assert_eq!(
            text,
            "/* glow: decay on --glow in em, 2 frames at 2 fps */
@property --glow { syntax: '<length>'; inherits: false; initial-value: 0px; }
:root {
  --glow-duration: 0.5s;
}
@keyframes glow {
  0% { --glow: 1em; }
  100% { --glow: 1em; }
}
.glow {
  animation: glow var(--glow-duration) linear both;
}
@media (prefers-reduced-motion: reduce) {
  :root { --glow-duration: 0s; }
}
"
        );
    }

    #[test]
    fn a_ring_draws_its_band() {
        // Decays solved with end velocity = the average speed are straight lines.
        let spec = spec(
            "(name: \"boom\", fps: 4, duration: 0.5, motion: ExplosionRing(\
             inner: (from: 0, to: 10, end_velocity: 20), \
             outer: (from: 2, to: 12, end_velocity: 20)))",
        );
        let (text, output) = css(&spec, 0.0);
        assert_eq!(
            text,
            "/* boom: explosion-ring radii in px, 3 frames at 4 fps */
@property --boom-inner { syntax: '<length>'; inherits: false; initial-value: 0px; }
@property --boom-outer { syntax: '<length>'; inherits: false; initial-value: 0px; }
:root {
  --boom-duration: 0.5s;
}
@keyframes boom {
  0% { --boom-inner: 0px; --boom-outer: 2px; }
  50% { --boom-inner: 5px; --boom-outer: 7px; }
  100% { --boom-inner: 10px; --boom-outer: 12px; }
}
.boom {
  animation: boom var(--boom-duration) linear backwards;
  border-image-source: radial-gradient(circle closest-side at center, transparent var(--boom-inner), currentColor var(--boom-inner), currentColor var(--boom-outer), transparent var(--boom-outer));
  border-image-slice: 0 fill;
  border-image-width: 0;
  border-image-outset: 12px;
}
@media (prefers-reduced-motion: reduce) {
  :root { --boom-duration: 0s; }
}
"
        );
        // A straight line needs only its ends.
        let (text, simplified) = css(&spec, 0.5);
        assert!(!text.contains("50%"), "{text}");
        assert_eq!(
            simplified.stats,
            vec![("css_stops_before", 3), ("css_stops_after", 2)]
        );
        assert_eq!(output.stats[1], ("css_stops_after", 3));
    }

    #[test]
    fn bundle_in_both_layouts() {
        let spec = spec(
            "(name: \"a\", fps: 10, duration: 0.2, motion: Gravity(from: 0, acceleration: 1))",
        );
        let baked = bake(&spec).unwrap();
        for layout in [Layout::PerMotion, Layout::Bundle] {
            let exporter = Css::new(layout, &ExportSettings::default());
            assert_eq!(exporter.shape().bundle.as_ref().unwrap().path, BUNDLE_PATH);
            let output = exporter.motion(&baked, &[], &New);
            assert!(output.chunk.is_some());
            assert_eq!(output.files.len(), usize::from(layout == Layout::PerMotion));
        }
    }

    #[test]
    fn hostile_names_never_reach_css() {
        let hostile = [
            "x;}body{",
            "../x",
            "x/y",
            "x y",
            "x\"",
            "x'",
            "x*/",
            "x\\",
            "x\n",
            "-x",
            "1x",
            "",
            "caf\u{e9}",
        ];
        for name in hostile {
            let file =
                format!("(name: {name:?}, duration: 1, motion: Gravity(from: 0, acceleration: 1))");
            let files = parse_bytes(Path::new("t.ron"), file.as_bytes()).unwrap();
            let error = MotionSpec::from_file(&files[0], Overrides::default()).unwrap_err();
            assert_eq!(error.field, "name", "{name:?}");
            let file = format!(
                "(name: \"ok\", property: {:?}, duration: 1, \
                 motion: Gravity(from: 0, acceleration: 1))",
                format!("--{name}")
            );
            let files = parse_bytes(Path::new("t.ron"), file.as_bytes()).unwrap();
            let error = MotionSpec::from_file(&files[0], Overrides::default()).unwrap_err();
            assert_eq!(error.field, "property", "--{name:?}");
        }
        // Valid identifiers that `animation` or `@keyframes` read as keywords.
        for name in [
            "none",
            "None",
            "inherit",
            "ease",
            "ease-in-out",
            "infinite",
            "both",
            "auto",
        ] {
            let file =
                format!("(name: {name:?}, duration: 1, motion: Gravity(from: 0, acceleration: 1))");
            let files = parse_bytes(Path::new("t.ron"), file.as_bytes()).unwrap();
            let error = MotionSpec::from_file(&files[0], Overrides::default()).unwrap_err();
            assert_eq!(error.field, "name", "{name:?}");
            assert!(error.message.contains("keyword"), "{error}");
        }
        for unit in ["px;}", "px)", "p x", "PX", "e"] {
            let file = format!(
                "(name: \"ok\", unit: {unit:?}, duration: 1, \
                 motion: Gravity(from: 0, acceleration: 1))"
            );
            let files = parse_bytes(Path::new("t.ron"), file.as_bytes()).unwrap();
            let error = MotionSpec::from_file(&files[0], Overrides::default()).unwrap_err();
            assert_eq!(error.field, "unit", "{unit:?}");
        }
    }

    /// Bytes CSS may hold: letters, digits and the punctuation of the fixed text.
    fn allowed(byte: u8) -> bool {
        byte.is_ascii_alphanumeric() || b" \n-_.,:;%(){}@'<>/*".contains(&byte)
    }

    fn examples() -> Vec<MotionSpec> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../curves");
        let (inputs, errors) = read_all(&find_inputs(&[dir]).unwrap(), Overrides::default());
        assert!(errors.is_empty(), "{errors:?}");
        assert!(inputs.len() >= 10);
        inputs.into_iter().map(|i| i.spec).collect()
    }

    #[test]
    fn examples_use_a_known_alphabet_and_are_deterministic() {
        for spec in examples() {
            for tolerance in [0.0, 0.05, 3.0] {
                let (text, output) = css(&spec, tolerance);
                if let Some(bad) = text.bytes().find(|&b| !allowed(b)) {
                    panic!("{}: byte {bad:#x} in\n{text}", spec.name);
                }
                assert!(!text.contains("-0%") && !text.contains("NaN") && !text.contains("inf"));
                assert!(!text.contains("/*") || text.matches("/*").count() == 1);
                assert_eq!(css(&spec, tolerance).0, text, "{}", spec.name);
                let (before, after) = (output.stats[0].1, output.stats[1].1);
                assert!(after <= before && after >= 2, "{}", spec.name);
                // Each easing's stops, or each per-frame keyframe (a multi-track motion may
                // have several of either).
                let easings: usize = text
                    .split("-easing: linear(")
                    .skip(1)
                    .map(|easing| easing.split(')').next().unwrap().split(',').count())
                    .sum();
                let written = easings + text.matches("% {").count();
                assert_eq!(written as u64, after, "{}", spec.name);
            }
        }
    }

    /// Linear interpolation of the stops, at frame `i`.
    fn interpolate(times: &[f64], x: &[f64], stops: &[usize], i: usize) -> f64 {
        let k = stops.partition_point(|&s| s <= i);
        if k == stops.len() {
            return x[*stops.last().unwrap()];
        }
        let (a, b) = (stops[k - 1], stops[k]);
        x[a] + (x[b] - x[a]) * (times[i] - times[a]) / (times[b] - times[a])
    }

    fn worst_error(times: &[f64], tracks: &[&[f64]], stops: &[usize]) -> f64 {
        let mut worst: f64 = 0.0;
        for x in tracks {
            for i in 0..times.len() {
                worst = worst.max((interpolate(times, x, stops, i) - x[i]).abs());
            }
        }
        worst
    }

    /// Deterministic pseudo-random numbers (SplitMix64) in [0, 1).
    fn random(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn kept_stops_hold_the_tolerance_at_every_frame() {
        let mut state = 7;
        for case in 0..300 {
            let n = 2 + (random(&mut state) * 120.0) as usize;
            let times: Vec<f64> = (0..n).map(|i| i as f64 / 60.0).collect();
            let mut walk = |scale: f64| -> Vec<f64> {
                let mut x = 0.0;
                let mut v = 0.0;
                (0..n)
                    .map(|_| {
                        v += (random(&mut state) - 0.5) * scale;
                        x += v;
                        x
                    })
                    .collect()
            };
            let one = walk(4.0);
            let two = walk(1.0);
            let tolerance = 0.05 + random(&mut state) * 2.0;
            let sets: [&[&[f64]]; 2] = [&[&one], &[&one, &two]];
            for tracks in sets {
                let fewest = fewest(&times, tracks, tolerance);
                let greedy = greedy(&times, tracks, tolerance);
                for stops in [&fewest, &greedy] {
                    assert_eq!(stops[0], 0);
                    assert_eq!(*stops.last().unwrap(), n - 1);
                    assert!(stops.windows(2).all(|w| w[0] < w[1]));
                    let worst = worst_error(&times, tracks, stops);
                    assert!(
                        worst <= tolerance * (1.0 + 1e-9),
                        "case {case}: {worst} > {tolerance}"
                    );
                }
                assert!(fewest.len() <= greedy.len(), "case {case}");
                // Optimal: no kept stop of the fewest set can go.
                if n < 40 {
                    for drop in 1..fewest.len() - 1 {
                        let mut fewer = fewest.clone();
                        fewer.remove(drop);
                        assert!(worst_error(&times, tracks, &fewer) > tolerance);
                    }
                }
            }
        }
    }

    #[test]
    fn fewest_stops_are_really_fewest() {
        // Brute force over every subset on short curves.
        let mut state = 11;
        for _ in 0..200 {
            let n = 3 + (random(&mut state) * 9.0) as usize;
            let times: Vec<f64> = (0..n).map(|i| i as f64 * 0.1).collect();
            let x: Vec<f64> = (0..n).map(|_| random(&mut state) * 3.0).collect();
            let tolerance = 0.2 + random(&mut state);
            let tracks: &[&[f64]] = &[&x];
            let fewest = fewest(&times, tracks, tolerance);
            let best = (0u32..1 << (n - 2))
                .map(|mask| {
                    let stops: Vec<usize> = std::iter::once(0)
                        .chain((1..n - 1).filter(|i| mask & (1 << (i - 1)) != 0))
                        .chain(std::iter::once(n - 1))
                        .collect();
                    stops
                })
                .filter(|stops| worst_error(&times, tracks, stops) <= tolerance)
                .map(|stops| stops.len())
                .min()
                .unwrap();
            assert_eq!(fewest.len(), best);
        }
    }

    #[test]
    fn tolerance_keeps_every_example_frame_within_bound() {
        for spec in examples() {
            let baked = bake(&spec).unwrap();
            let times: Vec<f64> = (0..baked.frames()).map(|i| baked.time(i)).collect();
            let all: Vec<&[f64]> = baked.tracks.iter().map(|t| t.position.as_slice()).collect();
            // A multi-track motion's tracks are written (and simplified) one by one.
            let groups: Vec<Vec<&[f64]>> = match spec.model {
                Model::Tracks(_) => all.iter().map(|t| vec![*t]).collect(),
                _ => vec![all],
            };
            for tracks in groups {
                for tolerance in [0.01, 0.05, 0.5] {
                    let mut memory = StopsMemory::new(times.len(), tolerance);
                    let stops = keep_stops(&times, &tracks, tolerance, &[], &mut memory);
                    assert!(worst_error(&times, &tracks, stops) <= tolerance);
                }
                let mut memory = StopsMemory::default();
                let stops = keep_stops(&times, &tracks, 0.5, &[], &mut memory);
                assert!(stops.len() < times.len(), "{}", spec.name);
            }
        }
    }

    #[test]
    fn stops_closer_than_the_offset_digits_keep_the_later_frame() {
        let offsets = [0.0, 10.0, 99.999_999_999_999_9, 100.0];
        let mut kept = Stops::with_capacity(4);
        distinct_offsets(&mut kept, &[0, 1, 2, 3], |i| offsets[i], 12);
        assert_eq!(kept.frames, vec![0, 1, 3]);
        let texts: Vec<&[u8]> = kept.iter().map(|(_, text)| text).collect();
        assert_eq!(texts, [&b"0"[..], b"10", b"100"]);
        let offsets = [0.0, 1e-14, 100.0];
        distinct_offsets(&mut kept, &[0, 1, 2], |i| offsets[i], 12);
        assert_eq!(kept.frames, vec![0, 2]);
        assert_eq!(kept.get(1), (2, &b"100"[..]));
    }

    #[test]
    fn digits_follow_the_numbers() {
        assert_eq!(decimals_for(0.05, 12), 2);
        assert_eq!(decimals_for(0.01, 12), 2);
        assert_eq!(decimals_for(1.0, 12), 0);
        assert_eq!(decimals_for(1e-20, 12), 12);
        // A fast motion gets more offset digits than a slow one.
        let fast = spec(
            "(name: \"f\", duration: 1, motion: Gravity(from: 0, velocity: 3000, acceleration: 0))",
        );
        let slow = spec(
            "(name: \"s\", duration: 1, motion: Gravity(from: 0, velocity: 3, acceleration: 0))",
        );
        let (fast, _) = css(&fast, 0.0);
        let (slow, _) = css(&slow, 0.0);
        // 1/60 of D is 1.6666...%: timing budget 0.01 / 30000 s -> 0.0000333% -> 5 decimals;
        // the slow one is limited by 0.05 ms -> 0.005% -> 3 decimals.
        assert!(fast.contains("\n  1.66667% {"), "{fast}");
        assert!(slow.contains("\n  1.667% {"), "{slow}");
    }
}
