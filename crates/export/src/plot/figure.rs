//! The plot of one motion: title band, legend, position and velocity panels, and for an
//! explosion ring a filmstrip of the ring itself.

use super::text::{self, Align, Baseline, Texts};
use super::{
    format_number, line, thick_path, value_range, Area, DrawResult, Scale, Ticks, AXIS, BAND,
    BORDER, DONE, FRAMES, GRID, INNER, JOIN, MUTED, OUTER, POSITION, REST, RING_FILL, TEXT,
    VELOCITY,
};
use crate::done::looks_done;
use curvebake_model::bake::Baked;
use curvebake_model::spec::{param_unit, Ending, Model, ParamGroup};
use curvebake_motion::Motion;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::ops::Range;

type Chart<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Pictures of the ring in the filmstrip.
const FILMSTRIP_CELLS: usize = 6;

/// Separator between items of the title lines.
const DOT: &str = "  ·  ";

/// A dashed mark's look: colour, dash and gap, and width (pixels at the default size). Each
/// meaning has its own pattern, so that no two marks differ by colour alone.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Dash {
    color: RGBColor,
    on: f64,
    off: f64,
    width: f64,
}

/// The value a track rests or arrives at, across the position panel: long dashes.
const END_LEVEL: Dash = Dash {
    color: REST,
    on: 12.0,
    off: 5.0,
    width: 2.0,
};
/// When the motion provably rests: long dashes, grey.
const AT_REST: Dash = Dash {
    color: AXIS,
    on: 12.0,
    off: 5.0,
    width: 2.0,
};
/// When the motion looks done: dots.
const LOOKS_DONE: Dash = Dash {
    color: DONE,
    on: 2.0,
    off: 4.0,
    width: 2.5,
};
/// A snap point an inertia may rest on: dots, thin.
const SNAP_MARK: Dash = Dash {
    color: RGBColor(0x0a, 0x7f, 0x8f),
    on: 2.0,
    off: 3.0,
    width: 1.5,
};
/// A bound an inertia is held within: long dashes, thin.
const BOUND_MARK: Dash = Dash {
    color: RGBColor(0xbc, 0x4c, 0x00),
    on: 16.0,
    off: 4.0,
    width: 1.5,
};
/// A join (hand-off, bound hit): short dashes, thin.
const JOIN_MARK: Dash = Dash {
    color: JOIN,
    on: 5.0,
    off: 4.0,
    width: 1.5,
};

impl Dash {
    /// The mark from `from` to `to` on a chart, `widen` times as wide.
    fn series(
        self,
        s: Scale,
        [from, to]: [(f64, f64); 2],
        widen: f64,
    ) -> DashedLineSeries<std::array::IntoIter<(f64, f64), 2>, i32> {
        DashedLineSeries::new(
            [from, to],
            s.px(self.on),
            s.px(self.off),
            self.color.stroke_width(s.px(self.width * widen) as u32),
        )
    }
}

/// What a panel shows of a track: the value of a closed-form sample (t, position, velocity),
/// the baked frames of it, and a factor both are drawn times.
type Values = (
    fn(&(f64, f64, f64)) -> f64,
    for<'t> fn(&TrackData<'t>) -> &'t [f64],
    f64,
);

/// One track of a motion, sampled for drawing.
struct TrackData<'a> {
    /// The closed form.
    motion: &'a dyn Motion,
    /// (t, position, velocity) from the closed form, densely.
    exact: Vec<(f64, f64, f64)>,
    /// Baked positions.
    position: &'a [f64],
    /// Baked velocities.
    velocity: &'a [f64],
    /// Where the track rests or arrives, if anywhere.
    end: Option<f64>,
}

/// What the panels of one picture share, so that their plotting areas line up.
struct Frame {
    s: Scale,
    x: Range<f64>,
    x_ticks: Ticks,
    /// Width of the y label area (tick labels and the axis description).
    left: i32,
}

/// Draws the plot of `baked` on `root`; text goes to `texts`.
pub fn draw(root: &Area, texts: &mut Texts, baked: &Baked) -> DrawResult {
    let (width, height) = root.dim_in_pixel();
    let plot = Plot::new(baked, (width, height));
    let y = plot.header(root, texts)?;
    let (position_area, velocity_area, strip_area) = plot.panel_areas(root, y);
    let position_range = plot.position_range();
    let velocity_range = plot.velocity_range();
    let position_ticks = y_ticks(plot.s, &position_range, &position_area);
    let position_ticks = if plot.down {
        position_ticks.negated()
    } else {
        position_ticks
    };
    let velocity_ticks = y_ticks(plot.s, &velocity_range, &velocity_area);
    let velocity_ticks = if plot.down {
        velocity_ticks.negated()
    } else {
        velocity_ticks
    };
    let frame = plot.frame(&position_ticks, &velocity_ticks);
    plot.position_panel(
        root,
        &position_area,
        texts,
        &frame,
        (position_range, &position_ticks),
    )?;
    plot.velocity_panel(
        root,
        &velocity_area,
        texts,
        &frame,
        (velocity_range, &velocity_ticks),
    )?;
    if let (Some(strip), [inner, outer]) = (strip_area, &plot.tracks[..]) {
        filmstrip(
            &strip,
            texts,
            &frame,
            baked.duration,
            (inner, outer),
            plot.unit,
        )?;
    }
    Ok(())
}

