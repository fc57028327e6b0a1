//! The text `curvebake inspect` prints ([`Inspection::to_text`]): a title line, then one
//! `label  value` row per figure.

use super::figures::{
    DecayFigures, FrictionFigures, GravityFigures, InertiaFigures, Inspection, Overshoot,
    SpringFigures, StepFigures, TrackFigures,
};
use curvebake_export::done::within_words;
use curvebake_model::number::format_number;
use std::fmt::Write as _;

impl Inspection {
    /// The text `curvebake inspect` prints: a title line, then one `label  value` row per
    /// figure.
    pub fn to_text(&self) -> String {
        // A multi-track motion's rows that take a unit are its tracks'.
        let units = Units(self.unit.as_deref().unwrap_or(""));
        let mut rows = Rows::default();
        self.motion_rows(&mut rows);
        if let Some(s) = &self.spring {
            spring_rows(&mut rows, s);
        }
        if let (Some(f), Some(rest_speed)) = (&self.friction, self.rest_speed) {
            friction_rows(&mut rows, f, units, rest_speed);
        }
        for (i, step) in self.steps.iter().flatten().enumerate() {
            rows.push(&format!("step_{i}"), step_text(step, units));
        }
        if let Some(i) = &self.inertia {
            rows.push("inertia", inertia_text(i, units));
        }
        if let Some(g) = &self.gravity {
            gravity_rows(&mut rows, g, units);
        }
        let many = self.tracks.len() > 1;
        for track in &self.tracks {
            self.track_rows(&mut rows, track, many);
        }
        if let Some(t) = self.looks_done {
            let within = within_words(self.tracks.iter().map(|k| k.unit.as_str()));
            let each = if many { " of each track" } else { "" };
            rows.push(
                "looks done",
                format!("{} (every later frame{each} {within})", seconds(t)),
            );
        }
        if let (Some(t), None) = (self.settle_time, &self.unit) {
            // Each track proved its own end, within its own thresholds (its rows say them).
            rows.push(
                "settle time",
                format!(
                    "{} (when the last track ends: each at its own envelope bound for its \
                     rest_delta and rest_speed, or at its duration)",
                    seconds(t)
                ),
            );
        } else if let (Some(t), Some(rest_delta), Some(rest_speed), Some(end_delta)) = (
            self.settle_time,
            self.rest_delta,
            self.rest_speed,
            self.end_delta,
        ) {
            let within = if end_delta < rest_delta {
                format!("{}: 0.1 % of the travel", units.value(end_delta))
            } else {
                format!("rest_delta {}", units.value(rest_delta))
            };
            rows.push(
                "settle time",
                format!(
                    "{} (envelope bound for {within}, rest_speed {})",
                    seconds(t),
                    units.per_s(rest_speed)
                ),
            );
        }
        for track in &self.tracks {
            let label = if many {
                format!("{} position", track.name)
            } else {
                "position".into()
            };
            rows.push(&label, track.sparkline.clone());
        }
        let title = match &self.file {
            Some(file) => format!("{} ({})", self.name, file.display()),
            None => self.name.clone(),
        };
        rows.under(&title)
    }

    /// The `motion` row (kind, property, frames, timing and ending), a row per parameter
    /// group, and for a spring without a motion.dev form, why it has none.
    fn motion_rows(&self, rows: &mut Rows) {
        let ending = match self.ending {
            "rests" => "baked until at rest",
            "arrives" => "arrives at its end value",
            _ => "fixed duration",
        };
        let unit_note = match self.unit.as_deref() {
            None | Some("") => String::new(),
            Some(unit) => format!(" in {unit}"),
        };
        let what = match (&self.property, &self.unit) {
            // A multi-track motion: each track's property, with its unit if it has one.
            (_, None) => {
                let tracks: Vec<String> = (self.tracks.iter())
                    .map(|t| match t.unit.as_str() {
                        "" => t.name.to_owned(),
                        unit => format!("{} ({unit})", t.name),
                    })
                    .collect();
                format!(": {};", tracks.join(", "))
            }
            (Some(property), Some(_)) => format!(" on {property}{unit_note}:"),
            // A ring's radii animate no property of their own.
            (None, Some(_)) => format!(", radii{unit_note}:"),
        };
        rows.push(
            "motion",
            format!(
                "{}{what} {} frames at {} fps over {}, {ending}",
                self.kind,
                self.frames,
                format_number(self.fps),
                seconds(self.duration)
            ),
        );
        for group in &self.params.0 {
            let values: Vec<String> = group
                .values
                .iter()
                .map(|(k, v)| format!("{k} {}", format_number(*v)))
                .collect();
            let platform = group.name.and_then(|name| {
                curvebake_motion::SPRING_PLATFORMS
                    .iter()
                    .find(|(g, _)| *g == name && self.spring.is_some())
            });
            let label = match (group.name, platform) {
                (_, Some((_, platform))) => format!("as {platform}"),
                (Some(name), None) => format!("{name} parameters"),
                (None, None) => "parameters".into(),
            };
            rows.push(&label, values.join(", "));
        }
        let motion_dev = self.params.0.iter().any(|g| g.name == Some("motion_dev"));
        if self.spring.is_some() && !motion_dev {
            rows.push(
                "as motion.dev",
                "none: motion.dev clamps the damping ratio to [0.05, 1]".into(),
            );
        }
    }

