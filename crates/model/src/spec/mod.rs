//! Validated motion specifications: a [`crate::source::schema::MotionFile`] checked field by field and
//! resolved into a closed-form [`Model`].

mod sequence;
mod spring_form;
mod tracks;
mod units;
mod variables;

pub use sequence::{Sequence, Step, MAX_STEPS};
pub use spring_form::{OptionalField, WrittenForm, SPRING_FORMS};
pub use tracks::{animated_property, Track, Tracks};
pub use units::{
    played, rest_defaults, unit, unit_kind, Played, Unit, UnitKind, PLAYED_LARGE_UNITS,
    PLAYED_PERCENT, PLAYED_SMALL_UNITS, REST_FOR_PIXELS, REST_FOR_UNITLESS, REST_FOR_UNITS, UNITS,
};
pub use variables::{Clash, Made, Variable, Variables};

use crate::source::schema::{MotionFile, MotionKind, RadiusFile};
use curvebake_motion::{
    number, Bounce, Decay, Equivalents, ExplosionRing, Friction, Gravity, Inertia, InertiaCase,
    InertiaParams, Motion, MotionError, RadiusEnd, Settle, SolvedDecay, Spring,
    DEFAULT_BOUNCE_DAMPING, DEFAULT_BOUNCE_STIFFNESS,
};

/// Largest step at the end of a motion's easing, as a fraction of its travel: a motion from
/// one value to another is baked until it stays this close to `to` ([`Model::end_delta`]), so
/// an easing stretched over another range ends without a visible snap.
pub const END_STEP: f64 = 1e-3;

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
/// Motion names that would clash with files the bake writes besides each motion's, each with
/// that file: their outputs would be overwritten, or would overwrite them.
pub const RESERVED_NAMES: &[(&str, &str)] = &[
    ("all", "png/all.png is the contact sheet of every motion"),
    (
        "index",
        "js/index.js re-exports every motion of the JS package",
    ),
    (
        "motion",
        "js/motion.d.ts holds the type every JS module shares",
    ),
    (
        "runtime",
        "js/runtime.js is the runtime every JS module's `play` shares",
    ),
];
/// Names Windows gives to devices, whatever the extension (`con.css` is the console): a
/// folder holding a file so named cannot be checked out there.
pub const WINDOWS_DEVICE_NAMES: &[&str] = &[
    "con", "prn", "aux", "nul", "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7",
    "com8", "com9", "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];
/// Longest accepted name.
pub const MAX_NAME_LEN: usize = 64;
/// The animated CSS property.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Property {
    /// `transform: translateX(...)`.
    TranslateX,
    /// `transform: translateY(...)`.
    TranslateY,
    /// `transform: scale(...)`.
    Scale,
    /// `transform: rotate(...)`.
    Rotate,
    /// `opacity`.
    Opacity,
    /// A registered custom property, `--name` (validated identifier).
    Custom(String),
}

