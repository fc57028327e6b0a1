//! The fitting core: stops placed against the closed form, with a proven bound.
//!
//! A browser plays a `linear()` easing, `@keyframes` with `linear` timing and Web Animations
//! keyframes the same way: straight between stops. This module chooses those stops against
//! the motion itself, in continuous time (its position and every derivative are known in
//! closed form at any `t`), not against its frames, and proves how far the played curve can
//! be from the motion at any instant.
//!
//! # The bound
//!
//! Take a segment between stops at `a < b` (`h = b - a`) over which `x` is continuously
//! differentiable, with `lo <= x''(t) <= hi` on it ([`Motion::derivative_range`]: exact
//! extrema of the closed forms). Write each stop's value as `y = x(t) + δ` (the offset `δ`
//! includes the rounding of the written number). The played line is then the chord of `x`
//! plus the straight interpolation of the offsets, and the chord's error is
//!
//! ```text
//! chord(t) - x(t) = (t - a)(b - t)/2 · x''(ξ)   for some ξ in (a, b),
//! ```
//!
//! with `0 <= (t - a)(b - t)/2 <= h²/8`. So, everywhere on the segment,
//!
//! ```text
//! min(δa, δb) - h²/8·max(0, -lo)  <=  played(t) - x(t)  <=  max(δa, δb) + h²/8·max(0, hi).
//! ```
//!
//! A segment is valid when both sides stay within `ε` (the tolerance less the shares below).
//! Offsets may lean to the side the curve bends away from (by up to [`LEAN`] of `ε`, against
//! the sign of `x''` at the stop), which lets a segment over a convex or concave stretch be
//! √(1 + LEAN) ≈ 1.26 times as long as an interpolating one (its chord error h²/8·|x''| may
//! then fill (1 + LEAN)·ε instead of ε); the bound above holds for any offsets.
//!
//! # Stops
//!
//! From each stop, the next is the furthest valid one (a bracket on the length, each
//! candidate one evaluation of the closed forms: the fitting costs O(stops) evaluations),
//! moved back by at most [`INPUT_SLACK`] of the segment to the time whose input (percent of
//! the duration) has the fewest digits. A stop's time is then exactly its written input:
//! nothing is rounded in time.
//!
//! Every join (`kinks`: a hand-off, an inertia's bound hit, a track's end, each gravity impact)
//! is a stop: segments never span one, so each is smooth. A join's time is not a short
//! decimal; it is written with the digits that keep the move of its stop from `T` to the
//! written `T'` within [`JOIN_SHARE`] of the tolerance: the played curve moves by at most
//! `(|s_left| + |s_right|)·|T - T'|`, the slopes of the segments on both sides (the larger of
//! the two placements). Its value is the motion's there (offset 0, with extra digits), so an
//! impact reaches the floor within the value's rounding and that move. A join where a track
//! steps (a track that ends holds its end value) keeps every digit ([`MAX_DECIMALS`]): a step
//! moved is off the motion by its whole size for as long as it moved. Where two stops may not
//! share an input (`@keyframes`), a step is taken over the 10⁻⁵ of `D` before it (as the rest
//! step), the arriving stop moved back onto the line its segment played.
//!
//! # Holds
//!
//! Where a track stays within a band `β` of a value `c` over a stretch (a bouncing ball after
//! its last impact listed: it bounces on, ever lower, until it rests on the floor), a segment
//! inside the stretch needs no bend: with stop values `ya` and `yb` the played line stays
//! within `max(|ya - c|, |yb - c|)` of `c`, so within that plus `β` of the motion. Its far stop
//! is `c` itself (to its rounding): the stretch is played as `c`, held, every later impact on
//! the floor. The bounces under the band (a tenth of the tolerance) then cost no stops.
//!
//! The last stop is at the end `D` with the value held from there on (the rest or arrival
//! value) when that is within the bound of `x(D)`; otherwise the curve reaches `x(D)` (leaning
//! towards the rest value) and a second stop at `D` holds the rest value: the rest step, at
//! most `rest_delta`, happens at `D` and nowhere else.
//!
//! [`FLOAT_SHARE`] of the tolerance is kept for the arithmetic of the browser (Gecko holds
//! `linear()` stops as 32-bit floats: 6e-8 of a value) and of this evaluation.

mod decimal;
#[cfg(test)]
mod tests;

pub use decimal::Decimal;

use curvebake_motion::{Jet, Motion};

/// Share of the tolerance kept for moving each join's stop to its written time.
pub const JOIN_SHARE: f64 = 0.05;

/// Largest offset of a join's stop from the motion, as a share of the tolerance (the
/// rounding of its value, [`Scale::join_decimals`]).
pub const JOIN_VALUE: f64 = 1.0 / 40.0;

/// Share of the tolerance kept for floating-point arithmetic, the browser's and ours.
pub const FLOAT_SHARE: f64 = 0.01;