/// One motion as its plot draws it: what the title band, the legend and the panels share.
struct Plot<'a> {
    baked: &'a Baked<'a>,
    s: Scale,
    /// The picture's width and height in pixels.
    size: (i32, i32),
    /// An explosion ring: both radii, the band between them, and a filmstrip.
    ring: bool,
    /// On screen a larger translateY is lower: its position panel is drawn with values negated
    /// and labelled back, so that down points down.
    down: bool,
    /// -1 when `down`, else 1: what positions are multiplied by to be drawn.
    up: f64,
    /// When the motion looks done, if it does.
    done: Option<f64>,
    /// The bake ends where the motion provably rests.
    rests: bool,
    /// Where one closed form hands over to the next: a dashed vertical line in both panels.
    joins: Vec<f64>,
    /// Values an inertia is held to, across the position panel: its snap points and bounds.
    guides: Vec<(f64, Dash)>,
    tracks: Vec<TrackData<'a>>,
    /// The time of each baked frame.
    times: Vec<f64>,
    /// The unit of the values as the labels say it ("unitless" for none).
    unit: &'a str,
    /// Radius of the frame dots, and whether they are dense (see [`dot_radius`]).
    dots: (u32, bool),
}

impl<'a> Plot<'a> {
    /// The motion of `baked` for a picture of `(width, height)` pixels, its closed forms
    /// sampled at least twice per pixel column (and at least 1000 times).
    fn new(baked: &'a Baked<'a>, (width, height): (u32, u32)) -> Self {
        let spec = baked.spec;
        let s = Scale::of((width, height));
        let (width, height) = (width as i32, height as i32);
        let ring = matches!(spec.model, Model::Ring(_));
        let down = !ring && spec.property.name() == "translateY";
        let samples = (2 * width as usize).max(1000);
        let end_values = spec.model.end_values();
        let tracks = spec
            .model
            .tracks()
            .into_iter()
            .zip(&baked.tracks)
            .enumerate()
            .map(|(k, ((_, motion), track))| TrackData {
                motion,
                exact: (0..=samples)
                    .map(|j| {
                        let t = baked.duration * j as f64 / samples as f64;
                        let (x, v) = motion.state(t);
                        (t, x, v)
                    })
                    .collect(),
                position: &track.position,
                velocity: &track.velocity,
                end: end_values.get(k).copied(),
            })
            .collect();
        Self {
            baked,
            s,
            size: (width, height),
            ring,
            down,
            up: if down { -1.0 } else { 1.0 },
            done: looks_done(baked),
            rests: spec.ending == Ending::Rests,
            joins: spec.model.joins_until(baked.duration),
            guides: guides(&spec.model),
            tracks,
            times: (0..baked.frames()).map(|i| baked.time(i)).collect(),
            unit: if spec.unit.is_empty() {
                "unitless"
            } else {
                spec.unit.as_str()
            },
            dots: dot_radius(width - s.px(160.0), baked.frames(), s),
        }
    }

    /// The unit of velocities ("1/s" for unitless values).
    fn speed_unit(&self) -> String {
        let unit = &self.baked.spec.unit;
        if unit.is_empty() {
            "1/s".to_owned()
        } else {
            format!("{unit}/s")
        }
    }

    /// Draws the title band from the top: the name, then as many lines of kind and timing and
    /// of the parameters as fit in the top 30 % beside the legend (small plots drop the
    /// parameters, then the legend), the legend and a rule; returns the y below the rule.
    fn header(&self, root: &Area, texts: &mut Texts) -> DrawResult<i32> {
        let s = self.s;
        let (width, height) = self.size;
        let pad = s.px(20.0);
        let text_max = (width - 2 * pad) as f32;
        let mut y = s.px(12.0);
        let title = s.font(24.0);
        texts.add(
            text::fit(&self.baked.spec.name, title, text_max),
            (pad, y),
            title,
            TEXT,
            (Align::Start, Baseline::Top),
        );
        y += s.line(24.0);
        let body = s.font(14.0);
        let mut lines = wrap("", &self.meta_items(), body, text_max);
        let meta_lines = lines.len();
        lines.extend(self.param_lines(body, text_max));
        let keys = self.legend_keys();

        // The first line of kind and timing, the legend, then the other lines in order.
        let budget = (f64::from(height) * 0.3) as i32 - y - s.px(14.0);
        let legend_height = legend_rows(&keys, s, width - 2 * pad) * legend_row(s);
        let line_height = s.line(14.0);
        let first = lines.len().min(meta_lines).min(1);
        let with_legend = first as i32 * line_height + legend_height <= budget;
        let room = budget - if with_legend { legend_height } else { 0 };
        let shown = ((room / line_height).max(0) as usize).min(lines.len());
        for l in lines.into_iter().take(shown) {
            texts.add(l, (pad, y), body, MUTED, (Align::Start, Baseline::Top));
            y += line_height;
        }
        y += s.px(8.0);
        if with_legend {
            y = legend(root, texts, s, (pad, width - pad), y, &keys)?;
        }
        y += s.px(6.0);
        line(root, (pad, y), (width - pad, y), &GRID)?;
        Ok(y + 1)
    }

