//! Exponential decay (the source article's ExponentialRate), direct and solved from its end.

use super::envelope::Envelope;
use super::error::{finite, MotionError, Result, Unsolvable};
use super::numeric::hex;
use super::{thresholds_can_hold, Motion, Settle};

/// Within this distance of A = -1, `A·e^A` sits so close to the branch point -1/e that
/// forming it in doubles loses about half the digits; the solve uses the hex form there.
const NEAR_BRANCH_POINT: f64 = 1e-2;

/// Newton steps for the hex form; each doubles the digits of a start already good to |A+1|⁴.
const HEX_NEWTON_STEPS: u32 = 4;

/// Below this |A| (a decay that slows to a thousandth of its mean speed and less), W-1 of
/// `A·e^A` is the tail where Lambert W takes a logarithm, and `lambert_w`'s is the platform's
/// (through num-traits), not the same bits everywhere: the solve takes its own there.
const FAR_TAIL: f64 = 1e-3;

/// Newton steps in the far tail: its start is within 1 of the root, and the fourth step
/// already moves it by less than a unit in the last place (h from 10³ to 10³⁰⁸).
const TAIL_NEWTON_STEPS: u32 = 5;

/// A decay with start `from`, initial velocity v0 and rate λ (1/s):
/// v = v0·e^(-λt), x = x0 + v0·t·hex(-λt), with hex(z) = (e^z - 1)/z.
///
/// λ may be 0 (uniform motion) or negative (growth). The hex form is exact for every λ,
/// tiny ones included, where `x0 + v0·(1 - e^(-λt))/λ` would cancel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decay {
    from: f64,
    velocity: f64,
    lambda: f64,
}

impl Decay {
    /// A decay from (from, velocity v0, lambda λ): all finite.
    pub fn new(from: f64, velocity: f64, lambda: f64) -> Result<Self> {
        Ok(Self {
            from: finite("from", from)?,
            velocity: finite("velocity", velocity)?,
            lambda: finite("lambda", lambda)?,
        })
    }

    /// Start position x0.
    pub fn from(&self) -> f64 {
        self.from
    }
    /// Initial velocity v0.
    pub fn initial_velocity(&self) -> f64 {
        self.velocity
    }
    /// Rate λ (1/s).
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// Solves (from, to, end_velocity vT, duration T) for the decay that reaches `to` at T
    /// with velocity vT. See [`SolvedDecay`] for the rules and branches.
    pub fn solve(from: f64, to: f64, end_velocity: f64, duration: f64) -> Result<SolvedDecay> {
        let from = finite("from", from)?;
        let to = finite("to", to)?;
        let end_velocity = finite("end_velocity", end_velocity)?;
        let duration = if duration.is_nan() {
            finite("duration", duration)?
        } else {
            duration
        };
        let distance = to - from;
        let fail = |path: &str, reason| Err(MotionError::unsolvable(path, reason));
        // The rules, in the order of the reference conventions.
        if distance == 0.0 && end_velocity == 0.0 {
            return Ok(SolvedDecay::new(
                Decay {
                    from,
                    velocity: 0.0,
                    lambda: 0.0,
                },
                to,
                duration,
                Branch::AtRest,
            ));
        }
        if duration <= 0.0 || duration.is_infinite() {
            return fail("duration", Unsolvable::NonPositiveDuration);
        }
        if distance == 0.0 {
            return fail("to", Unsolvable::ZeroDistance);
        }
        if end_velocity == 0.0 {
            return fail("end_velocity", Unsolvable::ZeroEndVelocity);
        }
        if (end_velocity > 0.0) != (distance > 0.0) {
            return fail("end_velocity", Unsolvable::VelocityOpposesDistance);
        }
        let (rho, branch) = solve_rho(duration, end_velocity, distance);
        let lambda = rho / duration;
        let velocity = end_velocity * libm::exp(rho);
        if !(distance.is_finite()
            && lambda.is_finite()
            && velocity.is_finite()
            && velocity.is_normal()
            // The growth e^(-λt) <= e^(-ρ) over [0, T] must be finite too, or velocity and
            // position overflow to infinity before T (ρ < -709.78, with |vT| large enough
            // that v0 = vT·e^ρ is still a normal double).
            && libm::exp(-rho).is_finite())
        {
            return fail("", Unsolvable::OutOfRange);
        }
        Ok(SolvedDecay::new(
            Decay {
                from,
                velocity,
                lambda,
            },
            to,
            duration,
            branch,
        ))
    }
}

