//! The damped spring `m·u'' + c·u' + k·u = 0`.

use super::envelope::Envelope;
use super::error::{check, finite, non_negative, positive, Result};
use super::numeric::{floor, sinc, sinhc};
use super::{frame_time, thresholds_can_hold, Jet, Motion, Settle};
use std::f64::consts::PI;

/// Above this `g·t` an overdamped spring is evaluated in its modal form
/// `A1·e^(r1·t) + A2·e^(r2·t)`; below it through `e^(-σt)·sinh(gt)/g`, which joins the
/// critical form smoothly. Either is accurate at the switch.
const MODAL_SWITCH: f64 = 0.5;

/// Below this ωd·t the underdamped S uses t·sinc(ωd·t); above it sin(ωd·t)/ωd, which is then
/// just as exact and cheaper.
const SINC_SWITCH: f64 = 1e-3;

/// Frames [`Spring::sample`] steps from one evaluation of the closed form.
const RUN: usize = 16;

/// A damped spring from `from` towards `to`, with initial `velocity`.
///
/// With u = x - to, u0 = from - to, σ = c/(2m) and ω0² = k/m:
/// - underdamped (c² < 4mk): ωd = √(4mk - c²)/(2m), C = e^(-σt)·cos(ωd·t), S = e^(-σt)·sin(ωd·t)/ωd
/// - critically damped (c² = 4mk): C = e^(-σt), S = e^(-σt)·t
/// - overdamped (c² > 4mk): g = √(c² - 4mk)/(2m), C = e^(-σt)·cosh(gt), S = e^(-σt)·sinh(gt)/g
///
/// and u = u0·C + (v0 + σ·u0)·S, v = v0·C - (ω0²·u0 + σ·v0)·S.
///
/// `sin(ωd·t)/ωd` and `sinh(gt)/g` are evaluated as `t·sinc(ωd·t)` and `t·sinhc(gt)`, so the
/// three regimes join continuously at damping ratio 1 without any test for equality. Once
/// `gt` is large, the overdamped spring switches to its modal form with the slow root
/// `r1 = -ω0²/(σ + g)` (no cancellation in `-σ + g`), which keeps damping ratios of 1e6 and
/// beyond exact.
///
/// ```
/// use curvebake_motion::{Motion, Spring};
/// let spring = Spring::new(0.0, 100.0, 0.0, 1.0, 170.0, 26.0).unwrap();
/// assert_eq!(spring.position(0.0), 0.0);
/// assert!((spring.position(5.0) - 100.0).abs() < 1e-3);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Spring {
    from: f64,
    to: f64,
    velocity: f64,
    mass: f64,
    stiffness: f64,
    damping: f64,
    /// u0 = from - to.
    u0: f64,
    /// σ = c/(2m).
    sigma: f64,
    /// ω0² = k/m.
    omega0_sq: f64,
    /// σ² - ω0², the scaled discriminant (c² - 4mk)/(4m²).
    discriminant: f64,
    /// √|σ² - ω0²|: ωd when underdamped, g when overdamped.
    root: f64,
    /// v0 + σ·u0, the coefficient of S in u.
    s_in_position: f64,
    /// -(ω0²·u0 + σ·v0), the coefficient of S in v.
    s_in_velocity: f64,
    /// Where `x''` has its extrema, the zeros of `x'''`, as [`Spring::zero_times`] gives
    /// them from t = 0: found once, for every segment [`Motion::bend`] bounds.
    bend_extrema: (f64, f64),
}

