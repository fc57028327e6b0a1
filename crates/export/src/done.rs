//! When a motion looks done, as opposed to when it provably rests.
//!
//! A bake that comes to rest runs until the motion is provably within the rest thresholds
//! (0.01 px) for ever, which is long after anyone can see it move. What people see is
//! [`looks_done`]: the time of the first frame from which every later frame of every track lies
//! within [`visual_threshold`] of the value that track ends at.

use curvebake_model::bake::Baked;

/// Pixels a motion may still be off its end value and look done.
pub const VISUAL_PX: f64 = 0.5;

/// Fraction of its range a value in any other unit (or none) may still be off and look done.
pub const VISUAL_FRACTION: f64 = 0.001;

/// How far from its end value a track of `unit` that spans `range` (its largest minus its
/// smallest frame) looks done: [`VISUAL_PX`] for `px`, [`VISUAL_FRACTION`] of `range` for
/// anything else (unitless, %, deg, em, ...), whose pixel size the bake cannot know.
pub fn visual_threshold(unit: &str, range: f64) -> f64 {
    if unit == "px" {
        VISUAL_PX
    } else {
        VISUAL_FRACTION * range
    }
}

/// How near its end value a motion of tracks in `units` is once it looks done, in words (for
/// `looks_done`'s readers: the review page, `inspect`): `within 0.5 px of its end value`, 0.1 %
/// of its range in any other unit, or both.
pub fn within_words<'a>(units: impl IntoIterator<Item = &'a str>) -> &'static str {
    let (mut px, mut other) = (false, false);
    for unit in units {
        if unit == "px" {
            px = true;
        } else {
            other = true;
        }
    }
    match (px, other) {
        (true, false) => "within 0.5 px of its end value",
        (false, _) => "within 0.1 % of its range of its end value",
        (true, true) => "within 0.5 px of its end value, 0.1 % of its range in another unit",
    }
}

/// The time of the first frame from which every later frame of every track is within
/// [`visual_threshold`] (in the track's own unit) of that track's end value; `None` when the motion has no end value
/// (a throw that is cut at a fixed time).
pub fn looks_done(baked: &Baked) -> Option<f64> {
    let each = track_looks_done(baked)?;
    Some(each.into_iter().fold(baked.time(0), f64::max))
}

/// Per track, when it looks done on its own: the time of the first frame from which every
/// later frame of that track is within [`visual_threshold`] (in its own unit) of its end
/// value, as the PNG plot of a multi-track motion marks it on each track's panel; `None` when
/// the motion has no end value. [`looks_done`] is the latest of them.
pub fn track_looks_done(baked: &Baked) -> Option<Vec<f64>> {
    let ends = baked.spec.model.end_values();
    if ends.len() != baked.tracks.len() {
        return None;
    }
    let last = baked.frames().saturating_sub(1);
    // Each track in its own unit: a sheet's scale is not done within half a pixel.
    let each = (baked.tracks.iter().zip(&ends).zip(baked.spec.track_units())).map(
        |((track, &end), unit)| {
            let x = &track.position;
            let (lo, hi) = x
                .iter()
                .fold((end, end), |(lo, hi), &v| (lo.min(v), hi.max(v)));
            let within = visual_threshold(unit, hi - lo);
            // One past the last frame that is too far off.
            let done = x
                .iter()
                .rposition(|&v| !((v - end).abs() <= within))
                .map_or(0, |i| i + 1);
            baked.time(done.min(last))
        },
    );
    Some(each.collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::bake::bake;

    use crate::test_spec as spec;

    #[test]
    fn the_words_say_each_unit_s_threshold() {
        assert_eq!(within_words(["px", "px"]), "within 0.5 px of its end value");
        assert_eq!(
            within_words(["", "deg"]),
            "within 0.1 % of its range of its end value"
        );
        assert!(within_words(["px", ""]).ends_with("0.1 % of its range in another unit"));
    }

    #[test]
    fn thresholds() {
        assert_eq!(visual_threshold("px", 300.0), 0.5);
        assert_eq!(visual_threshold("", 0.5), 0.0005);
        assert_eq!(visual_threshold("deg", 90.0), 0.09);
    }

    #[test]
    fn a_spring_looks_done_well_before_it_provably_rests() {
        let spec = spec(
            r#"(name: "s", property: "translateY", motion: Spring(from: -240, to: 0, stiffness: 220, damping: 18))"#,
        );
        let baked = bake(&spec).unwrap();
        let done = looks_done(&baked).unwrap();
        assert!(
            done > 0.1 && done < baked.duration * 0.8,
            "{done} of {}",
            baked.duration
        );
        // Every frame from `done` on is within half a pixel of 0; the frame before is not.
        let first = (0..baked.frames())
            .find(|&i| baked.time(i) == done)
            .unwrap();
        let x = &baked.tracks[0].position;
        assert!(x[first..].iter().all(|v| v.abs() <= 0.5));
        assert!(x[first - 1].abs() > 0.5);
    }

    #[test]
    fn a_throw_cut_at_a_fixed_time_never_looks_done() {
        let spec = spec(
            r#"(name: "t", property: "translateY", duration: 0.8, motion: Gravity(from: 0, velocity: -900, acceleration: 2250))"#,
        );
        assert_eq!(looks_done(&bake(&spec).unwrap()), None);
    }

    /// A sheet's slide and its scale: the scale is done within 0.1 % of its range, not within
    /// the slide's half pixel (which a scale from 0.96 is within from the start), so the
    /// sheet looks done no sooner than its scale alone.
    #[test]
    fn each_track_looks_done_in_its_own_unit() {
        let scale = "Spring(from: 0.96, to: 1, perceptual_duration: 0.4, bounce: 0.1)";
        let sheet = spec(&format!(
            r#"(name: "s", tracks: [(property: "translateY", motion: Spring(from: 480, to: 0, stiffness: 260, damping: 24)), (property: "scale", motion: {scale})])"#
        ));
        let alone = spec(&format!(
            r#"(name: "a", property: "scale", motion: {scale})"#
        ));
        let (sheet, alone) = (bake(&sheet).unwrap(), bake(&alone).unwrap());
        let (sheet, alone) = (looks_done(&sheet).unwrap(), looks_done(&alone).unwrap());
        assert!(
            alone > 0.3 && sheet >= alone,
            "sheet {sheet}, its scale alone {alone}"
        );
    }
}
