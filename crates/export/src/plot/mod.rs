//! Drawing the PNG plots (the `plots` feature): `png/<name>.png` per motion and the contact
//! sheet `png/all.png`, at the paths [`super::png`] names.
//!
//! Each motion's plot has a title band (name, kind, property and unit, duration, frames and
//! the resolved parameters), a legend, a position panel and a velocity panel against time.
//! The curves are the exact closed forms sampled at least twice per pixel column; the baked
//! frames are dots on them, and the value the motion rests at or arrives at
//! ([`curvebake_model::spec::Model::end_values`]) is a dashed line, with a purple dashed line where the
//! motion looks done ([`crate::done::looks_done`]) and a grey one where it provably
//! rests. `translateY` is drawn as on screen, larger values lower, and its axis says so (the
//! ball bounces on the floor). An explosion ring plots both radii
//! with the band between them shaded, and adds a filmstrip of the ring itself, drawn to
//! scale, at six evenly spaced times.
//!
//! Shapes are drawn by plotters on its bitmap backend; text is the embedded DejaVu Sans (no
//! system font is needed), and the RGB buffer is encoded by the `image` crate with fixed
//! settings, so equal inputs give byte-identical files on every run and thread count.

use crate::exporter::{
    Buffers, Digest, Exporter, FilePath, MotionOutput, OutputFile, Shape, Summary,
};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::error::Error;
use std::ops::Range;
use std::sync::Once;

mod figure;
mod path;
mod sheet;
mod text;

use crate::png::{CONTACT_SHEET_PATH, MAX_SHEET_MOTIONS, PLOT};
use curvebake_model::number::format_number;

/// The PNG exporter.
#[derive(Debug, Clone)]
pub struct Png {
    settings: ExportSettings,
    shape: Shape,
}

impl Png {
    /// The exporter for `layout` with these settings (it uses `plot_size`): `png/<name>.png`
    /// and the contact sheet in the per-motion layout, nothing in the bundle layout (which
    /// holds only JSON and CSS).
    pub fn new(layout: Layout, settings: &ExportSettings) -> Self {
        let (files, summary, summaries): (&[FilePath], _, &[&str]) = match layout {
            Layout::PerMotion => (&[PLOT], Summary::Previews, &[CONTACT_SHEET_PATH]),
            Layout::Bundle => (&[], Summary::None, &[]),
        };
        Self {
            settings: settings.clone(),
            shape: Shape {
                files,
                bundle: None,
                summary,
                summaries,
            },
        }
    }
}

