//! The custom properties (`--name`) a motion's CSS puts on the page: those it makes for
//! itself (`--<name>-duration`, `--<name>-easing`, `--<name>-from`, `--<name>-to`, a spring's
//! `--<name>-velocity`, a ring's radii, a multi-track motion's per-track ones) and the one it
//! animates (`property: "--glow"`). They share one page, so two motions meeting on one name
//! would break each other: a motion's own `--b-duration`
//! registered as a length stops motion `b`, and `--glow` registered as a length by one motion
//! and as an angle by another animates in only one of them. [`Variables`] finds such a
//! meeting; the only one allowed is two motions animating one custom property in units of
//! one kind (their `@property` rules agree).
//!
//! The same holds for the `@keyframes` names: a motion's own (its name), and those it makes
//! beside it (`<name>-fade` for a reduced-motion fade, `<name>-velocity` for a CSS velocity),
//! which another motion's name must not be.
//!
//! Names are compared without the bake's `--prefix`, which every one of them carries alike.

use super::{unit_kind, Model, MotionSpec, Property, ReducedMotion};
use std::collections::hash_map::{Entry, HashMap};

/// What a motion does with one custom property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Use {
    /// The motion's CSS makes it for itself: what it holds (`duration`, `easing`, ...).
    Made(String),
    /// The motion animates it as its property, registered for values of this unit.
    Animated(String),
}

impl Use {
    /// What the motion does with `--name`, after the field it comes from (`property
    /// "--glow" in px`, `name, which makes --b-duration (its duration),`).
    fn ours(&self, name: &str) -> String {
        match self {
            Self::Made(what) => format!(", which makes --{name} ({what}),"),
            Self::Animated(unit) if unit.is_empty() => format!(" \"--{name}\" as a number"),
            Self::Animated(unit) => format!(" \"--{name}\" in {unit}"),
        }
    }

    /// What another motion does with it: `animates it in deg`, `makes it (its duration)`.
    fn theirs(&self) -> String {
        match self {
            Self::Made(what) => format!("makes it ({what})"),
            Self::Animated(unit) if unit.is_empty() => "animates it as a number".into(),
            Self::Animated(unit) => format!("animates it in {unit}"),
        }
    }

    /// Whether two motions may both use one property this way: only by animating it in
    /// units of one kind (their `@property` rules agree).
    fn agrees(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Animated(a), Self::Animated(b)) => unit_kind(a) == unit_kind(b),
            _ => false,
        }
    }
}

impl MotionSpec {
    /// Every custom property the motion's CSS puts on the page (name without `--` and
    /// without the prefix), with what it does with it.
    pub fn variables(&self) -> Vec<(String, Use)> {
        let name = &self.name;
        let made = |suffix: &str, what: &str| (format!("{name}-{suffix}"), Use::Made(what.into()));
        match &self.model {
            Model::Tracks(_) => {
                let mut variables = Vec::new();
                for animation in self.track_animations() {
                    let p = animation.suffix;
                    if animation.ends {
                        variables.push(made(
                            &format!("{p}-from"),
                            &format!("its {p} track's start"),
                        ));
                        variables.push(made(&format!("{p}-to"), &format!("its {p} track's end")));
                    }
                    variables.push(made(
                        &format!("{p}-duration"),
                        &format!("its {p} track's duration"),
                    ));
                    if animation.eased {
                        variables.push(made(
                            &format!("{p}-easing"),
                            &format!("its {p} track's easing"),
                        ));
                    }
                }
                variables
            }
            model => {
                let mut variables = vec![
                    made("duration", "its duration"),
                    made("easing", "its easing"),
                ];
                // A motion from one value to another: its CSS keyframes read the ends from
                // `--<name>-from` and `--<name>-to` (the baked values by default), unless it
                // animates a custom property (whose keyframes stay plain numbers).
                if model.endpoints().is_some() && !matches!(self.property, Property::Custom(_)) {
                    variables.push(made("from", "its start"));
                    variables.push(made("to", "its end"));
                }
                if self.css_velocity() {
                    variables.push(made("velocity", "its initial velocity"));
                    variables.push(made("velocity-easing", "its velocity's easing"));
                }
                if let Model::Ring(_) = model {
                    variables.push(made("inner", "its inner radius"));
                    variables.push(made("outer", "its outer radius"));
                }
                if let Property::Custom(property) = &self.property {
                    variables.push((
                        property.trim_start_matches('-').to_owned(),
                        Use::Animated(self.unit.clone()),
                    ));
                }
                variables
            }
        }
    }
}

/// One animation of a multi-track motion's class: `<name>-<suffix>`, its keyframes, class
/// and variables.
struct TrackAnimation<'a> {
    /// The property it animates: a track's, or `translate` for translateX and translateY
    /// together (one animation with per-stop keyframes).
    suffix: &'a str,
    /// Whether its keyframes read their ends from `--<name>-<suffix>-from` and `-to`.
    ends: bool,
    /// Whether `--<name>-<suffix>-easing` may time it.
    eased: bool,
}