    /// The kind, what is animated, the duration, the frames and how the motion ends.
    fn meta_items(&self) -> [String; 5] {
        let (spec, unit) = (self.baked.spec, self.unit);
        let ending = match spec.ending {
            Ending::Rests => "comes to rest",
            Ending::Arrives(_) => "arrives at its end value",
            Ending::Fixed(_) => "fixed length",
        };
        [
            spec.model.kind().to_owned(),
            if self.ring {
                format!("radii ({unit})")
            } else {
                format!("{} ({unit})", spec.property.name())
            },
            format!("duration {} s", format_number(self.baked.duration)),
            format!(
                "{} frames at {} fps",
                self.baked.frames(),
                format_number(spec.fps)
            ),
            ending.to_owned(),
        ]
    }

    /// The resolved parameters wrapped into lines, a line a group; a spring's equivalents in
    /// the other platforms' forms come last as one wrapped paragraph, not a line each, so the
    /// plot keeps its height.
    fn param_lines(&self, body: f32, text_max: f32) -> Vec<String> {
        let params = self.baked.spec.model.params();
        let is_equivalent = |g: &&ParamGroup| {
            g.name
                .is_some_and(|n| crate::html::spring_form(n).is_some())
        };
        let spec = self.baked.spec;
        // A multi-track motion's groups are its tracks, each in its own unit.
        let unit = |k: usize| match &spec.model {
            Model::Tracks(t) => t.tracks().get(k).map_or(spec.unit.as_str(), |t| &t.unit),
            _ => spec.unit.as_str(),
        };
        let mut lines = Vec::new();
        for (k, group) in params.iter().enumerate().filter(|(_, g)| !is_equivalent(g)) {
            let (lead, items) = param_items(group, unit(k));
            lines.extend(wrap(&lead, &items, body, text_max));
        }
        let equivalents: Vec<String> = params
            .iter()
            .filter(is_equivalent)
            .map(|g| {
                let (_, items) = param_items(g, "");
                let (name, _) = crate::html::spring_form(g.name.unwrap_or_default())
                    .expect("an equivalent form");
                format!("{name} ({})", items.join(", "))
            })
            .collect();
        if !equivalents.is_empty() {
            lines.extend(wrap("as:  ", &equivalents, body, text_max));
        }
        lines
    }

    /// The legend: the curves and frames, then the done and rest marks where there are any.
    fn legend_keys(&self) -> Vec<(Key, String)> {
        let frames = self.baked.frames();
        let frames_label = if self.dots.1 {
            format!("baked frames ({frames}, dense: under the curve)")
        } else {
            format!("baked frames ({frames})")
        };
        let mut keys = if self.ring {
            ring_keys(frames_label)
        } else {
            self.track_keys(frames_label)
        };
        if let Some(done) = self.done {
            let within = if self.baked.spec.unit == "px" {
                "0.5 px"
            } else {
                "0.1 % of range"
            };
            keys.push((
                Key::Dashed(LOOKS_DONE),
                format!("looks done {} s (within {within})", format_number(done)),
            ));
        }
        if self.rests {
            keys.push((
                Key::Dashed(AT_REST),
                format!("at rest (proved) {} s", format_number(self.baked.duration)),
            ));
        }
        keys
    }

    /// The legend of a one-track motion: its curves, its frames, the value it ends at, and
    /// its joins.
    fn track_keys(&self, frames_label: String) -> Vec<(Key, String)> {
        let spec = self.baked.spec;
        let mut keys = vec![
            (Key::Line(POSITION), "position (closed form)".to_owned()),
            (Key::Line(VELOCITY), "velocity (closed form)".to_owned()),
            (Key::Dot(FRAMES), frames_label),
        ];
        if let Some(end) = self.tracks[0].end {
            let what = match spec.ending {
                Ending::Rests => "rests at",
                Ending::Arrives(_) => "arrives at",
                Ending::Fixed(_) => "rest value",
            };
            let unit = if spec.unit.is_empty() { "" } else { self.unit };
            keys.push((
                Key::Dashed(END_LEVEL),
                format!("{what} {} {unit}", format_number(end))
                    .trim_end()
                    .to_owned(),
            ));
        }
        if !self.joins.is_empty() {
            let what = match spec.model {
                Model::Inertia(_) => "hits the bound",
                Model::Tracks(_) => "track ends",
                _ => "hand-offs",
            };
            keys.push((Key::Dashed(JOIN_MARK), what.to_owned()));
        }
        for (mark, what) in [(SNAP_MARK, "snap points"), (BOUND_MARK, "bounds")] {
            if self.guides.iter().any(|g| g.1 == mark) {
                keys.push((Key::Dashed(mark), what.to_owned()));
            }
        }
        keys
    }