/// How far short of the longest valid segment (a fraction of it) a stop may end, for an
/// input with fewer digits.
pub const INPUT_SLACK: f64 = 0.15;

/// How far a stop's value leans from the motion towards the side it bends away from, as a
/// fraction of the tolerance left for segments.
pub const LEAN: f64 = 0.6;

/// Most decimals of an input (percent) or a value.
pub const MAX_DECIMALS: u32 = 12;

/// Decimals of the input (percent) of the stop before a step without repeated inputs:
/// `99.999%`, 10⁻⁵ of `D` earlier (Gecko holds offsets as 32-bit floats, 8·10⁻⁶ % apart
/// about 100 %).
const REST_STEP_DECIMALS: u32 = 3;

/// Most stops of a fit: past it a piece ends in one segment (only a tolerance far below the
/// rounding of the values gets there).
pub const MAX_STOPS: usize = 100_000;

/// How a segment's length guess grows after a valid one.
const GROW: f64 = 1.2;

/// Share of the length predicted from the bend at a stop that the next segment tries first
/// (see `benches/README.md`, tuning decisions).
const PREDICT: f64 = 1.0;

/// How it shrinks after an invalid one.
const SHRINK: f64 = 0.85;

/// Most candidate lengths tried for one segment.
const MAX_TRIES: u32 = 200;

/// How a track's stop values are written: the number `w` (with `decimals` decimals, or
/// `join_decimals` at a join) plays the value `origin + unit·w`. A `linear()` easing writes
/// progress (`origin` its start, `unit` its range); keyframes write the value (0 and 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// The value of the number 0.
    pub origin: f64,
    /// The value of the number 1, less `origin` (non-zero).
    pub unit: f64,
    /// Decimals of a number.
    pub decimals: u32,
    /// Decimals of the number at a join.
    pub join_decimals: u32,
}

impl Scale {
    /// The scale whose rounding is at most an eighth of `tolerance` (and an eightieth, half
    /// of [`JOIN_VALUE`], at joins), with no more digits.
    pub fn new(origin: f64, unit: f64, tolerance: f64) -> Self {
        let decimals = |share: f64| {
            (0..MAX_DECIMALS)
                .find(|&k| 0.5 * decimal::pow10(k).recip() * unit.abs() <= tolerance * share)
                .unwrap_or(MAX_DECIMALS)
        };
        Self {
            origin,
            unit,
            decimals: decimals(1.0 / 8.0),
            join_decimals: decimals(JOIN_VALUE / 2.0),
        }
    }

    /// The value a written number plays.
    pub fn played(&self, w: Decimal) -> f64 {
        self.origin + self.unit * w.value()
    }

    /// The number with `decimals` decimals nearest to playing `y`.
    fn nearest(&self, y: f64, decimals: u32) -> Decimal {
        let digits = (y - self.origin) / self.unit * decimal::pow10(decimals);
        Decimal::new(decimal::round_i64(digits), decimals)
    }
}

/// One quantity to fit: a motion and how its values are written.
#[derive(Clone, Copy)]
pub struct Track<'a> {
    /// The motion, `x(t)` for `0 <= t <= D`.
    pub motion: &'a dyn Motion,
    /// How its values are written.
    pub scale: Scale,
    /// The value held from `D` on (its rest or arrival value, else `x(D)`).
    pub end_value: f64,
    /// Largest distance from the motion, in its unit, at any instant before `D`.
    pub tolerance: f64,
    /// Where it stays near one value ([`Hold`]), in time order: each starts at a kink.
    pub holds: &'a [Hold],
}

impl Track<'_> {
    /// The hold that covers `[a, b]`, if any.
    fn hold_over(&self, a: f64, b: f64) -> Option<&Hold> {
        self.holds.iter().find(|h| h.from <= a && b <= h.until)
    }
}

/// A stretch `[from, until]` over which a track stays within `band` of `value` (see the
/// module documentation, holds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hold {
    /// Its start, seconds (a kink of the track).
    pub from: f64,
    /// Its end, seconds (the track's next kink, or `D`).
    pub until: f64,
    /// The value the track stays near (a floor).
    pub value: f64,
    /// How far from it the track goes at most.
    pub band: f64,
}

/// Where the fit's stops may go in time.
#[derive(Debug, Clone, Copy)]
pub struct Timing<'a> {
    /// `D`, seconds, as the browser plays it (the written duration).
    pub duration: f64,
    /// Times strictly inside `(0, D)` where some track is not smooth (ascending).
    pub kinks: &'a [f64],
    /// Whether two stops may share an input (a `linear()` easing and Web Animations
    /// keyframes may; `@keyframes` may not, and a rest step there is taken over the last
    /// 10⁻⁵ of `D`).
    pub repeat_input: bool,
}

