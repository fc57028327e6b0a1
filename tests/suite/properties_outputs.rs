//! Property tests of the whole pipeline on random valid parameters: a motion as written
//! ([`MotionFile`]) -> validated spec -> baked frames -> JSON table. Whatever the parameters,
//! every output number is finite and reads back as exactly the baked value; and the baked
//! frames keep the physical bounds of their motion:
//!
//! - a friction fling never passes its resting position, a snap never passes `to`;
//! - a decay never passes `to` (solved form) or its resting position (direct form);
//! - an underdamped spring started at rest never overshoots by more than its initial
//!   displacement, and a critically or overdamped one started at rest never overshoots;
//! - a bouncing fall never passes its floor, a fall to `to` never passes `to`;
//! - an explosion ring's inner radius never exceeds its outer radius.
//!
//! Bounds hold up to rounding: a few ulps of the motion's own scale, never an absolute number.

use curvebake::internals::bake::bake;
use curvebake::internals::export::json::table;
use curvebake::internals::schema::{MotionFile, MotionKind, RadiusFile};
use curvebake::internals::spec::{MotionSpec, Overrides};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// Cases per property: enough to explore, few enough for a debug build (`PROPTEST_CASES`
/// asks for more). No failure files.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    ProptestConfig {
        cases: cases.unwrap_or(96),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Relative rounding slack of a bound, times the motion's scale.
const SLACK: f64 = 1e-12;

// ---------------------------------------------------------------------------------------------
// The pipeline
// ---------------------------------------------------------------------------------------------

/// A motion's baked tracks as they came out of the pipeline.
#[derive(Debug)]
struct Outputs {
    /// Frames per second and bake length.
    fps: f64,
    duration: f64,
    /// (name, position, velocity) per track, from the JSON table.
    tracks: Vec<(String, Vec<f64>, Vec<f64>)>,
}

impl Outputs {
    fn track(&self, name: &str) -> &[f64] {
        &self
            .tracks
            .iter()
            .find(|t| t.0 == name)
            .unwrap_or_else(|| panic!("no track {name}"))
            .1
    }
}

fn motion(kind: MotionKind, fps: f64, duration: Option<f64>) -> MotionFile {
    MotionFile {
        tolerance: None,
        relative_tolerance: None,
        reduced_motion: None,
        css_velocity: None,
        name: "prop".into(),
        property: None,
        unit: None,
        fps: Some(fps),
        duration,
        rest_delta: None,
        rest_speed: None,
        motion: Some(kind),
        tracks: None,
    }
}

fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

/// Every number in `value` is finite, and no value is `null` (how a non-finite float would
/// be written).
fn all_finite(value: &Value, at: &str) -> Result<(), TestCaseError> {
    match value {
        Value::Null => Err(fail(format!("null at {at}"))),
        Value::Number(n) if !n.as_f64().is_some_and(f64::is_finite) => {
            Err(fail(format!("{n} at {at}")))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| all_finite(v, &format!("{at}[{i}]"))),
        Value::Object(fields) => fields
            .iter()
            .try_for_each(|(k, v)| all_finite(v, &format!("{at}.{k}"))),
        _ => Ok(()),
    }
}

/// The number arrays named `key` in the table's text, in order, read with `str::parse` (exact;
/// serde_json's default float parsing may be an ulp off, unless its `float_roundtrip` feature
/// is on).
fn arrays(text: &str, key: &str) -> Vec<Vec<f64>> {
    text.match_indices(&format!("\"{key}\":["))
        .map(|(at, found)| {
            let rest = &text[at + found.len()..];
            let body = &rest[..rest.find(']').expect("a closed array")];
            body.split(',')
                .map(|x| x.parse::<f64>().expect("a number"))
                .collect()
        })
        .collect()
}

