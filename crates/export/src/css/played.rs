//! What a browser plays, shared by the CSS and the ES module: each track's motion as the
//! fitting core sees it ([`Curve`]), its tolerance, and the stops fitted to it for a
//! `linear()` easing ([`easing`]) or keyframes ([`keyframes`]), written exactly as fitted.

use crate::fit::{self, Decimal, Fit, Scale, Timing};
use crate::settings::ExportSettings;
use curvebake_model::bake::Baked;
use curvebake_model::number::format_number;
use curvebake_model::spec::{played, unit_kind, Kink, Model, MotionSpec, Property, UnitKind};
use curvebake_motion::Motion;
use std::borrow::Borrow;

/// Largest distance, in its unit, of what a browser plays from the motion, at any instant,
/// when neither the motion nor the bake says: the unit's row of the spec's unit table
/// ([`Played::default_tolerance`](curvebake_model::spec::Played::default_tolerance)): 0.1
/// for px, deg and grad (a tenth of a pixel, which nobody sees), 0.07 for pt and 0.025 for mm
/// (0.093 and 0.094 px), 0.025 for % (0.1 px
/// of a 400 px box), 2.5e-4 for turn (0.09°), 5e-4 for unitless values (opacity, scale: 0.05 %
/// of their usual range) and for the other larger units (em, rem, vw, rad, ...).
pub fn default_tolerance(unit: &str) -> f64 {
    played(unit).default_tolerance
}

/// Fraction of a motion's range that bounds its tolerance when neither the motion nor the
/// bake says otherwise: `--css-tolerance 0.05` keeps a scale from 0.94 to 1 within 0.0003
/// (0.5 % of its range with overshoot), not 0.05, which would flatten it.
pub const DEFAULT_RELATIVE_TOLERANCE: f64 = 0.005;

/// A track's tolerance: what the motion and the bake ask for, and what the fits keep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// `min(absolute, relative × range)`, the absolute one the motion's `tolerance`, else the
    /// bake's `--css-tolerance` (when above 0), else [`default_tolerance`]; the relative one
    /// its `relative_tolerance` or else [`DEFAULT_RELATIVE_TOLERANCE`], the range the spread
    /// of the values (overshoot included). A track that does not move keeps the absolute one.
    pub asked: f64,
    /// The asked one, no finer than browsers resolve: at least [`MIN_RELATIVE_TOLERANCE`] of
    /// the track's largest value and [`MIN_TOLERANCE`].
    pub kept: f64,
    /// The track's largest value (in magnitude).
    pub largest: f64,
}

/// The tolerance of a track in `unit` whose frames are `values` (see [`Tolerance`]).
pub fn tolerance(
    spec: &MotionSpec,
    settings: &ExportSettings,
    unit: &str,
    values: &[f64],
) -> Tolerance {
    let absolute = spec.tolerance.unwrap_or(if settings.css_tolerance > 0.0 {
        settings.css_tolerance
    } else {
        default_tolerance(unit)
    });
    let relative = spec
        .relative_tolerance
        .unwrap_or(DEFAULT_RELATIVE_TOLERANCE);
    let (lo, hi) = (values.iter()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
        (lo.min(x), hi.max(x))
    });
    let range = (hi - lo).max(0.0);
    let asked = if range > 0.0 {
        absolute.min(relative * range)
    } else {
        absolute
    };
    let largest = lo.abs().max(hi.abs());
    // No finer than browsers show: Chromium writes 6 significant digits.
    let kept = (asked.max(MIN_RELATIVE_TOLERANCE * largest)).max(MIN_TOLERANCE);
    Tolerance {
        asked,
        kept,
        largest,
    }
}

