//! The figures of one baked motion ([`inspect`]): in closed form from its model, or read from
//! its frames, each saying which in its `source` field.

use curvebake_export::done::looks_done;
use curvebake_model::bake::{Baked, Track};
use curvebake_model::spec::{Ending, Model, MotionSpec, ParamGroup};
use curvebake_motion::{Decay, Settle, SolvedDecay, Spring};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::f64::consts::PI;
use std::path::PathBuf;

/// Columns of the position sparkline.
pub const SPARKLINE_COLUMNS: usize = 40;

/// The eight levels of a sparkline, lowest first.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// A damping ratio within this of 1 counts as critically damped: perceptual springs with
/// bounce 0 land a rounding error away from it.
pub const CRITICAL_SLACK: f64 = 1e-9;

/// `source` of figures read from the baked frames.
pub const FROM_FRAMES: &str = "frames";
/// `source` of figures in closed form.
pub const CLOSED_FORM: &str = "closed form";

/// Everything `inspect` shows about one motion.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Inspection {
    /// Motion name.
    pub name: String,
    /// The file it came from (filled in by the caller; `None` for motions built in code).
    /// Written as text, a path that is not UTF-8 with its odd bytes replaced (JSON holds
    /// text only).
    #[serde(serialize_with = "lossy_path")]
    pub file: Option<PathBuf>,
    /// The motion's kind, as the JSON tables name it (`Model::kind`: `spring`, `friction`,
    /// `gravity`, `decay`, `inertia`, `sequence`, `explosion-ring` or `tracks`).
    pub kind: &'static str,
    /// The animated property as written; `None` for an explosion ring, whose two radii are
    /// no property of one element, and for a multi-track motion, whose tracks each animate
    /// their own (as in the JSON tables; each of `tracks` names its property).
    pub property: Option<String>,
    /// Unit of the values (may be empty); `None` for a multi-track motion, whose tracks each
    /// have their own (as in the JSON tables; each of `tracks` gives its `unit`).
    pub unit: Option<String>,
    /// Frames per second.
    pub fps: f64,
    /// Bake length in seconds.
    pub duration: f64,
    /// Frames baked.
    pub frames: usize,
    /// How the bake ends: `rests` (until provably at rest), `fixed` (a given duration) or
    /// `arrives` (at its end value at the duration).
    pub ending: &'static str,
    /// Distance from rest that counts as resting (`None` for a multi-track motion: each
    /// track has its own, in `tracks`).
    pub rest_delta: Option<f64>,
    /// Speed that counts as resting (`None` for a multi-track motion).
    pub rest_speed: Option<f64>,
    /// Distance from rest a resting bake ends within: `rest_delta`, and at most 0.1 % of the
    /// travel of a motion from one value to another (`Model::end_delta`: its easing then ends
    /// without a visible step over any range; `None` for a multi-track motion).
    pub end_delta: Option<f64>,
    /// Resolved physical parameters, as in the JSON tables.
    pub params: Params,
    /// Spring figures, for a spring.
    pub spring: Option<SpringFigures>,
    /// Friction figures, for a fling or snap.
    pub friction: Option<FrictionFigures>,
    /// Gravity figures, for gravity (with or without bounces).
    pub gravity: Option<GravityFigures>,
    /// Which case of an inertia happened, and when it hit its bound.
    pub inertia: Option<InertiaFigures>,
    /// Per step of a sequence: its kind, when it starts and the state it hands over.
    pub steps: Option<Vec<StepFigures>>,
    /// The earliest time the motion provably rests (within `end_delta`, slower than
    /// `rest_speed`), from its decay envelope: a bound, never earlier than the true time,
    /// and where a resting bake ends (at the first frame from it).
    pub settle_time: Option<f64>,
    /// When it looks done: the first frame from which every frame of every track is within
    /// half a pixel of its end value (0.1 % of its range in another unit), as the plots and
    /// the review page mark it ([`looks_done`]); `None` without an end value.
    pub looks_done: Option<f64>,
    /// Per track (`value`, or `inner` and `outer` for a ring).
    pub tracks: Vec<TrackFigures>,
}

