//! `play`: a module's motion taking input at run time (any from and to, an initial velocity,
//! retargets, flings), through the shared runtime `js/runtime.js` ([`RUNTIME`], whose source
//! is `runtime.js` beside this file).
//!
//! A module whose motion allows it ends with `export function play(element, input)`, which
//! hands the runtime the baked motion's closed form (its parameters) and how to write a
//! keyframe of its property; the runtime evaluates the closed form once per start or retarget
//! into stops, played linearly between them by one Web Animation (two keyframes, the property
//! at 0 and at 1, and a `linear()` easing carrying the stops' values), placed so that the
//! played value is within [`tolerance`] of the closed form at every instant (the chord bound
//! h²/8·max|x''| with |x''| bounded by the decay envelope; see the runtime's opening comment).
//! Nothing runs per frame.
//!
//! Which motions take input, in closed form:
//! - a spring (every form, resolved to mass, stiffness and damping): x(t) = to + (from -
//!   to)·s(t) + v0·g(t) is linear in its ends and velocity; a retarget is the spring from the
//!   exact position and velocity of that instant;
//! - friction, a decay with λ > 0 and inertia (bounds, snap points): a fling, x = from +
//!   v0·t·hex(-λt), onto the snap point nearest its free rest (λ' = v0/(p - from) while p is
//!   ahead and λ' >= λ/[`GLIDE`](curvebake_motion::GLIDE), else the bounce spring to it) or
//!   into a bound (hit at -log1p(-λ(B - from)/v0)/λ, then the bounce spring);
//! - gravity without a floor: x = from + v0·t + a·t²/2, ending on reaching `to` if it has one.
//!
//! The others say why not ([`Playable::Not`]).

use super::module::Target;
use curvebake_model::bake::Baked;
use curvebake_model::number::{write_fixed, write_json_f64};
use curvebake_model::spec::Model;
use curvebake_motion::{DEFAULT_BOUNCE_DAMPING, DEFAULT_BOUNCE_STIFFNESS};

/// The runtime every `play` imports: closed forms, the placement of stops, the handle.
pub const RUNTIME: &str = include_str!("runtime.js");

/// Path of the runtime in the package.
pub const RUNTIME_PATH: &str = "js/runtime.js";