impl Spring {
    /// A spring with physical parameters: mass > 0, stiffness > 0, damping >= 0.
    pub fn new(
        from: f64,
        to: f64,
        velocity: f64,
        mass: f64,
        stiffness: f64,
        damping: f64,
    ) -> Result<Self> {
        let from = finite("from", from)?;
        let to = finite("to", to)?;
        let velocity = finite("velocity", velocity)?;
        let mass = positive("mass", mass)?;
        let stiffness = positive("stiffness", stiffness)?;
        let damping = non_negative("damping", damping)?;
        let spring = Self::assemble(from, to, velocity, mass, stiffness, damping);
        if spring.is_finite() {
            return Ok(spring);
        }
        // Finite inputs whose derived terms overflow: blame the input furthest from 1 (in
        // powers of ten) among those of the rate k/m, c/(2m) or the discriminant
        // (c² - 4mk)/(4m²) that overflows, else the distance `to - from` if the same spring at
        // rest (velocity 0) overflows, else the velocity.
        let invalid = |path: &str, requirement, value| {
            Err(super::MotionError::Invalid {
                path: path.into(),
                requirement,
                value,
            })
        };
        let extreme = |inputs: &[(&'static str, f64)], what: [&'static str; 2]| {
            let size = |x: f64| if x > 0.0 { libm::log2(x).abs() } else { 0.0 };
            let &(path, value) = (inputs.iter())
                .max_by(|a, b| size(a.1).total_cmp(&size(b.1)))
                .expect("inputs");
            invalid(path, what[usize::from(value < 1.0)], value)
        };
        let (m, k, c) = (
            ("mass", mass),
            ("stiffness", stiffness),
            ("damping", damping),
        );
        if !spring.omega0_sq.is_finite() {
            extreme(
                &[k, m],
                [
                    "small enough that k/m stays finite",
                    "large enough that k/m stays finite",
                ],
            )
        } else if !spring.sigma.is_finite() {
            extreme(
                &[c, m],
                [
                    "small enough that c/(2m) stays finite",
                    "large enough that c/(2m) stays finite",
                ],
            )
        } else if !spring.discriminant.is_finite() {
            extreme(
                &[k, c, m],
                [
                    "small enough that (c² - 4mk)/(4m²) stays finite",
                    "large enough that (c² - 4mk)/(4m²) stays finite",
                ],
            )
        } else if !Self::assemble(from, to, 0.0, mass, stiffness, damping).is_finite() {
            invalid(
                "to",
                "close enough to `from` that k/m·(from - to) stays finite",
                to,
            )
        } else {
            invalid(
                "velocity",
                "small enough that c/(2m)·velocity stays finite",
                velocity,
            )
        }
    }

    /// The spring with its derived terms, unchecked.
    fn assemble(
        from: f64,
        to: f64,
        velocity: f64,
        mass: f64,
        stiffness: f64,
        damping: f64,
    ) -> Self {
        let u0 = from - to;
        let sigma = damping / (2.0 * mass);
        let omega0_sq = stiffness / mass;
        let discriminant = damping.mul_add(damping, -4.0 * mass * stiffness) / (4.0 * mass * mass);
        let mut spring = Self {
            from,
            to,
            velocity,
            mass,
            stiffness,
            damping,
            u0,
            sigma,
            omega0_sq,
            discriminant,
            root: discriminant.abs().sqrt(),
            s_in_position: 0.0,
            s_in_velocity: 0.0,
            bend_extrema: (f64::NAN, f64::INFINITY),
        }
        .started_at(u0, velocity);
        let (_, third, fourth) = spring.derivatives(2, 0.0);
        spring.bend_extrema = spring.zero_times(third, sigma.mul_add(third, fourth));
        spring
    }

    /// The same spring started from displacement `u0` with velocity `velocity`: the
    /// coefficients of S in u and v follow (its extrema of `x''` do not: for the closed form
    /// only).
    fn started_at(self, u0: f64, velocity: f64) -> Self {
        Self {
            u0,
            velocity,
            s_in_position: self.sigma.mul_add(u0, velocity),
            s_in_velocity: -self.omega0_sq.mul_add(u0, self.sigma * velocity),
            ..self
        }
    }

    /// Whether every derived term the closed forms use is finite: the rates, the distance,
    /// the coefficients of S and, when overdamped, the modal amplitudes and their slopes (the
    /// modal form divides by 2g, which can be tiny near critical damping).
    fn is_finite(&self) -> bool {
        let (bu, bv) = self.s_coefficients();
        let ((r1, r2), (a1, a2)) = if self.discriminant > 0.0 {
            self.modes()
        } else {
            ((0.0, 0.0), (0.0, 0.0))
        };
        [
            self.u0,
            self.sigma,
            self.omega0_sq,
            self.discriminant,
            bu,
            bv,
            a1,
            a2,
            a1 * r1,
            a2 * r2,
        ]
        .iter()
        .all(|x| x.is_finite())
    }

    /// A spring from the perceptual parameters of SwiftUI and Flutter: `duration` P > 0 and
    /// `bounce` b in (-1, 1). Mass 1, stiffness (2π/P)², damping 4π(1 - b)/P for b >= 0 and
    /// 4π/(P(1 + b)) for b < 0; so the damping ratio is 1 - b, or 1/(1 + b).
    pub fn perceptual(
        from: f64,
        to: f64,
        velocity: f64,
        duration: f64,
        bounce: f64,
    ) -> Result<Self> {
        let (mass, stiffness, damping) = perceptual_parameters(duration, bounce)?;
        Self::new(from, to, velocity, mass, stiffness, damping)
    }

    /// Start position.
    pub fn from(&self) -> f64 {
        self.from
    }
    /// Resting position.
    pub fn to(&self) -> f64 {
        self.to
    }
    /// Initial velocity.
    pub fn initial_velocity(&self) -> f64 {
        self.velocity
    }
    /// Mass m.
    pub fn mass(&self) -> f64 {
        self.mass
    }
    /// Stiffness k.
    pub fn stiffness(&self) -> f64 {
        self.stiffness
    }
    /// Damping c.
    pub fn damping(&self) -> f64 {
        self.damping
    }
    /// Damping ratio ζ = c/(2√(km)).
    pub fn damping_ratio(&self) -> f64 {
        self.sigma / self.omega0_sq.sqrt()
    }
    /// Natural (undamped) angular frequency ω0 = √(k/m), in rad/s.
    pub fn natural_frequency(&self) -> f64 {
        self.omega0_sq.sqrt()
    }
    /// Damped angular frequency ωd (rad/s) when underdamped, else `None`.
    pub fn damped_frequency(&self) -> Option<f64> {
        (self.discriminant < 0.0).then_some(self.root)
    }

    /// (v0 + σ·u0, -(ω0²·u0 + σ·v0)): the coefficients of S in u and in v.
    fn s_coefficients(&self) -> (f64, f64) {
        (self.s_in_position, self.s_in_velocity)
    }

    /// The overdamped modal form: roots (r1, r2) and amplitudes (A1, A2), u = A1·e^(r1 t) + A2·e^(r2 t).
    fn modes(&self) -> ((f64, f64), (f64, f64)) {
        let g = self.root;
        let r_fast = -(self.sigma + g);
        let r_slow = -self.omega0_sq / (self.sigma + g);
        let a_slow = (self.velocity - r_fast * self.u0) / (2.0 * g);
        let a_fast = (r_slow * self.u0 - self.velocity) / (2.0 * g);
        ((r_slow, r_fast), (a_slow, a_fast))
    }

    /// Displacement u = x - to and velocity at time t.
    fn displacement_and_velocity(&self, t: f64) -> (f64, f64) {
        let x = self.root * t;
        if self.discriminant > 0.0 && x > MODAL_SWITCH {
            let ((r1, r2), (a1, a2)) = self.modes();
            let (e1, e2) = (libm::exp(r1 * t), libm::exp(r2 * t));
            return (a1 * e1 + a2 * e2, a1 * r1 * e1 + a2 * r2 * e2);
        }
        let envelope = libm::exp(-self.sigma * t);
        let (c, s) = if self.discriminant < 0.0 {
            let (sin, cos) = libm::sincos(x);
            // sin(ωd·t)/ωd = t·sinc(ωd·t): exact as ωd -> 0, where sin/ωd would be 0/0.
            let s = if x.abs() < SINC_SWITCH {
                t * sinc(x)
            } else {
                sin / self.root
            };
            (envelope * cos, envelope * s)
        } else {
            (envelope * libm::cosh(x), envelope * t * sinhc(x))
        };
        let (bu, bv) = self.s_coefficients();
        (self.u0 * c + bu * s, self.velocity * c + bv * s)
    }

    /// Bounds on |u| and |v|: see [`Envelope`]. The linear part (|a| + |b|·t)·e^(-rate·t)
    /// holds in every regime; the constant part is the oscillation amplitude (underdamped) or
    /// the sum of the modal amplitudes (overdamped).
    fn envelopes(&self) -> (Envelope, Envelope) {
        let (bu, bv) = self.s_coefficients();
        let (rate, amp_u, amp_v) = if self.discriminant < 0.0 {
            let w = self.root;
            (
                self.sigma,
                libm::hypot(self.u0, bu / w),
                libm::hypot(self.velocity, bv / w),
            )
        } else if self.discriminant > 0.0 {
            let ((r1, r2), (a1, a2)) = self.modes();
            (-r1, a1.abs() + a2.abs(), (a1 * r1).abs() + (a2 * r2).abs())
        } else {
            (self.sigma, f64::INFINITY, f64::INFINITY)
        };
        let envelope = |amplitude: f64, start: f64, slope: f64| Envelope {
            rate,
            amplitude: if amplitude.is_nan() {
                f64::INFINITY
            } else {
                amplitude
            },
            start: start.abs(),
            slope: slope.abs(),
        };
        (
            envelope(amp_u, self.u0, bu),
            envelope(amp_v, self.velocity, bv),
        )
    }
}

/// (mass, stiffness, damping) of a perceptual spring; see [`Spring::perceptual`].
pub fn perceptual_parameters(duration: f64, bounce: f64) -> Result<(f64, f64, f64)> {
    let duration = positive("perceptual_duration", duration)?;
    let bounce = check("bounce", bounce, "in (-1, 1)", |b| b > -1.0 && b < 1.0)?;
    let stiffness = (2.0 * PI / duration).powi(2);
    let damping = if bounce >= 0.0 {
        4.0 * PI * (1.0 - bounce) / duration
    } else {
        4.0 * PI / (duration * (1.0 + bounce))
    };
    finite_rates(
        "perceptual_duration",
        duration,
        stiffness,
        damping,
        "large enough that the stiffness (2π/perceptual_duration)² stays finite (at least about 4.7e-154 s)",
    )
}

/// (1, stiffness, damping) when both are finite, else an error blaming `field` (a duration
/// that is too short for the stiffness and damping it gives to be finite). The shortest
/// period 2π/√k whose stiffness k is finite is 2π/√f64::MAX ≈ 4.7e-154 s.
pub(crate) fn finite_rates(
    field: &str,
    value: f64,
    stiffness: f64,
    damping: f64,
    requirement: &'static str,
) -> Result<(f64, f64, f64)> {
    if stiffness.is_finite() && damping.is_finite() {
        Ok((1.0, stiffness, damping))
    } else {
        Err(super::MotionError::Invalid {
            path: field.into(),
            requirement,
            value,
        })
    }
}

/// Most interior extrema of a derivative looked at over one interval; past it (an interval
/// of more than about 32 half periods) the bound is the amplitude of the oscillation instead.
const MAX_EXTREMA: usize = 64;

/// Relative widening of a derivative's range, for the rounding of its evaluation (the state
/// is exact to about 1e-15 of its scale).
const RANGE_SLACK: f64 = 1e-9;

impl Spring {
    /// `(x⁽ⁿ⁾(t), x⁽ⁿ⁺¹⁾(t), x⁽ⁿ⁺²⁾(t))` for `n >= 1`: every derivative of `u` solves the
    /// same equation, so `d_(k+2) = -2σ·d_(k+1) - ω0²·d_k` from `d_0 = u`, `d_1 = v`.
    fn derivatives(&self, order: u32, t: f64) -> (f64, f64, f64) {
        let (u, v) = self.displacement_and_velocity(t);
        let (mut lo, mut hi) = (u, v);
        for _ in 1..order {
            (lo, hi) = (hi, self.next_derivative(lo, hi));
        }
        let next = self.next_derivative(lo, hi);
        (hi, next, self.next_derivative(hi, next))
    }

