//! Cubic Hermite keys placed against the closed form, with a proven bound: what a Lottie
//! keyframe track (cubic Bézier segments with handles) plays exactly.
//!
//! # The bound
//!
//! On a segment `[a, b]` (`h = b - a`) over which `x` is four times continuously
//! differentiable, the cubic Hermite interpolant `H` of `x(a), x'(a), x(b), x'(b)` satisfies
//!
//! ```text
//! x(t) - H(t) = x⁗(ξ)/4! · (t - a)²(t - b)²   for some ξ in (a, b),
//! ```
//!
//! and `(t - a)²(t - b)² <= h⁴/16`, so `|x(t) - H(t)| <= h⁴/384 · max|x⁗|` on the segment,
//! with `max|x⁗|` from [`Motion::derivative_range`] (exact extrema of the closed forms).
//!
//! The a priori bound is tight only where `x⁗` is constant; where it is not (a spring's
//! start), the error itself is bounded instead: `e = x - H` has `e⁗ = x⁗` (`H` is a cubic),
//! so on each of [`SUBDIVISIONS`] equal parts `[tᵢ, tᵢ₊₁]` (`g = h/N`) of the segment, `e`
//! is within `g⁴/384 · max|x⁗|` of the Hermite cubic of its own values and slopes there,
//! which is at most `max(|eᵢ|, |eᵢ₊₁|) + 4/27 · g · (|e'ᵢ| + |e'ᵢ₊₁|)` (the value basis
//! functions are `>= 0` and sum to 1; the slope ones are at most `4/27` in size). Both are
//! proven; a segment keeps the smaller.
//!
//! A velocity off by `e` at one end moves the cubic by at most `4/27 · h · |e|` (the largest
//! value of the Hermite basis `s(1-s)²`). Velocities are taken one-sidedly at joins: at `δ`
//! inside the segment ([`INSIDE`] of the segment's length), which is off by at most
//! `δ · max|x''|`; that term is part of each segment's bound.
//!
//! # Keys
//!
//! Keys go at `0`, at every join (`kinks`: hand-offs, an inertia's bound hit, a track's end,
//! each gravity impact, where the velocity jumps: the key's `v_in` is the velocity just
//! before, from the segment on its left, and `v_out` the one just after), at every zero of
//! the velocity (so that the value changes on every segment and a Lottie handle,
//! `v·Δt / (3·Δs)`, is finite), and at `D`; between them, each segment is the longest whose
//! bound is within the tolerance (a bracket on its length). A join where the motion is
//! continuous is one key at its value there (the step from the value on its left, at most
//! [`JOIN_SHARE`] of the tolerance, is part of the bound of the segment ending there); a
//! join where it steps (a track onto its rest value) is two keys at that time.
//!
//! A bounce's last impact listed ([`Kink::band`]: every later bounce rises at most `h`) starts
//! a hold: from there to the next join or `D` the motion stays within `h` of the floor, and
//! a cubic with zero slopes between two values in that band stays between them, so the
//! hold's bound is `h` (the infinitely many impacts after it get no key).
//!
//! A segment where the motion does not move at all (velocity 0 throughout) is a hold too.

use curvebake_model::spec::Kink;
use curvebake_motion::Motion;

/// Where one-sided velocities are taken: this share of the segment inside it.
pub const INSIDE: f64 = 1e-9;

/// Share of the tolerance kept for floating-point arithmetic (the player's and ours).
pub const FLOAT_SHARE: f64 = 0.01;

/// Share of the tolerance a continuous join's key may be off the value on its left.
pub const JOIN_SHARE: f64 = 0.01;

/// Parts of a segment on which its error is bounded ([`segment_bound`]).
pub const SUBDIVISIONS: usize = 8;

/// Most bisection steps locating one velocity zero, or one segment's length.
const STEPS: u32 = 60;