    /// The areas below `y` of the position panel, the velocity panel and, for a ring with
    /// room for its pictures, the filmstrip.
    fn panel_areas<'b>(&self, root: &Area<'b>, y: i32) -> (Area<'b>, Area<'b>, Option<Area<'b>>) {
        let rest_height = f64::from(self.size.1 - y);
        let (_, rest) = root.split_vertically(y);
        // A filmstrip needs room for its pictures; a short plot goes without.
        let filmstrip_fits = rest_height * 0.29 >= 110.0 * self.s.0;
        let ring_strip = self.ring && filmstrip_fits;
        let position_height = (rest_height * if ring_strip { 0.44 } else { 0.58 }) as i32;
        let (position_area, rest) = rest.split_vertically(position_height);
        if ring_strip {
            let (velocity_area, strip) = rest.split_vertically((rest_height * 0.27) as i32);
            (position_area, velocity_area, Some(strip))
        } else {
            (position_area, rest, None)
        }
    }

    /// The range of the position panel, as drawn: the closed forms, the frames, the end values
    /// and, for a ring, zero.
    fn position_range(&self) -> Range<f64> {
        self.range(
            |t| {
                t.exact
                    .iter()
                    .map(|e| e.1)
                    .chain(t.position.iter().copied())
                    .chain(t.end)
            },
            self.ring.then_some(0.0),
            self.up,
        )
    }

    /// The range of the velocity panel: the closed forms, the frames and zero (drawn negated
    /// when `down`, as the positions are: a fall draws downwards in both panels).
    fn velocity_range(&self) -> Range<f64> {
        self.range(
            |t| {
                t.exact
                    .iter()
                    .map(|e| e.2)
                    .chain(t.velocity.iter().copied())
            },
            Some(0.0),
            self.up,
        )
    }

    /// The range of `values` over the tracks in turn, then of `extra`, each times `factor`.
    fn range<'t, I: Iterator<Item = f64>>(
        &'t self,
        values: impl Fn(&'t TrackData<'a>) -> I,
        extra: Option<f64>,
        factor: f64,
    ) -> Range<f64> {
        value_range(
            self.tracks
                .iter()
                .flat_map(values)
                .chain(extra)
                .map(|v| factor * v),
        )
    }

    /// What both panels share: a y label area wide enough for either panel's ticks, and time
    /// ticks as many as fit (at most one per 90 px) with their labels at least 14 px apart.
    fn frame(&self, position_ticks: &Ticks, velocity_ticks: &Ticks) -> Frame {
        let s = self.s;
        let label = s.font(13.0);
        let left = s.px(16.0)
            + s.line(14.0)
            + s.px(10.0)
            + position_ticks
                .widest(label)
                .max(velocity_ticks.widest(label))
                .ceil() as i32
            + s.px(12.0);
        let x = 0.0..self.baked.duration.max(f64::MIN_POSITIVE);
        let plot_width = f64::from(self.size.0 - left - s.px(28.0));
        let x_ticks = {
            let mut max = (plot_width / (90.0 * s.0)) as usize;
            loop {
                let t = Ticks::new(&x, max.max(2));
                let spacing = plot_width * t.step() / (x.end - x.start);
                if max <= 2 || f64::from(t.widest(label)) + 14.0 * s.0 < spacing {
                    break t;
                }
                max -= 1;
            }
        };
        Frame {
            s,
            x,
            x_ticks,
            left,
        }
    }

    /// Draws the position panel on `area`: a ring's band, the end values, the done and rest
    /// marks, the joins, and each track's closed form with its frames.
    fn position_panel(
        &self,
        root: &Area,
        area: &Area,
        texts: &mut Texts,
        frame: &Frame,
        (range, ticks): (Range<f64>, &Ticks),
    ) -> DrawResult {
        let (s, up, unit) = (self.s, self.up, self.unit);
        // The property it moves, as the review page names it; shorter where that does not fit.
        let desc = if self.ring {
            [format!("radius ({unit})"), format!("r ({unit})")]
        } else if self.down {
            [
                format!("translateY ({unit}), down ↓"),
                format!("y ({unit}) ↓"),
            ]
        } else {
            let name = self.baked.spec.property.name();
            let short = if name == "translateX" { "x" } else { name };
            [format!("{name} ({unit})"), format!("{short} ({unit})")]
        };
        let mut chart = panel(
            root,
            area,
            texts,
            frame,
            (range.clone(), ticks),
            &desc,
            false,
        )?;
        if self.ring {
            draw_band(root, &chart, &self.tracks[0], &self.tracks[1])?;
        }
        for end in self.tracks.iter().filter_map(|t| t.end) {
            let level = [(frame.x.start, up * end), (frame.x.end, up * end)];
            chart.draw_series(END_LEVEL.series(s, level, 1.0))?;
        }
        for &(value, dash) in &self.guides {
            let y = up * value;
            if range.start <= y && y <= range.end {
                chart.draw_series(dash.series(s, [(frame.x.start, y), (frame.x.end, y)], 1.0))?;
            }
        }
        // When it looks done, and when it provably rests (the end of a bake that rests).
        let marks = [
            self.done.map(|t| (t, LOOKS_DONE)),
            self.rests.then_some((self.baked.duration, AT_REST)),
        ];
        // A mark on a join (a fade that looks done as it hands over) is drawn wide under the
        // join's thin line, so that both show.
        for (t, dash) in marks.into_iter().flatten() {
            let x = |t: f64| chart.backend_coord(&(t, range.start)).0;
            let on_a_join = (self.joins.iter()).any(|&j| (x(j) - x(t)).abs() <= s.px(2.0));
            let widen = if on_a_join { 3.0 } else { 1.0 };
            chart.draw_series(dash.series(s, [(t, range.start), (t, range.end)], widen))?;
        }
        draw_joins(&mut chart, &self.joins, s)?;
        let positions: Values = (|e| e.1, |t| t.position, up);
        if self.ring {
            self.label_radii(&chart, texts, positions, true);
        }
        self.curves(root, &mut chart, POSITION, positions, self.dots.0)
    }

    /// Draws the velocity panel on `area`: the joins, zero where it is inside, and each track's
    /// closed form with its frames (smaller dots); the last panel of time, it says "time (s)"
    /// under its axis (a ring's filmstrip below it has times of its own).
    fn velocity_panel(
        &self,
        root: &Area,
        area: &Area,
        texts: &mut Texts,
        frame: &Frame,
        (range, ticks): (Range<f64>, &Ticks),
    ) -> DrawResult {
        let speed_unit = self.speed_unit();
        let desc = if self.down {
            [
                format!("velocity ({speed_unit}), down ↓"),
                format!("v ({speed_unit}) ↓"),
            ]
        } else {
            [
                format!("velocity ({speed_unit})"),
                format!("v ({speed_unit})"),
            ]
        };
        let mut chart = panel(
            root,
            area,
            texts,
            frame,
            (range.clone(), ticks),
            &desc,
            true,
        )?;
        draw_joins(&mut chart, &self.joins, self.s)?;
        if range.start < 0.0 && range.end > 0.0 {
            let zero = to_pixels(
                &chart,
                [(frame.x.start, 0.0), (frame.x.end, 0.0)].into_iter(),
            );
            line(root, zero[0], zero[1], &AXIS)?;
        }
        // Smaller than the position panel's, but wider than the curve they sit on (a dot of
        // the curve's width vanishes into it).
        let small = self
            .dots
            .0
            .saturating_sub(1)
            .max(CURVE_WIDTH.unsigned_abs());
        let velocities: Values = (|e| e.2, |t| t.velocity, self.up);
        if self.ring {
            self.label_radii(&chart, texts, velocities, false);
        }
        self.curves(root, &mut chart, VELOCITY, velocities, small)
    }

    /// Draws each track's closed form (in `color`, a ring's radii in theirs) and its baked
    /// frames on it as dots of `radius`, the values `(of_sample, of_frames, factor)` picks.
    fn curves(
        &self,
        root: &Area,
        chart: &mut Chart,
        color: RGBColor,
        (of_sample, of_frames, factor): Values,
        radius: u32,
    ) -> DrawResult {
        let radii = [INNER, OUTER];
        let colors: &[RGBColor] = if self.ring {
            &radii
        } else {
            std::slice::from_ref(&color)
        };
        for (t, color) in self.tracks.iter().zip(colors) {
            let curve = to_pixels(chart, t.exact.iter().map(|e| (e.0, factor * of_sample(e))));
            let frames = self
                .times
                .iter()
                .copied()
                .zip(of_frames(t).iter().map(|&x| factor * x));
            curve_with_frames(root, chart, &curve, color, frames, radius, self.dots.1)?;
        }
        Ok(())
    }

    /// Names a ring's two curves on the curves themselves (not by colour alone), at their
    /// start or their end, whichever `at_end` says: the higher one's name above it, the
    /// other's below.
    fn label_radii(
        &self,
        chart: &Chart,
        texts: &mut Texts,
        (of_sample, _, factor): Values,
        at_end: bool,
    ) {
        let s = self.s;
        let point = |t: &TrackData| {
            let e = if at_end {
                t.exact.last()
            } else {
                t.exact.first()
            };
            e.map(|e| chart.backend_coord(&(e.0, factor * of_sample(e))))
        };
        let (Some(inner), Some(outer)) = (point(&self.tracks[0]), point(&self.tracks[1])) else {
            return;
        };
        let outer_higher = outer.1 <= inner.1;
        let (dx, align) = if at_end {
            (-s.px(6.0), Align::End)
        } else {
            (s.px(8.0), Align::Start)
        };
        for ((x, y), name, above) in [
            (inner, "inner", !outer_higher),
            (outer, "outer", outer_higher),
        ] {
            let dy = if above { -s.px(12.0) } else { s.px(16.0) };
            texts.add(
                name.to_owned(),
                (x + dx, y + dy),
                s.font(13.0),
                TEXT,
                (align, Baseline::Middle),
            );
        }
    }
}