    /// `d_(k+2)` from `d_k` and `d_(k+1)`.
    fn next_derivative(&self, d0: f64, d1: f64) -> f64 {
        -2.0 * self.sigma * d1 - self.omega0_sq * d0
    }

    /// The zeros at `s >= 0` of `y(s) = c·C(s) + p·S(s)` (a solution of the spring's equation
    /// with `y(0) = c`, `y'(0) + σ·y(0) = p`), as `(first, period)`: they are at `first +
    /// k·period` for k >= 0 (`first` NaN when there is none, `period` infinite when there is
    /// at most one):
    ///
    /// - underdamped: `c·cos(ωd·s) + p·sin(ωd·s)/ωd = 0` at `ωd·s = atan(-c·ωd/p) + kπ`;
    /// - overdamped: `tanh(g·s) = -c·g/p`, one zero at most;
    /// - critically damped: `c + p·s = 0`.
    fn zero_times(&self, c: f64, p: f64) -> (f64, f64) {
        let root = self.root;
        let at_or_after_0 = |s: f64| if s >= 0.0 { s } else { f64::NAN };
        if self.discriminant < 0.0 && root > 0.0 {
            // atan(-c·ωd/p) in (-π/2, π/2]; the first zero at or after 0 is that or π later.
            let theta = if p == 0.0 {
                PI / 2.0
            } else {
                libm::atan(-c * root / p)
            };
            let theta = if theta < 0.0 { theta + PI } else { theta };
            (theta / root, PI / root)
        } else if self.discriminant > 0.0 && root > 0.0 {
            let r = -c * root / p;
            let first = if r.abs() < 1.0 {
                at_or_after_0(libm::atanh(r) / root)
            } else {
                f64::NAN
            };
            (first, f64::INFINITY)
        } else if p != 0.0 {
            (at_or_after_0(-c / p), f64::INFINITY)
        } else {
            (f64::NAN, f64::INFINITY)
        }
    }

