//! The bytes of a motion's CSS that are not numbers of its curve: registrations, classes,
//! `animation` lists, reduced motion, a ring's drawing; and `@keyframes` written from a fit.

use super::Declaration;
use crate::fit::Fit;
use curvebake_model::number::write_fixed;
use curvebake_model::spec::{ReducedMotion, UnitKind, REDUCED_FADE_SECONDS};

/// Writes an `@property` registration: syntax from the unit kind, not inherited, zero.
pub(super) fn register(out: &mut Vec<u8>, property: &[u8], kind: UnitKind) {
    let (syntax, initial) = super::syntax(kind);
    out.extend_from_slice(b"@property ");
    out.extend_from_slice(property);
    out.extend_from_slice(b" { syntax: '");
    out.extend_from_slice(syntax.as_bytes());
    out.extend_from_slice(b"'; inherits: false; initial-value: ");
    out.extend_from_slice(initial.as_bytes());
    out.extend_from_slice(b"; }\n");
}

/// Writes what `prefers-reduced-motion: reduce` does to the class `.<name>`:
///
/// * [`ReducedMotion::Jump`]: `--<name>-duration: 0s` on `:root`, so the class (and any
///   transition using the variable) shows the end at once; `animationend` still fires. The
///   class's own durations are 0s too ([`reduced_duration`]), so a page that sets the variable
///   on an element (a slower card) does not turn reduced motion off there.
/// * [`ReducedMotion::Fade`]: the same jump (the class's `animation` list written with 0s),
///   and `@keyframes <name>-fade` takes the element from transparent to its own opacity in
///   [`REDUCED_FADE_SECONDS`].
/// * [`ReducedMotion::Keep`]: nothing is written.
pub(super) fn reduced_motion(
    out: &mut Vec<u8>,
    name: &[u8],
    policy: ReducedMotion,
    neutral_end: bool,
) {
    if policy == ReducedMotion::Keep {
        return;
    }
    if policy == ReducedMotion::Fade {
        out.extend_from_slice(b"@keyframes ");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-fade {\n  from { opacity: 0; }\n}\n");
    }
    out.extend_from_slice(b"@media (prefers-reduced-motion: reduce) {\n  :root { --");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration: 0s; }\n");
    if policy == ReducedMotion::Jump {
        class_duration(out, name);
    }
    if policy == ReducedMotion::Fade {
        out.extend_from_slice(b"  .");
        out.extend_from_slice(name);
        out.extend_from_slice(b" { animation: ");
        out.extend_from_slice(name);
        out.extend_from_slice(if neutral_end {
            b" 0s backwards, "
        } else {
            b" 0s both, "
        });
        out.extend_from_slice(name);
        out.extend_from_slice(b"-fade ");
        write_fixed(out, REDUCED_FADE_SECONDS, 3);
        out.extend_from_slice(b"s ease-out backwards; }\n");
    }
    out.extend_from_slice(b"}\n");
}

/// Under reduced motion (any policy but [`ReducedMotion::Keep`]), the class `.<name>` whose
/// animations are timed by variables plays them in 0s whatever an element sets the variables
/// to: `@media (prefers-reduced-motion: reduce) { .<name> { animation-duration: 0s; } }`.
pub(super) fn reduced_duration(out: &mut Vec<u8>, name: &[u8], policy: ReducedMotion) {
    if policy != ReducedMotion::Keep {
        out.extend_from_slice(b"@media (prefers-reduced-motion: reduce) {\n");
        class_duration(out, name);
        out.extend_from_slice(b"}\n");
    }
}

/// `  .<name> { animation-duration: 0s; }`: every animation of the class's list in no time.
fn class_duration(out: &mut Vec<u8>, name: &[u8]) {
    out.extend_from_slice(b"  .");
    out.extend_from_slice(name);
    out.extend_from_slice(b" { animation-duration: 0s; }\n");
}

/// Writes `  animation: <name> var(--<name>-duration) <timing> <fill>;`: the easing
/// `var(--<name>-easing)` or `linear` (a keyframe per fitted stop), and fill `backwards` when the motion
/// ends at its property's neutral value (afterwards the element's own value applies again),
/// else `both`.
pub(super) fn animation(out: &mut Vec<u8>, name: &[u8], eased: bool, neutral_end: bool) {
    out.extend_from_slice(b"  animation: ");
    animation_item(out, name, eased, neutral_end);
    out.extend_from_slice(b";\n");
}

/// One animation of the `animation` list: `<name> var(--<name>-duration) <easing> <fill>`.
pub(super) fn animation_item(out: &mut Vec<u8>, name: &[u8], eased: bool, neutral_end: bool) {
    out.extend_from_slice(name);
    out.extend_from_slice(b" var(--");
    out.extend_from_slice(name);
    out.extend_from_slice(b"-duration) ");
    if eased {
        out.extend_from_slice(b"var(--");
        out.extend_from_slice(name);
        out.extend_from_slice(b"-easing)");
    } else {
        out.extend_from_slice(b"linear");
    }
    out.extend_from_slice(if neutral_end { b" backwards" } else { b" both" });
}