/// `path` as JSON text: lossy where it is not UTF-8.
fn lossy_path<S: Serializer>(path: &Option<PathBuf>, serializer: S) -> Result<S::Ok, S::Error> {
    match path {
        Some(path) => serializer.serialize_str(&path.to_string_lossy()),
        None => serializer.serialize_none(),
    }
}

/// Resolved parameters: the unnamed group's values at the top level (`{"from": ..}`), each
/// named group nested under its name (`{"inner": {..}, "outer": {..}}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Params(pub Vec<ParamGroup>);

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Flat<'a>(&'a [(&'static str, f64)]);
        impl Serialize for Flat<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (k, v) in self.0 {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(None)?;
        for group in self.0.iter().filter(|g| g.name.is_none()) {
            for (k, v) in &group.values {
                map.serialize_entry(k, v)?;
            }
        }
        for group in &self.0 {
            if let Some(name) = group.name {
                map.serialize_entry(name, &Flat(&group.values))?;
            }
        }
        map.end()
    }
}

/// One step of a sequence.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StepFigures {
    /// The step's kind (`spring`, `gravity`, ...).
    pub kind: &'static str,
    /// When it starts, on the sequence's timeline.
    pub start: f64,
    /// Position and velocity it starts with (handed over by the previous step).
    pub start_state: (f64, f64),
    /// When it hands over to the next step (`None` for the last).
    pub handoff: Option<f64>,
}

fn step_figures(s: &curvebake_model::spec::Sequence) -> Vec<StepFigures> {
    s.steps()
        .iter()
        .map(|step| {
            let motion = step.model.single().expect("a step has one value");
            StepFigures {
                kind: step.model.kind(),
                start: step.start,
                start_state: motion.state(0.0),
                handoff: step.length.map(|l| step.start + l),
            }
        })
        .collect()
}

/// What an inertia did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct InertiaFigures {
    /// `free`, `hits max`, `hits min`, `starts above max`, `starts below min`, `snap ahead` or
    /// `snap behind`.
    pub case: &'static str,
    /// Where the fling would rest without bounds or snap points, x0 + v0/λ.
    pub free_rest: Option<f64>,
    /// Where it rests: the bound or snap point (`None` for a free fling).
    pub target: Option<f64>,
    /// When it hit the bound, t_B = -log1p(-λ(B - x0)/v0)/λ.
    pub bound_time: Option<f64>,
    /// Its velocity then, v_B = v0 - λ(B - x0).
    pub bound_velocity: Option<f64>,
}

fn inertia_figures(m: &curvebake_motion::Inertia) -> InertiaFigures {
    let (bound_time, bound_velocity) = match m.case() {
        curvebake_motion::InertiaCase::HitsBound { time, velocity, .. } => {
            (Some(time), Some(velocity))
        }
        _ => (None, None),
    };
    InertiaFigures {
        case: m.case().name(),
        free_rest: m.free_rest(),
        target: m.target(),
        bound_time,
        bound_velocity,
    }
}

/// What a spring looks and feels like.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SpringFigures {
    /// ζ = c/(2√(km)).
    pub damping_ratio: f64,
    /// `undamped`, `underdamped`, `critically damped` or `overdamped`.
    pub regime: &'static str,
    /// ω0 = √(k/m) in rad/s.
    pub natural_frequency: f64,
    /// ω0/2π in Hz.
    pub natural_frequency_hz: f64,
    /// ωd = ω0·√(1 - ζ²) in rad/s, when it oscillates.
    pub damped_frequency: Option<f64>,
    /// 2π/ωd in seconds: the time between two overshoots, when it oscillates.
    pub period: Option<f64>,
    /// The SwiftUI/Flutter perceptual duration 2π/ω0, in seconds.
    pub perceptual_duration: f64,
    /// The perceptual bounce: 1 - ζ when ζ <= 1, 1/ζ - 1 when ζ > 1.
    pub bounce: f64,
    /// For an underdamped spring released at rest (velocity 0): overshoot e^(-ζπ/√(1-ζ²)) at
    /// t = π/ωd, in closed form.
    pub overshoot: Option<Overshoot>,
}

