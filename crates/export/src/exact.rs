//! A track's exact `linear()` easing, placed by the fitting core ([`crate::fit`]) against the
//! closed form, with the bound it proves: what the design tokens carry to play a motion
//! exactly (DTCG has no spring, and no single cubic Bézier plays one).
//!
//! The easing is the progress `p = (x - from) / (to - from)` over `t / D`: a transition from
//! `from` to `to` over `D` with it plays `x(t)` within [`Exact::bound`] (in the motion's unit)
//! at every instant, joins (hand-offs, gravity impacts) included as stops of their own.

use crate::css::value_precision;
use crate::fit::{fit, Scale, Timing, Track};
use curvebake_model::bake::Baked;
use curvebake_motion::Motion;

/// How far the exact easing may stray from the motion, as a multiple of the unit's precision
/// target ([`value_precision`]: 0.01 px, 0.0001 of a unitless value): 0.1 px, 0.001.
pub const EXACT_TOLERANCE_TARGETS: f64 = 10.0;

/// One track's exact easing.
#[derive(Debug, Clone, PartialEq)]
pub struct Exact {
    /// `linear(...)`, every stop with its input.
    pub text: String,
    /// Its stops.
    pub stops: usize,
    /// Proven largest distance from the motion at any instant before `D`, in the unit.
    pub bound: f64,
    /// The same in progress (`bound / |to - from|`).
    pub progress_bound: f64,
}

/// The value a track travels between, for an easing of its progress: its `from` and the
/// value it holds from `D` on (its rest or arrival value, else its last frame), when they
/// differ by more than the rounding of the values; `None` otherwise (a ring's radius, which
/// returns to 0, has no progress).
pub fn travel(position: &[f64], unit: &str) -> Option<(f64, f64)> {
    let (from, to) = (position[0], position[position.len() - 1]);
    let rounding = 0.5 * 10f64.powi(-(value_precision(unit).1 as i32));
    ((to - from).abs() > rounding).then_some((from, to))
}

/// The exact easing of `motion` (track `j` of `baked`, whose joins and impacts are `kinks`)
/// from `from` to `to`, held at `to` from `D` on. Its tolerance is the motion's own
/// (`tolerance`) when it gives one, else [`EXACT_TOLERANCE_TARGETS`] precision targets.
pub fn exact_easing(
    baked: &Baked,
    motion: &dyn Motion,
    kinks: &[f64],
    unit: &str,
    (from, to): (f64, f64),
) -> Exact {
    let tolerance = (baked.spec.tolerance)
        .filter(|t| *t > 0.0)
        .unwrap_or(EXACT_TOLERANCE_TARGETS * value_precision(unit).0);
    let scale = Scale::new(from, to - from, tolerance);
    let track = Track {
        motion,
        scale,
        end_value: to,
        tolerance,
    };
    let timing = Timing {
        duration: baked.duration,
        kinks,
        repeat_input: true,
    };
    let f = fit(&[track], &timing);
    let mut text = Vec::with_capacity(16 + 24 * f.len());
    text.extend_from_slice(b"linear(");
    for k in 0..f.len() {
        if k > 0 {
            text.extend_from_slice(b", ");
        }
        f.value(k, 0).write(&mut text);
        text.push(b' ');
        f.inputs[k].write(&mut text);
        text.push(b'%');
    }
    text.push(b')');
    Exact {
        text: String::from_utf8(text).expect("numbers are ASCII"),
        stops: f.len(),
        bound: f.bounds[0],
        progress_bound: f.bounds[0] / (to - from).abs(),
    }
}
