//! Number formatting: the one place where an `f64` becomes output bytes.
//!
//! curvebake writes numbers in two formats, and every writer goes through this
//! module so that the two rules below hold everywhere:
//!
//! * **JSON tables** ([`write_json_f64`]): the shortest decimal string that
//!   parses back to the very same `f64` (via [`zmij`], the algorithm `serde_json` uses). A table consumer gets every
//!   sample bit for bit, with no precision chosen on its behalf. Negative zero is
//!   written as `0.0`, so a sign bit that means nothing never leaks into output
//!   or into diffs of it.
//! * **CSS keyframes** ([`write_fixed`]): a fixed number of decimals chosen by the
//!   caller, because stylesheets are read by people and a `translateX` never needs
//!   seventeen significant digits. The rounding is *exact*: the exact binary value
//!   of the `f64` is rounded half to even, exactly like `format!("{:.N}", x)`, so the
//!   output is deterministic and does not depend on double rounding. Trailing
//!   zeros (and a then-trailing `.`) are trimmed, `-0` is never written (a value
//!   that rounds to zero prints `0`), and exponent notation is never used, because
//!   CSS parsers disagree on whether and where they accept exponents.
//!
//! Both functions append to a `Vec<u8>` and neither allocates on its common path.
//! Both require finite input: callers validate their values before formatting.

use std::io::Write as _;

/// `10^d` for `d` in `0..=12`; every entry is exactly representable as an `f64`.
const POW10: [f64; 13] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
];

/// The fast path of [`write_fixed`] handles `|x| * 10^decimals` below this bound
/// (`2^53`), where every integer is an exact `f64` and fits an `i64`.
const FAST_PATH_LIMIT: f64 = 9_007_199_254_740_992.0;

/// Appends `x` to `out` as a JSON number: the shortest decimal representation
/// that parses back to exactly `x` (produced by [`zmij`]).
///
/// Integral values keep a fractional part (`1.0`), large and small magnitudes
/// use an exponent (`1e+16`, `5e-324`); all of it is valid JSON. Negative zero is
/// written as `0.0`, never `-0.0`.
///
/// `x` must be finite: JSON has no NaN or infinity, and callers validate their
/// values first. This is checked with a `debug_assert!`; in release builds a
/// non-finite `x` is written as `null` (what `serde_json` writes for them), so
/// the output stays valid JSON.
pub fn write_json_f64(out: &mut Vec<u8>, x: f64) {
    let mut buf = zmij::Buffer::new();
    out.extend_from_slice(json_text(&mut buf, x).as_bytes());
}

/// Appends `values` to `out` as JSON numbers separated by commas, each as [`write_json_f64`]
/// writes it.
pub fn write_json_f64s(out: &mut Vec<u8>, values: &[f64]) {
    write_list(out, values, json_text);
}

/// Appends `values` to `out` separated by commas, each as `text` prints it into a buffer.
///
/// Each number's text is copied out only after the next one has been printed (into a second
/// buffer). Copied at once, the text is read back while the narrow stores that wrote it are
/// still in flight, which a wide load has to wait for (measured: benches/README.md, "Tuning decisions").
pub fn write_list(
    out: &mut Vec<u8>,
    values: &[f64],
    text: impl for<'b> Fn(&'b mut zmij::Buffer, f64) -> &'b str,
) {
    let (mut a, mut b) = (zmij::Buffer::new(), zmij::Buffer::new());
    let Some((&first, rest)) = values.split_first() else {
        return;
    };
    let mut pending = text(&mut a, first);
    let mut pairs = rest.chunks_exact(2);
    for pair in &mut pairs {
        let next = text(&mut b, pair[0]);
        out.extend_from_slice(pending.as_bytes());
        out.push(b',');
        let after = text(&mut a, pair[1]);
        out.extend_from_slice(next.as_bytes());
        out.push(b',');
        pending = after;
    }
    if let [last] = pairs.remainder() {
        let next = text(&mut b, *last);
        out.extend_from_slice(pending.as_bytes());
        out.push(b',');
        pending = next;
    }
    out.extend_from_slice(pending.as_bytes());
}

