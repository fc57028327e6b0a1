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
//! * `--animate-<name>`: the ready class's `animation` list, so `animate-<name>` plays what
//!   the class `.<name>` plays, with its duration variable (reduced motion included). A ring
//!   gets none: its class, which draws the ring, is what plays it.
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
@import this file after \"tailwindcss\"; use animate-<name> and ease-<name>. \
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
        out.extend_from_slice(b"@theme inline {\n");
        for animation in written.animations.iter().filter(|a| a.eased) {
            out.extend_from_slice(b"  --ease-");
            out.extend_from_slice(&animation.name);
            out.extend_from_slice(b": var(--");
            out.extend_from_slice(&animation.name);
            out.extend_from_slice(b"-easing);\n");
        }
        if !written.animations.is_empty() {
            out.extend_from_slice(b"  --animate-");
            out.extend_from_slice(global.as_bytes());
            out.extend_from_slice(b":");
            for (i, animation) in written.animations.iter().enumerate() {
                out.extend_from_slice(if i == 0 { b" " } else { b", " });
                animation.write(&mut out);
            }
            out.extend_from_slice(b";\n");
        }
        out.extend_from_slice(b"}\n");
        MotionOutput {
            files: Vec::new(),
            chunk: Some(out),
            stats: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exporter::New;
    use curvebake_model::bake::bake;
    use curvebake_model::source::parse_bytes;
    use curvebake_model::spec::{MotionSpec, Overrides};
    use std::path::Path;

    fn theme(ron: &str, prefix: &str) -> String {
        let file = &parse_bytes(Path::new("t.ron"), ron.as_bytes()).unwrap()[0];
        let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
        let baked = bake(&spec).unwrap();
        let settings = ExportSettings {
            prefix: prefix.into(),
            ..ExportSettings::default()
        };
        let chunk = Tailwind::new(Layout::PerMotion, &settings)
            .motion(&baked, &[], &New)
            .chunk
            .unwrap();
        let text = String::from_utf8(chunk).unwrap();
        text[text.find("@theme").unwrap()..].to_owned()
    }

    #[test]
    fn a_spring_names_its_easing_and_its_animation_for_tailwind_with_the_prefix() {
        let ron = r#"(name: "pop", motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20))"#;
        assert_eq!(
            theme(ron, "ui-"),
            "@theme inline {\n  --ease-ui-pop: var(--ui-pop-easing);\n  --animate-ui-pop: \
             ui-pop var(--ui-pop-duration) var(--ui-pop-easing) both;\n}\n"
        );
    }

    #[test]
    fn a_motion_without_an_easing_animates_linearly_and_has_no_ease_utility() {
        let ron = r#"(name: "fall", duration: 0.5, motion: Gravity(from: 0, acceleration: 100))"#;
        assert_eq!(
            theme(ron, ""),
            "@theme inline {\n  --animate-fall: fall var(--fall-duration) linear both;\n}\n"
        );
    }
}
