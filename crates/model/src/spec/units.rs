//! The CSS units curvebake writes, each with everything that depends on its size in one row
//! of [`UNITS`]: what it measures ([`UnitKind`]), when a motion in it counts as resting, and
//! how finely a browser plays and the outputs write its values ([`Played`]). Validation, the
//! bake and the exporters all read the table, so a unit sits in the same class everywhere.

/// What a CSS unit measures; decides @property syntax and which properties take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// No unit.
    Number,
    /// px, em, rem, vw, ...
    Length,
    /// deg, rad, grad, turn.
    Angle,
    /// %.
    Percentage,
}

/// Rest thresholds for px and deg, chosen for people: within 0.25 px (a quarter of a CSS
/// pixel; 0.25 deg moves a point 100 px from the centre by 0.44 px) and slower than 2 px/s
/// (0.03 px a frame at 60 fps). motion.dev stops at 0.5 px and 2 px/s; the final step onto the
/// rest value is at most `rest_delta`, so half of that.
pub const REST_FOR_PIXELS: (f64, f64) = (0.25, 2.0);
/// Rest thresholds for other units (%, em, rem, turn, ...), whose unit may be large: 0.01
/// unit, 0.1 unit/s.
pub const REST_FOR_UNITS: (f64, f64) = (0.01, 0.1);
/// Rest thresholds for unitless values (scale, opacity, numbers): 0.001 (SwiftUI's settling
/// epsilon for a unit distance; 0.4 px of a 400 px element's scale) and 0.01/s.
pub const REST_FOR_UNITLESS: (f64, f64) = (1e-3, 1e-2);

/// How finely what a browser plays follows a motion in a unit, and how its values are written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Played {
    /// Largest distance, in the unit, of what a browser plays from the motion at any instant
    /// when neither the motion nor the bake says (the CSS exporter's default tolerance).
    pub default_tolerance: f64,
    /// Precision target in the unit: it decides the digits of durations and which JS tables
    /// need float64.
    pub precision: f64,
    /// Decimals a value is written with.
    pub decimals: u32,
}

/// [`Played`] for px, deg and grad: within 0.1 (a tenth of a pixel, which nobody sees; 0.1 grad
/// is 0.09°), 0.01 precision, 4 decimals.
pub const PLAYED_SMALL_UNITS: Played = Played {
    default_tolerance: 0.1,
    precision: 0.01,
    decimals: 4,
};
/// [`Played`] for pt: within 0.07 pt (0.093 px), written as px.
pub const PLAYED_PT: Played = Played {
    default_tolerance: 0.07,
    ..PLAYED_SMALL_UNITS
};
/// [`Played`] for mm: within 0.025 mm (0.094 px), written as px.
pub const PLAYED_MM: Played = Played {
    default_tolerance: 0.025,
    ..PLAYED_SMALL_UNITS
};
/// [`Played`] for %: within 0.025 (0.1 px of a 400 px box), 0.01 precision, 4 decimals.
pub const PLAYED_PERCENT: Played = Played {
    default_tolerance: 0.025,
    precision: 0.01,
    decimals: 4,
};
/// [`Played`] for unitless values (opacity, scale: 5e-4 is 0.05 % of their usual range) and
/// the larger units (em, rem, vw, ...): within 5e-4, 1e-4 precision, 6 decimals.
pub const PLAYED_LARGE_UNITS: Played = Played {
    default_tolerance: 5e-4,
    precision: 1e-4,
    decimals: 6,
};

/// [`Played`] for turn: within 2.5e-4 turn (0.09°, as finely as deg; 5e-4 turn would be
/// 0.18°), 2.5e-5 precision, 6 decimals.
pub const PLAYED_TURN: Played = Played {
    default_tolerance: 2.5e-4,
    precision: 2.5e-5,
    decimals: 6,
};

/// One unit curvebake writes and the classes it falls in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// As written after a number (`px`; `""` for unitless values).
    pub name: &'static str,
    /// What it measures.
    pub kind: UnitKind,
    /// Default `(rest_delta, rest_speed)` of a motion in it.
    pub rest: (f64, f64),
    /// How finely it is played and written.
    pub played: Played,
}

/// A row of [`UNITS`].
const fn row(name: &'static str, kind: UnitKind, rest: (f64, f64), played: Played) -> Unit {
    Unit {
        name,
        kind,
        rest,
        played,
    }
}

/// A length or angle no finer than the larger units (em, rem, vw, rad, ...).
const fn large(name: &'static str, kind: UnitKind) -> Unit {
    row(name, kind, REST_FOR_UNITS, PLAYED_LARGE_UNITS)
}

use UnitKind::{Angle, Length, Number, Percentage};