impl Property {
    /// The name as written in RON (`translateX`, ..., `--custom`).
    pub fn name(&self) -> &str {
        match self {
            Self::TranslateX => "translateX",
            Self::TranslateY => "translateY",
            Self::Scale => "scale",
            Self::Rotate => "rotate",
            Self::Opacity => "opacity",
            Self::Custom(name) => name,
        }
    }
}

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
    /// How the track ends ([`Track::ending_on`] for a multi-track motion's, else the motion's).
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
    /// ends before the last (from there it holds its end value, [`Track`]).
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
    /// ([`Track::joins`]). A track's curve bends only at its own joins.
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

    /// The parameters that decide the motion, for its content hash: [`Model::params`] less a
    /// spring's equivalents in the other platforms' forms, which follow from its mass,
    /// stiffness and damping (the groups of a sequence's steps and of tracks leave them out
    /// already).
    pub fn inputs(&self) -> Vec<ParamGroup> {
        match self {
            Self::Spring(s) => vec![spring_core(s)],
            _ => self.params(),
        }
    }

    /// Calls `f` with each group of [`Model::params`] (name, values), in their order (the
    /// unnamed group, if any, first): a spring's from the stack. Every motion's JSON table writes them, and collected, a
    /// spring's were eight allocations.
    pub fn each_param_group(
        &self,
        mut f: impl FnMut(Option<&'static str>, &[(&'static str, f64)]),
    ) {
        match self {
            Self::Spring(s) => {
                f(None, &spring_core_values(s));
                for (name, values) in Equivalents::of(s.mass(), s.stiffness(), s.damping()).groups()
                {
                    f(Some(name), &values);
                }
            }
            _ => {
                for group in self.params() {
                    f(group.name, &group.values);
                }
            }
        }
    }

    /// Resolved physical parameters, grouped: the motion's own in the unnamed group (first;
    /// written at the top level of the JSON `params`), named groups nested under their name (`inner` and
    /// `outer` of a ring; a spring's equivalent in each platform's form).
    pub fn params(&self) -> Vec<ParamGroup> {
        let flat = |values: Vec<(&'static str, f64)>| vec![ParamGroup { name: None, values }];
        match self {
            Self::Spring(s) => spring_params(s),
            Self::Friction { friction, snap_to } => {
                let d = friction.decay();
                let mut v = vec![("from", d.from()), ("velocity", d.initial_velocity())];
                v.extend(snap_to.map(|to| ("to", to)));
                v.extend([
                    ("friction", friction.friction()),
                    ("lambda", friction.lambda()),
                ]);
                flat(v)
            }
            Self::Gravity(g) => flat(gravity_params(g)),
            Self::GravityTo {
                gravity,
                to,
                arrival,
            } => {
                let mut v = gravity_params(gravity);
                v.extend([("to", *to), ("arrival", *arrival)]);
                flat(v)
            }
            Self::Bounce(b) => {
                let mut v = gravity_params(b.fall());
                v.extend([
                    ("to", b.floor()),
                    ("restitution", b.restitution()),
                    ("first_impact", b.first_impact()),
                ]);
                flat(v)
            }
            Self::Decay(d) => flat(decay_params(d)),
            Self::Inertia(m) => flat(inertia_params(m)),
            Self::Sequence(s) => sequence_params(s),
            Self::Tracks(t) => t
                .tracks()
                .iter()
                .zip(t.named())
                .map(|(k, (name, _))| {
                    let mut values = vec![("end", k.length)];
                    for group in k.model.params().into_iter().filter(|g| g.name.is_none()) {
                        values.extend(group.values);
                    }
                    ParamGroup {
                        name: Some(name),
                        values,
                    }
                })
                .collect(),
            Self::SolvedDecay(s) => flat(solved_params(s)),
            Self::Ring(r) => vec![
                ParamGroup {
                    name: Some("inner"),
                    values: solved_params(r.inner()),
                },
                ParamGroup {
                    name: Some("outer"),
                    values: solved_params(r.outer()),
                },
            ],
        }
    }
}

/// A spring's resolved parameters (unnamed group), then the same spring in every platform's
/// form, one named group each ([`Equivalents::groups`]).
fn spring_params(s: &Spring) -> Vec<ParamGroup> {
    let mut groups = vec![spring_core(s)];
    groups.extend(
        (Equivalents::of(s.mass(), s.stiffness(), s.damping()).groups()).map(|(name, values)| {
            ParamGroup {
                name: Some(name),
                values: values.to_vec(),
            }
        }),
    );
    groups
}

/// A spring's own parameters, without its equivalents in other forms.
fn spring_core(s: &Spring) -> ParamGroup {
    ParamGroup {
        name: None,
        values: spring_core_values(s).to_vec(),
    }
}