/// The warning of a motion some of whose `curves` keep a coarser tolerance than was asked
/// (a motion over a hundred thousand px asked to stay within 0.1 px), naming the first.
/// A tolerance of 0 asks for the finest there is, and gets no warning.
pub fn coarser_tolerance_warning(curves: &[Curve]) -> Option<String> {
    let curve = (curves.iter())
        .find(|c| c.tolerance.asked > 0.0 && c.tolerance.kept > c.tolerance.asked)?;
    let (tolerance, unit) = (&curve.tolerance, curve.unit);
    let said = |x: f64| match unit {
        "" => format_number(x),
        unit => format!("{} {unit}", format_number(x)),
    };
    let why = if MIN_RELATIVE_TOLERANCE * tolerance.largest >= MIN_TOLERANCE {
        format!(
            "browsers resolve about {MIN_RELATIVE_TOLERANCE:e} of its largest value ({}); a \
             smaller range or offset keeps a finer tolerance",
            said(tolerance.largest)
        )
    } else {
        format!("{MIN_TOLERANCE:e} is the finest tolerance curvebake keeps")
    };
    Some(format!(
        "it is played within {} of the motion, not the {} asked: {why}",
        said(tolerance.kept),
        said(tolerance.asked),
    ))
}

/// The warning of a motion whose opacity leaves [0, 1] by more than its tolerance (a bouncy
/// spring to 0.2 swings below 0): browsers clamp opacity, so what they show there is flat at 0
/// or 1, not the motion. Its `curves` are its tracks in order.
pub fn clamped_opacity_warning(baked: &Baked, curves: &[Curve]) -> Option<String> {
    let spec = baked.spec;
    let properties: Vec<&Property> = match &spec.model {
        Model::Tracks(multi) => multi.tracks().iter().map(|t| &t.property).collect(),
        _ => vec![&spec.property; baked.tracks.len()],
    };
    let (lo, hi) = (properties.iter().zip(&baked.tracks).zip(curves))
        .filter(|((property, _), _)| ***property == Property::Opacity)
        .flat_map(|((_, track), curve)| {
            let slack = curve.tolerance.kept;
            (track.position.iter()).filter(move |&&x| x < -slack || x > 1.0 + slack)
        })
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    (lo <= hi).then(|| {
        format!(
            "its opacity goes outside 0 to 1 (to {}): browsers clamp it, so they show 0 or 1 \
             there, not the motion; give it more damping, or ends further inside",
            format_number(if lo < 0.0 { lo } else { hi }),
        )
    })
}

/// Smallest tolerance in any unit: a millionth of a pixel or of an opacity.
pub const MIN_TOLERANCE: f64 = 1e-6;

/// Smallest tolerance as a fraction of a track's largest value (about what browsers
/// resolve: Chromium serialises 6 significant digits), so that a motion over 10⁸ px does
/// not ask for stops a microsecond apart.
pub const MIN_RELATIVE_TOLERANCE: f64 = 1e-5;

/// Precision target (in the unit) and value decimals for a unit, from its row of the spec's
/// unit table ([`Played`](curvebake_model::spec::Played)): 0.01 unit for px, %, deg, pt, mm
/// and grad, with 4 decimals; 0.000025 for turn and 0.0001 for unitless values and the other
/// larger units (em, rem, vw, rad, ...), with 6. They decide the digits of durations and which
/// JS tables need float64.
pub(crate) fn value_precision(unit: &str) -> (f64, u32) {
    let played = played(unit);
    (played.precision, played.decimals)
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

/// The unit the CSS is written in, the motion's own, and its kind (a ring's radii, which take
/// no property, are lengths or percentages).
pub(crate) fn css_unit<'a>(baked: &Baked<'a>) -> (&'a str, UnitKind) {
    let unit = &baked.spec.unit;
    (unit, unit_kind(unit).unwrap_or(UnitKind::Number))
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

/// One track of a motion as the fitting sees it.
#[derive(Clone)]
pub struct Curve<'a> {
    /// Its closed form.
    pub motion: &'a dyn Motion,
    /// Where it is not smooth (`Model::track_kinks`).
    pub kinks: Vec<f64>,
    /// Where it stays near one value, played held ([`fit::Hold`]: a ball's last bounces).
    pub holds: Vec<fit::Hold>,
    /// The value it holds from `D` on: its last frame.
    pub end_value: f64,
    /// Its tolerance ([`tolerance`]).
    pub tolerance: Tolerance,
    /// Its unit.
    pub unit: &'a str,
    /// More stops than a fit of it alone over the baked duration makes ([`fit::capacity`]),
    /// found once for the buffers sized by it and the fit.
    pub stops: usize,
}