/// A fling slowed by friction.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FrictionFigures {
    /// Fraction of velocity kept per second.
    pub friction: f64,
    /// Decay rate λ = -ln(friction), 1/s.
    pub lambda: f64,
    /// Where it comes to rest, x0 + v0/λ (none when friction is 1).
    pub rest_position: Option<f64>,
    /// When its speed drops to `rest_speed`.
    pub rest_time: Option<f64>,
}

/// Constant acceleration, possibly bouncing.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GravityFigures {
    /// Acceleration, units/s².
    pub acceleration: f64,
    /// Time of the turning point, when the initial velocity points against the acceleration.
    pub apex_time: Option<f64>,
    /// Position of the turning point.
    pub apex: Option<f64>,
    /// When it reaches `to` (gravity to a target).
    pub arrival: Option<f64>,
    /// When it first hits the floor (bouncing).
    pub first_impact: Option<f64>,
    /// Bounce restitution.
    pub restitution: Option<f64>,
    /// When the bounces are over.
    pub bounces_end: Option<f64>,
}

/// An exponential decay (direct, solved, or one radius of a ring).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DecayFigures {
    /// Initial velocity v0.
    pub initial_velocity: f64,
    /// Rate λ, 1/s (negative: it speeds up).
    pub lambda: f64,
    /// 1/λ in seconds, when λ > 0.
    pub time_constant: Option<f64>,
    /// For a solved decay: which real branch of Lambert W the solve used
    /// (`W-1` slows down, `W0` speeds up, `linear`, `at-rest`).
    pub branch: Option<&'static str>,
    /// For a solved decay: its velocity at the end.
    pub end_velocity: Option<f64>,
}

/// How far a motion passes its target.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Overshoot {
    /// Largest distance past the target, as a percentage of the distance travelled.
    pub percent: f64,
    /// The same in units.
    pub units: f64,
    /// When (none if it never passes its target).
    pub time: Option<f64>,
    /// `frames` or `closed form`.
    pub source: &'static str,
}

/// The fastest moment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PeakSpeed {
    /// Largest |velocity|, units/s.
    pub speed: f64,
    /// When.
    pub time: f64,
    /// `frames`: the closed-form velocity at each frame time.
    pub source: &'static str,
}

/// Figures of one track.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TrackFigures {
    /// `value`, `inner` or `outer`, or the property of a multi-track motion's track.
    pub name: &'static str,
    /// Unit of this track's values (a multi-track motion's tracks each have their own).
    pub unit: String,
    /// This track's distance from rest that counts as resting.
    pub rest_delta: f64,
    /// This track's speed that counts as resting.
    pub rest_speed: f64,
    /// First frame.
    pub start: f64,
    /// Last frame.
    pub end: f64,
    /// Smallest frame.
    pub min: f64,
    /// Largest frame.
    pub max: f64,
    /// Where the motion would come to rest if it ran on (none if it never does).
    pub resting_value: Option<f64>,
    /// How far it passes its target (motions that travel from one value to another).
    pub overshoot: Option<Overshoot>,
    /// The fastest frame.
    pub peak_speed: PeakSpeed,
    /// For motions baked until rest: the first frame time from which every frame is within
    /// `rest_delta` of the rest value and slower than `rest_speed` (what the eye sees; the
    /// envelope's `settle_time` bounds it from above).
    pub at_rest_from: Option<f64>,
    /// Decay figures, for decays, solved decays and ring radii.
    pub decay: Option<DecayFigures>,
    /// Position over the bake in [`SPARKLINE_COLUMNS`] block characters, scaled to the
    /// smallest and largest frame of all tracks.
    pub sparkline: String,
}