/// The snap points and bounds of an inertia (none for another motion).
fn guides(model: &Model) -> Vec<(f64, Dash)> {
    let Model::Inertia(inertia) = model else {
        return Vec::new();
    };
    let p = inertia.params();
    (p.snap.iter().map(|&x| (x, SNAP_MARK)))
        .chain(
            [p.min, p.max]
                .into_iter()
                .flatten()
                .map(|x| (x, BOUND_MARK)),
        )
        .collect()
}

/// The legend of a ring: its radii, the band between them, its frames and its end radii.
fn ring_keys(frames_label: String) -> Vec<(Key, String)> {
    vec![
        (Key::Line(INNER), "inner radius".to_owned()),
        (Key::Line(OUTER), "outer radius".to_owned()),
        (Key::Swatch(BAND), "band".to_owned()),
        (Key::Dot(FRAMES), frames_label),
        (Key::Dashed(END_LEVEL), "end radii".to_owned()),
    ]
}

/// Ticks for a panel's y `range` on `area`, their labels at least 1.8 lines apart.
fn y_ticks(s: Scale, range: &Range<f64>, area: &Area) -> Ticks {
    let h = f64::from(area.dim_in_pixel().1) - f64::from(s.px(40.0));
    fitting_ticks(range, h, f64::from(s.line(13.0)) * 1.8)
}

