//! CSS: `css/<name>.css` per motion and `curves.css` with every motion in input order (with
//! `--bundle`, only `curves.css`).
//!
//! Each motion becomes (see [`property_css`], written once per animated property):
//!
//! * `--<name>-duration` on `:root`, and for a motion that travels from one value to another
//!   ([`Model::endpoints`]) and ends there, `--<name>-easing`: a CSS `linear()` easing of the
//!   progress `(x - from) / (to - from)` over `t / D`, overshoot included. (A `duration` that
//!   cuts a motion short of `to` leaves the easing out: a transition always ends on its end
//!   value, so it would jump at the end.)
//! * `@keyframes <name>`: for a motion with an easing, two stops (`from`, `to`) that the
//!   easing times; for any other (and rings, and with `--css-frames`), a stop per fitted
//!   stop, timed `linear`. Keyframes declare the individual properties `translate`, `scale`
//!   and `rotate` (never `transform`, so motions combine with each other and with the
//!   element's own transform), `opacity` or a custom property.
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
//! # Stops: the motion at every instant
//!
//! Every stop, of an easing or of keyframes, is placed by the fitting core
//! ([`crate::fit`]) against the motion's closed form, not its frames: what the
//! browser plays (straight between stops) is proven within the motion's tolerance
//! ([`played::tolerance`]: by default 0.1 px or deg, 5e-4 unitless) of the motion at every
//! instant before `D`, and the value held from `D` on. Every join of its closed forms (a
//! hand-off, a bound hit, a track's end, each gravity impact) is a stop at its time. Numbers
//! get the digits that bound needs and no more; an input is written only where even spacing
//! does not imply it. The module `played` is shared with the ES module; `text` writes
//! the rest of the bytes.
//!
//! # Digits
//!
//! The duration `D` gets the decimals that keep its rounding within 5 ns (and its rounding
//! times the motion's largest slope within a tenth of the unit's precision target); values of `from`
//! and `to` keyframes 4 decimals (px, %, deg, pt, mm, grad) or 6 (other units).
//!
//! Nothing reaches the CSS but fixed text, validated names (`spec::check_name`), units from
//! the fixed list of `unit_kind` and formatted numbers.

mod played;
mod text;
mod velocity;

pub use played::*;
pub use velocity::Velocity;

use crate::exporter::{Buffers, Bundle, Exporter, FilePath, MotionOutput, Shape, Summary};
use crate::fit::{self, Fit, MAX_TRACKS};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
use curvebake_model::number::{format_number, write_fixed};
use curvebake_model::spec::{Model, Property, ReducedMotion};
use std::cell::RefCell;
use text::{
    animation, animation_item, declare_end, declare_value, reduced_duration, reduced_motion,
    register, ring_drawing,
};

/// Path of the file with every motion.
pub const BUNDLE_PATH: &str = "curves.css";

/// First bytes of [`BUNDLE_PATH`].
const BUNDLE_HEADER: &[u8] =
    b"/* curvebake: every motion, in input order. Generated; do not edit. */\n\n";

/// Where one motion's CSS goes.
const FILE: FilePath = FilePath {
    folder: "css",
    suffix: ".css",
};

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
        let (bytes, written) = motion_css(baked, &self.settings, buffers);
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
            warnings: (written.lost.iter().map(LostOvershoot::warning))
                .chain(written.overrun.then(|| {
                    fit::overrun_warning("CSS", written.stops, fit::MAX_STOPS, baked.frames())
                }))
                .chain(written.coarser)
                .chain(written.clamped)
                .collect(),
        }
    }
}

/// Bytes reserved per motion besides its stops (comment, class, registrations).
const CAPACITY_BASE: usize = 2048;
/// Bytes reserved per stop ([`stops_estimate`]) of a track: a keyframe stop is at most
/// about 70 bytes, a `linear()` one about 25, and a track may have both.
const CAPACITY_PER_STOP: usize = 112;

/// Longest a duration's rounding may be, seconds: its rounding moves every stop by at most
/// that, times the motion's slope, and the end (where a rest step happens) by that.
const MAX_DURATION_ROUNDING: f64 = 5e-9;

/// Most decimals of a duration in seconds.
const MAX_DURATION_DECIMALS: u32 = 12;