/// How a motion takes input at run time.
#[derive(Debug, Clone, PartialEq)]
pub enum Playable {
    /// A spring; `play(element, {from, to, velocity})`.
    Spring,
    /// A fling (friction, decay, inertia); `play(element, {from, velocity, to, snap, min, max})`.
    Fling,
    /// Gravity without a floor; `play(element, {from, velocity, to})`.
    Gravity,
    /// No `play`, and why.
    Not(&'static str),
}

/// The motion's baked closed form as the runtime's `b` ([`Playable`], and the fields of the
/// object it reads), or why it has none.
fn parameters(baked: &Baked) -> (Playable, Vec<(&'static str, Option<f64>)>) {
    // A fling's friction rate and its bounce spring (mass 1).
    let fling = |from, velocity, lambda: f64, (stiffness, damping)| {
        vec![
            ("from", Some(from)),
            ("velocity", Some(velocity)),
            ("lambda", Some(lambda)),
            ("stiffness", Some(stiffness)),
            ("damping", Some(damping)),
        ]
    };
    let bounce = (DEFAULT_BOUNCE_STIFFNESS, DEFAULT_BOUNCE_DAMPING);
    match &baked.spec.model {
        Model::Spring(s) => (
            Playable::Spring,
            vec![
                ("from", Some(s.from())),
                ("to", Some(s.to())),
                ("velocity", Some(s.initial_velocity())),
                // Per unit of mass, as the runtime's springs take them.
                ("stiffness", Some(s.stiffness() / s.mass())),
                ("damping", Some(s.damping() / s.mass())),
            ],
        ),
        Model::Friction { friction, .. } => {
            let d = friction.decay();
            (
                Playable::Fling,
                fling(d.from(), d.initial_velocity(), d.lambda(), bounce),
            )
        }
        Model::Decay(d) if d.lambda() > 0.0 => (
            Playable::Fling,
            fling(d.from(), d.initial_velocity(), d.lambda(), bounce),
        ),
        Model::Decay(_) => (
            Playable::Not("a decay with lambda <= 0 never comes to rest"),
            vec![],
        ),
        Model::Inertia(i) => {
            let p = i.params();
            let spring = (p.bounce_stiffness, p.bounce_damping);
            let mut fields = fling(p.from, p.velocity, i.lambda(), spring);
            fields.push(("min", p.min));
            fields.push(("max", p.max));
            (Playable::Fling, fields)
        }
        Model::Gravity(g) => (
            Playable::Gravity,
            vec![
                ("from", Some(g.from())),
                ("velocity", Some(g.initial_velocity())),
                ("acceleration", Some(g.acceleration())),
            ],
        ),
        Model::GravityTo { gravity: g, to, .. } => (
            Playable::Gravity,
            vec![
                ("from", Some(g.from())),
                ("velocity", Some(g.initial_velocity())),
                ("acceleration", Some(g.acceleration())),
                ("to", Some(*to)),
            ],
        ),
        Model::Bounce(_) => (
            Playable::Not("its bounces on the floor are fixed by the baked start"),
            vec![],
        ),
        Model::SolvedDecay(_) => (
            Playable::Not(
                "it is solved from its end (to, end_velocity, duration); a Friction or a Decay with lambda > 0 takes input",
            ),
            vec![],
        ),
        Model::Ring(_) => (
            Playable::Not("a ring's two radii are solved from their ends"),
            vec![],
        ),
        Model::Sequence(_) => (
            Playable::Not("a sequence's hand-offs are fixed by its baked pieces"),
            vec![],
        ),
        Model::Tracks(_) => (
            Playable::Not("it moves several properties at once; bake each as its own motion to play it with input"),
            vec![],
        ),
    }
}

/// How the motion takes input at run time, or why it cannot.
pub fn playable(baked: &Baked) -> Playable {
    parameters(baked).0
}

/// The longest a start plays, seconds (the runtime's `cap`): the baked duration for a motion
/// that never rests (no damping, friction 1, gravity that never reaches its `to`), else (a
/// decay cut at its duration too: played, it rests) the
/// longer of it and [`LONGEST_PLAY_SECONDS`], so that a spring all but undamped (which would
/// take hours to rest, in millions of stops) stops where it is then, as one that never rests
/// does at its duration.
fn longest_play(baked: &Baked) -> f64 {
    let spec = baked.spec;
    let rests = match &spec.model {
        // Played, a decay glides to rest (and springs onto a `to`), although its bake is cut
        // at its duration.
        Model::Decay(d) => d.lambda() > 0.0,
        model => (model.settle_time(spec.rest_delta, spec.rest_speed)).is_some(),
    };
    if rests {
        baked.duration.max(LONGEST_PLAY_SECONDS)
    } else {
        baked.duration
    }
}

/// How long a start of a motion that rests may play at most, unless baked longer: a minute,
/// past the rest of the motions people play (a spring of damping ratio 0.05 and a period of
/// 1 s comes from 1,000 px to within 0.02 px of rest in 35 s, e^(-ζω0·t)).
pub const LONGEST_PLAY_SECONDS: f64 = 60.0;

/// The share of the bound `play` keeps (0.1 px, 0.001 unitless) that its chords and its hold
/// at rest may take, as the runtime's `tol`: the rest is for floats (see `runtime.js`, the
/// bound).
pub const CHORD_SHARE: f64 = 0.9;

/// The bound the runtime keeps the played value within: 0.1 in px, %, deg and the other
/// units whose values have 4 decimals, 0.001 unitless (ten times the CSS's precision target).
pub fn tolerance(unit: &str) -> f64 {
    10.0 * crate::css::value_precision(unit).0
}

/// The snap points of a friction snap (its `to`) or an inertia.
fn snap(model: &Model) -> Option<Vec<f64>> {
    match model {
        Model::Friction {
            snap_to: Some(to), ..
        } => Some(vec![*to]),
        Model::Inertia(i) if !i.params().snap.is_empty() => Some(i.params().snap.clone()),
        _ => None,
    }
}

/// `[{translate: "0 0px"}, {translate: "0 1px"}]`: the two keyframes of the motion's property
/// that `play` animates between (its easing carries the values: x plays as the value x).
fn keyframes(out: &mut Vec<u8>, target: &Target, unit: &str) {
    out.push(b'[');
    for (i, value) in [b'0', b'1'].into_iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        out.push(b'{');
        match target {
            Target::Transform(before) => out.extend_from_slice(before.as_bytes()),
            Target::Opacity => out.extend_from_slice(b"opacity: \""),
            Target::Custom(name) => {
                super::module::string(out, name);
                out.extend_from_slice(b": \"");
            }
            Target::Part { .. } => unreachable!("a motion of several tracks has no play"),
        }
        out.push(value);
        out.extend_from_slice(unit.as_bytes());
        out.extend_from_slice(b"\"}");
    }
    out.push(b']');
}

/// The `play` section that ends a module: the import of the runtime and `play`, or a comment
/// saying why the motion has none.
pub fn section(baked: &Baked, targets: &[Target], registers: bool) -> Vec<u8> {
    let (playable, fields) = parameters(baked);
    let mut out = Vec::with_capacity(1024);
    if let Playable::Not(why) = playable {
        out.extend_from_slice(b"\n// No `play` (input at run time): ");
        out.extend_from_slice(why.as_bytes());
        out.extend_from_slice(b".\n");
        return out;
    }
    let spec = baked.spec;
    let unit = super::value_unit(baked);
    out.extend_from_slice(
        b"\nimport { play as run } from \"./runtime.js\";\n\
          \n\
          /** What `play` starts from: the baked input and motion (a spring's per unit of mass), the\n\
          \x20* property at 0 and 1, the chords' share of the bound; the runtime keeps the motion's\n\
          \x20* effect and its query of reduced motion here, made at its first start. */\n\
          const playable = {",
    );
    for (i, (name, value)) in fields.iter().enumerate() {
        if let Some(value) = value {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b": ");
            write_json_f64(&mut out, *value);
        }
    }
    if let Some(points) = snap(&spec.model) {
        out.extend_from_slice(b", snap: [");
        for (i, p) in points.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            write_json_f64(&mut out, *p);
        }
        out.push(b']');
    }
    out.extend_from_slice(b",\n  keyframes: ");
    keyframes(&mut out, &targets[0], unit);
    out.extend_from_slice(b", tol: ");
    // To 12 decimals, as a person writes it (0.09, not the product's 0.09000000000000001).
    write_fixed(&mut out, CHORD_SHARE * tolerance(unit), 12);
    out.extend_from_slice(
        b", keep: reducedMotion === \"keep\",\n  fade: reducedMotion === \"fade\" ? fadeIn : null, cap: ",
    );
    write_json_f64(&mut out, longest_play(baked));
    out.extend_from_slice(
        b"};\n\
          \n\
          /** Plays the motion on `element` with input (each defaulting to the baked value; velocity\n\
          \x20* in units per second), stops computed once from its closed form, played within `tol` of it\n\
          \x20* at every instant; the handle retargets, reads the exact position and velocity, and ends.\n\
          \x20* Under `prefers-reduced-motion: reduce` it follows `reducedMotion`, as `animate` does. */\n\
          export function play(element, input) {\n",
    );
    if registers {
        out.extend_from_slice(b"  registerProperties();\n");
    }
    out.extend_from_slice(b"  return run(element, input, playable);\n}\n");
    out
}

/// The declaration of `play` in the module's types, or the comment saying why it has none.
pub fn types(baked: &Baked) -> String {
    let input = match playable(baked) {
        Playable::Spring => "SpringInput",
        Playable::Fling => "FlingInput",
        Playable::Gravity => "GravityInput",
        Playable::Not(why) => return format!("\n// No `play` (input at run time): {why}.\n"),
    };
    format!(
        "\nimport type {{ Playing, {input} }} from \"./motion.js\";\n\
         export type {{ Playing, {input} }};\n\
         \n/** Plays the motion with input (each defaulting to the baked value), exact within the\n\
         \x20* module's bound at every instant, with no per-frame script; see `Playing`. */\n\
         export declare function play(element: Element, input?: {input}): Playing;\n"
    )
}
