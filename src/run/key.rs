//! The run key: every setting a bake's outputs depend on besides its inputs, as the bytes the
//! manifest's hashes start from. A motion whose spec is unchanged under the same key has the
//! same outputs; any other key bakes everything again.

use crate::options::BakeOptions;
use crate::output::manifest::tool;
use curvebake_export::{ExportSettings, Format, Layout};

/// The key of a bake with `options`: the tool (version and source hash), the layout, the
/// formats (as a set), the export settings and the frame rate override, each field in a fixed
/// binary form (text length-prefixed, floats by their bits), so that two different settings
/// never give the same bytes.
///
/// Every field of [`BakeOptions`] and [`ExportSettings`] is named here, so that a new one does
/// not compile until it is either added to the key or said not to change any output.
pub fn run_key(options: &BakeOptions) -> Vec<u8> {
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
    let mut key = Vec::new();
    text(&mut key, &tool());
    key.push(match layout {
        Layout::PerMotion => 0,
        Layout::Bundle => 1,
    });
    let mut formats = formats.clone();
    formats.sort();
    formats.dedup();
    key.push(formats.len() as u8);
    for format in formats {
        text(&mut key, Format::name(format));
    }
    key.extend_from_slice(&css_tolerance.to_bits().to_le_bytes());
    key.extend_from_slice(&width.to_le_bytes());
    key.extend_from_slice(&height.to_le_bytes());
    text(&mut key, prefix);
    key.push(u8::from(*css_frames));
    match fps {
        None => key.push(0),
        Some(fps) => {
            key.push(1);
            key.extend_from_slice(&fps.to_bits().to_le_bytes());
        }
    }
    key
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
        let keys: Vec<Vec<u8>> = changed.iter().map(run_key).collect();
        for (k, a) in keys.iter().enumerate() {
            assert_ne!(a, &key, "{:?}", changed[k]);
            assert!(keys[k + 1..].iter().all(|b| b != a), "{:?}", changed[k]);
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
