//! A fast reader for curve files written in plain RON: the form of every example, of every file
//! `curvebake new` writes, and of most files people write by hand.
//!
//! The `ron` crate is general and careful, and costly per number: a large part of a large
//! bake's CPU went to parsing (measured: benches/README.md, "Tuning decisions"). This reader takes a strict subset of
//! RON and gives up (returns `None`) at the first thing outside it; `ron` then parses the file,
//! so an error is always reported by `ron`, as before, and RON this reader does not know still
//! works. Within the subset it yields exactly what `ron` yields (a property test and the fuzz
//! target check that): numbers are converted by the same `f64::from_str`, strings are taken as
//! written.
//!
//! The subset:
//! - blanks: space, tab, `\n`, `\r`, and `//` comments that end with a `\n`;
//! - a file holds one motion or a list `[motion, ...]`;
//! - a motion is `(field: value, ...)` with the fields of [`MotionFile`], and a variant is
//!   `Spring(field: number, ...)` and so on, as in [`MotionKind`]; each field at most once, in
//!   any order, a trailing comma allowed, a missing required field or an unknown one gives up;
//! - strings `"..."` without `\`; decimal numbers `-12`, `0.5`, `1e-3` (no `+` before, no `_`,
//!   no `inf` or `NaN`); optional fields written bare, as `ron`'s implicit `Some` reads them
//!   (`Some(...)` and `None` give up);
//! - a `Sequence` inside a step nests at most [`MAX_SEQUENCE_DEPTH`] deep (deeper gives up,
//!   and `ron`'s recursion limit refuses it), so no file can exhaust the stack.

use crate::source::schema::{MotionFile, MotionKind, RadiusFile, StepFile, TrackFile};

/// The motions of `text` if it is written in the plain subset, exactly as `ron` reads them.
pub fn parse(text: &str) -> Option<Vec<MotionFile>> {
    let mut reader = Reader {
        text,
        at: 0,
        sequences: 0,
    };
    reader.skip_blanks()?;
    let motions = if reader.eat(b'[') {
        let mut motions = Vec::new();
        reader.separated(b']', |r| {
            motions.push(r.motion()?);
            Some(())
        })?;
        motions
    } else {
        vec![reader.motion()?]
    };
    reader.skip_blanks()?;
    (reader.at == text.len()).then_some(motions)
}

/// Most `Sequence`s this reader reads inside one another (a valid motion has one; validation
/// refuses a nested one with a message, and a file nested deeper goes to `ron`, whose
/// recursion limit refuses it).
pub const MAX_SEQUENCE_DEPTH: usize = 4;