impl Exporter for Png {
    fn format(&self) -> Format {
        Format::Png
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// A plot whose drawing failed part-way is still written, and counted in the
    /// `png_incomplete` stat.
    fn motion(&self, baked: &Baked, _: &[String], _: &dyn Buffers) -> MotionOutput {
        if self.shape.files.is_empty() {
            return MotionOutput::default();
        }
        let (bytes, complete) = motion_plot(baked, self.settings.plot_size);
        MotionOutput {
            files: vec![bytes],
            stats: if complete {
                Vec::new()
            } else {
                vec![("png_incomplete", 1)]
            },
            ..Default::default()
        }
    }

    /// The contact sheet `png/all.png`: every motion's position curve as small multiples.
    /// It is left out when there is no motion, and when a motion is itself named `all` (its
    /// plot owns that path).
    fn summary(&self, digests: &[Digest]) -> Vec<OutputFile> {
        if self.shape.summary == Summary::None
            || digests.is_empty()
            || digests
                .iter()
                .any(|d| d.files.iter().any(|f| f == CONTACT_SHEET_PATH))
        {
            return Vec::new();
        }
        vec![OutputFile {
            path: CONTACT_SHEET_PATH.into(),
            bytes: contact_sheet(digests).0,
        }]
    }
}

/// Renders the plot of one baked motion at `size` pixels into PNG bytes. The flag is false
/// if some part of the drawing failed (the picture then holds what was drawn before).
///
/// A multi-track motion gets a panel per track, stacked top to bottom, each `size` and each
/// drawn as that track alone on the shared timeline (holding its end value once it ends), and
/// with translateX and translateY tracks a last panel of its path on screen
/// ([`crate::png::screen_path`]).
pub fn motion_plot(baked: &Baked, size: (u32, u32)) -> (Vec<u8>, bool) {
    let curvebake_model::spec::Model::Tracks(tracks) = &baked.spec.model else {
        return render(size, |root, texts| figure::draw(root, texts, baked));
    };
    let mut rgb = Vec::new();
    let mut complete = true;
    for (k, track) in tracks.tracks().iter().enumerate() {
        let spec = curvebake_model::spec::MotionSpec {
            name: format!("{} · {}", baked.spec.name, track.property.name()),
            property: track.property.clone(),
            unit: track.unit.clone(),
            rest_delta: track.rest_delta,
            rest_speed: track.rest_speed,
            model: curvebake_model::spec::Model::Tracks(tracks.only(k)),
            ..baked.spec.clone()
        };
        let one = Baked {
            spec: &spec,
            duration: baked.duration,
            tracks: vec![baked.tracks[k].clone()],
        };
        let (panel, drawn) = render_rgb(size, |root, texts| figure::draw(root, texts, &one));
        rgb.extend_from_slice(&panel);
        complete &= drawn;
    }
    let mut panels = tracks.tracks().len() as u32;
    if let Some((x, y)) = crate::png::screen_path(&baked.spec.model) {
        let units = (&tracks.tracks()[x].unit[..], &tracks.tracks()[y].unit[..]);
        let (panel, drawn) = render_rgb(size, |root, texts| {
            path::draw(root, texts, baked, (x, y), units)
        });
        rgb.extend_from_slice(&panel);
        complete &= drawn;
        panels += 1;
    }
    let height = size.1 * panels;
    (encode(&rgb, (size.0, height)), complete)
}

/// Renders the contact sheet: every motion's position preview as a small multiple, in input
/// order, on a grid sized to the count (at most [`MAX_SHEET_MOTIONS`] motions). The flag is
/// false if some part of the drawing failed.
pub fn contact_sheet(digests: &[Digest]) -> (Vec<u8>, bool) {
    let grid = sheet::Grid::new(digests.len().min(MAX_SHEET_MOTIONS));
    render(grid.size(), |root, texts| {
        sheet::draw(root, texts, &grid, digests)
    })
}

/// Draws shapes with `draw` (plotters) on a [`BACKGROUND`] picture, then its queued text,
/// then encodes the picture.
fn render(
    size: (u32, u32),
    draw: impl FnOnce(&Area, &mut text::Texts) -> DrawResult,
) -> (Vec<u8>, bool) {
    let (rgb, complete) = render_rgb(size, draw);
    (encode(&rgb, size), complete)
}

/// [`render`] without the encoding: the RGB pixels, row by row.
fn render_rgb(
    size: (u32, u32),
    draw: impl FnOnce(&Area, &mut text::Texts) -> DrawResult,
) -> (Vec<u8>, bool) {
    register_fonts();
    // The buffer starts as the background (white), so nothing needs to fill it.
    let mut rgb = vec![255u8; size.0 as usize * size.1 as usize * 3];
    let mut texts = text::Texts::default();
    let complete = {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        let drawn = draw(&root, &mut texts).and_then(|()| Ok(root.present()?));
        drawn.is_ok()
    };
    texts.render(&mut rgb, size);
    (rgb, complete)
}

// ---------------------------------------------------------------------------------------
// Fonts, encoding, colours, sizes

/// The embedded font (DejaVu Sans; licence in assets/DejaVuSans-LICENSE.txt).
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Registers the embedded font with plotters under its default family, once per process.
/// Plots queue their text for [`text`], but any plotters element that carries text would
/// otherwise fail with `FontUnavailable` on a machine without system fonts.
fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            if register_font("sans-serif", style, FONT).is_err() {
                panic!("assets/DejaVuSans.ttf is not a valid font");
            }
        }
    });
}

/// Encodes an RGB buffer as PNG with fixed settings: fast deflate with the Paeth filter, the
/// best balance of time and size measured (benches/README.md, "Tuning decisions").
fn encode(rgb: &[u8], (width, height): (u32, u32)) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgb.len() / 16);
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Paeth)
        .write_image(rgb, width, height, ExtendedColorType::Rgb8)
        .expect("encoding an RGB buffer of the right size into a Vec cannot fail");
    out
}

