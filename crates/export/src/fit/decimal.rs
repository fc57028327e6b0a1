//! Decimal numbers `digits · 10^-scale`: what is written is exactly what was fitted.

use curvebake_model::number::write_scaled_integer;
use std::cmp::Ordering;

/// `10^k` for `k <= 22` (exact as a double).
pub(super) fn pow10(k: u32) -> f64 {
    const POWERS: [f64; 23] = {
        let mut powers = [1.0; 23];
        let mut k = 1;
        while k < 23 {
            powers[k] = powers[k - 1] * 10.0;
            k += 1;
        }
        powers
    };
    POWERS[k as usize]
}

/// `y.floor() as i64`, without a call: x86-64's baseline has no instruction for `floor`, and
/// the fit rounds a few times for each stop. The truncation `y as i64` is exact for
/// `|y| < 2^63` and one above the floor for a negative non-integer; beyond, and for NaN, it
/// saturates as the cast of the floor does.
pub(super) fn floor_i64(y: f64) -> i64 {
    let t = y as i64;
    if (t as f64) > y {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// `y.round() as i64` (halves away from zero), without a call: `y - trunc(y)` is exact
/// (Sterbenz), and zero for `|y| >= 2^52`, where every double is an integer.
pub(super) fn round_i64(y: f64) -> i64 {
    let t = y as i64;
    let fraction = y - t as f64;
    if fraction >= 0.5 {
        t.saturating_add(1)
    } else if fraction <= -0.5 {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The number `digits · 10^-scale`.
#[derive(Debug, Clone, Copy, Eq)]
pub struct Decimal {
    /// Its digits, `|digits| < 2^53`.
    pub digits: i64,
    /// Decimals.
    pub scale: u32,
}

impl Decimal {
    /// 0.
    pub const ZERO: Self = Self {
        digits: 0,
        scale: 0,
    };
    /// 100 (the input of the last stop, percent).
    pub const HUNDRED: Self = Self {
        digits: 100,
        scale: 0,
    };

    /// `digits · 10^-scale`.
    pub fn new(digits: i64, scale: u32) -> Self {
        Self { digits, scale }
    }

    /// The nearest double (a correctly rounded division of two exact doubles).
    pub fn value(self) -> f64 {
        self.digits as f64 / pow10(self.scale)
    }

    /// `x` rounded down to `scale` decimals.
    pub fn floor(x: f64, scale: u32) -> Self {
        Self::new(floor_i64(x * pow10(scale)), scale)
    }

    /// `x` rounded to the nearest number of `scale` decimals.
    pub fn round(x: f64, scale: u32) -> Self {
        Self::new(round_i64(x * pow10(scale)), scale)
    }

    /// The same number with `scale` decimals (at least its own).
    fn widened(self, scale: u32) -> i128 {
        match scale.saturating_sub(self.scale) {
            0 => i128::from(self.digits),
            k => i128::from(self.digits) * 10i128.pow(k),
        }
    }

    /// The smallest number of `scale` decimals above `self` (`scale` at least its own).
    pub fn next_up(self, scale: u32) -> Self {
        let scale = scale.max(self.scale);
        Self::new(self.widened(scale) as i64 + 1, scale)
    }

    /// `self - other`, exactly.
    pub fn minus(self, other: Self) -> Self {
        let scale = self.scale.max(other.scale);
        Self::new((self.widened(scale) - other.widened(scale)) as i64, scale)
    }

    /// Writes it: no exponent, no trailing zeros, no `-0`.
    pub fn write(self, out: &mut Vec<u8>) {
        write_scaled_integer(out, self.digits, self.scale as usize);
    }

    /// Writes it divided by 100 (an input in percent as a fraction).
    pub fn write_hundredths(self, out: &mut Vec<u8>) {
        write_scaled_integer(out, self.digits, self.scale as usize + 2);
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let scale = self.scale.max(other.scale);
        self.widened(scale).cmp(&other.widened(scale))
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(d: Decimal) -> String {
        let mut out = Vec::new();
        d.write(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rounding_without_a_call_is_the_library_s() {
        let halves = [
            0.5,
            1.5,
            2.5,
            0.499_999_999_999_999_94,
            4_503_599_627_370_495.5,
        ];
        let edges = [
            0.0,
            -0.0,
            1e-300,
            0.3,
            2.999,
            1e15 + 0.25,
            9.3e18,
            1e19,
            1e300,
        ];
        let odd = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
        ];
        for y in halves.into_iter().chain(edges).chain(odd) {
            for y in [y, -y, y.next_up(), y.next_down()] {
                assert_eq!(floor_i64(y), y.floor() as i64, "floor {y:e}");
                assert_eq!(round_i64(y), y.round() as i64, "round {y:e}");
            }
        }
    }

    #[test]
    fn decimals_write_exactly_and_compare_across_scales() {
        assert_eq!(text(Decimal::new(12340, 3)), "12.34");
        assert_eq!(text(Decimal::new(-5, 4)), "-0.0005");
        assert_eq!(text(Decimal::ZERO), "0");
        let mut out = Vec::new();
        Decimal::new(125, 1).write_hundredths(&mut out);
        assert_eq!(out, b"0.125");
        assert!(Decimal::new(125, 1) > Decimal::new(12, 0));
        assert_eq!(Decimal::new(1200, 2), Decimal::new(12, 0));
        assert_eq!(Decimal::new(12, 0).next_up(2), Decimal::new(1201, 2));
        assert_eq!(Decimal::floor(2.999, 2), Decimal::new(299, 2));
    }
}
