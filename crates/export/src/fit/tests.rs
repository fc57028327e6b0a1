//! The bound on hard cases: each fit's proven bound is within its tolerance, and a dense scan
//! of the played curve against the closed form (a test of the proof, not the proof) stays
//! within the bound.

use super::*;
use curvebake_motion::{Bounce, Decay, Gravity, Settle, Spring};

/// Samples per segment of the scan, besides the ends and a point a microsecond inside each.
const SCAN: usize = 400;

/// The largest distance of the played curve from `motion` over `[0, D)`, scanned, but for the
/// steps (a track's end, the rest step) that keyframes, which cannot repeat an input, take
/// over the 10⁻⁵ of `D` before them.
fn scanned(fit: &Fit, scale: &Scale, motion: &dyn Motion, j: usize) -> f64 {
    let mut worst = 0.0f64;
    let d = fit.times[fit.len() - 1];
    for k in 1..fit.len() {
        let (a, b) = (fit.times[k - 1], fit.times[k]);
        let ramp = b - a <= 1.0001e-5 * d && (fit.steps.contains(&k) || k == fit.len() - 1);
        if ramp && fit.inputs[k - 1] != fit.inputs[k] {
            continue;
        }
        let mut ts: Vec<f64> = (0..=SCAN)
            .map(|i| a + (b - a) * i as f64 / SCAN as f64)
            .collect();
        ts.extend([a + 1e-6, b - 1e-6, a + 1e-9, b - 1e-9]);
        for t in ts {
            if t < a || t > b || t >= d {
                continue;
            }
            worst = worst.max((fit.played(scale, j, t) - motion.position(t)).abs());
        }
    }
    worst
}

struct Case<'a> {
    motion: &'a dyn Motion,
    kinks: Vec<f64>,
    duration: f64,
    end_value: f64,
    /// The unit of the written numbers (a `linear()` writes progress over the range).
    unit: f64,
    tolerance: f64,
    holds: Vec<Hold>,
}

/// Fits a case as keyframes (no repeated inputs) and as a `linear()` easing, and checks each
/// proof: returns the easing's fit.
fn proves(case: &Case) -> Fit {
    let keyframes = proves_with(case, false);
    assert!(keyframes.inputs.windows(2).all(|w| w[0] < w[1]));
    proves_with(case, true)
}

/// Fits a case and checks its proof: returns the fit.
fn proves_with(case: &Case, repeat_input: bool) -> Fit {
    let origin = case.motion.position(0.0);
    let scale = Scale::new(origin, case.unit, case.tolerance);
    let track = Track {
        motion: case.motion,
        scale,
        end_value: case.end_value,
        tolerance: case.tolerance,
        holds: &case.holds,
    };
    let fit = fit(
        &[track],
        &Timing {
            duration: case.duration,
            kinks: &case.kinks,
            repeat_input,
        },
    );
    let bound = fit.bounds[0];
    assert!(!fit.overrun, "a fit within its tolerance overruns");
    assert!(
        bound <= case.tolerance * (1.0 - FLOAT_SHARE),
        "bound {bound} over tolerance {} (repeated inputs: {repeat_input})",
        case.tolerance
    );
    let worst = scanned(&fit, &scale, case.motion, 0);
    assert!(
        worst <= bound * (1.0 + 1e-9) + 1e-12,
        "scan {worst} over bound {bound} (repeated inputs: {repeat_input})"
    );
    assert!(fit.times.windows(2).all(|w| w[0] <= w[1]));
    assert!(fit.inputs.windows(2).all(|w| w[0] <= w[1]));
    // The curve ends on the held value.
    let last = scale.played(fit.value(fit.len() - 1, 0));
    assert!((last - case.end_value).abs() <= scale.unit.abs() * 1e-6 + case.tolerance / 40.0);
    fit
}

fn spring(ratio: f64, stiffness: f64) -> (Spring, f64) {
    let damping = 2.0 * ratio * stiffness.sqrt();
    let s = Spring::new(-240.0, 0.0, 0.0, 1.0, stiffness, damping).unwrap();
    let d = s.settle_time(0.25, 2.0).unwrap();
    (s, d)
}

fn spring_case(s: &Spring, d: f64, tolerance: f64) -> Case<'_> {
    Case {
        motion: s,
        kinks: Vec::new(),
        duration: d,
        end_value: 0.0,
        unit: 240.0,
        tolerance,
        holds: Vec::new(),
    }
}

#[test]
fn card_drop_is_within_a_tenth_of_a_pixel_in_fewer_stops_than_frames() {
    let s = Spring::new(-240.0, 0.0, 0.0, 1.0, 220.0, 18.0).unwrap();
    let fit = proves(&spring_case(&s, 52.0 / 60.0, 0.1));
    assert!(fit.len() < 53, "{} stops", fit.len());
}

#[test]
fn springs_near_no_damping_and_near_critical_damping_keep_the_bound() {
    for ratio in [0.01, 0.05, 0.3, 1.0 - 1e-9, 1.0, 1.0 + 1e-9, 1.5, 40.0] {
        let (s, d) = spring(ratio, 300.0);
        let d = d.min(12.0);
        proves(&spring_case(&s, d, 0.1));
        proves(&spring_case(&s, d, 0.01));
    }
}