impl MotionSpec {
    /// The animations of a multi-track motion's class, in track order (none for any other
    /// motion).
    fn track_animations(&self) -> Vec<TrackAnimation<'_>> {
        let Model::Tracks(tracks) = &self.model else {
            return Vec::new();
        };
        let tracks = tracks.tracks();
        let is_translate = |p: &Property| matches!(p, Property::TranslateX | Property::TranslateY);
        let translates = tracks.iter().filter(|t| is_translate(&t.property)).count();
        let mut animations = Vec::new();
        for track in tracks {
            if translates == 2 && is_translate(&track.property) {
                if track.property == Property::TranslateX {
                    animations.push(TrackAnimation {
                        suffix: "translate",
                        ends: false,
                        eased: false,
                    });
                }
                continue;
            }
            animations.push(TrackAnimation {
                suffix: track.property.name(),
                ends: track.model.endpoints().is_some()
                    && !matches!(track.property, Property::Custom(_)),
                eased: true,
            });
        }
        animations
    }

    /// Every `@keyframes` name the motion's CSS puts on the page (without the prefix), with
    /// what it plays: its own name, and those it makes beside it.
    pub fn keyframes_names(&self) -> Vec<(String, &'static str)> {
        let name = &self.name;
        let mut names = vec![(name.clone(), "its animation")];
        for animation in self.track_animations() {
            names.push((
                format!("{name}-{}", animation.suffix),
                "a track's animation",
            ));
        }
        if self.reduced_motion == ReducedMotion::Fade {
            names.push((format!("{name}-fade"), "its reduced-motion fade"));
        }
        if self.css_velocity() {
            names.push((format!("{name}-velocity"), "its velocity's animation"));
        }
        names
    }
}

/// The custom properties of the motions admitted so far, each with the first motion that uses
/// it and how, and their `@keyframes` names alike.
#[derive(Debug, Default)]
pub struct Variables {
    taken: HashMap<Box<str>, (Box<str>, Use)>,
    keyframes: HashMap<Box<str>, (Box<str>, &'static str)>,
}

/// Two motions meeting on one custom property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    /// The earlier motion.
    pub other: String,
    /// The later motion's field, what it does and the clash, to be followed by where the
    /// earlier motion is (`property "--b-duration" in px clashes with motion "b"`).
    pub ours: String,
    /// What the earlier motion does and what to do, to follow where it is (`which makes it
    /// (its duration): ...`).
    pub theirs: String,
}

impl Variables {
    /// The first clash of `spec`'s custom properties with those of the motions admitted so
    /// far, or with one another (`property: "--b-duration"` on motion `b`), if any (nothing is
    /// recorded then); else records them.
    pub fn admit(&mut self, spec: &MotionSpec) -> Result<(), Clash> {
        let keyframes = spec.keyframes_names();
        for (name, what) in &keyframes {
            if let Some((other, theirs)) = self.keyframes.get(name.as_str()) {
                let ours = if *name == spec.name {
                    "name".to_owned()
                } else {
                    format!("name, which makes @keyframes {name} ({what}),")
                };
                return Err(Clash {
                    other: other.to_string(),
                    ours: format!("{ours} clashes with motion {other:?}"),
                    theirs: format!(
                        "which makes it ({theirs}): the page has one @keyframes {name}; rename one \
                         of the motions"
                    ),
                });
            }
        }
        let variables = spec.variables();
        let mut own: HashMap<&str, &Use> = HashMap::new();
        for (name, used) in &variables {
            let earlier = match self.taken.get(name.as_str()) {
                Some((other, theirs)) => Some((&**other, theirs)),
                None => own.get(name.as_str()).map(|&u| (spec.name.as_str(), u)),
            };
            own.insert(name, used);
            let Some((other, theirs)) = earlier else {
                continue;
            };
            if used.agrees(theirs) {
                continue;
            }
            let (field, advice) = match (used, theirs) {
                (Use::Animated(_), Use::Animated(_)) => (
                    "property",
                    "an @property rule has one syntax; use units of one kind, or another property",
                ),
                (Use::Animated(_), Use::Made(_)) => {
                    ("property", "rename the property or that motion")
                }
                (Use::Made(_), _) => ("name", "rename one of the motions"),
            };
            return Err(Clash {
                other: other.to_string(),
                ours: format!("{field}{} clashes with motion {other:?}", used.ours(name)),
                theirs: format!(
                    "which {}: the page has one --{name}; {advice}",
                    theirs.theirs()
                ),
            });
        }
        for (name, used) in variables {
            if let Entry::Vacant(slot) = self.taken.entry(name.into()) {
                slot.insert((spec.name.as_str().into(), used));
            }
        }
        for (name, what) in keyframes {
            self.keyframes
                .insert(name.into(), (spec.name.as_str().into(), what));
        }
        Ok(())
    }
}
