//! The points one property's CSS passes through: every frame, and every join of its closed
//! forms (a sequence's hand-off, an inertia's bound hit, the end of a track that stops before
//! the others: [`crate::spec::Model::joins`]).
//!
//! Frames are at `t_i = min(i / fps, D)`; a join `T` usually falls strictly between two of
//! them, where linear interpolation between the frames shows the chord, not `x(T)`. So each
//! join becomes a point of its own, `(T, x(T))` with `x(T)` the closed form at that exact time,
//! inserted in time order, and every thinning keeps it ([`Timeline::joins`]). A join within
//! `snap` seconds of a frame keeps that frame instead: the frame's value is then off `x(T)` by
//! at most `|x'|·snap`, which the caller's timing budget already pays for, and no stop crowds
//! another.

use crate::motion::Motion;
use std::borrow::Cow;

/// A property's points in time order, and which of them every thinning keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline<'a> {
    /// Time of each point, seconds.
    pub times: Cow<'a, [f64]>,
    /// Value of each point: the table's at a frame, the closed form's at a join.
    pub values: Cow<'a, [f64]>,
    /// Indices (ascending) of the points at joins: inserted ones and frames a join snapped to.
    pub joins: Vec<usize>,
    /// Times of the inserted points (ascending): with the frame rate and `D` they say where
    /// every point is.
    pub added: Vec<f64>,
}

impl<'a> Timeline<'a> {
    /// The frames alone (borrowed, nothing inserted).
    pub fn frames(times: &'a [f64], values: &'a [f64]) -> Self {
        Self {
            times: Cow::Borrowed(times),
            values: Cow::Borrowed(values),
            joins: Vec::new(),
            added: Vec::new(),
        }
    }

    /// The frames `(times, values)` with `joins` (`(T, x(T))` in increasing `T`) merged in: a
    /// join strictly inside `(t_0, t_last)` and more than `snap` seconds from every frame is
    /// inserted; one within `snap` of a frame marks that frame (the nearer, the later on a
    /// tie); one at or outside the ends is left out (the ends are always kept).
    pub fn new(times: &'a [f64], values: &'a [f64], joins: &[(f64, f64)], snap: f64) -> Self {
        let mut timeline = Self::frames(times, values);
        let (first, last) = (times[0], times[times.len() - 1]);
        let inside = joins.iter().filter(|&&(t, _)| first < t && t < last);
        let mut merged: Option<(Vec<f64>, Vec<f64>)> = None;
        // Frames copied into `merged` so far.
        let mut copied = 0;
        for &(t, x) in inside {
            let k = times.partition_point(|&f| f < t);
            let nearest = if times[k] - t <= t - times[k - 1] {
                k
            } else {
                k - 1
            };
            if (times[nearest] - t).abs() <= snap {
                timeline.joins.push(nearest + timeline.added.len());
                continue;
            }
            let (ts, xs) = merged.get_or_insert_with(|| {
                let room = times.len() + joins.len();
                (Vec::with_capacity(room), Vec::with_capacity(room))
            });
            ts.extend_from_slice(&times[copied..k]);
            xs.extend_from_slice(&values[copied..k]);
            copied = k;
            timeline.joins.push(ts.len());
            ts.push(t);
            xs.push(x);
            timeline.added.push(t);
        }
        if let Some((mut ts, mut xs)) = merged {
            ts.extend_from_slice(&times[copied..]);
            xs.extend_from_slice(&values[copied..]);
            timeline.times = Cow::Owned(ts);
            timeline.values = Cow::Owned(xs);
        }
        timeline.joins.dedup();
        timeline
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.times.len()
    }
}

/// `(T, x(T))` for each join time `T` of `motion`: the closed form at that exact time.
pub fn at_joins(motion: &dyn Motion, joins: &[f64]) -> Vec<(f64, f64)> {
    joins.iter().map(|&t| (t, motion.position(t))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_between_frames_is_inserted_with_its_own_value() {
        let times = [0.0, 0.1, 0.2, 0.3];
        let values = [0.0, 1.0, 2.0, 3.0];
        let timeline = Timeline::new(&times, &values, &[(0.15, 7.0)], 1e-6);
        assert_eq!(&timeline.times[..], &[0.0, 0.1, 0.15, 0.2, 0.3]);
        assert_eq!(&timeline.values[..], &[0.0, 1.0, 7.0, 2.0, 3.0]);
        assert_eq!(timeline.joins, vec![2]);
        assert_eq!(timeline.added, vec![0.15]);
    }

    #[test]
    fn a_join_near_a_frame_marks_it_and_the_ends_are_left_out() {
        let times = [0.0, 0.1, 0.2, 0.3];
        let values = [0.0, 1.0, 2.0, 3.0];
        let joins = [(0.0, 0.0), (0.05, 9.0), (0.2 + 1e-9, 2.0), (0.3, 3.0)];
        let timeline = Timeline::new(&times, &values, &joins, 1e-6);
        assert_eq!(&timeline.times[..], &[0.0, 0.05, 0.1, 0.2, 0.3]);
        // The frame at 0.2 is index 3 once 0.05 is inserted before it.
        assert_eq!(timeline.joins, vec![1, 3]);
        assert_eq!(timeline.added, vec![0.05]);
    }

    #[test]
    fn no_joins_borrow_the_frames() {
        let times = [0.0, 0.5, 1.0];
        let values = [1.0, 2.0, 3.0];
        let timeline = Timeline::new(&times, &values, &[], 1e-6);
        assert!(matches!(timeline.times, Cow::Borrowed(_)));
        assert!(timeline.joins.is_empty());
    }
}
