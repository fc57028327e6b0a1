//! The forms a `Spring`'s parameters may be written in, one row of [`SPRING_FORMS`] each: the
//! fields it requires, the fields it allows with their defaults, and the [`SpringForm`] they
//! make. Validation picks the one form the given fields fit; the review page's tuning reads
//! the same rows for the numbers a file may leave out.

use super::FieldError;
use crate::source::schema::MotionKind;
use curvebake_motion::SpringForm;

/// A field a form allows but does not require.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionalField {
    /// Its name in RON.
    pub name: &'static str,
    /// Its value when left out.
    pub default: f64,
    /// Whether the review page offers it when a file leaves it out (written after the form's
    /// first required number once set): a perceptual or visual spring's `bounce`, which a
    /// designer may want to add; not a mass, or a physical spring's defaults.
    pub offered: bool,
}

/// A form a spring may be written in.
#[derive(Debug, Clone, Copy)]
pub struct WrittenForm {
    /// The fields it requires, in the order the error message lists them.
    pub required: &'static [&'static str],
    /// The fields it allows besides, with their defaults.
    pub optional: &'static [OptionalField],
    /// The form from its fields' values ([`Given::get`]).
    make: fn(&Given) -> SpringForm,
}

impl WrittenForm {
    /// Whether the fields `given` (by name) fit it: each required one given, and none it
    /// does not allow.
    fn fits(&self, given: &[(&str, f64)]) -> bool {
        self.required
            .iter()
            .all(|r| given.iter().any(|(g, _)| g == r))
            && given.iter().all(|(g, _)| {
                self.required.contains(g) || self.optional.iter().any(|o| o.name == *g)
            })
    }

    /// The form with the parameters `given` (which fit it), the optional ones missing at
    /// their defaults.
    fn form(&self, given: &[(&str, f64)]) -> SpringForm {
        (self.make)(&Given { form: self, given })
    }
}

/// The values of a form's fields, as [`WrittenForm::make`] reads them.
struct Given<'a> {
    form: &'a WrittenForm,
    given: &'a [(&'a str, f64)],
}

impl Given<'_> {
    /// The value of field `name`: given, or its default.
    ///
    /// # Panics
    /// If `name` is neither given nor one of the form's optional fields: a row of
    /// [`SPRING_FORMS`] whose `make` reads a field it does not list (the tests build every
    /// form).
    fn get(&self, name: &str) -> f64 {
        let given = self.given.iter().find(|(g, _)| *g == name).map(|(_, v)| *v);
        let default = || self.form.optional.iter().find(|o| o.name == name);
        given
            .or_else(|| default().map(|o| o.default))
            .unwrap_or_else(|| unreachable!("spring form field {name} is not listed in its row"))
    }
}

/// An optional field the review page does not offer when left out.
const fn kept(name: &'static str, default: f64) -> OptionalField {
    OptionalField {
        name,
        default,
        offered: false,
    }
}

/// An optional field the review page offers when left out.
const fn offered(name: &'static str, default: f64) -> OptionalField {
    OptionalField {
        name,
        default,
        offered: true,
    }
}

/// The forms a spring may be written in, in the order the error message lists them. The
/// physical form is the default: each of its fields is optional (mass 1, stiffness 170,
/// damping 26), so `Spring(from, to)` is that spring. Every other form requires a field the
/// physical form does not allow, and no two of them allow each other's required fields, so
/// at most one form fits.
pub const SPRING_FORMS: &[WrittenForm] = &[
    WrittenForm {
        required: &[],
        optional: &[
            kept("mass", 1.0),
            kept("stiffness", 170.0),
            kept("damping", 26.0),
        ],
        make: |v| SpringForm::Physical {
            mass: v.get("mass"),
            stiffness: v.get("stiffness"),
            damping: v.get("damping"),
        },
    },
    WrittenForm {
        required: &["perceptual_duration"],
        optional: &[offered("bounce", 0.0)],
        make: |v| SpringForm::Perceptual {
            duration: v.get("perceptual_duration"),
            bounce: v.get("bounce"),
        },
    },
    WrittenForm {
        required: &["response", "damping_fraction"],
        optional: &[],
        make: |v| SpringForm::Response {
            response: v.get("response"),
            damping_fraction: v.get("damping_fraction"),
        },
    },
    WrittenForm {
        required: &["stiffness", "damping_ratio"],
        optional: &[kept("mass", 1.0)],
        make: |v| SpringForm::DampingRatio {
            mass: v.get("mass"),
            stiffness: v.get("stiffness"),
            damping_ratio: v.get("damping_ratio"),
        },
    },
    WrittenForm {
        required: &["visual_duration"],
        optional: &[offered("bounce", 0.0)],
        make: |v| SpringForm::VisualDuration {
            visual_duration: v.get("visual_duration"),
            bounce: v.get("bounce"),
        },
    },
    WrittenForm {
        required: &["origami_tension", "origami_friction"],
        optional: &[],
        make: |v| SpringForm::Origami {
            tension: v.get("origami_tension"),
            friction: v.get("origami_friction"),
        },
    },
];