#[test]
fn stiff_springs_keep_the_bound() {
    for stiffness in [1e4, 1e6] {
        let (s, d) = spring(0.4, stiffness);
        proves(&spring_case(&s, d, 0.1));
    }
}

#[test]
fn each_gravity_impact_is_a_stop_and_the_floor_is_reached() {
    // A ball dropped 250 px: its first impact at √(500/2400) s, between 60 fps frames. The
    // second case moves the impact a microsecond from a frame.
    for from in [-250.0, -(2400.0 / 2.0) * (27.0f64 / 60.0 + 1e-6).powi(2)] {
        let fall = Gravity::new(from, 0.0, 2400.0).unwrap();
        let ball = Bounce::new(fall, 0.0, 0.5).unwrap();
        let d = ball.settle_time(0.25, 2.0).unwrap();
        let kinks = ball.impacts_before(d, 0.0);
        assert!(kinks.len() >= 2);
        let case = Case {
            motion: &ball,
            kinks: kinks.clone(),
            duration: d,
            end_value: 0.0,
            unit: -from,
            tolerance: 0.1,
            holds: Vec::new(),
        };
        let fit = proves(&case);
        let scale = Scale::new(from, -from, 0.1);
        assert_eq!(fit.joins.len(), kinks.len());
        for (&k, &impact) in fit.joins.iter().zip(&kinks) {
            // Where the motion touches the floor, the played curve is within 0.01 px of it.
            let played = fit.played(&scale, 0, impact);
            assert!(played.abs() <= 0.01, "{played} at {impact}");
            // And its stop there plays the floor.
            assert!(scale.played(fit.value(k, 0)).abs() <= 0.01 / 4.0);
        }
    }
}

#[test]
fn a_ball_held_after_its_last_bounce_above_a_tenth_of_the_tolerance_plays_every_impact_on_the_floor(
) {
    // Restitution 0.55 from 300 px: bounces of 0.07, 0.02, 0.006 px ... after the sixth.
    let fall = Gravity::new(-300.0, 0.0, 2400.0).unwrap();
    let ball = Bounce::new(fall, 0.0, 0.55).unwrap();
    // Baked past the end of its bounces, as the bake's 60 fps frames end it (1.7333 s).
    let d = ball.end_time() + 0.01;
    let listed = ball.impacts_before(d, 0.01);
    let last = listed[listed.len() - 1];
    let hold = Hold {
        from: last,
        until: d,
        value: 0.0,
        band: ball.rise_after(last),
    };
    assert!(hold.band <= 0.01);
    let case = |holds: Vec<Hold>| Case {
        motion: &ball,
        kinks: listed.clone(),
        duration: d,
        end_value: 0.0,
        unit: 300.0,
        tolerance: 0.1,
        holds,
    };
    let held = proves(&case(vec![hold]));
    let followed = proves(&case(Vec::new()));
    let scale = Scale::new(-300.0, 300.0, 0.1);
    // Every impact, down to those a float can tell apart, and the floor once the bounces end,
    // within 0.01 px of it.
    let on_floor = (ball.impacts_before(d, 0.0).into_iter())
        .chain((0..=100).map(|i| ball.end_time() + (d - ball.end_time()) * f64::from(i) / 101.0));
    let worst = |fit: &Fit| {
        (on_floor.clone())
            .map(|t| fit.played(&scale, 0, t).abs())
            .fold(0.0, f64::max)
    };
    assert!(worst(&held) <= 0.01, "{} px", worst(&held));
    // Followed, the bounces under the band are played up to the tolerance from the floor.
    assert!(worst(&followed) > 0.01, "{}", worst(&followed));
    let k = held.times.iter().position(|&t| t >= last).unwrap();
    assert_eq!(held.len() - k, 2, "{:?}", &held.times[k..]);
}

#[test]
fn a_ball_stopped_dead_by_the_floor_reaches_it_at_its_impact() {
    // Restitution 0: the fall ends at its impact, at full speed, between 60 fps frames.
    let fall = Gravity::new(-200.0, 0.0, 2400.0).unwrap();
    let ball = Bounce::new(fall, 0.0, 0.0).unwrap();
    let impact = ball.first_impact();
    let d = (impact * 60.0).ceil() / 60.0;
    let kinks = ball.impacts_before(d, 0.01);
    assert_eq!(kinks, [impact]);
    let fit = proves(&Case {
        motion: &ball,
        kinks,
        duration: d,
        end_value: 0.0,
        unit: 200.0,
        tolerance: 0.1,
        holds: Vec::new(),
    });
    let played = fit.played(&Scale::new(-200.0, 200.0, 0.1), 0, impact);
    assert!(played.abs() <= 0.01, "{played} px at the impact");
}

/// A motion cut at `d`, holding its value there, within 0.1 px.
fn cut_case(motion: &dyn Motion, d: f64) -> Case<'_> {
    Case {
        motion,
        kinks: Vec::new(),
        duration: d,
        end_value: motion.position(d),
        unit: 1.0,
        tolerance: 0.1,
        holds: Vec::new(),
    }
}

