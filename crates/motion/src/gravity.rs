//! Constant acceleration, optionally bouncing on a floor.

use super::error::{check, finite, MotionError, Result};
use super::numeric::first_positive_quadratic_root;
use super::{thresholds_can_hold, Motion, Settle};

/// Uniform acceleration: x = x0 + v0·t + a·t²/2, v = v0 + a·t.
///
/// ```
/// use curvebake_motion::{Gravity, Motion};
/// let ball = Gravity::new(0.0, 0.0, 980.0).unwrap();
/// assert_eq!(ball.position(1.0), 490.0);
/// assert_eq!(ball.time_to(490.0), Some(1.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gravity {
    from: f64,
    velocity: f64,
    acceleration: f64,
}

impl Gravity {
    /// A motion from (from, velocity v0, acceleration a): all finite.
    pub fn new(from: f64, velocity: f64, acceleration: f64) -> Result<Self> {
        Ok(Self {
            from: finite("from", from)?,
            velocity: finite("velocity", velocity)?,
            acceleration: finite("acceleration", acceleration)?,
        })
    }

    /// Start position.
    pub fn from(&self) -> f64 {
        self.from
    }
    /// Initial velocity.
    pub fn initial_velocity(&self) -> f64 {
        self.velocity
    }
    /// Acceleration.
    pub fn acceleration(&self) -> f64 {
        self.acceleration
    }

    /// The smallest t > 0 with x(t) = `to`, or `None` if it is never reached. A root at t = 0
    /// does not count; with v0 = a = 0 the answer is `None` even when from = to. The quadratic
    /// is solved without cancellation, so a target a hair away gets its small root exactly.
    pub fn time_to(&self, to: f64) -> Option<f64> {
        first_positive_quadratic_root(self.acceleration, self.velocity, to - self.from)
    }
}

impl Gravity {
    /// `x⁽ⁿ⁾`, the same at every time: the acceleration for `n = 2`, 0 above.
    fn derivative(&self, order: u32) -> f64 {
        if order == 2 {
            self.acceleration
        } else {
            0.0
        }
    }
}

impl Motion for Gravity {
    fn derivative_range(&self, order: u32, _: f64, _: f64) -> (f64, f64) {
        let d = self.derivative(order);
        (d, d)
    }

    fn position(&self, t: f64) -> f64 {
        self.from + t * (self.velocity + 0.5 * self.acceleration * t)
    }
    fn velocity(&self, t: f64) -> f64 {
        self.velocity + self.acceleration * t
    }
}

/// Most steps by which [`Bounce`] corrects its logarithmic estimate of the bounce containing t.
const BOUNCE_CORRECTION_STEPS: u32 = 64;

/// A fall onto a floor at `floor` that bounces: at each impact the velocity reverses and is
/// multiplied by the restitution e in [0, 1).
///
/// The first impact is at t1 = [`Gravity::time_to`]`(floor)`, with velocity v1. Bounce k >= 1
/// leaves the floor with speed e^k·|v1| and lasts Δk = 2e^k·|v1|/|a|, so the bounces end at
/// t1 + Δ1/(1 - e). Each bounce is a parabola in closed form, found in O(1) by a logarithm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounce {
    fall: Gravity,
    floor: f64,
    restitution: f64,
    /// Time of the first impact.
    first_impact: f64,
    /// Velocity just before the first impact.
    impact_velocity: f64,
}

impl Bounce {
    /// A fall onto `floor` with restitution in [0, 1). The fall must reach the floor, with
    /// the acceleration pointing into it (else the motion would leave and never return).
    pub fn new(fall: Gravity, floor: f64, restitution: f64) -> Result<Self> {
        let floor = finite("to", floor)?;
        let restitution = check("restitution", restitution, "in [0, 1)", |e| {
            (0.0..1.0).contains(&e)
        })?;
        let first_impact = fall.time_to(floor).ok_or(MotionError::NeverReaches {
            path: "to".into(),
            to: floor,
            from: fall.from,
        })?;
        let impact_velocity = fall.velocity(first_impact);
        // Signs, not their product: a tiny acceleration times a tiny impact speed underflows
        // to 0 (1e-300 px/s² lands at 2e-149 px/s).
        let into_floor = impact_velocity != 0.0
            && fall.acceleration != 0.0
            && (fall.acceleration > 0.0) == (impact_velocity > 0.0);
        if restitution > 0.0 && !into_floor {
            return Err(MotionError::BounceAwayFromFloor {
                path: "restitution".into(),
                acceleration: fall.acceleration,
            });
        }
        Ok(Self {
            fall,
            floor,
            restitution,
            first_impact,
            impact_velocity,
        })
    }