/// ρ = λ·T, the root of hex(ρ) = D/(T·vT), and the branch that found it.
///
/// With A = -T·vT/D (< 0 here), ρ = A - W(A·e^A) on W0 when A < -1 (the motion speeds up) and on
/// W-1 when -1 < A < 0 (it slows down); ρ = 0 when A = -1. Near A = -1 it solves
/// expm1(ρ) = h·ρ, h = D/(T·vT) = 1 + ε, by Newton from the series ρ ≈ 2ε - 4ε²/3 + 10ε³/9,
/// which never forms A·e^A. In the far tail (|A| < [`FAR_TAIL`], h > 1000) it solves
/// ρ = ln(1 + hρ), written F(ρ) = ρ - ln h - ln(ρ + 1/h) = 0 (no overflow up to h = 10³⁰⁸), by
/// Newton from ρ = L + ln L + 1 (L = ln h), right of the root: F is convex there, so the steps
/// fall to it without overshooting.
fn solve_rho(duration: f64, end_velocity: f64, distance: f64) -> (f64, Branch) {
    let a = -duration * end_velocity / distance;
    let branch = if a < -1.0 {
        Branch::W0
    } else if a > -1.0 {
        Branch::WMinus1
    } else {
        return (0.0, Branch::Linear);
    };
    if a > -FAR_TAIL {
        let h = distance / (duration * end_velocity);
        let (log_h, inverse_h) = (libm::log(h), 1.0 / h);
        let mut rho = log_h + libm::log(log_h) + 1.0;
        for _ in 0..TAIL_NEWTON_STEPS {
            let f = (rho - log_h) - libm::log(rho + inverse_h);
            rho -= f / (1.0 - 1.0 / (rho + inverse_h));
        }
        return (rho, branch);
    }
    if (a + 1.0).abs() >= NEAR_BRANCH_POINT {
        // Away from the branch point A·e^A is well conditioned for W, and for these arguments
        // (from -1/e to -FAR_TAIL·e^-FAR_TAIL) `lambert_w` takes square roots and rational
        // functions only: the same bits everywhere (tests/suite/portable.rs bakes both).
        let x = (a * libm::exp(a)).max(lambert_w::SMALLEST_F64_IN_DOMAIN);
        let w = match branch {
            Branch::W0 => lambert_w::lambert_w0(x),
            _ => lambert_w::lambert_wm1(x),
        };
        return (a - w, branch);
    }
    let epsilon = distance / (duration * end_velocity) - 1.0;
    let mut rho = epsilon * (2.0 + epsilon * (-4.0 / 3.0 + epsilon * 10.0 / 9.0));
    for _ in 0..HEX_NEWTON_STEPS {
        // G(ρ) = expm1(ρ) - (1 + ε)ρ, G'(ρ) = expm1(ρ) - ε.
        let e = libm::expm1(rho);
        let slope = e - epsilon;
        if slope == 0.0 {
            break;
        }
        rho -= ((e - rho) - epsilon * rho) / slope;
    }
    (rho, branch)
}

/// Which real branch of the Lambert W function a decay solve used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// `to == from` and end velocity 0: nothing moves.
    AtRest,
    /// A = -1: uniform motion, λ = 0.
    Linear,
    /// A < -1: W0, the motion speeds up (λ < 0).
    W0,
    /// -1 < A < 0: W-1, the motion slows down (λ > 0).
    WMinus1,
}

impl Branch {
    /// A short name: `at-rest`, `linear`, `W0`, `W-1`.
    pub fn name(self) -> &'static str {
        match self {
            Self::AtRest => "at-rest",
            Self::Linear => "linear",
            Self::W0 => "W0",
            Self::WMinus1 => "W-1",
        }
    }
}

/// A decay solved from its end conditions (from, to, end_velocity vT, duration T), with
/// D = to - from. Rules, in order: D = 0 and vT = 0 is at rest; T <= 0 is
/// `non_positive_duration`; D = 0 is `zero_distance`; vT = 0 is `zero_end_velocity`; vT and D
/// of opposite signs is `velocity_opposes_distance`. Otherwise λ = ρ/T and v0 = vT·e^ρ with ρ
/// the root of hex(ρ) = D/(T·vT), found through the Lambert W function.
///
/// ```
/// use curvebake_motion::{Decay, Motion};
/// let solved = Decay::solve(0.0, 300.0, 20.0, 0.8).unwrap();
/// assert!((solved.position(0.8) - 300.0).abs() < 1e-9);
/// assert!((solved.velocity(0.8) - 20.0).abs() < 1e-9);
/// assert_eq!(solved.branch().name(), "W-1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolvedDecay {
    decay: Decay,
    to: f64,
    duration: f64,
    branch: Branch,
}

impl SolvedDecay {
    fn new(decay: Decay, to: f64, duration: f64, branch: Branch) -> Self {
        Self {
            decay,
            to,
            duration,
            branch,
        }
    }
    /// The solved decay (initial velocity and λ).
    pub fn decay(&self) -> &Decay {
        &self.decay
    }
    /// The position reached at the duration.
    pub fn to(&self) -> f64 {
        self.to
    }
    /// The duration T.
    pub fn duration(&self) -> f64 {
        self.duration
    }
    /// The branch of W used.
    pub fn branch(&self) -> Branch {
        self.branch
    }
}