/// White: [`render`] starts every picture with it.
const BACKGROUND: RGBColor = RGBColor(255, 255, 255);
const PANEL: RGBColor = RGBColor(0xf7, 0xf8, 0xfa);
const TEXT: RGBColor = RGBColor(0x1f, 0x23, 0x28);
const MUTED: RGBColor = RGBColor(0x5c, 0x63, 0x6a);
const GRID: RGBColor = RGBColor(0xe3, 0xe6, 0xea);
const AXIS: RGBColor = RGBColor(0x8a, 0x91, 0x99);
const BORDER: RGBColor = RGBColor(0xd0, 0xd5, 0xdb);
const POSITION: RGBColor = RGBColor(0x1f, 0x6f, 0xc5);
const VELOCITY: RGBColor = RGBColor(0x1b, 0x8a, 0x4c);
const FRAMES: RGBColor = RGBColor(0xe3, 0x6c, 0x0a);
const REST: RGBColor = RGBColor(0x44, 0x4b, 0x53);
const DONE: RGBColor = RGBColor(0x82, 0x50, 0xdf);
/// Where one closed form hands over to the next (sequence hand-offs, an inertia's bound hit).
const JOIN: RGBColor = RGBColor(0xc4, 0x2b, 0x2b);
const INNER: RGBColor = RGBColor(0x1f, 0x6f, 0xc5);
const OUTER: RGBColor = RGBColor(0xc4, 0x2b, 0x2b);
const BAND: RGBColor = RGBColor(0xf6, 0xdc, 0xc4);
const RING_FILL: RGBColor = RGBColor(0xee, 0x9a, 0x4d);

type DrawResult<T = ()> = Result<T, Box<dyn Error>>;
type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Sizes scaled to the picture: 1.0 at the default 1200x800.
#[derive(Debug, Clone, Copy)]
struct Scale(f64);

impl Scale {
    fn of((width, height): (u32, u32)) -> Self {
        Self(
            (f64::from(width) / 1200.0)
                .min(f64::from(height) / 800.0)
                .clamp(0.6, 4.0),
        )
    }
    /// `base` pixels at the default size, at least 1.
    fn px(self, base: f64) -> i32 {
        (base * self.0).round().max(1.0) as i32
    }
    /// A font size of `base` pixels at the default size.
    fn font(self, base: f64) -> f32 {
        (base * self.0).max(8.0) as f32
    }
    /// Vertical advance of a line of text of size `base`.
    fn line(self, base: f64) -> i32 {
        (f64::from(text::line_height(self.font(base))) * 1.15).round() as i32
    }
}

/// A polyline about `width` pixels wide: a one-pixel anti-aliased path stamped at a few
/// offsets. (plotters turns wide paths into mitred polygons, which spike at sharp turns and
/// at repeated points; stamping keeps the width even at any sampling density.)
fn thick_path(area: &Area, points: &[(i32, i32)], color: &RGBColor, width: i32) -> DrawResult {
    let offsets: &[(i32, i32)] = match width {
        ..=1 => &[(0, 0)],
        2 => &[(0, 0), (1, 0), (0, 1), (1, 1)],
        _ => &[
            (0, 0),
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ],
    };
    let mut deduped: Vec<(i32, i32)> = Vec::with_capacity(points.len());
    for &p in points {
        if deduped.last() != Some(&p) {
            deduped.push(p);
        }
    }
    if deduped.len() == 1 {
        deduped.push(deduped[0]);
    }
    for &(dx, dy) in offsets {
        let shifted: Vec<_> = deduped.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
        area.draw(&PathElement::new(shifted, color.stroke_width(1)))?;
    }
    Ok(())
}

/// A one-pixel line.
fn line(area: &Area, from: (i32, i32), to: (i32, i32), color: &RGBColor) -> DrawResult {
    area.draw(&PathElement::new(vec![from, to], color.stroke_width(1)))?;
    Ok(())
}

/// A padded plotting range holding every value of `values` (non-finite ones ignored).
fn value_range(values: impl IntoIterator<Item = f64>) -> Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return -1.0..1.0;
    }
    let span = hi - lo;
    let floor = (lo.abs().max(hi.abs()) * 1e-6).max(1e-9);
    if span < floor {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return lo - pad..hi + pad;
    }
    let pad = span * 0.07;
    lo - pad..hi + pad
}

/// Tick positions and how to label them.
#[derive(Debug, Clone)]
struct Ticks {
    points: Vec<f64>,
    step: f64,
    decimals: usize,
    exponent: bool,
    /// Labels say the negated value (for an axis drawn upside down: see [`Ticks::negated`]).
    negated: bool,
}

impl Ticks {
    /// Round ticks (1, 2 or 5 times a power of ten apart), at most about `max` in `range`.
    fn new(range: &Range<f64>, max: usize) -> Self {
        let span = range.end - range.start;
        let raw = span / max.max(1) as f64;
        let mut power = libm::log10(raw).floor();
        let base = libm::pow(10f64, power);
        let mut mantissa = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .find(|m| m * base >= raw * (1.0 - 1e-9))
            .unwrap_or(10.0);
        if mantissa == 10.0 {
            mantissa = 1.0;
            power += 1.0;
        }
        let step = mantissa * libm::pow(10f64, power);
        // Ticks a rounding error away from an end still count as inside.
        let first = (range.start / step - 1e-9).ceil();
        let last = (range.end / step + 1e-9).floor();
        let points = if step > 0.0 && (0.0..1000.0).contains(&(last - first)) {
            (0..=(last - first) as i64)
                .map(|k| (first + k as f64) * step)
                .collect()
        } else {
            vec![range.start, range.end]
        };
        let magnitude = range.start.abs().max(range.end.abs());
        Self {
            points,
            step,
            decimals: (-power).max(0.0) as usize,
            exponent: magnitude >= 1e7 || power < -6.0,
            negated: false,
        }
    }

