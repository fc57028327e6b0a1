//! Every platform's way of writing a spring, resolved to mass m, stiffness k and damping c of
//! `m·u'' + c·u' + k·u = 0`, and back.
//!
//! The motion depends only on k/m and c/m, so every form below fixes m = 1 except the physical
//! one and the damping-ratio one (whose mass is optional). With ω0 = √(k/m) and
//! ζ = c/(2√(km)) the damping ratio:
//!
//! | form | platform | resolved | source |
//! |---|---|---|---|
//! | `mass`, `stiffness`, `damping` | physical | as written, m = 1 by default | |
//! | `perceptual_duration` P, `bounce` b | SwiftUI `Spring(duration:bounce:)`, Flutter `SpringDescription.withDurationAndBounce` | k = (2π/P)², c = 4π(1 - b)/P (b >= 0) or 4π/(P(1 + b)) (b < 0) | see [`super::perceptual_parameters`] |
//! | `response` R, `damping_fraction` f | SwiftUI `Spring(response:dampingRatio:)`, `.spring(response:dampingFraction:)` | k = (2π/R)², c = 4π·f/R, m = 1 (so ζ = f) | Apple's documentation of `Spring.init(response:dampingRatio:)`: "response: the stiffness of the spring, defined as an approximate duration in seconds", with stiffness (2π/response)² and damping 4π·dampingRatio/response |
//! | `stiffness` k, `damping_ratio` ζ (`mass` optional) | Android `SpringForce`, Jetpack Compose `spring(dampingRatio, stiffness)` | c = 2ζ√(km) | `SpringForce` (androidx.dynamicanimation) uses mass 1 and damping 2ζω0 |
//! | `visual_duration` V, `bounce` b | motion.dev (Motion, formerly Framer Motion) `visualDuration` | k = (2π/(1.2·V))², c = 2·clamp(1 - b, 0.05, 1)·√k, m = 1 | `getSpringOptions` in motion's spring generator (`packages/motion-dom/.../spring/index.ts`): `root = 2π/(visualDuration·1.2)`, `stiffness = root²`, `damping = 2·clamp(0.05, 1, 1 - bounce)·√stiffness` |
//! | `origami_tension` T, `origami_friction` F | Origami, Facebook Rebound, React Native `Animated.spring({tension, friction})` | k = (T - 30)·3.62 + 194, c = (F - 8)·3 + 25, m = 1 | `OrigamiValueConverter.tensionFromOrigamiValue`/`frictionFromOrigamiValue` in facebook/rebound (`rebound-core`), also React Native's `SpringConfig.fromOrigamiTensionAndFriction` |
//!
//! Two differences from the platforms, both deliberate: Rebound maps an Origami value of exactly
//! 0 to 0 (a special case, not the line); here the line holds everywhere and a tension or
//! friction that makes k <= 0 or c < 0 is an error. motion.dev clamps the damping ratio to
//! [0.05, 1]; the same clamp applies here, and `bounce` must be in [0, 1].
//!
//! Back from (m, k, c), with k' = k/m, c' = c/m (the m = 1 spring that moves the same):
//! P = R = 2π/√k'; b = 1 - ζ (ζ <= 1) or 1/ζ - 1 (ζ > 1); f = ζ; V = 2π/(1.2·√k') with
//! b = 1 - ζ, only when 0.05 <= ζ <= 1 (motion.dev cannot write any other spring);
//! T = (k' - 194)/3.62 + 30, F = (c' - 25)/3 + 8.

use super::error::{check, non_negative, positive, MotionError, Result};
use super::spring::{finite_rates, perceptual_parameters};
use std::f64::consts::PI;

