//! Multi-track motions: several properties (or x and y) on one timeline.
//!
//! Each track is a one-value motion of its own property, unit, rest thresholds and length
//! L_k (its `duration`, arrival or provable rest, as a motion alone would end). The timeline
//! is D = max_k L_k (or the motion's `duration`); frame i is at min(i/fps, D) for every track,
//! and a track that has ended holds its end value with velocity 0:
//! x_k(t) = x_k(L_k) (its rest or arrival value) and v_k(t) = 0 for t >= L_k. Tracks keep the
//! order written, except that translateX and translateY come first, in that order.

use super::{property_and_unit_of, resolve, Ending, FieldError, Model, Property};
use crate::source::schema::{MotionKind, TrackFile};
use curvebake_motion::Motion;
use std::ops::Range;

/// One property's motion within a multi-track motion.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The animated property.
    pub property: Property,
    /// Unit of its values.
    pub unit: String,
    /// Its motion (one value).
    pub model: Model,
    /// How it ends on its own: a track that never rests is cut at the motion's `duration`,
    /// `Fixed` as a track with its own.
    pub ending: Ending,
    /// L_k: when it ends (seconds).
    pub length: f64,
    /// The value it holds from L_k on: its rest or arrival value, else x(L_k).
    pub end_value: f64,
    /// Distance from rest that counts as resting.
    pub rest_delta: f64,
    /// Speed that counts as resting.
    pub rest_speed: f64,
}

impl Motion for Track {
    /// The motion's range before `L_k`, 0 (a held value) from it on.
    fn derivative_range(&self, order: u32, a: f64, b: f64) -> (f64, f64) {
        if a >= self.length {
            return (0.0, 0.0);
        }
        let motion = self.model.single().expect("tracks have one value");
        let range = motion.derivative_range(order, a, b.min(self.length));
        if b > self.length {
            curvebake_motion::union(range, (0.0, 0.0))
        } else {
            range
        }
    }

    fn position(&self, t: f64) -> f64 {
        self.state(t).0
    }
    fn velocity(&self, t: f64) -> f64 {
        self.state(t).1
    }
    fn state(&self, t: f64) -> (f64, f64) {
        if t >= self.length {
            (self.end_value, 0.0)
        } else {
            self.model.single().expect("tracks have one value").state(t)
        }
    }
}

impl Track {
    /// How this track ends on a timeline `end` long: as on its own if it ends by then, else
    /// cut at `end` (the motion's `duration`, shorter than the track).
    pub fn ending_on(&self, end: f64) -> Ending {
        if self.length > end {
            Ending::Fixed(end)
        } else {
            self.ending
        }
    }

    /// Where this track's closed forms join on a timeline `end` long, in time order: its own
    /// motion's joins before L_k ([`Model::joins`]), then L_k itself if the track ends before
    /// `end` (from there it holds its end value).
    pub fn joins(&self, end: f64) -> Vec<f64> {
        let mut joins = self.model.joins();
        joins.retain(|&t| t < self.length);
        if self.length < end {
            joins.push(self.length);
        }
        joins
    }
}

/// Tracks on one timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Tracks {
    tracks: Vec<Track>,
}

impl Tracks {
    /// The tracks, in the order written.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }
    /// Track `k` alone (for a plot panel), still on this timeline.
    pub fn only(&self, k: usize) -> Self {
        Self {
            tracks: vec![self.tracks[k].clone()],
        }
    }
    /// D = the latest end of any track.
    pub fn length(&self) -> f64 {
        self.tracks.iter().map(|t| t.length).fold(0.0, f64::max)
    }

    /// The animations that play the motion, in track order: the property each animates
    /// ([`animated_property`]) and its tracks, consecutive (translateX and translateY come
    /// first, in that order).
    pub fn animations(&self) -> Vec<(&str, Range<usize>)> {
        let names: Vec<&str> = self.tracks.iter().map(|t| t.property.name()).collect();
        let mut animations: Vec<(&str, Range<usize>)> = Vec::with_capacity(names.len());
        for (k, name) in names.iter().enumerate() {
            let property = animated_property(name, &names);
            match animations.last_mut() {
                Some((last, tracks)) if *last == property => tracks.end = k + 1,
                _ => animations.push((property, k..k + 1)),
            }
        }
        animations
    }
}

/// The property that the track animating `property` moves, among a multi-track motion's
/// `tracks` (their properties' names): its own, except that translateX and translateY
/// together both move `translate`, in one animation of `translate: x y` (an element runs one
/// animation of a property at a time: a later one would replace the earlier).
pub fn animated_property<'a>(property: &'a str, tracks: &[&str]) -> &'a str {
    let both = ["translateX", "translateY"]
        .iter()
        .all(|axis| tracks.contains(axis));
    if both && matches!(property, "translateX" | "translateY") {
        "translate"
    } else {
        property
    }
}