/// Runs the pipeline; fails on any error (the parameters are valid) and on any output that is
/// not finite, not valid JSON, or not exactly what was baked.
fn pipeline(file: &MotionFile) -> Result<Outputs, TestCaseError> {
    let spec = MotionSpec::from_file(file, Overrides::default())
        .map_err(|e| fail(format!("invalid: {e}\n{file:?}")))?;
    let baked = bake(&spec).map_err(|e| fail(format!("cannot bake: {e}\n{file:?}")))?;
    for track in &baked.tracks {
        for (i, (x, v)) in track.position.iter().zip(&track.velocity).enumerate() {
            prop_assert!(
                x.is_finite() && v.is_finite(),
                "{} frame {i}: {x}, {v}",
                track.name
            );
        }
    }
    let mut bytes = Vec::new();
    table(&baked, &mut bytes);
    let text = String::from_utf8(bytes).map_err(|e| fail(e.to_string()))?;
    // A number that is not finite would be written `null`; a ring's property is null by
    // design (its radii are its tracks), a multi-track motion's property and unit too (its
    // tracks each say their own), and nothing else is.
    let numbers = text
        .replace("\"property\":null", "")
        .replace("\"unit\":null", "");
    for word in ["NaN", "inf", "null"] {
        prop_assert!(!numbers.contains(word), "{word} in the JSON table");
    }
    let json: Value =
        serde_json::from_str(&text).map_err(|e| fail(format!("the table is not JSON: {e}")))?;
    let mut numbers_only = json.clone();
    numbers_only["property"] = Value::String(String::new());
    numbers_only["unit"] = Value::String(String::new());
    all_finite(&numbers_only, "table")?;
    prop_assert_eq!(json["frames"].as_u64(), Some(baked.frames() as u64));
    let (fps, duration) = (spec.fps, baked.duration);
    // Frame i is at min(i/fps, D), i = 0 ..= ceil(D·fps).
    prop_assert_eq!(baked.frames(), (duration * fps - 1e-9).ceil() as usize + 1);
    let (positions, velocities) = (arrays(&text, "position"), arrays(&text, "velocity"));
    prop_assert_eq!(positions.len(), baked.tracks.len());
    prop_assert_eq!(velocities.len(), baked.tracks.len());
    let mut tracks = Vec::new();
    for ((track, position), velocity) in baked.tracks.iter().zip(positions).zip(velocities) {
        prop_assert!(
            json["tracks"][track.name].is_object(),
            "no track {}",
            track.name
        );
        // Shortest round-trip floats: the JSON holds exactly the baked numbers.
        prop_assert!(
            position == track.position,
            "{} positions differ",
            track.name
        );
        prop_assert!(
            velocity == track.velocity,
            "{} velocities differ",
            track.name
        );
        tracks.push((track.name.to_owned(), position, velocity));
    }
    Ok(Outputs {
        fps,
        duration,
        tracks,
    })
}

/// Every position stays on the `from` side of `bound` (or on it), up to rounding of `scale`.
fn never_passes(
    positions: &[f64],
    from: f64,
    bound: f64,
    scale: f64,
    what: &str,
) -> Result<(), TestCaseError> {
    let side = (bound - from).signum();
    let slack = SLACK * scale;
    for (i, x) in positions.iter().enumerate() {
        prop_assert!(
            (x - bound) * side <= slack,
            "{what}: frame {i} at {x} passes {bound} (from {from})"
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/// ±10^e, e uniform in [lo, hi].
fn signed_log(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (any::<bool>(), lo..=hi).prop_map(|(neg, e)| if neg { -(10f64.powf(e)) } else { 10f64.powf(e) })
}

/// A position of everyday size, sometimes exactly 0.
fn position() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 3 => -2000.0..2000.0f64, 2 => signed_log(-2.0, 4.0)]
}

/// A frame rate: the usual ones, and anything in (0, 240].
fn fps() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::sample::select(vec![24.0, 30.0, 60.0, 120.0, 144.0, 240.0]),
        1 => 1.0..=240.0f64,
    ]
}