/// Every unit curvebake writes. (`pt`, `mm` and `grad` are played within a tenth of a px or a
/// degree but rest within [`REST_FOR_UNITS`], as they always have.)
pub const UNITS: &[Unit] = &[
    row("", Number, REST_FOR_UNITLESS, PLAYED_LARGE_UNITS),
    row("%", Percentage, REST_FOR_UNITS, PLAYED_PERCENT),
    row("px", Length, REST_FOR_PIXELS, PLAYED_SMALL_UNITS),
    large("em", Length),
    large("rem", Length),
    large("vw", Length),
    large("vh", Length),
    large("vmin", Length),
    large("vmax", Length),
    large("ch", Length),
    large("ex", Length),
    large("cm", Length),
    row("mm", Length, REST_FOR_UNITS, PLAYED_MM),
    large("in", Length),
    row("pt", Length, REST_FOR_UNITS, PLAYED_PT),
    large("pc", Length),
    large("svh", Length),
    large("lvh", Length),
    large("dvh", Length),
    large("svw", Length),
    large("lvw", Length),
    large("dvw", Length),
    row("deg", Angle, REST_FOR_PIXELS, PLAYED_SMALL_UNITS),
    large("rad", Angle),
    row("grad", Angle, REST_FOR_UNITS, PLAYED_SMALL_UNITS),
    row("turn", Angle, REST_FOR_UNITS, PLAYED_TURN),
];

/// The row of `unit`, or `None` if it is not one curvebake writes.
pub fn unit(unit: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.name == unit)
}

/// Classifies a unit, or `None` if it is not one curvebake writes.
pub fn unit_kind(unit: &str) -> Option<UnitKind> {
    self::unit(unit).map(|u| u.kind)
}

/// The default (rest_delta, rest_speed) for values in `unit` ([`REST_FOR_UNITS`] for a unit
/// not in [`UNITS`]).
pub fn rest_defaults(unit: &str) -> (f64, f64) {
    self::unit(unit).map_or(REST_FOR_UNITS, |u| u.rest)
}

/// How finely values in `unit` are played and written ([`PLAYED_LARGE_UNITS`] for a unit not
/// in [`UNITS`]).
pub fn played(unit: &str) -> Played {
    self::unit(unit).map_or(PLAYED_LARGE_UNITS, |u| u.played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unit_is_listed_once() {
        for (k, u) in UNITS.iter().enumerate() {
            assert!(
                UNITS[..k].iter().all(|v| v.name != u.name),
                "{:?} listed twice",
                u.name
            );
        }
    }

    /// The classes as the four lists the table replaced had them (validation's length and
    /// angle lists, the rest defaults on px and deg, the CSS tolerance and precision lists),
    /// but for the tolerances of pt, mm and turn (below).
    #[test]
    fn the_table_keeps_the_classes_of_the_lists_it_replaced() {
        for u in UNITS {
            let kind = match u.name {
                "" => Number,
                "%" => Percentage,
                "deg" | "rad" | "grad" | "turn" => Angle,
                _ => Length,
            };
            let rest = match u.name {
                "px" | "deg" => REST_FOR_PIXELS,
                "" => REST_FOR_UNITLESS,
                _ => REST_FOR_UNITS,
            };
            let tolerance = match u.name {
                "px" | "deg" | "grad" => 0.1,
                "pt" => 0.07,
                "mm" => 0.025,
                "turn" => 2.5e-4,
                "%" => 0.025,
                _ => 5e-4,
            };
            let precision = match u.name {
                "px" | "%" | "deg" | "pt" | "mm" | "grad" => (0.01, 4),
                "turn" => (2.5e-5, 6),
                _ => (1e-4, 6),
            };
            assert_eq!(u.kind, kind, "{:?}", u.name);
            assert_eq!(u.rest, rest, "{:?}", u.name);
            assert_eq!(u.played.default_tolerance, tolerance, "{:?}", u.name);
            assert_eq!(
                (u.played.precision, u.played.decimals),
                precision,
                "{:?}",
                u.name
            );
        }
        assert_eq!(UNITS.len(), 2 + 20 + 4);
        assert_eq!(unit_kind("furlong"), None);
        assert_eq!(rest_defaults("furlong"), REST_FOR_UNITS);
        assert_eq!(played("furlong"), PLAYED_LARGE_UNITS);
    }

    /// By default a browser plays a motion within 0.1 px or 0.1° of it (the "every instant"
    /// promise) in every unit of a fixed size: CSS's absolute lengths (96 px an inch), em and
    /// rem at the default 16 px, ch and ex at most 16 px, the viewport units on a 3840 px
    /// screen, each angle.
    #[test]
    fn every_unit_is_played_within_a_tenth_of_a_pixel_or_a_degree() {
        for u in UNITS {
            let size = match u.name {
                "px" | "deg" => 1.0,
                "in" => 96.0,
                "cm" => 96.0 / 2.54,
                "mm" => 96.0 / 25.4,
                "pt" => 96.0 / 72.0,
                "pc" | "em" | "rem" | "ch" | "ex" => 16.0,
                "rad" => 180.0 / std::f64::consts::PI,
                "grad" => 0.9,
                "turn" => 360.0,
                "" | "%" => continue,
                viewport => {
                    assert!(viewport.starts_with(['v', 's', 'l', 'd']), "{viewport}");
                    38.4
                }
            };
            let played = u.played.default_tolerance * size;
            assert!(played <= 0.1, "{}: {played} px or deg", u.name);
        }
    }
}