fn spring_figures(s: &Spring) -> SpringFigures {
    let zeta = s.damping_ratio();
    let w0 = s.natural_frequency();
    let regime = if s.damping() == 0.0 {
        "undamped"
    } else if (zeta - 1.0).abs() <= CRITICAL_SLACK {
        "critically damped"
    } else if zeta < 1.0 {
        "underdamped"
    } else {
        "overdamped"
    };
    let oscillates = matches!(regime, "undamped" | "underdamped");
    let wd = s.damped_frequency().filter(|_| oscillates);
    let overshoot = wd.filter(|_| s.initial_velocity() == 0.0 && s.from() != s.to());
    SpringFigures {
        damping_ratio: zeta,
        regime,
        natural_frequency: w0,
        natural_frequency_hz: w0 / (2.0 * PI),
        damped_frequency: wd,
        period: wd.map(|w| 2.0 * PI / w),
        perceptual_duration: 2.0 * PI / w0,
        bounce: if zeta <= 1.0 {
            1.0 - zeta
        } else {
            1.0 / zeta - 1.0
        },
        overshoot: overshoot.map(|wd| {
            let fraction = libm::exp(-zeta * PI / (1.0 - zeta * zeta).sqrt());
            Overshoot {
                percent: 100.0 * fraction,
                units: fraction * (s.to() - s.from()).abs(),
                time: Some(PI / wd),
                source: CLOSED_FORM,
            }
        }),
    }
}

fn decay_figures(d: &Decay, solved: Option<&SolvedDecay>) -> DecayFigures {
    DecayFigures {
        initial_velocity: d.initial_velocity(),
        lambda: d.lambda(),
        time_constant: (d.lambda() > 0.0).then(|| 1.0 / d.lambda()),
        branch: solved.map(|s| s.branch().name()),
        end_velocity: solved.map(|s| curvebake_motion::Motion::velocity(s, s.duration())),
    }
}

/// Per track: (endpoints, resting value, decay figures).
type TrackModel = (Option<(f64, f64)>, Option<f64>, Option<DecayFigures>);

fn track_models(model: &Model) -> Vec<TrackModel> {
    let solved = |s: &SolvedDecay| {
        (
            (s.decay().from() != s.to()).then(|| (s.decay().from(), s.to())),
            s.decay().rest_position(),
            Some(decay_figures(s.decay(), Some(s))),
        )
    };
    match model {
        Model::Ring(r) => vec![solved(r.inner()), solved(r.outer())],
        Model::SolvedDecay(s) => vec![solved(s)],
        Model::Decay(d) => vec![(None, d.rest_position(), Some(decay_figures(d, None)))],
        Model::Spring(s) => vec![(model.endpoints(), s.rest_position(), None)],
        Model::Friction { friction, .. } => {
            vec![(model.endpoints(), friction.rest_position(), None)]
        }
        Model::Bounce(b) => vec![(model.endpoints(), b.rest_position(), None)],
        Model::Gravity(_) | Model::GravityTo { .. } => vec![(model.endpoints(), None, None)],
        Model::Inertia(m) => vec![(model.endpoints(), m.rest_position(), None)],
        Model::Sequence(m) => vec![(model.endpoints(), m.rest_position(), None)],
        Model::Tracks(t) => t
            .tracks()
            .iter()
            .flat_map(|k| {
                let mut models = track_models(&k.model);
                // A track holds the value it ends on: a solved decay's is its `to` (its
                // decay would rest past it, had it run on).
                if let Model::SolvedDecay(s) = &k.model {
                    models[0].1 = Some(s.to());
                }
                models
            })
            .collect(),
    }
}

