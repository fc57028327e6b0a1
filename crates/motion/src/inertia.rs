//! Inertia: a fling with friction that stops inside bounds (a rubber band at each bound) or on
//! a snap point, in closed form piecewise.
//!
//! With x0 = `from`, v0 = `velocity`, λ = -ln(friction) >= 0 and the bounce spring of mass 1,
//! stiffness k and damping c:
//! - **free**: inside the bounds and never reaching one, it is the friction motion
//!   x(t) = x0 + v0·t·hex(-λt), v(t) = v0·e^(-λt), resting at x0 + v0/λ.
//! - **hits a bound** B (the one ahead, when the free rest lies beyond it): the friction motion
//!   reaches B at t_B = -log1p(-λ(B - x0)/v0)/λ ((B - x0)/v0 when λ = 0) with velocity
//!   v_B = v0 - λ(B - x0) (exact: v = v0 - λ(x - x0) along the whole friction motion, no exp);
//!   from then on it is the spring from B with v_B resting at B. log1p keeps t_B exact when
//!   λ(B - x0)/v0 is small, where ln(1 - q) would round q away.
//! - **starts outside** the bounds: the spring from x0 with v0 to the nearest bound.
//! - **snap**: the target is the snap point nearest the free rest x0 + v0/λ (the lower of two
//!   equally near). If it lies ahead in the direction of motion and at most [`GLIDE`] times
//!   as far as the free rest (λ' >= λ/GLIDE), the motion is the friction that rests exactly
//!   there, λ' = v0/(target - x0) (as `Friction(from, to, velocity)`), keeping v0; otherwise
//!   (behind, at x0, no velocity, or a slow fling far from it, whose friction would crawl:
//!   λ' -> 0 as v0 -> 0 and its time to rest grows as 1/λ') the spring from (x0, v0) to it.
//!
//! Position is continuous at t_B by construction (the spring starts at B); velocity is
//! continuous because v_B is the friction motion's velocity there.

use super::decay::Decay;
use super::error::{check, finite, non_negative, positive, MotionError, Result};
use super::friction::Friction;
use super::spring::Spring;
use super::{Motion, Settle};

/// How much further than its free rest friction may carry a fling onto a snap point ahead
/// (see the module documentation); the runtime of `play` glides the same.
pub const GLIDE: f64 = 2.0;

/// Default stiffness of the bounce spring (mass 1).
pub const DEFAULT_BOUNCE_STIFFNESS: f64 = 500.0;
/// Default damping of the bounce spring.
pub const DEFAULT_BOUNCE_DAMPING: f64 = 10.0;

/// What an inertia motion does, decided from its inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InertiaCase {
    /// Friction alone; rests inside the bounds (or never, with friction 1).
    Free,
    /// Friction until it reaches `bound` at `time` with `velocity`, then the bounce spring.
    HitsBound {
        /// The bound B.
        bound: f64,
        /// t_B.
        time: f64,
        /// v_B.
        velocity: f64,
        /// Whether B is the upper bound.
        upper: bool,
    },
    /// Starts outside the bounds: the bounce spring to the nearest bound.
    StartsOutside {
        /// That bound.
        bound: f64,
        /// Whether it is the upper bound.
        upper: bool,
    },
    /// A snap point ahead: the friction that rests exactly on it.
    SnapAhead {
        /// The snap point.
        target: f64,
    },
    /// A snap point behind (or no velocity): the bounce spring to it.
    SnapBehind {
        /// The snap point.
        target: f64,
    },
}

impl InertiaCase {
    /// A short name: `free`, `hits max`, `hits min`, `starts above max`, `starts below min`,
    /// `snap ahead`, `snap behind`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::HitsBound { upper: true, .. } => "hits max",
            Self::HitsBound { upper: false, .. } => "hits min",
            Self::StartsOutside { upper: true, .. } => "starts above max",
            Self::StartsOutside { upper: false, .. } => "starts below min",
            Self::SnapAhead { .. } => "snap ahead",
            Self::SnapBehind { .. } => "snap behind",
        }
    }
}

/// The inputs of an inertia motion.
#[derive(Debug, Clone, PartialEq)]
pub struct InertiaParams {
    /// x0.
    pub from: f64,
    /// v0.
    pub velocity: f64,
    /// Fraction of velocity kept per second, in (0, 1].
    pub friction: f64,
    /// Lower bound.
    pub min: Option<f64>,
    /// Upper bound.
    pub max: Option<f64>,
    /// Bounce spring stiffness (mass 1), > 0.
    pub bounce_stiffness: f64,
    /// Bounce spring damping, >= 0.
    pub bounce_damping: f64,
    /// Snap points, each within the bounds.
    pub snap: Vec<f64>,
}

