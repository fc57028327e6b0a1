//! Sequences: motions that hand over position and velocity exactly.
//!
//! Step 0 starts at t = 0 from its own `from` and `velocity`. Step i > 0 starts at the
//! hand-off time T_i = T_(i-1) + L_(i-1), from the exact state (x, v) of step i - 1 at its
//! local time L_(i-1): x_i(0) = x_(i-1)(L_(i-1)) and v_i(0) = v_(i-1)(L_(i-1)), the very doubles
//! the closed form gives, so position and velocity are continuous at every hand-off. A step's
//! length L is its `duration` (an interruption), else when it arrives (gravity to `to`, a
//! solved decay) or when it provably rests (the motion's rest thresholds, as a bake decides).
//! Over the whole timeline x(t) = x_i(t - T_i) for T_i <= t < T_(i+1).

use super::{optional_duration, resolve, Ending, FieldError, Model};
use crate::source::schema::{MotionKind, StepFile};
use curvebake_motion::{Motion, Settle};

/// Most steps a sequence may have (each step's parameters are a named group `step_<i>`).
pub const MAX_STEPS: usize = 32;

/// The names of the steps' parameter groups.
pub(crate) const STEP_NAMES: [&str; MAX_STEPS] = [
    "step_0", "step_1", "step_2", "step_3", "step_4", "step_5", "step_6", "step_7", "step_8",
    "step_9", "step_10", "step_11", "step_12", "step_13", "step_14", "step_15", "step_16",
    "step_17", "step_18", "step_19", "step_20", "step_21", "step_22", "step_23", "step_24",
    "step_25", "step_26", "step_27", "step_28", "step_29", "step_30", "step_31",
];

/// One step: its motion (one value) and when it starts on the sequence's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The step's motion, started from the hand-off state.
    pub model: Model,
    /// T_i, in seconds.
    pub start: f64,
    /// L_i, when the step hands over (`None` for a last step that runs to the end).
    pub length: Option<f64>,
}

/// Motions on one timeline, each starting from the previous one's exact state.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    steps: Vec<Step>,
}

impl Sequence {
    /// The steps, in time order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The hand-off times T_1, T_2, ...
    pub fn handoffs(&self) -> Vec<f64> {
        self.steps[1..].iter().map(|s| s.start).collect()
    }

    /// The step playing at time t: the last one with T_i <= t.
    fn step_at(&self, t: f64) -> &Step {
        let k = self.steps.partition_point(|s| s.start <= t);
        &self.steps[k.saturating_sub(1)]
    }

    fn last(&self) -> &Step {
        self.steps.last().expect("a sequence has steps")
    }
}

impl Motion for Sequence {
    /// The union of the ranges of the steps `[a, b]` overlaps, each over its part.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        let first = self
            .steps
            .partition_point(|s| s.start <= a)
            .saturating_sub(1);
        let mut range = (f64::INFINITY, f64::NEG_INFINITY);
        for (k, step) in self.steps.iter().enumerate().skip(first) {
            if k > first && step.start >= b {
                break;
            }
            let end = self.steps.get(k + 1).map_or(b, |next| next.start.min(b));
            let start = a.max(step.start);
            let part = if end > start {
                single(&step.model).derivative_range(order, start - step.start, end - step.start)
            } else {
                single(&step.model).derivative_range(order, start - step.start, start - step.start)
            };
            range = curvebake_motion::union(range, part);
        }
        range
    }

    fn position(&self, t: f64) -> f64 {
        self.state(t).0
    }
    fn velocity(&self, t: f64) -> f64 {
        self.state(t).1
    }
    fn state(&self, t: f64) -> (f64, f64) {
        let step = self.step_at(t);
        single(&step.model).state(t - step.start)
    }
}

impl Settle for Sequence {
    fn rest_position(&self) -> Option<f64> {
        self.last().model.end_values().first().copied()
    }
    fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        let last = self.last();
        Some(last.start + last.model.settle_time(rest_delta, rest_speed)?)
    }
}

/// The one motion of a one-value model (every step is one: rings and sequences are refused).
fn single(model: &Model) -> &dyn Motion {
    model.single().expect("sequence steps have one value")
}

/// `motion.X.field` of a step as `motion.Sequence[i].X.field`; `duration` as
/// `motion.Sequence[i].duration`.
fn within_step(i: usize, error: FieldError) -> FieldError {
    let rest = error
        .field
        .strip_prefix("motion.")
        .map_or(error.field.clone(), str::to_owned);
    FieldError {
        field: format!("motion.Sequence[{i}].{rest}"),
        message: error.message,
    }
}

