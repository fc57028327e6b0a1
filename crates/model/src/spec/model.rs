//! The model a motion resolves into ([`Model`]: one closed form per kind, with the parameters
//! it was resolved from), how its bake ends ([`Ending`], [`TrackEnd`]) and where it is not one
//! smooth closed form ([`Kink`]).

use super::{Sequence, Tracks};
use curvebake_motion::{
    Bounce, Decay, ExplosionRing, Friction, Gravity, Inertia, Motion, Settle, SolvedDecay, Spring,
};

/// Largest step at the end of a motion's easing, as a fraction of its travel: a motion from
/// one value to another is baked until it stays this close to `to` ([`Model::end_delta`]), so
/// an easing stretched over another range ends without a visible snap.
pub const END_STEP: f64 = 1e-3;

/// A time where a track's motion is not one smooth closed form ([`Model::track_kinks_banded`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kink {
    /// Seconds.
    pub t: f64,
    /// `Some(h)` at a bounce's last impact listed: from here to the next kink (or the end)
    /// the motion stays between its value here (the floor) and `h` from it, bouncing ever
    /// lower (infinitely often) until it rests there.
    pub band: Option<f64>,
}

impl Kink {
    /// A join where the motion goes on smoothly on each side.
    fn join(t: f64) -> Self {
        Self { t, band: None }
    }
}

/// A motion in closed form, with the parameters it was resolved from.
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    /// A spring (physical or perceptual form, resolved to physical).
    Spring(Spring),
    /// A fling with friction; `snap` is true for the form solved from `to`.
    Friction {
        /// The motion.
        friction: Friction,
        /// Where a snap rests, if it is the snap form.
        snap_to: Option<f64>,
    },
    /// Gravity over a duration.
    Gravity(Gravity),
    /// Gravity until it reaches `to`.
    GravityTo {
        /// The motion.
        gravity: Gravity,
        /// Target position.
        to: f64,
        /// Time it reaches the target.
        arrival: f64,
    },
    /// Gravity bouncing on a floor at `to`.
    Bounce(Bounce),
    /// A decay given directly.
    Decay(Decay),
    /// A decay solved from its end conditions.
    SolvedDecay(SolvedDecay),
    /// An explosion ring.
    Ring(ExplosionRing),
    /// A fling with bounds and snap points.
    Inertia(Inertia),
    /// Motions handing over position and velocity.
    Sequence(Sequence),
    /// Several properties on one timeline.
    Tracks(Tracks),
}

/// How the end of the bake is decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ending {
    /// Bake exactly this long; every frame is the closed form.
    Fixed(f64),
    /// Bake this long; the last frame is exactly the model's end value.
    Arrives(f64),
    /// Bake until provably at rest (rest thresholds), then snap to the rest value.
    Rests,
}

impl Ending {
    /// Its name in the JSON outputs (the tables, `inspect --json`): `fixed` (the motion cut at
    /// its duration), `arrives` (its last frame the end value it arrives at) or `rests` (its
    /// last frame the rest value, with velocity 0).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Fixed(_) => "fixed",
            Self::Arrives(_) => "arrives",
            Self::Rests => "rests",
        }
    }
}

/// How one track of a bake ends, and the rest thresholds it was baked with: what a reader
/// handing the track over to its own motion needs to know of its last frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackEnd {
    /// How the track ends ([`Track::ending_on`](super::Track::ending_on) for a multi-track motion's, else the motion's).
    pub ending: Ending,
    /// Distance from rest that counts as resting.
    pub rest_delta: f64,
    /// Speed that counts as resting.
    pub rest_speed: f64,
}

