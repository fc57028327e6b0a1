//! Sampling a validated motion at a fixed frame rate.
//!
//! Frame i is at t_i = min(i/fps, D), i = 0 ..= n, with D the bake length and n = ceil(D·fps)
//! but for a product within `FRAME_COUNT_SLACK` of a whole number, which is that number
//! (see [`frame_plan`]). A motion that ends at rest gets D = the first frame time from which
//! its decay envelope proves it stays within `rest_delta` of rest (and, for a motion from one
//! value to another, within 0.1 % of its travel:
//! [`Model::end_delta`](crate::spec::Model::end_delta)) with speed below `rest_speed`; its
//! last frame is exactly the rest value. Every other frame is the exact closed form.

use crate::number::format_number;
use crate::spec::{Ending, MotionSpec};
use curvebake_motion::frame_time;

/// Most frames a motion may have.
pub const MAX_FRAMES: usize = 1_000_000;

/// A motion whose frames span more than this many seconds is worth a warning, whatever decided
/// its length (a `duration`, an arrival, or a rest): UI motions last well under a second, and
/// the outputs that hold every frame (the JSON tables and the modules) grow with the frames (a
/// 130 s fling writes 7,800 frames to each; a `duration` of 1000 s at 1000 fps, 36 MB to each).
pub const LONG_MOTION_SECONDS: f64 = 10.0;

/// Frames past which a motion whose length was asked for (a `duration`) is worth a warning:
/// its JSON table and its module take about 36 B a frame each, 3.6 MB here.
pub const MANY_FRAMES: usize = 100_000;

/// The warning of a motion `spec` baked as `frames` frames when they span more than
/// [`LONG_MOTION_SECONDS`] at its frame rate, or, for a motion whose `duration` was asked for,
/// when they are more than [`MANY_FRAMES`] (`None` otherwise): what a bake says after the
/// motion's file and name, and the review page on the card of a tuned motion. It names the
/// frames, says which outputs grow with them, and what shortens it: for a motion baked until
/// it rests, a `duration` or larger rest thresholds; for any other, a shorter `duration` or a
/// lower `fps`. Only for a motion that was baked: one that fails says why instead.
pub fn long_motion_warning(spec: &MotionSpec, frames: usize) -> Option<String> {
    let seconds = frames.saturating_sub(1) as f64 / spec.fps;
    let long = match spec.ending {
        // A length asked for: only its size is worth a word.
        Ending::Fixed(_) => frames > MANY_FRAMES,
        Ending::Rests | Ending::Arrives(_) => seconds > LONG_MOTION_SECONDS,
    };
    if !long {
        return None;
    }
    let seconds = format_number(seconds);
    let grows = format!("{frames} frames: the JSON tables and the modules grow with them");
    Some(match spec.ending {
        Ending::Rests => format!(
            "comes to rest only after {seconds} s ({grows}); give it a `duration`, or larger \
             rest_delta and rest_speed, if it should end sooner"
        ),
        Ending::Fixed(_) | Ending::Arrives(_) => format!(
            "lasts {seconds} s at {} fps ({grows}); give it a shorter `duration`, or a lower \
             `fps`, if they should be smaller",
            format_number(spec.fps)
        ),
    })
}

/// Largest position magnitude baked (in the motion's unit). Browsers cannot lay out lengths
/// anywhere near it (Chromium's layout stops at about 3.4e7 px), a `Float32Array` holds it,
/// and it bounds the digits of every number written: an output's size is at most its frames
/// times a small constant.
pub const MAX_POSITION: f64 = 1e9;
/// Largest speed baked (units per second), for the same reasons: 1000 times [`MAX_POSITION`]
/// per second.
pub const MAX_SPEED: f64 = 1e12;

/// D·fps within this of an integer n (relative: this times max(1, n)) counts as n, so that a
/// duration of 0.1 s at 60 fps is 6 frame intervals, not 7 with a last one of a femtosecond.
const FRAME_COUNT_SLACK: f64 = 1e-9;

/// One sampled quantity: position and velocity per frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// `value` for one-dimensional motions; `inner` or `outer` for a ring.
    pub name: &'static str,
    /// Position per frame.
    pub position: Vec<f64>,
    /// Velocity per frame.
    pub velocity: Vec<f64>,
}

