//! The CSS `linear()` easing of a motion that travels from one value to another: its progress
//! `p(t) = (x(t) - from) / (to - from)` at each kept point (a frame, or a join of its closed
//! forms between two frames, see the `timeline` module), as a piecewise-linear function of
//! `t / D` (overshoot included: `p` may leave [0, 1]). The CSS and the JS exporters write the
//! same text.
//!
//! # Compactness
//!
//! * A stop's input (its percentage) is written only where it cannot be implied: CSS places
//!   stops without one evenly between the nearest stops that have one (the first at 0 %, the
//!   last at 100 %). Frames are evenly spaced in time, so a motion that keeps every frame
//!   needs at most one written input (before a shorter last interval); a join between two
//!   frames needs its own and its neighbours' (the spacing changes on both sides).
//! * Progress values get the fewest decimals whose rounding, times `|to - from|`, stays within
//!   a quarter of the value's precision target ([`Progress::new`]).
//!
//! An implied input may be off its frame time by at most half the timing budget the caller
//! gives; a written one by its rounding, at most the other half.

use curvebake_model::number::{max_fixed_len, write_fixed, FIXED_SCRATCH};

/// Most decimals of a progress value.
const MAX_PROGRESS_DECIMALS: u32 = 15;

/// Most decimals of a written input (percent).
const MAX_INPUT_DECIMALS: u32 = 12;

/// How progress values are written: `(x - from) / (to - from)` with `decimals` decimals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Start value (progress 0).
    pub from: f64,
    /// End value (progress 1).
    pub to: f64,
    /// Decimals of a progress value.
    pub decimals: u32,
}

impl Progress {
    /// The progress of a motion from `from` to `to` (`from != to`), written with the fewest
    /// decimals `k` such that the rounding `0.5 · 10^-k · |to - from|` is at most `target / 4`.
    pub fn new(from: f64, to: f64, target: f64) -> Self {
        let span = (to - from).abs();
        let decimals = (0..MAX_PROGRESS_DECIMALS)
            .find(|&k| 0.5 * 10f64.powi(-(k as i32)) * span <= target / 4.0)
            .unwrap_or(MAX_PROGRESS_DECIMALS);
        Self { from, to, decimals }
    }

    /// Largest error, in the unit of the values, that the rounding of a progress value makes.
    pub fn rounding(&self) -> f64 {
        0.5 * 10f64.powi(-(self.decimals as i32)) * (self.to - self.from).abs()
    }

    /// The progress of value `x`.
    pub fn of(&self, x: f64) -> f64 {
        (x - self.from) / (self.to - self.from)
    }
}

/// Where the stops are in time.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// Time of each point (frames and joins), seconds.
    pub times: &'a [f64],
    /// Bake length `D`, seconds (the input of a frame is `t / D`).
    pub duration: f64,
    /// Longest a stop may be off its frame time, seconds.
    pub budget: f64,
}

/// Appends `linear(p0,p1,...)` for the points `stops` (the first and the last among them)
/// of `values`. It allocates nothing: which inputs are written is decided stop by stop
/// as they are written (`WrittenInputs`).
pub fn write_linear(
    out: &mut Vec<u8>,
    progress: &Progress,
    values: &[f64],
    inputs: &Inputs,
    stops: &[usize],
) {
    let mut written = WrittenInputs::new(inputs, stops);
    let decimals = input_decimals(inputs);
    out.extend_from_slice(b"linear(");
    for (k, &i) in stops.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        write_fixed(out, progress.of(values[i]), progress.decimals);
        if written.next(k) {
            out.push(b' ');
            write_fixed(out, 100.0 * inputs.times[i] / inputs.duration, decimals);
            out.push(b'%');
        }
    }
    out.push(b')');
}

/// Decimals of a written input (percent): the fewest whose rounding stays within half the
/// timing budget.
fn input_decimals(inputs: &Inputs) -> u32 {
    let budget = 100.0 * inputs.budget / inputs.duration;
    (0..MAX_INPUT_DECIMALS)
        .find(|&k| 10f64.powi(-(k as i32)) <= budget)
        .unwrap_or(MAX_INPUT_DECIMALS)
}

/// An upper bound on the bytes [`write_linear`] appends (so that a buffer can be sized once),
/// with [`write_fixed`]'s room to work past the end ([`FIXED_SCRATCH`]).
pub fn max_len(progress: &Progress, values: &[f64], inputs: &Inputs, stops: &[usize]) -> usize {
    let largest = stops
        .iter()
        .fold(0.0f64, |m, &i| m.max(progress.of(values[i]).abs()));
    let point = max_fixed_len(largest, progress.decimals) + ",".len();
    let input = " ".len() + max_fixed_len(100.0, input_decimals(inputs)) + "%".len();
    "linear()".len() + stops.len() * (point + input) + FIXED_SCRATCH
}

