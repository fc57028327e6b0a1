//! The single cubic Bézier easing nearest to a motion's progress: what a DTCG `cubicBezier`
//! (and CSS `cubic-bezier()`) can hold, and how far off it is.
//!
//! A `cubic-bezier(x1, y1, x2, y2)` easing is the curve `B(s) = 3(1-s)²s·P1 + 3(1-s)s²·P2 + s³`
//! from (0, 0) to (1, 1), with `x1, x2` in [0, 1] so that its x is increasing and each input
//! `u` has one output: `y(s)` at the `s` with `x(s) = u`. The fit minimises the largest
//! `|y(u) - p(u)|` over [`SAMPLES`] + 1 evenly spaced inputs (a minimax fit: the error a
//! person sees is the worst one) by Nelder-Mead from a few starts, deterministically; the
//! numbers are then rounded to [`DECIMALS`] decimals and the error measured again on them.

/// Evenly spaced inputs the error is measured at (plus the end).
pub const SAMPLES: usize = 400;

/// Decimals of a written coordinate.
pub const DECIMALS: i32 = 3;

/// Inputs the search compares at (evenly spaced, plus the end): the search's error is a
/// cheaper estimate; the reported one is measured at [`SAMPLES`].
const SEARCH_SAMPLES: usize = 80;

/// Nelder-Mead steps from each start.
const STEPS: usize = 120;

/// Bisection steps solving `x(s) = u`: to 2⁻⁴⁰ when measuring, 2⁻²⁴ while searching.
const BISECTION: usize = 40;

/// Times each start's search starts again from where it stopped.
const RESTARTS: usize = 4;

/// Bisection steps while searching.
const SEARCH_BISECTION: usize = 24;

/// A fitted easing: `[x1, y1, x2, y2]` and its largest progress error at the samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bezier {
    /// The control points, rounded to [`DECIMALS`].
    pub points: [f64; 4],
    /// Largest `|y(u) - p(u)|` over the samples.
    pub error: f64,
}

/// One coordinate of the curve at `s`: `3(1-s)²s·a + 3(1-s)s²·b + s³`.
fn coordinate(a: f64, b: f64, s: f64) -> f64 {
    let r = 1.0 - s;
    3.0 * r * r * s * a + 3.0 * r * s * s * b + s * s * s
}

/// The easing's output at input `u` in [0, 1] (`x1, x2` in [0, 1], so `x(s)` increases).
pub fn ease(p: &[f64; 4], u: f64) -> f64 {
    ease_to(p, u, BISECTION)
}

