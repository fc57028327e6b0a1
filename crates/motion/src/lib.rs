//! Closed-form motions: position and velocity at any time t >= 0, never integrated step by
//! step, and the solvers that turn the parameters people write into physical ones.
//!
//! Every constructor validates its input and returns a [`MotionError`] naming the parameter;
//! no function here panics. Times are seconds; positions and velocities are in the caller's
//! unit (px, deg, ...) and that unit per second.

// Tests compute their references with the platform's functions (compared within tolerances,
// never by bytes); the outputs go through `libm` (clippy.toml).
#![cfg_attr(test, allow(clippy::disallowed_methods))]
mod decay;
mod envelope;
mod error;
mod friction;
mod gravity;
mod inertia;
mod numeric;
mod ring;
mod spring;
mod spring_forms;

pub use decay::{Branch, Decay, SolvedDecay};
pub use envelope::Envelope;
pub use error::number;
pub use error::{MotionError, Result, Unsolvable};
pub use friction::Friction;
pub use gravity::{Bounce, Gravity};
pub use inertia::{
    Inertia, InertiaCase, InertiaParams, DEFAULT_BOUNCE_DAMPING, DEFAULT_BOUNCE_STIFFNESS, GLIDE,
};
pub use numeric::hex;
pub use numeric::union;
pub use ring::{ExplosionRing, RadiusEnd};
pub use spring::{perceptual_parameters, Spring};
pub use spring_forms::{Equivalents, SpringForm, PLATFORMS as SPRING_PLATFORMS};

/// A one-dimensional motion known in closed form.
pub trait Motion {
    /// Position x(t) for a finite t >= 0.
    fn position(&self, t: f64) -> f64;
    /// Velocity v(t) = x'(t) for a finite t >= 0.
    fn velocity(&self, t: f64) -> f64;
    /// Both at once (some motions share the work).
    fn state(&self, t: f64) -> (f64, f64) {
        (self.position(t), self.velocity(t))
    }
    /// Bounds `(lo, hi)` with `lo <= x⁽ⁿ⁾(t) <= hi` for every `t` in `[a, b]` (`0 <= a < b`,
    /// `n = order >= 2`), from the closed form: exact extrema (the ends and the interior zeros
    /// of `x⁽ⁿ⁺¹⁾`, found in closed form) or a derivative that is monotone or constant there.
    /// Where `[a, b]` spans several closed forms the bounds cover each of them (the one-sided
    /// derivatives at a join); a caller that needs `x` to be smooth across `[a, b]` keeps
    /// joins out of it (the model crate lists a motion's joins per track: `Model::track_kinks`
    /// in `curvebake_model::spec`, which this crate cannot link to).
    ///
    /// This is what the fitting of browser outputs (`export::fit`) proves its bound with: the
    /// chord of `x` over `[a, b]` is within `(b - a)²/8 · max(|lo|, |hi|)` of it for `n = 2`.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64);
    /// The motion at `t` as the bound of a chord needs it ([`Motion::bend`]): `x(t)`, and
    /// `x''(t)` where the closed form gives it with the same evaluation (else NaN).
    fn jet(&self, t: f64) -> Jet {
        Jet {
            t,
            position: self.position(t),
            second: f64::NAN,
        }
    }
    /// [`Motion::derivative_range`] of `x''` on `[a.t, b.t]`, from jets this motion made at
    /// both ends: a fitting walks from stop to stop, so each jet serves two segments and a
    /// motion that keeps `x''` in it evaluates its closed form once per candidate stop.
    fn bend(&self, a: &Jet, b: &Jet) -> (f64, f64) {
        self.derivative_range(2, a.t, b.t)
    }
    /// Appends `frames` samples at t_i = min(i/fps, duration) to `position` and `velocity`.
    /// One call per motion: the loop is compiled for each motion type, so a bake pays no
    /// dynamic dispatch per frame.
    fn sample(
        &self,
        fps: f64,
        duration: f64,
        frames: usize,
        position: &mut Vec<f64>,
        velocity: &mut Vec<f64>,
    ) {
        position.reserve(frames);
        velocity.reserve(frames);
        for i in 0..frames {
            let (x, v) = self.state(frame_time(i, fps, duration));
            position.push(x);
            velocity.push(v);
        }
    }
}

/// A motion at one instant, as [`Motion::jet`] gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Jet {
    /// The time, seconds.
    pub t: f64,
    /// `x(t)`.
    pub position: f64,
    /// `x''(t)` where the motion keeps it (NaN where it does not).
    pub second: f64,
}

/// Time of frame i at `fps` in a bake of length `duration`: min(i/fps, duration).
pub fn frame_time(i: usize, fps: f64, duration: f64) -> f64 {
    (i as f64 / fps).min(duration)
}

/// A motion that may come to rest.
pub trait Settle: Motion {
    /// The position it rests at, if it ever does.
    fn rest_position(&self) -> Option<f64>;
    /// The earliest time from which the motion provably stays within `rest_delta` of its
    /// rest position with speed at most `rest_speed` (a bound from its decay envelope, not a
    /// scan), or `None` if it never rests, or if a threshold is negative or NaN (which no
    /// motion stays within: [`thresholds_can_hold`]).
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64>;
}

/// Whether a motion can stay within `rest_delta` and `rest_speed` at all: both are numbers at
/// least 0 (a negative or NaN one holds for no motion, at rest or not).
pub fn thresholds_can_hold(rest_delta: f64, rest_speed: f64) -> bool {
    rest_delta >= 0.0 && rest_speed >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A negative or NaN threshold holds for no motion: each kind says it never rests, not a
    /// time (the bound's logarithm of a negative threshold is NaN, and once fell through).
    #[test]
    fn thresholds_no_motion_can_hold_give_no_settle_time() {
        let spring = Spring::new(-240.0, 0.0, 0.0, 1.0, 220.0, 18.0).unwrap();
        let friction = Friction::new(0.0, 1800.0, 0.02).unwrap();
        let decay = Decay::new(0.0, 100.0, 3.0).unwrap();
        let ball = Bounce::new(Gravity::new(-250.0, 0.0, 2400.0).unwrap(), 0.0, 0.5).unwrap();
        let kinds: [&dyn Settle; 4] = [&spring, &friction, &decay, &ball];
        for (k, motion) in kinds.into_iter().enumerate() {
            assert!(motion.settle_time(0.1, 1.0).is_some(), "kind {k}");
            for (delta, speed) in [(-1.0, 1e9), (f64::NAN, 1e9), (0.1, f64::NAN), (-1.0, -1.0)] {
                assert_eq!(
                    motion.settle_time(delta, speed),
                    None,
                    "kind {k}: {delta}, {speed}"
                );
            }
        }
    }
}