/// Which stops need their input written: a greedy walk that extends each run of stops
/// between two written (or end) inputs as long as every stop inside it, placed evenly, stays
/// within half the budget of its own input; where a run cannot grow, its last stop is
/// written. A run of evenly spaced stops is extended without a scan.
///
/// Stop `k`'s answer is known once stop `k + 1` has been looked at, so the walk is asked
/// stop by stop, in order ([`WrittenInputs::next`]), and keeps no answers.
struct WrittenInputs<'a> {
    inputs: &'a Inputs<'a>,
    stops: &'a [usize],
    /// Half the budget, in percent.
    half: f64,
    /// How much evenly spaced gaps may differ by float rounding: this much over a whole run
    /// of n stops adds up to at most half of the half budget.
    even: f64,
    /// The stop the current run starts from (the last written one, or the first).
    start: usize,
    /// The gap between the current run's first two stops, percent.
    first_gap: f64,
    /// Whether the current run is evenly spaced so far.
    evenly: bool,
    /// The input of the stop asked about next, percent (each input is computed once).
    here: f64,
}

impl<'a> WrittenInputs<'a> {
    fn new(inputs: &'a Inputs<'a>, stops: &'a [usize]) -> Self {
        let half = 50.0 * inputs.budget / inputs.duration;
        let mut walk = Self {
            inputs,
            stops,
            half,
            even: half / (2.0 * stops.len() as f64),
            start: 0,
            first_gap: 0.0,
            evenly: true,
            here: 0.0,
        };
        if stops.len() > 1 {
            walk.here = walk.input(1);
            walk.first_gap = walk.here - walk.input(0);
        }
        walk
    }

    /// Input of stop `k`, percent.
    fn input(&self, k: usize) -> f64 {
        100.0 * self.inputs.times[self.stops[k]] / self.inputs.duration
    }

    /// Whether stop `k` needs its input written; asked for `k = 0, 1, 2, ...` in turn. The
    /// first and the last stop never do: CSS places them at 0 % and 100 %.
    fn next(&mut self, k: usize) -> bool {
        let c = k + 1;
        if k == 0 || c >= self.stops.len() {
            return false;
        }
        let after = self.input(c);
        let gap = after - self.here;
        let still_even = self.evenly && (gap - self.first_gap).abs() <= self.even;
        let written = !(still_even || self.fits(self.start, c));
        if written {
            // A new run starts at `k`: its first gap is the one to `c`.
            self.start = k;
            self.first_gap = gap;
            self.evenly = true;
        } else {
            self.evenly = still_even;
        }
        self.here = after;
        written
    }

    /// Whether every stop strictly between `a` and `c`, placed evenly between them, stays
    /// within half the budget of its own input.
    fn fits(&self, a: usize, c: usize) -> bool {
        let (from, to) = (self.input(a), self.input(c));
        (a + 1..c).all(|k| {
            let implied = from + (to - from) * (k - a) as f64 / (c - a) as f64;
            (implied - self.input(k)).abs() <= self.half
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linear(values: &[f64], times: &[f64], duration: f64, stops: &[usize]) -> String {
        let mut out = Vec::new();
        let progress = Progress::new(values[0], values[values.len() - 1], 0.01);
        let inputs = Inputs {
            times,
            duration,
            budget: 1e-5,
        };
        write_linear(&mut out, &progress, values, &inputs, stops);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn evenly_spaced_frames_write_no_input() {
        let times = [0.0, 0.25, 0.5, 0.75, 1.0];
        let values = [0.0, 30.0, 60.0, 110.0, 100.0];
        let text = linear(&values, &times, 1.0, &[0, 1, 2, 3, 4]);
        assert_eq!(text, "linear(0,0.3,0.6,1.1,1)");
    }

    #[test]
    fn a_shorter_last_interval_writes_one_input() {
        // Frames at 0, 0.1, 0.2, 0.25: the third stop's input (80 %) is not implied.
        let times = [0.0, 0.1, 0.2, 0.25];
        let values = [0.0, 1.0, 2.0, 4.0];
        let text = linear(&values, &times, 0.25, &[0, 1, 2, 3]);
        assert_eq!(text, "linear(0,0.25,0.5 80%,1)");
    }

    #[test]
    fn dropped_stops_write_the_inputs_that_change_the_spacing() {
        let times: Vec<f64> = (0..=10).map(|i| f64::from(i) / 10.0).collect();
        let values: Vec<f64> = (0..=10).map(f64::from).collect();
        // Kept 0, 1, 2, 3 (even), then 6, 10: 3 starts a new spacing, 6 another.
        let text = linear(&values, &times, 1.0, &[0, 1, 2, 3, 6, 10]);
        assert_eq!(text, "linear(0,0.1,0.2,0.3 30%,0.6 60%,1)");
    }

    #[test]
    fn a_stop_between_frames_writes_its_input_and_its_neighbours() {
        // Frames every 0.1 s and a join at 0.12 s: 40 % is not implied, and neither are the
        // frames on either side of it (the spacing changes there).
        let times = [0.0, 0.1, 0.12, 0.2, 0.3];
        let values = [0.0, 1.0, 1.2, 2.0, 3.0];
        let text = linear(&values, &times, 0.3, &[0, 1, 2, 3, 4]);
        assert_eq!(text, "linear(0,0.333 33.333%,0.4 40%,0.667 66.667%,1)");
    }

    #[test]
    fn progress_digits_follow_the_span() {
        assert_eq!(Progress::new(-240.0, 0.0, 0.01).decimals, 5);
        assert_eq!(Progress::new(0.85, 1.0, 1e-4).decimals, 4);
        assert_eq!(Progress::new(0.0, 1.0, 1e-4).decimals, 5);
        assert!(Progress::new(0.0, 1e6, 0.01).rounding() <= 0.0025);
    }
}
