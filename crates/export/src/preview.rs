//! The preview of a motion in a [`Digest`](crate::Digest): the points the review page, the
//! tune page and the contact sheet draw straight lines between.
//!
//! They are the fitting core's stops ([`crate::fit`]) for every track on one timeline, each
//! track within [`PREVIEW_SHARE`] of its range (no finer than its values' doubles show:
//! [`PREVIEW_MIN_RELATIVE`], [`PREVIEW_MIN_TOLERANCE`]): so the drawn line is within that
//! share of the motion at every instant, proven, where points at even times miss what happens
//! between them (a stiff spring's swing of a sixth of a period drawn as a chord was 7 % of its
//! travel off). A joint is a point (an impact touches the floor); a value that steps (a rest, a
//! track that ends) has two points at one time. A motion too fast for
//! [`PREVIEW_MAX_POINTS`] points (the fit gives up past them) gets that many at even times,
//! and the side of each join.

use crate::css::holds;
use crate::fit::{self, Fit, Scale, Timing, Track};
use curvebake_model::bake::Baked;

/// Share of a track's range (its frames' largest less smallest value) its preview stays
/// within: 0.2 %, half a pixel of a plot 260 pixels tall.
pub const PREVIEW_SHARE: f64 = 0.002;

/// Most points of a preview.
pub const PREVIEW_MAX_POINTS: usize = 2000;

/// Smallest tolerance of a preview as a share of its track's largest value (in magnitude):
/// a few thousand of a double's last bits, above what the motion's arithmetic rounds (the
/// fitting core keeps 1 % of a tolerance for it, [`fit::FLOAT_SHARE`]): a motion from 10¹²
/// to 10¹² + 10⁻³ is drawn within 1 of its values' last 4 digits, not its range's 0.2 %.
pub const PREVIEW_MIN_RELATIVE: f64 = 1e-12;

/// Smallest tolerance of a preview: far above the doubles below 2.2·10⁻³⁰⁸, whose precision
/// falls with their size (a motion over 10⁻³¹⁰ is drawn as the line between its ends).
pub const PREVIEW_MIN_TOLERANCE: f64 = 1e-290;

/// The points of a preview of `baked`, whose joins are `joins` (inside `(0, D)`,
/// ascending): their times, and per track its values there (the value held from `D` on at
/// the last).
pub fn preview_points(baked: &Baked, joins: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    fitted(baked).unwrap_or_else(|| {
        let times = even_times(baked.duration, joins, PREVIEW_MAX_POINTS);
        let values = (baked.spec.model.tracks().into_iter())
            .zip(&baked.tracks)
            .map(|((_, motion), track)| {
                let held = track.position[track.position.len() - 1];
                let at = |t: f64| {
                    if t < baked.duration {
                        motion.position(t)
                    } else {
                        held
                    }
                };
                times.iter().map(|&t| at(t)).collect()
            })
            .collect();
        (times, values)
    })
}

/// The fitting core's stops of every track within its share, if they are few enough.
fn fitted(baked: &Baked) -> Option<(Vec<f64>, Vec<Vec<f64>>)> {
    let duration = baked.duration;
    let motions = baked.spec.model.tracks();
    if duration <= 0.0 || motions.len() > fit::MAX_TRACKS {
        return None;
    }
    // Per track: its range and its tolerance.
    let ranges: Vec<(f64, f64)> = (baked.tracks.iter())
        .map(|track| {
            let (lo, hi) = (track.position.iter())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                    (lo.min(x), hi.max(x))
                });
            // A track that does not move: any tolerance holds it.
            let range = if hi > lo { hi - lo } else { 1.0 };
            let largest = lo.abs().max(hi.abs());
            let tolerance = (PREVIEW_SHARE * range)
                .max(PREVIEW_MIN_RELATIVE * largest)
                .max(PREVIEW_MIN_TOLERANCE);
            (range, tolerance)
        })
        .collect();
    let tolerances: Vec<f64> = ranges.iter().map(|&(_, tolerance)| tolerance).collect();
    let negligible = tolerances.iter().fold(f64::INFINITY, |a, &t| a.min(t)) / 10.0;
    let kinks = baked.spec.model.track_kinks_banded(duration, negligible);
    let holds: Vec<Vec<fit::Hold>> = (motions.iter().zip(&kinks))
        .map(|((_, motion), kinks)| holds(*motion, kinks, duration))
        .collect();
    let tracks: Vec<Track> = (motions.iter().zip(&baked.tracks))
        .zip(ranges.iter().zip(&holds))
        .map(
            |(((_, motion), track), (&(range, tolerance), holds))| Track {
                motion: *motion,
                // Numbers of a power of ten no larger than the track's range (or tolerance),
                // and 1 for a range of 1 or more, so that their digits show its share
                // whatever its size (in numbers of 1, the share of a range of 10⁻¹⁰ was past
                // the last digit, and the fit went on to its most stops in vain); the values
                // they play are those numbers of 1 would, where those can.
                scale: Scale::new(0.0, unit_of(range.max(tolerance)), tolerance),
                end_value: track.position[track.position.len() - 1],
                tolerance,
                holds,
            },
        )
        .collect();
    let mut times: Vec<f64> = kinks.iter().flatten().map(|k| k.t).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let timing = Timing {
        duration,
        kinks: &times,
        repeat_input: true,
    };
    let mut fit = Fit::default();
    // More stops than a preview keeps are of no use: the fit gives up there.
    let done = fit::fit_at_most(
        &tracks,
        &timing,
        PREVIEW_MAX_POINTS,
        PREVIEW_MAX_POINTS,
        &mut fit,
    );
    if !done || fit.overrun || fit.len() > PREVIEW_MAX_POINTS {
        return None;
    }
    let values = (tracks.iter().enumerate())
        .map(|(j, track)| {
            (0..fit.len())
                .map(|k| track.scale.played(fit.value(k, j)))
                .collect()
        })
        .collect();
    Some((fit.times, values))
}

/// The largest power of ten no larger than `size`, and no larger than 1.
fn unit_of(size: f64) -> f64 {
    10f64.powi(libm::log10(size).floor().min(0.0) as i32)
}

/// `n` + 1 even times from 0 to `duration` and, at each of `joins`, the last double before
/// it and the join itself, so that a plot drawn straight between them reaches every impact
/// and shows every step (one time when `duration` is 0).
pub fn even_times(duration: f64, joins: &[f64], n: usize) -> Vec<f64> {
    if duration <= 0.0 {
        return vec![0.0];
    }
    let even = (0..=n).map(|i| duration * i as f64 / n as f64);
    let sides = joins.iter().flat_map(|&t| [fit::before(t), t]);
    let mut times: Vec<f64> = even.chain(sides).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
}
