//! The path on screen of a motion with translateX and translateY tracks: x against y at one
//! scale on both axes (so the path has its true shape), y pointing down as on screen, with a
//! dot and its time at round times (every 0.1 s for a motion of a few seconds).

use super::text::{self, Align, Baseline, Texts};
use super::{
    line, thick_path, value_range, Area, DrawResult, Scale, Ticks, AXIS, FRAMES, GRID, MUTED,
    POSITION, TEXT,
};
use curvebake_model::bake::Baked;
use curvebake_motion::Motion;

/// At most about this many time marks along the path.
const MARKS: usize = 30;

/// Draws the path of tracks `x` and `y` (translateX, translateY) of `baked` on `root`; `units`
/// are theirs.
pub fn draw(
    root: &Area,
    texts: &mut Texts,
    baked: &Baked,
    (x, y): (usize, usize),
    units: (&str, &str),
) -> DrawResult {
    let (width, height) = root.dim_in_pixel();
    let (width, height) = (width as i32, height as i32);
    let s = Scale::of((width as u32, height as u32));
    let tracks = baked.spec.model.tracks();
    let (mx, my): (&dyn Motion, &dyn Motion) = (tracks[x].1, tracks[y].1);
    let samples = (2 * width as usize).max(1000);
    let path: Vec<(f64, f64)> = (0..=samples)
        .map(|j| {
            let t = baked.duration * j as f64 / samples as f64;
            (mx.position(t), my.position(t))
        })
        .collect();
    let times = Ticks::new(&(0.0..baked.duration), MARKS);
    let top = header(texts, &baked.spec.name, &times, s, width);
    let screen = Screen::fitting(&path, s, (width, height), top);
    screen.grid(root, texts, s, units)?;
    let curve: Vec<(i32, i32)> = path.iter().copied().map(|p| screen.px(p)).collect();
    thick_path(root, &curve, &POSITION, 2)?;
    let at = |t: f64| screen.px((mx.position(t), my.position(t)));
    time_marks(root, texts, s, (width, &curve), &times, at)
}

/// Writes the title and what the panel shows; returns the top of the plotting box.
fn header(texts: &mut Texts, name: &str, times: &Ticks, s: Scale, width: i32) -> i32 {
    let pad = s.px(20.0);
    let mut top = s.px(12.0);
    texts.add(
        text::fit(
            &format!("{name} · path on screen"),
            s.font(24.0),
            (width - 2 * pad) as f32,
        ),
        (pad, top),
        s.font(24.0),
        TEXT,
        (Align::Start, Baseline::Top),
    );
    top += s.line(24.0);
    texts.add(
        format!(
            "translateX against translateY at one scale, y down as on screen; a dot every {} s",
            times.label(times.step())
        ),
        (pad, top),
        s.font(14.0),
        MUTED,
        (Align::Start, Baseline::Top),
    );
    top + s.line(14.0) + s.px(14.0)
}

/// The plotting box and the one scale `k` (pixels per unit) that fits both spans of the path
/// in it, centred: the value `(x0, y0)` is at its top left corner.
struct Screen {
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
    x0: f64,
    y0: f64,
    k: f64,
}

impl Screen {
    fn fitting(path: &[(f64, f64)], s: Scale, (width, height): (i32, i32), top: i32) -> Self {
        let (left, right) = (s.px(20.0) + s.px(70.0), width - s.px(28.0));
        let bottom = height - s.px(20.0) - s.line(13.0) - s.line(14.0);
        let xs = value_range(path.iter().map(|p| p.0));
        let ys = value_range(path.iter().map(|p| p.1));
        let (w, h) = (f64::from(right - left), f64::from(bottom - top));
        let k = (w / (xs.end - xs.start)).min(h / (ys.end - ys.start));
        Self {
            left,
            right,
            top,
            bottom,
            x0: (xs.start + xs.end) / 2.0 - w / k / 2.0,
            y0: (ys.start + ys.end) / 2.0 - h / k / 2.0,
            k,
        }
    }

    /// The pixel of the value `(vx, vy)`.
    fn px(&self, (vx, vy): (f64, f64)) -> (i32, i32) {
        (
            self.left + ((vx - self.x0) * self.k).round() as i32,
            self.top + ((vy - self.y0) * self.k).round() as i32,
        )
    }

