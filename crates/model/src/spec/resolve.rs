//! Resolving a motion's file into its model: the frame rate and durations checked, the
//! `motion` (or the `tracks`) resolved kind by kind into a [`Model`] and how its bake ends.

use super::{sequence, spring_form, tracks, Ending, FieldError, Model, Overrides};
use crate::source::schema::{MotionFile, MotionKind, RadiusFile};
use curvebake_motion::{
    number, Bounce, Decay, ExplosionRing, Friction, Gravity, Inertia, InertiaParams, MotionError,
    RadiusEnd, Spring, DEFAULT_BOUNCE_DAMPING, DEFAULT_BOUNCE_STIFFNESS,
};

/// Default frames per second.
pub const DEFAULT_FPS: f64 = 60.0;

/// Highest accepted frame rate.
pub const MAX_FPS: f64 = 1000.0;

/// Lowest accepted frame rate: a frame a second. (Below it a tiny rate times a huge
/// duration made a bake of few frames whose numbers ran to hundreds of digits.)
pub const MIN_FPS: f64 = 1.0;

/// Longest accepted `duration`, in seconds (a motion's, a step's or a track's): at
/// [`MIN_FPS`] no longer bake fits in `bake::MAX_FRAMES` frames anyway.
pub const MAX_DURATION_SECONDS: f64 = 1e6;

/// Checks a frame rate: within [[`MIN_FPS`], [`MAX_FPS`]].
pub fn check_fps(fps: f64) -> Result<f64, String> {
    if (MIN_FPS..=MAX_FPS).contains(&fps) {
        Ok(fps)
    } else {
        Err(format!(
            "must be in [{MIN_FPS}, {MAX_FPS}] frames per second, got {}",
            number(fps)
        ))
    }
}

/// An optional `duration`: > 0 and at most [`MAX_DURATION_SECONDS`].
pub(super) fn optional_duration(
    field: &str,
    value: Option<f64>,
) -> Result<Option<f64>, FieldError> {
    match optional_positive(field, value)? {
        Some(d) if d > MAX_DURATION_SECONDS => Err(FieldError::new(
            field,
            format!(
                "must be at most {} s, got {}",
                number(MAX_DURATION_SECONDS),
                number(d)
            ),
        )),
        d => Ok(d),
    }
}

pub(super) fn optional_positive(
    field: &str,
    value: Option<f64>,
) -> Result<Option<f64>, FieldError> {
    match value {
        Some(v) if !(v.is_finite() && v > 0.0) => Err(FieldError::new(
            field,
            format!("must be > 0, got {}", number(v)),
        )),
        v => Ok(v),
    }
}

/// The frame rate: `--fps` if given, else the file's, else [`DEFAULT_FPS`]; checked by
/// [`check_fps`], the error naming where it came from.
pub(super) fn fps(file: &MotionFile, overrides: Overrides) -> Result<f64, FieldError> {
    let fps = match overrides.fps {
        Some(fps) => fps,
        None => file.fps.unwrap_or(DEFAULT_FPS),
    };
    check_fps(fps).map_err(|m| {
        let field = if overrides.fps.is_some() {
            "--fps"
        } else {
            "fps"
        };
        FieldError::new(field, m)
    })
}

/// The model and how its bake ends, from the file's `motion` or its `tracks` (one of the two;
/// with `tracks`, neither the motion's property, unit nor rest thresholds, as each track has
/// its own).
pub(super) fn model_and_ending(
    file: &MotionFile,
    duration: Option<f64>,
    rest: (f64, f64),
) -> Result<(Model, Ending), FieldError> {
    match (&file.motion, &file.tracks) {
        (Some(MotionKind::ExplosionRing { .. }), None) if file.property.is_some() => {
            Err(FieldError::new(
                "property",
                "must not be given with ExplosionRing: a ring animates its two radii, the \
                 custom properties --<name>-inner and --<name>-outer",
            ))
        }
        (Some(motion), None) => resolve(motion, duration, rest),
        (None, Some(tracks)) => {
            for (field, given) in [
                ("property", file.property.is_some()),
                ("unit", file.unit.is_some()),
                ("rest_delta", file.rest_delta.is_some()),
                ("rest_speed", file.rest_speed.is_some()),
            ] {
                if given {
                    return Err(FieldError::new(
                        field,
                        "must not be given with `tracks`: each track has its own",
                    ));
                }
            }
            tracks::resolve_tracks(tracks, duration)
        }
        (Some(_), Some(_)) => Err(FieldError::new(
            "tracks",
            "replaces `property` and `motion`: give one motion or tracks, not both",
        )),
        (None, None) => Err(FieldError::new(
            "motion",
            "is required (or `tracks`, several properties on one timeline)",
        )),
    }
}

