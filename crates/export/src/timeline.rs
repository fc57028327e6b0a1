//! The points a motion's CSS and JS keyframes pass through: every frame, and every join of
//! its closed forms (a sequence's hand-off, an inertia's bound hit, the end of a track that
//! stops before the others: [`curvebake_model::spec::Model::joins`]).
//!
//! Frames are at `t_i = min(i / fps, D)`; a join `T` usually falls strictly between two of
//! them, where linear interpolation between the frames shows the chord, not `x(T)`. So each
//! join becomes a point of its own, `(T, x(T))` with `x(T)` the closed form at that exact time,
//! inserted in time order, and every thinning keeps it ([`Timeline::joins`]). A join within
//! `snap` seconds of a frame keeps that frame instead: the frame's value is then off `x(T)` by
//! at most `|x'|·snap`, which the caller's timing budget already pays for, and no stop crowds
//! another.

use std::borrow::Cow;

/// Points in time order, each track's value at each, and which points every thinning keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline<'a> {
    /// Time of each point, seconds.
    pub times: Cow<'a, [f64]>,
    /// Per track, its value at each point: the table's at a frame, the closed form's at a
    /// join.
    pub tracks: Vec<Cow<'a, [f64]>>,
    /// Indices (ascending) of the points at joins: inserted ones and frames a join snapped to.
    pub joins: Vec<usize>,
    /// Times of the inserted points (ascending): with the frame rate and `D` they say where
    /// every point is.
    pub added: Vec<f64>,
}

impl<'a> Timeline<'a> {
    /// The frames at `times` of `tracks` (each a value per frame) with the join times `joins`
    /// (non-decreasing) merged in, track `k` valued at join `j` by `at(k, j)` (its closed
    /// form there). A join
    /// strictly inside `(t_0, t_last)` and more than `snap` seconds from every frame is
    /// inserted; one within `snap` of a frame marks that frame (the nearer, the later on a
    /// tie); one at or outside the ends is left out (the ends are always kept). Without an
    /// inserted join the frames are borrowed.
    pub fn new(
        times: &'a [f64],
        tracks: &[&'a [f64]],
        joins: &[f64],
        at: impl Fn(usize, usize) -> f64,
        snap: f64,
    ) -> Self {
        debug_assert!(joins.windows(2).all(|w| w[0] <= w[1]), "{joins:?}");
        let mut timeline = Self {
            times: Cow::Borrowed(times),
            tracks: tracks.iter().map(|&x| Cow::Borrowed(x)).collect(),
            joins: Vec::new(),
            added: Vec::new(),
        };
        let (first, last) = (times[0], times[times.len() - 1]);
        // Strictly inside, and each time once (a step that lasts no time hands over twice at
        // once).
        let inside = (joins.iter().enumerate())
            .filter(|&(j, &t)| first < t && t < last && (j == 0 || joins[j - 1] != t));
        let mut merged: Option<(Vec<f64>, Vec<Vec<f64>>)> = None;
        // Frames copied into `merged` so far.
        let mut copied = 0;
        for (j, &t) in inside {
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
                let tracks = tracks.iter().map(|_| Vec::with_capacity(room)).collect();
                (Vec::with_capacity(room), tracks)
            });
            ts.extend_from_slice(&times[copied..k]);
            for (track, (x, frames)) in xs.iter_mut().zip(tracks).enumerate() {
                x.extend_from_slice(&frames[copied..k]);
                x.push(at(track, j));
            }
            copied = k;
            timeline.joins.push(ts.len());
            ts.push(t);
            timeline.added.push(t);
        }
        if let Some((mut ts, xs)) = merged {
            ts.extend_from_slice(&times[copied..]);
            timeline.times = Cow::Owned(ts);
            for ((merged, mut x), frames) in timeline.tracks.iter_mut().zip(xs).zip(tracks) {
                x.extend_from_slice(&frames[copied..]);
                *merged = Cow::Owned(x);
            }
        }
        timeline.joins.dedup();
        timeline
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether it has no points.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Every track's values.
    pub fn values(&self) -> Vec<&[f64]> {
        self.tracks.iter().map(|x| &x[..]).collect()
    }
}

/// The chord of the frames `(times, values)` around `t` (inside them): what linear
/// interpolation between frames shows there.
pub fn chord(times: &[f64], values: &[f64], t: f64) -> f64 {
    let b = times.partition_point(|&f| f < t).clamp(1, times.len() - 1);
    let a = b - 1;
    values[a] + (values[b] - values[a]) * (t - times[a]) / (times[b] - times[a])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x(t) = 70·t at join `j` of `joins`.
    fn line(joins: &[f64]) -> impl Fn(usize, usize) -> f64 + '_ {
        |_, j| 70.0 * joins[j]
    }

    const TIMES: [f64; 4] = [0.0, 0.1, 0.2, 0.3];
    const VALUES: [f64; 4] = [0.0, 1.0, 2.0, 3.0];

    #[test]
    fn a_join_between_frames_is_inserted_with_its_closed_form() {
        let timeline = Timeline::new(&TIMES, &[&VALUES, &VALUES], &[0.15], line(&[0.15]), 1e-6);
        assert_eq!(&timeline.times[..], &[0.0, 0.1, 0.15, 0.2, 0.3]);
        let line = [0.0, 1.0, 70.0 * 0.15, 2.0, 3.0];
        assert_eq!(timeline.values(), vec![&line[..], &line[..]]);
        assert_eq!(timeline.joins, vec![2]);
        assert_eq!(timeline.added, vec![0.15]);
    }

    #[test]
    fn a_join_near_a_frame_marks_it_and_the_ends_are_left_out() {
        let joins = [0.0, 0.05, 0.2 + 1e-9, 0.3];
        let timeline = Timeline::new(&TIMES, &[&VALUES], &joins, line(&joins), 1e-6);
        assert_eq!(&timeline.times[..], &[0.0, 0.05, 0.1, 0.2, 0.3]);
        // The frame at 0.2 is point 3 once 0.05 is inserted before it.
        assert_eq!(timeline.joins, vec![1, 3]);
        assert_eq!(timeline.added, vec![0.05]);
        assert_eq!(timeline.tracks[0][1], 3.5);
    }

    #[test]
    fn a_join_given_twice_is_one_point() {
        let joins = [0.15, 0.15];
        let timeline = Timeline::new(&TIMES, &[&VALUES], &joins, line(&joins), 1e-6);
        assert_eq!(&timeline.times[..], &[0.0, 0.1, 0.15, 0.2, 0.3]);
        assert_eq!(timeline.joins, vec![2]);
    }

    #[test]
    fn the_chord_is_the_line_between_the_frames_around() {
        let values = [0.0, 1.0, 4.0, 9.0];
        assert!((chord(&TIMES, &values, 0.15) - 2.5).abs() < 1e-12);
        assert_eq!(chord(&TIMES, &values, 0.2), 4.0);
    }

    #[test]
    fn no_joins_borrow_the_frames() {
        let timeline = Timeline::new(&TIMES, &[&VALUES], &[], line(&[]), 1e-6);
        assert!(matches!(timeline.times, Cow::Borrowed(_)));
        assert!(matches!(timeline.tracks[0], Cow::Borrowed(_)));
        assert!(timeline.joins.is_empty());
    }
}