/// motion.dev's damping ratio is clamped to [MOTION_DEV_MIN_RATIO, 1].
pub const MOTION_DEV_MIN_RATIO: f64 = 0.05;
/// motion.dev's `visualDuration` is 1/1.2 of the undamped period 2π/ω0.
pub const MOTION_DEV_PERIOD_FACTOR: f64 = 1.2;
/// Origami tension T maps to stiffness (T - 30)·3.62 + 194 (Rebound).
const ORIGAMI_TENSION: (f64, f64, f64) = (30.0, 3.62, 194.0);
/// Origami friction F maps to damping (F - 8)·3 + 25 (Rebound).
const ORIGAMI_FRICTION: (f64, f64, f64) = (8.0, 3.0, 25.0);

/// The parameters of a spring, in one platform's form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SpringForm {
    /// `mass` (default 1), `stiffness`, `damping`.
    Physical {
        /// m > 0.
        mass: f64,
        /// k > 0.
        stiffness: f64,
        /// c >= 0.
        damping: f64,
    },
    /// SwiftUI/Flutter `perceptual_duration` P > 0 and `bounce` b in (-1, 1).
    Perceptual {
        /// P in seconds.
        duration: f64,
        /// b.
        bounce: f64,
    },
    /// SwiftUI `response` R > 0 and `damping_fraction` f >= 0.
    Response {
        /// R in seconds.
        response: f64,
        /// f, the damping ratio.
        damping_fraction: f64,
    },
    /// Android/Compose `stiffness` k > 0 and `damping_ratio` ζ >= 0, `mass` m (default 1).
    DampingRatio {
        /// m > 0.
        mass: f64,
        /// k > 0.
        stiffness: f64,
        /// ζ >= 0.
        damping_ratio: f64,
    },
    /// motion.dev `visual_duration` V > 0 and `bounce` b in [0, 1].
    VisualDuration {
        /// V in seconds.
        visual_duration: f64,
        /// b.
        bounce: f64,
    },
    /// Origami/Rebound `origami_tension` T and `origami_friction` F.
    Origami {
        /// T.
        tension: f64,
        /// F.
        friction: f64,
    },
}