/// Decimals of a duration for values in `unit` whose frames are `tracks` at `times`: its
/// rounding moves a value by at most a tenth of the unit's precision target (so at most
/// 0.5 % of the default tolerance, which its float share covers).
fn duration_decimals(unit: &str, times: &[f64], tracks: &[&[f64]]) -> u32 {
    let (target, _) = value_precision(unit);
    let mut slope: f64 = 0.0;
    for x in tracks {
        for i in 1..times.len() {
            slope = slope.max((x[i] - x[i - 1]).abs() / (times[i] - times[i - 1]));
        }
    }
    let rounding = if slope > 0.0 {
        MAX_DURATION_ROUNDING.min(target / (10.0 * slope))
    } else {
        MAX_DURATION_ROUNDING
    };
    (0..MAX_DURATION_DECIMALS)
        .find(|&k| 0.5 * 10f64.powi(-(k as i32)) <= rounding)
        .unwrap_or(MAX_DURATION_DECIMALS)
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
        let before: &[u8] = match property {
            Property::TranslateX => b"translate: ",
            Property::TranslateY => b"translate: 0 ",
            Property::Scale => b"scale: ",
            Property::Rotate => b"rotate: ",
            Property::Opacity => b"opacity: ",
            Property::Custom(_) => return Self::custom(custom, unit),
        };
        Self {
            before: before.to_vec(),
            after: unit.as_bytes().to_vec(),
            neutral: neutral(property),
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

    /// The y of `translate: x y`, written after the x's declaration (whose `;` it takes
    /// over): no name of its own.
    pub fn translate_y(unit: &str) -> Self {
        Self {
            before: Vec::new(),
            after: unit.as_bytes().to_vec(),
            neutral: 0.0,
        }
    }
}

/// The value at which `property` leaves the element as it is: 0 for `translate`, `rotate`
/// and a registered custom property (its initial value), 1 for `scale` and `opacity`.
pub fn neutral(property: &Property) -> f64 {
    match property {
        Property::Scale | Property::Opacity => 1.0,
        _ => 0.0,
    }
}

/// Whether a motion's class, and its ES module's `animate()`, hand its properties back to
/// the element once it ends (fill `backwards`, else `both`): a ring always (its radii go
/// back to 0 and nothing is drawn), any other motion when every track's last frame is its
/// property's [`neutral`] value, to the rounding of its written values. A multi-track motion
/// follows one rule for all its tracks, as its module's one animation must.
pub fn ends_neutral(baked: &Baked) -> bool {
    let spec = baked.spec;
    let ends_at_neutral = |property: &Property, unit: &str, position: &[f64]| {
        (position[position.len() - 1] - neutral(property)).abs() <= value_rounding(unit)
    };
    match &spec.model {
        Model::Ring(_) => true,
        Model::Tracks(multi) => (multi.tracks().iter().zip(&baked.tracks))
            .all(|(t, track)| ends_at_neutral(&t.property, &t.unit, &track.position)),
        _ => ends_at_neutral(&spec.property, &spec.unit, &baked.tracks[0].position),
    }
}

/// Largest rounding of a value written in `unit` ([`value_precision`]'s decimals).
fn value_rounding(unit: &str) -> f64 {
    0.5 * 10f64.powi(-(value_precision(unit).1 as i32))
}

/// One animated property of a motion, as [`property_css`] writes it. A motion with several
/// tracks calls it once per property, each under its own name.
#[derive(Clone)]
pub struct PropertyTrack<'a> {
    /// The name of the keyframes, the class and the custom properties
    /// (`--<name>-duration`, `--<name>-easing`), prefix included.
    pub name: &'a [u8],
    /// The tracks that play the property: one, or translateX and translateY together in
    /// `translate: x y` (see `tracks_css`).
    pub parts: Vec<Part<'a>>,
    /// Frame times, seconds (they decide the duration's digits).
    pub times: &'a [f64],
    /// Bake length, seconds.
    pub duration: f64,
    /// `(from, to)` when the property has one track, which travels from one value to another
    /// and whose last frame is `to`: it is then one progress curve, written as a `linear()`
    /// easing.
    pub endpoints: Option<(f64, f64)>,
    /// Write keyframes with a stop per fitted stop even for a track with endpoints (for
    /// browsers without `linear()`).
    pub frame_keyframes: bool,
    /// Whether the class hands the property back once it ends (fill `backwards`, else
    /// `both`; see [`ends_neutral`]).
    pub neutral_end: bool,
    /// What `prefers-reduced-motion: reduce` does.
    pub reduced_motion: ReducedMotion,
    /// Whether the tolerance was asked for (the motion's `tolerance` or `--css-tolerance`):
    /// only then is an overshoot it removes warned about (a default tolerance is below what
    /// anyone sees).
    pub asked_tolerance: bool,
    /// A spring's initial velocity from `--<name>-velocity`, a second animation (see
    /// the `velocity` module).
    pub velocity: Option<Velocity>,
}

/// One track of a [`PropertyTrack`].
#[derive(Clone)]
pub struct Part<'a> {
    /// What the keyframes declare.
    pub declaration: Declaration,
    /// The motion as the fitting sees it (its tolerance included).
    pub curve: Curve<'a>,
    /// The value at each frame.
    pub values: &'a [f64],
}

/// What one motion's or property's CSS holds, and the animations its class plays.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Written {
    /// Frames of its table, per property.
    pub points: usize,
    /// The stops written (each easing's, or each keyframes').
    pub stops: usize,
    /// Each overshoot its tolerance removed.
    pub lost: Vec<LostOvershoot>,
    /// Whether some fit of it does not keep its tolerance ([`Fit::overrun`]).
    pub overrun: bool,
    /// The warning of a tolerance coarser than asked ([`coarser_tolerance_warning`]).
    pub coarser: Option<String>,
    /// The warning of an opacity browsers clamp ([`clamped_opacity_warning`]).
    pub clamped: Option<String>,
    /// The animations its class plays, in order (none for a ring, whose class draws).
    pub animations: Vec<Animation>,
}