/// Every track of a baked motion, in track order.
pub fn curves<'a>(baked: &'a Baked, settings: &ExportSettings) -> Vec<Curve<'a>> {
    let spec = baked.spec;
    let units: Vec<&str> = match &spec.model {
        Model::Tracks(multi) => multi.tracks().iter().map(|t| t.unit.as_str()).collect(),
        _ => vec![css_unit(baked).0; baked.tracks.len()],
    };
    let tolerances: Vec<Tolerance> = (baked.tracks.iter().zip(&units))
        .map(|(track, unit)| tolerance(spec, settings, unit, &track.position))
        .collect();
    // Bounces lower than a tenth of the smallest tolerance get no stop of their own: the
    // played curve stays within that of them (`Bounce::impacts_before`), and an impact that
    // does get one reaches the floor within the value's rounding.
    let negligible = (tolerances.iter()).fold(f64::INFINITY, |least, t| least.min(t.kept)) / 10.0;
    let kinks = spec.model.track_kinks_banded(baked.duration, negligible);
    (spec.model.tracks().into_iter())
        .zip(&baked.tracks)
        .zip(kinks)
        .zip(units)
        .zip(tolerances)
        .map(|(((((_, motion), track), kinks), unit), tolerance)| {
            let end_value = track.position[track.position.len() - 1];
            let holds = holds(motion, &kinks, baked.duration);
            let kinks: Vec<f64> = kinks.iter().map(|k| k.t).collect();
            let alone = fit::Track {
                motion,
                scale: Scale::new(0.0, 1.0, tolerance.kept),
                end_value,
                tolerance: tolerance.kept,
                holds: &holds,
            };
            let timing = Timing {
                duration: baked.duration,
                kinks: &kinks,
                repeat_input: true,
            };
            let stops = fit::capacity(&[alone], &timing);
            Curve {
                motion,
                kinks,
                holds,
                end_value,
                tolerance,
                unit,
                stops,
            }
        })
        .collect()
}

/// The holds of a track from its kinks ([`Kink::band`]): from each kink with a band to the
/// next (or `end`), near the motion's value there (a floor).
pub(crate) fn holds(motion: &dyn Motion, kinks: &[Kink], end: f64) -> Vec<fit::Hold> {
    (kinks.iter().enumerate())
        .filter_map(|(i, kink)| {
            Some(fit::Hold {
                from: kink.t,
                until: kinks.get(i + 1).map_or(end, |next| next.t),
                value: motion.position(kink.t),
                band: kink.band?,
            })
        })
        .collect()
}

/// The `linear()` easing of a curve from `from` to `to` played over `duration`: progress
/// stops within the curve's tolerance of the motion at every instant.
pub fn easing(curve: &Curve, endpoints: (f64, f64), duration: f64) -> (Fit, Scale) {
    let mut fit = Fit::default();
    let scale = easing_into(curve, endpoints, duration, &mut fit);
    (fit, scale)
}

/// [`easing`] into `fit`, reusing its memory; returns the scale of its numbers.
pub fn easing_into(curve: &Curve, (from, to): (f64, f64), duration: f64, fit: &mut Fit) -> Scale {
    let scale = Scale::new(from, to - from, curve.tolerance.kept);
    let track = fit::Track {
        motion: curve.motion,
        scale,
        end_value: to,
        tolerance: curve.tolerance.kept,
        holds: &curve.holds,
    };
    let timing = Timing {
        duration,
        kinks: &curve.kinks,
        repeat_input: true,
    };
    fit::fit_into(&[track], &timing, curve.stops, fit);
    scale
}

