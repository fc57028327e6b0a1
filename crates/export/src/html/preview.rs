//! A card's live preview: a stage holding the element that carries the motion's ready class,
//! and what the page's script needs to fit it into the stage (or show it at 1:1).
//!
//! A motion on a transform or opacity (one track, or several on one timeline) moves a square,
//! the "puck". Its [`Reach`] is what the square covers over the motion: the range of its
//! `translate` along x and along y, and its largest size relative to its own. The script fits
//! the whole of it into the stage, both axes at once, so a 2D toss stays in view along x and
//! y, a 480 px slide keeps its travel, and a scale past 1 keeps its size in proportion. A ring
//! is fitted by its largest radius, a custom length or number (a bar) by its reach along x.

use super::{data_number, escape};
use crate::exporter::Digest;
use crate::settings::ExportSettings;
use curvebake_model::spec::{animated_property, unit_kind, UnitKind};
use std::fmt::Write as _;

/// How the preview shows a motion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Preview {
    /// A square moved, scaled, turned or faded (`data-fit` `puck`).
    Puck,
    /// The ring class draws the ring itself (fitted by its largest radius).
    Ring,
    /// A custom length or number as the width of a bar (fitted along x).
    Bar,
    /// A custom angle as the rotation of a square.
    Turn,
}

fn preview_kind(d: &Digest) -> Preview {
    if d.kind == "explosion-ring" {
        return Preview::Ring;
    }
    match d.property.as_str() {
        "translateX" | "translateY" | "scale" | "rotate" | "opacity" => Preview::Puck,
        _ => match unit_kind(&d.unit) {
            Some(UnitKind::Angle) => Preview::Turn,
            _ => Preview::Bar,
        },
    }
}

/// What a square moved by the motion covers: its `translate` along each axis (`None` on an
/// axis no track moves along), and its largest size as a multiple of its own: the largest
/// |scale|, times √2 if it turns (a turned square's bounding box is up to √2 its side).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reach<'a> {
    x: Option<Travel<'a>>,
    y: Option<Travel<'a>>,
    size: f64,
}

/// The range of a translation along one axis, in its track's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Travel<'a> {
    range: (f64, f64),
    unit: &'a str,
}

impl<'a> Reach<'a> {
    /// The reach of a motion's tracks, each on its own property and in its own unit: a
    /// multi-track motion's track is named by its property, any other motion's one track is
    /// the motion's property.
    fn of(d: &'a Digest, kind: Preview) -> Self {
        let mut reach = Reach {
            x: None,
            y: None,
            size: 1.0,
        };
        let mut turns = kind == Preview::Turn;
        for (k, (track, points)) in d.preview.iter().enumerate() {
            let property = if d.kind == "tracks" {
                track.as_ref()
            } else {
                d.property.as_str()
            };
            let values = points.iter().map(|&(_, x)| x);
            let unit = d.units.get(k).unwrap_or(&d.unit);
            match property {
                "translateX" => reach.x = Some(Travel::of(values, unit)),
                "translateY" => reach.y = Some(Travel::of(values, unit)),
                "scale" => reach.size = values.fold(0.0, |m, s| m.max(s.abs())),
                "rotate" => turns = true,
                _ => {}
            }
        }
        if turns {
            reach.size *= std::f64::consts::SQRT_2;
        }
        reach
    }

    /// The stage's `data-mode`: the axes the square travels along (`x`, `y`, `x y`), or
    /// `none`.
    fn mode(&self) -> &'static str {
        match (self.x.is_some(), self.y.is_some()) {
            (true, true) => "x y",
            (true, false) => "x",
            (false, true) => "y",
            (false, false) => "none",
        }
    }

    /// The fit box's attributes: `data-x` and `data-y` (`lo hi`), their units, `data-size`.
    fn attributes(&self) -> String {
        let mut out = String::from("data-fit=\"puck\"");
        for (axis, travel) in [("x", self.x), ("y", self.y)] {
            let Travel {
                range: (lo, hi),
                unit,
            } = travel.unwrap_or(Travel {
                range: (0.0, 0.0),
                unit: "px",
            });
            let _ = write!(
                out,
                " data-{axis}=\"{} {}\" data-{axis}-unit=\"{}\"",
                data_number(lo),
                data_number(hi),
                escape(unit)
            );
        }
        let _ = write!(out, " data-size=\"{}\"", data_number(self.size));
        out
    }
}

impl<'a> Travel<'a> {
    fn of(values: impl Iterator<Item = f64>, unit: &'a str) -> Self {
        Self {
            range: range(values),
            unit,
        }
    }
}

/// The smallest and largest value (`(0, 0)` for none).
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if lo <= hi {
        (lo, hi)
    } else {
        (0.0, 0.0)
    }
}