impl SpringForm {
    /// The form's name as `inspect` and the JSON `params` write it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Physical { .. } => "physical",
            Self::Perceptual { .. } => "perceptual",
            Self::Response { .. } => "response",
            Self::DampingRatio { .. } => "android",
            Self::VisualDuration { .. } => "motion_dev",
            Self::Origami { .. } => "origami",
        }
    }

    /// Rewrites an error of [`super::Spring::new`] about the stiffness or damping this form
    /// resolved to (numbers no one wrote, outside the physical form) as one about the field
    /// that gave it; other errors are returned as they are.
    pub fn blame(&self, error: MotionError) -> MotionError {
        /// A duration too short, a factor too large, for the rates to stay finite.
        const SHORT: &str =
            "large enough that the stiffness and damping it gives keep k/m, c/(2m) and c² - 4mk finite";
        const LARGE: &str =
            "small enough that the stiffness and damping it gives keep k/m, c/(2m) and c² - 4mk finite";
        let MotionError::Invalid { path, .. } = &error else {
            return error;
        };
        let field = match (*self, path.as_str()) {
            (Self::Perceptual { duration, .. }, "stiffness" | "damping") => {
                ("perceptual_duration", duration, SHORT)
            }
            (Self::Response { response, .. }, "stiffness") => ("response", response, SHORT),
            (
                Self::Response {
                    damping_fraction, ..
                },
                "damping",
            ) => ("damping_fraction", damping_fraction, LARGE),
            (Self::DampingRatio { damping_ratio, .. }, "damping") => {
                ("damping_ratio", damping_ratio, LARGE)
            }
            (
                Self::VisualDuration {
                    visual_duration, ..
                },
                "stiffness" | "damping",
            ) => ("visual_duration", visual_duration, SHORT),
            (Self::Origami { tension, .. }, "stiffness") => ("origami_tension", tension, LARGE),
            (Self::Origami { friction, .. }, "damping") => ("origami_friction", friction, LARGE),
            _ => return error,
        };
        let (path, value, requirement) = field;
        MotionError::Invalid {
            path: path.into(),
            requirement,
            value,
        }
    }

    /// (mass, stiffness, damping), with errors naming the field as written.
    pub fn resolve(&self) -> Result<(f64, f64, f64)> {
        match *self {
            Self::Physical {
                mass,
                stiffness,
                damping,
            } => Ok((mass, stiffness, damping)),
            Self::Perceptual { duration, bounce } => perceptual_parameters(duration, bounce),
            Self::Response {
                response,
                damping_fraction,
            } => {
                let response = positive("response", response)?;
                let fraction = non_negative("damping_fraction", damping_fraction)?;
                let stiffness = (2.0 * PI / response).powi(2);
                let damping = 4.0 * PI * fraction / response;
                if stiffness.is_finite() && !damping.is_finite() {
                    return Err(MotionError::Invalid {
                        path: "damping_fraction".into(),
                        requirement: "small enough that the damping 4π·damping_fraction/response stays finite",
                        value: fraction,
                    });
                }
                finite_rates(
                    "response",
                    response,
                    stiffness,
                    damping,
                    "large enough that the stiffness (2π/response)² stays finite (at least about 4.7e-154 s)",
                )
            }
            Self::DampingRatio {
                mass,
                stiffness,
                damping_ratio,
            } => {
                let mass = positive("mass", mass)?;
                let stiffness = positive("stiffness", stiffness)?;
                let ratio = non_negative("damping_ratio", damping_ratio)?;
                Ok((mass, stiffness, 2.0 * ratio * (stiffness * mass).sqrt()))
            }
            Self::VisualDuration {
                visual_duration,
                bounce,
            } => {
                let v = positive("visual_duration", visual_duration)?;
                let b = check("bounce", bounce, "in [0, 1]", |b| (0.0..=1.0).contains(&b))?;
                let root = 2.0 * PI / (v * MOTION_DEV_PERIOD_FACTOR);
                let ratio = (1.0 - b).clamp(MOTION_DEV_MIN_RATIO, 1.0);
                finite_rates(
                    "visual_duration",
                    v,
                    root * root,
                    2.0 * ratio * root,
                    "large enough that the stiffness (2π/(1.2·visual_duration))² stays finite (at least about 3.9e-154 s)",
                )
            }
            Self::Origami { tension, friction } => {
                let (t0, ts, k0) = ORIGAMI_TENSION;
                let (f0, fs, c0) = ORIGAMI_FRICTION;
                let stiffness = (tension - t0) * ts + k0;
                let damping = (friction - f0) * fs + c0;
                if !(stiffness > 0.0 && stiffness.is_finite()) {
                    return Err(MotionError::Invalid {
                        path: "origami_tension".into(),
                        requirement:
                            "> 30 - 194/3.62 ≈ -23.59 and finite (stiffness (T - 30)·3.62 + 194 must be > 0)",
                        value: tension,
                    });
                }
                if !(damping >= 0.0 && damping.is_finite()) {
                    return Err(MotionError::Invalid {
                        path: "origami_friction".into(),
                        requirement:
                            ">= 8 - 25/3 ≈ -0.333 and finite (damping (F - 8)·3 + 25 must be >= 0)",
                        value: friction,
                    });
                }
                Ok((1.0, stiffness, damping))
            }
        }
    }
}

/// The platforms of each group of [`Equivalents::groups`], for people to read.
pub const PLATFORMS: &[(&str, &str)] = &[
    ("perceptual", "SwiftUI, Flutter"),
    ("response", "SwiftUI"),
    ("android", "Android, Compose"),
    ("motion_dev", "motion.dev"),
    ("origami", "Origami, Rebound"),
];

/// One spring written in every form (see the module table for the formulas).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Equivalents {
    /// SwiftUI/Flutter (perceptual_duration, bounce).
    pub perceptual: (f64, f64),
    /// SwiftUI (response, damping_fraction).
    pub response: (f64, f64),
    /// Android/Compose (stiffness, damping_ratio) at mass 1.
    pub damping_ratio: (f64, f64),
    /// motion.dev (visual_duration, bounce); `None` when ζ is outside [0.05, 1].
    pub visual_duration: Option<(f64, f64)>,
    /// Origami/Rebound (origami_tension, origami_friction).
    pub origami: (f64, f64),
}

