//! An initial velocity in a spring's CSS: `--<name>-velocity` on the element, in units per
//! second, carried by a second animation added onto the class's first.
//!
//! # The maths
//!
//! A spring is linear in its ends and its initial velocity:
//!
//! ```text
//! x(t) = to + (from - to)·s(t) + v·g(t)
//! ```
//!
//! with `s` the unit step (from 1 at rest, towards 0) and `g` the unit impulse (from 0 with
//! velocity 1, towards 0) of the same mass, stiffness and damping. The class's first
//! animation plays `to + (from - to)·s(t)` (its easing is the progress `1 - s`, its ends
//! `--<name>-from` and `--<name>-to`). The second, `@keyframes <name>-velocity`, goes from 0
//! to `K·v` (`calc(var(--<name>-velocity, 0) * Kpx)`, `K` seconds, a
//! power of ten at least `1/ω0`, which bounds `|g|`), timed by `--<name>-velocity-easing`: the
//! `linear()` of `g(t)/K`, which starts and ends at 0 (outputs of `linear()` may be any
//! numbers; keyframes extrapolate). So it plays `v·g(t)`.
//!
//! # The composition
//!
//! `animation-composition: replace, add` puts the second on top of the first, and two
//! `translate`s add up component-wise: `translate: 0 y` added to `translate: 0 y'` is
//! `translate: 0 (y + y')` (the individual transform properties add as their transform
//! functions concatenate, and two translations concatenated are their sum). A motion along x
//! writes `translate: x`, which is `x 0`, so the y of each stays 0 (and an element's own
//! `translate` is replaced by the first, as without a velocity). Before it starts and after it
//! ends, the second adds nothing (fill `backwards` on its `from`, 0).
//!
//! Only `translate`: adding two `scale`s multiplies them (and `accumulate`, whose 1-based sum
//! `a + b - 1` would do, multiplies in Chromium too); an added `rotate` shows degrees away
//! from the sum in Chromium (both seen in the browser test while building this);
//! Gecko animates a registered custom property with a `var()` in its keyframes discretely;
//! opacity is a fade, with no velocity to carry.
//!
//! # The bound
//!
//! `g` is fitted by the fitting core against its closed form (the spring from 0 to 0 with
//! velocity 1) within `ε/V`, `ε` the motion's tolerance and `V = ω0·|to - from|` the speed
//! that would carry the undamped spring over its baked distance: the second animation is
//! within `ε·|v|/V` of `v·g` at every instant, so the class plays the spring within
//! `ε·(|to' - from'|/|to - from| + |v|/V)` for any ends and velocity, `ε` for the baked ends
//! and a velocity up to `V`. It lasts the longer of the motion's duration `D` and the rest
//! time of `V·g` (`rest_delta`, `rest_speed`), written as `D` times a stretch, so that
//! `--<name>-duration` (reduced motion's `0s`, a slower duration) times both.

use super::text::{animation_item, declare_value};
use super::Declaration;
use crate::fit::{self, Decimal, Fit, Scale, Timing};
use curvebake_model::bake::Baked;
use curvebake_model::spec::{Model, ReducedMotion};
use curvebake_motion::{Settle, Spring};

/// Decimals of the stretch of the velocity's duration over the motion's (rounded up).
const STRETCH_DECIMALS: u32 = 3;

/// The second animation of a spring's class: `v·g(t)` for `v` from `--<name>-velocity`.
#[derive(Debug, Clone)]
pub struct Velocity {
    /// `g/K` fitted over the velocity's duration.
    fit: Fit,
    /// `K`, seconds: the keyframe's value per unit of velocity.
    k: Decimal,
    /// The velocity's duration over the motion's, when longer.
    stretch: Option<Decimal>,
}