/// [`ease`] with `steps` bisection steps.
fn ease_to(p: &[f64; 4], u: f64, steps: usize) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..steps {
        let mid = 0.5 * (lo + hi);
        if coordinate(p[0], p[2], mid) < u {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    coordinate(p[1], p[3], 0.5 * (lo + hi))
}

/// Largest `|ease(u_i) - progress[i]|`, `u_i = i / (n - 1)`.
fn error(p: &[f64; 4], progress: &[f64]) -> f64 {
    error_to(p, progress, BISECTION)
}

/// [`error`] with `steps` bisection steps.
fn error_to(p: &[f64; 4], progress: &[f64], steps: usize) -> f64 {
    let last = (progress.len() - 1) as f64;
    (progress.iter().enumerate())
        .map(|(i, &y)| (ease_to(p, i as f64 / last, steps) - y).abs())
        .fold(0.0, f64::max)
}

/// `p` with its x coordinates held in [0, 1].
fn clamped(mut p: [f64; 4]) -> [f64; 4] {
    p[0] = p[0].clamp(0.0, 1.0);
    p[2] = p[2].clamp(0.0, 1.0);
    p
}

/// The best easing for `progress`, sampled at [`SAMPLES`] + 1 evenly spaced inputs from 0 to
/// 1 (`progress[0] = 0`, the last 1; [`SAMPLES`] a multiple of the search's 80 samples);
/// `initial_slope` is `dp/du` at 0 (a start follows it).
pub fn fit(progress: &[f64], initial_slope: f64) -> Bezier {
    let slope = if initial_slope.is_finite() {
        initial_slope.clamp(-20.0, 20.0)
    } else {
        0.0
    };
    let starts = [
        [0.25, 0.1, 0.25, 1.0],
        [0.42, 0.0, 0.58, 1.0],
        [0.0, 0.0, 0.58, 1.0],
        [0.2, 0.2 * slope, 0.3, 1.2],
        [0.3, 0.3 * slope, 0.1, 1.0],
    ];
    let stride = (progress.len() - 1) / SEARCH_SAMPLES;
    let coarse: Vec<f64> = progress.iter().step_by(stride.max(1)).copied().collect();
    let mut best = starts[0];
    let mut best_error = f64::INFINITY;
    for start in starts {
        // Minimax errors are not smooth: a simplex stalls on a ridge, and starting again
        // from where it stalled (with a fresh, smaller simplex) goes on down.
        let mut p = start;
        for round in 0..RESTARTS {
            p = nelder_mead(p, &coarse, 0.1 / (1 << round) as f64);
        }
        let e = error(&p, progress);
        if e < best_error {
            (best, best_error) = (p, e);
        }
    }
    let scale = 10f64.powi(DECIMALS);
    let points = clamped(best.map(|c| (c * scale).round() / scale + 0.0));
    Bezier {
        points,
        error: error(&points, progress),
    }
}

/// Nelder-Mead (reflection 1, expansion 2, contraction and shrink ½) on the error, x held in
/// [0, 1], from `start` with steps of `step`.
fn nelder_mead(start: [f64; 4], progress: &[f64], step: f64) -> [f64; 4] {
    let f = |p: &[f64; 4]| error_to(&clamped(*p), progress, SEARCH_BISECTION);
    let mut simplex: Vec<([f64; 4], f64)> = (0..5)
        .map(|k| {
            let mut p = start;
            if k > 0 {
                p[k - 1] += step;
            }
            (p, f(&p))
        })
        .collect();
    let along = |a: &[f64; 4], b: &[f64; 4], t: f64| -> [f64; 4] {
        std::array::from_fn(|i| a[i] + t * (b[i] - a[i]))
    };
    for _ in 0..STEPS {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        let centroid: [f64; 4] =
            std::array::from_fn(|i| simplex[..4].iter().map(|(p, _)| p[i]).sum::<f64>() / 4.0);
        let (worst, worst_f) = simplex[4];
        let reflected = along(&centroid, &worst, -1.0);
        let fr = f(&reflected);
        if fr < simplex[0].1 {
            let expanded = along(&centroid, &worst, -2.0);
            let fe = f(&expanded);
            simplex[4] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < simplex[3].1 {
            simplex[4] = (reflected, fr);
        } else {
            let contracted = along(&centroid, &worst, 0.5);
            let fc = f(&contracted);
            if fc < worst_f {
                simplex[4] = (contracted, fc);
            } else {
                let best = simplex[0].0;
                for point in simplex.iter_mut().skip(1) {
                    let p = along(&best, &point.0, 0.5);
                    *point = (p, f(&p));
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    clamped(simplex[0].0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A curve that is a cubic Bézier is fitted to within the rounding of its points.
    #[test]
    fn an_ease_out_is_found_again() {
        let target = [0.0, 0.0, 0.58, 1.0];
        let progress: Vec<f64> = (0..=SAMPLES)
            .map(|i| ease(&target, i as f64 / SAMPLES as f64))
            .collect();
        let b = fit(&progress, 0.0);
        assert!(b.error < 2e-3, "{b:?}");
    }

    /// A spring with ζ 0.31 overshoots and rings: the issue measured the best single bezier
    /// 0.31 of progress off; no Bézier with two control points rings, so the error is large
    /// and reported, never hidden.
    #[test]
    fn a_ringing_spring_is_far_from_any_bezier() {
        let (zeta, w): (f64, f64) = (0.31, 12.0);
        let wd = w * (1.0 - zeta * zeta).sqrt();
        let d = 1.6;
        let progress: Vec<f64> = (0..=SAMPLES)
            .map(|i| {
                let t = d * i as f64 / SAMPLES as f64;
                1.0 - (-zeta * w * t).exp() * ((wd * t).cos() + zeta * w / wd * (wd * t).sin())
            })
            .collect();
        let b = fit(&progress, 0.0);
        assert!(b.error > 0.05 && b.error < 0.5, "{b:?}");
    }
}