/// `x`'s JSON text: printed into `buf`, or a constant for zero (either sign) and, should a
/// non-finite value get this far, `null`.
pub fn json_text(buf: &mut zmij::Buffer, x: f64) -> &str {
    debug_assert!(x.is_finite(), "write_json_f64: non-finite value {x}");
    if !x.is_finite() {
        "null"
    } else if x == 0.0 {
        // Both zeros; zmij would write `-0.0` for negative zero.
        "0.0"
    } else {
        buf.format_finite(x)
    }
}

/// Bytes [`write_fixed`] may use past the end of what it has written before cutting its text
/// back: a buffer sized for a known text needs this much more for its last number.
pub const FIXED_SCRATCH: usize = 40;

/// Longest text [`write_fixed`] writes for a value with `|x| <= max_abs`: sign, integer
/// digits (one more than `log10` gives, should rounding carry), point and decimals.
pub fn max_fixed_len(max_abs: f64, decimals: u32) -> usize {
    let digits = if max_abs < 1.0 {
        1
    } else {
        libm::log10(max_abs).floor() as usize + 2
    };
    2 + digits + decimals as usize
}

/// Appends `x` to `out` rounded to `decimals` decimal places, for CSS.
///
/// The exact binary value of `x` is rounded half to even, exactly as
/// `format!("{:.N}", x)` rounds (so `0.125` to 2 decimals is `0.12`, and `0.045`,
/// whose binary value is slightly below 0.045, is `0.04`). Then trailing zeros
/// after the decimal point are removed, and the point too if nothing follows it:
/// `1.5` with 4 decimals is `1.5`, `2.0` is `2`. A result that rounds to zero is
/// written as `0`, never `-0`, and exponent notation is never used (`1e20`
/// prints as `100000000000000000000`).
///
/// `decimals` is meant to be in `0..=12`; that range takes an allocation-free
/// fast path whenever `|x| * 10^decimals < 2^53`. Larger magnitudes, and larger
/// `decimals`, are formatted through `format!`'s exact algorithm instead, with the
/// same result rules.
///
/// `x` must be finite; callers validate their values first. This is checked
/// with a `debug_assert!`; in release builds a non-finite `x` is written as `0`.
pub fn write_fixed(out: &mut Vec<u8>, x: f64, decimals: u32) {
    debug_assert!(x.is_finite(), "write_fixed: non-finite value {x}");
    if !x.is_finite() {
        out.push(b'0');
        return;
    }
    if let Some(&scale) = POW10.get(decimals as usize) {
        let p = x * scale;
        // Rounding is monotonic and 2^53 is a double, so `|p| < 2^53` exactly
        // when the exact product `|x| * scale < 2^53`.
        if p.abs() < FAST_PATH_LIMIT {
            let n = round_half_even_exact(x, scale, p);
            write_scaled_integer(out, n, decimals as usize);
            return;
        }
    }
    write_fixed_slow(out, x, decimals as usize);
}

/// Rounds the exact product `x * scale` to the nearest integer, ties to even,
/// where `p` is the rounded product and `|p| < 2^53`.
///
/// The exact product is `p + e`, where `e` is the rounding error of the
/// multiplication (`|e| <= ulp(p) / 2`, and `ulp(p) <= 1`). Only a `p` exactly
/// halfway between two integers needs `e`:
///
/// * `p`'s fraction below 1/2 in magnitude: with ulp(p) <= 1/2 it is at most
///   `1/2 - ulp(p)`, so the exact value is strictly nearer the truncation. With
///   ulp(p) == 1 (`|p| >= 2^52`), `p` is an integer and `e` may be exactly ±1/2:
///   that tie was already broken to even when the product was rounded to `p`.
/// * Above 1/2: likewise strictly nearer the next integer away from zero.
/// * Exactly 1/2: `e` decides, recovered by an FMA (`scale` is a positive
///   integer, so the exact product is a multiple of 2^-1074 and `e` is exact even
///   for subnormal `x`); `e == 0` is an exact tie, broken to even.
///
/// The common cases take a truncating conversion and a subtraction, both exact,
/// and never call `round` or `fma`.
fn round_half_even_exact(x: f64, scale: f64, p: f64) -> i64 {
    let truncated = p as i64; // Exact: `|p| < 2^53`.
    let fraction = p - truncated as f64; // Exact, with the sign of `p`.
    let away = truncated + if p < 0.0 { -1 } else { 1 };
    if fraction.abs() < 0.5 {
        truncated
    } else if fraction.abs() > 0.5 {
        away
    } else {
        let e = x.mul_add(scale, -p);
        if e == 0.0 {
            if truncated % 2 == 0 {
                truncated
            } else {
                away
            }
        } else if (e > 0.0) == (p > 0.0) {
            away
        } else {
            truncated
        }
    }
}