/// Resolves the motion variant into a model and how its bake ends.
pub(super) fn resolve(
    kind: &MotionKind,
    duration: Option<f64>,
    rest: (f64, f64),
) -> Result<(Model, Ending), FieldError> {
    match *kind {
        MotionKind::Spring {
            from, to, velocity, ..
        } => {
            let from = required("Spring", "from", from)?;
            let spring = resolve_spring(kind, from, to, velocity.unwrap_or(0.0))?;
            Ok((Model::Spring(spring), rests_or(duration)))
        }
        MotionKind::Friction {
            from,
            velocity,
            friction,
            to,
        } => {
            let from = required("Friction", "from", from)?;
            let velocity = required("Friction", "velocity", velocity)?;
            let model = resolve_friction(from, velocity, friction, to)?;
            Ok((model, rests_or(duration)))
        }
        MotionKind::Gravity {
            from,
            velocity,
            acceleration,
            to,
            restitution,
        } => {
            let from = required("Gravity", "from", from)?;
            let velocity = velocity.unwrap_or(0.0);
            resolve_gravity((from, velocity, acceleration), to, restitution, duration)
        }
        MotionKind::Decay {
            from,
            velocity,
            lambda,
            to,
            end_velocity,
        } => {
            let from = required("Decay", "from", from)?;
            let d = needs_duration("Decay", duration)?;
            resolve_decay(from, (velocity, lambda), (to, end_velocity), d)
        }
        MotionKind::Inertia {
            from,
            velocity,
            friction,
            min,
            max,
            bounce_stiffness,
            bounce_damping,
            ref snap,
        } => {
            let inertia = Inertia::new(InertiaParams {
                from: required("Inertia", "from", from)?,
                velocity: required("Inertia", "velocity", velocity)?,
                friction,
                min,
                max,
                bounce_stiffness: bounce_stiffness.unwrap_or(DEFAULT_BOUNCE_STIFFNESS),
                bounce_damping: bounce_damping.unwrap_or(DEFAULT_BOUNCE_DAMPING),
                snap: snap.clone(),
            })
            .map_err(|e| FieldError::from_motion("motion.Inertia", e))?;
            Ok((Model::Inertia(inertia), rests_or(duration)))
        }
        MotionKind::Sequence(ref steps) => sequence::resolve_steps(steps, duration, rest),
        MotionKind::ExplosionRing { inner, outer } => {
            let d = needs_duration("ExplosionRing", duration)?;
            Ok((resolve_ring(inner, outer, d)?, Ending::Arrives(d)))
        }
    }
}

/// The value of `field`, which motion `variant` requires.
fn required(variant: &str, field: &str, value: Option<f64>) -> Result<f64, FieldError> {
    value.ok_or_else(|| FieldError::new(format!("motion.{variant}.{field}"), "is required"))
}

/// A motion that comes to rest: baked until it does, or for `duration` if one is given.
fn rests_or(duration: Option<f64>) -> Ending {
    duration.map_or(Ending::Rests, Ending::Fixed)
}

/// The `duration`, which motion `variant` requires.
fn needs_duration(variant: &str, duration: Option<f64>) -> Result<f64, FieldError> {
    duration.ok_or_else(|| FieldError::new("duration", format!("is required by motion {variant}")))
}

/// A spring from `from` with `velocity` to `to`, its parameters in the one form `kind` is
/// written in.
fn resolve_spring(
    kind: &MotionKind,
    from: f64,
    to: f64,
    velocity: f64,
) -> Result<Spring, FieldError> {
    let form = spring_form::spring_form(kind)?;
    form.resolve()
        .and_then(|(m, k, c)| Spring::new(from, to, velocity, m, k, c).map_err(|e| form.blame(e)))
        .map_err(|e| FieldError::from_motion("motion.Spring", e))
}