impl Motion for Decay {
    /// `x⁽ⁿ⁾ = v0·(-λ)^(n-1)·e^(-λt)` is monotone: its range is that of its ends.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        let scale = (-self.lambda).powi(order.max(1) as i32 - 1);
        let (x, y) = (scale * self.velocity(a), scale * self.velocity(b));
        (x.min(y), x.max(y))
    }

    fn position(&self, t: f64) -> f64 {
        self.from + self.velocity * t * hex(-self.lambda * t)
    }
    fn velocity(&self, t: f64) -> f64 {
        if self.velocity == 0.0 {
            0.0
        } else {
            self.velocity * libm::exp(-self.lambda * t)
        }
    }
}

impl Motion for SolvedDecay {
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        self.decay.derivative_range(order, a, b)
    }

    /// The decay's closed form; exactly `to` at t = T, where the closed form equals it.
    fn position(&self, t: f64) -> f64 {
        if t == self.duration {
            self.to
        } else {
            self.decay.position(t)
        }
    }
    fn velocity(&self, t: f64) -> f64 {
        self.decay.velocity(t)
    }
}

impl Settle for Decay {
    /// x0 + v0/λ when λ > 0; x0 when v0 = 0; otherwise it never rests.
    fn rest_position(&self) -> Option<f64> {
        if self.velocity == 0.0 {
            Some(self.from)
        } else if self.lambda > 0.0 {
            Some(self.from + self.velocity / self.lambda)
        } else {
            None
        }
    }
    /// |x - rest| = (|v0|/λ)·e^(-λt) and |v| = |v0|·e^(-λt): exact envelopes.
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        if !thresholds_can_hold(rest_delta, rest_speed) {
            return None;
        }
        if self.velocity == 0.0 {
            return Some(0.0);
        }
        let speed = self.velocity.abs();
        // Not `max(0.0)`: for λ = -0.0 (friction 1) it may return -0.0, and |v0|/-0.0 = -inf
        // would be an envelope that is "settled" from the start.
        let rate = if self.lambda > 0.0 { self.lambda } else { 0.0 };
        let distance = Envelope::exponential(rate, speed / rate);
        let velocity = Envelope::exponential(rate, speed);
        Some(
            distance
                .settles_below(rest_delta)?
                .max(velocity.settles_below(rest_speed)?),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_tail_roots_match_a_40_digit_reference_on_both_sides_of_its_border() {
        // ρ = A - W-1(A·e^A), A = -1/h, by mpmath's lambertw at 40 digits, rounded to
        // doubles. 999.5 is solved by `lambert_w`, the others by the tail's Newton.
        for (h, reference) in [
            (999.5, 9.11756798092276),
            (1000.5, 9.118691023763839),
            (12345.678, 11.897386918839565),
            (1e8, 21.488183944497884),
            (1e100, 235.72115887568532),
            (1e300, 697.3227762954601),
        ] {
            let (rho, branch) = solve_rho(1.0, 1.0, h);
            assert_eq!(branch, Branch::WMinus1);
            let error = ((rho - reference) / reference).abs();
            assert!(
                error <= 4.0 * f64::EPSILON,
                "h {h}: {rho} against {reference}, {error:e}"
            );
        }
    }

    #[test]
    fn solve_round_trips_on_both_branches_and_near_the_branch_point() {
        for (to, vt, dur) in [
            (300.0, 20.0, 0.8),
            (10.0, 50.0, 1.0),
            (100.0, 100.000001, 1.0),
            (100.0, 99.99, 1.0),
        ] {
            let s = Decay::solve(0.0, to, vt, dur).unwrap();
            let d = s.decay();
            assert!((d.position(dur) - to).abs() < 1e-10 * to, "{to} {vt}");
            assert!((d.velocity(dur) - vt).abs() < 1e-10 * vt, "{to} {vt}");
        }
    }

    #[test]
    fn solve_reports_out_of_range_instead_of_nan() {
        let err = Decay::solve(0.0, 1.0, 1000.0, 1000.0).unwrap_err();
        assert!(err.to_string().contains("out_of_range"), "{err}");
        // The whole motion's fault: no field, and the message says "motion".
        assert_eq!(err.path(), None);
        assert!(
            err.to_string().starts_with("motion has no solution"),
            "{err}"
        );
        // An infinite duration is no positive one to solve over.
        let err = Decay::solve(0.0, 100.0, 10.0, f64::INFINITY).unwrap_err();
        assert!(err.to_string().contains("finite and > 0"), "{err}");
    }
}