/// A motion sampled at its frame rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Baked<'a> {
    /// What was baked.
    pub spec: &'a MotionSpec,
    /// Bake length D in seconds.
    pub duration: f64,
    /// The tracks, each with `frames()` samples.
    pub tracks: Vec<Track>,
}

impl Baked<'_> {
    /// Number of frames (samples per track).
    pub fn frames(&self) -> usize {
        self.tracks[0].position.len()
    }
    /// Time of frame i: min(i/fps, D).
    pub fn time(&self, i: usize) -> f64 {
        frame_time(i, self.spec.fps, self.duration)
    }
}

/// Why a motion cannot be baked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BakeError {
    /// Motion never rests and has no duration.
    #[error("never comes to rest (rest_delta {rest_delta}, rest_speed {rest_speed}); give it a `duration`")]
    NeverRests {
        /// Rest distance threshold.
        rest_delta: f64,
        /// Rest speed threshold.
        rest_speed: f64,
    },
    /// Too many frames.
    #[error("needs {} frames ({} s at {fps} fps), more than the limit of {MAX_FRAMES}; shorten `duration`, lower `fps` or raise rest_delta/rest_speed", Rounded(*frames), Rounded(*seconds))]
    TooManyFrames {
        /// Frames it would need (rounded to a float).
        frames: f64,
        /// Bake length.
        seconds: f64,
        /// Frame rate.
        fps: f64,
    },
    /// A sample is not finite (a growing decay that overflows).
    #[error("{track} {quantity} is not finite at t = {time} s (the motion overflows); shorten `duration`")]
    NotFinite {
        /// Track name.
        track: &'static str,
        /// `position` or `velocity`.
        quantity: &'static str,
        /// Time of the frame.
        time: f64,
    },
    /// A sample beyond [`MAX_POSITION`] or [`MAX_SPEED`].
    #[error("{track} {quantity} reaches {value:e} at t = {} s, beyond the limit of ±{limit:e} (no browser lays out such values, and their digits would swell every output); give it smaller values, or a `duration` that keeps them within it", Seconds(*time))]
    TooLarge {
        /// Track name.
        track: &'static str,
        /// `position` or `velocity`.
        quantity: &'static str,
        /// The first sample beyond the limit.
        value: f64,
        /// Its time.
        time: f64,
        /// The limit.
        limit: f64,
    },
}

/// A time written readably: as is from 0.0001 s on, in exponent form below.
struct Seconds(f64);

impl std::fmt::Display for Seconds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == 0.0 || self.0.abs() >= 1e-4 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}

/// A large number written readably: whole below 1e15, in exponent form above.
struct Rounded(f64);

impl std::fmt::Display for Rounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.abs() < 1e15 {
            write!(f, "{}", (self.0 * 1000.0).round() / 1000.0)
        } else {
            write!(f, "{:.3e}", self.0)
        }
    }
}

/// How a motion is sampled: frames `0 ..= intervals` at min(i/fps, `duration`), the last one
/// snapped to the end value when the motion `snaps` (it rests or arrives).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FramePlan {
    /// n = ceil(D·fps), D·fps within `FRAME_COUNT_SLACK` of a whole number counting as
    /// it, at least 1: the frames less one.
    pub intervals: usize,
    /// The bake length D, seconds.
    pub duration: f64,
    /// Whether the last frame is the end value.
    pub snaps: bool,
}

impl FramePlan {
    /// Frames of the bake.
    pub fn frames(&self) -> usize {
        self.intervals + 1
    }
}