    /// The range `(lo, hi)` of `x⁽ⁿ⁾` on `(a, b)`, given its values at the ends and the zeros
    /// of `x⁽ⁿ⁺¹⁾` (`(first, period)` in absolute time, see [`Spring::zero_times`]): the ends
    /// and the values at the zeros inside, widened by [`RANGE_SLACK`]; `None` if there are
    /// more than [`MAX_EXTREMA`] zeros inside, or if a period is below the resolution of the
    /// times there (a spring far stiffer than its timeline: the times would not advance).
    fn extrema(
        &self,
        order: u32,
        (mut lo, mut hi): (f64, f64),
        (a, b): (f64, f64),
        (first, period): (f64, f64),
    ) -> Option<(f64, f64)> {
        if !first.is_nan() {
            // The last zero at or before `a` (or the first), then one period at a time.
            let mut s = if period.is_finite() && a > first {
                floor((a - first) / period).mul_add(period, first)
            } else {
                first
            };
            let mut found = 0;
            while s < b {
                if s > a {
                    if found == MAX_EXTREMA {
                        return None;
                    }
                    let (x, _, _) = self.derivatives(order, s);
                    (lo, hi) = (lo.min(x), hi.max(x));
                    found += 1;
                }
                let next = s + period;
                if next <= s {
                    return None;
                }
                s = next;
            }
        }
        let slack = RANGE_SLACK * lo.abs().max(hi.abs());
        Some((lo - slack, hi + slack))
    }
}

impl Motion for Spring {
    /// The exact extrema of `x⁽ⁿ⁾` on `[a, b]`: its values at the ends and at each interior
    /// zero of `x⁽ⁿ⁺¹⁾`, which solves the spring's equation from `t = a` (found by the
    /// private `Spring::zero_times`). A zero found a little off moves the extremum by the
    /// square of that, far below the widening of the range by `RANGE_SLACK`. Past
    /// `MAX_EXTREMA` the amplitude bound `|y(s)| <= sqrt(c² + (p/ωd)²)` of an underdamped
    /// solution holds.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        let order = order.max(1);
        let (d, next, after) = self.derivatives(order, a);
        let (end, _, _) = self.derivatives(order, b);
        let (first, period) = self.zero_times(next, self.sigma.mul_add(next, after));
        let zeros = (a + first, period);
        (self.extrema(order, (d.min(end), d.max(end)), (a, b), zeros)).unwrap_or_else(|| {
            let q = self.sigma.mul_add(d, next);
            let amplitude = (1.0 + RANGE_SLACK) * libm::hypot(d, q / self.root);
            (-amplitude, amplitude)
        })
    }