/// A position in the text being read.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    /// `Sequence`s open around the position.
    sequences: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Steps over `byte` if it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    /// Steps over blanks: ASCII whitespace and `//` comments ending with `\n`.
    fn skip_blanks(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') if self.text[self.at..].starts_with("//") => {
                    self.at += self.text[self.at..].find('\n')? + 1;
                }
                _ => return Some(()),
            }
        }
    }

    /// Reads `item, item, ... close` (a trailing comma allowed) after the opening bracket.
    fn separated(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        loop {
            self.skip_blanks()?;
            if self.eat(close) {
                return Some(());
            }
            item(self)?;
            self.skip_blanks()?;
            if self.eat(close) {
                return Some(());
            }
            self.expect(b',')?;
        }
    }

    /// An identifier (`[A-Za-z0-9_]*`, which may be empty: the caller matches it by name).
    fn identifier(&mut self) -> &'a str {
        let start = self.at;
        while matches!(
            self.peek(),
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_')
        ) {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// A field's name and the `:` after it.
    fn field_name(&mut self) -> Option<&'a str> {
        let name = self.identifier();
        self.skip_blanks()?;
        self.expect(b':')?;
        self.skip_blanks()?;
        Some(name)
    }

    /// A string without escapes: its characters as written.
    fn string(&mut self) -> Option<String> {
        self.expect(b'"')?;
        let length = self.text[self.at..].find('"')?;
        let string = &self.text[self.at..self.at + length];
        if string.contains('\\') {
            return None;
        }
        self.at += length + 1;
        Some(string.to_owned())
    }

    /// `true` or `false`.
    fn boolean(&mut self) -> Option<bool> {
        match self.identifier() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }

    /// A decimal number, `-?d+(.d+)?([eE][+-]?d+)?`, converted as `ron` converts it. (What
    /// follows must be a blank, `,` or `)`, so `1.5.2`, `3-4` or `1_000` are left to `ron`.)
    fn number(&mut self) -> Option<f64> {
        let start = self.at;
        self.eat(b'-');
        self.digits()?;
        if self.eat(b'.') {
            self.digits()?;
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'-') || self.eat(b'+');
            self.digits()?;
        }
        self.text[start..self.at].parse().ok()
    }

    /// One or more ASCII digits.
    fn digits(&mut self) -> Option<()> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        (self.at > start).then_some(())
    }

    /// `(name: number, ...)` after its `(`, for the fields `names` (each at most once, in any
    /// order); the value of each, if given.
    fn numbers<const N: usize>(&mut self, names: [&str; N]) -> Option<[Option<f64>; N]> {
        let mut values = [None; N];
        self.separated(b')', |r| {
            let name = r.field_name()?;
            let k = names.iter().position(|&n| n == name)?;
            fill(&mut values[k], r.number()?)
        })?;
        Some(values)
    }

    /// One motion: `(name: "...", ..., motion: Kind(...))`.
    fn motion(&mut self) -> Option<MotionFile> {
        self.expect(b'(')?;
        let (mut name, mut property, mut unit, mut motion) = (None, None, None, None);
        let (mut fps, mut duration, mut rest_delta, mut rest_speed) = (None, None, None, None);
        let (mut tolerance, mut relative_tolerance, mut reduced_motion) = (None, None, None);
        let (mut tracks, mut css_velocity) = (None, None);
        self.separated(b')', |r| match r.field_name()? {
            "name" => fill(&mut name, r.string()?),
            "property" => fill(&mut property, r.string()?),
            "unit" => fill(&mut unit, r.string()?),
            "fps" => fill(&mut fps, r.number()?),
            "duration" => fill(&mut duration, r.number()?),
            "rest_delta" => fill(&mut rest_delta, r.number()?),
            "rest_speed" => fill(&mut rest_speed, r.number()?),
            "tolerance" => fill(&mut tolerance, r.number()?),
            "relative_tolerance" => fill(&mut relative_tolerance, r.number()?),
            "reduced_motion" => fill(&mut reduced_motion, r.string()?),
            "css_velocity" => fill(&mut css_velocity, r.boolean()?),
            "motion" => fill(&mut motion, r.kind()?),
            "tracks" => fill(&mut tracks, r.track_list()?),
            // Anything else is left to `ron`.
            _ => None,
        })?;
        // Neither `motion` nor `tracks`: left to `ron` (and validation) to explain.
        if motion.is_none() && tracks.is_none() {
            return None;
        }
        Some(MotionFile {
            name: name?,
            property,
            unit,
            fps,
            duration,
            rest_delta,
            rest_speed,
            tolerance,
            relative_tolerance,
            reduced_motion,
            css_velocity,
            motion,
            tracks,
        })
    }

    /// `[(property: "...", motion: Kind(...), unit: "...", duration: ..., rest_delta: ...,
    /// rest_speed: ...), ...]` (a trailing comma allowed).
    fn track_list(&mut self) -> Option<Vec<TrackFile>> {
        self.expect(b'[')?;
        let mut list = Vec::new();
        self.separated(b']', |r| {
            list.push(r.track()?);
            Some(())
        })?;
        Some(list)
    }

    /// One track of a multi-track motion.
    fn track(&mut self) -> Option<TrackFile> {
        self.expect(b'(')?;
        let (mut property, mut motion, mut unit) = (None, None, None);
        let (mut duration, mut rest_delta, mut rest_speed) = (None, None, None);
        self.separated(b')', |r| match r.field_name()? {
            "property" => fill(&mut property, r.string()?),
            "motion" => fill(&mut motion, r.kind()?),
            "unit" => fill(&mut unit, r.string()?),
            "duration" => fill(&mut duration, r.number()?),
            "rest_delta" => fill(&mut rest_delta, r.number()?),
            "rest_speed" => fill(&mut rest_speed, r.number()?),
            _ => None,
        })?;
        Some(TrackFile {
            property: property?,
            motion: motion?,
            unit,
            duration,
            rest_delta,
            rest_speed,
        })
    }

    /// A motion variant: `Spring(...)`, `Friction(...)`, `Gravity(...)`, `Decay(...)`,
    /// `Inertia(...)`, `Sequence([...])` or `ExplosionRing(inner: (...), outer: (...))`.
    fn kind(&mut self) -> Option<MotionKind> {
        let variant = self.identifier();
        self.skip_blanks()?;
        self.expect(b'(')?;
        match variant {
            "Spring" => self.spring(),
            "Friction" => self.friction(),
            "Gravity" => self.gravity(),
            "Decay" => self.decay(),
            "Inertia" => self.inertia(),
            "Sequence" => self.sequence(),
            "ExplosionRing" => self.explosion_ring(),
            _ => None,
        }
    }

    /// `Spring(...)` after its `(`: `to` and any of the physical, perceptual and platform
    /// parameters.
    fn spring(&mut self) -> Option<MotionKind> {
        let [from, to, velocity, mass, stiffness, damping, perceptual_duration, bounce, response, damping_fraction, damping_ratio, visual_duration, origami_tension, origami_friction] =
            self.numbers([
                "from",
                "to",
                "velocity",
                "mass",
                "stiffness",
                "damping",
                "perceptual_duration",
                "bounce",
                "response",
                "damping_fraction",
                "damping_ratio",
                "visual_duration",
                "origami_tension",
                "origami_friction",
            ])?;
        Some(MotionKind::Spring {
            from,
            to: to?,
            velocity,
            mass,
            stiffness,
            damping,
            perceptual_duration,
            bounce,
            response,
            damping_fraction,
            damping_ratio,
            visual_duration,
            origami_tension,
            origami_friction,
        })
    }

    /// `Friction(...)` after its `(`: the fields `from`, `velocity`, `friction`, `to`.
    fn friction(&mut self) -> Option<MotionKind> {
        let [from, velocity, friction, to] =
            self.numbers(["from", "velocity", "friction", "to"])?;
        Some(MotionKind::Friction {
            from,
            velocity,
            friction,
            to,
        })
    }

    /// `Gravity(...)` after its `(`: `acceleration`, and any of `from`, `velocity`, `to`,
    /// `restitution`.
    fn gravity(&mut self) -> Option<MotionKind> {
        let [from, velocity, acceleration, to, restitution] =
            self.numbers(["from", "velocity", "acceleration", "to", "restitution"])?;
        Some(MotionKind::Gravity {
            from,
            velocity,
            acceleration: acceleration?,
            to,
            restitution,
        })
    }

    /// `Decay(...)` after its `(`: the fields `from`, `velocity`, `lambda`, `to`, `end_velocity`.
    fn decay(&mut self) -> Option<MotionKind> {
        let [from, velocity, lambda, to, end_velocity] =
            self.numbers(["from", "velocity", "lambda", "to", "end_velocity"])?;
        Some(MotionKind::Decay {
            from,
            velocity,
            lambda,
            to,
            end_velocity,
        })
    }

    /// `Inertia(...)` after its `(`: `friction`, any of `from`, `velocity`, `min`, `max` and the
    /// bounce spring's, and `snap: [number, ...]`.
    fn inertia(&mut self) -> Option<MotionKind> {
        const NAMES: [&str; 7] = [
            "from",
            "velocity",
            "friction",
            "min",
            "max",
            "bounce_stiffness",
            "bounce_damping",
        ];
        let mut values = [None; 7];
        let mut snap = None;
        self.separated(b')', |r| match r.field_name()? {
            "snap" => fill(&mut snap, r.number_list()?),
            name => {
                let k = NAMES.iter().position(|&n| n == name)?;
                fill(&mut values[k], r.number()?)
            }
        })?;
        let [from, velocity, friction, min, max, bounce_stiffness, bounce_damping] = values;
        Some(MotionKind::Inertia {
            from,
            velocity,
            friction: friction?,
            min,
            max,
            bounce_stiffness,
            bounce_damping,
            snap: snap.unwrap_or_default(),
        })
    }

    /// `Sequence([step, ...])` after its `(`.
    fn sequence(&mut self) -> Option<MotionKind> {
        if self.sequences == MAX_SEQUENCE_DEPTH {
            return None;
        }
        self.sequences += 1;
        self.skip_blanks()?;
        self.expect(b'[')?;
        let mut steps = Vec::new();
        self.separated(b']', |r| {
            steps.push(r.step()?);
            Some(())
        })?;
        self.skip_blanks()?;
        self.expect(b')')?;
        self.sequences -= 1;
        Some(MotionKind::Sequence(steps))
    }

    /// `ExplosionRing(inner: (...), outer: (...))` after its `(`.
    fn explosion_ring(&mut self) -> Option<MotionKind> {
        let (mut inner, mut outer) = (None, None);
        self.separated(b')', |r| match r.field_name()? {
            "inner" => fill(&mut inner, r.radius()?),
            "outer" => fill(&mut outer, r.radius()?),
            _ => None,
        })?;
        Some(MotionKind::ExplosionRing {
            inner: inner?,
            outer: outer?,
        })
    }

    /// One step of a sequence: `(motion: Kind(...), duration: number)`.
    fn step(&mut self) -> Option<StepFile> {
        self.expect(b'(')?;
        let (mut motion, mut duration) = (None, None);
        self.separated(b')', |r| match r.field_name()? {
            "motion" => fill(&mut motion, r.kind()?),
            "duration" => fill(&mut duration, r.number()?),
            _ => None,
        })?;
        Some(StepFile {
            motion: motion?,
            duration,
        })
    }

    /// `[number, ...]` (a trailing comma allowed).
    fn number_list(&mut self) -> Option<Vec<f64>> {
        self.expect(b'[')?;
        let mut list = Vec::new();
        self.separated(b']', |r| {
            list.push(r.number()?);
            Some(())
        })?;
        Some(list)
    }

    /// One radius of an explosion ring: `(from: ..., to: ..., end_velocity: ...)`.
    fn radius(&mut self) -> Option<RadiusFile> {
        self.expect(b'(')?;
        let [from, to, end_velocity] = self.numbers(["from", "to", "end_velocity"])?;
        Some(RadiusFile {
            from: from?,
            to: to?,
            end_velocity: end_velocity?,
        })
    }
}

/// Puts `value` in an empty `slot`; `None` if the field was given already.
fn fill<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value);
    Some(())
}
