//! A validated motion ready to bake ([`MotionSpec`]): its name, property, unit, frame rate,
//! rest thresholds, tolerances, reduced-motion policy and model, checked field by field from
//! its file ([`MotionSpec::from_file`]), and the settings every motion of a bake shares
//! ([`Overrides`]).

use super::property::property_and_unit;
use super::resolve::{fps, model_and_ending, optional_duration, optional_positive};
use super::{check_motion_name, rest_defaults, Ending, FieldError, Model, Property, TrackEnd};
use crate::source::schema::MotionFile;
use curvebake_motion::number;

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

/// Settings that apply to every motion of a bake.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overrides {
    /// Frame rate that replaces every motion's own.
    pub fps: Option<f64>,
    /// Leaves out each motion's text ([`MotionSpec::text`]), which only the design tokens
    /// carry: finding it is a second pass over the file, and a copy of it.
    pub without_texts: bool,
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