/// The values of [`spring_core`].
fn spring_core_values(s: &Spring) -> [(&'static str, f64); 7] {
    [
        ("from", s.from()),
        ("to", s.to()),
        ("velocity", s.initial_velocity()),
        ("mass", s.mass()),
        ("stiffness", s.stiffness()),
        ("damping", s.damping()),
        ("damping_ratio", s.damping_ratio()),
    ]
}

/// A sequence: per step a group `step_<i>` with its `start`, its `handoff` time (all but the
/// last) and its own parameters (a spring's without its equivalents).
fn sequence_params(s: &Sequence) -> Vec<ParamGroup> {
    s.steps()
        .iter()
        .zip(sequence::STEP_NAMES)
        .map(|(step, name)| {
            let mut values = vec![("start", step.start)];
            values.extend(step.length.map(|l| ("handoff", step.start + l)));
            for group in step.model.params().into_iter().filter(|g| g.name.is_none()) {
                values.extend(group.values);
            }
            ParamGroup {
                name: Some(name),
                values,
            }
        })
        .collect()
}

/// An inertia's inputs, then what it resolved to: `to` where it rests (a bound or snap
/// point), `bound_time` and `bound_velocity` when it hits a bound, `snap_lambda` when it
/// glides onto a snap point ahead.
fn inertia_params(m: &Inertia) -> Vec<(&'static str, f64)> {
    let p = m.params();
    let mut v = vec![
        ("from", p.from),
        ("velocity", p.velocity),
        ("friction", p.friction),
        ("lambda", m.lambda()),
    ];
    v.extend(p.min.map(|x| ("min", x)));
    v.extend(p.max.map(|x| ("max", x)));
    v.extend([
        ("bounce_stiffness", p.bounce_stiffness),
        ("bounce_damping", p.bounce_damping),
    ]);
    v.extend(m.target().map(|x| ("to", x)));
    if let InertiaCase::HitsBound { time, velocity, .. } = m.case() {
        v.extend([("bound_time", time), ("bound_velocity", velocity)]);
    }
    v.extend(m.snap_lambda().map(|x| ("snap_lambda", x)));
    v
}

fn gravity_params(g: &Gravity) -> Vec<(&'static str, f64)> {
    vec![
        ("from", g.from()),
        ("velocity", g.initial_velocity()),
        ("acceleration", g.acceleration()),
    ]
}

fn decay_params(d: &Decay) -> Vec<(&'static str, f64)> {
    vec![
        ("from", d.from()),
        ("velocity", d.initial_velocity()),
        ("lambda", d.lambda()),
    ]
}

fn solved_params(s: &SolvedDecay) -> Vec<(&'static str, f64)> {
    let mut v = decay_params(s.decay());
    v.extend([("to", s.to()), ("end_velocity", s.velocity(s.duration()))]);
    v
}

/// The unit a parameter of [`Model::params`] named `name` is in, written after its value
/// (with its space), for a motion in `unit` (`""` for unitless values): a position (`from`,
/// `to`, `min`, `max`, `rest_delta`) in the unit, a velocity in it per second, an
/// acceleration per second squared, a time (`duration`, `arrival`, a step's `start`) in
/// seconds, a rate (`lambda`) per second; a ratio, a mass and a spring's stiffness and damping
/// (whose units depend on the mass's) get none.
pub fn param_unit(name: &str, unit: &str) -> String {
    // Per second (squared) of the unit, or of 1 for a unitless value.
    let per = |suffix: &str| match unit {
        "" => format!(" 1{suffix}"),
        unit => format!(" {unit}{suffix}"),
    };
    match name {
        "from" | "to" | "min" | "max" | "rest_delta" => match unit {
            "" => String::new(),
            unit => format!(" {unit}"),
        },
        "velocity" | "end_velocity" | "bound_velocity" | "rest_speed" => per("/s"),
        "acceleration" => per("/s²"),
        "start"
        | "end"
        | "handoff"
        | "arrival"
        | "first_impact"
        | "bound_time"
        | "duration"
        | "response"
        | "perceptual_duration"
        | "visual_duration" => " s".to_owned(),
        "lambda" | "snap_lambda" => " 1/s".to_owned(),
        _ => String::new(),
    }
}

/// A named group of parameters; its names are the model's own (`&'static str`), or, in a
/// digest kept from an earlier bake, names read back from the manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamGroup<S = &'static str> {
    /// Group name (`inner`, `outer`), or `None` for the motion's own parameters.
    pub name: Option<S>,
    /// (name, value) pairs in a stable order.
    pub values: Vec<(S, f64)>,
}

/// A validated motion, ready to bake.
#[derive(Debug, Clone, PartialEq)]
pub struct MotionSpec {
    /// Validated identifier: CSS @keyframes name and file stem.
    pub name: String,
    /// The animated property.
    pub property: Property,
    /// The unit of the values (may be empty).
    pub unit: String,
    /// Frames per second.
    pub fps: f64,
    /// How the bake ends.
    pub ending: Ending,
    /// Distance from rest that counts as resting.
    pub rest_delta: f64,
    /// Speed that counts as resting.
    pub rest_speed: f64,
    /// Largest distance (in the unit) the CSS may stray from a frame, if the motion says.
    pub tolerance: Option<f64>,
    /// The same as a fraction of the motion's range, if the motion says.
    pub relative_tolerance: Option<f64>,
    /// What `prefers-reduced-motion: reduce` does to the motion.
    pub reduced_motion: ReducedMotion,
    /// Whether its CSS takes an initial velocity from `--<name>-velocity` (see
    /// [`MotionSpec::css_velocity`]).
    pub takes_css_velocity: bool,
    /// The closed-form motion.
    pub model: Model,
    /// The motion's text as written in its file, when it was read from one (a motion made
    /// in code has none): what the design tokens carry to bake it again.
    pub text: Option<crate::source::MotionText>,
}