    /// The underlying fall.
    pub fn fall(&self) -> &Gravity {
        &self.fall
    }
    /// The floor position.
    pub fn floor(&self) -> f64 {
        self.floor
    }
    /// The restitution e.
    pub fn restitution(&self) -> f64 {
        self.restitution
    }
    /// Time of the first impact.
    pub fn first_impact(&self) -> f64 {
        self.first_impact
    }

    /// Duration of the first bounce, Δ1 = 2e·|v1|/|a| (0 when e = 0).
    fn first_bounce(&self) -> f64 {
        if self.restitution == 0.0 {
            0.0
        } else {
            2.0 * self.restitution * (self.impact_velocity / self.fall.acceleration).abs()
        }
    }

    /// The time at which all bounces are over.
    pub fn end_time(&self) -> f64 {
        self.first_impact + self.first_bounce() / (1.0 - self.restitution)
    }

    /// Start time of bounce k >= 1 (the k-th impact): t1 + Δ1·(1 - e^(k-1))/(1 - e).
    fn impact_time(&self, k: i32) -> f64 {
        let e = self.restitution;
        self.first_impact + self.first_bounce() * (1.0 - e.powi(k - 1)) / (1.0 - e)
    }

    /// Position and velocity: the fall before t1, then the bounce that contains t. At an
    /// impact instant (the first one included) the state is the one just after the impact.
    fn state_at(&self, t: f64) -> (f64, f64) {
        if t < self.first_impact {
            return self.fall.state(t);
        }
        if t >= self.end_time() {
            return (self.floor, 0.0);
        }
        let e = self.restitution;
        // Bounce k contains t when impact_time(k) <= t < impact_time(k + 1).
        // With remaining = 1 - (t - t1)(1 - e)/Δ1, that is e^(k-1) >= remaining > e^k. It is
        // formed from the end time, so it keeps its digits (and stays > 0) just before the end.
        let remaining = (self.end_time() - t) * (1.0 - e) / self.first_bounce();
        let estimate = (libm::log(remaining) / libm::log(e)).floor() + 1.0;
        // Clamped so that k ± 1 never overflows (only a restitution within ~1e-8 of 1 has more
        // bounces than an i32 counts).
        let mut k = estimate.clamp(1.0, f64::from(i32::MAX - 1)) as i32;
        // The estimate is off by a bounce or so wherever bounces last longer than the rounding
        // of t. Where they do not (restitution near 1, just before the end) it can be off by
        // millions of bounces that all start within rounding of t and are all far below it in
        // height and speed; any of them will do, so the correction is capped.
        for _ in 0..BOUNCE_CORRECTION_STEPS {
            if k > 1 && self.impact_time(k) > t {
                k -= 1;
            } else {
                break;
            }
        }
        for _ in 0..BOUNCE_CORRECTION_STEPS {
            if k < i32::MAX - 1 && self.impact_time(k + 1) <= t {
                k += 1;
            } else {
                break;
            }
        }
        let s = t - self.impact_time(k);
        let launch = -self.impact_velocity * e.powi(k);
        let a = self.fall.acceleration;
        let rise = s * (launch + 0.5 * a * s);
        // Rounding may put the end of a bounce a hair behind the floor: it never passes it.
        let rise = if rise * launch < 0.0 { 0.0 } else { rise };
        (self.floor + rise, launch + a * s)
    }