/// Writes `n / 10^decimals` in fixed notation, trailing fractional zeros and a
/// bare trailing `.` removed, zero as `0`.
///
/// `|n| < 10^16` with `decimals <= 16` (a fit's numbers and CSS values: `|n| < 2^53`, at most
/// 14 decimals) takes a path without loops or calls: the digits of `|n|`, leading zeros
/// included, are made at once in a word, a byte each (eight in a `u64` when `|n| < 10^8` and
/// `decimals <= 8`, as most CSS numbers are, else sixteen in a `u128`); its zero bytes at
/// either end count the leading and trailing zeros, and the text is composed in place over
/// zeros (the padding of a fraction like `0.004`) with at most two stores of the word: the
/// integer digits, then the fraction's over what follows them. Others take a general path
/// through the integer's text.
pub fn write_scaled_integer(out: &mut Vec<u8>, n: i64, decimals: usize) {
    let magnitude = n.unsigned_abs();
    if magnitude == 0 {
        out.push(b'0');
    } else if magnitude < TEN_TO_THE_8 && decimals <= 8 {
        compose(out, eight_digits(magnitude), n < 0, decimals);
    } else if magnitude < TEN_TO_THE_16 && decimals <= 16 {
        let high = eight_digits(magnitude / TEN_TO_THE_8);
        let digits = u128::from(high) | u128::from(eight_digits(magnitude % TEN_TO_THE_8)) << 64;
        compose(out, digits, n < 0, decimals);
    } else {
        write_scaled_slow(out, n, decimals);
    }
}

/// A word of decimal digits, one a byte (`0..=9`), the first in the lowest byte.
trait DigitWord: Copy + std::ops::Shr<usize, Output = Self> + std::ops::BitOr<Output = Self> {
    /// Digits in the word.
    const DIGITS: usize;
    /// `b'0'` in every byte: or-ed in, it makes digits text.
    const TEXT: Self;
    /// Zero digits before the first other (the word's zero bytes from its lowest).
    fn leading_zero_digits(self) -> usize;
    /// Zero digits after the last other.
    fn trailing_zero_digits(self) -> usize;
    /// Stores the word's bytes, lowest first, at the start of `to`.
    fn store(self, to: &mut [u8]);
}

/// [`DigitWord`] for an unsigned integer of `$digits` bytes.
macro_rules! digit_word {
    ($word:ty, $digits:literal) => {
        impl DigitWord for $word {
            const DIGITS: usize = $digits;
            const TEXT: Self = Self::from_ne_bytes([b'0'; $digits]);
            fn leading_zero_digits(self) -> usize {
                (self.trailing_zeros() / 8) as usize
            }
            fn trailing_zero_digits(self) -> usize {
                (self.leading_zeros() / 8) as usize
            }
            fn store(self, to: &mut [u8]) {
                to[..$digits].copy_from_slice(&self.to_le_bytes());
            }
        }
    };
}
digit_word!(u64, 8);
digit_word!(u128, 16);

