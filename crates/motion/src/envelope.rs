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

/// Most Newton steps to locate a crossing. From the right of the root the iterates of a
/// concave function fall monotonically and quadratically onto it: a handful are taken.
const NEWTON_STEPS: u32 = 100;

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
            libm::exp(-self.rate * t) * shape
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
            libm::exp(-self.rate * peak) * self.slope.mul_add(peak, self.start)
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
        // The constant part alone crosses in closed form; the linear part by Newton's method.
        let constant_crossing = libm::log(self.amplitude / threshold) / self.rate;
        let mut hi = peak + 1.0 / self.rate;
        while self.at_linear(hi) > threshold && hi < constant_crossing {
            hi *= 2.0;
        }
        if self.at_linear(hi) <= threshold {
            hi = self.linear_crossing(hi, threshold);
        }
        let crossing = hi.min(constant_crossing).max(peak);
        crossing.is_finite().then_some(crossing)
    }

    /// The crossing of the linear part, `e^(-r·t)·(p + q·t) = threshold`, from `hi`, a time
    /// past the peak where the part is already at or below the threshold.
    ///
    /// Newton's method on `g(t) = ln(p + q·t) - r·t - ln(threshold)`: `g` is concave
    /// (`g'' = -q²/(p + q·t)² <= 0`) and decreasing past the peak, so each tangent lies above
    /// it and meets zero between the root and the current point. Every iterate is therefore a
    /// time from which the bound stays below the threshold, and they fall onto the root
    /// quadratically, until the step is lost in the rounding of `g`. An iterate that rounding
    /// puts just above the threshold is moved up by doubling steps from an ulp until it is
    /// not: the result is the root to within a few ulps of the evaluated bound.
    fn linear_crossing(&self, mut hi: f64, threshold: f64) -> f64 {
        let log_threshold = libm::log(threshold);
        for _ in 0..NEWTON_STEPS {
            let shape = self.slope.mul_add(hi, self.start);
            if shape <= 0.0 {
                break;
            }
            let g = libm::log(shape) - self.rate * hi - log_threshold;
            let next = hi - g / (self.slope / shape - self.rate);
            if !(next < hi) || next < 0.0 {
                break;
            }
            if self.at_linear(next) > threshold {
                return self.first_below(next, hi, threshold);
            }
            hi = next;
        }
        hi
    }

    /// The first time from `lo` (just above the threshold, by rounding) towards `hi` (at or
    /// below it) where the linear part is at or below the threshold, in steps that double
    /// from an ulp of `lo`; `hi` if none is.
    fn first_below(&self, lo: f64, hi: f64, threshold: f64) -> f64 {
        let mut step = lo * f64::EPSILON;
        let mut t = lo;
        while t < hi {
            t += step;
            if t < hi && self.at_linear(t) <= threshold {
                return t;
            }
            step *= 2.0;
        }
        hi
    }

    /// The linear part of the bound at time `t`: `e^(-r·t)·(p + q·t)`.
    fn at_linear(&self, t: f64) -> f64 {
        libm::exp(-self.rate * t) * self.slope.mul_add(t, self.start)
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
    fn linear_crossings_are_tight_across_scales() {
        // Rates, starts, slopes and thresholds over many decades: the crossing is a time
        // from which the bound stays below the threshold, and no earlier one by more than
        // a relative 1e-12.
        for rate in [1e-3, 0.3, 1.0, 7.5, 60.0, 4e3] {
            for start in [0.0, 1e-6, 1.0, 300.0, 1e9] {
                for slope in [1e-3, 2.0, 170.0, 1e7] {
                    for threshold in [1e-9, 1e-3, 0.4, 2.0] {
                        let e = Envelope {
                            rate,
                            amplitude: f64::INFINITY,
                            start,
                            slope,
                        };
                        let Some(t) = e.settles_below(threshold) else {
                            panic!("{e:?} never settles below {threshold}");
                        };
                        let case = format!("{e:?} below {threshold}: {t}");
                        assert!(e.at(t) <= threshold, "{case}");
                        if t > 0.0 {
                            assert!(e.at(t * (1.0 - 1e-12)) > threshold, "{case}");
                        }
                    }
                }
            }
        }
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
