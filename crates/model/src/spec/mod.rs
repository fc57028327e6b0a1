//! Validated motion specifications: a [`crate::source::schema::MotionFile`] checked field by
//! field and resolved into a closed-form [`Model`].
//!
//! This module is the door: each job has its own module, and everything public is re-exported
//! here (`curvebake_model::spec::X`). `motion_spec` validates a motion from its file,
//! `resolve` turns its `motion` into a [`Model`] (`model`), `params` writes a model's
//! parameters, `names`, `property`, `units` and `spring_form` check what they name,
//! `field_error` is the error; `sequence` and `tracks` the composite motions, `variables` the
//! custom properties each motion's CSS puts on the page.

mod field_error;
mod model;
mod motion_spec;
mod names;
mod params;
mod property;
mod resolve;
mod sequence;
mod spring_form;
mod tracks;
mod units;
mod variables;

pub use field_error::FieldError;
pub use model::{Ending, Kink, Model, TrackEnd, END_STEP};
pub use motion_spec::{MotionSpec, Overrides, ReducedMotion, REDUCED_FADE_SECONDS};
pub use names::{
    check_motion_name, check_name, check_prefix, CSS_KEYWORDS, MAX_NAME_LEN, MAX_PREFIX_LEN,
    RESERVED_NAMES, WINDOWS_DEVICE_NAMES,
};
pub use params::{param_unit, ParamGroup};
pub use property::Property;
pub use resolve::{check_fps, DEFAULT_FPS, MAX_DURATION_SECONDS, MAX_FPS, MIN_FPS};
pub use sequence::{Sequence, Step, MAX_STEPS};
pub use spring_form::{OptionalField, WrittenForm, SPRING_FORMS};
pub use tracks::{animated_property, Track, Tracks};
pub use units::{
    played, rest_defaults, unit, unit_kind, Played, Unit, UnitKind, PLAYED_LARGE_UNITS,
    PLAYED_PERCENT, PLAYED_SMALL_UNITS, REST_FOR_PIXELS, REST_FOR_UNITLESS, REST_FOR_UNITS, UNITS,
};
pub use variables::{Clash, Made, Variable, Variables};

// What the composite motions' modules share with the rest of validation.
use property::property_and_unit_of;
use resolve::{optional_duration, optional_positive, resolve};