/// What a motion does for someone who asks for less motion (`prefers-reduced-motion:
/// reduce`), in the CSS classes and the JS `animate()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReducedMotion {
    /// Show the end at once (duration 0): the default for transforms, custom properties and
    /// rings, which move things.
    Jump,
    /// Show the end at once and fade the element in over [`REDUCED_FADE_SECONDS`].
    Fade,
    /// Play the motion as it is: the default for opacity, which moves nothing.
    Keep,
}

/// Length of the fade of [`ReducedMotion::Fade`], seconds.
pub const REDUCED_FADE_SECONDS: f64 = 0.2;

impl ReducedMotion {
    /// The policy as written in RON and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Self::Jump => "jump",
            Self::Fade => "fade",
            Self::Keep => "keep",
        }
    }

    /// Reads `"jump"`, `"fade"` or `"keep"`.
    pub fn parse(word: &str) -> Option<Self> {
        [Self::Jump, Self::Fade, Self::Keep]
            .into_iter()
            .find(|p| p.name() == word)
    }

    /// The default: [`ReducedMotion::Keep`] for opacity (a fade is not motion),
    /// [`ReducedMotion::Jump`] for everything else.
    pub fn default_for(property: &Property, model: &Model) -> Self {
        match (property, model) {
            (Property::Opacity, m) if !matches!(m, Model::Ring(_)) => Self::Keep,
            _ => Self::Jump,
        }
    }
}

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
    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }

    /// A motion error as a field error under `prefix` (`motion.Spring`), in the motion
    /// error's own words.
    fn from_motion(prefix: &str, error: MotionError) -> Self {
        let error = error.within(prefix);
        Self::new(error.path().unwrap_or(prefix), error.message())
    }
}

/// Longest prefix of generated names.
pub const MAX_PREFIX_LEN: usize = 32;

/// Checks a prefix of generated names: empty, or a letter, then letters, digits, `-` and `_`,
/// at most [`MAX_PREFIX_LEN`] (so that prefix and name make a CSS identifier).
pub fn check_prefix(prefix: &str) -> Result<(), String> {
    let mut chars = prefix.chars();
    match chars.next() {
        None => return Ok(()),
        Some(c) if !c.is_ascii_alphabetic() => {
            return Err(format!(
                "must start with a letter (A-Z, a-z), got {prefix:?}"
            ));
        }
        _ => {}
    }
    if let Some(bad) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return Err(format!(
            "may hold only letters, digits, '-' and '_', found {bad:?} in {prefix:?}"
        ));
    }
    if prefix.len() > MAX_PREFIX_LEN {
        return Err(format!(
            "must be at most {MAX_PREFIX_LEN} characters, got {}",
            prefix.len()
        ));
    }
    Ok(())
}

/// Checks a name: a letter, then letters, digits, `-` and `_`, at most [`MAX_NAME_LEN`].
pub fn check_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Err("must not be empty".into()),
        Some(c) if !c.is_ascii_alphabetic() => {
            return Err(format!("must start with a letter (A-Z, a-z), got {name:?}"));
        }
        _ => {}
    }
    if let Some(bad) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return Err(format!(
            "may hold only letters, digits, '-' and '_', found {bad:?} in {name:?}"
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "must be at most {MAX_NAME_LEN} characters, got {}",
            name.len()
        ));
    }
    if let Some(word) = CSS_KEYWORDS.iter().find(|w| name.eq_ignore_ascii_case(w)) {
        return Err(format!(
            "must not be the CSS keyword {word:?}: `animation` and `@keyframes` read it as something else"
        ));
    }
    Ok(())
}

/// Checks a motion's name: [`check_name`], and none of the [`RESERVED_NAMES`] or the
/// [`WINDOWS_DEVICE_NAMES`] (ignoring ASCII case, as file systems may).
pub fn check_motion_name(name: &str) -> Result<(), String> {
    check_name(name)?;
    if let Some((_, file)) = RESERVED_NAMES
        .iter()
        .find(|(r, _)| r.eq_ignore_ascii_case(name))
    {
        return Err(format!(
            "{name:?} is reserved: {file}, and a motion so named would write over it (names that differ only in case clash on case-insensitive file systems)"
        ));
    }
    if let Some(device) = WINDOWS_DEVICE_NAMES
        .iter()
        .find(|d| d.eq_ignore_ascii_case(name))
    {
        return Err(format!(
            "{name:?} is reserved: Windows reads a file named {device}.<anything> as a device, so the outputs could not be checked out there"
        ));
    }
    Ok(())
}

