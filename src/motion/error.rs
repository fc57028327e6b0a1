//! Errors of motion constructors and solvers, each naming the parameter at fault.

use std::fmt;

/// Why a solver found no real, finite solution. [`Unsolvable::code`] gives the reason
/// names of the reference conventions (`zero_distance`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsolvable {
    /// The duration is zero or negative.
    NonPositiveDuration,
    /// `to` equals `from` while something must still move.
    ZeroDistance,
    /// The start velocity is zero, so nothing moves towards `to`.
    ZeroVelocity,
    /// The end velocity is zero but `to` differs from `from`.
    ZeroEndVelocity,
    /// The velocity points away from `to`.
    VelocityOpposesDistance,
    /// A solution exists only beyond the range of doubles (overflow or underflow).
    OutOfRange,
}

impl Unsolvable {
    /// The reason name used by the reference data and by error messages.
    pub fn code(self) -> &'static str {
        match self {
            Self::NonPositiveDuration => "non_positive_duration",
            Self::ZeroDistance => "zero_distance",
            Self::ZeroVelocity => "zero_velocity",
            Self::ZeroEndVelocity => "zero_end_velocity",
            Self::VelocityOpposesDistance => "velocity_opposes_distance",
            Self::OutOfRange => "out_of_range",
        }
    }

    fn explain(self) -> &'static str {
        match self {
            Self::NonPositiveDuration => "the duration must be > 0",
            Self::ZeroDistance => "`to` equals `from`, so there is no distance to cover",
            Self::ZeroVelocity => "the velocity is 0, so the motion never reaches `to`",
            Self::ZeroEndVelocity => {
                "an end velocity of 0 is reached only after infinite time; give it a small non-zero value"
            }
            Self::VelocityOpposesDistance => "the velocity points away from `to`",
            Self::OutOfRange => "the solution lies outside the range of 64-bit floats",
        }
    }
}

impl fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.explain(), self.code())
    }
}

/// An invalid motion: the message names the parameter (a dotted path such as
/// `inner.end_velocity`) and says what is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MotionError {
    /// A parameter is out of its domain.
    #[error("{path} must be {requirement}, got {value}")]
    Invalid {
        /// Dotted path of the parameter.
        path: String,
        /// What the parameter must be, e.g. `> 0`.
        requirement: &'static str,
        /// The value given.
        value: f64,
    },
    /// A solver has no real solution for these parameters.
    #[error("{path}: no solution: {reason}")]
    Unsolvable {
        /// Dotted path of the parameter group that was solved.
        path: String,
        /// Why.
        reason: Unsolvable,
    },
    /// Gravity never reaches the requested position.
    #[error("{path}: the motion never reaches to = {to}")]
    NeverReaches {
        /// Dotted path of the `to` parameter.
        path: String,
        /// The position that is never reached.
        to: f64,
    },
    /// A bounce needs gravity pointing at the floor when the motion reaches it.
    #[error("{path}: a bounce needs acceleration towards the floor at `to`, got acceleration {acceleration}")]
    BounceAwayFromFloor {
        /// Dotted path of the `restitution` parameter.
        path: String,
        /// The acceleration given.
        acceleration: f64,
    },
    /// The inner radius of an explosion ring exceeds the outer one.
    #[error("the ring turns inside out at t = {time} s: inner radius {inner} exceeds outer radius {outer}")]
    RingInsideOut {
        /// The first time (seconds) at which inner > outer.
        time: f64,
        /// Inner radius at that time.
        inner: f64,
        /// Outer radius at that time.
        outer: f64,
    },
}

impl MotionError {
    /// Puts `prefix.` in front of the parameter path (`inner` + `to` -> `inner.to`).
    pub fn within(mut self, prefix: &str) -> Self {
        match &mut self {
            Self::Invalid { path, .. }
            | Self::Unsolvable { path, .. }
            | Self::NeverReaches { path, .. }
            | Self::BounceAwayFromFloor { path, .. } => {
                *path = if path.is_empty() {
                    prefix.to_owned()
                } else {
                    format!("{prefix}.{path}")
                };
            }
            Self::RingInsideOut { .. } => {}
        }
        self
    }

    pub(crate) fn unsolvable(path: &str, reason: Unsolvable) -> Self {
        Self::Unsolvable {
            path: path.to_owned(),
            reason,
        }
    }
}

/// Result of motion constructors.
pub type Result<T, E = MotionError> = std::result::Result<T, E>;

/// Checks `value` against `ok`, naming the parameter and the requirement when it fails.
/// NaN fails every check.
pub(crate) fn check(
    path: &str,
    value: f64,
    requirement: &'static str,
    ok: impl Fn(f64) -> bool,
) -> Result<f64> {
    if value.is_finite() && ok(value) {
        Ok(value)
    } else {
        Err(MotionError::Invalid {
            path: path.to_owned(),
            requirement,
            value,
        })
    }
}

/// A finite number.
pub(crate) fn finite(path: &str, value: f64) -> Result<f64> {
    check(path, value, "a finite number", |_| true)
}

/// A finite number > 0.
pub(crate) fn positive(path: &str, value: f64) -> Result<f64> {
    check(path, value, "> 0", |v| v > 0.0)
}

/// A finite number >= 0.
pub(crate) fn non_negative(path: &str, value: f64) -> Result<f64> {
    check(path, value, ">= 0", |v| v >= 0.0)
}
