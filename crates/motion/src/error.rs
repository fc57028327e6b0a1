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
            Self::NonPositiveDuration => "the duration must be finite and > 0",
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
/// `inner.end_velocity`) and says what is wrong. Its words are [`MotionError::message`], the
/// one wording of each error: the bake's field errors use it under the motion's path.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{} {}", self.path().unwrap_or("motion"), self.message())]
pub enum MotionError {
    /// A parameter is out of its domain.
    Invalid {
        /// Dotted path of the parameter.
        path: String,
        /// What the parameter must be, e.g. `> 0`.
        requirement: &'static str,
        /// The value given.
        value: f64,
    },
    /// A solver has no real solution for these parameters.
    Unsolvable {
        /// Dotted path of the parameter group that was solved.
        path: String,
        /// Why.
        reason: Unsolvable,
    },
    /// Gravity never reaches the requested position.
    NeverReaches {
        /// Dotted path of the `to` parameter.
        path: String,
        /// The position that is never reached.
        to: f64,
        /// Where the motion starts.
        from: f64,
    },
    /// A bounce needs gravity pointing at the floor when the motion reaches it.
    BounceAwayFromFloor {
        /// Dotted path of the `restitution` parameter.
        path: String,
        /// The acceleration given.
        acceleration: f64,
    },
    /// The inner radius of an explosion ring exceeds the outer one.
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
    /// The dotted path of the parameter at fault (none for a ring turning inside out, or a
    /// solve whose result does not fit a float, which are the whole motion's fault).
    pub fn path(&self) -> Option<&str> {
        match self {
            Self::Invalid { path, .. }
            | Self::Unsolvable { path, .. }
            | Self::NeverReaches { path, .. }
            | Self::BounceAwayFromFloor { path, .. } => {
                Some(path.as_str()).filter(|p| !p.is_empty())
            }
            Self::RingInsideOut { .. } => None,
        }
    }

    /// What is wrong, worded to follow the parameter's path (`motion.Spring.damping` + `must
    /// be >= 0, got -3`).
    pub fn message(&self) -> String {
        match self {
            Self::Invalid {
                requirement, value, ..
            } => format!("must be {requirement}, got {}", number(*value)),
            Self::Unsolvable { reason, .. } => format!("has no solution: {reason}"),
            // A motion that starts at `to` and leaves it reaches it at t = 0 only.
            Self::NeverReaches { to, from, .. } if to == from => format!(
                "= {} is where the motion starts, and it moves away, never back: give it a \
                 velocity or an acceleration towards `to` (a motion that should stay there is \
                 no gravity)",
                number(*to)
            ),
            Self::NeverReaches { to, .. } => {
                format!("= {} is never reached by the motion", number(*to))
            }
            Self::BounceAwayFromFloor { acceleration, .. } => format!(
                "needs acceleration towards the floor at `to` to bounce, got acceleration {}",
                number(*acceleration)
            ),
            Self::RingInsideOut { time, inner, outer } => format!(
                "is invalid: the ring turns inside out at t = {time} s: inner radius {inner} exceeds outer radius {outer}"
            ),
        }
    }

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

/// A number for a message: as written (`-3`, `0.5`) unless that is long, then in exponent
/// form (`1e-300`, not three hundred digits).
pub fn number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() > 24 {
        format!("{x:e}")
    } else {
        plain
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
