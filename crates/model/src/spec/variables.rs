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
use crate::str_map::{Span, StrMap};

/// What a motion's CSS makes a custom property of its own for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// `-duration`.
    Duration,
    /// `-easing`.
    Easing,
    /// `-from`: the start its keyframes read.
    From,
    /// `-to`: the end its keyframes read.
    To,
    /// `-velocity`: a spring's initial velocity in CSS.
    Velocity,
    /// `-velocity-easing`.
    VelocityEasing,
    /// `-inner`: a ring's inner radius.
    Inner,
    /// `-outer`: a ring's outer radius.
    Outer,
}

impl Made {
    /// Every kind, in the order of their bits in a [`Deferred`] motion.
    const ALL: [Made; 8] = [
        Self::Duration,
        Self::Easing,
        Self::From,
        Self::To,
        Self::Velocity,
        Self::VelocityEasing,
        Self::Inner,
        Self::Outer,
    ];

    /// Its bit in a [`Deferred`] motion.
    fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The end of the property's name.
    fn suffix(self) -> &'static str {
        match self {
            Self::Duration => "duration",
            Self::Easing => "easing",
            Self::From => "from",
            Self::To => "to",
            Self::Velocity => "velocity",
            Self::VelocityEasing => "velocity-easing",
            Self::Inner => "inner",
            Self::Outer => "outer",
        }
    }

    /// What it holds.
    fn noun(self) -> &'static str {
        match self {
            Self::Duration => "duration",
            Self::Easing => "easing",
            Self::From => "start",
            Self::To => "end",
            Self::Velocity => "initial velocity",
            Self::VelocityEasing => "velocity's easing",
            Self::Inner => "inner radius",
            Self::Outer => "outer radius",
        }
    }
}

/// One custom property a motion's CSS puts on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variable<'a> {
    /// `--<name>-<suffix>`, or `--<name>-<track>-<suffix>` for a multi-track motion's
    /// animation of the property `track` (`translate` for x and y together).
    Made {
        /// The track's animation, if it is one's.
        track: Option<&'a str>,
        /// What it holds.
        what: Made,
    },
    /// The custom property it animates (`--glow` is `glow`), registered for values of this
    /// unit.
    Animated {
        /// The property, without `--`.
        property: &'a str,
        /// Its unit.
        unit: &'a str,
    },
}

impl Variable<'_> {
    /// Its name without `--` (and without the prefix) on the motion `motion`, into `out`.
    fn write_name(&self, motion: &str, out: &mut String) {
        out.clear();
        match self {
            Self::Made { track, what } => {
                out.push_str(motion);
                out.push('-');
                if let Some(track) = track {
                    out.push_str(track);
                    out.push('-');
                }
                out.push_str(what.suffix());
            }
            Self::Animated { property, .. } => out.push_str(property),
        }
    }
}