/// Stops of one or more tracks on one timeline, and the bound they keep.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fit {
    /// Each stop's input: percent of `D`.
    pub inputs: Vec<Decimal>,
    /// Each stop's time, seconds: its input's.
    pub times: Vec<f64>,
    /// Written numbers, stop by stop, each stop a number per track.
    pub values: Vec<Decimal>,
    /// Number of tracks.
    pub tracks: usize,
    /// Per track, the proven largest distance of the played curve from the motion at any
    /// instant before `D`.
    pub bounds: Vec<f64>,
    /// The same per segment (the one ending at stop `k` is `k - 1`), segment by segment,
    /// each a bound per track.
    pub segment_bounds: Vec<f64>,
    /// Indices of the stops at joins.
    pub joins: Vec<usize>,
    /// Indices of the second stops of steps at joins (a track that ends holds its value).
    pub steps: Vec<usize>,
    /// Whether some segment's bound exceeds its track's tolerance: a motion far faster than
    /// any stops can follow (no segment valid down to the finest input, or [`MAX_STOPS`]
    /// reached), its rest played straight past it. (The rest step's move, over the last 10⁻⁵
    /// of `D` where keyframes cannot repeat an input, is not counted: it is the step's.)
    pub overrun: bool,
}

impl Fit {
    /// Room for `stops` stops of up to [`MAX_TRACKS`] tracks and `joins` joins.
    pub fn with_capacity(stops: usize, joins: usize) -> Self {
        Self {
            inputs: Vec::with_capacity(stops),
            times: Vec::with_capacity(stops),
            values: Vec::with_capacity(stops * MAX_TRACKS),
            tracks: 0,
            bounds: Vec::with_capacity(MAX_TRACKS),
            segment_bounds: Vec::with_capacity(stops * MAX_TRACKS),
            joins: Vec::with_capacity(joins),
            steps: Vec::with_capacity(joins),
            overrun: false,
        }
    }

    /// Empties it for a fit of `tracks` tracks, keeping its memory.
    fn clear(&mut self, tracks: usize) {
        self.inputs.clear();
        self.times.clear();
        self.values.clear();
        self.tracks = tracks;
        self.bounds.clear();
        self.bounds.resize(tracks, 0.0);
        self.segment_bounds.clear();
        self.joins.clear();
        self.steps.clear();
        self.overrun = false;
    }

    /// Number of stops.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether it has no stops (never: a fit has at least two).
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The number written for track `j` at stop `k`.
    pub fn value(&self, k: usize, j: usize) -> Decimal {
        self.values[k * self.tracks + j]
    }

    /// What the browser plays for track `j` at time `t` (straight between stops; at a time
    /// with two stops, the later), given the track's scale.
    pub fn played(&self, scale: &Scale, j: usize, t: f64) -> f64 {
        let k = self.times.partition_point(|&s| s <= t);
        if k == 0 {
            return scale.played(self.value(0, j));
        }
        if k == self.len() {
            return scale.played(self.value(k - 1, j));
        }
        let (a, b) = (k - 1, k);
        let (ya, yb) = (
            scale.played(self.value(a, j)),
            scale.played(self.value(b, j)),
        );
        ya + (yb - ya) * (t - self.times[a]) / (self.times[b] - self.times[a])
    }
}

/// What a segment's far stop is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    /// An ordinary stop: its value leans against the motion's bend.
    Free,
    /// A join: the motion's value there.
    Join,
    /// The end `D`: as near the held value as the bound allows.
    Last,
}

/// A stop and the segment that ends there: its input and time, whether it ends its piece,
/// per track its number and offset, the segment's bound and the motion there (where the next
/// segment starts). The fitting works on two of these in place (the last stop and the next).
#[derive(Debug, Clone, Copy)]
struct Reach {
    input: Decimal,
    time: f64,
    at_end: bool,
    values: [Decimal; MAX_TRACKS],
    offsets: [f64; MAX_TRACKS],
    bounds: [f64; MAX_TRACKS],
    jets: [Jet; MAX_TRACKS],
}

impl Reach {
    fn new() -> Self {
        Self {
            input: Decimal::ZERO,
            time: 0.0,
            at_end: false,
            values: [Decimal::ZERO; MAX_TRACKS],
            offsets: [0.0; MAX_TRACKS],
            bounds: [0.0; MAX_TRACKS],
            jets: [NO_JET; MAX_TRACKS],
        }
    }
}

/// The jet of a track that is not there.
const NO_JET: Jet = Jet {
    t: 0.0,
    position: 0.0,
    second: f64::NAN,
};

/// Most tracks fitted together (a multi-track motion's five properties).
pub const MAX_TRACKS: usize = 5;

/// The fitting of some tracks on one timeline.
struct Fitter<'a> {
    tracks: &'a [Track<'a>],
    /// Per track, the tolerance left for segments.
    room: [f64; MAX_TRACKS],
    duration: f64,
}