/// Most keys of a track, and most velocity zeros looked for in a piece: past them, the rest
/// of a piece is one segment, its bound whatever it is (only a motion far faster than its
/// frames gets there: a spring whose damping over mass is 10¹⁵ /s, whose every segment is
/// femtoseconds long, or one that swings a million times a second).
pub const MAX_KEYS: usize = 10_000;

/// Deepest splitting of an interval while looking for velocity zeros.
const MAX_DEPTH: u32 = 40;

/// One key: its time, value, and the velocities of the segments into it and out of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key {
    /// Seconds.
    pub t: f64,
    /// `x(t)`.
    pub x: f64,
    /// Velocity of the segment ending here (its left side), units per second.
    pub v_in: f64,
    /// Velocity of the segment starting here (its right side).
    pub v_out: f64,
}

/// Keys of a track and the bound they keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Keys {
    /// In time order, the first at 0 and the last at `D`.
    pub keys: Vec<Key>,
    /// Proven largest distance of the played curve from the motion at any instant in
    /// `[0, D)`, in the motion's unit (before the player's arithmetic); at `D` the keys
    /// hold the table's last value ([`end_on`]).
    pub bound: f64,
}

/// Ends `keys` on `last`, the value the table holds from `D` on (a motion that settles steps
/// onto its rest value there, within its rest thresholds of `x(D)`): if the last key, at
/// `x(D)`, is elsewhere, a second key at `D` holds `last`, as at a join where the motion
/// steps. So the played curve ends where the JSON, CSS and JS do.
pub fn end_on(keys: &mut Keys, last: f64) {
    let end = *keys.keys.last().expect("a key at D");
    if end.x != last {
        keys.keys.push(Key {
            t: end.t,
            x: last,
            v_in: 0.0,
            v_out: 0.0,
        });
    }
}

/// The keys of `motion` over `[0, duration]` within `tolerance`, with a key at each of
/// `kinks` (inside `(0, duration)`, ascending).
pub fn keys(motion: &dyn Motion, duration: f64, kinks: &[Kink], tolerance: f64) -> Keys {
    let room = tolerance * (1.0 - FLOAT_SHARE - JOIN_SHARE);
    // Pieces between joins, each with its band if it is a hold.
    let mut pieces: Vec<(f64, f64, Option<f64>)> = Vec::new();
    let mut start = (0.0, None);
    for kink in (kinks.iter())
        .filter(|k| k.t > 0.0 && k.t < duration)
        .chain([&Kink {
            t: duration,
            band: None,
        }])
    {
        if kink.t > start.0 {
            pieces.push((start.0, kink.t, start.1));
            start = (kink.t, kink.band);
        }
    }
    let mut keys = vec![key(motion, 0.0, 0.0, 0.0)];
    let mut bound: f64 = 0.0;
    for (piece_start, end, band) in pieces {
        let mut breaks = Vec::new();
        if band.is_none() {
            velocity_zeros(motion, piece_start, end, 0, &mut breaks);
        }
        breaks.push(end);
        let mut a = piece_start;
        for stop in breaks {
            while a < stop {
                let (mut b, mut segment) = match band {
                    Some(height) => (stop, height),
                    // The rest of the piece, past its velocity zeros, is one segment.
                    None if keys.len() >= MAX_KEYS => (end, segment_bound(motion, a, end)),
                    None => longest(motion, a, stop, room),
                };
                if b <= a {
                    // No length is short enough (a bound that is not finite): the piece is
                    // one segment, and its bound says so.
                    (b, segment) = (stop, segment_bound(motion, a, stop));
                }
                let hold = band.is_some();
                let last = keys.last_mut().expect("a key at 0");
                last.v_out = if hold {
                    0.0
                } else {
                    one_sided(motion, a, b, true)
                };
                let v_in = if hold {
                    0.0
                } else {
                    one_sided(motion, a, b, false)
                };
                let mut next = key(motion, b, v_in, 0.0);
                if b == end && b < duration {
                    // A join: the value there from the left; one key if the motion is
                    // continuous, else a second key at that time starts the next piece.
                    let step = next.x - left_value(motion, piece_start, b);
                    if step.abs() <= JOIN_SHARE * tolerance {
                        segment += step.abs();
                        keys.push(next);
                    } else {
                        next.x -= step;
                        keys.push(next);
                        keys.push(key(motion, b, 0.0, 0.0));
                    }
                } else {
                    keys.push(next);
                }
                bound = bound.max(segment);
                a = b;
            }
        }
    }
    let last = keys.last_mut().expect("a key at D");
    last.v_out = last.v_in;
    Keys { keys, bound }
}