/// An optional bake length.
fn maybe_duration() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![3 => Just(None), 1 => (0.01..5.0f64).prop_map(Some)]
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    /// A physical spring started at rest: underdamped it overshoots by at most its initial
    /// displacement; critically or overdamped it does not overshoot.
    #[test]
    fn a_spring_from_rest_overshoots_by_at_most_its_displacement(
        from in position(),
        to in position(),
        mass in 0.1..10.0f64,
        omega in 2.0..60.0f64,
        ratio in prop_oneof![3 => 0.05..1.0f64, 1 => 1.0..3.0f64],
        fps in fps(),
        duration in maybe_duration(),
    ) {
        let (stiffness, damping) = (mass * omega * omega, 2.0 * ratio * mass * omega);
        let file = motion(
            MotionKind::Spring {
                from: Some(from), to, velocity: Some(0.0),
                mass: Some(mass), stiffness: Some(stiffness), damping: Some(damping),
                perceptual_duration: None, bounce: None, response: None, damping_fraction: None, damping_ratio: None,
                visual_duration: None, origami_tension: None, origami_friction: None,
            },
            fps,
            duration,
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        let displacement = (from - to).abs();
        let scale = from.abs().max(to.abs()).max(1.0);
        for (i, xi) in x.iter().enumerate() {
            prop_assert!(
                (xi - to).abs() <= displacement + SLACK * scale,
                "frame {i} at {xi}: {} from rest, more than the initial {displacement}",
                (xi - to).abs()
            );
        }
        if damping * damping >= 4.0 * mass * stiffness {
            never_passes(x, from, to, scale, "critically or overdamped spring")?;
        }
        if duration.is_none() {
            prop_assert_eq!(*x.last().unwrap(), to);
        }
    }

    /// The perceptual form, started at rest: bounce >= 0 is at most critically damped.
    #[test]
    fn a_perceptual_spring_from_rest_overshoots_by_at_most_its_displacement(
        from in position(),
        to in position(),
        perceptual_duration in 0.05..2.0f64,
        bounce in -0.9..0.9f64,
        fps in fps(),
    ) {
        let file = motion(
            MotionKind::Spring {
                from: Some(from), to, velocity: Some(0.0), mass: None, stiffness: None, damping: None,
                perceptual_duration: Some(perceptual_duration), bounce: Some(bounce), response: None, damping_fraction: None, damping_ratio: None,
                visual_duration: None, origami_tension: None, origami_friction: None,
            },
            fps,
            None,
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        let scale = from.abs().max(to.abs()).max(1.0);
        for xi in x {
            prop_assert!((xi - to).abs() <= (from - to).abs() + SLACK * scale);
        }
        if bounce <= 0.0 {
            never_passes(x, from, to, scale, "perceptual spring without bounce")?;
        }
        prop_assert_eq!(*x.last().unwrap(), to);
    }

    /// A spring with any start velocity: outputs are finite and exact (no bound to check).
    #[test]
    fn a_spring_with_any_start_velocity_bakes_to_finite_exact_outputs(
        from in position(),
        to in position(),
        velocity in prop_oneof![1 => Just(0.0), 3 => signed_log(-2.0, 4.5)],
        mass in 0.1..10.0f64,
        omega in 2.0..60.0f64,
        ratio in 0.05..3.0f64,
        fps in fps(),
        duration in maybe_duration(),
    ) {
        let file = motion(
            MotionKind::Spring {
                from: Some(from), to, velocity: Some(velocity),
                mass: Some(mass), stiffness: Some(mass * omega * omega),
                damping: Some(2.0 * ratio * mass * omega),
                perceptual_duration: None, bounce: None, response: None, damping_fraction: None, damping_ratio: None,
                visual_duration: None, origami_tension: None, origami_friction: None,
            },
            fps,
            duration,
        );
        pipeline(&file)?;
    }

    /// A fling with friction never passes where it comes to rest, and ends exactly there.
    #[test]
    fn a_friction_fling_never_passes_its_resting_position(
        from in position(),
        velocity in signed_log(0.0, 4.0),
        friction in prop_oneof![1 => 1e-6..1e-3f64, 3 => 1e-3..0.9f64],
        fps in fps(),
        duration in maybe_duration(),
    ) {
        let file = motion(
            MotionKind::Friction { from: Some(from), velocity: Some(velocity), friction: Some(friction), to: None },
            fps,
            duration,
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        let rest = from + velocity / -friction.ln();
        let scale = from.abs().max(rest.abs()).max(1.0);
        never_passes(x, from, rest, scale, "friction fling")?;
        for pair in x.windows(2) {
            prop_assert!((pair[1] - pair[0]) * velocity.signum() >= -SLACK * scale, "turns back");
        }
        if duration.is_none() {
            let end = *x.last().unwrap();
            prop_assert!((end - rest).abs() <= 4.0 * f64::EPSILON * scale, "ends at {end}, not {rest}");
        }
    }

    /// A snap (friction solved to rest at `to`) never passes `to`, and ends exactly there.
    #[test]
    fn a_friction_snap_never_passes_to(
        from in position(),
        distance in signed_log(0.0, 3.5),
        speed_per_distance in 1.0..40.0f64,
        fps in fps(),
    ) {
        let to = from + distance;
        let velocity = distance * speed_per_distance;
        let file = motion(
            MotionKind::Friction { from: Some(from), velocity: Some(velocity), friction: None, to: Some(to) },
            fps,
            None,
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        never_passes(x, from, to, from.abs().max(to.abs()).max(1.0), "friction snap")?;
        prop_assert_eq!(*x.last().unwrap(), to);
    }

    /// A decay solved from its end conditions never passes `to` and arrives exactly there.
    #[test]
    fn a_solved_decay_never_passes_to(
        from in position(),
        distance in signed_log(-1.0, 3.5),
        // End speed over mean speed: far beyond 50 the start velocity underflows (an error).
        speed_ratio in signed_log(-3.0, 1.7).prop_map(f64::abs),
        duration in 0.05..3.0f64,
        fps in fps(),
    ) {
        let to = from + distance;
        let end_speed = speed_ratio * distance.abs() / duration;
        let file = motion(
            MotionKind::Decay {
                from: Some(from), velocity: None, lambda: None, to: Some(to),
                end_velocity: Some(end_speed * distance.signum()),
            },
            fps,
            Some(duration),
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        never_passes(x, from, to, from.abs().max(to.abs()).max(1.0), "solved decay")?;
        prop_assert_eq!(*x.last().unwrap(), to);
        prop_assert_eq!(out.duration, duration);
    }

    /// A decay given directly, with lambda > 0, never passes from + v/lambda.
    #[test]
    fn a_direct_decay_never_passes_its_resting_position(
        from in position(),
        velocity in signed_log(-1.0, 4.0),
        lambda in 0.1..30.0f64,
        duration in 0.05..5.0f64,
        fps in fps(),
    ) {
        let file = motion(
            MotionKind::Decay {
                from: Some(from), velocity: Some(velocity), lambda: Some(lambda), to: None, end_velocity: None,
            },
            fps,
            Some(duration),
        );
        let out = pipeline(&file)?;
        let rest = from + velocity / lambda;
        never_passes(out.track("value"), from, rest, from.abs().max(rest.abs()).max(1.0), "decay")?;
    }

    /// A fall bouncing on its floor never passes the floor, and rests on it.
    #[test]
    fn a_bouncing_fall_never_passes_its_floor(
        floor in position(),
        height in signed_log(0.0, 3.5),
        velocity in -500.0..500.0f64,
        gravity in 100.0..5000.0f64,
        restitution in 0.0..0.8f64,
        fps in fps(),
    ) {
        // The fall starts `height` away from the floor, accelerating towards it.
        let from = floor - height;
        let acceleration = gravity * height.signum();
        let file = motion(
            MotionKind::Gravity {
                from: Some(from), velocity: Some(velocity), acceleration, to: Some(floor), restitution: Some(restitution),
            },
            fps,
            None,
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        never_passes(x, from, floor, from.abs().max(floor.abs()).max(1.0), "bounce")?;
        prop_assert_eq!(*x.last().unwrap(), floor);
    }

    /// A fall to `to` (no bounce) never passes `to` and ends exactly there.
    #[test]
    fn a_fall_to_a_position_never_passes_it(
        to in position(),
        height in signed_log(0.0, 3.5),
        velocity in -500.0..500.0f64,
        gravity in 100.0..5000.0f64,
        fps in fps(),
    ) {
        let from = to - height;
        let file = motion(
            MotionKind::Gravity {
                from: Some(from), velocity: Some(velocity), acceleration: gravity * height.signum(), to: Some(to), restitution: None,
            },
            fps,
            None,
        );
        let out = pipeline(&file)?;
        let x = out.track("value");
        never_passes(x, from, to, from.abs().max(to.abs()).max(1.0), "fall")?;
        prop_assert_eq!(*x.last().unwrap(), to);
    }

    /// Gravity over a fixed duration: finite, exact outputs.
    #[test]
    fn gravity_over_a_duration_bakes_to_finite_exact_outputs(
        from in position(),
        velocity in -2000.0..2000.0f64,
        acceleration in -5000.0..5000.0f64,
        duration in 0.01..5.0f64,
        fps in fps(),
    ) {
        let file = motion(
            MotionKind::Gravity { from: Some(from), velocity: Some(velocity), acceleration, to: None, restitution: None },
            fps,
            Some(duration),
        );
        pipeline(&file)?;
    }

    /// An explosion ring that is valid never turns inside out on any baked frame.
    #[test]
    fn a_valid_explosion_ring_never_turns_inside_out(
        inner_from in 0.0..50.0f64,
        gap_from in 0.0..50.0f64,
        inner_to in 50.0..500.0f64,
        gap_to in 1.0..200.0f64,
        inner_end in 1.0..200.0f64,
        outer_end in 1.0..200.0f64,
        duration in 0.1..2.0f64,
        fps in fps(),
    ) {
        let inner = RadiusFile { from: inner_from, to: inner_to, end_velocity: inner_end };
        let outer = RadiusFile {
            from: inner_from + gap_from, to: inner_to + gap_to, end_velocity: outer_end,
        };
        let file = motion(MotionKind::ExplosionRing { inner, outer }, fps, Some(duration));
        // Not every pair of radii is a ring; the ones that are must stay rings frame by frame.
        prop_assume!(MotionSpec::from_file(&file, Overrides::default()).is_ok());
        let out = pipeline(&file)?;
        let (inner, outer) = (out.track("inner"), out.track("outer"));
        for (i, (a, b)) in inner.iter().zip(outer).enumerate() {
            prop_assert!(a - b <= 1e-12 * b.abs().max(1.0), "frame {i}: inner {a} > outer {b}");
        }
        prop_assert_eq!(*inner.last().unwrap(), inner_to);
        prop_assert_eq!(*outer.last().unwrap(), inner_to + gap_to);
        prop_assert!(out.fps > 0.0);
    }
}
