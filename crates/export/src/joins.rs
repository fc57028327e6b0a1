//! Where a track's motion is not one smooth closed form (a gravity impact, a hand-off, an
//! inertia's bound hit, a track's end), with its position and velocity on each side: what a
//! reader of the frame tables needs to read between frames exactly, ending each cubic Hermite
//! piece there (the JSON tables and the ES modules' `valueAt` list the same).

use curvebake_model::bake::Baked;
use curvebake_model::spec::Ending;
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
/// bounces of [`READ_NEGLIGIBLE`]), in time order, and at the end `D` of a motion whose last
/// frame holds its end value (it rests or arrives) rather than the motion there: the motion as
/// it arrives, then that frame, so that no Hermite piece spans the step (a ball stopped dead
/// by the floor arrives at full speed; a spring that rests, within its thresholds).
///
/// [`Model::track_kinks`]: curvebake_model::spec::Model::track_kinks
pub fn of_tracks(baked: &Baked) -> Vec<Vec<[f64; 5]>> {
    let d = baked.duration;
    let kinks = (baked.spec.model).track_kinks(d, READ_NEGLIGIBLE);
    let holds_end = !matches!(baked.spec.ending, Ending::Fixed(_));
    (baked
        .spec
        .model
        .tracks()
        .iter()
        .zip(kinks)
        .zip(&baked.tracks))
    .map(|(((_, motion), kinks), track)| {
        let mut joins: Vec<[f64; 5]> = kinks.into_iter().map(|t| sides(&**motion, t)).collect();
        if holds_end {
            let last = track.position.len() - 1;
            let mut end = sides(&**motion, d);
            (end[3], end[4]) = (track.position[last], track.velocity[last]);
            joins.push(end);
        }
        joins
    })
    .collect()
}
