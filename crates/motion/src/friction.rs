//! Friction: a fling that keeps a fixed fraction of its velocity each second.

use super::decay::Decay;
use super::error::{check, finite, MotionError, Result, Unsolvable};
use super::{Motion, Settle};

/// A fling from `from` with velocity v0 that keeps the fraction `friction` f in (0, 1] of its
/// velocity each second: λ = -ln f, v = v0·f^t, x = x0 + v0·t·hex(t·ln f).
///
/// It is a [`Decay`] with λ >= 0; the hex form keeps f -> 1 exact, where
/// `x0 + v0·f^t/ln f - v0/ln f` would cancel. It rests at x0 - v0/ln f (never if f = 1).
///
/// ```
/// use curvebake_motion::{Friction, Motion, Settle};
/// let fling = Friction::new(0.0, 1000.0, 0.1).unwrap();
/// let rest = fling.rest_position().unwrap();
/// assert!((rest - 1000.0 / 10f64.ln()).abs() < 1e-9);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Friction {
    decay: Decay,
    friction: f64,
}

impl Friction {
    /// A fling with 0 < friction <= 1.
    pub fn new(from: f64, velocity: f64, friction: f64) -> Result<Self> {
        let friction = check("friction", friction, "in (0, 1]", |f| f > 0.0 && f <= 1.0)?;
        // ln is correctly rounded to within an ulp of its result, near 1 included; ln_1p(f - 1)
        // would not be for small f, where rounding f - 1 costs digits.
        let lambda = -libm::log(friction);
        Ok(Self {
            decay: Decay::new(from, velocity, lambda)?,
            friction,
        })
    }

    /// The fling from `from` with `velocity` that comes to rest exactly at `to`:
    /// f = exp(-v0/(to - x0)), so λ = v0/(to - x0). Errors, in this order: `zero_distance`,
    /// `zero_velocity`, `velocity_opposes_distance`.
    pub fn snap(from: f64, to: f64, velocity: f64) -> Result<Self> {
        let from = finite("from", from)?;
        let to = finite("to", to)?;
        let velocity = finite("velocity", velocity)?;
        let distance = to - from;
        let reason = if distance == 0.0 {
            Some(("to", Unsolvable::ZeroDistance))
        } else if velocity == 0.0 {
            Some(("velocity", Unsolvable::ZeroVelocity))
        } else if (velocity > 0.0) != (distance > 0.0) {
            Some(("velocity", Unsolvable::VelocityOpposesDistance))
        } else {
            None
        };
        if let Some((path, reason)) = reason {
            return Err(MotionError::unsolvable(path, reason));
        }
        let lambda = velocity / distance;
        if !(lambda.is_finite() && lambda > 0.0) {
            return Err(MotionError::unsolvable("", Unsolvable::OutOfRange));
        }
        Ok(Self {
            decay: Decay::new(from, velocity, lambda)?,
            friction: libm::exp(-lambda),
        })
    }

    /// The fraction of velocity kept per second (for a snap, rounded from the exact λ).
    pub fn friction(&self) -> f64 {
        self.friction
    }
    /// The decay rate λ = -ln f (1/s).
    pub fn lambda(&self) -> f64 {
        self.decay.lambda()
    }
    /// The equivalent decay.
    pub fn decay(&self) -> &Decay {
        &self.decay
    }

    /// The time at which the speed falls to `rest_speed`: ln(s/|v0|)/ln f when |v0| > s,
    /// 0 when it is already that slow, `None` when it never slows down (f = 1).
    pub fn rest_time(&self, rest_speed: f64) -> Option<f64> {
        let speed = self.decay.initial_velocity().abs();
        if speed <= rest_speed {
            Some(0.0)
        } else if self.lambda() > 0.0 {
            Some(libm::log(speed / rest_speed) / self.lambda())
        } else {
            None
        }
    }
}

impl Motion for Friction {
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        self.decay.derivative_range(order, a, b)
    }

    fn position(&self, t: f64) -> f64 {
        self.decay.position(t)
    }
    fn velocity(&self, t: f64) -> f64 {
        self.decay.velocity(t)
    }
}

impl Settle for Friction {
    fn rest_position(&self) -> Option<f64> {
        self.decay.rest_position()
    }
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        self.decay.settle_time(rest_delta, rest_speed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friction_outside_its_range_is_refused() {
        for f in [0.0, -0.5, 1.5, f64::NAN] {
            let err = Friction::new(0.0, 1.0, f).unwrap_err();
            assert!(
                err.to_string().starts_with("friction must be in (0, 1]"),
                "{err}"
            );
        }
    }

    #[test]
    fn friction_one_never_rests() {
        let f = Friction::new(0.0, 10.0, 1.0).unwrap();
        assert_eq!(f.rest_position(), None);
        assert_eq!(f.settle_time(0.01, 0.1), None);
        assert_eq!(f.rest_time(0.1), None);
    }
}
