//! Decay envelopes: provable bounds that tell when a motion has come to rest.

/// A bound `|y(t)| <= e^(-rate·t) · min(amplitude, start + slope·t)` on a decaying quantity
/// (a spring's displacement or velocity, a decay's distance to rest).
///
/// Beyond `peak_time` the bound never increases, so the first time it drops below a threshold
/// is a time from which the quantity provably stays below it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Envelope {
    /// Exponential rate (1/s), >= 0.
    pub rate: f64,
    /// Constant amplitude bound (may be infinite when only the linear bound holds).
    pub amplitude: f64,
    /// Linear bound at t = 0.
    pub start: f64,
    /// Linear bound growth per second.
    pub slope: f64,
}

/// Bisection steps to locate a crossing: 200 halvings reach the resolution of doubles from any
/// bracket that fits in a double.
const BISECTION_STEPS: u32 = 200;

impl Envelope {
    /// A pure exponential `amplitude·e^(-rate·t)`.
    pub fn exponential(rate: f64, amplitude: f64) -> Self {
        Self {
            rate,
            amplitude,
            start: amplitude,
            slope: 0.0,
        }
    }

    /// The bound at time `t`.
    pub fn at(&self, t: f64) -> f64 {
        let shape = self.amplitude.min(self.slope.mul_add(t, self.start));
        if shape == 0.0 {
            0.0
        } else {
            (-self.rate * t).exp() * shape
        }
    }

    /// Time after which the bound never increases: the maximum of `e^(-rt)(p + qt)` is at
    /// `t = 1/r - p/q`.
    fn peak_time(&self) -> f64 {
        if self.slope > 0.0 && self.rate > 0.0 {
            (1.0 / self.rate - self.start / self.slope).max(0.0)
        } else {
            0.0
        }
    }

    /// The largest value of the bound over t >= 0. Its constant part is largest at t = 0 and
    /// its linear part at `peak_time` (unbounded when it grows with no decay), so this is
    /// min(amplitude, linear part at the peak); `at(peak)` alone can be smaller than `at(0)`.
    fn maximum(&self) -> f64 {
        let peak = self.peak_time();
        let linear = if self.slope > 0.0 && self.rate <= 0.0 {
            f64::INFINITY
        } else if self.slope == 0.0 && self.start == 0.0 {
            0.0
        } else {
            (-self.rate * peak).exp() * self.slope.mul_add(peak, self.start)
        };
        self.amplitude.min(linear)
    }

    /// The earliest time from which the bound stays `<= threshold`, or `None` if it never
    /// does (a rate of 0 with a non-zero amplitude).
    pub fn settles_below(&self, threshold: f64) -> Option<f64> {
        let peak = self.peak_time();
        if self.maximum() <= threshold {
            return Some(0.0);
        }
        if self.rate <= 0.0 || !self.rate.is_finite() {
            return None;
        }
        // The constant part alone crosses in closed form; the linear part by bisection.
        let constant_crossing = (self.amplitude / threshold).ln() / self.rate;
        let linear = |t: f64| (-self.rate * t).exp() * self.slope.mul_add(t, self.start);
        let mut hi = peak + 1.0 / self.rate;
        while linear(hi) > threshold && hi < constant_crossing {
            hi *= 2.0;
        }
        let mut lo = peak;
        for _ in 0..BISECTION_STEPS {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if linear(mid) > threshold {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let crossing = hi.min(constant_crossing).max(peak);
        crossing.is_finite().then_some(crossing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_envelope_crosses_in_closed_form() {
        let e = Envelope::exponential(2.0, 10.0);
        let t = e.settles_below(0.01).unwrap();
        assert!((t - (1000.0f64).ln() / 2.0).abs() < 1e-12);
    }

    #[test]
    fn linear_envelope_crossing_is_after_the_peak_and_below_threshold() {
        let e = Envelope {
            rate: 1.0,
            amplitude: f64::INFINITY,
            start: 1.0,
            slope: 100.0,
        };
        let t = e.settles_below(0.01).unwrap();
        assert!(e.at(t) <= 0.01 * (1.0 + 1e-12));
        assert!(e.at(t * (1.0 - 1e-9)) > 0.01);
    }

    #[test]
    fn no_rate_never_settles() {
        assert_eq!(Envelope::exponential(0.0, 1.0).settles_below(0.5), None);
        assert_eq!(
            Envelope::exponential(0.0, 0.1).settles_below(0.5),
            Some(0.0)
        );
    }
}