/// The pieces, in time order.
#[derive(Debug, Clone, PartialEq)]
enum Pieces {
    /// One decay (free fling or snap ahead).
    Decay(Decay),
    /// One spring (starts outside, snap behind).
    Spring(Spring),
    /// A decay until `at`, then a spring (its time measured from `at`).
    DecayThenSpring {
        decay: Decay,
        at: f64,
        spring: Spring,
    },
}

/// A fling with bounds and snap points; see the module documentation.
///
/// ```
/// use curvebake_motion::{Inertia, InertiaParams, Motion};
/// let scroll = Inertia::new(InertiaParams {
///     from: 0.0, velocity: 2000.0, friction: 0.05, min: Some(0.0), max: Some(300.0),
///     bounce_stiffness: 500.0, bounce_damping: 10.0, snap: vec![],
/// }).unwrap();
/// let hit = scroll.bound_time().unwrap();
/// assert!((scroll.position(hit) - 300.0).abs() < 1e-9);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Inertia {
    params: InertiaParams,
    lambda: f64,
    case: InertiaCase,
    pieces: Pieces,
}

impl Inertia {
    /// Validates the inputs and decides the case.
    pub fn new(params: InertiaParams) -> Result<Self> {
        check_params(&params)?;
        let x0 = params.from;
        let lambda = -libm::log(params.friction);
        let (case, pieces) = if let Some(bound) = params.min.filter(|&lo| x0 < lo) {
            (
                InertiaCase::StartsOutside {
                    bound,
                    upper: false,
                },
                Pieces::Spring(bounce(&params, x0, params.velocity, bound)?),
            )
        } else if let Some(bound) = params.max.filter(|&hi| x0 > hi) {
            (
                InertiaCase::StartsOutside { bound, upper: true },
                Pieces::Spring(bounce(&params, x0, params.velocity, bound)?),
            )
        } else if !params.snap.is_empty() {
            snap_case(&params, lambda)?
        } else {
            fling_case(&params, lambda)?
        };
        Ok(Self {
            params,
            lambda,
            case,
            pieces,
        })
    }

    /// The inputs.
    pub fn params(&self) -> &InertiaParams {
        &self.params
    }
    /// λ = -ln(friction).
    pub fn lambda(&self) -> f64 {
        self.lambda
    }
    /// Which case happened.
    pub fn case(&self) -> InertiaCase {
        self.case
    }
    /// t_B, when the fling hits a bound.
    pub fn bound_time(&self) -> Option<f64> {
        match self.case {
            InertiaCase::HitsBound { time, .. } => Some(time),
            _ => None,
        }
    }
    /// Where the fling would rest without bounds or snap points: x0 + v0/λ (`None` with
    /// friction 1 and a velocity).
    pub fn free_rest(&self) -> Option<f64> {
        let (x0, v0) = (self.params.from, self.params.velocity);
        if v0 == 0.0 {
            Some(x0)
        } else {
            (self.lambda > 0.0).then(|| x0 + v0 / self.lambda)
        }
    }
    /// Where it comes to rest exactly (a bound or snap point), if that is decided by a
    /// target rather than by the friction; else `None`.
    pub fn target(&self) -> Option<f64> {
        match self.case {
            InertiaCase::Free => None,
            InertiaCase::HitsBound { bound, .. } | InertiaCase::StartsOutside { bound, .. } => {
                Some(bound)
            }
            InertiaCase::SnapAhead { target } | InertiaCase::SnapBehind { target } => Some(target),
        }
    }
    /// The friction motion's rate in the snap-ahead case (v0/(target - x0)).
    pub fn snap_lambda(&self) -> Option<f64> {
        match (&self.case, &self.pieces) {
            (InertiaCase::SnapAhead { .. }, Pieces::Decay(d)) => Some(d.lambda()),
            _ => None,
        }
    }
}