impl Velocity {
    /// The velocity animation of `baked` (a spring that [`MotionSpec::css_velocity`] allows,
    /// written with an easing) whose tolerance is `tolerance`; `None` for any other.
    ///
    /// [`MotionSpec::css_velocity`]: curvebake_model::spec::MotionSpec::css_velocity
    pub fn of(baked: &Baked, endpoints: (f64, f64), tolerance: f64) -> Option<Self> {
        let Model::Spring(spring) = &baked.spec.model else {
            return None;
        };
        if !baked.spec.css_velocity() {
            return None;
        }
        let (m, k, c) = (spring.mass(), spring.stiffness(), spring.damping());
        let impulse = Spring::new(0.0, 0.0, 1.0, m, k, c).ok()?;
        let omega0 = spring.natural_frequency();
        let reference = omega0 * (endpoints.1 - endpoints.0).abs();
        let d = baked.duration;
        // The rest time of V·g (none when undamped: it plays for D).
        let rest = Spring::new(0.0, 0.0, reference, m, k, c)
            .ok()
            .and_then(|s| s.settle_time(baked.spec.rest_delta, baked.spec.rest_speed))
            .unwrap_or(d);
        let stretch = (rest > d).then(|| {
            let scale = 10f64.powi(STRETCH_DECIMALS as i32);
            Decimal::new((rest / d * scale).ceil() as i64, STRETCH_DECIMALS)
        });
        let duration = stretch.map_or(d, |s| d * s.value());
        // K = 10^n >= 1/ω0 >= max |g| (the energy v²/2 + ω0²·g²/2 never grows from 1/2).
        let n = (-libm::log10(omega0)).ceil() as i32;
        let k = if n <= 0 {
            Decimal::new(1, n.unsigned_abs())
        } else {
            Decimal::new(10i64.pow(n as u32), 0)
        };
        let tolerance = tolerance / reference;
        let track = fit::Track {
            motion: &impulse,
            scale: Scale::new(0.0, k.value(), tolerance),
            end_value: 0.0,
            tolerance,
            holds: &[],
        };
        let timing = Timing {
            duration,
            kinks: &[],
            repeat_input: true,
        };
        Some(Self {
            fit: fit::fit(&[track], &timing),
            k,
            stretch,
        })
    }

    /// Stops of its easing.
    pub fn stops(&self) -> usize {
        self.fit.len()
    }

    /// Whether its easing does not keep its tolerance ([`Fit::overrun`]).
    pub fn overrun(&self) -> bool {
        self.fit.overrun
    }

    /// Writes `  --<name>-velocity-easing: linear(...);` (in `:root`).
    pub fn write_easing(&self, out: &mut Vec<u8>, name: &[u8]) {
        out.extend_from_slice(b"  --");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-velocity-easing: ");
        super::write_linear(out, &self.fit, 0);
        out.extend_from_slice(b";\n");
    }

