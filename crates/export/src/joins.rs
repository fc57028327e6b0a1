//! Where a track's motion is not one smooth closed form (a gravity impact, a hand-off, an
//! inertia's bound hit, a track's end), with its position and velocity on each side: what a
//! reader of the frame tables needs to read between frames exactly, ending each cubic Hermite
//! piece there (the JSON tables and the ES modules' `valueAt` list the same).

use curvebake_model::bake::Baked;
use curvebake_motion::Motion;

/// Bounces that rise at most this much (in the motion's unit) get no join of their own: after
/// the last one listed the motion stays that close to the floor.
pub const READ_NEGLIGIBLE: f64 = 1e-6;

/// `[t, x(t⁻), v(t⁻), x(t), v(t)]` of `motion` at `t`: as it arrives (the largest double
/// before `t`) and from `t` on.
pub fn sides(motion: &dyn Motion, t: f64) -> [f64; 5] {
    let left = crate::fit::before(t);
    [
        t,
        motion.position(left),
        motion.velocity(left),
        motion.position(t),
        motion.velocity(t),
    ]
}

/// Per track, [`sides`] at each of its kinks before the end ([`Model::track_kinks`] down to
/// bounces of [`READ_NEGLIGIBLE`]), in time order.
///
/// [`Model::track_kinks`]: curvebake_model::spec::Model::track_kinks
pub fn of_tracks(baked: &Baked) -> Vec<Vec<[f64; 5]>> {
    let kinks = (baked.spec.model).track_kinks(baked.duration, READ_NEGLIGIBLE);
    (baked.spec.model.tracks().iter().zip(kinks))
        .map(|((_, motion), kinks)| kinks.into_iter().map(|t| sides(&**motion, t)).collect())
        .collect()
}