    fn jet(&self, t: f64) -> Jet {
        let (u, v) = self.displacement_and_velocity(t);
        Jet {
            t,
            position: self.to + u,
            second: self.next_derivative(u, v),
        }
    }

    /// The extrema of `x''` between the jets: their own values and those at the zeros of
    /// `x'''` inside, which every segment shares (found once, from t = 0).
    fn bend(&self, a: &Jet, b: &Jet) -> (f64, f64) {
        let ends = (a.second.min(b.second), a.second.max(b.second));
        (self.extrema(2, ends, (a.t, b.t), self.bend_extrema))
            .unwrap_or_else(|| self.derivative_range(2, a.t, b.t))
    }

    fn position(&self, t: f64) -> f64 {
        self.to + self.displacement_and_velocity(t).0
    }
    fn velocity(&self, t: f64) -> f64 {
        self.displacement_and_velocity(t).1
    }
    fn state(&self, t: f64) -> (f64, f64) {
        let (u, v) = self.displacement_and_velocity(t);
        (self.to + u, v)
    }

    /// Frames by the spring's step over one frame: its equation is linear and autonomous,
    /// so the state one frame on is `Φ·(u, v)`, whose columns are the closed form at
    /// `h = 1/fps` from `(1, 0)` and from `(0, 1)`. Each run of 16 frames (`RUN`) starts from
    /// the closed form at its first frame, so rounding builds up over at most 15 steps
    /// (the tests bound it by 1e-14 of the motion's scale, beside the closed form's own
    /// ε·ω0·t of the phase); a frame held at `duration`, or a step that overflows, is the
    /// closed form's.
    fn sample(
        &self,
        fps: f64,
        duration: f64,
        frames: usize,
        position: &mut Vec<f64>,
        velocity: &mut Vec<f64>,
    ) {
        let h = fps.recip();
        let (uu, vu) = self
            .clone()
            .started_at(1.0, 0.0)
            .displacement_and_velocity(h);
        let (uv, vv) = self
            .clone()
            .started_at(0.0, 1.0)
            .displacement_and_velocity(h);
        let steps = [uu, vu, uv, vv].iter().all(|e| e.is_finite());
        position.reserve(frames);
        velocity.reserve(frames);
        let (mut u, mut v) = (0.0, 0.0);
        for i in 0..frames {
            let t = frame_time(i, fps, duration);
            (u, v) = if steps && i % RUN != 0 && t == i as f64 / fps {
                (uu * u + uv * v, vu * u + vv * v)
            } else {
                self.displacement_and_velocity(t)
            };
            position.push(self.to + u);
            velocity.push(v);
        }
    }
}