impl Written {
    /// Adds what the CSS of a multi-track motion's `property` holds.
    fn add(&mut self, other: Written, property: &str) {
        self.points += other.points;
        self.stops += other.stops;
        self.overrun |= other.overrun;
        let named = other.lost.into_iter().map(|lost| LostOvershoot {
            track: Some(property.to_owned()),
            ..lost
        });
        self.lost.extend(named);
        self.animations.extend(other.animations);
    }
}

/// One animation of a class's `animation` list: `<name> var(--<name>-duration) <easing>
/// <fill>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Animation {
    /// Its global name (keyframes and variables).
    pub name: Vec<u8>,
    /// Whether `--<name>-easing` times it (else `linear` keyframes).
    pub eased: bool,
    /// Whether it ends at its property's neutral value (fill `backwards`, else `both`).
    pub neutral_end: bool,
}

impl Animation {
    /// Appends the item as the class writes it.
    pub fn write(&self, out: &mut Vec<u8>) {
        animation_item(out, &self.name, self.eased, self.neutral_end);
    }
}

/// An overshoot the tolerance took away: the motion goes past `to` by `table` (in the unit,
/// at its frames), the played curve by no more than the values' rounding. A curve within the
/// tolerance of the motion keeps any overshoot larger than the tolerance, so what is lost is
/// at most the tolerance.
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

/// How far `values` go past `to`, away from `from` (0 if they never do).
fn overshoot(values: impl Iterator<Item = f64>, (from, to): (f64, f64)) -> f64 {
    let sign = if to >= from { 1.0 } else { -1.0 };
    values
        .map(|x| ((x - to) * sign).max(0.0))
        .fold(0.0, f64::max)
}

thread_local! {
    /// The buffer each thread writes a motion's CSS into before copying it out.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Most capacity [`SCRATCH`] keeps between motions: a long motion's room is freed after it,
/// so that a thread holds no more than a few ordinary motions need.
const SCRATCH_KEPT: usize = 256 << 10;

/// One motion's CSS, in a buffer from `buffers` of its length, and what it holds over all its
/// properties. It is written into the thread's [`SCRATCH`] buffer, given room once for its
/// keyframes and easings (so that formatting never grows it stop by stop), then copied out:
/// that room is a bound, often ten times the bytes written, and buffers of that size in
/// flight and in the pool were most of a bake's memory and of its page faults (measured:
/// benches/README.md, "Tuning decisions").
pub(crate) fn motion_css(
    baked: &Baked,
    settings: &ExportSettings,
    buffers: &dyn Buffers,
) -> (Vec<u8>, Written) {
    let curves = curves(baked, settings);
    // A spring's velocity easing, fitted first so that the buffer has room for it too.
    let velocity = easing_endpoints(baked)
        .filter(|_| !settings.css_frames)
        .and_then(|ends| Velocity::of(baked, ends, curves[0].tolerance.kept));
    let stops = stops_estimate(&curves) + velocity.as_ref().map_or(0, Velocity::stops);
    let coarser = coarser_tolerance_warning(&curves);
    let clamped = clamped_opacity_warning(baked, &curves);
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.clear();
        scratch.reserve(CAPACITY_BASE + stops * CAPACITY_PER_STOP);
        let written = Written {
            coarser,
            clamped,
            ..write_motion_css(baked, settings, curves, velocity, scratch)
        };
        let mut out = buffers.buffer(scratch.len());
        out.extend_from_slice(scratch);
        if scratch.capacity() > SCRATCH_KEPT {
            *scratch = Vec::new();
        }
        (out, written)
    })
}

/// Writes one motion's CSS from its `curves` (and a spring's `velocity`); returns what it
/// holds.
fn write_motion_css(
    baked: &Baked,
    settings: &ExportSettings,
    curves: Vec<Curve>,
    velocity: Option<Velocity>,
    out: &mut Vec<u8>,
) -> Written {
    let spec = baked.spec;
    let global = settings.global_name(&spec.name);
    let name = global.as_bytes();
    let times: Vec<f64> = (0..baked.frames()).map(|i| baked.time(i)).collect();
    let (unit, kind) = css_unit(baked);
    header(out, baked, settings, name, unit);
    if let Model::Ring(_) = spec.model {
        let (stops, overrun) = ring_css(baked, name, &times, &curves, out);
        return Written {
            points: times.len(),
            stops,
            overrun,
            ..Written::default()
        };
    }
    if let Model::Tracks(multi) = &spec.model {
        return tracks_css(baked, multi, &times, settings, curves, out);
    }
    let custom = match &spec.property {
        Property::Custom(custom) => settings.custom_property(custom),
        _ => String::new(),
    };
    if !custom.is_empty() {
        register(out, custom.as_bytes(), kind);
    }
    let custom = custom.as_bytes();
    let curve = curves.into_iter().next().expect("one track");
    property_css(
        &PropertyTrack {
            name,
            parts: vec![Part {
                declaration: Declaration::new(&spec.property, custom, unit),
                curve,
                values: &baked.tracks[0].position,
            }],
            times: &times,
            duration: baked.duration,
            endpoints: easing_endpoints(baked),
            frame_keyframes: settings.css_frames,
            neutral_end: ends_neutral(baked),
            reduced_motion: spec.reduced_motion,
            asked_tolerance: spec.tolerance.is_some() || settings.css_tolerance > 0.0,
            velocity,
        },
        out,
    )
}

