//! The explosion ring: two radii that expand fast and settle, each a solved decay.

use super::decay::{Decay, SolvedDecay};
use super::error::{MotionError, Result};
use super::Motion;

/// End conditions of one radius: it starts at `from` and reaches `to` with `end_velocity`
/// at the ring's duration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RadiusEnd {
    /// Start radius.
    pub from: f64,
    /// End radius.
    pub to: f64,
    /// Radial velocity at the end.
    pub end_velocity: f64,
}

/// Relative slack, in units of the ring's size, before a negative band counts as inside out:
/// rounding of the two closed forms, not geometry.
const INSIDE_OUT_SLACK: f64 = 1e-12;

/// Inner and outer radius of a ring over a shared duration T, each a decay solved from its
/// [`RadiusEnd`] (see [`Decay::solve`]).
///
/// The band width w(t) = outer(t) - inner(t) has w'(t) = v_o·e^(-λ_o t) - v_i·e^(-λ_i t), a
/// difference of two exponentials with at most one zero; so the narrowest band on [0, T] is
/// at 0, at T or at that one critical time, and the check that the ring never turns inside
/// out is exact, not sampled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExplosionRing {
    inner: SolvedDecay,
    outer: SolvedDecay,
    duration: f64,
}

impl ExplosionRing {
    /// Solves both radii; errors name `inner.*` or `outer.*`, or the time at which the inner
    /// radius would exceed the outer one.
    pub fn new(inner: RadiusEnd, outer: RadiusEnd, duration: f64) -> Result<Self> {
        let solve = |end: RadiusEnd, side: &str| {
            Decay::solve(end.from, end.to, end.end_velocity, duration).map_err(|e| match e {
                MotionError::Unsolvable { ref path, .. } if path == "duration" => e,
                e => e.within(side),
            })
        };
        let ring = Self {
            inner: solve(inner, "inner")?,
            outer: solve(outer, "outer")?,
            duration,
        };
        if let Some(time) = ring.first_inside_out() {
            return Err(MotionError::RingInsideOut {
                time,
                inner: ring.inner.position(time),
                outer: ring.outer.position(time),
            });
        }
        Ok(ring)
    }

    /// The inner radius.
    pub fn inner(&self) -> &SolvedDecay {
        &self.inner
    }
    /// The outer radius.
    pub fn outer(&self) -> &SolvedDecay {
        &self.outer
    }
    /// The shared duration T.
    pub fn duration(&self) -> f64 {
        self.duration
    }

    fn width(&self, t: f64) -> f64 {
        self.outer.position(t) - self.inner.position(t)
    }

    /// The first time at which inner > outer, or `None`.
    fn first_inside_out(&self) -> Option<f64> {
        let (i, o) = (self.inner.decay(), self.outer.decay());
        let size = [i.from(), o.from(), self.inner.to(), self.outer.to()]
            .iter()
            .fold(1.0f64, |m, x| m.max(x.abs()));
        let slack = INSIDE_OUT_SLACK * size;
        // w'(t) = 0 where v_o·e^(-λ_o t) = v_i·e^(-λ_i t): t* = ln(v_i/v_o)/(λ_i - λ_o).
        let critical =
            libm::log(i.initial_velocity() / o.initial_velocity()) / (i.lambda() - o.lambda());
        let mut candidates = vec![0.0, self.duration];
        if critical > 0.0 && critical < self.duration {
            candidates.push(critical);
        }
        let narrowest = candidates
            .into_iter()
            .min_by(|a, b| self.width(*a).total_cmp(&self.width(*b)))?;
        if self.width(narrowest) >= -slack {
            return None;
        }
        // w is positive before its first negative value: bisect [0, narrowest] for the crossing.
        if self.width(0.0) < -slack {
            return Some(0.0);
        }
        let (mut lo, mut hi) = (0.0, narrowest);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if self.width(mid) < -slack {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(from: f64, to: f64, end_velocity: f64) -> RadiusEnd {
        RadiusEnd {
            from,
            to,
            end_velocity,
        }
    }

    #[test]
    fn inside_out_ring_names_the_time() {
        // The inner radius starts inside but ends outside.
        let err =
            ExplosionRing::new(end(0.0, 200.0, 10.0), end(10.0, 150.0, 10.0), 1.0).unwrap_err();
        let MotionError::RingInsideOut { time, inner, outer } = err else {
            panic!("{err}")
        };
        assert!(time > 0.0 && time < 1.0);
        assert!((inner - outer).abs() < 1e-6);
    }

    #[test]
    fn radius_errors_name_their_side() {
        let err =
            ExplosionRing::new(end(0.0, 200.0, 10.0), end(10.0, 10.0, 10.0), 1.0).unwrap_err();
        assert!(
            err.to_string().starts_with("outer.to has no solution"),
            "{err}"
        );
    }
}