impl Settle for Spring {
    fn rest_position(&self) -> Option<f64> {
        Some(self.to)
    }
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        if !thresholds_can_hold(rest_delta, rest_speed) {
            return None;
        }
        let (u, v) = self.envelopes();
        Some(
            u.settles_below(rest_delta)?
                .max(v.settles_below(rest_speed)?),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames stepped from the closed form stay within 1e-14 of the motion's scale (its
    /// largest |u| or |v|/ω0 over the frames) of the closed form at every frame, times
    /// `1 + ω0·t` (an instant is known to its rounding, so a phase to ε·ω0·t; the worst
    /// seen is under 4e-15): springs of
    /// every regime (ζ from 0.001 to 100, near 1 on both sides), stiff and soft, at 24 to
    /// 960 fps, started with and against their velocity.
    #[test]
    fn stepped_frames_keep_to_the_closed_form() {
        for zeta in [
            1e-3, 0.1, 0.5, 0.9, 0.999, 0.999_999, 1.0, 1.000_001, 1.001, 1.5, 4.0, 100.0,
        ] {
            for stiffness in [1e-2, 1.0, 170.0, 1e4, 1e6] {
                for fps in [24.0, 60.0, 144.0, 960.0] {
                    for velocity in [0.0, 3e3, -3e3] {
                        let mass: f64 = 1.5;
                        let damping = 2.0 * zeta * (mass * stiffness).sqrt();
                        let s =
                            Spring::new(-40.0, 260.0, velocity, mass, stiffness, damping).unwrap();
                        let duration = 4.0;
                        let frames = (duration * fps) as usize + 2;
                        let (mut x, mut v) = (Vec::new(), Vec::new());
                        s.sample(fps, duration, frames, &mut x, &mut v);
                        let w0 = s.omega0_sq.sqrt();
                        let exact: Vec<(f64, f64)> = (0..frames)
                            .map(|i| s.displacement_and_velocity(frame_time(i, fps, duration)))
                            .collect();
                        let scale = exact
                            .iter()
                            .fold(0.0f64, |m, (u, v)| m.max(u.abs()).max(v.abs() / w0));
                        for (i, (u, ve)) in exact.iter().enumerate() {
                            // An instant is known to its rounding, ε·t: the phase to ε·ω0·t.
                            let phase = 1.0 + w0 * frame_time(i, fps, duration);
                            let error = ((x[i] - 260.0 - u).abs()).max((v[i] - ve).abs() / w0)
                                / (scale * phase);
                            assert!(error <= 1e-14, "ζ {zeta} k {stiffness} {fps} fps v0 {velocity} frame {i}: {error:e}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn settle_time_bounds_the_motion() {
        for damping in [2.0, 20.0, 26.07680962081059, 40.0, 400.0] {
            let s = Spring::new(0.0, 100.0, 50.0, 1.0, 170.0, damping).unwrap();
            let settle = s.settle_time(0.01, 0.1).unwrap();
            for i in 0..2000 {
                let t = settle + i as f64 * 0.01;
                assert!(
                    (s.position(t) - 100.0).abs() <= 0.01,
                    "damping {damping} t {t}"
                );
                assert!(s.velocity(t).abs() <= 0.1, "damping {damping} t {t}");
            }
        }
    }

    /// The range of `x''` between two jets holds `x''` everywhere between them, and is the
    /// range `derivative_range` finds from the segment's start (to its widening).
    #[test]
    fn bend_between_jets_holds_the_second_derivative() {
        let critical = 2.0 * 170f64.sqrt();
        for damping in [0.5, 8.0, critical, 40.0, 400.0] {
            let s = Spring::new(0.0, 100.0, -30.0, 1.0, 170.0, damping).unwrap();
            for (a, b) in [
                (0.0, 0.05),
                (0.1, 0.9),
                (0.33, 0.34),
                (0.0, 3.0),
                (1.0, 40.0),
            ] {
                let (lo, hi) = s.bend(&s.jet(a), &s.jet(b));
                let (from_start_lo, from_start_hi) = s.derivative_range(2, a, b);
                let scale = lo.abs().max(hi.abs());
                assert!(
                    (lo - from_start_lo).abs() <= 1e-8 * scale
                        && (hi - from_start_hi).abs() <= 1e-8 * scale,
                    "damping {damping} [{a}, {b}]: {lo} {hi} against {from_start_lo} {from_start_hi}"
                );
                for i in 0..=2000 {
                    let t = a + (b - a) * f64::from(i) / 2000.0;
                    let (x, _, _) = s.derivatives(2, t);
                    assert!(
                        lo <= x && x <= hi,
                        "damping {damping} t {t}: {x} outside {lo} {hi}"
                    );
                }
            }
        }
    }

    #[test]
    fn undamped_spring_never_settles() {
        let s = Spring::new(0.0, 1.0, 0.0, 1.0, 100.0, 0.0).unwrap();
        assert_eq!(s.settle_time(0.01, 0.1), None);
    }

    #[test]
    fn invalid_parameters_name_themselves() {
        let err = Spring::new(0.0, 1.0, 0.0, 1.0, 100.0, -3.0).unwrap_err();
        assert_eq!(err.to_string(), "damping must be >= 0, got -3");
        let err = Spring::new(0.0, 1.0, 0.0, 0.0, 100.0, 3.0).unwrap_err();
        assert_eq!(err.to_string(), "mass must be > 0, got 0");
        let err = Spring::new(f64::NAN, 1.0, 0.0, 1.0, 100.0, 3.0).unwrap_err();
        assert_eq!(err.to_string(), "from must be a finite number, got NaN");
    }
}
