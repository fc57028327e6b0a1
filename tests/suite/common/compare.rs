//! Browser readings against a bake's tables: decoding what the page read, comparing it with
//! the table at the time the animation was seeked to, and tallying the worst errors.

use super::readout::{leading_number, typed, unwrap_angle};
use super::tables::Table;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One reading of a motion decoded: (computed style, Typed OM). The individual transform
/// properties serialize as `<x> <y>?` (`translate`, y omitted when 0), `<number>` (`scale`)
/// and `<angle>` (`rotate`); Typed OM gives them as one transform component.
///
/// `k` is the track read (a multi-track motion's tracks are each their own property).
pub fn decode(m: &Table, k: usize, reading: &Value, expected: f64) -> (Option<f64>, Option<f64>) {
    let property = m.property_of(k);
    let text = reading[0].as_str().unwrap_or_default();
    let typed_value = &reading[1];
    let component = |k: usize| typed_value.get(k).and_then(typed);
    let word = |k: usize| -> Option<f64> {
        if text.trim() == "none" {
            // No animation and no value of the element's own: the neutral value.
            return Some(if property == "scale" { 1.0 } else { 0.0 });
        }
        match text.split_whitespace().nth(k) {
            Some(w) => leading_number(w),
            // `translate: 5px` is `5px 0`.
            None => (k > 0).then_some(0.0),
        }
    };
    match m.readout_of(k) {
        "translate" if property == "translateX" => (word(0), component(0)),
        "translate" => (word(1), component(1)),
        "scale" => (word(0), component(0)),
        "rotate" => (
            word(0).map(|a| unwrap_angle(a, expected)),
            component(0).map(|a| unwrap_angle(a, expected)),
        ),
        _ => (leading_number(text), typed(typed_value)),
    }
}

/// Worst error per (label, readout), and every failure.
#[derive(Default)]
pub struct Tally {
    pub worst: BTreeMap<(String, &'static str), (f64, f64, String)>,
    pub failures: Vec<String>,
    pub samples: usize,
}

impl Tally {
    pub fn record(
        &mut self,
        label: &str,
        readout: &'static str,
        error: f64,
        bound: f64,
        what: &str,
    ) {
        self.samples += 1;
        let entry =
            self.worst
                .entry((label.to_owned(), readout))
                .or_insert((0.0, bound, String::new()));
        if !(error <= entry.0) {
            *entry = (error, bound, what.to_owned());
        }
        if !(error <= bound) {
            self.failures.push(format!(
                "{label} ({readout}): error {error:.6} > {bound} at {what}"
            ));
        }
    }

    /// The worst errors as a table, for the test's output.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<24} {:<16} {:>12} {:>10}  where\n",
            "kind", "readout", "worst error", "bound"
        );
        for ((label, readout), (error, bound, what)) in &self.worst {
            writeln!(
                s,
                "{label:<24} {readout:<16} {error:>12.7} {bound:>10.4}  {what}"
            )
            .unwrap();
        }
        s
    }

    /// The worst error of all.
    pub fn worst(&self) -> f64 {
        self.worst.values().map(|w| w.0).fold(0.0, f64::max)
    }
}

/// What one seek's readings are.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Readings {
    /// The motion's own property (one reading per track; opacity clamped to [0, 1]).
    Motion,
    /// One number per seek, following the motion's first track (a probe property driven by
    /// the motion's easing).
    Probe,
}

/// Compares the seeks `[[currentTime, readings], ...]` of one element with the table.
/// `bound` is the motion's bound ([`Table::bound`], its tightest track's) plus any tolerance;
/// each track of a multi-track motion is held to its own unit's bound in its place, and
/// tallied under its property.
pub fn compare(
    m: &Table,
    seeks: &Value,
    label: &str,
    bound: f64,
    readings_are: Readings,
    tally: &mut Tally,
) {
    let seeks = seeks.as_array().expect("samples");
    assert_eq!(seeks.len(), m.samples.len(), "{}", m.name);
    for (seek, &sent) in seeks.iter().zip(&m.samples) {
        let time_ms = seek[0].as_f64().unwrap();
        // Chromium keeps times in seconds (the read-back differs in the last bits), Firefox
        // in nanoseconds, WebKit reads back whole microseconds: at most 0.5 us off, which moves
        // even the fastest motion here (< 5,000 px/s) by under 0.0025 px. The table is read
        // at the time the page asked for.
        assert!(
            (time_ms - sent).abs() <= 5e-4 + 1e-9,
            "{}: currentTime {sent} reads back as {time_ms}",
            m.name
        );
        let t = sent / 1000.0;
        let readings = seek[1].as_array().unwrap();
        let tracks = match readings_are {
            Readings::Motion => m.tracks.len(),
            Readings::Probe => 1,
        };
        assert_eq!(readings.len(), tracks, "{}", m.name);
        for (k, reading) in readings.iter().enumerate() {
            let mut expected = m.exact(k, t);
            if m.property_of(k) == "opacity" && readings_are == Readings::Motion {
                expected = expected.clamp(0.0, 1.0);
            }
            if m.ring_ends_hidden && readings_are == Readings::Motion && t >= m.duration {
                // Once it has ended, a ring's radii are back at their initial value, 0.
                expected = 0.0;
            }
            let (computed, typed) = match readings_are {
                Readings::Motion => decode(m, k, reading, expected),
                Readings::Probe => (
                    leading_number(reading[0].as_str().unwrap_or_default()),
                    typed(&reading[1]),
                ),
            };
            // `bound` is the tightest track's plus any extra tolerance; each track is held to
            // its own tolerance of the exact motion.
            let extra = bound - m.bound();
            let (label, bound) = if m.is_multi() && readings_are == Readings::Motion {
                (
                    format!("{label}: {}", m.tracks[k].0),
                    m.exact_bound_of(k) + extra,
                )
            } else {
                (label.to_owned(), m.exact_bound_of(k) + extra)
            };
            let frame = m.times.iter().position(|&ti| ti * 1000.0 == sent);
            let what = format!(
                "{} {} t={time_ms} ms ({}) expected {expected}, read {} / {}",
                m.name,
                m.tracks[k].0,
                frame.map_or("between frames".to_owned(), |i| format!("frame {i}")),
                reading[0],
                reading[1]
            );
            // An engine without Typed OM (Firefox) says so, and only its computed style counts.
            let no_typed_om = reading[1].as_str() == Some("n/a");
            for (readout, value) in [("computed style", computed), ("typed OM", typed)] {
                if readout == "typed OM" && no_typed_om {
                    continue;
                }
                // About a step, either side of it is the motion (see `Table::step_near`).
                let error = |v: f64| match m.step_near(k, t) {
                    Some((a, b)) if readings_are == Readings::Motion || m.tracks.len() == 1 => {
                        [expected, a, b]
                            .map(|e| (v - e).abs())
                            .into_iter()
                            .fold(f64::INFINITY, f64::min)
                    }
                    _ => (v - expected).abs(),
                };
                match value {
                    Some(v) => tally.record(&label, readout, error(v), bound, &what),
                    None => tally.failures.push(format!("unreadable {readout}: {what}")),
                }
            }
        }
    }
}