/// The comment that opens a motion's CSS: name, kind, the property and unit of each track,
/// frames.
fn header(out: &mut Vec<u8>, baked: &Baked, settings: &ExportSettings, name: &[u8], unit: &str) {
    let spec = baked.spec;
    out.extend_from_slice(b"/* ");
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(spec.model.kind().as_bytes());
    // `<property>`, and ` in <unit>` if it has one.
    let named = |out: &mut Vec<u8>, property: Option<&Property>, unit: &str| {
        match property {
            Some(Property::Custom(custom)) => {
                out.extend_from_slice(settings.custom_property(custom).as_bytes())
            }
            Some(property) => out.extend_from_slice(property.name().as_bytes()),
            None => {}
        }
        if !unit.is_empty() {
            out.extend_from_slice(b" in ");
            out.extend_from_slice(unit.as_bytes());
        }
    };
    match &spec.model {
        Model::Ring(_) => {
            out.extend_from_slice(b" radii");
            named(out, None, unit);
        }
        Model::Tracks(multi) => {
            for (k, track) in multi.tracks().iter().enumerate() {
                out.extend_from_slice(if k == 0 { b" on " } else { b", " });
                named(out, Some(&track.property), &track.unit);
            }
        }
        _ => {
            out.extend_from_slice(b" on ");
            named(out, Some(&spec.property), unit);
        }
    }
    out.extend_from_slice(b", ");
    out.extend_from_slice(itoa::Buffer::new().format(baked.frames()).as_bytes());
    out.extend_from_slice(b" frames at ");
    write_fixed(out, spec.fps, 6);
    out.extend_from_slice(b" fps */\n");
}

/// The CSS of a multi-track motion: each property through [`property_css`] under the name
/// `<name>-<property>` (its own duration and easing variables, keyframes and class), then
/// one class `.<name>` that plays them all, each with the motion's fill ([`ends_neutral`]).
///
/// Every track animates its own property directly (`translate`, `scale`, `rotate`,
/// `opacity`), as a single motion does, so that transitions, `:hover` rules and the
/// element's own value on that property combine with it as they do with a single motion. A
/// track with an end value gets its own `linear()` easing.
///
/// translateX and translateY both move `translate`, and an element runs one animation of a
/// property at a time (a later one replaces an earlier), so the pair is one animation,
/// `<name>-translate`, of `translate: x y`. Its two tracks cannot share an easing: an easing
/// times one progress curve, and theirs differ (a fling and a fall). They are fitted
/// together instead ([`keyframes`]): stops at the times either track needs (every join of
/// either among them), each value within its own track's bound, straight between, so the
/// fitting core's proof holds for each track on its own. (Two animations composed with
/// `animation-composition: add` could each keep an easing, but once one ends the other would
/// add onto the element's own `translate`, where a single motion replaces it, and the ES
/// module, which plays the same stops, would need two animations.)
fn tracks_css(
    baked: &Baked,
    multi: &curvebake_model::spec::Tracks,
    times: &[f64],
    settings: &ExportSettings,
    curves: Vec<Curve>,
    out: &mut Vec<u8>,
) -> Written {
    let spec = baked.spec;
    // The class, keyframes and variables carry the prefix, as a single motion's do.
    let global = settings.global_name(&spec.name);
    let neutral_end = ends_neutral(baked);
    let mut written = Written::default();
    let mut tracks = (multi.tracks().iter()).zip(&baked.tracks).zip(curves);
    for (property, played) in multi.animations() {
        // translateX and translateY together: `translate: x y`, the y after the x.
        let pair = played.len() == 2;
        let parts: Vec<Part> = (tracks.by_ref().take(played.len()).enumerate())
            .map(|(k, ((track, baked_track), curve))| Part {
                declaration: if k == 0 {
                    Declaration::new(&track.property, b"", &track.unit)
                } else {
                    Declaration::translate_y(&track.unit)
                },
                curve,
                values: baked_track.position.as_slice(),
            })
            .collect();
        let (track, baked_track) = (&multi.tracks()[played.start], &baked.tracks[played.start]);
        let name = format!("{global}-{property}").into_bytes();
        let last = baked_track.position[baked_track.position.len() - 1];
        let endpoints = (track.model.endpoints())
            .filter(|&(_, to)| !pair && (last - to).abs() <= value_rounding(&track.unit));
        written.add(
            property_css(
                &PropertyTrack {
                    name: &name,
                    parts,
                    times,
                    duration: baked.duration,
                    endpoints,
                    frame_keyframes: settings.css_frames,
                    neutral_end,
                    reduced_motion: spec.reduced_motion,
                    asked_tolerance: spec.tolerance.is_some() || settings.css_tolerance > 0.0,
                    velocity: None,
                },
                out,
            ),
            property,
        );
    }
    out.push(b'.');
    out.extend_from_slice(global.as_bytes());
    out.extend_from_slice(b" {\n  animation:");
    for (i, animation) in written.animations.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        animation.write(out);
    }
    out.extend_from_slice(b";\n}\n");
    reduced_duration(out, global.as_bytes(), spec.reduced_motion);
    written
}