/// Overshoot past `to` on the way from `from`, from the frames.
fn overshoot_from_frames(baked: &Baked, position: &[f64], (from, to): (f64, f64)) -> Overshoot {
    let direction = (to - from).signum();
    let (mut best, mut at) = (0.0, None);
    for (i, &x) in position.iter().enumerate() {
        let past = (x - to) * direction;
        if past > best {
            best = past;
            at = Some(baked.time(i));
        }
    }
    Overshoot {
        percent: 100.0 * best / (to - from).abs(),
        units: best,
        time: at,
        source: FROM_FRAMES,
    }
}

/// The sparkline of each track, on one scale.
fn sparklines(baked: &Baked, columns: usize, shared: bool) -> Vec<String> {
    let range = |tracks: &mut dyn Iterator<Item = &curvebake_model::bake::Track>| {
        tracks
            .flat_map(|t| t.position.iter())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            })
    };
    let all = range(&mut baked.tracks.iter());
    let last = baked.frames() - 1;
    baked
        .tracks
        .iter()
        .map(|track| {
            let (lo, hi) = if shared {
                all
            } else {
                range(&mut std::iter::once(track))
            };
            (0..columns)
                .map(|c| {
                    // Column c shows the position at t = c/(columns-1)·D, between frames
                    // interpolated linearly, as every export plays it.
                    let t = baked.duration * c as f64 / (columns - 1).max(1) as f64;
                    let f = (t * baked.spec.fps).min(last as f64);
                    let i = (f.floor() as usize).min(last);
                    let x = if i == last {
                        track.position[last]
                    } else {
                        let (t0, t1) = (baked.time(i), baked.time(i + 1));
                        let w = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
                        track.position[i] + w * (track.position[i + 1] - track.position[i])
                    };
                    let level = if hi > lo {
                        ((x - lo) / (hi - lo) * 7.0).round().clamp(0.0, 7.0) as usize
                    } else {
                        0
                    };
                    LEVELS[level]
                })
                .collect()
        })
        .collect()
}

/// The figures of a baked motion.
pub fn inspect(baked: &Baked) -> Inspection {
    let spec = baked.spec;
    let model = &spec.model;
    // A multi-track motion's tracks are in different units: each sparkline on its own scale.
    // A multi-track motion's property, unit and rest thresholds are its tracks' own.
    let own = !matches!(spec.model, Model::Tracks(_));
    let lines = sparklines(baked, SPARKLINE_COLUMNS, own);
    let tracks = baked
        .tracks
        .iter()
        .zip(track_models(model))
        .zip(lines)
        .enumerate()
        .map(|(k, ((track, from_model), sparkline))| {
            track_figures(baked, k, track, from_model, sparkline)
        })
        .collect();
    Inspection {
        name: spec.name.clone(),
        file: None,
        kind: model.kind(),
        property: (own && !matches!(model, Model::Ring(_)))
            .then(|| spec.property.name().to_owned()),
        unit: own.then(|| spec.unit.clone()),
        fps: spec.fps,
        duration: baked.duration,
        frames: baked.frames(),
        ending: match spec.ending {
            Ending::Rests => "rests",
            Ending::Fixed(_) => "fixed",
            Ending::Arrives(_) => "arrives",
        },
        rest_delta: own.then_some(spec.rest_delta),
        rest_speed: own.then_some(spec.rest_speed),
        end_delta: own.then(|| model.end_delta(spec.rest_delta)),
        params: Params(model.params()),
        spring: match model {
            Model::Spring(s) => Some(spring_figures(s)),
            _ => None,
        },
        friction: match model {
            Model::Friction { friction, .. } => Some(FrictionFigures {
                friction: friction.friction(),
                lambda: friction.lambda(),
                rest_position: friction.rest_position(),
                rest_time: friction.rest_time(spec.rest_speed),
            }),
            _ => None,
        },
        gravity: gravity_figures(model),
        inertia: match model {
            Model::Inertia(m) => Some(inertia_figures(m)),
            _ => None,
        },
        steps: match model {
            Model::Sequence(s) => Some(step_figures(s)),
            _ => None,
        },
        settle_time: model.settle_time(model.end_delta(spec.rest_delta), spec.rest_speed),
        looks_done: looks_done(baked),
        tracks,
    }
}