/// `x(b⁻)`, the value at `b` from the left of the piece `[a, b]`: `x(b - δ) + x'(b - δ)·δ`
/// (`δ` = [`INSIDE`]·(b - a), off by at most `δ²/2 · max|x''|`, far below the float share).
fn left_value(motion: &dyn Motion, a: f64, b: f64) -> f64 {
    let delta = INSIDE * (b - a);
    let (x, v) = motion.state(b - delta);
    x + v * delta
}

/// A key at `t` with these velocities.
fn key(motion: &dyn Motion, t: f64, v_in: f64, v_out: f64) -> Key {
    Key {
        t,
        x: motion.position(t),
        v_in,
        v_out,
    }
}

/// The velocity of segment `[a, b]` at its start (`start`) or end, taken [`INSIDE`] of it
/// inside, so that a velocity jump at either end is on the right side.
fn one_sided(motion: &dyn Motion, a: f64, b: f64, start: bool) -> f64 {
    let delta = INSIDE * (b - a);
    motion.velocity(if start { a + delta } else { b - delta })
}

/// The bound of the Hermite segment `[a, b]` (module docs): the smaller of `h⁴/384 ·
/// max|x⁗|` and the bound of its error on [`SUBDIVISIONS`] parts, plus `2 · 4/27 · h · δ ·
/// max|x''|` (the one-sided velocities' share, `δ` = [`INSIDE`]·h).
pub fn segment_bound(motion: &dyn Motion, a: f64, b: f64) -> f64 {
    let h = b - a;
    let (lo4, hi4) = motion.derivative_range(4, a, b);
    let (lo2, hi2) = motion.derivative_range(2, a, b);
    let m4 = lo4.abs().max(hi4.abs());
    let m2 = lo2.abs().max(hi2.abs());
    let slopes = INSIDE * h * m2;
    // The cubic through x(a) and x(b⁻), the value at b from the left.
    let ends = (
        key(motion, a, 0.0, one_sided(motion, a, b, true)),
        Key {
            x: left_value(motion, a, b),
            ..key(motion, b, one_sided(motion, a, b, false), 0.0)
        },
    );
    // e and e' at the parts' ends: 0 and at most the slopes' share at the segment's ends.
    let error = |i: usize| match i {
        0 => (0.0, slopes),
        i if i == SUBDIVISIONS => (0.0, slopes),
        i => {
            let t = a + h * i as f64 / SUBDIVISIONS as f64;
            let (x, v) = motion.state(t);
            let (hx, hv) = hermite_state(&ends.0, &ends.1, t);
            ((x - hx).abs(), (v - hv).abs())
        }
    };
    let g = h / SUBDIVISIONS as f64;
    let mut parts: f64 = 0.0;
    let mut left = error(0);
    for i in 1..=SUBDIVISIONS {
        let right = error(i);
        parts = parts.max(left.0.max(right.0) + 4.0 / 27.0 * g * (left.1 + right.1));
        left = right;
    }
    let parts = parts + g.powi(4) / 384.0 * m4;
    let whole = h.powi(4) / 384.0 * m4;
    whole.min(parts) + 2.0 * 4.0 / 27.0 * h * slopes
}