/// A later step's motion with `from` and `velocity` set to the hand-off state (x, v); an error
/// if the step gives either, or is a kind that cannot continue a motion.
fn handed_over(kind: &MotionKind, x: f64, v: f64) -> Result<MotionKind, FieldError> {
    let mut kind = kind.clone();
    let (name, from, velocity) = match &mut kind {
        MotionKind::Spring { from, velocity, .. } => ("Spring", from, velocity),
        MotionKind::Friction { from, velocity, .. } => ("Friction", from, velocity),
        MotionKind::Gravity { from, velocity, .. } => ("Gravity", from, velocity),
        MotionKind::Inertia { from, velocity, .. } => ("Inertia", from, velocity),
        MotionKind::Decay {
            from,
            velocity,
            to,
            end_velocity,
            ..
        } => {
            if to.is_some() || end_velocity.is_some() {
                return Err(FieldError::new(
                    "motion.Decay",
                    "must be given `lambda` in a step after the first: Decay(to, end_velocity) solves its own initial velocity, which would not be the velocity handed over",
                ));
            }
            ("Decay", from, velocity)
        }
        MotionKind::ExplosionRing { .. } | MotionKind::Sequence(_) => {
            return Err(not_a_step(&kind));
        }
    };
    for (field, value, what) in [
        ("from", &*from, "position"),
        ("velocity", &*velocity, "velocity"),
    ] {
        if value.is_some() {
            return Err(FieldError::new(
                format!("motion.{name}.{field}"),
                format!("must not be given in a step after the first: the step starts at the exact {what} the previous step hands over"),
            ));
        }
    }
    *from = Some(x);
    *velocity = Some(v);
    Ok(kind)
}

/// Whether a motion of this kind is the same whatever its `duration`, which only says where
/// it ends: gravity without `to` and a decay given its rate never end by themselves.
fn ends_only_by_duration(kind: &MotionKind) -> bool {
    matches!(
        kind,
        MotionKind::Gravity { to: None, .. }
            | MotionKind::Decay {
                to: None,
                end_velocity: None,
                ..
            }
    )
}

fn not_a_step(kind: &MotionKind) -> FieldError {
    let why = match kind {
        MotionKind::ExplosionRing { .. } => {
            "cannot be an ExplosionRing: a ring has two radii, a step one value"
        }
        _ => "cannot be a Sequence: write its steps in this one",
    };
    FieldError::new("motion", why)
}