/// Keyframes of some curves on one timeline played over `duration`: shared stops, each
/// curve's values in its unit (`Scale::new(0, 1, tolerance)`). `repeat_input` says whether two keyframes may share an offset
/// (Web Animations keyframes may; `@keyframes` selectors may not).
pub fn keyframes<'a>(curves: &[impl Borrow<Curve<'a>>], duration: f64, repeat_input: bool) -> Fit {
    let mut fit = Fit::default();
    keyframes_into(curves, duration, repeat_input, &mut fit);
    fit
}

/// The tracks the keyframes of `curves` fit, on the stack (so that a motion allocates as
/// often written as keyframes as as an easing), and their joins.
fn keyframe_tracks<'a: 'c, 'c>(
    curves: &'c [impl Borrow<Curve<'a>>],
) -> ([fit::Track<'c>; fit::MAX_TRACKS], Vec<f64>) {
    assert!(!curves.is_empty() && curves.len() <= fit::MAX_TRACKS);
    let track = |j: usize| {
        let c = curves[j.min(curves.len() - 1)].borrow();
        fit::Track {
            motion: c.motion,
            scale: Scale::new(0.0, 1.0, c.tolerance.kept),
            end_value: c.end_value,
            tolerance: c.tolerance.kept,
            holds: &c.holds,
        }
    };
    let mut kinks: Vec<f64> = curves
        .iter()
        .flat_map(|c| c.borrow().kinks.iter().copied())
        .collect();
    kinks.sort_by(f64::total_cmp);
    kinks.dedup();
    (std::array::from_fn(track), kinks)
}

/// [`keyframes`] into `fit`, reusing its memory.
pub fn keyframes_into<'a>(
    curves: &[impl Borrow<Curve<'a>>],
    duration: f64,
    repeat_input: bool,
    fit: &mut Fit,
) {
    let (tracks, kinks) = keyframe_tracks(curves);
    let timing = Timing {
        duration,
        kinks: &kinks,
        repeat_input,
    };
    let tracks = &tracks[..curves.len()];
    fit::fit_into(tracks, &timing, fit::capacity(tracks, &timing), fit);
}

/// A fit with room for the keyframes of `curves` over `duration` and, reusing it, their
/// easing ([`fit::capacity`]): it then allocates nothing.
pub fn fit_memory(curves: &[Curve], duration: f64) -> Fit {
    let (tracks, kinks) = keyframe_tracks(curves);
    let timing = Timing {
        duration,
        kinks: &kinks,
        repeat_input: true,
    };
    Fit::with_capacity(fit::capacity(&tracks[..curves.len()], &timing), kinks.len())
}

/// Appends `linear(p0,p1 i1%,...)` for track `j` of `fit`: each stop's written number and,
/// where CSS would not place it there by itself, its input. CSS places a stop without an
/// input evenly between the nearest stops that have one (the first at 0 %, the last at
/// 100 %), so an input is left out exactly where its stop is in a run of equal gaps.
pub fn write_linear(out: &mut Vec<u8>, fit: &Fit, j: usize) {
    out.extend_from_slice(b"linear(");
    let n = fit.len();
    let gap = |k: usize| fit.inputs[k + 1].minus(fit.inputs[k]);
    // The gap of the run of equal gaps the stop is in (from the last written input on).
    let mut run = gap(0);
    for k in 0..n {
        if k > 0 {
            out.push(b',');
        }
        fit.value(k, j).write(out);
        let implied = if k == 0 {
            fit.inputs[0] == Decimal::ZERO
        } else if k == n - 1 {
            fit.inputs[k] == Decimal::HUNDRED
        } else {
            // Equal in value, the run goes on.
            let next = gap(k);
            std::mem::replace(&mut run, next) == next
        };
        if !implied {
            out.push(b' ');
            fit.inputs[k].write(out);
            out.push(b'%');
        }
    }
    out.push(b')');
}

/// More stops than the fits of `curves` over the baked duration make, summed over the curves
/// ([`Curve::stops`]).
pub fn stops_estimate(curves: &[Curve]) -> usize {
    curves.iter().map(|curve| curve.stops).sum()
}