/// Shades a ring's band between its `inner` and `outer` radius, one pixel column at a time
/// (solid spans are plotters' fastest fill).
fn draw_band(root: &Area, chart: &Chart, inner: &TrackData, outer: &TrackData) -> DrawResult {
    let outer = to_pixels(chart, outer.exact.iter().map(|e| (e.0, e.1)));
    let inner = to_pixels(chart, inner.exact.iter().map(|e| (e.0, e.1)));
    let mut spans: Vec<(i32, i32, i32)> = Vec::new();
    for (&(x, a), &(_, b)) in outer.iter().zip(&inner) {
        let (top, low) = (a.min(b), a.max(b));
        match spans.last_mut() {
            Some(last) if last.0 == x => {
                last.1 = last.1.min(top);
                last.2 = last.2.max(low);
            }
            _ => spans.push((x, top, low)),
        }
    }
    for (x, top, low) in spans {
        line(root, (x, top), (x, low), &BAND)?;
    }
    Ok(())
}

/// A dashed vertical line at each join time, across the whole panel.
fn draw_joins<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    joins: &[f64],
    s: Scale,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (low, high) = {
        let range = chart.y_range();
        (range.start, range.end)
    };
    for &t in joins {
        chart.draw_series(JOIN_MARK.series(s, [(t, low), (t, high)], 1.0))?;
    }
    Ok(())
}

/// Ticks for `range` over `pixels`, as many as fit with labels at least `gap` pixels apart
/// (at most 10).
fn fitting_ticks(range: &Range<f64>, pixels: f64, gap: f64) -> Ticks {
    let max = ((pixels / gap) as usize).clamp(2, 10);
    Ticks::new(range, max)
}

/// Parameters of one group as `name value unit` items ([`param_unit`], in `unit`), with the
/// group name to lead its line.
fn param_items(group: &ParamGroup, unit: &str) -> (String, Vec<String>) {
    let lead = group.name.map(|n| format!("{n}:  ")).unwrap_or_default();
    let items = group
        .values
        .iter()
        .map(|(k, v)| {
            let (name, value) = (k.replace('_', " "), format_number(*v));
            format!("{name} {value}{}", param_unit(k, unit))
        })
        .collect();
    (lead, items)
}

/// Greedy wrap of `items` joined by [`DOT`] into lines at most `max` wide; `lead` starts the
/// first line.
fn wrap(lead: &str, items: &[String], size: f32, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = lead.to_owned();
    let mut fresh = true;
    for item in items {
        let candidate = if fresh {
            format!("{current}{item}")
        } else {
            format!("{current}{DOT}{item}")
        };
        if !fresh && text::width(&candidate, size) > max {
            lines.push(std::mem::replace(&mut current, item.clone()));
        } else {
            current = candidate;
        }
        fresh = false;
    }
    lines.push(current);
    lines
        .into_iter()
        .map(|l| text::fit(&l, size, max))
        .collect()
}

/// A legend entry's marker.
enum Key {
    Line(RGBColor),
    Dot(RGBColor),
    Dashed(Dash),
    Swatch(RGBColor),
}

/// Height of one legend row.
fn legend_row(s: Scale) -> i32 {
    s.line(13.0) + s.px(4.0)
}

/// Width of one legend entry (marker and label), without the gap after it.
fn legend_item(label: &str, s: Scale) -> i32 {
    s.px(26.0) + s.px(8.0) + text::width(label, s.font(13.0)).ceil() as i32
}

/// Rows the legend takes in `width` pixels.
fn legend_rows(keys: &[(Key, String)], s: Scale, width: i32) -> i32 {
    let (mut rows, mut x) = (1, 0);
    for (_, label) in keys {
        let item = legend_item(label, s);
        if x > 0 && x + item > width {
            rows += 1;
            x = 0;
        }
        x += item + s.px(28.0);
    }
    rows
}