    /// The index k >= 1 of the first impact after which every bounce stays below `rest_delta`
    /// in height and `rest_speed` in speed (it happens at [`Bounce::impact_time`]`(k)`): the
    /// bounce after impact k leaves the floor at e^k|v1|, its fastest, and rises
    /// (e^k|v1|)²/(2|a|), so k is the least with e^k|v1| <= min(rest_speed, √(2|a|·rest_delta));
    /// `i32::MAX` when that k is out of range.
    fn settle_bounce(&self, rest_delta: f64, rest_speed: f64) -> i32 {
        let e = self.restitution;
        let speed_limit = rest_speed.min((2.0 * self.fall.acceleration.abs() * rest_delta).sqrt());
        let v1 = self.impact_velocity.abs();
        if e == 0.0 || v1 * e <= speed_limit {
            return 1;
        }
        // e^k·|v1| <= limit  <=>  k >= ln(limit/|v1|)/ln e (one step more if rounding disagrees).
        let k = (libm::log(speed_limit / v1) / libm::log(e)).ceil();
        if k.is_nan() || k >= f64::from(i32::MAX - 1) {
            return i32::MAX;
        }
        let k = (k as i32).max(1);
        if e.powi(k) * v1 > speed_limit {
            k + 1
        } else {
            k
        }
    }
}

impl Bounce {
    /// Height of bounce `k` (after impact `k`) above the floor: `(e^k·|v1|)²/(2|a|)`.
    fn rise(&self, k: i32) -> f64 {
        let launch = self.impact_velocity * self.restitution.powi(k);
        launch * launch / (2.0 * self.fall.acceleration.abs())
    }

    /// How high the bounce launched at impact `t` rises above the floor, `v(t)²/(2|a|)`; every
    /// later bounce rises less (by `e²` each).
    pub fn rise_after(&self, t: f64) -> f64 {
        let launch = self.velocity(t);
        launch * launch / (2.0 * self.fall.acceleration.abs())
    }

    /// The impacts strictly between 0 and `end`, in time order (where the velocity jumps: each
    /// is a join of the motion's parabolas), up to the first after which the bounce rises at
    /// most `negligible`.
    ///
    /// Bounce k rises `(e^k·|v1|)²/(2|a|)`, so from that impact on the motion stays between the
    /// floor and `negligible` above it: any curve through its values there is within
    /// `negligible` (plus its own offsets from them) of it, whatever it does between, and the
    /// impacts that follow (infinitely many, accumulating at [`Bounce::end_time`]) need no
    /// stop of their own. A `negligible` of 0 lists every impact before `end` that a float
    /// can tell apart.
    pub fn impacts_before(&self, end: f64, negligible: f64) -> Vec<f64> {
        let mut impacts = Vec::new();
        let mut k = 1;
        while k < i32::MAX - 1 {
            let t = self.impact_time(k);
            // (The end of the bounces is an impact too when there are none after it: a ball
            // the floor stops dead, restitution 0, stops at its first.)
            if !(t < end) || t > self.end_time() || impacts.last() == Some(&t) {
                break;
            }
            if t > 0.0 {
                impacts.push(t);
            }
            if self.rise(k) <= negligible {
                break;
            }
            k += 1;
        }
        impacts
    }
}

impl Motion for Bounce {
    /// Each piece is a parabola (the fall's acceleration) and the floor from the end of the
    /// bounces on (0); an interval over the end holds both.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        let d = self.fall.derivative(order);
        if b <= self.end_time() {
            (d, d)
        } else if a >= self.end_time() {
            (0.0, 0.0)
        } else {
            (d.min(0.0), d.max(0.0))
        }
    }

    fn position(&self, t: f64) -> f64 {
        self.state_at(t).0
    }
    fn velocity(&self, t: f64) -> f64 {
        self.state_at(t).1
    }
    fn state(&self, t: f64) -> (f64, f64) {
        self.state_at(t)
    }
}

