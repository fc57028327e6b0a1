//! The RON input format, exactly as people write it. Strict: unknown fields are errors.
//!
//! A file holds one motion `( ... )` or a list `[ ( ... ), ... ]`. Numbers may be written
//! `300` or `300.0`; optional fields need no `Some(...)`.

use serde::Deserialize;

/// One motion as written in a `.ron` file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionFile {
    /// CSS @keyframes name and output file stem.
    pub name: String,
    /// `translateX` (default), `translateY`, `scale`, `rotate`, `opacity`, or `--custom`.
    pub property: Option<String>,
    /// Unit of the values; default from the property.
    pub unit: Option<String>,
    /// Frames per second; default 60.
    pub fps: Option<f64>,
    /// Bake length in seconds.
    pub duration: Option<f64>,
    /// Distance from rest that counts as resting.
    pub rest_delta: Option<f64>,
    /// Speed that counts as resting.
    pub rest_speed: Option<f64>,
    /// Largest distance (in the unit) the CSS may stray from a frame; default
    /// `--css-tolerance`.
    pub tolerance: Option<f64>,
    /// Largest distance the CSS may stray from a frame, as a fraction of the motion's range.
    pub relative_tolerance: Option<f64>,
    /// What `prefers-reduced-motion: reduce` does: `"jump"`, `"fade"` or `"keep"`.
    pub reduced_motion: Option<String>,
    /// Whether its CSS takes an initial velocity from `--<name>-velocity` (a spring on
    /// translateX or translateY; default false: it doubles the spring's CSS).
    pub css_velocity: Option<bool>,
    /// The motion itself (or `tracks`).
    pub motion: Option<MotionKind>,
    /// Several properties on one timeline, instead of `property` and `motion`.
    pub tracks: Option<Vec<TrackFile>>,
}

/// The motion variants and their fields (defaults as documented in `docs/guide/curves.md`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MotionKind {
    /// `Spring(from, to, velocity: 0, ...)` with exactly one form of parameters:
    /// `mass: 1, stiffness, damping` (physical), `perceptual_duration, bounce: 0` (SwiftUI,
    /// Flutter), `response, damping_fraction` (SwiftUI), `stiffness, damping_ratio, mass: 1`
    /// (Android, Compose), `visual_duration, bounce: 0` (motion.dev) or `origami_tension,
    /// origami_friction` (Origami, Rebound). See [`curvebake_motion::SpringForm`].
    Spring {
        /// Start position.
        /// (Required, except in a sequence step after the first, where it is not allowed.)
        from: Option<f64>,
        /// Rest position.
        to: f64,
        /// Initial velocity.
        velocity: Option<f64>,
        /// Mass (physical form).
        mass: Option<f64>,
        /// Stiffness (physical form).
        stiffness: Option<f64>,
        /// Damping (physical form).
        damping: Option<f64>,
        /// Perceptual duration in seconds (perceptual form).
        perceptual_duration: Option<f64>,
        /// Bounce: in (-1, 1) with `perceptual_duration`, in [0, 1] with `visual_duration`.
        bounce: Option<f64>,
        /// SwiftUI response in seconds (with `damping_fraction`).
        response: Option<f64>,
        /// SwiftUI damping fraction, the damping ratio (with `response`).
        damping_fraction: Option<f64>,
        /// Android/Compose damping ratio (with `stiffness`, `mass` optional).
        damping_ratio: Option<f64>,
        /// motion.dev visual duration in seconds (`bounce` optional).
        visual_duration: Option<f64>,
        /// Origami/Rebound tension (with `origami_friction`).
        origami_tension: Option<f64>,
        /// Origami/Rebound friction (with `origami_tension`).
        origami_friction: Option<f64>,
    },
    /// `Friction(from, velocity, friction)` or `Friction(from, to, velocity)` (snap).
    Friction {
        /// Start position.
        /// (Required, except in a sequence step after the first, where it is not allowed.)
        from: Option<f64>,
        /// Initial velocity.
        velocity: Option<f64>,
        /// Fraction of velocity kept per second.
        friction: Option<f64>,
        /// Where the snap form comes to rest.
        to: Option<f64>,
    },
    /// `Gravity(from, velocity: 0, acceleration, to: optional, restitution: optional)`.
    Gravity {
        /// Start position.
        /// (Required, except in a sequence step after the first, where it is not allowed.)
        from: Option<f64>,
        /// Initial velocity.
        velocity: Option<f64>,
        /// Constant acceleration.
        acceleration: f64,
        /// End position, or floor when bouncing.
        to: Option<f64>,
        /// Bounce restitution in [0, 1).
        restitution: Option<f64>,
    },
    /// `Decay(from, velocity, lambda)` or `Decay(from, to, end_velocity)`, both with `duration`.
    Decay {
        /// Start position.
        /// (Required, except in a sequence step after the first, where it is not allowed.)
        from: Option<f64>,
        /// Initial velocity (direct form).
        velocity: Option<f64>,
        /// Rate (direct form).
        lambda: Option<f64>,
        /// End position (solved form).
        to: Option<f64>,
        /// End velocity (solved form).
        end_velocity: Option<f64>,
    },
    /// `Inertia(from, velocity, friction, min, max, bounce_stiffness: 500, bounce_damping: 10,
    /// snap: [...])`: a fling that stops inside bounds or on a snap point
    /// (see [`curvebake_motion::Inertia`]).
    Inertia {
        /// Start position.
        /// (Required, except in a sequence step after the first, where it is not allowed.)
        from: Option<f64>,
        /// Initial velocity.
        velocity: Option<f64>,
        /// Fraction of velocity kept per second, in (0, 1].
        friction: f64,
        /// Lower bound.
        min: Option<f64>,
        /// Upper bound.
        max: Option<f64>,
        /// Stiffness of the bounce spring (mass 1); default 500.
        bounce_stiffness: Option<f64>,
        /// Damping of the bounce spring; default 10.
        bounce_damping: Option<f64>,
        /// Snap points (within the bounds).
        #[serde(default)]
        snap: Vec<f64>,
    },
    /// `Sequence([(motion: ..., duration: optional), ...])`: motions that hand over position
    /// and velocity exactly (see [`crate::spec::Sequence`]).
    Sequence(Vec<StepFile>),
    /// `ExplosionRing(inner: (from, to, end_velocity), outer: (...))` with `duration`.
    ExplosionRing {
        /// Inner radius.
        inner: RadiusFile,
        /// Outer radius.
        outer: RadiusFile,
    },
}

/// One track of a multi-track motion.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackFile {
    /// The animated property.
    pub property: String,
    /// The track's motion.
    pub motion: MotionKind,
    /// Unit of the values; default from the property.
    pub unit: Option<String>,
    /// Length of this track in seconds.
    pub duration: Option<f64>,
    /// Distance from rest that counts as resting.
    pub rest_delta: Option<f64>,
    /// Speed that counts as resting.
    pub rest_speed: Option<f64>,
}

/// One step of a sequence.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepFile {
    /// The step's motion; after the first step, without `from` and `velocity`.
    pub motion: MotionKind,
    /// Hand over after this many seconds (an interruption); without it, when the step rests
    /// or arrives.
    pub duration: Option<f64>,
}

/// One radius of an explosion ring.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadiusFile {
    /// Start radius.
    pub from: f64,
    /// End radius.
    pub to: f64,
    /// Radial velocity at the end.
    pub end_velocity: f64,
}