/// Draws the legend from `y` between `x0` and `x1`, wrapping onto more rows as
/// [`legend_rows`] counts them; returns the y below it.
fn legend(
    root: &Area,
    texts: &mut Texts,
    s: Scale,
    (x0, x1): (i32, i32),
    mut y: i32,
    keys: &[(Key, String)],
) -> DrawResult<i32> {
    let size = s.font(13.0);
    let row = legend_row(s);
    let glyph = s.px(26.0);
    let mut x = x0;
    let mut mid = y + row / 2;
    for (key, label) in keys {
        let item = legend_item(label, s);
        if x > x0 && x + item > x1 {
            x = x0;
            y += row;
            mid = y + row / 2;
        }
        match key {
            Key::Line(c) => thick_path(root, &[(x, mid), (x + glyph, mid)], c, 2)?,
            Key::Dot(c) => root.draw(&Circle::new(
                (x + glyph / 2, mid),
                s.px(3.5) as u32,
                c.filled(),
            ))?,
            Key::Dashed(d) => {
                let (on, off) = (s.px(d.on), s.px(d.off));
                let width = s.px(d.width);
                let mut a = x;
                while a < x + glyph {
                    let b = (a + on).min(x + glyph);
                    thick_path(root, &[(a, mid), (b, mid)], &d.color, width)?;
                    a = b + off;
                }
            }
            Key::Swatch(c) => root.draw(&Rectangle::new(
                [(x, mid - s.px(6.0)), (x + glyph, mid + s.px(6.0))],
                c.filled(),
            ))?,
        }
        texts.add(
            label.clone(),
            (x + glyph + s.px(8.0), mid),
            size,
            TEXT,
            (Align::Start, Baseline::Middle),
        );
        x += item + s.px(28.0);
    }
    Ok(y + row)
}

/// Builds one panel on `area`: grid, axes, tick labels and descriptions (`y_desc`: the
/// y axis's, longest first; the first that fits is written).
fn panel<'a, 'b>(
    root: &Area,
    area: &'a Area<'b>,
    texts: &mut Texts,
    frame: &Frame,
    (y, y_ticks): (Range<f64>, &Ticks),
    y_desc: &[String],
    bottom: bool,
) -> DrawResult<Chart<'a, 'b>> {
    let s = frame.s;
    let label = s.font(13.0);
    let (tick, gap) = (s.px(5.0), s.px(4.0));
    let x_labels = tick + gap + s.line(13.0) + if bottom { s.line(14.0) + s.px(8.0) } else { 0 };
    let chart = ChartBuilder::on(area)
        .margin_top(s.px(12.0))
        .margin_right(s.px(28.0))
        .margin_bottom(s.px(4.0))
        .x_label_area_size(x_labels)
        .y_label_area_size(frame.left)
        .build_cartesian_2d(frame.x.clone(), y.clone())?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (left, right, top, low) = (xr.start, xr.end - 1, yr.start, yr.end - 1);
    for &t in &frame.x_ticks.points {
        let px = chart.backend_coord(&(t, y.start)).0;
        line(root, (px, top), (px, low), &GRID)?;
        line(root, (px, low), (px, low + tick), &AXIS)?;
        texts.add(
            frame.x_ticks.label(t),
            (px, low + tick + gap),
            label,
            TEXT,
            (Align::Center, Baseline::Top),
        );
    }
    for &v in &y_ticks.points {
        let py = chart.backend_coord(&(frame.x.start, v)).1;
        line(root, (left, py), (right, py), &GRID)?;
        line(root, (left - tick, py), (left, py), &AXIS)?;
        texts.add(
            y_ticks.label(v),
            (left - tick - gap, py),
            label,
            TEXT,
            (Align::End, Baseline::Middle),
        );
    }
    line(root, (left, top), (left, low), &AXIS)?;
    line(root, (left, low), (right, low), &AXIS)?;
    let (base_x, _) = area.get_base_pixel();
    // The first description that fits, else the last cut short.
    let (size, room) = (s.font(14.0), (low - top) as f32);
    let fitting = (y_desc.iter()).find(|d| text::width(d, size) <= room);
    texts.add_vertical(
        fitting.map_or_else(
            || text::fit(&y_desc[y_desc.len() - 1], size, room),
            Clone::clone,
        ),
        (base_x + s.px(16.0), (top + low) / 2),
        s.font(14.0),
        TEXT,
        (Align::Center, Baseline::Top),
    );
    if bottom {
        texts.add(
            "time (s)",
            (
                (left + right) / 2,
                low + tick + gap + s.line(13.0) + s.px(4.0),
            ),
            s.font(14.0),
            TEXT,
            (Align::Center, Baseline::Top),
        );
    }
    Ok(chart)
}

/// Maps finite points into the chart's pixels.
fn to_pixels(chart: &Chart, points: impl Iterator<Item = (f64, f64)>) -> Vec<(i32, i32)> {
    points
        .filter(|(t, y)| t.is_finite() && y.is_finite())
        .map(|p| chart.backend_coord(&p))
        .collect()
}

/// Radius of frame dots: about a quarter of their spacing, 1 to 3.5 pixels at the default
/// size; `dense` when neighbours nearly touch, in which case the curve is drawn over the dots
/// instead of under them.
fn dot_radius(plot_width: i32, frames: usize, s: Scale) -> (u32, bool) {
    let spacing = f64::from(plot_width) / frames.max(1) as f64;
    let r = (spacing * 0.25).clamp(1.0, 3.5 * s.0);
    (r.round() as u32, spacing < 3.0 * r)
}