/// The figures of track `k` of `baked`: its frames' extremes, overshoot, peak speed and
/// when they rest, beside what `from_model` (as [`track_models`] gives it) says.
fn track_figures(
    baked: &Baked,
    k: usize,
    track: &Track,
    (endpoints, resting_value, decay): TrackModel,
    sparkline: String,
) -> TrackFigures {
    let rest = *track.position.last().expect("a bake has frames");
    let (unit, rest_delta, rest_speed) = rest_thresholds(baked.spec, k);
    let at_rest_from = (baked.spec.ending == Ending::Rests)
        .then(|| at_rest_from(baked, track, rest, (rest_delta, rest_speed)));
    TrackFigures {
        name: track.name,
        unit,
        rest_delta,
        rest_speed,
        start: track.position[0],
        end: rest,
        min: track.position.iter().copied().fold(f64::INFINITY, f64::min),
        max: track
            .position
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max),
        resting_value,
        overshoot: endpoints.map(|e| overshoot_from_frames(baked, &track.position, e)),
        peak_speed: peak_speed(baked, track),
        at_rest_from,
        decay,
        sparkline,
    }
}

/// Unit, rest delta and rest speed of track `k`: a multi-track motion's own for each track,
/// else the motion's.
fn rest_thresholds(spec: &MotionSpec, k: usize) -> (String, f64, f64) {
    let motion = || (spec.unit.clone(), spec.rest_delta, spec.rest_speed);
    match &spec.model {
        Model::Tracks(multi) => multi
            .tracks()
            .get(k)
            .map(|t| (t.unit.clone(), t.rest_delta, t.rest_speed))
            .unwrap_or_else(motion),
        _ => motion(),
    }
}

/// The fastest frame of `track`, by |velocity| (the first of equals).
fn peak_speed(baked: &Baked, track: &Track) -> PeakSpeed {
    let (mut speed, mut time) = (0.0f64, 0.0);
    for (i, v) in track.velocity.iter().enumerate() {
        if v.abs() > speed {
            speed = v.abs();
            time = baked.time(i);
        }
    }
    PeakSpeed {
        speed,
        time,
        source: FROM_FRAMES,
    }
}

/// The first frame time from which every frame of `track` is within `rest_delta` of `rest`
/// and slower than `rest_speed` (the last frame's time when only it is).
fn at_rest_from(
    baked: &Baked,
    track: &Track,
    rest: f64,
    (rest_delta, rest_speed): (f64, f64),
) -> f64 {
    let settled = |i: usize| {
        (track.position[i] - rest).abs() <= rest_delta && track.velocity[i].abs() <= rest_speed
    };
    let first = (0..baked.frames())
        .rev()
        .take_while(|&i| settled(i))
        .last()
        .unwrap_or(baked.frames() - 1);
    baked.time(first)
}

fn gravity_figures(model: &Model) -> Option<GravityFigures> {
    let (g, arrival, bounce) = match model {
        Model::Gravity(g) => (g, None, None),
        Model::GravityTo {
            gravity, arrival, ..
        } => (gravity, Some(*arrival), None),
        Model::Bounce(b) => (b.fall(), None, Some(b)),
        _ => return None,
    };
    let (v, a) = (g.initial_velocity(), g.acceleration());
    // The velocity reverses at t = -v0/a when it starts against the acceleration.
    let apex_time = (v * a < 0.0).then(|| -v / a);
    Some(GravityFigures {
        acceleration: a,
        apex_time,
        apex: apex_time.map(|t| curvebake_motion::Motion::position(g, t)),
        arrival,
        first_impact: bounce.map(|b| b.first_impact()),
        restitution: bounce.map(|b| b.restitution()),
        bounces_end: bounce.map(|b| b.end_time()),
    })
}
