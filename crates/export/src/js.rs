//! ES modules for the Web Animations API: `js/<name>.js` per motion, with its types in
//! `js/<name>.d.ts`, and the package around them: `js/package.json` (`type: module`,
//! `sideEffects: false`, `exports`), `js/index.js` (every motion as a namespace) and
//! `js/motion.d.ts` (the shared `Motion` type). Per-motion layout only: with `--bundle` this
//! format writes nothing.
//!
//! A module exports the keyframes (`element.animate(keyframes, timing)` plays the motion as
//! baked: one keyframe per stop of the fitting core ([`fit`](crate::fit)), whose straight lines stay
//! within the motion's tolerance of its closed form at every instant, with one at each join
//! of its closed forms, valued by them there (a hand-off or a bound hit between two frames,
//! as in the CSS), `offset` = t/D, linear in between), the position table per track (a `Float32Array` in
//! float32's shortest digits, or a `Float64Array` where float32 would move a value by more
//! than the keyframes' rounding) and the velocity table in the same type, with `joins` and
//! `valueAt`, which reads the tables between frames by cubic Hermite ([`joins::of_tracks`](crate::joins::of_tracks)), the
//! duration in seconds and milliseconds, the frame rate,
//! the `linear()` easing and the reduced-motion policy. Custom properties (a `--name`
//! property, or a ring's `--<name>-inner` and `--<name>-outer`) only interpolate once
//! registered, so the module registers them with `CSS.registerProperty` as it makes its
//! keyframes (on import); a property that is already registered (by another import, or by an
//! `@property` rule of the same name in the stylesheet) is left as it is. That call and the
//! typed arrays are marked `/* @__PURE__ */`: nothing else runs on import, so a bundler drops
//! whatever is not used.
//!
//! Keyframe values are written with `write_fixed` (like the CSS exporter), float64 table
//! values with [`write_json_f64`](curvebake_model::number::write_json_f64) (shortest round trip, like the JSON tables).
//!
//! This module is the exporter; the work is in four: `module` (one motion's module), `types`
//! (its `.d.ts` and the shared `motion.d.ts`), `package` (`package.json` and the index) and
//! `play` (a module's `play` and the runtime it imports).

mod module;
mod package;
mod play;
mod types;

pub use module::{
    custom_properties, module, needs_float64, value_unit, CustomProperty, OFFSET_DECIMALS,
    OFFSET_MAX_SHIFT,
};
pub use package::{INDEX_PATH, INDEX_TYPES_PATH, PACKAGE_JSON, PACKAGE_PATH};
pub use play::{playable, Playable, CHORD_SHARE, RUNTIME, RUNTIME_PATH};
pub use types::{types, MOTION_TYPES, MOTION_TYPES_PATH};

use crate::exporter::{
    Buffers, Digest, Exporter, FilePath, MotionOutput, OutputFile, Shape, Summary,
};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;

/// The ES module exporter.
#[derive(Debug, Clone)]
pub struct Js {
    shape: Shape,
    settings: ExportSettings,
}

impl Js {
    /// The exporter for `layout`: a module and its types per motion and the package files,
    /// nothing with `--bundle`. The tolerance of `settings` thins the keyframes as it thins
    /// the CSS.
    pub fn new(layout: Layout, settings: &ExportSettings) -> Self {
        let (files, summary, summaries): (&[FilePath], _, &[&str]) = match layout {
            Layout::PerMotion => (&[MODULE, TYPES], Summary::Digests, &package::FILES),
            Layout::Bundle => (&[], Summary::None, &[]),
        };
        Self {
            shape: Shape {
                files,
                bundle: None,
                summary,
                summaries,
            },
            settings: settings.clone(),
        }
    }
}

/// Where one motion's module goes.
const MODULE: FilePath = FilePath {
    folder: "js",
    suffix: ".js",
};

/// Where one motion's type declarations go.
const TYPES: FilePath = FilePath {
    folder: "js",
    suffix: ".d.ts",
};

impl Exporter for Js {
    fn format(&self) -> Format {
        Format::Js
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn motion(&self, baked: &Baked, _: &[String], _: &dyn Buffers) -> MotionOutput {
        if self.shape.files.is_empty() {
            return MotionOutput::default();
        }
        let (module, warnings) = module::fitted_module(baked, &self.settings);
        MotionOutput {
            files: vec![module, types(baked)],
            warnings,
            ..Default::default()
        }
    }

    fn summary(&self, digests: &[Digest]) -> Vec<OutputFile> {
        if self.shape.summary == Summary::None {
            return Vec::new();
        }
        package::files(digests)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exporter::New;
    use crate::test_spec as spec;

    #[test]
    fn a_bundle_gets_no_modules() {
        let spec = spec(r#"(name: "a", duration: 0.1, motion: Gravity(from: 0, acceleration: 1))"#);
        let baked = curvebake_model::bake::bake(&spec).unwrap();
        let settings = ExportSettings::default();
        assert_eq!(
            Js::new(Layout::Bundle, &settings).motion(&baked, &[], &New),
            MotionOutput::default()
        );
        assert!(Js::new(Layout::Bundle, &settings).summary(&[]).is_empty());
        let js = Js::new(Layout::PerMotion, &settings);
        let files = js.motion(&baked, &[], &New).files;
        let paths: Vec<_> = js.shape().files.iter().map(|f| f.of("a")).collect();
        assert_eq!(paths, ["js/a.js", "js/a.d.ts"]);
        assert_eq!(files.len(), paths.len());
        let summary: Vec<_> = js.summary(&[]).into_iter().map(|f| f.path).collect();
        assert_eq!(
            summary,
            [
                PACKAGE_PATH,
                MOTION_TYPES_PATH,
                INDEX_PATH,
                INDEX_TYPES_PATH,
                RUNTIME_PATH
            ]
        );
    }
}