impl Model {
    /// The kind name used in outputs: `spring`, `friction`, `gravity`, `decay`, `explosion-ring`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Spring(_) => "spring",
            Self::Friction { .. } => "friction",
            Self::Gravity(_) | Self::GravityTo { .. } | Self::Bounce(_) => "gravity",
            Self::Decay(_) | Self::SolvedDecay(_) => "decay",
            Self::Ring(_) => "explosion-ring",
            Self::Inertia(_) => "inertia",
            Self::Sequence(_) => "sequence",
            Self::Tracks(_) => "tracks",
        }
    }

    /// The tracks: `value` for one-dimensional motions, `inner` and `outer` for a ring.
    pub fn tracks(&self) -> Vec<(&'static str, &dyn Motion)> {
        match self {
            Self::Spring(m) => vec![("value", m)],
            Self::Friction { friction, .. } => vec![("value", friction)],
            Self::Gravity(m) | Self::GravityTo { gravity: m, .. } => vec![("value", m)],
            Self::Bounce(m) => vec![("value", m)],
            Self::Decay(m) => vec![("value", m)],
            Self::SolvedDecay(m) => vec![("value", m)],
            Self::Ring(r) => vec![("inner", r.inner()), ("outer", r.outer())],
            Self::Inertia(m) => vec![("value", m)],
            Self::Sequence(m) => vec![("value", m)],
            Self::Tracks(t) => t.named(),
        }
    }

    /// The motion of a one-value model (every kind but a ring), without allocating.
    pub fn single(&self) -> Option<&dyn Motion> {
        Some(match self {
            Self::Spring(m) => m,
            Self::Friction { friction, .. } => friction,
            Self::Gravity(m) | Self::GravityTo { gravity: m, .. } => m,
            Self::Bounce(m) => m,
            Self::Decay(m) => m,
            Self::SolvedDecay(m) => m,
            Self::Inertia(m) => m,
            Self::Sequence(m) => m,
            Self::Ring(_) | Self::Tracks(_) => return None,
        })
    }

    /// The times where one closed form hands over to another, in time order: a sequence's
    /// hand-offs, an inertia's bound hit (position and velocity are continuous there;
    /// acceleration may jump), and for several tracks each track's own joins and where it
    /// ends before the last (from there it holds its end value, [`Track`](super::Track)).
    pub fn joins(&self) -> Vec<f64> {
        match self {
            Self::Sequence(s) => s.handoffs(),
            Self::Inertia(m) => m.bound_time().into_iter().collect(),
            // Each track's own joins, and where it ends (and starts holding its end value),
            // before the last.
            Self::Tracks(t) => self.joins_until(t.length()),
            _ => Vec::new(),
        }
    }

    /// The joins of a bake `end` seconds long ([`Model::track_joins`]), in time order, each
    /// once: for several tracks, also where the last one ends when the bake goes on past it
    /// (a resting motion's last frame is a whole frame after its rest time).
    pub fn joins_until(&self, end: f64) -> Vec<f64> {
        let mut joins: Vec<f64> = self.track_joins(end).into_iter().flatten().collect();
        joins.sort_by(f64::total_cmp);
        joins.dedup();
        joins
    }

    /// Per track ([`Model::tracks`]), the joins of its own closed forms on a timeline `end`
    /// seconds long, in time order: [`Model::joins`] for a one-value motion, none for a
    /// ring's radii, and for several tracks each one's own joins and its end if before `end`
    /// ([`Track::joins`](super::Track::joins)). A track's curve bends only at its own joins.
    pub fn track_joins(&self, end: f64) -> Vec<Vec<f64>> {
        match self {
            Self::Tracks(t) => t.tracks().iter().map(|k| k.joins(end)).collect(),
            Self::Ring(_) => vec![Vec::new(); 2],
            _ => vec![self.joins()],
        }
    }

    /// Per track ([`Model::tracks`]), the times strictly between 0 and `end` where its
    /// motion is not one smooth closed form, in time order: every join of
    /// [`Model::track_joins`] and also each gravity impact (where the velocity jumps), in
    /// a sequence's steps too, until the bounces rise at most `negligible` (see
    /// [`Bounce::impacts_before`]). A fitting of the motion puts a stop at each.
    pub fn track_kinks(&self, end: f64, negligible: f64) -> Vec<Vec<f64>> {
        (self.track_kinks_banded(end, negligible).into_iter())
            .map(|kinks| kinks.into_iter().map(|k| k.t).collect())
            .collect()
    }

    /// [`Model::track_kinks`], each saying whether the motion bounces on within a band
    /// after it ([`Kink::band`]).
    pub fn track_kinks_banded(&self, end: f64, negligible: f64) -> Vec<Vec<Kink>> {
        match self {
            Self::Tracks(t) => (t.tracks().iter())
                .map(|k| {
                    let mut kinks = k.model.kinks(k.length.min(end), negligible);
                    if k.length < end {
                        kinks.push(Kink::join(k.length));
                    }
                    kinks
                })
                .collect(),
            Self::Ring(_) => vec![Vec::new(); 2],
            _ => vec![self.kinks(end, negligible)],
        }
    }

    /// [`Model::track_kinks_banded`] of a one-value model.
    fn kinks(&self, end: f64, negligible: f64) -> Vec<Kink> {
        let mut kinks: Vec<Kink> = match self {
            Self::Bounce(b) => (b.impacts_before(end, negligible).into_iter())
                .map(|t| {
                    let rise = b.rise_after(t);
                    Kink {
                        t,
                        band: (rise <= negligible).then_some(rise),
                    }
                })
                .collect(),
            Self::Inertia(m) => m.bound_time().into_iter().map(Kink::join).collect(),
            Self::Sequence(s) => {
                let steps = s.steps();
                let mut kinks = Vec::new();
                for (k, step) in steps.iter().enumerate() {
                    let stop = steps.get(k + 1).map_or(end, |next| next.start.min(end));
                    if step.start >= end {
                        break;
                    }
                    if k > 0 {
                        kinks.push(Kink::join(step.start));
                    }
                    let own = step.model.kinks(stop - step.start, negligible);
                    kinks.extend(own.into_iter().map(|k| Kink {
                        t: k.t + step.start,
                        ..k
                    }));
                }
                kinks
            }
            _ => Vec::new(),
        };
        kinks.retain(|k| k.t > 0.0 && k.t < end);
        kinks.sort_by(|a, b| a.t.total_cmp(&b.t));
        kinks.dedup_by(|later, earlier| later.t == earlier.t);
        kinks
    }

    /// Start and end value of a motion that travels from one value to another (spring,
    /// snap friction, solved decay, gravity to a position); `None` otherwise or when they
    /// coincide.
    pub fn endpoints(&self) -> Option<(f64, f64)> {
        let (from, to) = match self {
            Self::Spring(s) => (s.from(), s.to()),
            Self::Friction {
                friction,
                snap_to: Some(to),
            } => (friction.decay().from(), *to),
            Self::GravityTo { gravity, to, .. } => (gravity.from(), *to),
            Self::Bounce(b) => (b.fall().from(), b.floor()),
            Self::SolvedDecay(d) => (d.decay().from(), d.to()),
            Self::Inertia(m) => (m.params().from, m.target()?),
            Self::Sequence(s) => (s.position(0.0), s.rest_position()?),
            _ => return None,
        };
        (from != to).then_some((from, to))
    }

    /// The value each track settles at or arrives at, for the last frame.
    pub fn end_values(&self) -> Vec<f64> {
        match self {
            Self::Spring(s) => vec![s.to()],
            // A snap rests at `to` as written, not at from + v/λ, which may round an ulp off.
            Self::Friction {
                snap_to: Some(to), ..
            } => vec![*to],
            Self::Friction { friction, .. } => friction.rest_position().into_iter().collect(),
            Self::GravityTo { to, .. } => vec![*to],
            Self::Bounce(b) => vec![b.floor()],
            Self::SolvedDecay(d) => vec![d.to()],
            Self::Ring(r) => vec![r.inner().to(), r.outer().to()],
            Self::Inertia(m) => m.rest_position().into_iter().collect(),
            Self::Sequence(s) => s.rest_position().into_iter().collect(),
            Self::Tracks(t) => t.tracks().iter().map(|k| k.end_value).collect(),
            Self::Gravity(_) | Self::Decay(_) => Vec::new(),
        }
    }

    /// How close to rest a motion that rests is baked: `rest_delta`, and for a motion from
    /// one value to another (its [`endpoints`](Self::endpoints)) at most [`END_STEP`] of its
    /// travel `|to − from|`.
    ///
    /// Its easing, the progress `p(t) = (x(t) − from)/(to − from)` up to the end `D`, then
    /// 1, steps by `|1 − p(D)| = |x(D) − to|/|to − from|` at `D`. [`Model::settle_time`]
    /// with this distance proves `|x(t) − rest| ≤ end_delta` for every `t` from the settle
    /// time on (each kind's decay envelope), `D` is a frame time at or after it, and the rest
    /// is `to` (to its last bit: a snap rests at `from + v/λ`, solved to be `to`). So
    /// `|1 − p(D)| ≤ END_STEP`: stretched over any range `R`, the easing ends with a step of
    /// at most `END_STEP·|R|` (0.4 px over 400 px), and over its own at most `rest_delta`.
    pub fn end_delta(&self, rest_delta: f64) -> f64 {
        match self.endpoints() {
            Some((from, to)) => rest_delta.min(END_STEP * (to - from).abs()),
            None => rest_delta,
        }
    }

    /// The earliest time the motion provably rests, if it comes to rest at all.
    pub fn settle_time(&self, rest_delta: f64, rest_speed: f64) -> Option<f64> {
        match self {
            Self::Spring(s) => s.settle_time(rest_delta, rest_speed),
            Self::Friction { friction, .. } => friction.settle_time(rest_delta, rest_speed),
            Self::Bounce(b) => b.settle_time(rest_delta, rest_speed),
            Self::Inertia(m) => m.settle_time(rest_delta, rest_speed),
            Self::Sequence(s) => s.settle_time(rest_delta, rest_speed),
            // Each track proved its own end; the whole rests when the last one does.
            Self::Tracks(t) => Some(t.length()),
            _ => None,
        }
    }
}