/// Checks the inputs, in the order of their fields: finite numbers, friction in (0, 1], a
/// bounce spring with k > 0 and c >= 0, min <= max, and each snap point within the bounds.
fn check_params(params: &InertiaParams) -> Result<()> {
    finite("from", params.from)?;
    finite("velocity", params.velocity)?;
    check("friction", params.friction, "in (0, 1]", |f| {
        f > 0.0 && f <= 1.0
    })?;
    positive("bounce_stiffness", params.bounce_stiffness)?;
    non_negative("bounce_damping", params.bounce_damping)?;
    let min = params.min.map(|m| finite("min", m)).transpose()?;
    let max = params.max.map(|m| finite("max", m)).transpose()?;
    if let (Some(lo), Some(hi)) = (min, max) {
        if lo > hi {
            return Err(MotionError::Invalid {
                path: "max".into(),
                requirement: ">= min",
                value: hi,
            });
        }
    }
    for (i, &s) in params.snap.iter().enumerate() {
        let s = finite(&format!("snap[{i}]"), s)?;
        if min.is_some_and(|lo| s < lo) || max.is_some_and(|hi| s > hi) {
            return Err(MotionError::Invalid {
                path: format!("snap[{i}]"),
                requirement: "within the bounds min ..= max",
                value: s,
            });
        }
    }
    Ok(())
}

/// The bounce spring (mass 1, the inputs' stiffness and damping) from `from` with `velocity`,
/// resting at `to`.
fn bounce(params: &InertiaParams, from: f64, velocity: f64, to: f64) -> Result<Spring> {
    Spring::new(
        from,
        to,
        velocity,
        1.0,
        params.bounce_stiffness,
        params.bounce_damping,
    )
    .map_err(|e| match e {
        // Named as the inertia names them.
        MotionError::Invalid {
            path,
            requirement,
            value,
        } => MotionError::Invalid {
            path: match path.as_str() {
                "stiffness" => "bounce_stiffness".into(),
                "damping" => "bounce_damping".into(),
                _ => path,
            },
            requirement,
            value,
        },
        other => other,
    })
}

/// With snap points: the target is the one nearest the free rest x0 + v0/λ (x0 without a
/// velocity). Ahead in the direction of motion and within [`GLIDE`] times the free glide, the
/// friction that rests exactly on it, λ' = v0/(target - x0); otherwise the bounce spring to it.
fn snap_case(params: &InertiaParams, lambda: f64) -> Result<(InertiaCase, Pieces)> {
    let (x0, v0) = (params.from, params.velocity);
    if lambda == 0.0 && v0 != 0.0 {
        return Err(MotionError::Invalid {
            path: "friction".into(),
            requirement: "< 1 with snap points (with friction 1 the fling never rests, so no point is nearest its rest)",
            value: params.friction,
        });
    }
    let free_rest = if v0 == 0.0 { x0 } else { x0 + v0 / lambda };
    let target = nearest(&params.snap, free_rest);
    // q = λ(target - x0)/v0 = λ/λ': positive ahead, at most GLIDE within reach.
    let q = lambda * (target - x0) / v0;
    let ahead = q > 0.0 && q <= GLIDE;
    Ok(if ahead {
        let friction = Friction::snap(x0, target, v0)?;
        (
            InertiaCase::SnapAhead { target },
            Pieces::Decay(*friction.decay()),
        )
    } else {
        (
            InertiaCase::SnapBehind { target },
            Pieces::Spring(bounce(params, x0, v0, target)?),
        )
    })
}

/// The point of `points` nearest `x`, the lower of two equally near (NaN for none).
fn nearest(points: &[f64], x: f64) -> f64 {
    points.iter().copied().fold(f64::NAN, |best, s| {
        let (d, db) = ((s - x).abs(), (best - x).abs());
        if best.is_nan() || d < db || (d == db && s < best) {
            s
        } else {
            best
        }
    })
}