/// A fling slowed by `friction`, or a snap that rests at `to`: one of the two.
fn resolve_friction(
    from: f64,
    velocity: f64,
    friction: Option<f64>,
    to: Option<f64>,
) -> Result<Model, FieldError> {
    let at = |e| FieldError::from_motion("motion.Friction", e);
    Ok(match (friction, to) {
        (Some(f), None) => Model::Friction { friction: Friction::new(from, velocity, f).map_err(at)?, snap_to: None },
        (None, Some(to)) => Model::Friction { friction: Friction::snap(from, to, velocity).map_err(at)?, snap_to: Some(to) },
        _ => {
            return Err(FieldError::new(
                "motion.Friction",
                "needs either friction (a fling) or to (a snap that rests at `to`), not both or neither",
            ))
        }
    })
}

/// Gravity from `(from, velocity, acceleration)`: bouncing on the floor `to` with
/// `restitution`, arriving at `to`, or falling for `duration`.
fn resolve_gravity(
    (from, velocity, acceleration): (f64, f64, f64),
    to: Option<f64>,
    restitution: Option<f64>,
    duration: Option<f64>,
) -> Result<(Model, Ending), FieldError> {
    let at = |e| FieldError::from_motion("motion.Gravity", e);
    let gravity = Gravity::new(from, velocity, acceleration).map_err(at)?;
    match (to, restitution, duration) {
        (Some(to), Some(e), _) => Ok((Model::Bounce(Bounce::new(gravity, to, e).map_err(at)?), rests_or(duration))),
        (None, Some(_), _) => Err(FieldError::new("motion.Gravity.restitution", "needs `to`, the floor to bounce on")),
        (Some(to), None, None) => {
            let arrival = gravity.time_to(to).ok_or_else(|| at(MotionError::NeverReaches { path: "to".into(), to, from }))?;
            Ok((Model::GravityTo { gravity, to, arrival }, Ending::Arrives(arrival)))
        }
        (Some(_), None, Some(_)) => Err(FieldError::new(
            "duration",
            "must not be combined with `to` in Gravity without restitution: the motion ends when it reaches `to`",
        )),
        (None, None, Some(d)) => Ok((Model::Gravity(gravity), Ending::Fixed(d))),
        (None, None, None) => Err(FieldError::new("duration", "or motion.Gravity.to is required by motion Gravity")),
    }
}

/// A decay from `from` over `d` seconds: given its `(velocity, lambda)`, or solved to arrive
/// at `to` with `end_velocity`.
fn resolve_decay(
    from: f64,
    (velocity, lambda): (Option<f64>, Option<f64>),
    (to, end_velocity): (Option<f64>, Option<f64>),
    d: f64,
) -> Result<(Model, Ending), FieldError> {
    let at = |e| FieldError::from_motion("motion.Decay", e);
    match (velocity, lambda, to, end_velocity) {
        (Some(v), Some(l), None, None) => Ok((
            Model::Decay(Decay::new(from, v, l).map_err(at)?),
            Ending::Fixed(d),
        )),
        (None, None, Some(to), Some(vt)) => {
            let solved = Decay::solve(from, to, vt, d).map_err(at)?;
            Ok((Model::SolvedDecay(solved), Ending::Arrives(d)))
        }
        _ => Err(FieldError::new(
            "motion.Decay",
            "needs either velocity and lambda, or to and end_velocity (solved over `duration`)",
        )),
    }
}

/// An explosion ring whose radii arrive at their ends after `d` seconds.
fn resolve_ring(inner: RadiusFile, outer: RadiusFile, d: f64) -> Result<Model, FieldError> {
    let end = |r: RadiusFile| RadiusEnd {
        from: r.from,
        to: r.to,
        end_velocity: r.end_velocity,
    };
    let ring = ExplosionRing::new(end(inner), end(outer), d)
        .map_err(|e| FieldError::from_motion("motion.ExplosionRing", e))?;
    Ok(Model::Ring(ring))
}