/// The live preview: a stage with the element that carries the motion's ready class, and its
/// Replay button under the stage (never over what moves). The fit box carries what the
/// script fits: [`Reach::attributes`] for a square, `data-hi` (largest radius or reach) for a
/// ring or a bar, and the motion's `data-unit`.
pub(super) fn preview(out: &mut String, d: &Digest, settings: &ExportSettings) {
    // The class and variables of the motion's CSS carry the prefix; the card's own data
    // (replay, compare) stays by motion name.
    let name = escape(&settings.global_name(&d.name));
    let animated = d.files.iter().any(|f| f.ends_with(".css"));
    let kind = preview_kind(d);
    let (mode, fit, element) = match kind {
        Preview::Puck | Preview::Turn => {
            let reach = Reach::of(d, kind);
            (reach.mode(), reach.attributes(), "<div class=\"puck")
        }
        Preview::Ring | Preview::Bar => {
            let values = d
                .preview
                .iter()
                .flat_map(|(_, p)| p.iter().map(|&(_, x)| x));
            let (lo, hi) = range(values);
            let (mode, element) = match kind {
                Preview::Ring => ("ring", "<div class=\"ring"),
                _ => ("bar", "<div class=\"bar"),
            };
            let fit = format!(
                "data-fit=\"{mode}\" data-hi=\"{}\"",
                data_number(lo.abs().max(hi.abs()))
            );
            (mode, fit, element)
        }
    };
    let style = element_style(d, kind, &name, settings);
    let _ = write!(
        out,
        "<div class=\"preview\">
<div class=\"stage\" data-mode=\"{mode}\">
<div class=\"fit\" {fit} data-unit=\"{unit}\">{element} anim {name}\" data-anim=\"{name}\" data-duration=\"{duration}\" style=\"{style}\"></div></div>
<span class=\"scale-note\"></span>
</div>
<div class=\"preview-bar\">
",
        unit = escape(&d.unit),
        duration = data_number(d.duration),
    );
    if animated {
        let _ = writeln!(
            out,
            "<button type=\"button\" class=\"replay\" data-replay=\"{name}\" aria-label=\"Replay {name}\">Replay</button>"
        );
    } else {
        out.push_str("<span class=\"no-css\">no CSS baked (add css to --formats)</span>\n");
    }
    out.push_str("</div>\n</div>\n");
}

/// The animated element's own style: a custom property shows through a style that reads it,
/// a `%` ring gets a box for its radii to be of; quarter speed reads the duration the CSS puts
/// on `:root` (a multi-track motion's per animation, each the motion's length: the first's).
fn element_style(d: &Digest, kind: Preview, name: &str, settings: &ExportSettings) -> String {
    let custom = escape(&settings.custom_property(&d.property));
    let mut style = match kind {
        Preview::Bar if d.unit.is_empty() => format!("width: calc(var({custom}) * 1px); "),
        Preview::Bar => format!("width: var({custom}); "),
        Preview::Turn => format!("transform: rotate(var({custom})); "),
        Preview::Ring if d.unit == "%" => "width: 140px; height: 140px; ".to_owned(),
        _ => String::new(),
    };
    let duration_var = match d.preview.first() {
        Some((track, _)) if d.kind == "tracks" => {
            let tracks: Vec<&str> = d.preview.iter().map(|(t, _)| t.as_ref()).collect();
            format!("{name}-{}", escape(animated_property(track, &tracks)))
        }
        _ => name.to_owned(),
    };
    let _ = write!(
        style,
        "--slow-duration: calc(var(--{duration_var}-duration) * 4)"
    );
    style
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exporter::Name;

    /// The unit a test track is in: px for translations, none for the rest.
    fn unit_of(track: &str) -> &'static str {
        if track.starts_with("translate") || track == "value" {
            "px"
        } else {
            ""
        }
    }

    fn digest(kind: &'static str, property: &str, preview: &[(&'static str, &[f64])]) -> Digest {
        Digest {
            name: "m".into(),
            kind: Name::Borrowed(kind),
            property: property.into(),
            unit: "px".into(),
            fps: 60.0,
            duration: 1.0,
            frames: 2,
            params: Vec::new(),
            files: Vec::new(),
            units: preview.iter().map(|&(t, _)| unit_of(t).into()).collect(),
            preview: (preview.iter())
                .map(|&(t, xs)| (Name::Borrowed(t), xs.iter().map(|&x| (0.0, x)).collect()))
                .collect(),
            preview_joins: Vec::new(),
            ends: Vec::new(),
            looks_done: None,
            marks: Vec::new(),
            rests: false,
            arrives: false,
            endings: Vec::new(),
        }
    }

    #[test]
    fn a_multi_track_square_reaches_along_both_axes_and_by_its_scale() {
        let toss = digest(
            "tracks",
            "translateX",
            &[
                ("translateX", &[0.0, 233.0]),
                ("translateY", &[0.0, -180.0, 0.0]),
            ],
        );
        let reach = Reach::of(&toss, preview_kind(&toss));
        assert_eq!(reach.x.unwrap().range, (0.0, 233.0));
        assert_eq!(reach.y.unwrap().range, (-180.0, 0.0));
        assert_eq!(reach.size, 1.0);
        assert_eq!(reach.mode(), "x y");

        let sheet = digest(
            "tracks",
            "translateY",
            &[
                ("translateY", &[480.0, -14.0, 0.0]),
                ("opacity", &[0.0, 1.0]),
                ("scale", &[0.96, 1.2, 1.0]),
            ],
        );
        let reach = Reach::of(&sheet, preview_kind(&sheet));
        assert_eq!(reach.x, None);
        assert_eq!(reach.y.unwrap().range, (-14.0, 480.0));
        assert_eq!(reach.size, 1.2);
        assert_eq!(reach.mode(), "y");
    }

    #[test]
    fn a_single_motion_reaches_by_its_own_property() {
        let drop = digest("spring", "translateY", &[("value", &[-240.0, 0.0])]);
        let reach = Reach::of(&drop, Preview::Puck);
        assert_eq!(reach.y.unwrap().range, (-240.0, 0.0));
        assert_eq!(
            reach.attributes(),
            "data-fit=\"puck\" data-x=\"0.0 0.0\" data-x-unit=\"px\" data-y=\"-240.0 0.0\" data-y-unit=\"px\" data-size=\"1.0\""
        );
        let turn = digest("spring", "rotate", &[("value", &[0.0, 90.0])]);
        let reach = Reach::of(&turn, Preview::Puck);
        assert_eq!((reach.x, reach.y, reach.mode()), (None, None, "none"));
        assert_eq!(reach.size, std::f64::consts::SQRT_2);
    }
}