/// The one form of parameters a `Spring` is written in ([`SPRING_FORMS`]), or an error that
/// lists the forms and the parameters given.
pub(super) fn spring_form(kind: &MotionKind) -> Result<SpringForm, FieldError> {
    let given = given_spring_params(kind);
    match SPRING_FORMS.iter().find(|f| f.fits(&given)) {
        Some(form) => Ok(form.form(&given)),
        None => Err(no_spring_form(&given)),
    }
}

/// The parameters a `Spring` is written with, by name, in the order of [`MotionKind::Spring`].
fn given_spring_params(kind: &MotionKind) -> Vec<(&'static str, f64)> {
    let MotionKind::Spring {
        mass,
        stiffness,
        damping,
        perceptual_duration,
        bounce,
        response,
        damping_fraction,
        damping_ratio,
        visual_duration,
        origami_tension,
        origami_friction,
        ..
    } = *kind
    else {
        unreachable!("spring_form is called on springs")
    };
    [
        ("mass", mass),
        ("stiffness", stiffness),
        ("damping", damping),
        ("perceptual_duration", perceptual_duration),
        ("bounce", bounce),
        ("response", response),
        ("damping_fraction", damping_fraction),
        ("damping_ratio", damping_ratio),
        ("visual_duration", visual_duration),
        ("origami_tension", origami_tension),
        ("origami_friction", origami_friction),
    ]
    .into_iter()
    .filter_map(|(name, v)| v.map(|v| (name, v)))
    .collect()
}

/// The error for parameters that fit no form: it lists the forms and the parameters `given`.
fn no_spring_form(given: &[(&str, f64)]) -> FieldError {
    let forms: Vec<String> = SPRING_FORMS
        .iter()
        .map(|form| {
            let required = form.required.join(" + ");
            let optional: Vec<&str> = form.optional.iter().map(|o| o.name).collect();
            let optional = optional.join(", ");
            match (form.required.is_empty(), form.optional.is_empty()) {
                (true, _) => format!("{optional} (each optional)"),
                (false, true) => required,
                (false, false) => format!("{required} ({optional} optional)"),
            }
        })
        .collect();
    let names: Vec<&str> = given.iter().map(|(g, _)| *g).collect();
    let got = if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    };
    FieldError::new(
        "motion.Spring",
        format!(
            "needs exactly one form of parameters: {}; got {got}",
            forms.join("; ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row builds its form from its required fields alone, each optional one at its
    /// default (a `make` that read a field its row does not list would panic here).
    #[test]
    fn each_form_is_made_from_the_fields_its_row_lists() {
        for form in SPRING_FORMS {
            let given: Vec<(&str, f64)> = form.required.iter().map(|r| (*r, 0.5)).collect();
            assert!(form.fits(&given), "{:?}", form.required);
            form.form(&given);
        }
        let physical = SPRING_FORMS[0].form(&[]);
        assert_eq!(
            physical,
            SpringForm::Physical {
                mass: 1.0,
                stiffness: 170.0,
                damping: 26.0
            }
        );
    }

    /// Each set of fields fits at most one form (the table's promise).
    #[test]
    fn no_two_forms_fit_the_same_fields() {
        for (k, form) in SPRING_FORMS.iter().enumerate() {
            let mut given: Vec<(&str, f64)> = form.required.iter().map(|r| (*r, 0.5)).collect();
            let fitting = |given: &[(&str, f64)]| {
                (SPRING_FORMS.iter().enumerate())
                    .filter(|(_, f)| f.fits(given))
                    .map(|(j, _)| j)
                    .collect::<Vec<_>>()
            };
            assert_eq!(fitting(&given), vec![k]);
            given.extend(form.optional.iter().map(|o| (o.name, 0.5)));
            assert_eq!(fitting(&given), vec![k]);
        }
    }
}