/// Fits `tracks` (at most [`MAX_TRACKS`]) with shared stops: see the module documentation.
pub fn fit(tracks: &[Track], timing: &Timing) -> Fit {
    let mut fit = Fit::default();
    fit_into(tracks, timing, capacity(tracks, timing), &mut fit);
    fit
}

/// The warning of a motion of `frames` frames whose `output` (its CSS, its module's
/// keyframes, its Lottie) takes `stops` stops and still overruns its tolerance
/// ([`Fit::overrun`]), `cap` the most stops the output takes: a motion that moves for too long
/// (it reached the cap over more than a tenth of as many frames, ten stops a frame or fewer: a
/// spring with almost no damping swinging for hours), or one far faster than its frames
/// (thousands of oscillations in a frame, a rate near a billion per second); either is played
/// straight past what its stops follow.
pub fn overrun_warning(output: &str, stops: usize, cap: usize, frames: usize) -> String {
    if stops >= cap && frames >= cap / 10 {
        format!(
            "its {output} would need more than {cap} stops to follow it within its tolerance: \
             it keeps moving for too long (a spring with almost no damping, a ball bouncing on \
             and on), and past them it is played straight to its end; give it more damping, a \
             shorter `duration` or a larger `tolerance`"
        )
    } else {
        format!(
            "its {output} cannot follow it within its tolerance, even with {stops} stops: it \
             moves far faster than its frames (an oscillation of thousands in a frame, or a \
             rate near a billion per second); give it a smaller stiffness or rate"
        )
    }
}

/// The room tolerances leave for segments, per track.
fn rooms(tracks: &[Track]) -> [f64; MAX_TRACKS] {
    let mut room = [0.0; MAX_TRACKS];
    for (r, track) in room.iter_mut().zip(tracks) {
        *r = track.tolerance * (1.0 - JOIN_SHARE - FLOAT_SHARE);
    }
    room
}

/// More stops than [`fit`] makes of `tracks`: no segment is shorter than a fraction of the
/// length whose chord error at the largest |x''| over the whole motion fills what leaning
/// leaves of the room (1 - [`LEAN`] of it); each join adds two (a step's second stop).
pub fn capacity(tracks: &[Track], timing: &Timing) -> usize {
    let room = rooms(tracks);
    let duration = timing.duration;
    let mut stops = 8;
    for (j, track) in tracks.iter().enumerate() {
        let (lo, hi) = track.motion.derivative_range(2, 0.0, duration);
        let bend = lo.abs().max(hi.abs());
        if bend > 0.0 && room[j] > 0.0 {
            let shortest =
                SHRINK * (1.0 - INPUT_SLACK) * (8.0 * (1.0 - LEAN) * room[j] / bend).sqrt();
            stops = stops.max((duration / shortest).min(MAX_STOPS as f64) as usize + 8);
        }
    }
    stops + 4 * timing.kinks.len()
}

/// [`fit`] into `fit`, whose memory it reuses, with room made for `stops` stops: given at
/// least [`capacity`] (which a caller may have at hand already), it allocates once, and not
/// at all in a `fit` with that room (as [`Fit::with_capacity`] makes).
pub fn fit_into(tracks: &[Track], timing: &Timing, stops: usize, fit: &mut Fit) {
    fit_at_most(tracks, timing, stops, usize::MAX, fit);
}