/// [`write_scaled_integer`]'s text of `digits` (not all zero) with `decimals` of them after
/// the point (`decimals <= W::DIGITS`), after a `-` if `negative`.
#[inline]
fn compose<W: DigitWord>(out: &mut Vec<u8>, digits: W, negative: bool, decimals: usize) {
    let leading = digits.leading_zero_digits();
    let trailing = digits.trailing_zero_digits();
    let integer = (W::DIGITS - leading).saturating_sub(decimals);
    let fraction = decimals - trailing.min(decimals);
    let text = digits | W::TEXT;
    let sign = usize::from(negative);
    let start = out.len();
    out.extend_from_slice(&[b'0'; FIXED_SCRATCH]);
    let scratch: &mut [u8; FIXED_SCRATCH] = (&mut out[start..])
        .try_into()
        .expect("the scratch just appended");
    if negative {
        scratch[0] = b'-';
    }
    // Without integer digits, the integer part is the `0` already there.
    if integer > 0 {
        (text >> (8 * leading)).store(&mut scratch[sign..]);
    }
    let mut end = sign + integer.max(1);
    if fraction > 0 {
        // The fraction is the last `decimals` digits (its leading zeros among them), at most
        // a word after at most a word: within the scratch.
        scratch[end] = b'.';
        (text >> (8 * (W::DIGITS - decimals))).store(&mut scratch[end + 1..]);
        end += 1 + fraction;
    }
    out.truncate(start + end);
}

/// `10^8`.
const TEN_TO_THE_8: u64 = 100_000_000;
/// `10^16`: integers below it have at most 16 digits.
const TEN_TO_THE_16: u64 = TEN_TO_THE_8 * TEN_TO_THE_8;

