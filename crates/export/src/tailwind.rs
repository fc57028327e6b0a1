//! Tailwind v4: `tailwind.css`, every motion in input order, to `@import` after Tailwind.
//!
//! Tailwind v4 reads its theme from CSS: a `--ease-<name>` variable in `@theme` makes the
//! utility `ease-<name>` (`transition-timing-function`), an `--animate-<name>` the utility
//! `animate-<name>` (`animation`). Each motion is written as its CSS (the [`crate::css`]
//! exporter's: duration and easing variables, `@keyframes`, ready class, reduced-motion
//! rules), then an `@theme inline` block naming it for Tailwind:
//!
//! * `--ease-<name>: var(--<name>-easing)` for a motion with an easing (a multi-track
//!   motion: `--ease-<name>-<property>` per track with one);
//! * `@utility animate-<name>`: the ready class's own declarations (its `animation` list, a
//!   spring's velocity animation and `animation-composition` among them) and, nested in
//!   `@media (prefers-reduced-motion: reduce)`, what reduced motion sets on it, so that
//!   `animate-<name>` plays what the class `.<name>` plays, with its variants (`hover:`,
//!   `motion-safe:`). A theme's `--animate-<name>` could not: it holds one `animation`
//!   value and no composition, so it dropped the velocity (`--<name>-velocity`). A ring gets
//!   none: its class, which draws the ring, is what plays it;
//! * `@utility duration-<name>`: `transition-duration: var(--<name>-duration)` beside each
//!   `ease-<name>`, the duration its easing is the motion over (`transition ease-card-drop`
//!   alone plays it in Tailwind's default 150 ms); reduced motion's `0s` comes with it.
//!
//! `inline` makes Tailwind write the value into each utility instead of a variable of its
//! own: the values are references to variables the motion's CSS sets on `:root` (and sets
//! again under `prefers-reduced-motion`), so they are resolved where the element is. Names
//! carry the prefix (`--prefix`) as the CSS does: `animate-<prefix><name>`.

use crate::css::motion_css;
use crate::exporter::{Buffers, Bundle, Exporter, MotionOutput, Shape, Summary};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;

/// Path of the theme.
pub const BUNDLE_PATH: &str = "tailwind.css";

/// First bytes of [`BUNDLE_PATH`].
const HEADER: &[u8] = b"/* curvebake: every motion as a Tailwind v4 theme, in input order. \
@import this file after \"tailwindcss\"; use animate-<name>, or ease-<name> with \
duration-<name>. \
Generated; do not edit. */\n\n";

/// The Tailwind exporter.
#[derive(Debug, Clone)]
pub struct Tailwind {
    settings: ExportSettings,
    shape: Shape,
}

impl Tailwind {
    /// An exporter with these settings: `tailwind.css` (the same in both layouts; the bundle
    /// layout writes only JSON and CSS).
    pub fn new(_: Layout, settings: &ExportSettings) -> Self {
        Self {
            settings: settings.clone(),
            shape: Shape {
                files: &[],
                bundle: Some(Bundle {
                    path: BUNDLE_PATH.into(),
                    header: HEADER.to_vec(),
                    separator: b"\n".to_vec(),
                    footer: Vec::new(),
                }),
                summary: Summary::None,
                summaries: &[],
            },
        }
    }
}

impl Exporter for Tailwind {
    fn format(&self) -> Format {
        Format::Tailwind
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, _: &[String], buffers: &dyn Buffers) -> MotionOutput {
        let (mut out, written) = motion_css(baked, &self.settings, buffers);
        let global = self.settings.global_name(&baked.spec.name);
        let eased: Vec<&[u8]> = (written.animations.iter())
            .filter(|a| a.eased)
            .map(|a| a.name.as_slice())
            .collect();
        let warnings = clashes(&global, &eased);
        let rules = (!written.animations.is_empty()).then(|| class_rules(&out, &global));
        if !eased.is_empty() {
            out.extend_from_slice(b"@theme inline {\n");
            for name in &eased {
                out.extend_from_slice(b"  --ease-");
                out.extend_from_slice(name);
                out.extend_from_slice(b": var(--");
                out.extend_from_slice(name);
                out.extend_from_slice(b"-easing);\n");
            }
            out.extend_from_slice(b"}\n");
        }
        if let Some((class, reduced)) = rules {
            out.extend_from_slice(b"@utility animate-");
            out.extend_from_slice(global.as_bytes());
            out.extend_from_slice(b" {\n");
            out.extend_from_slice(&class);
            if !reduced.is_empty() {
                out.extend_from_slice(b"  @media (prefers-reduced-motion: reduce) {\n");
                out.extend_from_slice(&reduced);
                out.extend_from_slice(b"  }\n");
            }
            out.extend_from_slice(b"}\n");
        }
        for name in eased {
            // As Tailwind's own `duration-*`: `transition` reads `--tw-duration`.
            out.extend_from_slice(b"@utility duration-");
            out.extend_from_slice(name);
            for declared in [
                &b" {\n  --tw-duration: var(--"[..],
                b";\n  transition-duration: var(--",
            ] {
                out.extend_from_slice(declared);
                out.extend_from_slice(name);
                out.extend_from_slice(b"-duration)");
            }
            out.extend_from_slice(b";\n}\n");
        }
        MotionOutput {
            files: Vec::new(),
            chunk: Some(out),
            stats: Vec::new(),
            warnings,
        }
    }
}