/// [`fit_into`], given up (`false`, `fit` left unfinished) once it has made more than `most`
/// stops: for a caller that has no use for more (a preview of [`crate::preview`]). Whether it
/// finished.
pub fn fit_at_most(
    tracks: &[Track],
    timing: &Timing,
    stops: usize,
    most: usize,
    fit: &mut Fit,
) -> bool {
    assert!(!tracks.is_empty() && tracks.len() <= MAX_TRACKS);
    let n = tracks.len();
    let duration = timing.duration;
    let room = rooms(tracks);
    let fitter = Fitter {
        tracks,
        room,
        duration,
    };
    fit.clear(n);
    fit.inputs.reserve(stops);
    fit.times.reserve(stops);
    fit.values.reserve(stops * n);
    fit.segment_bounds.reserve(stops * n);
    fit.joins.reserve(timing.kinks.len());
    fit.steps.reserve(timing.kinks.len());
    fit.inputs.push(Decimal::ZERO);
    fit.times.push(0.0);
    let mut stops = [Reach::new(), Reach::new()];
    // The first length: where the chord of the start's curvature (the bend at the start's jet
    // alone) reaches the tolerance.
    let mut guess = duration;
    for (j, track) in tracks.iter().enumerate() {
        let jet = track.motion.jet(0.0);
        let w = track.scale.nearest(jet.position, track.scale.join_decimals);
        fit.values.push(w);
        stops[0].jets[j] = jet;
        stops[0].offsets[j] = track.scale.played(w) - jet.position;
        let (lo, hi) = track.motion.bend(&jet, &jet);
        let bend = lo.abs().max(hi.abs());
        if bend > 0.0 {
            guess = guess.min(GROW * (8.0 * room[j] / bend).sqrt());
        }
    }
    let ends = (timing.kinks.iter())
        .filter(|&&t| t > 0.0 && t < duration)
        .map(|&t| (t, End::Join))
        .chain([(duration, End::Last)]);
    // The last stop is `stops[last]`, the next one is made in the other.
    let mut last = 0;
    for (piece_end, end) in ends {
        let piece_start = stops[last].time;
        if piece_end <= piece_start {
            continue;
        }
        loop {
            let [first_of_two, second_of_two] = &mut stops;
            let (from, next) = if last == 0 {
                (&*first_of_two, second_of_two)
            } else {
                (&*second_of_two, first_of_two)
            };
            if fit.len() > most {
                return false;
            }
            if fit.len() < MAX_STOPS {
                let first = from.time <= piece_start;
                fit.overrun |= fitter.next_stop(fit, from, piece_end, end, &mut guess, first, next);
            } else {
                // A tolerance far below what the values can show: the rest of the piece in
                // one segment, its bound whatever it is.
                next.input = match end {
                    End::Last => Decimal::HUNDRED,
                    _ => Decimal::round(100.0 * piece_end / duration, MAX_DECIMALS),
                };
                fit.overrun |= fitter.segment_anyway(from, piece_end, next);
                next.at_end = true;
            }
            fit.inputs.push(next.input);
            fit.times.push(next.time);
            fit.values.extend_from_slice(&next.values[..n]);
            fit.segment_bounds.extend_from_slice(&next.bounds[..n]);
            last = 1 - last;
            if next.at_end {
                if end == End::Join {
                    fit.joins.push(fit.len() - 1);
                    jump(fit, tracks, &mut next.offsets);
                }
                break;
            }
        }
    }
    fitter.rest_step(fit, timing.repeat_input);
    place_joins(fit, tracks, timing.repeat_input);
    for segment in fit.segment_bounds.chunks_exact(n) {
        for (bound, on_segment) in fit.bounds.iter_mut().zip(segment) {
            *bound = bound.max(*on_segment);
        }
    }
    true
}

