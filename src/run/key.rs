//! The run key: every setting a bake's outputs depend on besides its inputs, as the bytes the
//! manifest's hashes start from. A motion whose spec is unchanged under the same key has the
//! same outputs; any other key bakes everything again.
//!
//! It has two parts: what each output says of a motion (the tool, the export settings, the
//! frame rate) and which outputs there are (the layout and the formats). A motion unchanged
//! under the first part still has the files of formats a bake leaves out right.

use crate::options::BakeOptions;
use crate::output::manifest::tool;
use curvebake_export::{ExportSettings, Format, Layout};

/// The key of a bake, in its two parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunKey {
    /// What each output says of a motion: the tool (version and source hash), the export
    /// settings and the frame rate override.
    pub content: Vec<u8>,
    /// Which outputs are made: the layout and the formats (as a set).
    pub outputs: Vec<u8>,
}

impl RunKey {
    /// Both parts, one after the other.
    pub fn whole(&self) -> Vec<u8> {
        [&self.content[..], &self.outputs[..]].concat()
    }
}

/// The key of a bake with `options`, each field in a fixed binary form (text length-prefixed,
/// floats by their bits), so that two different settings never give the same bytes.
///
/// Every field of [`BakeOptions`] and [`ExportSettings`] is named here, so that a new one does
/// not compile until it is either added to the key or said not to change any output.
pub fn run_key(options: &BakeOptions) -> RunKey {
    let BakeOptions {
        inputs: _,
        out: _,
        fps,
        check: _,
        layout,
        jobs: _,
        formats,
        settings,
        force: _,
    } = options;
    let ExportSettings {
        css_tolerance,
        plot_size: (width, height),
        prefix,
        css_frames,
    } = settings;
    let mut content = Vec::new();
    text(&mut content, &tool());
    content.extend_from_slice(&css_tolerance.to_bits().to_le_bytes());
    content.extend_from_slice(&width.to_le_bytes());
    content.extend_from_slice(&height.to_le_bytes());
    text(&mut content, prefix);
    content.push(u8::from(*css_frames));
    match fps {
        None => content.push(0),
        Some(fps) => {
            content.push(1);
            content.extend_from_slice(&fps.to_bits().to_le_bytes());
        }
    }
    let mut outputs = vec![match layout {
        Layout::PerMotion => 0,
        Layout::Bundle => 1,
    }];
    let mut formats = formats.clone();
    formats.sort();
    formats.dedup();
    outputs.push(formats.len() as u8);
    for format in formats {
        text(&mut outputs, Format::name(format));
    }
    RunKey { content, outputs }
}

/// Appends `s`, length first.
fn text(key: &mut Vec<u8>, s: &str) {
    key.extend_from_slice(&(s.len() as u64).to_le_bytes());
    key.extend_from_slice(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_of_the_outputs_changes_the_key_and_nothing_else_does() {
        let base = BakeOptions::default();
        let key = run_key(&base);
        let changed = [
            BakeOptions {
                layout: Layout::Bundle,
                ..base.clone()
            },
            BakeOptions {
                formats: vec![Format::Json],
                ..base.clone()
            },
            BakeOptions {
                fps: Some(60.0),
                ..base.clone()
            },
            BakeOptions {
                fps: Some(30.0),
                ..base.clone()
            },
            BakeOptions {
                settings: ExportSettings {
                    css_tolerance: 0.5,
                    ..base.settings.clone()
                },
                ..base.clone()
            },
            BakeOptions {
                settings: ExportSettings {
                    plot_size: (800, 1200),
                    ..base.settings.clone()
                },
                ..base.clone()
            },
            BakeOptions {
                settings: ExportSettings {
                    css_frames: true,
                    ..base.settings.clone()
                },
                ..base.clone()
            },
            BakeOptions {
                settings: ExportSettings {
                    prefix: "cb-".into(),
                    ..base.settings.clone()
                },
                ..base.clone()
            },
        ];
        let keys: Vec<RunKey> = changed.iter().map(run_key).collect();
        for (k, a) in keys.iter().enumerate() {
            assert_ne!(a.whole(), key.whole(), "{:?}", changed[k]);
            assert!(
                keys[k + 1..].iter().all(|b| b.whole() != a.whole()),
                "{:?}",
                changed[k]
            );
            // The layout and the formats (the first two) choose outputs, not what they say.
            assert_eq!(a.content == key.content, k < 2, "{:?}", changed[k]);
        }
        let same = BakeOptions {
            jobs: Some(1),
            check: true,
            force: true,
            out: "elsewhere".into(),
            inputs: vec!["other".into()],
            formats: base
                .formats
                .iter()
                .rev()
                .chain(&base.formats)
                .copied()
                .collect(),
            ..base.clone()
        };
        assert_eq!(run_key(&same), key);
    }
}
