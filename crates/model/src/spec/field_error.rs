//! A semantic error in one motion, naming its field ([`FieldError`]).

use curvebake_motion::MotionError;

/// A semantic error in one motion: the field path (e.g. `motion.Spring.damping`) and what is
/// wrong with it, worded to follow the path (`must be >= 0, got -3`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{field} {message}")]
pub struct FieldError {
    /// Dotted path of the field.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl FieldError {
    pub(super) fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }

    /// A motion error as a field error under `prefix` (`motion.Spring`), in the motion
    /// error's own words.
    pub(super) fn from_motion(prefix: &str, error: MotionError) -> Self {
        let error = error.within(prefix);
        Self::new(error.path().unwrap_or(prefix), error.message())
    }
}