impl Fitter<'_> {
    /// The next stop after the last one (`from`) towards `piece_end`, into `next`. `guess`
    /// carries the last segment's length over. Returns whether the segment to it overruns
    /// the tolerance (none short enough was valid: [`Fit::overrun`]).
    #[allow(clippy::too_many_arguments)]
    fn next_stop(
        &self,
        fit: &Fit,
        from: &Reach,
        piece_end: f64,
        end: End,
        guess: &mut f64,
        first_of_piece: bool,
        next: &mut Reach,
    ) -> bool {
        let a = from.time;
        let span = piece_end - a;
        let previous = fit.inputs[fit.len() - 1];
        // A length predicted from the bend at the last stop (`next_guess`) that shrinks
        // after each invalid try: about 1.2 tries a stop, each one evaluation of the closed
        // forms at its end (and at the derivative's extrema inside).
        // The first stop of a piece tries the whole piece (a track that has ended holds its
        // value in one segment).
        let mut h = if first_of_piece {
            span
        } else {
            guess.min(span)
        };
        for _ in 0..MAX_TRIES {
            if h >= span {
                if self.segment(from, piece_end, end, next) {
                    *guess = span.max(*guess);
                    next.input = match end {
                        End::Last => Decimal::HUNDRED,
                        // Written once every stop is known (`place_joins`).
                        _ => Decimal::round(100.0 * piece_end / self.duration, MAX_DECIMALS),
                    };
                    next.at_end = true;
                    return false;
                }
                h = guess.min(SHRINK * span);
                continue;
            }
            if let Some((input, b)) = self.short_input(a, h, previous) {
                if self.segment(from, b, End::Free, next) {
                    *guess = self.next_guess(h, next);
                    next.input = input;
                    next.at_end = false;
                    return false;
                }
            }
            h *= SHRINK;
        }
        let hi = 100.0 * (a + h) / self.duration;
        // No valid segment to a short input (a tolerance below the arithmetic's rounding, or
        // a motion faster than the finest input: a spring of stiffness 1e40 settles in
        // 1e-19 s): the finest input after `a`, its bound whatever it is. The next stop tries
        // the rest of the piece first (a motion that has settled by then needs one segment,
        // not the 10¹⁴ of the finest inputs).
        next.input = Decimal::round(hi, MAX_DECIMALS).max(previous.next_up(MAX_DECIMALS));
        let b = (next.input.value() / 100.0 * self.duration).min(piece_end);
        let overran = self.segment_anyway(from, b, next);
        next.at_end = false;
        *guess = span;
        overran
    }

    /// The length to try first after a valid segment of length `h` that ended at `next`: at
    /// most [`GROW`] times longer, and no longer than where the chord of the bend there
    /// would fill the room on both sides (the offsets lean by up to [`LEAN`]).
    fn next_guess(&self, h: f64, next: &Reach) -> f64 {
        let mut guess = GROW * h;
        for (j, jet) in next.jets.iter().enumerate().take(self.tracks.len()) {
            // A track held from here asks nothing of the length.
            if self.tracks[j].hold_over(next.time, next.time).is_some() {
                continue;
            }
            let bend = jet.second.abs();
            if bend > 0.0 {
                guess = guess.min(PREDICT * (8.0 * (1.0 + LEAN) * self.room[j] / bend).sqrt());
            }
        }
        guess.max(SHRINK * h)
    }

    /// The time in `[a + (1 - INPUT_SLACK)·h, a + h]` whose input (percent of `D`, after
    /// `previous`) has the fewest digits, and that input.
    fn short_input(&self, a: f64, h: f64, previous: Decimal) -> Option<(Decimal, f64)> {
        let hi = 100.0 * (a + h) / self.duration;
        let lo = 100.0 * (a + (1.0 - INPUT_SLACK) * h) / self.duration;
        (0..=MAX_DECIMALS).find_map(|decimals| {
            let input = Decimal::floor(hi, decimals);
            let b = input.value() / 100.0 * self.duration;
            (input.value() >= lo && input > previous && b > a).then_some((input, b))
        })
    }

    /// Whether the segment from the stop `from` to `b` is valid on every track; if so, `next`
    /// holds its far stop at `b`: its numbers (chosen for `end`) and offsets, the segment's
    /// bound per track and the motion there.
    fn segment(&self, from: &Reach, b: f64, end: End, next: &mut Reach) -> bool {
        let a = from.time;
        next.time = b;
        // h²/8: the chord's largest distance from the curve per unit of x''.
        let chord_factor = (b - a) * (b - a) / 8.0;
        for (j, track) in self.tracks.iter().enumerate() {
            let room = self.room[j];
            let jet = track.motion.jet(b);
            if let Some(hold) = track.hold_over(a, b) {
                if !self.hold(from, j, hold, jet, next) {
                    return false;
                }
                continue;
            }
            let (lo, hi) = track.motion.bend(&from.jets[j], &jet);
            next.jets[j] = jet;
            let start = from.offsets[j];
            let (above, below) = (chord_factor * hi.max(0.0), chord_factor * (-lo).max(0.0));
            // Offsets that keep the segment within `room`.
            let (min, max) = (-room + below, room - above);
            if !(min <= start && start <= max) {
                return false;
            }
            // At a join, the motion as it arrives (a track that ends may step to its held
            // value there: see `jump`).
            let x = match end {
                End::Join => track.motion.position(before(b)),
                _ => jet.position,
            };
            let (target, decimals) = match end {
                // Against the bend of the segment (the next one bends the same way, but
                // about an inflection).
                End::Free => {
                    let bend = if lo >= 0.0 && hi > 0.0 {
                        1.0
                    } else if hi <= 0.0 && lo < 0.0 {
                        -1.0
                    } else {
                        0.0
                    };
                    (-LEAN * room * bend, track.scale.decimals)
                }
                End::Join => (0.0, track.scale.join_decimals),
                End::Last => (track.end_value - x, track.scale.join_decimals),
            };
            let (min, max) = match end {
                // A join's stop is the motion's value there, to its rounding.
                End::Join => (
                    min.max(-JOIN_VALUE * track.tolerance),
                    max.min(JOIN_VALUE * track.tolerance),
                ),
                _ => (min, max),
            };
            if !(min <= max) {
                return false;
            }
            let Some((w, offset)) = pick(
                &track.scale,
                x,
                target.clamp(min, max),
                decimals,
                (min, max),
            ) else {
                return false;
            };
            next.values[j] = w;
            next.offsets[j] = offset;
            next.bounds[j] = (start.max(offset) + above).max(below - start.min(offset));
        }
        true
    }

    /// Track `j` of the segment from the stop `from` to the jet `jet` inside `hold`: the far
    /// stop is the held value (to its rounding at a join), the bound its distance and the
    /// start's from that value plus the band. Whether that is within the room.
    fn hold(&self, from: &Reach, j: usize, hold: &Hold, jet: Jet, next: &mut Reach) -> bool {
        let scale = &self.tracks[j].scale;
        let w = scale.nearest(hold.value, scale.join_decimals);
        let (start, end) = (from.jets[j].position + from.offsets[j], scale.played(w));
        let bound = (start - hold.value).abs().max((end - hold.value).abs()) + hold.band;
        next.jets[j] = jet;
        next.values[j] = w;
        next.offsets[j] = end - jet.position;
        next.bounds[j] = bound;
        bound <= self.room[j]
    }

    /// The segment from the stop `from` to `b` valid or not, into `next`: its bound as it
    /// comes. Returns whether that bound is over some track's tolerance (a valid segment's
    /// never is: it keeps within the room).
    fn segment_anyway(&self, from: &Reach, b: f64, next: &mut Reach) -> bool {
        let a = from.time;
        next.time = b;
        let chord_factor = (b - a) * (b - a) / 8.0;
        for (j, track) in self.tracks.iter().enumerate() {
            let (lo, hi) = track.motion.derivative_range(2, a, b);
            next.jets[j] = track.motion.jet(b);
            let x = next.jets[j].position;
            let start = from.offsets[j];
            let w = track.scale.nearest(x, MAX_DECIMALS);
            let offset = track.scale.played(w) - x;
            let (above, below) = (chord_factor * hi.max(0.0), chord_factor * (-lo).max(0.0));
            next.values[j] = w;
            next.offsets[j] = offset;
            next.bounds[j] = (start.max(offset) + above).max(below - start.min(offset));
        }
        (next.bounds.iter().zip(self.tracks)).any(|(bound, track)| *bound > track.tolerance)
    }

    /// Where the last stop is not the held value, the rest step: a stop at `D` with it (or,
    /// without repeated inputs, the last stop moved 10⁻⁵ of `D` earlier, onto the line its
    /// segment played: [`cut_back`]).
    fn rest_step(&self, fit: &mut Fit, repeat_input: bool) {
        let n = fit.tracks;
        let last = fit.len() - 1;
        let mut step = false;
        let mut held = [Decimal::ZERO; MAX_TRACKS];
        for (j, track) in self.tracks.iter().enumerate() {
            let w = track
                .scale
                .nearest(track.end_value, track.scale.join_decimals);
            held[j] = w;
            step |= w != fit.value(last, j);
        }
        if !step {
            return;
        }
        let input = Decimal::new(100 * 10i64.pow(REST_STEP_DECIMALS) - 1, REST_STEP_DECIMALS);
        if !repeat_input && input <= fit.inputs[last - 1] {
            // No room for a stop 10⁻⁵ of D earlier (a stop already there, as at a join just
            // before the end): the last segment ends on the held value, its bound as it
            // comes.
            for (j, track) in self.tracks.iter().enumerate() {
                let x = track.motion.position(self.duration);
                let step = (track.scale.played(held[j]) - x).abs();
                fit.values[last * n + j] = held[j];
                fit.segment_bounds[(last - 1) * n + j] += step;
            }
            return;
        }
        if !repeat_input {
            // The last segment ends 10⁻⁵ of D earlier, on the line it played.
            let t = input.value() / 100.0 * self.duration;
            cut_back(fit, self.tracks, last, input, t);
        }
        fit.inputs.push(Decimal::HUNDRED);
        fit.times.push(self.duration);
        fit.values.extend_from_slice(&held[..n]);
        // The step itself is no segment: from D on the held value is what the motion is.
        fit.segment_bounds
            .extend_from_slice(&[0.0; MAX_TRACKS][..n]);
    }
}