/// The eight decimal digits of `x < 10^8` (leading zeros included), one a byte, the first in
/// the lowest, each `0..=9`. Each step splits every lane of the word in two at once:
/// `abcdefgh` into `abcd` and `efgh` (32-bit lanes), each into two pairs (16-bit lanes), each
/// pair into two digits (bytes), dividing by 100 and by 10 with a multiplication and a shift
/// that are exact below 10^4 and 10^2 (`⌊v·10486/2^20⌋ = ⌊v/100⌋`, `⌊v·103/2^10⌋ = ⌊v/10⌋`);
/// no lane's product reaches the next lane.
fn eight_digits(x: u64) -> u64 {
    let v = (x / 10_000) | ((x % 10_000) << 32);
    let hundreds = ((v * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let v = hundreds | (v - hundreds * 100) << 16;
    let tens = ((v * 103) >> 10) & 0x000F_000F_000F_000F;
    tens | (v - tens * 10) << 8
}

/// [`write_scaled_integer`] for any `n` but 0 and any `decimals`: the integer's text, its trailing zeros
/// within the fraction cut, the point put in. Kept out of line, so that the fast path saves
/// no registers for it.
#[cold]
#[inline(never)]
fn write_scaled_slow(out: &mut Vec<u8>, n: i64, decimals: usize) {
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(n.unsigned_abs()).as_bytes();
    let zeros = (digits.iter().rev().take_while(|&&d| d == b'0').count()).min(decimals);
    let (digits, decimals) = (&digits[..digits.len() - zeros], decimals - zeros);
    if n < 0 {
        out.push(b'-');
    }
    if decimals == 0 {
        out.extend_from_slice(digits);
    } else if digits.len() > decimals {
        let (integer, fraction) = digits.split_at(digits.len() - decimals);
        out.extend_from_slice(integer);
        out.push(b'.');
        out.extend_from_slice(fraction);
    } else {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + decimals - digits.len(), b'0');
        out.extend_from_slice(digits);
    }
}

/// Exact fixed-point formatting through `format!`, then trimmed like the fast path.
fn write_fixed_slow(out: &mut Vec<u8>, x: f64, decimals: usize) {
    let start = out.len();
    write!(out, "{x:.decimals$}").expect("writing to a Vec<u8> cannot fail");
    if out[start..].contains(&b'.') {
        while out.last() == Some(&b'0') {
            out.pop();
        }
        if out.last() == Some(&b'.') {
            out.pop();
        }
    }
    if out[start..] == *b"-0" {
        out.truncate(start);
        out.push(b'0');
    }
}

/// Significant digits of numbers shown to people, when they are not short already.
const SIGNIFICANT: i32 = 4;
/// A number with at most this many significant digits is shown exactly as written.
const SHORT: usize = 6;

/// Formats a number for people (plot titles, the review page), the one place where plots and
/// the review page turn parameters into text: a number with at most six significant digits
/// as is (`1.00001`, `0.55`, `2400`), others rounded to four (more when the integer part is
/// longer: `0.6068`, `7453857`); trailing zeros trimmed, never `-0`; exponent notation
/// (`1.5e-7`) below 1e-4 and from 1e9 on.
pub fn format_number(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".into();
    }
    let magnitude = libm::log10(x.abs()).floor() as i32;
    let mut buffer = zmij::Buffer::new();
    let shortest = buffer.format_finite(x);
    let shortest = shortest.strip_suffix(".0").unwrap_or(shortest);
    let digits = shortest
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&b| b == b'0')
        .count();
    if (-4..9).contains(&magnitude) && !shortest.contains('e') && digits <= SHORT {
        return shortest.to_owned();
    }
    if (-4..9).contains(&magnitude) {
        let mut out = Vec::new();
        write_fixed(&mut out, x, (SIGNIFICANT - 1 - magnitude).max(0) as u32);
        String::from_utf8(out).expect("write_fixed writes ASCII")
    } else {
        let text = format!("{:.*e}", (SIGNIFICANT - 1) as usize, x);
        let (mantissa, exponent) = text.split_once('e').expect("`{:e}` writes an exponent");
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        format!("{mantissa}e{exponent}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_for_people() {
        for (x, want) in [
            (0.0, "0"),
            (-0.0, "0"),
            (220.0, "220"),
            (0.606_775_3, "0.6068"),
            (-240.0, "-240"),
            (2200.5, "2200.5"),
            (2_200.123_456, "2200"),
            (1.000_01, "1.00001"),
            (0.000_100_5, "0.0001005"),
            (123_456.7, "123457"),
            (0.02, "0.02"),
            (1.5e-7, "1.5e-7"),
            (-2.5e12, "-2.5e12"),
            (1e9, "1e9"),
            (0.000_123_44, "0.00012344"),
            (0.000_123_456_7, "0.0001235"),
        ] {
            assert_eq!(format_number(x), want, "{x}");
        }
    }

    /// Deterministic pseudo-random numbers (SplitMix64).
    struct Rng(u64);

    impl Rng {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        /// Uniform in `[0, 1)`.
        fn unit(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next_u64() % n
        }

        fn sign(&mut self) -> f64 {
            if self.next_u64() & 1 == 0 {
                1.0
            } else {
                -1.0
            }
        }
    }

    /// The `k`-th representable neighbour of `x` (towards +inf for positive `k`);
    /// `x` must be positive and finite, and stay so.
    fn ulps(x: f64, k: i64) -> f64 {
        assert!(x > 0.0);
        f64::from_bits((x.to_bits() as i64 + k) as u64)
    }

    fn fixed(x: f64, decimals: u32) -> String {
        let mut out = Vec::new();
        write_fixed(&mut out, x, decimals);
        String::from_utf8(out).unwrap()
    }

    fn json(x: f64) -> String {
        let mut out = Vec::new();
        write_json_f64(&mut out, x);
        String::from_utf8(out).unwrap()
    }

    /// What `write_fixed` must produce, derived from `format!`.
    fn reference(x: f64, decimals: u32) -> String {
        let s = format!("{:.*}", decimals as usize, x);
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.')
        } else {
            &s
        };
        if s == "-0" {
            "0".to_owned()
        } else {
            s.to_owned()
        }
    }

    #[track_caller]
    fn check(x: f64, decimals: u32) {
        assert_eq!(
            fixed(x, decimals),
            reference(x, decimals),
            "x = {x:e} ({:#018x}), decimals = {decimals}",
            x.to_bits()
        );
    }

    #[test]
    fn fixed_hand_picked() {
        let cases: &[(f64, u32, &str)] = &[
            (0.125, 2, "0.12"),
            (0.375, 2, "0.38"),
            (0.625, 2, "0.62"),
            (2.5, 0, "2"),
            (3.5, 0, "4"),
            (0.5, 0, "0"),
            (1.5, 0, "2"),
            (-0.5, 0, "0"),
            (-1.5, 0, "-2"),
            (-2.5, 0, "-2"),
            (-0.00001, 4, "0"),
            (-0.00005, 4, "-0.0001"),
            (-0.0, 3, "0"),
            (0.0, 0, "0"),
            (1.5, 4, "1.5"),
            (2.0, 4, "2"),
            (-2.0, 4, "-2"),
            (0.045, 2, "0.04"), // binary value is 0.04499999999999999833...
            (0.055, 2, "0.06"), // binary value is 0.05500000000000000027...
            (1.005, 2, "1"),    // binary value is 1.00499999999999989...
            (0.1, 12, "0.1"),
            (0.07, 3, "0.07"),
            (123.456, 1, "123.5"),
            (-123.456, 2, "-123.46"),
            (1e-9, 8, "0"),
            (5e-9, 8, "0.00000001"), // binary value is above 5e-9
            (1e15, 0, "1000000000000000"),
            (1e16, 2, "10000000000000000"),
            (1e20, 3, "100000000000000000000"),
            (-1e22, 12, "-10000000000000000000000"),
            (f64::MIN_POSITIVE, 12, "0"),
            (-5e-324, 12, "0"),
            (9_007_199_254_740_991.0, 0, "9007199254740991"),
            (4_503_599_627_370_495.5, 0, "4503599627370496"),
            (4_503_599_627_370_494.5, 0, "4503599627370494"),
        ];
        for &(x, decimals, want) in cases {
            assert_eq!(fixed(x, decimals), want, "x = {x:e}, decimals = {decimals}");
            assert_eq!(
                reference(x, decimals),
                want,
                "reference disagrees for {x:e}"
            );
        }
        assert_eq!(fixed(f64::MAX, 0), reference(f64::MAX, 0));
        assert!(!fixed(f64::MAX, 0).contains(['e', 'E', '.']));
    }

    #[test]
    fn scaled_integers_match_the_general_path() {
        let mut rng = Rng(0x5EED_CAFE_F00D_0009);
        let text = |write: fn(&mut Vec<u8>, i64, usize), n: i64, decimals: usize| {
            let mut out = b"x".to_vec();
            write(&mut out, n, decimals);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(text(write_scaled_integer, 0, 7), "x0");
        let edges = [
            1,
            9,
            10,
            99_999_999,
            100_000_000,
            TEN_TO_THE_16 as i64 - 1,
            TEN_TO_THE_16 as i64,
            i64::MAX,
            i64::MIN,
        ];
        for i in 0..100_000 {
            let n = match i {
                _ if i < edges.len() => edges[i],
                _ => {
                    // Random magnitudes of every length, some with trailing zeros.
                    let n = rng.next_u64() >> rng.below(64);
                    let n = (n / 10u64.pow(rng.below(8) as u32))
                        .wrapping_mul(10u64.pow(rng.below(8) as u32));
                    if rng.next_u64() & 1 == 0 {
                        n as i64
                    } else {
                        (n as i64).wrapping_neg()
                    }
                }
            };
            for decimals in (0..=20).filter(|_| n != 0) {
                assert_eq!(
                    text(write_scaled_integer, n, decimals),
                    text(write_scaled_slow, n, decimals),
                    "{n} with {decimals} decimals"
                );
            }
        }
        assert_eq!(
            text(write_scaled_integer, -5, 20),
            "x-0.00000000000000000005"
        );
        assert_eq!(text(write_scaled_integer, 1_200_000, 5), "x12");
        assert_eq!(text(write_scaled_integer, 1_230_000, 5), "x12.3");
    }

    #[test]
    fn fixed_appends() {
        let mut out = b"left: ".to_vec();
        write_fixed(&mut out, -12.345_67, 3);
        out.extend_from_slice(b"px");
        assert_eq!(out, b"left: -12.346px");
    }

    #[test]
    fn sweep_fixed_matches_format_on_sweep() {
        let mut rng = Rng(0x5EED_CAFE_F00D_0001);
        for _ in 0..200_000 {
            // Magnitudes 1e-9 .. 1e15, log-uniform-ish: a random mantissa in [1, 10)
            // times a random power of ten, plus a random sign.
            let mantissa = 1.0 + 9.0 * rng.unit();
            let exponent = rng.below(25) as i32 - 9;
            let x = rng.sign() * mantissa * 10f64.powi(exponent);
            for decimals in 0..=12 {
                check(x, decimals);
            }
        }
    }

    #[test]
    fn sweep_fixed_matches_format_on_short_decimals() {
        // Values with few decimal digits (what callers mostly format) sit close
        // to the rounding boundaries of the shorter precisions.
        let mut rng = Rng(0x5EED_CAFE_F00D_0002);
        for _ in 0..50_000 {
            let digits = rng.below(10) as i32;
            let k = rng.below(10_000_000) as f64;
            let x = rng.sign() * k / 10f64.powi(digits);
            for decimals in 0..=12 {
                check(x, decimals);
            }
        }
    }

    #[test]
    fn sweep_fixed_matches_format_on_random_bits() {
        let mut rng = Rng(0x5EED_CAFE_F00D_0003);
        let mut n = 0;
        while n < 50_000 {
            let x = f64::from_bits(rng.next_u64());
            if !x.is_finite() {
                continue;
            }
            n += 1;
            for decimals in [0, 1, 2, 3, 5, 8, 12] {
                check(x, decimals);
            }
        }
    }

    #[test]
    fn sweep_fixed_near_ties() {
        // Decimal ties `(k + 1/2) / 10^d` are (almost) never exact in binary: the
        // double and its neighbours fall on either side, and must round the way
        // their exact binary values say.
        let mut rng = Rng(0x5EED_CAFE_F00D_0004);
        for _ in 0..20_000 {
            let decimals = rng.below(13) as u32;
            let bits = rng.below(52) + 1;
            let k = rng.below(1 << bits) as f64;
            let x = (k + 0.5) / POW10[decimals as usize];
            if x == 0.0 {
                continue;
            }
            for step in -3..=3 {
                let y = ulps(x, step);
                check(y, decimals);
                check(-y, decimals);
            }
        }
    }

    #[test]
    fn sweep_fixed_exact_binary_ties() {
        // Exact ties: odd multiples of 2^-m. With decimals >= m these are exact
        // and no rounding happens; with fewer, the last kept digit is 5 when the
        // value is a tie of the decimal grid, and must go to even.
        for m in 1..=24 {
            let scale = (1u64 << m) as f64;
            for j in (1..2_000u64).step_by(2) {
                let x = j as f64 / scale;
                for decimals in 0..=12 {
                    check(x, decimals);
                    check(-x, decimals);
                }
            }
        }
        // Exact ties at ulp(p) == 1: `x * 10^d = k + 1/2` exactly with
        // `2^52 <= k < 2^53`, so the product `p` itself is rounded to even and the
        // FMA error is exactly ±1/2 (`round_half_even_exact` relies on the
        // multiplication having broken the tie to even). Such `x` are odd multiples of 2^-(d+1)
        // (possible for d >= 1); `x` and its neighbours must match `format!`.
        let mut rng = Rng(0x5EED_CAFE_F00D_0008);
        for decimals in 1..=12u32 {
            let s = POW10[decimals as usize];
            let low = (1u64 << 53) / 5u64.pow(decimals) + 1;
            let mut exact_ties = 0;
            for _ in 0..2_000 {
                let m = (low + rng.below(low)) | 1;
                let x = m as f64 / (1u64 << (decimals + 1)) as f64;
                assert_eq!(m as f64, x * (1u64 << (decimals + 1)) as f64);
                let p = x * s;
                if (FAST_PATH_LIMIT / 2.0..FAST_PATH_LIMIT).contains(&p)
                    && x.mul_add(s, -p).abs() == 0.5
                {
                    exact_ties += 1;
                }
                for step in -2..=2 {
                    check(ulps(x, step), decimals);
                    check(-ulps(x, step), decimals);
                }
            }
            assert!(exact_ties > 1_000, "decimals {decimals}: {exact_ties}");
        }
    }

    #[test]
    fn fixed_around_fast_path_limit() {
        for decimals in 0..=12 {
            let s = POW10[decimals as usize];
            for target in [
                FAST_PATH_LIMIT - 2.0,
                FAST_PATH_LIMIT - 1.0,
                FAST_PATH_LIMIT,
                FAST_PATH_LIMIT + 2.0,
                FAST_PATH_LIMIT / 2.0,
                FAST_PATH_LIMIT / 2.0 - 0.5,
            ] {
                let x = target / s;
                for step in -8..=8 {
                    let y = ulps(x, step);
                    check(y, decimals);
                    check(-y, decimals);
                }
            }
        }
    }

    #[test]
    fn sweep_fixed_beyond_twelve_decimals_is_exact() {
        let mut rng = Rng(0x5EED_CAFE_F00D_0005);
        for _ in 0..2_000 {
            let x = rng.sign() * rng.unit() * 10f64.powi(rng.below(10) as i32 - 5);
            for decimals in [13, 17, 20, 30, 60] {
                check(x, decimals);
            }
        }
        assert_eq!(fixed(-1e-20, 15), "0");
    }

    #[test]
    fn sweep_fixed_never_negative_zero_nor_exponent() {
        let mut rng = Rng(0x5EED_CAFE_F00D_0006);
        for _ in 0..20_000 {
            let x = -rng.unit() * 10f64.powi(-(rng.below(15) as i32));
            for decimals in 0..=12 {
                let s = fixed(x, decimals);
                assert_ne!(s, "-0");
                assert!(!s.starts_with("-0") || s.starts_with("-0."), "{s}");
                assert!(!s.contains(['e', 'E']), "{s}");
                assert!(!s.ends_with('.'), "{s}");
                assert!(!(s.contains('.') && s.ends_with('0')), "{s}");
            }
        }
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "non-finite")]
    fn fixed_rejects_nan_in_debug() {
        fixed(f64::NAN, 2);
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "non-finite")]
    fn json_rejects_infinity_in_debug() {
        json(f64::INFINITY);
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn non_finite_fallbacks_in_release() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(fixed(x, 3), "0");
            assert_eq!(json(x), "null");
        }
    }

    #[test]
    fn json_hand_picked() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "0.0"),
            (1.0, "1.0"),
            (-1.0, "-1.0"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.3333333333333333"),
            (1e16, "1e+16"),
            (1e-7, "1e-7"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (-5e-324, "-5e-324"),
        ];
        for &(x, want) in cases {
            assert_eq!(json(x), want, "x = {x:e}");
        }
    }

    #[track_caller]
    fn check_json(x: f64) {
        let s = json(x);
        let back: f64 = s.parse().unwrap();
        if x == 0.0 {
            assert_eq!(s, "0.0");
        } else {
            assert_eq!(back.to_bits(), x.to_bits(), "{x:e} -> {s}");
        }
        let value: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert!(value.is_number(), "{s}");
    }

    #[test]
    fn sweep_json_round_trips() {
        let mut rng = Rng(0x5EED_CAFE_F00D_0007);
        for _ in 0..100_000 {
            let mantissa = 1.0 + 9.0 * rng.unit();
            let exponent = rng.below(41) as i32 - 20;
            check_json(rng.sign() * mantissa * 10f64.powi(exponent));
            let bits = f64::from_bits(rng.next_u64());
            if bits.is_finite() {
                check_json(bits);
            }
        }
    }

    #[test]
    fn json_array_parses() {
        let mut out = b"[".to_vec();
        let values = [-0.0, 1.0, -2.5, 1e300, 1e-300, 0.1 + 0.2];
        for (i, &x) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_json_f64(&mut out, x);
        }
        out.push(b']');
        let parsed: Vec<f64> = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed.len(), values.len());
        assert_eq!(
            std::str::from_utf8(&out).unwrap().matches("-0.0").count(),
            0
        );
    }

    #[test]
    fn a_list_is_each_number_as_written_alone_between_commas() {
        let values = [
            -0.0,
            1.0,
            -2.5,
            1e300,
            5e-324,
            0.1 + 0.2,
            292.05819058669744,
            0.0,
        ];
        // Every length, so that the pairs and the odd one out at the end are all covered.
        for n in 0..=values.len() {
            let mut alone = Vec::new();
            for (i, &x) in values[..n].iter().enumerate() {
                if i > 0 {
                    alone.push(b',');
                }
                write_json_f64(&mut alone, x);
            }
            let mut listed = b"prefix".to_vec();
            write_json_f64s(&mut listed, &values[..n]);
            assert_eq!(
                listed[b"prefix".len()..],
                alone[..],
                "{n} values: {}",
                String::from_utf8_lossy(&listed)
            );
        }
    }
}