/// Tailwind's own animations (v4: `--animate-*` of its theme with the `@keyframes` of the
/// same name, and the static `animate-none`).
const TAILWIND_ANIMATIONS: [&str; 5] = ["spin", "ping", "pulse", "bounce", "none"];

/// Tailwind's own easings (v4: `--ease-*` of its theme, and the static `ease-linear` and
/// `ease-initial`, which also makes `duration-initial`).
const TAILWIND_EASINGS: [&str; 5] = ["in", "out", "in-out", "linear", "initial"];

/// Warnings for names of a motion whose global name is `global`, and of its eased tracks,
/// that Tailwind has already: Tailwind writes its own after the theme's, so its animation
/// wins (and its `@keyframes` replace the motion's, which the class `.<name>` plays too),
/// and an easing of the theme replaces Tailwind's across the app.
fn clashes(global: &str, eased: &[&[u8]]) -> Vec<String> {
    let mut warnings = Vec::new();
    if TAILWIND_ANIMATIONS.contains(&global) {
        warnings.push(format!(
            "Tailwind has its own animate-{global} (and @keyframes {global}), which win over \
             this motion's: its utility and its class play Tailwind's; bake with --prefix \
             (as --prefix ui-) or rename it"
        ));
    }
    for name in TAILWIND_EASINGS
        .iter()
        .filter(|e| eased.contains(&e.as_bytes()))
    {
        warnings.push(format!(
            "Tailwind has its own ease-{name}: this motion's --ease-{name} replaces it in every \
             utility of the app; bake with --prefix (as --prefix ui-) or rename it if that is \
             not meant"
        ));
    }
    warnings
}

