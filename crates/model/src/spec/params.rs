//! A model's parameters as the outputs write them: grouped ([`ParamGroup`]; a spring's
//! equivalents in every platform's form, a ring's radii, a sequence's steps, each track), and
//! the unit each is in ([`param_unit`]).

use super::{sequence, Model, Sequence};
use curvebake_motion::{
    Decay, Equivalents, Gravity, Inertia, InertiaCase, Motion, SolvedDecay, Spring,
};

impl Model {
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
