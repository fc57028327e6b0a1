//! Text for plots: the embedded DejaVu Sans laid out with ab_glyph (advances, kerning and
//! side bearings) and blended into the RGB buffer once plotters has drawn every shape.
//!
//! plotters' own ab_glyph text path places each glyph at its ink box instead of its pen
//! position (it drops the side bearings), which makes words look unevenly spaced; so plots
//! queue their labels in [`Texts`] and render them here.

use ab_glyph::{point, Font, FontRef, Glyph, PxScale, ScaleFont};
use plotters::style::RGBColor;
use std::sync::OnceLock;

/// The parsed embedded font.
fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(super::FONT).expect("assets/DejaVuSans.ttf is a valid font")
    })
}

/// The ab_glyph scale for a font size in CSS pixels (the em square, not the line height).
fn scale(size: f32) -> PxScale {
    let f = font();
    let em = f.units_per_em().unwrap_or(2048.0);
    PxScale::from(size * f.height_unscaled() / em)
}

/// Glyphs of `text` on a baseline at y = 0 starting at x = 0, and the advance width.
fn layout(text: &str, size: f32) -> (Vec<Glyph>, f32) {
    let f = font().as_scaled(scale(size));
    let mut glyphs = Vec::with_capacity(text.len());
    let mut pen = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let id = f.glyph_id(c);
        if let Some(p) = previous {
            pen += f.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(f.scale(), point(pen, 0.0)));
        pen += f.h_advance(id);
        previous = Some(id);
    }
    (glyphs, pen)
}

/// Advance width of `text` at `size` pixels.
pub fn width(text: &str, size: f32) -> f32 {
    layout(text, size).1
}

/// `text`, cut at a character boundary and ended with an ellipsis if it is wider than `max`.
pub fn fit(text: &str, size: f32, max: f32) -> String {
    if width(text, size) <= max {
        return text.to_owned();
    }
    let mut cut: String = text.to_owned();
    while cut.pop().is_some() {
        let trimmed = cut.trim_end();
        let candidate = format!("{trimmed}…");
        if width(&candidate, size) <= max {
            return candidate;
        }
    }
    String::new()
}

/// Horizontal alignment of a label on its anchor (along the text direction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// The text starts at the anchor.
    Start,
    /// The text is centred on the anchor.
    Center,
    /// The text ends at the anchor.
    End,
}

/// Vertical alignment of a label on its anchor (across the text direction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    /// The anchor is at the top of the line (the font's ascent).
    Top,
    /// The anchor is halfway up the capital letters (lines up with markers and ticks).
    Middle,
}

/// One queued label.
#[derive(Debug, Clone)]
struct Label {
    text: String,
    anchor: (i32, i32),
    size: f32,
    color: RGBColor,
    align: Align,
    baseline: Baseline,
    /// Rotated a quarter turn counter-clockwise (reads bottom to top).
    vertical: bool,
}

/// Labels waiting to be drawn over the finished shapes.
#[derive(Debug, Default)]
pub struct Texts {
    labels: Vec<Label>,
}

impl Texts {
    /// Queues a horizontal label.
    pub fn add(
        &mut self,
        text: impl Into<String>,
        anchor: (i32, i32),
        size: f32,
        color: RGBColor,
        (align, baseline): (Align, Baseline),
    ) {
        self.labels.push(Label {
            text: text.into(),
            anchor,
            size,
            color,
            align,
            baseline,
            vertical: false,
        });
    }

    /// Queues a label turned a quarter counter-clockwise; `align` runs along the text (bottom
    /// to top), `baseline` across it (`Top` is its left edge).
    pub fn add_vertical(
        &mut self,
        text: impl Into<String>,
        anchor: (i32, i32),
        size: f32,
        color: RGBColor,
        placement: (Align, Baseline),
    ) {
        self.add(text, anchor, size, color, placement);
        if let Some(label) = self.labels.last_mut() {
            label.vertical = true;
        }
    }

    /// Blends every label into an RGB buffer of `size` pixels (clipped to it).
    pub fn render(&self, rgb: &mut [u8], (width, height): (u32, u32)) {
        for label in &self.labels {
            render_label(label, rgb, (width as i32, height as i32));
        }
    }
}

fn render_label(label: &Label, rgb: &mut [u8], (width, height): (i32, i32)) {
    let (glyphs, advance) = layout(&label.text, label.size);
    let f = font().as_scaled(scale(label.size));
    let along = match label.align {
        Align::Start => 0.0,
        Align::Center => -advance / 2.0,
        Align::End => -advance,
    };
    let across = match label.baseline {
        Baseline::Top => f.ascent(),
        Baseline::Middle => cap_height(label.size) / 2.0,
    };
    // Whole pixels keep stems crisp and the output independent of sub-pixel anchors.
    let (along, across) = (along.round() as i32, across.round() as i32);
    let RGBColor(r, g, b) = label.color;
    let color = [f32::from(r), f32::from(g), f32::from(b)];
    let (ax, ay) = label.anchor;
    for glyph in glyphs {
        let Some(outline) = font().outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        let (gx, gy) = (bounds.min.x as i32, bounds.min.y as i32);
        outline.draw(|x, y, coverage| {
            // Position along and across the text, from the anchor.
            let u = along + gx + x as i32;
            let v = across + gy + y as i32;
            let (px, py) = if label.vertical {
                (ax + v, ay - u)
            } else {
                (ax + u, ay + v)
            };
            if px < 0 || py < 0 || px >= width || py >= height {
                return;
            }
            let c = coverage.clamp(0.0, 1.0);
            let i = (py as usize * width as usize + px as usize) * 3;
            for (k, &target) in color.iter().enumerate() {
                let old = f32::from(rgb[i + k]);
                rgb[i + k] = (old + (target - old) * c).round() as u8;
            }
        });
    }
}

/// Height of a capital letter at `size` pixels.
fn cap_height(size: f32) -> f32 {
    let f = font().as_scaled(scale(size));
    f.outline_glyph(f.scaled_glyph('H'))
        .map_or(size * 0.73, |o| o.px_bounds().height())
}

/// Height of one line of text (ascent to descent) at `size` pixels.
pub fn line_height(size: f32) -> f32 {
    let f = font().as_scaled(scale(size));
    f.ascent() - f.descent()
}