/// Width in pixels of a panel's curves.
const CURVE_WIDTH: i32 = 2;

/// The exact curve and the baked frames as dots on it.
fn curve_with_frames(
    root: &Area,
    chart: &mut Chart,
    curve: &[(i32, i32)],
    color: &RGBColor,
    frames: impl Iterator<Item = (f64, f64)>,
    radius: u32,
    dense: bool,
) -> DrawResult {
    let dots = frames.map(|p| Circle::new(p, radius, FRAMES.filled()));
    if dense {
        chart.draw_series(dots)?;
        thick_path(root, curve, color, CURVE_WIDTH)?;
    } else {
        thick_path(root, curve, color, CURVE_WIDTH)?;
        chart.draw_series(dots)?;
    }
    Ok(())
}

/// A row of the ring itself at evenly spaced times, all at one scale, under the panels.
fn filmstrip(
    area: &Area,
    texts: &mut Texts,
    frame: &Frame,
    duration: f64,
    (inner, outer): (&TrackData, &TrackData),
    unit: &str,
) -> DrawResult {
    let s = frame.s;
    let (width, height) = area.dim_in_pixel();
    let (base_x, base_y) = area.get_base_pixel();
    let (x0, x1) = (base_x + frame.left, base_x + width as i32 - s.px(28.0));
    let top = base_y + s.px(6.0);
    let label = s.font(13.0);
    let small = s.font(12.0);
    let caption = s.line(13.0) + s.px(4.0);
    let under = s.px(6.0) + s.line(13.0) + s.line(12.0);
    let cell_width = (x1 - x0) / FILMSTRIP_CELLS as i32;
    let cell_top = top + caption;
    let cell_height = (base_y + height as i32 - s.px(6.0) - under - cell_top).max(4);
    let diameter = (cell_width - s.px(12.0))
        .min(cell_height - s.px(8.0))
        .max(2);
    let px_per_unit = f64::from(diameter / 2) / widest_radius(inner, outer);
    texts.add(
        format!(
            "the ring at {FILMSTRIP_CELLS} times, drawn to scale ({} pixels per {unit})",
            format_number(px_per_unit)
        ),
        (x0, top),
        label,
        MUTED,
        (Align::Start, Baseline::Top),
    );
    for k in 0..FILMSTRIP_CELLS {
        let t = duration * k as f64 / (FILMSTRIP_CELLS - 1) as f64;
        let (r_in, r_out) = (inner.motion.position(t), outer.motion.position(t));
        let cell_x = x0 + cell_width * k as i32;
        let (cx, cy) = (cell_x + cell_width / 2, cell_top + cell_height / 2);
        area.draw(&Rectangle::new(
            [
                (cell_x + s.px(4.0) - base_x, cell_top - base_y),
                (
                    cell_x + cell_width - s.px(4.0) - base_x,
                    cell_top + cell_height - base_y,
                ),
            ],
            BORDER.stroke_width(1),
        ))?;
        let to_px = |r: f64| (r.max(0.0) * px_per_unit).round() as u32;
        let centre = (cx - base_x, cy - base_y);
        draw_ring(area, centre, (to_px(r_in), to_px(r_out)), s.px(3.0))?;
        let below = cell_top + cell_height + s.px(6.0);
        texts.add(
            format!("t = {} s", format_number(t)),
            (cx, below),
            label,
            TEXT,
            (Align::Center, Baseline::Top),
        );
        texts.add(
            format!(
                "r {} to {} {unit}",
                format_number(r_in),
                format_number(r_out)
            ),
            (cx, below + s.line(13.0)),
            small,
            MUTED,
            (Align::Center, Baseline::Top),
        );
    }
    Ok(())
}

/// The largest radius either closed form reaches, by size (at least the smallest positive
/// number, to divide by).
fn widest_radius(inner: &TrackData, outer: &TrackData) -> f64 {
    outer
        .exact
        .iter()
        .chain(&inner.exact)
        .map(|e| e.1.abs())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE)
}

/// Draws a ring of radii `(inner, outer)` pixels about `centre` (in `area`'s pixels), filled
/// between them, with a cross of arms `arm` pixels long at its centre.
fn draw_ring(area: &Area, centre: (i32, i32), (inner, outer): (u32, u32), arm: i32) -> DrawResult {
    if outer > 0 {
        area.draw(&Circle::new(centre, outer, RING_FILL.filled()))?;
        area.draw(&Circle::new(centre, outer, OUTER.stroke_width(1)))?;
    }
    if inner > 0 {
        area.draw(&Circle::new(centre, inner, super::BACKGROUND.filled()))?;
        area.draw(&Circle::new(centre, inner, INNER.stroke_width(1)))?;
    }
    let (x, y) = centre;
    area.draw(&PathElement::new(
        vec![(x - arm, y), (x + arm, y)],
        AXIS.stroke_width(1),
    ))?;
    area.draw(&PathElement::new(
        vec![(x, y - arm), (x, y + arm)],
        AXIS.stroke_width(1),
    ))?;
    Ok(())
}