impl Equivalents {
    /// The forms of the spring (m, k, c), each with m = 1.
    pub fn of(mass: f64, stiffness: f64, damping: f64) -> Self {
        let (k, c) = (stiffness / mass, damping / mass);
        let w0 = k.sqrt();
        let zeta = c / (2.0 * w0);
        let period = 2.0 * PI / w0;
        let bounce = if zeta <= 1.0 {
            1.0 - zeta
        } else {
            1.0 / zeta - 1.0
        };
        let (t0, ts, k0) = ORIGAMI_TENSION;
        let (f0, fs, c0) = ORIGAMI_FRICTION;
        Self {
            perceptual: (period, bounce),
            response: (period, zeta),
            damping_ratio: (k, zeta),
            visual_duration: (MOTION_DEV_MIN_RATIO..=1.0)
                .contains(&zeta)
                .then(|| (period / MOTION_DEV_PERIOD_FACTOR, 1.0 - zeta)),
            origami: ((k - k0) / ts + t0, (c - c0) / fs + f0),
        }
    }

    /// Named groups of (field, value), in the order of the module table, as the JSON `params`
    /// and `inspect` write them: `perceptual`, `response`, `android`, `motion_dev` (left out
    /// when motion.dev cannot write the spring) and `origami`. Two fields each, on the stack:
    /// every spring's JSON table writes them.
    pub fn groups(&self) -> impl Iterator<Item = (&'static str, [(&'static str, f64); 2])> {
        let motion_dev = (self.visual_duration)
            .map(|(v, b)| ("motion_dev", [("visual_duration", v), ("bounce", b)]));
        [
            Some((
                "perceptual",
                [
                    ("perceptual_duration", self.perceptual.0),
                    ("bounce", self.perceptual.1),
                ],
            )),
            Some((
                "response",
                [
                    ("response", self.response.0),
                    ("damping_fraction", self.response.1),
                ],
            )),
            Some((
                "android",
                [
                    ("stiffness", self.damping_ratio.0),
                    ("damping_ratio", self.damping_ratio.1),
                ],
            )),
            motion_dev,
            Some((
                "origami",
                [
                    ("origami_tension", self.origami.0),
                    ("origami_friction", self.origami.1),
                ],
            )),
        ]
        .into_iter()
        .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    /// Every form resolves to a spring whose equivalent in the same form gives back what was
    /// written (the round trip is the test that the two directions are the same formula).
    #[test]
    fn every_form_round_trips_through_its_equivalent() {
        let forms = [
            SpringForm::Perceptual {
                duration: 0.5,
                bounce: 0.2,
            },
            SpringForm::Perceptual {
                duration: 0.5,
                bounce: -0.3,
            },
            SpringForm::Response {
                response: 0.55,
                damping_fraction: 0.825,
            },
            SpringForm::DampingRatio {
                mass: 1.0,
                stiffness: 1500.0,
                damping_ratio: 0.5,
            },
            SpringForm::VisualDuration {
                visual_duration: 0.3,
                bounce: 0.25,
            },
            SpringForm::Origami {
                tension: 40.0,
                friction: 7.0,
            },
        ];
        for form in forms {
            let (m, k, c) = form.resolve().unwrap();
            let e = Equivalents::of(m, k, c);
            let back = match form {
                SpringForm::Perceptual { duration, bounce } => (duration, bounce, e.perceptual),
                SpringForm::Response {
                    response,
                    damping_fraction,
                } => (response, damping_fraction, e.response),
                SpringForm::DampingRatio {
                    stiffness,
                    damping_ratio,
                    ..
                } => (stiffness, damping_ratio, e.damping_ratio),
                SpringForm::VisualDuration {
                    visual_duration,
                    bounce,
                } => (visual_duration, bounce, e.visual_duration.unwrap()),
                SpringForm::Origami { tension, friction } => (tension, friction, e.origami),
                SpringForm::Physical { .. } => unreachable!(),
            };
            assert!(
                close(back.0, back.2 .0) && close(back.1, back.2 .1),
                "{form:?}: {back:?}"
            );
        }
    }

    /// Values worked by hand from the platforms' formulas.
    #[test]
    fn forms_resolve_to_the_platforms_numbers() {
        // Rebound's default Origami config (40, 7): tension 230.2, friction 22.
        let (m, k, c) = SpringForm::Origami {
            tension: 40.0,
            friction: 7.0,
        }
        .resolve()
        .unwrap();
        assert_eq!(m, 1.0);
        assert!(close(k, 230.2) && close(c, 22.0), "{k} {c}");
        // motion.dev visualDuration 0.5, bounce 0.25: ω0 = 2π/0.6, ζ = 0.75.
        let (_, k, c) = SpringForm::VisualDuration {
            visual_duration: 0.5,
            bounce: 0.25,
        }
        .resolve()
        .unwrap();
        let w0 = 2.0 * PI / 0.6;
        assert!(close(k, w0 * w0) && close(c, 1.5 * w0));
        // motion.dev clamps ζ at 0.05: bounces 0.99 and 1 are the same spring.
        let clamped = |b| {
            SpringForm::VisualDuration {
                visual_duration: 0.5,
                bounce: b,
            }
            .resolve()
            .unwrap()
        };
        assert_eq!(clamped(1.0), clamped(0.99));
        // Android: SpringForce.STIFFNESS_MEDIUM 1500, DAMPING_RATIO_MEDIUM_BOUNCY 0.5, mass 1: c = √1500.
        let (_, _, c) = SpringForm::DampingRatio {
            mass: 1.0,
            stiffness: 1500.0,
            damping_ratio: 0.5,
        }
        .resolve()
        .unwrap();
        assert!(close(c, 1500f64.sqrt()));
        // SwiftUI response 1, damping fraction 1: k = 4π², c = 4π (critical).
        let (_, k, c) = SpringForm::Response {
            response: 1.0,
            damping_fraction: 1.0,
        }
        .resolve()
        .unwrap();
        assert!(close(k, 4.0 * PI * PI) && close(c, 4.0 * PI));
    }

    #[test]
    fn a_spring_motion_dev_cannot_write_has_no_such_equivalent() {
        assert_eq!(Equivalents::of(1.0, 100.0, 0.5).visual_duration, None); // ζ = 0.025
        assert_eq!(Equivalents::of(1.0, 100.0, 40.0).visual_duration, None); // ζ = 2
        assert!(Equivalents::of(1.0, 100.0, 10.0).visual_duration.is_some());
    }

    #[test]
    fn out_of_range_forms_name_their_field() {
        let err = |f: SpringForm| f.resolve().unwrap_err().to_string();
        assert!(err(SpringForm::Origami {
            tension: -30.0,
            friction: 7.0
        })
        .starts_with("origami_tension must be > 30 - 194/3.62"));
        assert!(err(SpringForm::Origami {
            tension: 40.0,
            friction: -1.0
        })
        .starts_with("origami_friction must be >= 8 - 25/3"));
        assert_eq!(
            err(SpringForm::VisualDuration {
                visual_duration: 0.3,
                bounce: -0.1
            }),
            "bounce must be in [0, 1], got -0.1"
        );
        assert_eq!(
            err(SpringForm::Response {
                response: 0.0,
                damping_fraction: 1.0
            }),
            "response must be > 0, got 0"
        );
        assert_eq!(
            err(SpringForm::DampingRatio {
                mass: 1.0,
                stiffness: 100.0,
                damping_ratio: -1.0
            }),
            "damping_ratio must be >= 0, got -1"
        );
    }
}
