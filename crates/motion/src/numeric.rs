//! Shared numerics: functions that stay exact where the textbook formula cancels.

/// Below this |x|, `sinc`/`sinhc` use their Taylor series `1 ∓ x²/6`.
/// The first omitted term, x⁴/120, is then below 1e-18: far under one ulp of 1.
const SERIES_CUTOFF: f64 = 1e-4;

/// hex(z) = (e^z - 1)/z, with hex(0) = 1.
///
/// Computed with `exp_m1`, so it is exact to a few ulp for every z, tiny ones included:
/// the naive `(z.exp() - 1.0) / z` loses all digits as z -> 0.
pub fn hex(z: f64) -> f64 {
    if z == 0.0 {
        // The removable singularity: the limit of (e^z - 1)/z.
        1.0
    } else if z == f64::INFINITY {
        f64::INFINITY
    } else {
        libm::expm1(z) / z
    }
}

/// `y.floor()`, without a call: x86-64's baseline has no instruction for it, and a fitting
/// bounds a bend this way once per candidate stop. Below 2^52 in magnitude the truncation
/// `y as i64` is exact (one above the floor for a negative non-integer); from there on every
/// double is an integer. The sign is `y`'s, so `-0.0` stays `-0.0`.
pub fn floor(y: f64) -> f64 {
    if y.abs() < 4_503_599_627_370_496.0 {
        let t = y as i64 as f64;
        if t > y {
            t - 1.0
        } else {
            t.copysign(y)
        }
    } else {
        y
    }
}

/// The smallest range holding both ranges `(lo, hi)`.
pub fn union(r: (f64, f64), q: (f64, f64)) -> (f64, f64) {
    (r.0.min(q.0), r.1.max(q.1))
}

/// sinc(x) = sin(x)/x, with sinc(0) = 1. Finite and smooth for every finite x.
pub fn sinc(x: f64) -> f64 {
    if x.abs() < SERIES_CUTOFF {
        1.0 - x * x / 6.0
    } else {
        libm::sin(x) / x
    }
}

/// sinhc(x) = sinh(x)/x, with sinhc(0) = 1. Smooth for every x; infinite once sinh overflows.
pub fn sinhc(x: f64) -> f64 {
    if x.abs() < SERIES_CUTOFF {
        1.0 + x * x / 6.0
    } else {
        libm::sinh(x) / x
    }
}

/// The smallest t > 0 with `a/2·t² + v·t = d`, or `None`.
///
/// Roots come from the cancellation-free pair `q/(a/2)` and `-d/q`, with
/// `q = -(v + sign(v)·√(v² + 2ad))/2`, so a root near zero is as exact as a large one.
/// The discriminant is formed with one fused multiply-add. A root at t = 0 does not count.
pub fn first_positive_quadratic_root(a: f64, v: f64, d: f64) -> Option<f64> {
    if a == 0.0 {
        // Linear: v·t = d.
        return positive(d / v);
    }
    let discriminant = v.mul_add(v, 2.0 * a * d);
    if discriminant < 0.0 || discriminant.is_nan() {
        return None;
    }
    let root = if discriminant.is_finite() {
        discriminant.sqrt()
    } else {
        // v² + 2ad overflows although its root need not: r = √|2ad| = √2·√|a|·√|d|, and
        // √(v² + r²) = hypot(v, r), √(v² − r²) = √(|v| − r)·√2·√(|v|/2 + r/2).
        let r = std::f64::consts::SQRT_2 * a.abs().sqrt() * d.abs().sqrt();
        if (a > 0.0) == (d > 0.0) {
            libm::hypot(v, r)
        } else if v.abs() >= r {
            (v.abs() - r).sqrt() * std::f64::consts::SQRT_2 * (v.abs() / 2.0 + r / 2.0).sqrt()
        } else {
            return None;
        }
    };
    if !root.is_finite() {
        return None;
    }
    let q = -(0.5 * v + 0.5 * root.copysign(v));
    if q == 0.0 {
        // v = 0 and d = 0: the only root is t = 0.
        return None;
    }
    let (r1, r2) = (q / (0.5 * a), -d / q);
    match (positive(r1), positive(r2)) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

fn positive(t: f64) -> Option<f64> {
    (t > 0.0 && t.is_finite()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_without_a_call_is_the_library_s() {
        let values = [
            0.0,
            1e-300,
            0.5,
            1.0,
            2.999,
            1e15 + 0.25,
            4_503_599_627_370_495.5,
            1e300,
        ];
        let odd = [f64::NAN, f64::INFINITY, f64::MAX, f64::MIN_POSITIVE];
        for y in values.into_iter().chain(odd) {
            for y in [
                y,
                -y,
                y.next_up(),
                y.next_down(),
                -y.next_up(),
                -y.next_down(),
            ] {
                let (ours, library) = (floor(y), y.floor());
                assert!(
                    ours.to_bits() == library.to_bits() || ours.is_nan() && library.is_nan(),
                    "{y:e}"
                );
            }
        }
    }

    #[test]
    fn a_root_is_found_when_the_discriminant_overflows() {
        // 2·a·d = 2e308 overflows; t = √(2d/a) = √2 (v = 0).
        let t = first_positive_quadratic_root(1e308, 0.0, 1e308).unwrap();
        assert!((t - std::f64::consts::SQRT_2).abs() < 1e-12, "{t}");
        // Falling from 1e300 at 1e308: t² = 2e300/1e308.
        let t = first_positive_quadratic_root(-1e308, 0.0, -1e300).unwrap();
        assert!((t - (2e-8f64).sqrt()).abs() < 1e-18, "{t}");
    }

    #[test]
    fn hex_is_exact_near_zero_and_continuous_at_zero() {
        assert_eq!(hex(0.0), 1.0);
        // hex(z) = 1 + z/2 + z²/6 + ...
        let z = 1e-10;
        assert!((hex(z) - (1.0 + z / 2.0)).abs() < 1e-18);
        assert!((hex(-z) - (1.0 - z / 2.0)).abs() < 1e-18);
        assert!((hex(-800.0) - 1.0 / 800.0).abs() < 1e-18);
    }

    #[test]
    fn sinc_and_sinhc_join_their_series_smoothly() {
        for x in [9.9e-5, 1e-4, 1.01e-4] {
            assert!((sinc(x) - x.sin() / x).abs() <= 2.0 * f64::EPSILON);
            assert!((sinhc(x) - x.sinh() / x).abs() <= 2.0 * f64::EPSILON);
        }
        assert_eq!(sinc(0.0), 1.0);
        assert_eq!(sinhc(0.0), 1.0);
    }

    #[test]
    fn quadratic_root_at_zero_does_not_count() {
        assert_eq!(first_positive_quadratic_root(-10.0, 5.0, 0.0), Some(1.0));
        assert_eq!(first_positive_quadratic_root(0.0, 0.0, 0.0), None);
        assert_eq!(first_positive_quadratic_root(1.0, 0.0, 0.0), None);
    }
}