    /// Grid, axes and their labels: the same step on both axes (one scale), at least 80 pixels
    /// apart.
    fn grid(&self, root: &Area, texts: &mut Texts, s: Scale, units: (&str, &str)) -> DrawResult {
        let (left, right, top, bottom) = (self.left, self.right, self.top, self.bottom);
        let (w, h) = (f64::from(right - left), f64::from(bottom - top));
        let columns = Ticks::new(
            &(self.x0..self.x0 + w / self.k),
            (w / f64::from(s.px(80.0))) as usize,
        );
        let rows = Ticks::new(
            &(self.y0..self.y0 + h / self.k),
            (h / f64::from(s.px(80.0))) as usize,
        );
        let (label, tick, gap) = (s.font(13.0), s.px(5.0), s.px(4.0));
        for &v in &columns.points {
            let (gx, _) = self.px((v, self.y0));
            line(root, (gx, top), (gx, bottom), &GRID)?;
            line(root, (gx, bottom), (gx, bottom + tick), &AXIS)?;
            let at = (gx, bottom + tick + gap);
            let anchor = (Align::Center, Baseline::Top);
            texts.add(columns.label(v), at, label, TEXT, anchor);
        }
        for &v in &rows.points {
            let (_, gy) = self.px((self.x0, v));
            line(root, (left, gy), (right, gy), &GRID)?;
            line(root, (left - tick, gy), (left, gy), &AXIS)?;
            let at = (left - tick - gap, gy);
            let anchor = (Align::End, Baseline::Middle);
            texts.add(rows.label(v), at, label, TEXT, anchor);
        }
        line(root, (left, top), (left, bottom), &AXIS)?;
        line(root, (left, bottom), (right, bottom), &AXIS)?;
        texts.add(
            format!("translateX ({})", or_unitless(units.0)),
            (
                (left + right) / 2,
                bottom + tick + gap + s.line(13.0) + s.px(4.0),
            ),
            s.font(14.0),
            TEXT,
            (Align::Center, Baseline::Top),
        );
        texts.add_vertical(
            format!("translateY ({}), down ↓", or_unitless(units.1)),
            (s.px(16.0), (top + bottom) / 2),
            s.font(14.0),
            TEXT,
            (Align::Center, Baseline::Top),
        );
        Ok(())
    }
}

/// A dot at every time mark, at the pixel `at(t)`, with its time beside it: above right of
/// the dot, else below right, above left or below left, wherever the label covers no other
/// label, no dot and none of the `curve`'s pixels, inside the picture's `width`; a label with
/// no such place is left out (a motion near rest puts its last marks on one spot).
fn time_marks(
    root: &Area,
    texts: &mut Texts,
    s: Scale,
    (width, curve): (i32, &[(i32, i32)]),
    times: &Ticks,
    at: impl Fn(f64) -> (i32, i32),
) -> DrawResult {
    let label = s.font(13.0);
    let dots: Vec<(i32, i32)> = times.points.iter().map(|&t| at(t)).collect();
    let radius = s.px(4.0);
    for &(cx, cy) in &dots {
        root.draw(&plotters::element::Circle::new(
            (cx, cy),
            radius as u32,
            plotters::style::ShapeStyle::from(&FRAMES).filled(),
        ))?;
    }
    let mut placed: Vec<(i32, i32, i32, i32)> = Vec::new();
    for (&t, &(cx, cy)) in times.points.iter().zip(&dots) {
        let text = format!("{} s", times.label(t));
        let (tw, th) = (text::width(&text, label).ceil() as i32, s.line(13.0));
        let (near, far) = (s.px(7.0), s.px(7.0));
        let corners = [
            (cx + near, cy - far - th),
            (cx + near, cy + far),
            (cx - near - tw, cy - far - th),
            (cx - near - tw, cy + far),
        ];
        let covers = |b: (i32, i32, i32, i32), (x, y): (i32, i32), pad: i32| {
            x >= b.0 - pad && x <= b.2 + pad && y >= b.1 - pad && y <= b.3 + pad
        };
        let free = |b: (i32, i32, i32, i32)| {
            b.0 >= 0
                && b.2 < width
                && (placed.iter()).all(|p| b.2 < p.0 || b.0 > p.2 || b.3 < p.1 || b.1 > p.3)
                && !dots.iter().any(|&d| covers(b, d, radius))
                && !curve.iter().any(|&c| covers(b, c, 1))
        };
        let place = corners
            .into_iter()
            .map(|(x, y)| (x, y, x + tw, y + th))
            .find(|&b| free(b));
        if let Some(b) = place {
            texts.add(text, (b.0, b.1), label, TEXT, (Align::Start, Baseline::Top));
            placed.push(b);
        }
    }
    Ok(())
}

fn or_unitless(unit: &str) -> &str {
    if unit.is_empty() {
        "unitless"
    } else {
        unit
    }
}