thread_local! {
    /// The memory of each thread's `--<name>-easing` fits, reused from motion to motion: a
    /// fit of its own was five allocations and frees a motion (measured: benches/README.md,
    /// "Tuning decisions").
    static EASING_FIT: RefCell<Fit> = RefCell::new(Fit::default());
}

/// Most stops [`EASING_FIT`] keeps room for between motions: a long motion's room is freed
/// after it.
const EASING_FIT_KEPT: usize = 4096;

/// Writes the CSS of one animated property: `:root` with `--<name>-duration` (and
/// `--<name>-easing` for a track with endpoints), its keyframes, its class and what reduced
/// motion does to it.
///
/// A track with endpoints gets two keyframes (`from`, `to`) timed by the `linear()` easing
/// of its progress, so that the curve is written once and the class reads
/// `var(--<name>-duration)` and `var(--<name>-easing)` (overriding either on an element
/// changes the class's animation there). Any other property (or with
/// [`PropertyTrack::frame_keyframes`]) gets a keyframe per fitted stop, of every part, and
/// `linear` timing.
pub fn property_css(track: &PropertyTrack, out: &mut Vec<u8>) -> Written {
    let name = track.name;
    let parts = &track.parts;
    let values: Vec<&[f64]> = parts.iter().map(|p| p.values).collect();
    let decimals = (parts.iter())
        .map(|p| duration_decimals(p.curve.unit, track.times, &[p.values]))
        .max()
        .expect("a part");
    let neutral_end = track.neutral_end;
    let eased = track.endpoints.is_some() && !track.frame_keyframes;

    out.extend_from_slice(b":root {\n  --");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration: ");
    write_fixed(out, track.duration, decimals);
    out.extend_from_slice(b"s;\n");
    let mut stops = 0;
    let mut overrun = false;
    let mut lost = Vec::new();
    if let Some(endpoints) = track.endpoints {
        let [part] = &parts[..] else {
            panic!("an easing times one track")
        };
        out.extend_from_slice(b"  --");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-easing: ");
        let (easing_stops, easing_overrun, played) = EASING_FIT.with_borrow_mut(|fit| {
            let scale = easing_into(&part.curve, endpoints, track.duration, fit);
            write_linear(out, fit, 0);
            // Straight between stops, the played curve peaks at a stop.
            let played = overshoot(
                (0..fit.len()).map(|k| scale.played(fit.value(k, 0))),
                endpoints,
            );
            let (stops, overrun) = (fit.len(), fit.overrun);
            if fit.inputs.capacity() > EASING_FIT_KEPT {
                *fit = Fit::default();
            }
            (stops, overrun, played)
        });
        out.extend_from_slice(b";\n");
        stops = easing_stops;
        overrun = easing_overrun;
        let table = overshoot(part.values.iter().copied(), endpoints);
        let rounding = value_rounding(part.curve.unit);
        if track.asked_tolerance && table > rounding && played <= rounding {
            lost.push(LostOvershoot {
                track: None,
                table,
                tolerance: part.curve.tolerance.kept,
            });
        }
    }
    if let Some(velocity) = &track.velocity {
        velocity.write_easing(out, name);
        stops += velocity.stops();
        overrun |= velocity.overrun();
    }
    out.extend_from_slice(b"}\n");

    if eased {
        eased_keyframes(out, name, &parts[0]);
    } else {
        // On the stack, so that a motion allocates as often written so as eased.
        let n = parts.len();
        let curves: [&Curve; MAX_TRACKS] = std::array::from_fn(|j| &parts[j.min(n - 1)].curve);
        let declarations: [&Declaration; MAX_TRACKS] =
            std::array::from_fn(|j| &parts[j.min(n - 1)].declaration);
        let fit = keyframes(&curves[..n], track.duration, false);
        stops = text::keyframes(out, name, &fit, &declarations[..n]);
        overrun = fit.overrun;
    }
    if let Some(velocity) = &track.velocity {
        velocity.write_keyframes(out, name, &track.parts[0].declaration);
    }

    out.push(b'.');
    out.extend_from_slice(name);
    out.extend_from_slice(b" {\n");
    match &track.velocity {
        Some(velocity) => velocity.write_animation(out, name, neutral_end),
        None => animation(out, name, eased, neutral_end),
    }
    out.extend_from_slice(b"}\n");
    reduced_motion(out, name, track.reduced_motion, neutral_end);
    if let Some(velocity) = &track.velocity {
        velocity.write_reduced(out, name, track.reduced_motion);
    }
    Written {
        points: values.iter().map(|v| v.len()).sum(),
        stops,
        lost,
        overrun,
        animations: vec![Animation {
            name: name.to_vec(),
            eased,
            neutral_end,
        }],
        ..Written::default()
    }
}

/// Writes `@keyframes <name>` of a track eased by its progress curve: its first and last
/// values (`from`, `to`), which an element may set (`--<name>-from`, `--<name>-to`).
fn eased_keyframes(out: &mut Vec<u8>, name: &[u8], part: &Part) {
    let value_decimals = value_precision(part.curve.unit).1;
    let (from, last) = (part.values[0], part.values[part.values.len() - 1]);
    out.extend_from_slice(b"@keyframes ");
    out.extend_from_slice(name);
    out.extend_from_slice(b" {\n");
    for (offset, x) in [(&b"from"[..], from), (b"to", last)] {
        out.extend_from_slice(b"  ");
        out.extend_from_slice(offset);
        out.extend_from_slice(b" { ");
        // A registered custom property with a var() in its keyframes stops interpolating
        // in Gecko (it animates discretely): its ends stay plain numbers.
        if part.declaration.before.starts_with(b"--") {
            declare_value(out, &part.declaration, x, value_decimals);
        } else {
            declare_end(out, &part.declaration, (name, offset), x, value_decimals);
        }
        out.extend_from_slice(b" }\n");
    }
    out.extend_from_slice(b"}\n");
}