impl MotionSpec {
    /// Every custom property the motion's CSS puts on the page.
    pub fn variables(&self) -> Vec<Variable<'_>> {
        let mut variables = Vec::new();
        self.each_variable(|variable| variables.push(variable));
        variables
    }

    /// Calls `f` with every custom property the motion's CSS puts on the page, in the order
    /// of [`MotionSpec::variables`].
    fn each_variable<'a>(&'a self, mut f: impl FnMut(Variable<'a>)) {
        let mut made = |track, what| f(Variable::Made { track, what });
        match &self.model {
            Model::Tracks(_) => {
                for animation in self.track_animations() {
                    let track = Some(animation.suffix);
                    if animation.ends {
                        made(track, Made::From);
                        made(track, Made::To);
                    }
                    made(track, Made::Duration);
                    if animation.eased {
                        made(track, Made::Easing);
                    }
                }
            }
            model => {
                made(None, Made::Duration);
                made(None, Made::Easing);
                // A motion from one value to another: its CSS keyframes read the ends from
                // `--<name>-from` and `--<name>-to` (the baked values by default), unless it
                // animates a custom property (whose keyframes stay plain numbers).
                if model.endpoints().is_some() && !matches!(self.property, Property::Custom(_)) {
                    made(None, Made::From);
                    made(None, Made::To);
                }
                if self.css_velocity() {
                    made(None, Made::Velocity);
                    made(None, Made::VelocityEasing);
                }
                if let Model::Ring(_) = model {
                    made(None, Made::Inner);
                    made(None, Made::Outer);
                }
                if let Property::Custom(property) = &self.property {
                    f(Variable::Animated {
                        property: property.trim_start_matches('-'),
                        unit: &self.unit,
                    });
                }
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
        (tracks.animations().into_iter())
            .map(|(suffix, played)| match &tracks.tracks()[played] {
                // A track of its own: its ends and easing are variables.
                [track] => TrackAnimation {
                    suffix,
                    ends: track.model.endpoints().is_some()
                        && !matches!(track.property, Property::Custom(_)),
                    eased: true,
                },
                // translateX and translateY together: per-stop keyframes of `translate: x y`.
                _ => TrackAnimation {
                    suffix,
                    ends: false,
                    eased: false,
                },
            })
            .collect()
    }

    /// Every `@keyframes` name the motion's CSS puts on the page (without the prefix), with
    /// what it plays: its own name (no suffix), and those it makes beside it
    /// (`<name>-<suffix>`).
    pub fn keyframes_names(&self) -> Vec<(Option<&str>, &'static str)> {
        let mut names: Vec<(Option<&str>, &'static str)> = vec![OWN_KEYFRAMES];
        for animation in self.track_animations() {
            names.push((Some(animation.suffix), "a track's animation"));
        }
        for (suffix, what) in beside_keyframes(self.beside_keyframes()) {
            names.push((suffix, what));
        }
        names
    }

    /// Which of [`BESIDE`] the motion's CSS makes, a bit each.
    fn beside_keyframes(&self) -> u8 {
        u8::from(self.reduced_motion == ReducedMotion::Fade) | u8::from(self.css_velocity()) << 1
    }
}

/// A motion's own `@keyframes` name (its name) and what it plays.
const OWN_KEYFRAMES: (Option<&str>, &str) = (None, "its animation");

/// The `@keyframes` names a motion may make beside its own and its tracks' (suffix, what it
/// plays), in the order of their bits in [`MotionSpec::beside_keyframes`].
const BESIDE: [(&str, &str); 2] = [
    ("fade", "its reduced-motion fade"),
    ("velocity", "its velocity's animation"),
];

/// The `@keyframes` names of [`BESIDE`] whose bits `bits` holds, with what they play.
fn beside_keyframes(bits: u8) -> impl Iterator<Item = (Option<&'static str>, &'static str)> {
    (BESIDE.iter().enumerate())
        .filter(move |(i, _)| bits >> i & 1 == 1)
        .map(|(_, &(suffix, what))| (Some(suffix), what))
}

/// How the first motion to use a custom property uses it.
#[derive(Debug, Clone, Copy)]
enum Stored {
    /// It makes it: for a track (the track's name) or for itself.
    Made { track: Option<Span>, what: Made },
    /// It animates it in this unit.
    Animated { unit: Span },
}

/// A custom property's or `@keyframes` name's first motion (its name) and what it does with
/// it.
#[derive(Debug, Clone, Copy)]
struct Taken<T> {
    motion: Span,
    used: T,
}

/// A motion taken without looking its names up ([`Variables::defer`]): where its name ends in
/// [`Variables::deferred_names`], and its custom properties and `@keyframes` names besides
/// its own, as bits ([`Made::bit`], [`MotionSpec::beside_keyframes`]).
#[derive(Debug, Clone, Copy)]
struct Deferred {
    end: usize,
    made: u8,
    beside: u8,
}

/// The custom properties of the motions admitted so far, each with the first motion that uses
/// it and how, and their `@keyframes` names alike.
#[derive(Debug, Default)]
pub struct Variables {
    taken: StrMap<Taken<Stored>>,
    keyframes: StrMap<Taken<&'static str>>,
    /// The name being looked up.
    name: String,
    /// The names of the motion being admitted, one after another, and where each ends.
    own: String,
    own_ends: Vec<usize>,
    /// The names of the motions taken since the last one admitted, one after another, and
    /// what each makes, in input order: recorded into `taken` and `keyframes` before the next
    /// motion is admitted.
    deferred_names: String,
    deferred: Vec<Deferred>,
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

/// What a motion does with a custom property, in words.
enum Use<'a> {
    /// It makes it: what it holds (`its duration`).
    Made(String),
    /// It animates it in this unit.
    Animated(&'a str),
}

impl Use<'_> {
    /// A made property's words: `its duration`, `its x track's start`.
    fn made(track: Option<&str>, what: Made) -> Use<'static> {
        Use::Made(match track {
            Some(track) => format!("its {track} track's {}", what.noun()),
            None => format!("its {}", what.noun()),
        })
    }

    /// What the motion does with `--name`, after the field it comes from (`property
    /// "--glow" in px`, `name, which makes --b-duration (its duration),`).
    fn ours(&self, name: &str) -> String {
        match self {
            Self::Made(what) => format!(", which makes --{name} ({what}),"),
            Self::Animated("") => format!(" \"--{name}\" as a number"),
            Self::Animated(unit) => format!(" \"--{name}\" in {unit}"),
        }
    }

    /// What another motion does with it: `animates it in deg`, `makes it (its duration)`.
    fn theirs(&self) -> String {
        match self {
            Self::Made(what) => format!("makes it ({what})"),
            Self::Animated("") => "animates it as a number".into(),
            Self::Animated(unit) => format!("animates it in {unit}"),
        }
    }
}

/// Whether two motions may both use one property this way: only by animating it in units of
/// one kind (their `@property` rules agree).
fn agree(ours: &Variable, unit: Option<&str>) -> bool {
    match (ours, unit) {
        (Variable::Animated { unit: a, .. }, Some(b)) => unit_kind(a) == unit_kind(b),
        _ => false,
    }
}

impl Variables {
    /// The first clash of `spec`'s custom properties with those of the motions admitted so
    /// far, or with one another (`property: "--b-duration"` on motion `b`), if any (nothing is
    /// recorded then); else records them.
    pub fn admit(&mut self, spec: &MotionSpec) -> Result<(), Clash> {
        self.record_deferred();
        let keyframes = spec.keyframes_names();
        for &(suffix, what) in &keyframes {
            write_keyframes_name(&spec.name, suffix, &mut self.name);
            if let Some(taken) = self.keyframes.get(&self.name) {
                return Err(self.keyframes_clash(spec, *taken, what));
            }
        }
        let variables = spec.variables();
        self.own.clear();
        self.own_ends.clear();
        for variable in &variables {
            variable.write_name(&spec.name, &mut self.name);
            if let Some(taken) = self.taken.get(&self.name) {
                let unit = match taken.used {
                    Stored::Animated { unit } => Some(self.taken.text(unit)),
                    Stored::Made { .. } => None,
                };
                if !agree(variable, unit) {
                    return Err(self.clash(variable, self.earlier(*taken)));
                }
            } else if let Some(i) = self.own_index(&self.name) {
                let theirs = &variables[i];
                let unit = match theirs {
                    Variable::Animated { unit, .. } => Some(*unit),
                    Variable::Made { .. } => None,
                };
                if !agree(variable, unit) {
                    return Err(self.clash(variable, (spec.name.clone(), use_of(theirs))));
                }
            }
            self.own.push_str(&self.name);
            self.own_ends.push(self.own.len());
        }
        self.record(&spec.name, &variables, &keyframes);
        Ok(())
    }

    /// Takes `spec` without looking its names up, if it is a motion of one model that
    /// animates no custom property, which its caller knows to clash with no motion admitted
    /// so far; else returns false, and `spec` is to be [admitted](Variables::admit). Such a
    /// motion's names are its name and names that start with it and `-`, all different, so
    /// that only a later motion whose name is like its own up to a `-` may meet them: the
    /// caller admits that one, which records them first (most bakes never look them up).
    pub fn defer(&mut self, spec: &MotionSpec) -> bool {
        if matches!(spec.model, Model::Tracks(_)) || matches!(spec.property, Property::Custom(_)) {
            return false;
        }
        let mut made = 0;
        spec.each_variable(|variable| {
            if let Variable::Made { what, .. } = variable {
                made |= what.bit();
            }
        });
        self.deferred_names.push_str(&spec.name);
        self.deferred.push(Deferred {
            end: self.deferred_names.len(),
            made,
            beside: spec.beside_keyframes(),
        });
        true
    }

    /// Records the names of the motions taken without looking them up, in input order.
    fn record_deferred(&mut self) {
        let names = std::mem::take(&mut self.deferred_names);
        let mut start = 0;
        for motion in std::mem::take(&mut self.deferred) {
            let variables: Vec<Variable> = (Made::ALL.into_iter())
                .filter(|what| motion.made & what.bit() != 0)
                .map(|what| Variable::Made { track: None, what })
                .collect();
            let keyframes: Vec<(Option<&str>, &'static str)> = std::iter::once(OWN_KEYFRAMES)
                .chain(beside_keyframes(motion.beside))
                .collect();
            self.record(&names[start..motion.end], &variables, &keyframes);
            start = motion.end;
        }
    }

    /// Records the custom properties and `@keyframes` names of the motion `name`, which
    /// clash with none.
    fn record(
        &mut self,
        name: &str,
        variables: &[Variable],
        keyframes: &[(Option<&str>, &'static str)],
    ) {
        let motion = self.taken.store(name);
        for variable in variables {
            variable.write_name(name, &mut self.name);
            self.taken.insert_new(&self.name, |map| Taken {
                motion,
                used: match *variable {
                    Variable::Made { track, what } => Stored::Made {
                        track: track.map(|track| map.store(track)),
                        what,
                    },
                    Variable::Animated { unit, .. } => Stored::Animated {
                        unit: map.store(unit),
                    },
                },
            });
        }
        let motion = self.keyframes.store(name);
        for &(suffix, what) in keyframes {
            write_keyframes_name(name, suffix, &mut self.name);
            self.keyframes
                .insert_new(&self.name, |_| Taken { motion, used: what });
        }
    }

    /// Which of the names of the motion being admitted so far is `name`, if any.
    fn own_index(&self, name: &str) -> Option<usize> {
        let mut start = 0;
        self.own_ends.iter().position(|&end| {
            let own = &self.own[start..end];
            start = end;
            own == name
        })
    }

    /// The earlier motion of `taken` and what it does with the property.
    fn earlier(&self, taken: Taken<Stored>) -> (String, Use<'_>) {
        let used = match taken.used {
            Stored::Made { track, what } => {
                Use::made(track.map(|track| self.taken.text(track)), what)
            }
            Stored::Animated { unit } => Use::Animated(self.taken.text(unit)),
        };
        (self.taken.text(taken.motion).to_owned(), used)
    }

    /// The clash of `ours` (named `self.name`) with the earlier motion `other`, which uses it
    /// as `theirs`.
    fn clash(&self, ours: &Variable, (other, theirs): (String, Use)) -> Clash {
        let name = &self.name;
        let used = use_of(ours);
        let (field, advice) = match (ours, &theirs) {
            (Variable::Animated { .. }, Use::Animated(_)) => (
                "property",
                "an @property rule has one syntax; use units of one kind, or another property",
            ),
            (Variable::Animated { .. }, Use::Made(_)) => {
                ("property", "rename the property or that motion")
            }
            (Variable::Made { .. }, _) => ("name", "rename one of the motions"),
        };
        Clash {
            ours: format!("{field}{} clashes with motion {other:?}", used.ours(name)),
            theirs: format!(
                "which {}: the page has one --{name}; {advice}",
                theirs.theirs()
            ),
            other,
        }
    }

    /// The clash of `spec`'s `@keyframes` name `self.name` (which plays `what`) with the
    /// earlier motion of `taken`.
    fn keyframes_clash(&self, spec: &MotionSpec, taken: Taken<&str>, what: &str) -> Clash {
        let (name, other) = (&self.name, self.keyframes.text(taken.motion));
        let ours = if *name == spec.name {
            "name".to_owned()
        } else {
            format!("name, which makes @keyframes {name} ({what}),")
        };
        Clash {
            other: other.to_owned(),
            ours: format!("{ours} clashes with motion {other:?}"),
            theirs: format!(
                "which makes it ({}): the page has one @keyframes {name}; rename one of the \
                 motions",
                taken.used
            ),
        }
    }
}

/// What `variable` does, in words.
fn use_of<'a>(variable: &Variable<'a>) -> Use<'a> {
    match *variable {
        Variable::Made { track, what } => Use::made(track, what),
        Variable::Animated { unit, .. } => Use::Animated(unit),
    }
}

/// The `@keyframes` name `<motion>` or `<motion>-<suffix>`, into `out`.
fn write_keyframes_name(motion: &str, suffix: Option<&str>, out: &mut String) {
    out.clear();
    out.push_str(motion);
    if let Some(suffix) = suffix {
        out.push('-');
        out.push_str(suffix);
    }
}