impl Settle for Bounce {
    fn rest_position(&self) -> Option<f64> {
        Some(self.floor)
    }
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        if !thresholds_can_hold(rest_delta, rest_speed) {
            return None;
        }
        let k = self.settle_bounce(rest_delta, rest_speed);
        Some(self.impact_time(k).min(self.end_time()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball() -> Bounce {
        Bounce::new(Gravity::new(0.0, 0.0, 1000.0).unwrap(), 500.0, 0.5).unwrap()
    }

    #[test]
    fn bounces_reverse_and_shrink_and_never_pass_the_floor() {
        let b = ball();
        assert_eq!(b.first_impact(), 1.0);
        // Impact speed 1000, first bounce leaves at 500 upward (negative direction), lasts 1 s.
        assert!((b.position(1.5) - (500.0 - 500.0 * 0.5 + 500.0 * 0.25)).abs() < 1e-9);
        assert!((b.end_time() - 3.0).abs() < 1e-12);
        for i in 0..=3000 {
            let t = i as f64 * 0.001;
            assert!(b.position(t) <= 500.0, "t {t}");
        }
        assert_eq!(b.state(3.0), (500.0, 0.0));
    }

    #[test]
    fn settle_time_is_an_impact_with_small_bounces_after() {
        let b = ball();
        let t = b.settle_time(0.01, 1.0).unwrap();
        for i in 0..1000 {
            let s = t + i as f64 * (3.0 - t) / 1000.0;
            assert!(b.velocity(s).abs() <= 1.0 + 1e-9, "{s}");
            assert!((b.position(s) - 500.0).abs() <= 0.01, "{s}");
        }
    }

    /// The acceleration's direction decides, whatever its size: 1e-300 px/s² towards the floor
    /// (an impact speed of 2e-149 px/s, their product 0 in doubles) is a bounce.
    #[test]
    fn a_tiny_acceleration_towards_the_floor_bounces() {
        let fall = Gravity::new(-300.0, 0.0, 1e-300).unwrap();
        assert!(Bounce::new(fall, 0.0, 0.5).is_ok());
        // Thrown at the floor against a tiny acceleration away from it: no bounce.
        let away = Gravity::new(-300.0, -1.0, 1e-300).unwrap();
        assert!(Bounce::new(away, -400.0, 0.5).is_err());
    }

    #[test]
    fn a_floor_never_reached_is_an_error() {
        let err = Bounce::new(Gravity::new(0.0, 0.0, -10.0).unwrap(), 5.0, 0.5).unwrap_err();
        assert_eq!(err.to_string(), "to = 5 is never reached by the motion");
        // Starting on it and leaving: said so, not "never reached".
        let err = Bounce::new(Gravity::new(0.0, 0.0, 10.0).unwrap(), 0.0, 0.5).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("to = 0 is where the motion starts"),
            "{err}"
        );
    }

    /// Impacts stop being listed at the first bounce no higher than `negligible`, and not
    /// before: the accumulation of impacts at the end is not written stop by stop.
    /// With restitution 0 the first impact ends the bounces: it is listed, as the velocity
    /// jumps there (from the fall's to 0).
    #[test]
    fn a_ball_stopped_dead_lists_its_one_impact() {
        let fall = Gravity::new(-200.0, 0.0, 2400.0).unwrap();
        let ball = Bounce::new(fall, 0.0, 0.0).unwrap();
        let impact = ball.first_impact();
        assert_eq!(ball.impacts_before(impact + 0.01, 1e-6), [impact]);
        assert_eq!(ball.impacts_before(impact, 1e-6), Vec::<f64>::new());
    }

    #[test]
    fn impacts_are_listed_until_the_bounces_are_negligible() {
        let b = ball();
        let end = b.end_time() + 1.0;
        let all = b.impacts_before(end, 0.0);
        let few = b.impacts_before(end, 0.01);
        assert!(all.len() > 30, "{}", all.len());
        assert!(few.len() < 15 && few[..] == all[..few.len()], "{few:?}");
        let k = few.len() as i32;
        assert!(b.rise(k) <= 0.01 && b.rise(k - 1) > 0.01);
        // Between the last impact listed and the end, the motion stays that close to the floor.
        let last = few[few.len() - 1];
        for i in 0..=1000 {
            let t = last + (end - last) * f64::from(i) / 1000.0;
            assert!((b.position(t) - b.floor).abs() <= 0.01, "{t}");
        }
    }
}