/// An explosion ring: registered `--<name>-inner` and `--<name>-outer`, animated together in
/// keyframes with shared stops (two radii are not one progress curve), and a class that
/// draws the band between them. The radii's initial values are 0, so once the animation ends
/// (fill `backwards`) the band is empty and nothing is drawn. Returns its stops and whether
/// they overrun its tolerance.
fn ring_css(
    baked: &Baked,
    name: &[u8],
    times: &[f64],
    curves: &[Curve],
    out: &mut Vec<u8>,
) -> (usize, bool) {
    let (unit, kind) = css_unit(baked);
    let tracks: Vec<&[f64]> = baked.tracks.iter().map(|t| t.position.as_slice()).collect();
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
    write_fixed(out, baked.duration, duration_decimals(unit, times, &tracks));
    out.extend_from_slice(b"s;\n}\n");
    let fit = keyframes(curves, baked.duration, false);
    let declarations: Vec<&Declaration> = declarations.iter().collect();
    let stops = text::keyframes(out, name, &fit, &declarations);
    out.push(b'.');
    out.extend_from_slice(name);
    out.extend_from_slice(b" {\n");
    animation(out, name, false, true);
    ring_drawing(
        out,
        name,
        unit.as_bytes(),
        kind,
        &tracks,
        value_precision(unit).1,
    );
    out.extend_from_slice(b"}\n");
    reduced_motion(out, name, baked.spec.reduced_motion, true);
    (stops, fit.overrun)
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

    use crate::test_spec as spec;

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

    #[test]
    fn three_frames_of_gravity() {
        // x = 50 t² over 0.1 s, 0.5 px: the tolerance is 0.5 % of that range (0.0025 px),
        // and each chord of the parabola spans h with h²/8·100 px/s² within it (leaning).
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
  13% { translate: 0.007px; }
  29% { translate: 0.0406px; }
  46% { translate: 0.1044px; }
  63% { translate: 0.197px; }
  80% { translate: 0.3186px; }
  97% { translate: 0.469px; }
  100% { translate: 0.5px; }
}
.drop {
  animation: drop var(--drop-duration) linear both;
}
@media (prefers-reduced-motion: reduce) {
  :root { --drop-duration: 0s; }
  .drop { animation-duration: 0s; }
}
"
        );
        assert_eq!(output.files.len(), 1);
        assert_eq!(FILE.of("drop"), "css/drop.css");
        assert_eq!(output.files[0], text.as_bytes());
        assert_eq!(
            output.stats,
            vec![("css_stops_before", 3), ("css_stops_after", 8)]
        );
    }

    #[test]
    fn easing_of_a_motion_between_two_values() {
        // From -2 with velocity 0 and acceleration 1600 to 0: arrives at t = 1/20 s. Unitless,
        // so within 5e-4 of the parabola at every instant: chords of about 1.7 ms, with the
        // inputs of the fewest digits. Two keyframes, timed by the easing; it does not end
        // at scale 1, so it holds its end (fill both).
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
  --shelf-easing: linear(0,0.00076 3%,0.00435 6.7%,0.00986 10%,0.01676,0.02546,0.03596,0.04826 22%,0.06488,0.08396 29%,0.10679 32.7%,0.12946 36%,0.15826 39.8%,0.18476 43%,0.21146,0.23996 49%,0.27548,0.31346 56%,0.35627 59.7%,0.39676 63%,0.44608 66.8%,0.48986 70%,0.53276,0.57746 76%,0.63188,0.68876 83%,0.75155 86.7%,0.80986 90%,0.8797 93.8%,0.94076 97%,1);
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
  .shelf { animation-duration: 0s; }
}
"
        );
    }

    /// The step at the end of an easing, in progress: `|1 − p|` just before `D` where the
    /// last two stops share it (0 when the curve reaches 1 by itself).
    fn end_step(fit: &crate::fit::Fit, scale: &crate::fit::Scale) -> f64 {
        let n = fit.len();
        if fit.times[n - 2] < fit.times[n - 1] {
            return 0.0;
        }
        let played = |k| (scale.played(fit.value(k, 0)) - scale.origin) / scale.unit;
        (played(n - 1) - played(n - 2)).abs()
    }

    /// An easing stretched over any range ends with a step of at most `END_STEP` of it, on
    /// the hard cases: ranges where `rest_delta` alone would allow a step of 0.5 to 4 %.
    #[test]
    fn a_stretched_easing_ends_within_a_thousandth_of_its_range() {
        use curvebake_model::spec::END_STEP;
        let cases = [
            ("small", "motion: Spring(from: 0, to: 6, stiffness: 170, damping: 12)"),
            (
                "underdamped",
                "property: \"rotate\", motion: Spring(from: -12, to: 0, stiffness: 300, damping: 6)",
            ),
            (
                "overdamped",
                "property: \"scale\", motion: Spring(from: 0.94, to: 1, stiffness: 200, damping: 80)",
            ),
            ("snap", "motion: Friction(from: 0, to: 8, velocity: 300)"),
            (
                "ball",
                "motion: Gravity(from: -12, velocity: 0, acceleration: 2400, to: 0, restitution: 0.55)",
            ),
        ];
        for (name, fields) in cases {
            let spec = spec(&format!("(name: \"{name}\", {fields})"));
            let baked = bake(&spec).unwrap();
            let (from, to) = easing_endpoints(&baked).unwrap();
            let range = (to - from).abs();
            assert!(
                spec.rest_delta > 5.0 * END_STEP * range,
                "{name} is not hard"
            );
            let curve = &curves(&baked, &ExportSettings::default())[0];
            let (fit, scale) = easing(curve, (from, to), baked.duration);
            let step = end_step(&fit, &scale);
            assert!(step <= END_STEP, "{name}: an end step of {step}");
            // The premise of the proof: from D on, the motion stays that close to `to`.
            for i in 0..=5000 {
                let t = baked.duration + f64::from(i) * 1e-3;
                let off = (curve.motion.position(t) - to).abs() / range;
                assert!(off <= END_STEP, "{name}: {off} of its range at {t} s");
            }
        }
        // A decay solved to its end arrives there: no step at all.
        let spec = spec(
            "(name: \"decay\", duration: 0.3, motion: Decay(from: 0, to: 5, end_velocity: 2))",
        );
        let baked = bake(&spec).unwrap();
        let curve = &curves(&baked, &ExportSettings::default())[0];
        let (fit, scale) = easing(curve, (0.0, 5.0), baked.duration);
        assert_eq!(end_step(&fit, &scale), 0.0);
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
                let stop = nearest(&stops, at);
                let value = from + stop.0 * (to - from);
                let tolerance = if tolerance > 0.0 { tolerance } else { 0.1 };
                // The motion's value there, to a fortieth of the tolerance.
                assert!(
                    (value - exact).abs() <= tolerance / 40.0,
                    "{value} vs {exact}: {text}"
                );
                // And its input where moving the stop costs at most a twentieth of it.
                let speed = spec.model.single().unwrap().velocity(join).abs();
                let moved = (stop.1.unwrap() - at).abs() * baked.duration / 100.0;
                assert!(moved * speed <= tolerance / 20.0, "{moved} s at {speed}");
            }
        }
    }

    /// The stop whose input is nearest `at` (percent).
    fn nearest(stops: &[(f64, Option<f64>)], at: f64) -> (f64, Option<f64>) {
        let distance = |s: &(f64, Option<f64>)| s.1.map_or(f64::INFINITY, |i| (i - at).abs());
        *stops
            .iter()
            .min_by(|a, b| distance(a).total_cmp(&distance(b)))
            .unwrap()
    }

    #[test]
    fn keyframes_have_a_stop_at_the_join() {
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
            let offset = |l: &str| {
                l.split_once("% {")
                    .and_then(|(offset, _)| offset.trim().parse::<f64>().ok())
                    .map_or(f64::INFINITY, |o| (o - at).abs())
            };
            let keyframe = text
                .lines()
                .min_by(|a, b| offset(a).total_cmp(&offset(b)))
                .unwrap();
            let speed = spec.model.single().unwrap().velocity(join).abs();
            assert!(offset(keyframe) * baked.duration / 100.0 * speed <= 3.0 / 20.0);
            let value: f64 = keyframe
                .rsplit(' ')
                .find_map(|w| w.trim_end_matches("px;").parse().ok())
                .unwrap();
            assert!((value - exact).abs() <= 3.0 / 40.0, "{keyframe} vs {exact}");
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
            .position(|(_, input)| input.is_some_and(|i| (i - at).abs() < 0.01))
            .unwrap_or_else(|| panic!("no stop at {at} %: {opacity}"));
        // It arrives there, and holds it: every later stop is 1.
        assert!(stops[k..].iter().all(|&(p, _)| p == 1.0), "{opacity}");
    }

    /// Browsers clamp opacity to [0, 1]: a motion that swings outside is shown flat there, and
    /// the bake says so (a bouncy spring to 0.2 dips to -0.18; a multi-track motion's opacity
    /// track to 1.39), not of motions within it or of other properties past 1.
    #[test]
    fn an_opacity_outside_0_to_1_is_warned_of() {
        let warned = |ron: &str| {
            let (_, output) = css(&spec(ron), 0.0);
            output
                .warnings
                .iter()
                .any(|w| w.contains("its opacity goes outside 0 to 1"))
        };
        assert!(warned(
            r#"(name: "a", property: "opacity", motion: Spring(from: 1, to: 0.2, stiffness: 300, damping: 8))"#
        ));
        assert!(warned(
            r#"(name: "t", tracks: [
                (property: "opacity", motion: Spring(from: 0, to: 1, stiffness: 300, damping: 10)),
                (property: "translateX", motion: Spring(from: 0, to: -100, stiffness: 300, damping: 10)),
            ])"#
        ));
        assert!(!warned(
            r#"(name: "a", property: "opacity", motion: Spring(from: 0, to: 1, stiffness: 300, damping: 40))"#
        ));
        assert!(!warned(
            r#"(name: "a", property: "scale", motion: Spring(from: 0, to: 1, stiffness: 300, damping: 8))"#
        ));
    }

    /// A track's end step is played where it is: its join's time is written to the last
    /// decimal (rounded to 33.6 %, the friction's 0.25 px step came 0.7 ms early and played
    /// the rest value that long), and as `@keyframes`, which cannot repeat an offset, it is
    /// taken over the 10⁻⁵ of D before it, the arriving stop on the line it played.
    #[test]
    fn a_track_s_end_step_is_played_at_its_time() {
        let spec = spec(
            r#"(name: "t", tracks: [
                (property: "translateX", motion: Friction(from: 0, velocity: 1500, friction: 0.01)),
                (property: "rotate", motion: Spring(from: 0, to: 90, stiffness: 60, damping: 3)),
            ])"#,
        );
        let baked = bake(&spec).unwrap();
        let curves = played::curves(&baked, &ExportSettings::default());
        let d = baked.duration;
        let end = curves[0].kinks[0];
        for repeat_input in [true, false] {
            let fit = played::keyframes(&curves, d, repeat_input);
            let ramp =
                |t: f64| !repeat_input && [end, d].iter().any(|&s| t < s && t > s - 1.0001e-5 * d);
            let times = (0..=20_000).map(|i| d * f64::from(i) / 20_000.0).chain([
                end - 1e-4,
                end - 1e-6,
                end - 1e-9,
                end + 1e-9,
                end + 1e-6,
            ]);
            for t in times.filter(|&t| t < d && !ramp(t)) {
                for (j, curve) in curves.iter().enumerate() {
                    let scale = fit::Scale::new(0.0, 1.0, curve.tolerance.kept);
                    let error = (fit.played(&scale, j, t) - curve.motion.position(t)).abs();
                    assert!(
                        error <= curve.tolerance.kept,
                        "track {j} at {t} s (its end {end} s; repeated inputs: {repeat_input}): {error}"
                    );
                }
            }
        }
    }

    /// Regression (issue 26): a 2D toss animated registered `--x`/`--y` and its class set
    /// `translate: var(--x) var(--y)`, which a `transition: translate` or a `:hover` rule
    /// on the element froze or cancelled.
    #[test]
    fn x_and_y_animate_translate_itself_within_both_tracks_bounds() {
        let spec = spec(
            r#"(name: "t", tracks: [
                (property: "translateX", unit: "%", motion: Friction(from: 0, velocity: 300, friction: 0.05)),
                (property: "translateY", motion: Gravity(from: 0, velocity: -900, acceleration: 2400, to: 0, restitution: 0.4)),
                (property: "opacity", motion: Decay(from: 0, to: 1, end_velocity: 0.2), duration: 0.3),
            ])"#,
        );
        let baked = bake(&spec).unwrap();
        let (text, _) = css(&spec, 0.0);
        assert!(!text.contains("@property") && !text.contains("var(--t-translateX"));
        let class = text.split(".t {\n").nth(1).unwrap();
        assert_eq!(
            class,
            "  animation:\n    t-translate var(--t-translate-duration) linear both,\n    \
             t-opacity var(--t-opacity-duration) var(--t-opacity-easing) both;\n}\n\
             @media (prefers-reduced-motion: reduce) {\n  .t { animation-duration: 0s; }\n}\n"
        );
        // The stops of `translate: x% ypx`, and what the browser plays between them.
        let keyframes = text.split("@keyframes t-translate {\n").nth(1).unwrap();
        let stops: Vec<[f64; 3]> = (keyframes.lines())
            .take_while(|l| l.contains("% {"))
            .map(|l| {
                let numbers: Vec<f64> = l
                    .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                    .filter_map(|w| w.parse().ok())
                    .collect();
                [numbers[0] / 100.0 * baked.duration, numbers[1], numbers[2]]
            })
            .collect();
        let played = |t: f64, j: usize| {
            let k = stops
                .partition_point(|s| s[0] <= t)
                .clamp(1, stops.len() - 1);
            let (a, b) = (stops[k - 1], stops[k]);
            a[j] + (b[j] - a[j]) * (t - a[0]) / (b[0] - a[0])
        };
        let curves = curves(&baked, &ExportSettings::default());
        let motions = spec.model.tracks();
        for (j, curve) in curves.iter().take(2).enumerate() {
            let exact = motions[j].1;
            let worst = (0..20_000)
                .map(|i| i as f64 / 20_000.0 * baked.duration * (1.0 - 1e-5))
                .map(|t| (played(t, j + 1) - exact.position(t)).abs())
                .fold(0.0, f64::max);
            assert!(worst <= curve.tolerance.kept, "{}: {worst}", motions[j].0);
        }
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
  .glow { animation-duration: 0s; }
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
  .boom { animation-duration: 0s; }
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
        assert_eq!(output.stats[1], ("css_stops_after", 2));
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
                assert!(before >= 2 && after >= 2, "{}", spec.name);
                // Each easing's stops, or each keyframe (a multi-track motion may have several
                // of either).
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
}