/// The frame plan of a motion (cheap: its rest time, no sampling).
pub fn frame_plan(spec: &MotionSpec) -> Result<FramePlan, BakeError> {
    let fps = spec.fps;
    let (seconds, snaps) = match spec.ending {
        Ending::Fixed(d) => (d, false),
        Ending::Arrives(d) => (d, true),
        Ending::Rests => {
            let settle = spec
                .model
                .settle_time(spec.model.end_delta(spec.rest_delta), spec.rest_speed)
                .ok_or(BakeError::NeverRests {
                    rest_delta: spec.rest_delta,
                    rest_speed: spec.rest_speed,
                })?;
            // D is a frame time: the first one at or after the settle time (at least one frame on).
            let intervals = intervals(settle * fps).max(1.0);
            (intervals / fps, true)
        }
    };
    let intervals = intervals(seconds * fps).max(1.0);
    if !(intervals < MAX_FRAMES as f64) {
        return Err(BakeError::TooManyFrames {
            frames: intervals + 1.0,
            seconds,
            fps,
        });
    }
    Ok(FramePlan {
        intervals: intervals as usize,
        duration: seconds,
        snaps,
    })
}

fn intervals(frames: f64) -> f64 {
    let nearest = frames.round();
    if (frames - nearest).abs() <= FRAME_COUNT_SLACK * nearest.max(1.0) {
        nearest
    } else {
        frames.ceil()
    }
}

/// Samples every track of a motion. The last frame of a motion that rests or arrives is its
/// exact end value with velocity as the model gives it (0 at rest).
pub fn bake(spec: &MotionSpec) -> Result<Baked<'_>, BakeError> {
    bake_planned(spec, frame_plan(spec)?)
}

/// [`bake`] with the motion's [`frame_plan`] already made (a bake makes it when it reads the
/// motion, to size its windows).
pub fn bake_planned(spec: &MotionSpec, plan: FramePlan) -> Result<Baked<'_>, BakeError> {
    let FramePlan {
        intervals,
        duration,
        snaps,
    } = plan;
    let end_values = spec.model.end_values();
    let resting = spec.ending == Ending::Rests;
    let mut tracks = Vec::new();
    for (k, (name, motion)) in spec.model.tracks().into_iter().enumerate() {
        let (mut position, mut velocity) = (Vec::new(), Vec::new());
        motion.sample(
            spec.fps,
            duration,
            intervals + 1,
            &mut position,
            &mut velocity,
        );
        if snaps {
            if let Some(&end) = end_values.get(k) {
                position[intervals] = end;
                if resting {
                    velocity[intervals] = 0.0;
                }
            }
        }
        let quantities = [
            ("position", &position, MAX_POSITION),
            ("velocity", &velocity, MAX_SPEED),
        ];
        for (quantity, values, limit) in quantities {
            // `!(|x| <= limit)` also catches NaN.
            if let Some(i) = values.iter().position(|x| !(x.abs() <= limit)) {
                let (value, time) = (values[i], frame_time(i, spec.fps, duration));
                return Err(if value.is_finite() {
                    BakeError::TooLarge {
                        track: name,
                        quantity,
                        value,
                        time,
                        limit,
                    }
                } else {
                    BakeError::NotFinite {
                        track: name,
                        quantity,
                        time,
                    }
                });
            }
        }
        tracks.push(Track {
            name,
            position,
            velocity,
        });
    }
    Ok(Baked {
        spec,
        duration,
        tracks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::plain_ron;

    fn plan_of(duration: f64) -> FramePlan {
        let text = format!(
            "(name: \"g\", fps: 60, duration: {duration}, motion: Gravity(from: 0, velocity: 0, acceleration: 100))"
        );
        let file = &plain_ron::parse(&text).expect("plain RON")[0];
        frame_plan(&MotionSpec::from_file(file, Default::default()).unwrap()).unwrap()
    }

    /// The count docs/guide/curves.md states: n = ceil(D·fps) of the doubles' product, but a
    /// product a hair off a whole number counts as it, above (4.15 s at 60 fps is
    /// 249.00000000000003) as below (2.05 s is 122.99999999999999).
    #[test]
    fn a_product_a_hair_off_a_whole_number_of_frames_counts_as_it() {
        assert_eq!(4.15 * 60.0, 249.00000000000003);
        assert_eq!(plan_of(4.15).frames(), 250);
        assert_eq!(2.05 * 60.0, 122.99999999999999);
        assert_eq!(plan_of(2.05).frames(), 124);
        // Not a hair: a whole frame more.
        assert_eq!(plan_of(4.151).frames(), 251);
    }
}