/// Words a name may not be (ASCII case-insensitively): keywords of the `animation` shorthand,
/// CSS-wide keywords and the words `@keyframes` names exclude. A motion so named would not
/// animate (`animation: ease 1s linear both` runs keyframes named `linear`).
pub const CSS_KEYWORDS: &[&str] = &[
    "none",
    "initial",
    "inherit",
    "unset",
    "revert",
    "revert-layer",
    "default",
    "auto",
    "linear",
    "ease",
    "ease-in",
    "ease-out",
    "ease-in-out",
    "step-start",
    "step-end",
    "infinite",
    "normal",
    "reverse",
    "alternate",
    "alternate-reverse",
    "forwards",
    "backwards",
    "both",
    "running",
    "paused",
];

/// Settings that apply to every motion of a bake.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overrides {
    /// Frame rate that replaces every motion's own.
    pub fps: Option<f64>,
    /// Leaves out each motion's text ([`MotionSpec::text`]), which only the design tokens
    /// carry: finding it is a second pass over the file, and a copy of it.
    pub without_texts: bool,
}

fn property_and_unit(file: &MotionFile) -> Result<(Property, String), FieldError> {
    let first_track = file.tracks.as_ref().and_then(|t| t.first());
    match first_track {
        // A multi-track motion's own property and unit are its first track's.
        Some(track) => property_and_unit_of(Some(&track.property), track.unit.as_deref())
            .or_else(|_| Ok((Property::TranslateX, "px".to_owned()))),
        None => property_and_unit_of(file.property.as_deref(), file.unit.as_deref()),
    }
}

