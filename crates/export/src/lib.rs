//! curvebake's exporters: one per output format, each pure, turning a baked motion (or the
//! digests of a whole bake) into bytes ([`Exporter`]). None of them touches the file system;
//! the `curvebake` crate's output folder is the one place that does.
//!
//! Formats: [`json`] tables, [`css`] (keyframes, `linear()` easings, ready classes), [`js`]
//! ES modules, [`html`] the review page, [`png`] plots (behind the `plots` feature), and the
//! hand-off formats [`tokens`] (DTCG design tokens and a Style Dictionary script),
//! [`tailwind`] (a Tailwind v4 theme) and [`lottie`] (a Lottie layer per motion). Shared by
//! several: [`fit`] (stops placed against the closed form, with a proven bound), [`done`]
//! (when a motion looks done), [`joins`] (where a track is not one smooth closed form, with
//! its state on each side), [`exact`] (a track's exact `linear()` easing with its bound) and
//! [`bezier`] (the single cubic Bézier nearest a motion's progress).

// Tests compute their references with the platform's functions (compared within tolerances,
// never by bytes); the outputs go through `libm` (clippy.toml).
#![cfg_attr(test, allow(clippy::disallowed_methods))]
pub mod bezier;
pub mod css;
pub mod done;
pub mod exact;
pub mod exporter;
pub mod fit;
pub mod html;
pub mod joins;
pub mod js;
pub mod json;
pub mod lottie;
#[cfg(feature = "plots")]
mod plot;
pub mod png;
pub mod preview;
pub mod settings;
pub mod tailwind;
pub mod tokens;

/// The first motion of a curve file's text, resolved (for the crate's unit tests).
#[cfg(test)]
pub(crate) fn test_spec(ron: &str) -> curvebake_model::spec::MotionSpec {
    use curvebake_model::spec::{MotionSpec, Overrides};
    let files =
        curvebake_model::source::parse_bytes(std::path::Path::new("test.ron"), ron.as_bytes())
            .expect("the test's RON parses");
    MotionSpec::from_file(&files[0], Overrides::default()).expect("the test's motion is valid")
}

pub use exporter::{
    Buffers, Bundle, Digest, Exporter, FilePath, JoinKind, MotionOutput, Name, New, OutputFile,
    Shape, Summary, TrackMarks,
};
pub use settings::{ExportSettings, Format, Layout};

/// The exporters for `formats` in `layout`, in the order of [`Format::ALL`], leaving out those
/// this build lacks ([`Format::is_built`]; `curvebake::Bake` refuses to run with them).
pub fn exporters(
    formats: &[Format],
    layout: Layout,
    settings: &ExportSettings,
) -> Vec<Box<dyn Exporter>> {
    let mut formats = formats.to_vec();
    formats.sort();
    formats.dedup();
    formats
        .into_iter()
        .filter(|f| f.is_built())
        .map(|f| -> Box<dyn Exporter> {
            match f {
                Format::Json => Box::new(json::Json::new(layout)),
                Format::Css => Box::new(css::Css::new(layout, settings)),
                #[cfg(feature = "plots")]
                Format::Png => Box::new(png::Png::new(layout, settings)),
                #[cfg(not(feature = "plots"))]
                Format::Png => unreachable!("png is not built without the plots feature"),
                Format::Html => Box::new(html::Html::new(layout, settings)),
                Format::Js => Box::new(js::Js::new(layout, settings)),
                Format::Tokens => Box::new(tokens::Tokens::new(layout, settings)),
                Format::Tailwind => Box::new(tailwind::Tailwind::new(layout, settings)),
                Format::Lottie => Box::new(lottie::Lottie::new(layout, settings)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::bake::bake;
    use curvebake_model::source::parse_bytes;
    use curvebake_model::spec::{MotionSpec, Overrides};
    use std::path::Path;

    /// Every format, in both layouts, returns the bytes of exactly the files its shape
    /// declares, and declares paths under its own folder.
    #[test]
    fn each_format_fills_the_files_its_shape_declares() {
        let ron = r#"(name: "a", duration: 0.1, motion: Gravity(from: 0, acceleration: 1))"#;
        let file = &parse_bytes(Path::new("t.ron"), ron.as_bytes()).unwrap()[0];
        let spec = MotionSpec::from_file(file, Overrides::default()).unwrap();
        let baked = bake(&spec).unwrap();
        for layout in [Layout::PerMotion, Layout::Bundle] {
            let all = exporters(&Format::ALL, layout, &ExportSettings::default());
            assert_eq!(all.len(), Format::built().len());
            for (e, format) in all.iter().zip(Format::built()) {
                assert_eq!(e.format(), format);
                let shape = e.shape();
                let output = e.motion(&baked, &[], &New);
                assert_eq!(
                    output.files.len(),
                    shape.files.len(),
                    "{format:?} {layout:?}"
                );
                assert_eq!(output.chunk.is_some(), shape.bundle.is_some(), "{format:?}");
                for path in shape.files.iter().map(|p| p.of("a")) {
                    assert!(path.starts_with(&format!("{}/a.", format.name())), "{path}");
                }
                for summary in e.summary(&[]) {
                    assert!(
                        shape.summaries.contains(&summary.path.as_str()),
                        "{format:?}"
                    );
                }
                assert_eq!(
                    shape.summaries.is_empty(),
                    shape.summary == Summary::None,
                    "{format:?} {layout:?}"
                );
                if layout == Layout::Bundle {
                    assert!(shape.files.is_empty() && shape.summary == Summary::None);
                }
            }
        }
    }
}