/// Without snap points, starting inside the bounds: the friction motion, free unless it
/// reaches the bound B ahead before it rests; then it hits B at
/// t_B = -log1p(-λ(B - x0)/v0)/λ ((B - x0)/v0 when λ = 0) with v_B = v0 - λ(B - x0), and
/// the bounce spring takes over from B with v_B, resting at B.
fn fling_case(params: &InertiaParams, lambda: f64) -> Result<(InertiaCase, Pieces)> {
    let (x0, v0) = (params.from, params.velocity);
    let decay = Decay::new(x0, v0, lambda)?;
    let ahead = if v0 > 0.0 {
        params.max.map(|b| (b, true))
    } else if v0 < 0.0 {
        params.min.map(|b| (b, false))
    } else {
        None
    };
    // q = λ(B - x0)/v0 in [0, ∞): the bound is reached iff q < 1 (q = 1: it rests
    // exactly on B, which is inside).
    Ok(
        match ahead.map(|(b, upper)| (b, upper, lambda * (b - x0) / v0)) {
            Some((bound, upper, q)) if q < 1.0 => {
                let time = if lambda == 0.0 {
                    (bound - x0) / v0
                } else {
                    -libm::log1p(-q) / lambda
                };
                let velocity = v0 - lambda * (bound - x0);
                (
                    InertiaCase::HitsBound {
                        bound,
                        time,
                        velocity,
                        upper,
                    },
                    Pieces::DecayThenSpring {
                        decay,
                        at: time,
                        spring: bounce(params, bound, velocity, bound)?,
                    },
                )
            }
            _ => (InertiaCase::Free, Pieces::Decay(decay)),
        },
    )
}

impl Motion for Inertia {
    /// The range of the piece (or of both pieces) that `[a, b]` overlaps.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        match &self.pieces {
            Pieces::Decay(d) => d.derivative_range(order, a, b),
            Pieces::Spring(s) => s.derivative_range(order, a, b),
            Pieces::DecayThenSpring { decay, at, spring } => {
                if b <= *at {
                    decay.derivative_range(order, a, b)
                } else if a >= *at {
                    spring.derivative_range(order, a - at, b - at)
                } else {
                    super::numeric::union(
                        decay.derivative_range(order, a, *at),
                        spring.derivative_range(order, 0.0, b - at),
                    )
                }
            }
        }
    }

    fn position(&self, t: f64) -> f64 {
        self.state(t).0
    }
    fn velocity(&self, t: f64) -> f64 {
        self.state(t).1
    }
    fn state(&self, t: f64) -> (f64, f64) {
        match &self.pieces {
            Pieces::Decay(d) => d.state(t),
            Pieces::Spring(s) => s.state(t),
            Pieces::DecayThenSpring { decay, at, spring } => {
                if t < *at {
                    decay.state(t)
                } else {
                    spring.state(t - at)
                }
            }
        }
    }
}