/// The number nearest `x + target` whose offset from `x` is within `[min, max]`, and that
/// offset; `None` if the numbers of `decimals` decimals around it are all outside.
fn pick(
    scale: &Scale,
    x: f64,
    target: f64,
    decimals: u32,
    (min, max): (f64, f64),
) -> Option<(Decimal, f64)> {
    let w = scale.nearest(x + target, decimals);
    [0i64, 1, -1]
        .into_iter()
        .map(|d| Decimal::new(w.digits + d, decimals))
        .map(|w| (w, scale.played(w) - x))
        .find(|&(_, offset)| min <= offset && offset <= max)
}

/// The largest double below `t` (a time just before a join, where the motion arrives).
pub(crate) fn before(t: f64) -> f64 {
    if t > 0.0 {
        f64::from_bits(t.to_bits() - 1)
    } else {
        t
    }
}

/// After the stop at a join (the last of `fit`), where some track's value steps there (a
/// track of a multi-track motion that ends holds its end value, which may differ from where
/// it arrives by up to its `rest_delta`): a second stop at the same time with the values
/// from the join on; the offsets carry on from it.
fn jump(fit: &mut Fit, tracks: &[Track], offsets: &mut [f64; MAX_TRACKS]) {
    let k = fit.len() - 1;
    let t = fit.times[k];
    let steps = tracks.iter().any(|track| {
        let (left, right) = (track.motion.position(before(t)), track.motion.position(t));
        (right - left).abs() > JOIN_VALUE * track.tolerance
    });
    if !steps {
        return;
    }
    let n = fit.tracks;
    fit.inputs.push(fit.inputs[k]);
    fit.times.push(t);
    for (j, track) in tracks.iter().enumerate() {
        let x = track.motion.position(t);
        let w = track.scale.nearest(x, track.scale.join_decimals);
        fit.values.push(w);
        offsets[j] = track.scale.played(w) - x;
    }
    // The step takes no time: no segment to bound.
    fit.segment_bounds
        .extend_from_slice(&[0.0; MAX_TRACKS][..n]);
    fit.steps.push(k + 1);
}