    /// The rows of one track, each label led by the track's name when there are `many`:
    /// decay, overshoot, peak speed, range, resting value, and when the frames rest before the
    /// bake ends, from when.
    fn track_rows(&self, rows: &mut Rows, track: &TrackFigures, many: bool) {
        // A track's own unit (a multi-track motion's tracks differ).
        let units = Units(&track.unit);
        let label = |l: &str| {
            if many {
                format!("{} {l}", track.name)
            } else {
                l.to_owned()
            }
        };
        if let Some(d) = &track.decay {
            rows.push(&label("decay"), decay_text(d, units));
        }
        if let Some(o) = &track.overshoot {
            let closed_form = self.spring.as_ref().and_then(|s| s.overshoot.as_ref());
            rows.push(&label("overshoot"), overshoot_text(o, closed_form, units));
        }
        let peak = &track.peak_speed;
        rows.push(
            &label("peak speed"),
            format!(
                "{} at {} ({})",
                units.per_s(peak.speed),
                seconds(peak.time),
                peak.source
            ),
        );
        rows.push(
            &label("range"),
            format!(
                "{} -> {}, between {} and {}",
                units.value(track.start),
                units.value(track.end),
                units.value(track.min),
                units.value(track.max)
            ),
        );
        let resting = match track.resting_value {
            None => "none: it never comes to rest".into(),
            Some(x) if self.ending == "rests" => units.value(x),
            Some(x) => format!("{} (if it ran on past its end)", units.value(x)),
        };
        rows.push(&label("resting value"), resting);
        // Only worth a row when the frames rest before the bake ends.
        if let Some(t) = track.at_rest_from.filter(|&t| t < self.duration) {
            rows.push(
                &label("at rest from"),
                format!(
                    "{} (frames within {} of rest, slower than {})",
                    seconds(t),
                    units.value(track.rest_delta),
                    units.per_s(track.rest_speed)
                ),
            );
        }
    }
}

/// The `label  value` rows of [`Inspection::to_text`], in order.
#[derive(Default)]
struct Rows(Vec<(String, String)>);

impl Rows {
    fn push(&mut self, label: &str, value: String) {
        self.0.push((label.to_owned(), value));
    }

    /// `title` on a line, then the rows indented, their values lined up after the longest
    /// label.
    fn under(self, title: &str) -> String {
        let width = self
            .0
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = format!("{title}\n");
        for (label, value) in self.0 {
            let _ = writeln!(out, "  {label:<width$}  {value}");
        }
        out
    }
}

/// Values in one unit, as `inspect` prints them (the unit may be empty).
#[derive(Clone, Copy)]
struct Units<'a>(&'a str);

impl Units<'_> {
    /// `x` in the unit: `12 px`, or `12` without one.
    fn value(self, x: f64) -> String {
        if self.0.is_empty() {
            format_number(x)
        } else {
            format!("{} {}", format_number(x), self.0)
        }
    }

    /// `x` in the unit per second: `12 px/s`, or `12/s` without one.
    fn per_s(self, x: f64) -> String {
        if self.0.is_empty() {
            format!("{}/s", format_number(x))
        } else {
            format!("{} {}/s", format_number(x), self.0)
        }
    }
}

/// `x` seconds: `0.5 s`.
fn seconds(x: f64) -> String {
    format!("{} s", format_number(x))
}

/// A spring's rows: damping ratio and regime, frequencies, period.
fn spring_rows(rows: &mut Rows, s: &SpringFigures) {
    rows.push(
        "damping ratio",
        format!("{} ({})", format_number(s.damping_ratio), s.regime),
    );
    let damped = s.damped_frequency.map_or(String::new(), |w| {
        format!(", damped {} rad/s", format_number(w))
    });
    rows.push(
        "frequency",
        format!(
            "natural {} rad/s ({} Hz){damped}",
            format_number(s.natural_frequency),
            format_number(s.natural_frequency_hz)
        ),
    );
    rows.push(
        "period",
        match s.period {
            Some(p) => format!("{} (between overshoots)", seconds(p)),
            None => "none: it does not oscillate".into(),
        },
    );
}