impl Settle for Inertia {
    fn rest_position(&self) -> Option<f64> {
        self.target().or_else(|| match &self.pieces {
            Pieces::Decay(d) => d.rest_position(),
            _ => None,
        })
    }
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        match &self.pieces {
            Pieces::Decay(d) => d.settle_time(rest_delta, rest_speed),
            Pieces::Spring(s) => s.settle_time(rest_delta, rest_speed),
            Pieces::DecayThenSpring { at, spring, .. } => {
                Some(at + spring.settle_time(rest_delta, rest_speed)?)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fling(
        from: f64,
        velocity: f64,
        min: Option<f64>,
        max: Option<f64>,
        snap: &[f64],
    ) -> Inertia {
        Inertia::new(InertiaParams {
            from,
            velocity,
            friction: 0.05,
            min,
            max,
            bounce_stiffness: DEFAULT_BOUNCE_STIFFNESS,
            bounce_damping: DEFAULT_BOUNCE_DAMPING,
            snap: snap.to_vec(),
        })
        .unwrap()
    }

    #[test]
    fn each_case_is_decided_as_documented() {
        // Friction 0.05: λ = ln 20 ≈ 2.996, free rest = from + v/λ ≈ from + 0.3338·v.
        assert_eq!(
            fling(0.0, 100.0, Some(0.0), Some(300.0), &[]).case(),
            InertiaCase::Free
        );
        assert_eq!(
            fling(0.0, 2000.0, None, Some(300.0), &[]).case().name(),
            "hits max"
        );
        assert_eq!(
            fling(0.0, -2000.0, Some(-300.0), None, &[]).case().name(),
            "hits min"
        );
        assert_eq!(
            fling(400.0, 0.0, Some(0.0), Some(300.0), &[]).case().name(),
            "starts above max"
        );
        assert_eq!(
            fling(-5.0, 0.0, Some(0.0), Some(300.0), &[]).case().name(),
            "starts below min"
        );
        // Free rest ≈ 333.8: the nearest point is 300, ahead; 400 is further.
        let snap = fling(0.0, 1000.0, None, None, &[0.0, 300.0, 400.0]);
        assert_eq!(snap.case(), InertiaCase::SnapAhead { target: 300.0 });
        assert!((snap.snap_lambda().unwrap() - 1000.0 / 300.0).abs() < 1e-12);
        // From 310 at +10: free rest ≈ 313.3, nearest 300, which is behind.
        assert_eq!(
            fling(310.0, 10.0, None, None, &[300.0, 400.0]).case(),
            InertiaCase::SnapBehind { target: 300.0 }
        );
        assert_eq!(
            fling(250.0, 0.0, None, None, &[300.0, 0.0]).case(),
            InertiaCase::SnapBehind { target: 300.0 }
        );
    }

    #[test]
    fn a_slow_fling_towards_a_far_snap_point_springs_there_instead_of_crawling() {
        // From 300 at +v towards the page at 400 (free rest ≈ 300 + 0.3338·v).
        let settle = |m: &Inertia| m.settle_time(0.1, 1.0).unwrap();
        // Within GLIDE of the free glide: friction, which keeps v0 and rests exactly there.
        let glide = fling(300.0, 160.0, None, None, &[400.0, 0.0]);
        assert_eq!(glide.case(), InertiaCase::SnapAhead { target: 400.0 });
        // 100 px ahead is about 6 free glides at 50 px/s: friction would take λ' = 0.5 /s.
        for v in [50.0, 10.0, 1e-3, 1e-300] {
            let slow = fling(300.0, v, None, None, &[400.0, 100.0]);
            assert_eq!(
                slow.case(),
                InertiaCase::SnapBehind { target: 400.0 },
                "{v}"
            );
            assert_eq!(slow.velocity(0.0), v);
            assert!(settle(&slow) < 2.0, "{v}: {}", settle(&slow));
        }
        // The rule's edge: GLIDE free glides ahead is still friction, at λ/GLIDE.
        let lambda = -(0.05f64).ln();
        let edge = fling(
            0.0,
            300.0 * lambda / GLIDE * (1.0 + 1e-9),
            None,
            None,
            &[300.0],
        );
        assert_eq!(edge.case(), InertiaCase::SnapAhead { target: 300.0 });
        assert!((edge.snap_lambda().unwrap() * GLIDE / lambda - 1.0).abs() < 1e-8);
        let past = fling(
            0.0,
            300.0 * lambda / GLIDE * (1.0 - 1e-9),
            None,
            None,
            &[300.0],
        );
        assert_eq!(past.case(), InertiaCase::SnapBehind { target: 300.0 });
    }

    #[test]
    fn the_bound_is_hit_with_the_friction_velocity() {
        for (from, v, bound) in [
            (0.0, 2000.0, 300.0),
            (100.0, -3000.0, -50.0),
            (300.0, 10.0, 300.0),
        ] {
            let (min, max) = if v > 0.0 {
                (None, Some(bound))
            } else {
                (Some(bound), None)
            };
            let m = fling(from, v, min, max, &[]);
            let tb = m.bound_time().unwrap();
            let decay = Decay::new(from, v, -(0.05f64).ln()).unwrap();
            let (x, vb) = decay.state(tb);
            assert!(
                (x - bound).abs() <= 1e-12 * bound.abs().max(1.0),
                "{x} vs {bound}"
            );
            let InertiaCase::HitsBound { velocity, .. } = m.case() else {
                panic!()
            };
            assert!(
                (vb - velocity).abs() <= 1e-12 * v.abs(),
                "{vb} vs {velocity}"
            );
            assert_eq!(m.position(tb), bound);
            assert_eq!(m.rest_position(), Some(bound));
        }
    }

    #[test]
    fn invalid_inputs_name_their_field() {
        let err = |p: InertiaParams| Inertia::new(p).unwrap_err().to_string();
        let base = InertiaParams {
            from: 0.0,
            velocity: 100.0,
            friction: 0.1,
            min: Some(0.0),
            max: Some(100.0),
            bounce_stiffness: 500.0,
            bounce_damping: 10.0,
            snap: vec![],
        };
        assert_eq!(
            err(InertiaParams {
                snap: vec![50.0, 150.0],
                ..base.clone()
            }),
            "snap[1] must be within the bounds min ..= max, got 150"
        );
        assert_eq!(
            err(InertiaParams {
                min: Some(200.0),
                ..base.clone()
            }),
            "max must be >= min, got 100"
        );
        assert!(err(InertiaParams {
            friction: 1.0,
            max: None,
            snap: vec![5.0],
            ..base.clone()
        })
        .starts_with("friction must be < 1 with snap points"));
    }
}