/// The declarations of a ring's class after `animation`: the band between the radii as a
/// radial gradient in `currentColor`, drawn as the element's border image (`slice 0 fill`:
/// the whole gradient in the middle area; `width 0`: no border area, whatever the element's
/// own border), centred on the element's border box. Length radii draw past the box: an
/// `outset` of the largest radius makes the image area the box grown by that radius on every
/// side, so the largest ring fits around the box's centre (an empty element is a point, its
/// ring a circle of the radius about it). The spec (CSS Backgrounds 3, `border-image-outset`)
/// makes what is drawn outside the border box ink overflow, which never adds scrollable
/// overflow: a ring at the edge of the page does not scroll it. `%` radii are of the element's
/// own box (half its shorter side is 100 %), so they get no outset.
pub(super) fn ring_drawing(
    out: &mut Vec<u8>,
    name: &[u8],
    unit: &[u8],
    kind: UnitKind,
    tracks: &[&[f64]],
    decimals: u32,
) {
    let var = |out: &mut Vec<u8>, edge: &[u8]| {
        out.extend_from_slice(b" var(--");
        out.extend_from_slice(name);
        out.push(b'-');
        out.extend_from_slice(edge);
        out.push(b')');
    };
    out.extend_from_slice(
        b"  border-image-source: radial-gradient(circle closest-side at center, transparent",
    );
    var(out, b"inner");
    out.extend_from_slice(b", currentColor");
    var(out, b"inner");
    out.extend_from_slice(b", currentColor");
    var(out, b"outer");
    out.extend_from_slice(b", transparent");
    var(out, b"outer");
    out.extend_from_slice(
        b");
  border-image-slice: 0 fill;
  border-image-width: 0;
",
    );
    if kind == UnitKind::Length {
        let largest = tracks
            .iter()
            .flat_map(|x| x.iter())
            .fold(0.0f64, |m, &r| m.max(r.abs()));
        out.extend_from_slice(b"  border-image-outset: ");
        write_fixed(out, largest, decimals);
        out.extend_from_slice(unit);
        out.extend_from_slice(
            b";
",
        );
    }
}

/// Writes `@keyframes <name>` with a stop per stop of `fit`, each declaring every track (the
/// fit's values in the tracks' units: ` <before><w><after>;`, a declaration without a
/// `before` continuing the one before it, as the y of `translate: x y`); returns the number
/// of stops.
pub(super) fn keyframes(
    out: &mut Vec<u8>,
    name: &[u8],
    fit: &Fit,
    declarations: &[&Declaration],
) -> usize {
    out.extend_from_slice(b"@keyframes ");
    out.extend_from_slice(name);
    out.extend_from_slice(b" {\n");
    for k in 0..fit.len() {
        out.extend_from_slice(b"  ");
        fit.inputs[k].write(out);
        out.extend_from_slice(b"% {");
        for (j, declaration) in declarations.iter().enumerate() {
            out.push(b' ');
            out.extend_from_slice(&declaration.before);
            fit.value(k, j).write(out);
            out.extend_from_slice(&declaration.after);
            if !declarations
                .get(j + 1)
                .is_some_and(|next| next.before.is_empty())
            {
                out.push(b';');
            }
        }
        out.extend_from_slice(b" }\n");
    }
    out.extend_from_slice(b"}\n");
    fit.len()
}

/// Appends `<before><x><after>;` for a value given as a double, with `decimals` decimals.
pub(super) fn declare_value(out: &mut Vec<u8>, declaration: &Declaration, x: f64, decimals: u32) {
    out.extend_from_slice(&declaration.before);
    write_fixed(out, x, decimals);
    out.extend_from_slice(&declaration.after);
    out.push(b';');
}

/// Writes `<property>: var(--<name>-<end>, <value>);`: an end of a progress curve's
/// `@keyframes` that an element may set (`--card-drop-from: 40px`), for `translate`, `scale`,
/// `rotate` and `opacity` (not a custom property: see `property_css`). The easing is the
/// motion's progress, so the curve between any two ends is the baked one stretched: exact for
/// a spring baked with no initial velocity (x = to + (from - to)·s(t)); with one, its velocity
/// scales with the distance.
pub(super) fn declare_end(
    out: &mut Vec<u8>,
    declaration: &Declaration,
    (name, end): (&[u8], &[u8]),
    x: f64,
    decimals: u32,
) {
    out.extend_from_slice(&declaration.before);
    out.extend_from_slice(b"var(--");
    out.extend_from_slice(name);
    out.push(b'-');
    out.extend_from_slice(end);
    out.extend_from_slice(b", ");
    write_fixed(out, x, decimals);
    out.extend_from_slice(&declaration.after);
    out.extend_from_slice(b");");
}
