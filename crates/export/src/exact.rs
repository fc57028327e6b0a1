//! A track's exact `linear()` easing: the CSS exporter's own (the fitting core's stops placed
//! against the closed form, [`crate::css::easing`]), with the bound it proves: what the
//! design tokens carry to play a motion exactly (DTCG has no spring, and no single cubic
//! Bézier plays one).
//!
//! The easing is the progress `p = (x - from) / (to - from)` over `t / D`: a transition from
//! `from` to `to` over `D` with it plays `x(t)` within [`Exact::bound`] (in the motion's unit)
//! at every instant, joins (hand-offs, gravity impacts) included as stops of their own.

use crate::css::{easing, value_precision, write_linear, Curve};

/// One track's exact easing.
#[derive(Debug, Clone, PartialEq)]
pub struct Exact {
    /// `linear(...)`, as the CSS writes it.
    pub text: String,
    /// Its stops.
    pub stops: usize,
    /// Proven largest distance from the motion at any instant before `D`, in the unit.
    pub bound: f64,
    /// The same in progress (`bound / |to - from|`).
    pub progress_bound: f64,
}

/// The values a track travels between, for an easing of its progress: its first frame and
/// the value it holds from `D` on (its last frame), when they differ by more than the
/// rounding of the values; `None` otherwise (a ring's radius, which returns to 0, has no
/// progress).
pub fn travel(position: &[f64], unit: &str) -> Option<(f64, f64)> {
    let (from, to) = (position[0], position[position.len() - 1]);
    let rounding = 0.5 * 10f64.powi(-(value_precision(unit).1 as i32));
    ((to - from).abs() > rounding).then_some((from, to))
}

/// The exact easing of `curve` from `from` to `to` over `duration`.
pub fn exact_easing(curve: &Curve, (from, to): (f64, f64), duration: f64) -> Exact {
    let (fit, _) = easing(curve, (from, to), duration);
    let mut text = Vec::with_capacity(16 + 24 * fit.len());
    write_linear(&mut text, &fit, 0);
    Exact {
        text: String::from_utf8(text).expect("numbers are ASCII"),
        stops: fit.len(),
        bound: fit.bounds[0],
        progress_bound: fit.bounds[0] / (to - from).abs(),
    }
}