    /// Writes `@keyframes <name>-velocity`: from 0 to `K·v`.
    pub fn write_keyframes(&self, out: &mut Vec<u8>, name: &[u8], declaration: &Declaration) {
        out.extend_from_slice(b"@keyframes ");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-velocity {\n  from { ");
        declare_value(out, declaration, 0.0, 0);
        out.extend_from_slice(b" }\n  to { ");
        out.extend_from_slice(&declaration.before);
        out.extend_from_slice(b"calc(var(--");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-velocity, 0) * ");
        self.k.write(out);
        out.extend_from_slice(&declaration.after);
        out.extend_from_slice(b"); }\n}\n");
    }

    /// Writes the class's `animation` (the motion's, then the velocity's over the motion's
    /// duration, stretched) and its `animation-composition`.
    pub fn write_animation(&self, out: &mut Vec<u8>, name: &[u8], neutral_end: bool) {
        out.extend_from_slice(b"  animation: ");
        animation_item(out, name, true, neutral_end);
        out.extend_from_slice(b",\n    ");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-velocity ");
        match self.stretch {
            Some(stretch) => {
                out.extend_from_slice(b"calc(var(--");
                out.extend_from_slice(name);
                out.extend_from_slice(b"-duration) * ");
                stretch.write(out);
                out.push(b')');
            }
            None => {
                out.extend_from_slice(b"var(--");
                out.extend_from_slice(name);
                out.extend_from_slice(b"-duration)");
            }
        }
        out.extend_from_slice(b" var(--");
        out.extend_from_slice(name);
        out.extend_from_slice(
            b"-velocity-easing) backwards;\n  animation-composition: replace, add;\n",
        );
    }

    /// Under reduced motion's `fade`, the class's own `animation` list (the motion and its
    /// fade) replaces both: the fade must not add to the element's opacity.
    pub fn write_reduced(&self, out: &mut Vec<u8>, name: &[u8], policy: ReducedMotion) {
        if policy == ReducedMotion::Fade {
            out.extend_from_slice(b"@media (prefers-reduced-motion: reduce) {\n  .");
            out.extend_from_slice(name);
            out.extend_from_slice(b" { animation-composition: replace; }\n}\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::css::{curves, easing_endpoints};
    use crate::settings::ExportSettings;
    use curvebake_model::bake::bake;
    use curvebake_model::source::parse_bytes;
    use curvebake_model::spec::{MotionSpec, Overrides};
    use curvebake_motion::Motion;
    use std::path::Path;

    use crate::test_spec as spec;

    /// The velocity of a spring, its tolerance (ε) and the speed V it is held to ε at.
    fn velocity(ron: &str) -> Option<(Velocity, f64, f64)> {
        let spec = spec(ron);
        let baked = bake(&spec).unwrap();
        let curve = curves(&baked, &ExportSettings::default()).remove(0);
        let ends = easing_endpoints(&baked)?;
        let omega0 = match &spec.model {
            Model::Spring(s) => s.natural_frequency(),
            _ => 0.0,
        };
        let reference = omega0 * (ends.1 - ends.0).abs();
        Velocity::of(&baked, ends, curve.tolerance.kept)
            .map(|v| (v, curve.tolerance.kept, reference))
    }

    #[test]
    fn the_easing_plays_the_unit_impulse_within_the_tolerance_over_v() {
        for (damping, stretched) in [(18.0, false), (20.0, true), (60.0, true)] {
            let ron = format!(
                "(name: \"s\", property: \"translateX\", css_velocity: true, \
                 motion: Spring(from: 0, to: 300, stiffness: 100, damping: {damping}))"
            );
            let (v, tolerance, reference) = velocity(&ron).unwrap();
            assert_eq!(v.stretch.is_some(), stretched, "damping {damping}");
            assert!(
                v.fit.bounds[0] <= tolerance / reference,
                "{:?}",
                v.fit.bounds
            );
            // Checked again, at instants between the stops, against g itself.
            let g = Spring::new(0.0, 0.0, 1.0, 1.0, 100.0, damping).unwrap();
            let scale = Scale::new(0.0, v.k.value(), tolerance / reference);
            let end = v.fit.times[v.fit.len() - 1];
            for i in 0..10_000 {
                let t = end * f64::from(i) / 10_000.0;
                let error = (v.fit.played(&scale, 0, t) - g.position(t)).abs();
                assert!(
                    error <= tolerance / reference,
                    "damping {damping} at {t}: {error}"
                );
            }
        }
    }

    #[test]
    fn only_a_spring_on_translate_that_asks_takes_a_velocity() {
        let ron = |property: &str, asks: bool, motion: &str| {
            format!(
                "(name: \"s\", property: \"{property}\", css_velocity: {asks}, motion: {motion})"
            )
        };
        let spring = "Spring(from: 0, to: 1, stiffness: 170, damping: 26)";
        for property in ["translateX", "translateY"] {
            assert!(
                velocity(&ron(property, true, spring)).is_some(),
                "{property}"
            );
            assert!(
                velocity(&ron(property, false, spring)).is_none(),
                "{property}"
            );
        }
        // Anything else that asks is refused when it is read.
        let refused = |property: &str, motion: &str| {
            let text = ron(property, true, motion);
            let files = parse_bytes(Path::new("t.ron"), text.as_bytes()).unwrap();
            MotionSpec::from_file(&files[0], Overrides::default()).is_err()
        };
        assert!(
            refused("scale", spring) && refused("rotate", spring) && refused("opacity", spring)
        );
        assert!(refused(
            "translateY",
            "Friction(from: 0, velocity: 100, to: 50)"
        ));
    }
}
