//! The contact sheet: every motion's position curve as a small multiple, from the digests'
//! bounded previews.

use super::text::{self, Align, Baseline, Texts};
use super::{
    format_number, thick_path, value_range, Area, DrawResult, BORDER, DONE, FRAMES, INNER, MUTED,
    OUTER, PANEL, POSITION, TEXT, VELOCITY,
};
use crate::exporter::Digest;
use plotters::prelude::*;

/// Margin around the grid, in pixels.
const MARGIN: u32 = 16;
/// Height of the heading above the grid.
const HEADER: u32 = 52;

/// Colours of a motion's tracks, in order (a multi-track motion has at most five).
const TRACK_COLORS: [RGBColor; 5] = [POSITION, OUTER, VELOCITY, DONE, FRAMES];

/// The values of a track's preview points.
fn values(points: &[(f64, f64)]) -> impl Iterator<Item = f64> + '_ {
    points.iter().map(|p| p.1)
}

/// The unit of track `k` of `d`: its own, or the motion's.
fn units_of(d: &Digest, k: usize) -> &str {
    d.units.get(k).unwrap_or(&d.unit)
}

/// The grid of a sheet: columns, rows and cell size for a number of motions.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    /// Motions drawn.
    pub count: usize,
    columns: u32,
    rows: u32,
    cell: (u32, u32),
}

impl Grid {
    /// A grid about 1.5 times wider than tall in cells; cells shrink from 320 to 180
    /// pixels wide as columns are added.
    pub fn new(count: usize) -> Self {
        let n = count.max(1);
        let columns = ((n as f64 * 1.5).sqrt().ceil() as usize).clamp(1, n) as u32;
        let rows = n.div_ceil(columns as usize) as u32;
        let cell_width = (3600 / columns).clamp(180, 320);
        Self {
            count,
            columns,
            rows,
            cell: (cell_width, cell_width * 5 / 8),
        }
    }

    /// Picture size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (
            self.columns * self.cell.0 + 2 * MARGIN,
            self.rows * self.cell.1 + HEADER + MARGIN,
        )
    }
}

/// Draws the first `grid.count` of `digests` (the heading counts them all).
pub fn draw(root: &Area, texts: &mut Texts, grid: &Grid, digests: &[Digest]) -> DrawResult {
    let mut heading = format!(
        "curvebake  ·  {} motion{}  ·  position against time (translateY down)",
        digests.len(),
        if digests.len() == 1 { "" } else { "s" }
    );
    if grid.count < digests.len() {
        heading.push_str(&format!("  ·  the first {} shown", grid.count));
    }
    texts.add(
        heading,
        (MARGIN as i32 + 4, 14),
        20.0,
        TEXT,
        (Align::Start, Baseline::Top),
    );
    let (w, h) = (grid.cell.0 as i32, grid.cell.1 as i32);
    for (i, d) in digests[..grid.count].iter().enumerate() {
        let x0 = (MARGIN + (i as u32 % grid.columns) * grid.cell.0) as i32;
        let y0 = (HEADER + (i as u32 / grid.columns) * grid.cell.1) as i32;
        root.draw(&Rectangle::new(
            [(x0 + 3, y0 + 3), (x0 + w - 4, y0 + h - 4)],
            BORDER.stroke_width(1),
        ))?;
        let text_max = (w - 22) as f32;
        // The name, and its duration and frames at the right of its row, so that the line
        // under it (kind and tracks) has the cell's width.
        let timing = format!("{} s  ·  {} frames", format_number(d.duration), d.frames);
        let timing_width = text::width(&timing, 11.0);
        texts.add(
            timing,
            (x0 + w - 11, y0 + 13),
            11.0,
            MUTED,
            (Align::End, Baseline::Top),
        );
        texts.add(
            text::fit(&d.name, 14.0, text_max - timing_width - 10.0),
            (x0 + 11, y0 + 10),
            14.0,
            TEXT,
            (Align::Start, Baseline::Top),
        );
        let with_unit = |what: &str, unit: &str| match unit {
            "" => what.to_owned(),
            unit => format!("{what} ({unit})"),
        };
        let own_scales = d.kind == "tracks";
        // The line under the name: kind and what it moves (a multi-track motion's tracks each
        // in the colour of its line), cut where the cell ends.
        let pieces: Vec<(String, RGBColor)> = if own_scales {
            let names = d.preview.iter().enumerate();
            let tracks = names.map(|(k, (track, _))| {
                let comma = if k + 1 < d.preview.len() { ", " } else { "" };
                let name = with_unit(track, units_of(d, k));
                (
                    format!("{name}{comma}"),
                    TRACK_COLORS[k % TRACK_COLORS.len()],
                )
            });
            let kind = [(format!("{}  ·  ", d.kind), MUTED)];
            kind.into_iter().chain(tracks).collect()
        } else {
            let property = if d.kind == "explosion-ring" {
                with_unit("radii", &d.unit)
            } else {
                with_unit(&d.property, &d.unit)
            };
            vec![(format!("{}  ·  {property}", d.kind), MUTED)]
        };
        let mut pen = 0.0;
        for (piece, color) in pieces {
            let room = text_max - pen;
            if room < text::width("…", 11.0) {
                break;
            }
            let piece = text::fit(&piece, 11.0, room);
            texts.add(
                piece.clone(),
                (x0 + 11 + pen.round() as i32, y0 + 30),
                11.0,
                color,
                (Align::Start, Baseline::Top),
            );
            pen += text::width(&piece, 11.0);
        }
        let (left, top, right, bottom) = (x0 + 11, y0 + 50, x0 + w - 12, y0 + h - 12);
        root.draw(&Rectangle::new(
            [(left, top), (right, bottom)],
            PANEL.filled(),
        ))?;
        let (left, top, right, bottom) = (left + 6, top + 4, right - 6, bottom - 4);
        // A ring's two radii share one scale; the tracks of a multi-track motion (each its own
        // property and unit) each get their own.
        let shared = value_range(d.preview.iter().flat_map(|(_, points)| values(points)));
        let duration = d.duration.max(f64::MIN_POSITIVE);
        let colors = if d.kind == "explosion-ring" {
            &[INNER, OUTER][..]
        } else {
            &TRACK_COLORS[..]
        };
        for ((track, points), color) in d.preview.iter().zip(colors) {
            // `translateY` with down pointing down, as on screen and in the review page.
            let property: &str = if own_scales { track } else { &d.property };
            let down = d.kind != "explosion-ring" && property == "translateY";
            let range = if own_scales {
                value_range(values(points))
            } else {
                shared.clone()
            };
            let to_px = |&(t, v): &(f64, f64)| {
                let fx = (t / duration).clamp(0.0, 1.0);
                let fy = ((v - range.start) / (range.end - range.start)).clamp(0.0, 1.0);
                let fy = if down { 1.0 - fy } else { fy };
                (
                    left + (fx * f64::from(right - left)).round() as i32,
                    bottom - (fy * f64::from(bottom - top)).round() as i32,
                )
            };
            let pixels: Vec<(i32, i32)> = points
                .iter()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .map(to_px)
                .collect();
            if !pixels.is_empty() {
                thick_path(root, &pixels, color, 2)?;
            }
        }
    }
    Ok(())
}