#[test]
fn decays_shrinking_and_growing_keep_the_bound() {
    for lambda in [6.0, 0.5, -1.0] {
        proves(&cut_case(&Decay::new(0.0, 800.0, lambda).unwrap(), 1.5));
    }
}

/// A motion cut at a fixed `D` while fast (gravity at 5,000 px/s, a growing decay): without
/// repeated inputs the last stop moves 10⁻⁵ of `D` earlier, onto the line its segment plays,
/// not with its value (which moved that line by 0.1 px over the whole segment).
#[test]
fn a_fast_ending_keeps_the_bound_as_keyframes() {
    let fall = Gravity::new(0.0, 0.0, 2500.0).unwrap();
    let grow = Decay::new(0.0, 50.0, -2.5).unwrap();
    proves(&cut_case(&fall, 2.0));
    proves(&cut_case(&grow, 1.5));
}

#[test]
fn a_rest_step_larger_than_the_tolerance_happens_at_the_end_only() {
    // Rest thresholds of 2 px: the motion is up to 2 px from rest at D, more than the 0.1 px
    // tolerance, so the curve reaches x(D) and a second stop at D holds the rest value.
    let s = Spring::new(-240.0, 0.0, 0.0, 1.0, 220.0, 18.0).unwrap();
    let d = s.settle_time(2.0, 20.0).unwrap();
    let fit = proves(&spring_case(&s, d, 0.1));
    let n = fit.len();
    assert_eq!(fit.inputs[n - 2], Decimal::HUNDRED);
    assert_eq!(fit.inputs[n - 1], Decimal::HUNDRED);
    assert_eq!(fit.value(n - 1, 0), Decimal::new(1, 0));
}

#[test]
fn the_fit_is_the_same_every_time() {
    let s = Spring::new(-240.0, 0.0, 0.0, 1.0, 220.0, 18.0).unwrap();
    let a = proves(&spring_case(&s, 52.0 / 60.0, 0.1));
    let b = proves(&spring_case(&s, 52.0 / 60.0, 0.1));
    assert_eq!(a, b);
}

/// A spring oscillating thousands of times within a frame: no stops can follow it, and the fit
/// says so (its bound over the tolerance), however many stops it took.
#[test]
fn a_motion_no_stops_can_follow_overruns() {
    let s = Spring::new(0.0, 100.0, 0.0, 1.0, 1e27, 1e10).unwrap();
    let scale = Scale::new(0.0, 100.0, 0.1);
    let track = Track {
        motion: &s,
        scale,
        end_value: 100.0,
        tolerance: 0.1,
        holds: &[],
    };
    let timing = Timing {
        duration: 1.0 / 60.0,
        kinks: &[],
        repeat_input: true,
    };
    let fit = fit(&[track], &timing);
    assert!(fit.overrun && fit.bounds[0] > 0.1, "{:?}", fit.bounds);
}

/// A tolerance far below what the values' digits show (10⁻¹⁵ of a range of 1): the fit would
/// go on to [`MAX_STOPS`] in vain; `fit_at_most` gives up once it has more than it was
/// allowed, in a bounded number of stops (a tiny motion's preview took 0.9 s so).
#[test]
fn a_fit_at_most_gives_up_past_its_stops() {
    let s = Spring::new(0.0, 1.0, 0.0, 1.0, 170.0, 26.0).unwrap();
    let track = Track {
        motion: &s,
        scale: Scale::new(0.0, 1.0, 1e-15),
        end_value: 1.0,
        tolerance: 1e-15,
        holds: &[],
    };
    let timing = Timing {
        duration: 1.0,
        kinks: &[],
        repeat_input: true,
    };
    let mut fit = Fit::default();
    assert!(!fit_at_most(&[track], &timing, 64, 50, &mut fit));
    assert!(fit.len() <= 51, "{} stops", fit.len());
    // Within its stops it finishes, as `fit_into` does.
    let easy = Track {
        scale: Scale::new(0.0, 1.0, 1e-3),
        tolerance: 1e-3,
        ..track
    };
    let mut whole = Fit::default();
    fit_into(&[easy], &timing, 64, &mut whole);
    assert!(fit_at_most(&[easy], &timing, 64, whole.len(), &mut fit));
    assert_eq!(fit, whole);
}

/// Past the most stops, the warning tells a motion too fast for its frames (the cap reached
/// within a few frames) from one that moves for too long (a million frames).
#[test]
fn an_overrun_is_said_fast_or_long_by_its_frames() {
    let fast = overrun_warning("CSS", MAX_STOPS + 1, MAX_STOPS, 2);
    assert!(fast.contains("far faster than its frames"), "{fast}");
    let long = overrun_warning("CSS", MAX_STOPS + 1, MAX_STOPS, 952_795);
    assert!(long.contains("keeps moving for too long"), "{long}");
    let short_of_cap = overrun_warning("CSS", 500, MAX_STOPS, 952_795);
    assert!(short_of_cap.contains("far faster"), "{short_of_cap}");
}