/// A fling's rows: friction and λ, where it comes to rest, and when it is slower than
/// `rest_speed`.
fn friction_rows(rows: &mut Rows, f: &FrictionFigures, units: Units, rest_speed: f64) {
    let rest = f
        .rest_position
        .map_or("never (friction 1)".into(), |x| units.value(x));
    rows.push(
        "friction",
        format!(
            "keeps {} of its velocity per second, lambda {} /s",
            format_number(f.friction),
            format_number(f.lambda)
        ),
    );
    rows.push("comes to rest at", rest);
    if let Some(t) = f.rest_time {
        rows.push(
            "slower than rest",
            format!("{} (rest_speed {})", seconds(t), units.per_s(rest_speed)),
        );
    }
}

/// A sequence step: its kind, the state it starts with and when, and when it hands over.
fn step_text(step: &StepFigures, units: Units) -> String {
    let mut v = format!(
        "{} from {} at {} with {}",
        step.kind,
        units.value(step.start_state.0),
        seconds(step.start),
        units.per_s(step.start_state.1)
    );
    if let Some(t) = step.handoff {
        let _ = write!(v, ", hands over at {}", seconds(t));
    }
    v
}

/// What an inertia did: its case, its free rest, when and how fast it reached its bound, and
/// where it rests.
fn inertia_text(i: &InertiaFigures, units: Units) -> String {
    let mut v = i.case.to_owned();
    if let Some(x) = i.free_rest {
        let _ = write!(v, "; free rest at {}", units.value(x));
    }
    if let (Some(t), Some(vb)) = (i.bound_time, i.bound_velocity) {
        let _ = write!(
            v,
            "; reaches the bound at {} with {}, then springs back",
            seconds(t),
            units.per_s(vb)
        );
    }
    if let Some(x) = i.target {
        let _ = write!(v, "; rests at {}", units.value(x));
    }
    v
}

/// Gravity's rows: acceleration, turning point, arrival and bounces.
fn gravity_rows(rows: &mut Rows, g: &GravityFigures, units: Units) {
    rows.push(
        "acceleration",
        if units.0.is_empty() {
            format!("{} /s²", format_number(g.acceleration))
        } else {
            format!("{} {}/s²", format_number(g.acceleration), units.0)
        },
    );
    if let (Some(t), Some(x)) = (g.apex_time, g.apex) {
        rows.push("turns at", format!("{} at {}", units.value(x), seconds(t)));
    }
    if let Some(t) = g.arrival {
        rows.push("arrives", seconds(t));
    }
    if let (Some(t), Some(e)) = (g.first_impact, g.restitution) {
        rows.push(
            "bounces",
            format!(
                "first impact at {}, restitution {}, over at {}",
                seconds(t),
                format_number(e),
                g.bounces_end.map_or("-".into(), seconds)
            ),
        );
    }
}

/// A decay: initial velocity and λ, time constant, Lambert W branch and end velocity.
fn decay_text(d: &DecayFigures, units: Units) -> String {
    let mut v = format!(
        "initial velocity {}, lambda {} /s",
        units.per_s(d.initial_velocity),
        format_number(d.lambda)
    );
    if let Some(tau) = d.time_constant {
        let _ = write!(v, " (time constant {})", seconds(tau));
    }
    if let Some(b) = d.branch {
        let _ = write!(v, ", Lambert W branch {b}");
    }
    if let Some(ve) = d.end_velocity {
        let _ = write!(v, ", end velocity {}", units.per_s(ve));
    }
    v
}

/// An overshoot from the frames, then the `closed_form` one beside it when there is one.
fn overshoot_text(o: &Overshoot, closed_form: Option<&Overshoot>, units: Units) -> String {
    let mut v = match o.time {
        Some(t) => format!(
            "{} % ({}) at {} ({})",
            format_number(o.percent),
            units.value(o.units),
            seconds(t),
            o.source
        ),
        None => format!("0 %: never passes its target ({})", o.source),
    };
    if let Some(c) = closed_form {
        let _ = write!(
            v,
            "; {} % at {} ({})",
            format_number(c.percent),
            seconds(c.time.unwrap_or(0.0)),
            c.source
        );
    }
    v
}
