//! The animated property ([`Property`]) and the unit of its values, validated together (a
//! translate takes a length or %, a rotate an angle, a scale or opacity none).

use super::{check_name, unit_kind, FieldError, UnitKind};
use crate::source::schema::{MotionFile, MotionKind};

/// The animated CSS property.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Property {
    /// `transform: translateX(...)`.
    TranslateX,
    /// `transform: translateY(...)`.
    TranslateY,
    /// `transform: scale(...)`.
    Scale,
    /// `transform: rotate(...)`.
    Rotate,
    /// `opacity`.
    Opacity,
    /// A registered custom property, `--name` (validated identifier).
    Custom(String),
}

impl Property {
    /// The name as written in RON (`translateX`, ..., `--custom`).
    pub fn name(&self) -> &str {
        match self {
            Self::TranslateX => "translateX",
            Self::TranslateY => "translateY",
            Self::Scale => "scale",
            Self::Rotate => "rotate",
            Self::Opacity => "opacity",
            Self::Custom(name) => name,
        }
    }
}

pub(super) fn property_and_unit(file: &MotionFile) -> Result<(Property, String), FieldError> {
    let first_track = file.tracks.as_ref().and_then(|t| t.first());
    match first_track {
        // A multi-track motion's own property and unit are its first track's.
        Some(track) => property_and_unit_of(Some(&track.property), track.unit.as_deref())
            .or_else(|_| Ok((Property::TranslateX, "px".to_owned()))),
        None => {
            // A ring takes no property (its radii are lengths): its unit is said to fit them.
            let ring = matches!(file.motion, Some(MotionKind::ExplosionRing { .. }));
            match (ring, file.unit.as_deref().and_then(unit_kind)) {
                (true, Some(kind)) if !matches!(kind, UnitKind::Length | UnitKind::Percentage) => {
                    Err(FieldError::new(
                        "unit",
                        format!(
                            "{:?} does not fit a ring's radii: give a length (px, em, rem, vw, vh) or %",
                            file.unit.as_deref().unwrap_or_default()
                        ),
                    ))
                }
                _ => property_and_unit_of(file.property.as_deref(), file.unit.as_deref()),
            }
        }
    }
}

/// The property (default translateX) and unit (default from the property), validated.
pub(super) fn property_and_unit_of(
    property: Option<&str>,
    unit: Option<&str>,
) -> Result<(Property, String), FieldError> {
    let property = match property.unwrap_or("translateX") {
        "translateX" => Property::TranslateX,
        "translateY" => Property::TranslateY,
        "scale" => Property::Scale,
        "rotate" => Property::Rotate,
        "opacity" => Property::Opacity,
        custom if custom.starts_with("--") => {
            check_name(&custom[2..]).map_err(|m| FieldError::new("property", format!("after `--` {m}")))?;
            Property::Custom(custom.to_owned())
        }
        other => {
            return Err(FieldError::new(
                "property",
                format!("must be translateX, translateY, scale, rotate, opacity or a custom property --name, got {other:?}"),
            ))
        }
    };
    let default_unit = match property {
        Property::TranslateX | Property::TranslateY => "px",
        Property::Rotate => "deg",
        _ => "",
    };
    let unit = unit.map_or_else(|| default_unit.to_owned(), str::to_owned);
    let kind = unit_kind(&unit).ok_or_else(|| {
        FieldError::new(
            "unit",
            format!(
                "{unit:?} is not a known unit; use px, em, rem, vw, vh, %, deg, rad, turn or \"\""
            ),
        )
    })?;
    let allowed = match property {
        Property::TranslateX | Property::TranslateY => {
            matches!(kind, UnitKind::Length | UnitKind::Percentage)
        }
        Property::Rotate => kind == UnitKind::Angle,
        Property::Scale | Property::Opacity => kind == UnitKind::Number,
        Property::Custom(_) => true,
    };
    if !allowed {
        return Err(FieldError::new(
            "unit",
            format!("{unit:?} does not fit property {}", property.name()),
        ));
    }
    Ok((property, unit))
}