/// Resolves the steps into a [`Model::Sequence`] and how its bake ends: the motion's
/// `duration` if given; else the last step's own `duration`, arrival or rest.
pub(super) fn resolve_steps(
    steps: &[StepFile],
    duration: Option<f64>,
    rest: (f64, f64),
) -> Result<(Model, Ending), FieldError> {
    if steps.is_empty() {
        return Err(FieldError::new(
            "motion.Sequence",
            "needs at least one step",
        ));
    }
    if steps.len() > MAX_STEPS {
        return Err(FieldError::new(
            "motion.Sequence",
            format!("may have at most {MAX_STEPS} steps, got {}", steps.len()),
        ));
    }
    let mut resolved: Vec<Step> = Vec::with_capacity(steps.len());
    let mut handoff: Option<(f64, f64)> = None;
    let mut start = 0.0;
    let mut ending = Ending::Rests;
    for (i, step) in steps.iter().enumerate() {
        let at = |e| within_step(i, e);
        let kind = match handoff {
            None => match step.motion {
                MotionKind::ExplosionRing { .. } | MotionKind::Sequence(_) => {
                    return Err(at(not_a_step(&step.motion)))
                }
                _ => step.motion.clone(),
            },
            Some((x, v)) => handed_over(&step.motion, x, v).map_err(at)?,
        };
        optional_duration("duration", step.duration).map_err(at)?;
        let last = i + 1 == steps.len();
        // A last step that needs a duration only to know where it ends (gravity without a
        // floor, a decay by its rate) runs to the motion's `duration` when it has none.
        let horizon = match (step.duration, duration) {
            (None, Some(d)) if last && ends_only_by_duration(&kind) => Some((d - start).max(0.0)),
            (None, None) if last && ends_only_by_duration(&kind) => {
                return Err(at(FieldError::new(
                    "motion",
                    "never ends (it never comes to rest): give the step or the whole motion a `duration`",
                )))
            }
            (own, _) => own,
        };
        let (model, step_ending) = resolve(&kind, horizon, rest).map_err(at)?;
        let length = match (step.duration, step_ending) {
            (Some(d), _) | (None, Ending::Arrives(d) | Ending::Fixed(d)) => Some(d),
            (None, Ending::Rests) => model.settle_time(rest.0, rest.1),
        };
        if last {
            ending = match (duration, step.duration, step_ending, length) {
                (Some(d), ..) => Ending::Fixed(d),
                (None, Some(d), ..) => Ending::Fixed(start + d),
                (None, None, Ending::Arrives(d), _) => Ending::Arrives(start + d),
                (None, None, _, Some(_)) => Ending::Rests,
                (None, None, _, None) => {
                    return Err(at(FieldError::new(
                        "motion",
                        "never ends (it never comes to rest): give the step or the whole motion a `duration`",
                    )))
                }
            };
        } else {
            let Some(length) = length else {
                return Err(at(FieldError::new(
                    "motion",
                    "never ends (it never comes to rest), so the next step would never start: give this step a `duration`",
                )));
            };
            let (x, v) = single(&model).state(length);
            if !(x.is_finite() && v.is_finite()) {
                return Err(at(FieldError::new(
                    "duration",
                    "makes the step hand over a position or velocity that is not finite; shorten it",
                )));
            }
            handoff = Some((x, v));
        }
        resolved.push(Step {
            model,
            start,
            length: if last { None } else { length },
        });
        start += length.unwrap_or(0.0);
    }
    Ok((Model::Sequence(Sequence { steps: resolved }), ending))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::plain_ron;

    fn sequence(text: &str) -> Result<(Sequence, Ending), FieldError> {
        let file = &plain_ron::parse(text).expect("plain RON")[0];
        let Some(MotionKind::Sequence(steps)) = &file.motion else {
            panic!("a sequence")
        };
        let (model, ending) = resolve_steps(steps, file.duration, (0.01, 0.1))?;
        let Model::Sequence(s) = model else { panic!() };
        Ok((s, ending))
    }

    #[test]
    fn position_and_velocity_are_handed_over_exactly() {
        let (s, ending) = sequence(
            r#"(name: "s", motion: Sequence([
                (motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.25),
                (motion: Spring(to: 0, stiffness: 170, damping: 26)),
            ]))"#,
        )
        .unwrap();
        assert_eq!(ending, Ending::Rests);
        let first = single(&s.steps[0].model).state(0.25);
        let second = single(&s.steps[1].model).state(0.0);
        assert_eq!(first, second, "the second step starts at the first's state");
        assert_eq!(s.handoffs(), vec![0.25]);
        assert_eq!(s.state(0.25), second);
    }

    #[test]
    fn later_steps_may_not_say_where_they_start() {
        let err = sequence(
            r#"(name: "s", motion: Sequence([
                (motion: Spring(from: 0, to: 100), duration: 0.2),
                (motion: Spring(from: 100, to: 0)),
            ]))"#,
        )
        .unwrap_err();
        assert_eq!(err.field, "motion.Sequence[1].Spring.from");
        let err = sequence(
            r#"(name: "s", motion: Sequence([
                (motion: Spring(from: 0, to: 100), duration: 0.2),
                (motion: Gravity(velocity: 3, acceleration: 10), duration: 1),
            ]))"#,
        )
        .unwrap_err();
        assert_eq!(err.field, "motion.Sequence[1].Gravity.velocity");
    }

    #[test]
    fn a_step_that_never_ends_is_an_error_unless_last_with_a_duration() {
        let never = r#"(motion: Spring(to: 5, stiffness: 100, damping: 0))"#;
        let err = sequence(&format!(
            r#"(name: "s", motion: Sequence([(motion: Spring(from: 0, to: 1, damping: 0)), {never}]))"#
        ))
        .unwrap_err();
        assert_eq!(err.field, "motion.Sequence[0].motion");
        let err = sequence(&format!(
            r#"(name: "s", motion: Sequence([(motion: Spring(from: 0, to: 1), duration: 0.1), {never}]))"#
        ))
        .unwrap_err();
        assert_eq!(err.field, "motion.Sequence[1].motion");
        let (_, ending) = sequence(&format!(
            r#"(name: "s", duration: 2, motion: Sequence([(motion: Spring(from: 0, to: 1), duration: 0.1), {never}]))"#
        ))
        .unwrap();
        assert_eq!(ending, Ending::Fixed(2.0));
    }

    /// Issue 27, item 17: a last step of gravity without a floor, or of a decay by its rate,
    /// runs to the motion's `duration` (and without one still needs its own).
    #[test]
    fn a_last_step_that_never_ends_runs_to_the_motions_duration() {
        for last in ["Gravity(acceleration: 2200)", "Decay(lambda: 4)"] {
            let (s, ending) = sequence(&format!(
                r#"(name: "s", duration: 1, motion: Sequence([(motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.09), (motion: {last})]))"#
            ))
            .unwrap();
            assert_eq!(ending, Ending::Fixed(1.0), "{last}");
            assert_eq!(
                s.state(0.09),
                single(&s.steps[0].model).state(0.09),
                "{last}"
            );
            let err = sequence(&format!(
                r#"(name: "s", motion: Sequence([(motion: Spring(from: 0, to: 100), duration: 0.09), (motion: {last})]))"#
            ))
            .unwrap_err();
            assert!(err.field.starts_with("motion.Sequence[1]"), "{last}: {err}");
        }
    }
}