/// The declarations of the class `.<name>` in the motion's `css` (the CSS exporter's text,
/// the one account of what the class plays): those of its rule, each line as written, and
/// those reduced motion sets on it (its one-line rules `  .<name> { ... }` inside
/// `@media (prefers-reduced-motion: reduce)`), one a line; each indented for a utility's
/// body and its nested `@media`.
fn class_rules(css: &[u8], name: &str) -> (Vec<u8>, Vec<u8>) {
    let css = std::str::from_utf8(css).expect("CSS is UTF-8");
    let open = format!(".{name} {{");
    let reduced_open = format!("  .{name} {{ ");
    let (mut class, mut reduced) = (Vec::new(), Vec::new());
    let mut lines = css.lines();
    let mut in_reduced = false;
    while let Some(line) = lines.next() {
        if line == open {
            for body in lines.by_ref().take_while(|l| *l != "}") {
                class.extend_from_slice(body.as_bytes());
                class.push(b'\n');
            }
        } else if line.starts_with("@media ") {
            in_reduced = line == "@media (prefers-reduced-motion: reduce) {";
        } else if let Some(body) = line.strip_prefix(&reduced_open) {
            let body = body.strip_suffix(" }").expect("a one-line rule");
            debug_assert!(
                in_reduced,
                "{line}: a rule of the class outside reduced motion"
            );
            reduced.extend_from_slice(b"    ");
            reduced.extend_from_slice(body.as_bytes());
            reduced.push(b'\n');
        }
    }
    (class, reduced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exporter::New;
    use curvebake_model::bake::bake;
    use curvebake_model::source::parse_bytes;
    use curvebake_model::spec::{MotionSpec, Overrides};
    use std::path::Path;

    /// A motion's Tailwind output.
    fn output(ron: &str, prefix: &str) -> MotionOutput {
        let file = &parse_bytes(Path::new("t.ron"), ron.as_bytes()).unwrap()[0];
        let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
        let baked = bake(&spec).unwrap();
        let settings = ExportSettings {
            prefix: prefix.into(),
            ..ExportSettings::default()
        };
        Tailwind::new(Layout::PerMotion, &settings).motion(&baked, &[], &New)
    }

    /// The part of a motion's theme after its CSS (from `@theme`, or from `@utility`).
    fn theme(ron: &str, prefix: &str) -> String {
        let text = String::from_utf8(output(ron, prefix).chunk.unwrap()).unwrap();
        let start = text
            .find("@theme")
            .or_else(|| text.find("@utility"))
            .unwrap();
        text[start..].to_owned()
    }

    #[test]
    fn names_tailwind_has_already_are_warned_of_unless_prefixed() {
        let spring = |name: &str| {
            format!(
                r#"(name: "{name}", motion: Spring(from: 0, to: 1, stiffness: 300, damping: 20))"#
            )
        };
        let warnings = |name: &str, prefix: &str| output(&spring(name), prefix).warnings;
        let [bounce] = &warnings("bounce", "")[..] else {
            panic!("{:?}", warnings("bounce", ""))
        };
        assert!(
            bounce.contains("animate-bounce") && bounce.contains("--prefix"),
            "{bounce}"
        );
        let [in_out] = &warnings("in-out", "")[..] else {
            panic!("{:?}", warnings("in-out", ""))
        };
        assert!(in_out.contains("ease-in-out"), "{in_out}");
        for (name, prefix) in [
            ("bounce", "ui-"),
            ("in-out", "ui-"),
            ("bouncy", ""),
            ("out-in", ""),
        ] {
            assert_eq!(
                warnings(name, prefix),
                Vec::<String>::new(),
                "{prefix}{name}"
            );
        }
    }

    #[test]
    fn a_spring_names_its_easing_and_its_utility_plays_its_class_velocity_included() {
        let ron = r#"(name: "pop", motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20),
            css_velocity: true)"#;
        let text = theme(ron, "ui-");
        assert!(
            text.starts_with("@theme inline {\n  --ease-ui-pop: var(--ui-pop-easing);\n}\n"),
            "{text}"
        );
        let utility = &text[text.find("@utility").unwrap()..];
        assert_eq!(
            utility,
            "@utility animate-ui-pop {\n  animation: ui-pop var(--ui-pop-duration) \
             var(--ui-pop-easing) both,\n    ui-pop-velocity var(--ui-pop-duration) \
             var(--ui-pop-velocity-easing) backwards;\n  animation-composition: replace, add;\n  \
             @media (prefers-reduced-motion: reduce) {\n    animation-duration: 0s;\n  }\n}\n\
             @utility duration-ui-pop {\n  --tw-duration: var(--ui-pop-duration);\n  \
             transition-duration: var(--ui-pop-duration);\n}\n"
        );
    }

    #[test]
    fn a_motion_without_an_easing_animates_linearly_and_has_no_ease_utility() {
        let ron = r#"(name: "fall", duration: 0.5, motion: Gravity(from: 0, acceleration: 100))"#;
        assert_eq!(
            theme(ron, ""),
            "@utility animate-fall {\n  animation: fall var(--fall-duration) linear both;\n  \
             @media (prefers-reduced-motion: reduce) {\n    animation-duration: 0s;\n  }\n}\n"
        );
    }

    #[test]
    fn reduced_motion_s_fade_is_nested_in_the_utility() {
        let ron = "(name: \"m\", property: \"scale\", reduced_motion: \"fade\", \
                   motion: Spring(from: 0.9, to: 1, stiffness: 300, damping: 30))";
        assert_eq!(
            theme(ron, ""),
            "@theme inline {\n  --ease-m: var(--m-easing);\n}\n@utility animate-m {\n  \
             animation: m var(--m-duration) var(--m-easing) backwards;\n  \
             @media (prefers-reduced-motion: reduce) {\n    animation: m 0s backwards, \
             m-fade 0.2s ease-out backwards;\n  }\n}\n\
             @utility duration-m {\n  --tw-duration: var(--m-duration);\n  \
             transition-duration: var(--m-duration);\n}\n"
        );
    }
}