/// The property (default translateX) and unit (default from the property), validated.
fn property_and_unit_of(
    property: Option<&str>,
    unit: Option<&str>,
) -> Result<(Property, String), FieldError> {
    let property = match property.unwrap_or("translateX") {
        "translateX" => Property::TranslateX,
        "translateY" => Property::TranslateY,
        "scale" => Property::Scale,
        "rotate" => Property::Rotate,
        "opacity" => Property::Opacity,
        custom if custom.starts_with("--") => {
            check_name(&custom[2..]).map_err(|m| FieldError::new("property", format!("after `--` {m}")))?;
            Property::Custom(custom.to_owned())
        }
        other => {
            return Err(FieldError::new(
                "property",
                format!("must be translateX, translateY, scale, rotate, opacity or a custom property --name, got {other:?}"),
            ))
        }
    };
    let default_unit = match property {
        Property::TranslateX | Property::TranslateY => "px",
        Property::Rotate => "deg",
        _ => "",
    };
    let unit = unit.map_or_else(|| default_unit.to_owned(), str::to_owned);
    let kind = unit_kind(&unit).ok_or_else(|| {
        FieldError::new(
            "unit",
            format!(
                "{unit:?} is not a known unit; use px, em, rem, vw, vh, %, deg, rad, turn or \"\""
            ),
        )
    })?;
    let allowed = match property {
        Property::TranslateX | Property::TranslateY => {
            matches!(kind, UnitKind::Length | UnitKind::Percentage)
        }
        Property::Rotate => kind == UnitKind::Angle,
        Property::Scale | Property::Opacity => kind == UnitKind::Number,
        Property::Custom(_) => true,
    };
    if !allowed {
        return Err(FieldError::new(
            "unit",
            format!("{unit:?} does not fit property {}", property.name()),
        ));
    }
    Ok((property, unit))
}

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
fn optional_duration(field: &str, value: Option<f64>) -> Result<Option<f64>, FieldError> {
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

fn optional_positive(field: &str, value: Option<f64>) -> Result<Option<f64>, FieldError> {
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
fn fps(file: &MotionFile, overrides: Overrides) -> Result<f64, FieldError> {
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
fn model_and_ending(
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

impl MotionSpec {
    /// Per track ([`Model::tracks`]), how it ends on a bake `end` seconds long and its rest
    /// thresholds: a multi-track motion's track its own (a track may be cut at its
    /// `duration` while the whole rests, and a unitless one rests within the unitless
    /// defaults while a px one within the px ones), any other motion's (both radii of a ring)
    /// the motion's.
    pub fn track_ends(&self, end: f64) -> Vec<TrackEnd> {
        let motion = TrackEnd {
            ending: self.ending,
            rest_delta: self.rest_delta,
            rest_speed: self.rest_speed,
        };
        match &self.model {
            Model::Tracks(multi) => (multi.tracks().iter())
                .map(|t| TrackEnd {
                    ending: t.ending_on(end),
                    rest_delta: t.rest_delta,
                    rest_speed: t.rest_speed,
                })
                .collect(),
            Model::Ring(_) => vec![motion; 2],
            _ => vec![motion],
        }
    }

    /// Each track's unit, in track order: a multi-track motion's track its own, any other
    /// motion's (both radii of a ring) the motion's.
    pub fn track_units(&self) -> Vec<&str> {
        match &self.model {
            Model::Tracks(multi) => multi.tracks().iter().map(|t| t.unit.as_str()).collect(),
            Model::Ring(_) => vec![self.unit.as_str(); 2],
            _ => vec![self.unit.as_str()],
        }
    }

    /// Whether its CSS takes an initial velocity from `--<name>-velocity` (`css_velocity:
    /// true`, which only a spring from one value to another on `translate` may ask: its
    /// animations add up component-wise, and a second animation carries the velocity; see
    /// the CSS exporter). Not by default: that animation's easing doubles the spring's CSS
    /// and the time it takes to bake.
    pub fn css_velocity(&self) -> bool {
        self.takes_css_velocity
    }

    /// Whether a motion may ask for `css_velocity` (see [`MotionSpec::css_velocity`]).
    fn may_take_css_velocity(property: &Property, model: &Model) -> bool {
        matches!(model, Model::Spring(_))
            && model.endpoints().is_some()
            && matches!(property, Property::TranslateX | Property::TranslateY)
    }

    /// Validates one motion. Errors name the field.
    pub fn from_file(file: &MotionFile, overrides: Overrides) -> Result<Self, FieldError> {
        check_motion_name(&file.name).map_err(|m| FieldError::new("name", m))?;
        let (property, unit) = property_and_unit(file)?;
        let fps = fps(file, overrides)?;
        let duration = optional_duration("duration", file.duration)?;
        let defaults = rest_defaults(&unit);
        let rest_delta = optional_positive("rest_delta", file.rest_delta)?.unwrap_or(defaults.0);
        let rest_speed = optional_positive("rest_speed", file.rest_speed)?.unwrap_or(defaults.1);
        let (model, ending) = model_and_ending(file, duration, (rest_delta, rest_speed))?;
        let tolerance = match file.tolerance {
            Some(t) if !(t.is_finite() && t >= 0.0) => {
                return Err(FieldError::new(
                    "tolerance",
                    format!("must be >= 0, got {}", number(t)),
                ))
            }
            t => t,
        };
        let relative_tolerance = match file.relative_tolerance {
            Some(t) if !(t.is_finite() && (0.0..=1.0).contains(&t)) => {
                return Err(FieldError::new(
                    "relative_tolerance",
                    format!(
                        "must be in [0, 1] (a fraction of the range), got {}",
                        number(t)
                    ),
                ))
            }
            t => t,
        };
        let reduced_motion = match file.reduced_motion.as_deref() {
            None => ReducedMotion::default_for(&property, &model),
            Some(word) => ReducedMotion::parse(word).ok_or_else(|| {
                FieldError::new(
                    "reduced_motion",
                    format!("must be \"jump\", \"fade\" or \"keep\", got {word:?}"),
                )
            })?,
        };
        let takes_css_velocity = file.css_velocity.unwrap_or(false);
        if takes_css_velocity && !Self::may_take_css_velocity(&property, &model) {
            return Err(FieldError::new(
                "css_velocity",
                "is for a spring from one value to another on translateX or translateY only (its \
                 CSS adds a second animation to the first, and added scales multiply); remove \
                 the field, or play the motion with the ES module's play(), which takes a \
                 velocity"
                    .to_owned(),
            ));
        }
        Ok(Self {
            tolerance,
            relative_tolerance,
            reduced_motion,
            takes_css_velocity,
            name: file.name.clone(),
            property,
            unit,
            fps,
            ending,
            rest_delta,
            rest_speed,
            model,
            text: None,
        })
    }
}

/// Resolves the motion variant into a model and how its bake ends.
fn resolve(
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