/// The furthest `b` in `(a, end]` whose segment's bound is within `room`, and that bound;
/// `(a, ∞)` if no length tried is (down to 2⁻⁶⁰ of the piece: a bound that is not finite, or
/// a motion faster than the arithmetic resolves), which the caller takes as one segment to
/// the piece's end (a shortest segment at a time, each 2⁻⁶⁰ of what is left, would never
/// get there).
fn longest(motion: &dyn Motion, a: f64, end: f64, room: f64) -> (f64, f64) {
    let whole = segment_bound(motion, a, end);
    if whole <= room {
        return (end, whole);
    }
    let (mut lo, mut hi) = (0.0, end - a);
    for _ in 0..STEPS {
        let mid = 0.5 * (lo + hi);
        if segment_bound(motion, a, a + mid) <= room {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if !(lo > 0.0) {
        return (a, f64::INFINITY);
    }
    (a + lo, segment_bound(motion, a, a + lo))
}

/// Appends the zeros of `x'` strictly inside `(a, b)`, in order, where it changes sign: on an
/// interval where `x''` does not change sign, `x'` is monotone and has at most one, found by
/// bisection; elsewhere the interval is halved (to [`MAX_DEPTH`]; a zero where `x'` only
/// touches 0 needs no key: the value still changes across it). It stops at [`MAX_KEYS`] zeros.
fn velocity_zeros(motion: &dyn Motion, a: f64, b: f64, depth: u32, out: &mut Vec<f64>) {
    if out.len() >= MAX_KEYS {
        return;
    }
    let (lo2, hi2) = motion.derivative_range(2, a, b);
    // x'' >= 0 or <= 0 throughout (a motion coming to rest on a floor: 0 after its end).
    let monotone = lo2 >= 0.0 || hi2 <= 0.0;
    if monotone || depth >= MAX_DEPTH {
        let (va, vb) = (
            one_sided(motion, a, b, true),
            one_sided(motion, a, b, false),
        );
        if (va < 0.0) != (vb < 0.0) && va != 0.0 && vb != 0.0 {
            let (mut l, mut h) = (a, b);
            for _ in 0..STEPS {
                let m = 0.5 * (l + h);
                if (motion.velocity(m) < 0.0) == (va < 0.0) {
                    l = m;
                } else {
                    h = m;
                }
            }
            let t = 0.5 * (l + h);
            if t > a && t < b {
                out.push(t);
            }
        }
        return;
    }
    let mid = 0.5 * (a + b);
    velocity_zeros(motion, a, mid, depth + 1, out);
    velocity_zeros(motion, mid, b, depth + 1, out);
}

/// The Hermite cubic of a segment at `t` in `[k0.t, k1.t]`.
pub fn hermite(k0: &Key, k1: &Key, t: f64) -> f64 {
    hermite_state(k0, k1, t).0
}

/// The Hermite cubic of a segment and its slope at `t` in `[k0.t, k1.t]`.
fn hermite_state(k0: &Key, k1: &Key, t: f64) -> (f64, f64) {
    let h = k1.t - k0.t;
    if h <= 0.0 {
        return (k1.x, 0.0);
    }
    let s = (t - k0.t) / h;
    let (s2, s3) = (s * s, s * s * s);
    let x = (2.0 * s3 - 3.0 * s2 + 1.0) * k0.x
        + (s3 - 2.0 * s2 + s) * h * k0.v_out
        + (-2.0 * s3 + 3.0 * s2) * k1.x
        + (s3 - s2) * h * k1.v_in;
    let v = (6.0 * s2 - 6.0 * s) * (k0.x - k1.x) / h
        + (3.0 * s2 - 4.0 * s + 1.0) * k0.v_out
        + (3.0 * s2 - 2.0 * s) * k1.v_in;
    (x, v)
}

/// What the keys play at `t`: the segment's cubic (after the last key, its value).
pub fn played(keys: &[Key], t: f64) -> f64 {
    let k = keys.partition_point(|key| key.t <= t);
    if k == 0 {
        return keys[0].x;
    }
    if k == keys.len() {
        return keys[k - 1].x;
    }
    hermite(&keys[k - 1], &keys[k], t)
}