/// The static name of a built-in property (track names are `'static`).
fn static_name(property: &Property) -> Option<&'static str> {
    Some(match property {
        Property::TranslateX => "translateX",
        Property::TranslateY => "translateY",
        Property::Scale => "scale",
        Property::Rotate => "rotate",
        Property::Opacity => "opacity",
        Property::Custom(_) => return None,
    })
}

impl Tracks {
    /// (name, motion) per track, for sampling: the name is the property's.
    pub fn named(&self) -> Vec<(&'static str, &dyn Motion)> {
        self.tracks
            .iter()
            .map(|t| {
                let name = static_name(&t.property).expect("validated built-in");
                (name, t as &dyn Motion)
            })
            .collect()
    }
}

/// Validates `tracks:` into a [`Model::Tracks`] and how the whole ends: the motion's
/// `duration` if given, else as its longest track ends.
pub(super) fn resolve_tracks(
    files: &[TrackFile],
    duration: Option<f64>,
) -> Result<(Model, Ending), FieldError> {
    if files.is_empty() {
        return Err(FieldError::new("tracks", "needs at least one track"));
    }
    let mut tracks: Vec<Track> = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        let at = |e: FieldError| FieldError {
            field: format!("tracks[{i}].{}", e.field),
            message: e.message,
        };
        let (property, unit) =
            property_and_unit_of(Some(&file.property), file.unit.as_deref()).map_err(at)?;
        if static_name(&property).is_none() {
            return Err(at(FieldError::new(
                "property",
                "must be translateX, translateY, scale, rotate or opacity in a track (a custom property animates alone)",
            )));
        }
        if let Some(j) = tracks.iter().position(|t| t.property == property) {
            return Err(at(FieldError::new(
                "property",
                format!("{:?} is animated by track {j} already", property.name()),
            )));
        }
        if let MotionKind::ExplosionRing { .. } = file.motion {
            return Err(at(FieldError::new(
                "motion",
                "cannot be an ExplosionRing: a ring has two radii, a track one value",
            )));
        }
        let own = super::optional_duration("duration", file.duration).map_err(at)?;
        let defaults = super::rest_defaults(&unit);
        let rest_delta = super::optional_positive("rest_delta", file.rest_delta)
            .map_err(at)?
            .unwrap_or(defaults.0);
        let rest_speed = super::optional_positive("rest_speed", file.rest_speed)
            .map_err(at)?
            .unwrap_or(defaults.1);
        let (model, ending) = resolve(&file.motion, own, (rest_delta, rest_speed)).map_err(at)?;
        let length = match ending {
            Ending::Fixed(d) | Ending::Arrives(d) => Some(d),
            Ending::Rests => model.settle_time(model.end_delta(rest_delta), rest_speed),
        };
        // A track that never rests runs to the motion's duration: it is cut there, like a
        // track with its own `duration`, and holds the position it reached.
        let (length, cut) = match (length, duration) {
            (Some(l), _) => (l, matches!(ending, Ending::Fixed(_))),
            (None, Some(d)) => (d, true),
            (None, None) => {
                return Err(at(FieldError::new(
                    "motion",
                    "never ends (it never comes to rest): give the track or the whole motion a `duration`",
                )))
            }
        };
        let motion = model.single().expect("not a ring");
        let end_value = if cut {
            motion.position(length)
        } else {
            model
                .end_values()
                .first()
                .copied()
                .unwrap_or_else(|| motion.position(length))
        };
        tracks.push(Track {
            property,
            unit,
            model,
            ending: if cut { Ending::Fixed(length) } else { ending },
            length,
            end_value,
            rest_delta,
            rest_speed,
        });
    }
    // translateX right before translateY, both first, the rest in the order written: the
    // JS keyframes write the pair as one `translate: "X Y"`.
    tracks.sort_by_key(|t| match t.property {
        Property::TranslateX => 0,
        Property::TranslateY => 1,
        _ => 2,
    });
    let tracks = Tracks { tracks };
    let longest = tracks
        .tracks
        .iter()
        .max_by(|a, b| a.length.total_cmp(&b.length))
        .expect("at least one track");
    let ending = match (duration, longest.ending) {
        (Some(d), _) => Ending::Fixed(d),
        (None, Ending::Rests) => Ending::Rests,
        (None, _) => Ending::Arrives(tracks.length()),
    };
    Ok((Model::Tracks(tracks), ending))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::plain_ron;

    fn tracks_of(text: &str) -> Tracks {
        let file = &plain_ron::parse(text).expect("plain RON")[0];
        let (model, _) = resolve_tracks(file.tracks.as_deref().unwrap(), file.duration).unwrap();
        let Model::Tracks(t) = model else { panic!() };
        t
    }

    #[test]
    fn translate_x_and_y_are_one_animation_and_every_other_track_its_own() {
        let spring = |property: &str| {
            format!("(property: \"{property}\", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 20)),")
        };
        let motion = |properties: &[&str]| {
            let tracks: String = properties.iter().map(|p| spring(p)).collect();
            tracks_of(&format!("(name: \"m\", tracks: [{tracks}])"))
        };
        let both = motion(&["opacity", "translateY", "translateX"]);
        assert_eq!(both.animations(), [("translate", 0..2), ("opacity", 2..3)]);
        let one = motion(&["translateY", "scale"]);
        assert_eq!(one.animations(), [("translateY", 0..1), ("scale", 1..2)]);
        assert_eq!(
            animated_property("translateX", &["translateX", "translateY"]),
            "translate"
        );
        assert_eq!(
            animated_property("translateX", &["translateX", "rotate"]),
            "translateX"
        );
        assert_eq!(
            animated_property("rotate", &["translateX", "translateY", "rotate"]),
            "rotate"
        );
    }

    /// An undamped spring never rests, so it runs to the motion's duration D; from D on it
    /// holds x(D), where it is, not its `to` (found by the composite reference: the last
    /// frame jumped from 91.95 to 50).
    #[test]
    fn a_track_cut_by_the_motions_duration_holds_the_position_it_reached() {
        let t = tracks_of(
            r#"(name: "u", duration: 1.0, tracks: [
                (property: "translateY", motion: Spring(from: 0, to: 50, stiffness: 100, damping: 0)),
                (property: "scale", motion: Spring(from: 0.5, to: 1, stiffness: 300, damping: 30)),
            ])"#,
        );
        let (spring, settling) = (&t.tracks()[0], &t.tracks()[1]);
        assert_eq!(spring.length, 1.0);
        let reached = spring.model.single().unwrap().position(1.0);
        assert!((reached - 50.0).abs() > 40.0, "{reached}");
        assert_eq!(spring.end_value, reached);
        assert_eq!(spring.state(1.0), (reached, 0.0));
        // A track that rests before D still holds its rest value.
        assert!(settling.length < 1.0);
        assert_eq!(settling.end_value, 1.0);
    }

    fn spec_of(text: &str) -> super::super::MotionSpec {
        let file = &plain_ron::parse(text).expect("plain RON")[0];
        super::super::MotionSpec::from_file(file, Default::default()).unwrap()
    }

    /// Each track says how it ends and its own thresholds, not the whole motion's: the
    /// reviewer's sheet-enter, which rests as a whole, has a solved decay that arrives at its
    /// own `duration` and unitless tracks that rest within the unitless defaults.
    #[test]
    fn each_track_ends_its_own_way_within_its_own_thresholds() {
        let spec = spec_of(
            r#"(name: "s", tracks: [
                (property: "translateY", motion: Spring(from: 480, to: 0, stiffness: 260, damping: 24)),
                (property: "opacity", motion: Decay(from: 0, to: 1, end_velocity: 0.2), duration: 0.3),
                (property: "scale", motion: Friction(from: 0.9, velocity: 0.1, friction: 0.05), duration: 0.2),
            ])"#,
        );
        assert_eq!(spec.ending, Ending::Rests);
        let ends = spec.track_ends(1.0);
        let endings: Vec<Ending> = ends.iter().map(|e| e.ending).collect();
        assert_eq!(
            endings,
            [Ending::Rests, Ending::Arrives(0.3), Ending::Fixed(0.2)]
        );
        let thresholds: Vec<(f64, f64)> =
            ends.iter().map(|e| (e.rest_delta, e.rest_speed)).collect();
        let (px, unitless) = (
            super::super::REST_FOR_PIXELS,
            super::super::REST_FOR_UNITLESS,
        );
        assert_eq!(thresholds, [px, unitless, unitless]);
    }

    /// A track that the motion's `duration` cuts, because it never rests or rests later,
    /// ends `Fixed` at that duration, not as it would on its own.
    #[test]
    fn a_track_the_motions_duration_cuts_ends_there() {
        let spec = spec_of(
            r#"(name: "u", duration: 0.5, tracks: [
                (property: "translateY", motion: Spring(from: 0, to: 50, stiffness: 100, damping: 0)),
                (property: "translateX", motion: Spring(from: 0, to: 50, stiffness: 100, damping: 10)),
                (property: "scale", motion: Spring(from: 0.5, to: 1, stiffness: 1000, damping: 60)),
            ])"#,
        );
        assert_eq!(spec.ending, Ending::Fixed(0.5));
        let endings: Vec<Ending> = (spec.track_ends(0.5).iter()).map(|e| e.ending).collect();
        // translateX first, then translateY (the order of the tracks), then scale, which rests
        // before 0.5 s.
        assert_eq!(
            endings,
            [Ending::Fixed(0.5), Ending::Fixed(0.5), Ending::Rests]
        );
    }
}