    /// The same ticks for values drawn negated (so that larger values go down): each tick
    /// at -v is labelled v.
    fn negated(self) -> Self {
        Self {
            negated: !self.negated,
            ..self
        }
    }

    /// Distance between ticks.
    fn step(&self) -> f64 {
        self.step
    }

    /// The label of tick `x`: every tick of an axis with the same decimals.
    fn label(&self, x: f64) -> String {
        let x = if self.negated { -x } else { x };
        if self.exponent {
            return format_number(x);
        }
        let text = format!("{:.*}", self.decimals, x);
        match text.strip_prefix('-') {
            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
            _ => text,
        }
    }

    /// Width of the widest label at `size` pixels.
    fn widest(&self, size: f32) -> f32 {
        self.points
            .iter()
            .map(|&p| text::width(&self.label(p), size))
            .fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_share_decimals() {
        let t = Ticks::new(&(-0.04..1.2), 12);
        assert_eq!(t.points.first(), Some(&0.0));
        assert_eq!(t.label(0.3), "0.3");
        let t = Ticks::new(&(0.0..0.58), 12);
        assert_eq!(t.label(0.1), "0.10");
        assert!(Ticks::new(&(-257.0..37.0), 8).points.contains(&-200.0));
        assert_eq!(Ticks::new(&(-1e-9..1e-9), 8).label(5e-10), "5e-10");
    }

    /// A 2D toss (x from 0 to about 234 px, y up to -168 px and back): its plot ends with its
    /// path, drawn at one scale (the curve's box is as wide, for its height, as the path) with
    /// y down (the start, at y = 0, is the lowest point on the left) and time marks.
    #[test]
    fn a_toss_in_x_and_y_ends_with_its_path_on_screen() {
        use curvebake_model::bake::{bake_planned, frame_plan};
        use curvebake_model::load::load_bytes;
        let ron = r#"(name: "toss", tracks: [
            (property: "translateX", motion: Friction(from: 0, velocity: 700, friction: 0.05)),
            (property: "translateY", motion: Gravity(from: 0, velocity: -900, acceleration: 2400, to: 0, restitution: 0.4)),
        ])"#;
        let loaded = load_bytes("toss.ron".as_ref(), ron.as_bytes(), Default::default());
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
        let spec = &loaded.inputs[0].spec;
        let baked = bake_planned(spec, frame_plan(spec).unwrap()).unwrap();
        let (bytes, complete) = motion_plot(&baked, (600, 400));
        assert!(complete);
        let img = image::load_from_memory(&bytes).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (600, 3 * 400), "two tracks and the path");
        let is = |c: RGBColor| move |p: &image::Rgb<u8>| p.0 == [c.0, c.1, c.2];
        let (mut lo, mut hi) = ((u32::MAX, u32::MAX), (0, 0));
        let mut leftmost = (u32::MAX, 0);
        let mut marks = 0;
        for (x, y, p) in img.enumerate_pixels().filter(|(_, y, _)| *y >= 800) {
            if is(POSITION)(p) {
                (lo, hi) = ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)));
                if x < leftmost.0 {
                    leftmost = (x, y);
                }
            }
            marks += usize::from(is(FRAMES)(p));
        }
        let (w, h) = (f64::from(hi.0 - lo.0), f64::from(hi.1 - lo.1));
        let (rest_x, peak_y) = (700.0 / -(0.05f64.ln()), 900.0 * 900.0 / (2.0 * 2400.0));
        assert!(
            (w / h / (rest_x / peak_y) - 1.0).abs() < 0.05,
            "one scale: {w} x {h} pixels for {rest_x} x {peak_y} px"
        );
        assert!(leftmost.1 + 4 >= hi.1, "y down: the start is at the bottom");
        assert!(marks > 20 * 8, "time marks (23 dots): {marks} pixels");
    }

    #[test]
    fn ranges_are_never_empty() {
        assert_eq!(value_range([]), -1.0..1.0);
        let r = value_range([3.0, 3.0]);
        assert!(r.start < 3.0 && r.end > 3.0);
        let r = value_range([0.0, f64::NAN]);
        assert!(r.start < 0.0 && r.end > 0.0);
    }
}