/// Writes each join's input with the fewest digits whose move of the stop stays within
/// [`JOIN_SHARE`] of every track's tolerance, and adds that move to the bounds.
fn place_joins(fit: &mut Fit, tracks: &[Track], repeat_input: bool) {
    let d = fit.times[fit.len() - 1];
    for i in 0..fit.joins.len() {
        let k = fit.joins[i];
        // A step's second stop `r` moves with the join's.
        let r = if fit.steps.contains(&(k + 1)) {
            k + 1
        } else {
            k
        };
        let exact = fit.times[k];
        let (before, after) = (fit.inputs[k - 1], fit.inputs[r + 1]);
        let slopes = |t: f64, j: usize| {
            let scale = &tracks[j].scale;
            let (y, z) = (scale.played(fit.value(k, j)), scale.played(fit.value(r, j)));
            let left = (y - scale.played(fit.value(k - 1, j))) / (t - fit.times[k - 1]);
            let right = (scale.played(fit.value(r + 1, j)) - z) / (fit.times[r + 1] - t);
            (left.abs(), right.abs())
        };
        // A step's time is kept to the last decimal: moved, the step would be played off the
        // motion by its whole size for as long as it moved.
        let fewest = if r != k { MAX_DECIMALS } else { 0 };
        let mut chosen = None;
        for decimals in fewest..=MAX_DECIMALS {
            let input = Decimal::round(100.0 * exact / d, decimals);
            if input <= before || input >= after {
                continue;
            }
            let t = input.value() / 100.0 * d;
            let mut moves = [0.0; MAX_TRACKS];
            for (j, m) in moves.iter_mut().enumerate().take(fit.tracks) {
                let (l0, r0) = slopes(exact, j);
                let (l1, r1) = slopes(t, j);
                *m = (l0.max(l1) + r0.max(r1)) * (t - exact).abs();
            }
            let fits = (moves.iter().zip(tracks)).all(|(m, tr)| *m <= JOIN_SHARE * tr.tolerance);
            if fits || decimals == MAX_DECIMALS {
                chosen = Some((input, t, moves));
                break;
            }
        }
        let Some((input, t, moves)) = chosen else {
            continue;
        };
        let n = fit.tracks;
        for (j, m) in moves.into_iter().enumerate().take(n) {
            fit.segment_bounds[(k - 1) * n + j] += m;
            fit.segment_bounds[r * n + j] += m;
        }
        fit.inputs[r] = input;
        fit.times[r] = t;
        fit.inputs[k] = input;
        fit.times[k] = t;
        if r != k && !repeat_input {
            // Two stops may not share an input: the arriving one 10⁻⁵ of D earlier (or, on a
            // shorter segment, just after the stop before), on the line its segment played.
            let mut earlier = input.minus(Decimal::new(1, REST_STEP_DECIMALS));
            if earlier <= before {
                earlier = before.next_up(MAX_DECIMALS);
            }
            if earlier < input {
                cut_back(fit, tracks, k, earlier, earlier.value() / 100.0 * d);
            }
        }
    }
}

/// Moves stop `k`, the end of the segment from stop `k - 1`, back to `input` (time `t`), onto
/// the line that segment played: the segment then plays the same line up to `t`, but for the
/// rounding of the stop's new numbers, which its bound takes (with the digits that keep it
/// within the tolerance less [`FLOAT_SHARE`], where the bound was).
fn cut_back(fit: &mut Fit, tracks: &[Track], k: usize, input: Decimal, t: f64) {
    let n = fit.tracks;
    let (a, b) = (fit.times[k - 1], fit.times[k]);
    for (j, track) in tracks.iter().enumerate() {
        let scale = &track.scale;
        let (ya, yb) = (
            scale.played(fit.value(k - 1, j)),
            scale.played(fit.value(k, j)),
        );
        let y = ya + (yb - ya) * ((t - a) / (b - a));
        let bound = fit.segment_bounds[(k - 1) * n + j];
        let room = track.tolerance * (1.0 - FLOAT_SHARE);
        let (w, off) = (scale.join_decimals..=MAX_DECIMALS)
            .map(|decimals| {
                let w = scale.nearest(y, decimals);
                (w, (scale.played(w) - y).abs())
            })
            .find(|&(_, off)| bound + off <= room)
            .unwrap_or_else(|| {
                let w = scale.nearest(y, scale.join_decimals);
                (w, (scale.played(w) - y).abs())
            });
        fit.values[k * n + j] = w;
        fit.segment_bounds[(k - 1) * n + j] = bound + off;
    }
    fit.inputs[k] = input;
    fit.times[k] = t;
}
