//! Exporters: one per output format, each turning baked motions into bytes. None of them
//! touches the file system; [`crate::output::write`] is the one place that does.

pub mod css;
pub mod done;
pub(crate) mod easing;
pub mod html;
pub mod js;
pub mod json;
pub(crate) mod number;
#[cfg(feature = "plots")]
mod plot;
pub mod png;
pub mod pool;

/// An output format, as named by `--formats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// JSON lookup tables.
    Json,
    /// CSS @keyframes and easings.
    Css,
    /// PNG plots.
    Png,
    /// The HTML review page.
    Html,
    /// ES modules for the Web Animations API.
    Js,
}

impl Format {
    /// Every format, in the order they are exported.
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Css,
        Format::Png,
        Format::Html,
        Format::Js,
    ];

    /// The name used by `--formats`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Css => "css",
            Self::Png => "png",
            Self::Html => "html",
            Self::Js => "js",
        }
    }

    /// Whether this build can write the format: PNG plots need the `plots` feature.
    pub fn is_built(self) -> bool {
        self != Self::Png || cfg!(feature = "plots")
    }

    /// Every format this build can write: the default of a bake.
    pub fn built() -> Vec<Format> {
        Self::ALL.into_iter().filter(|f| f.is_built()).collect()
    }

    /// Parses a `--formats` name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Settings of the exporters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExportSettings {
    /// CSS stops may be dropped while linear interpolation stays within this (0: keep all).
    pub css_tolerance: f64,
    /// Plot size in pixels (width, height).
    pub plot_size: (u32, u32),
}

impl Default for ExportSettings {
    fn default() -> Self {
        Self {
            css_tolerance: 0.0,
            plot_size: (1200, 800),
        }
    }
}

/// The exporters for `formats`, in the order of [`Format::ALL`], leaving out those this build
/// lacks ([`Format::is_built`]; [`crate::Bake`] refuses to run with them).
pub fn exporters(formats: &[Format], settings: &ExportSettings) -> Vec<Box<dyn Exporter>> {
    let mut formats = formats.to_vec();
    formats.sort();
    formats.dedup();
    formats
        .into_iter()
        .filter(|f| f.is_built())
        .map(|f| -> Box<dyn Exporter> {
            match f {
                Format::Json => Box::new(json::Json),
                Format::Css => Box::new(css::Css::new(settings)),
                #[cfg(feature = "plots")]
                Format::Png => Box::new(png::Png::new(settings)),
                #[cfg(not(feature = "plots"))]
                Format::Png => unreachable!("png is not built without the plots feature"),
                Format::Html => Box::new(html::Html::new(settings)),
                Format::Js => Box::new(js::Js),
            }
        })
        .collect()
}

use crate::bake::Baked;
use crate::spec::ParamGroup;

/// How outputs are laid out under the output folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// One file per motion and format (`json/<name>.json`, `css/<name>.css`, ...), plus indexes.
    #[default]
    PerMotion,
    /// Only `curves.json` and `curves.css`, each holding every motion in input order.
    Bundle,
}

/// One output file: a path relative to the output folder (always `/`-separated, built from
/// validated names) and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Relative path.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// A file that gathers one chunk per motion, in input order, streamed as motions are baked:
/// `header chunk (separator chunk)* footer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// Relative path.
    pub path: String,
    /// Bytes before the first chunk.
    pub header: Vec<u8>,
    /// Bytes between chunks.
    pub separator: Vec<u8>,
    /// Bytes after the last chunk.
    pub footer: Vec<u8>,
}

/// What an exporter makes of one motion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MotionOutput {
    /// Files of this motion alone.
    pub files: Vec<OutputFile>,
    /// This motion's chunk of the exporter's [`Bundle`], if it has one.
    pub chunk: Option<Vec<u8>>,
    /// Format-specific figures for the summary (e.g. CSS stops before and after tolerance).
    pub stats: Vec<(&'static str, u64)>,
}

/// Points kept per track in a [`Digest`] preview (for contact sheets and indexes).
pub const PREVIEW_POINTS: usize = 120;

/// A small, bounded record of one baked motion, kept for the files that describe the whole
/// bake (indexes, review page, contact sheet) so that the full frames need not be.
#[derive(Debug, Clone, PartialEq)]
pub struct Digest {
    /// Motion name.
    pub name: String,
    /// Kind (`spring`, ...).
    pub kind: &'static str,
    /// Property name.
    pub property: String,
    /// Unit.
    pub unit: String,
    /// Frames per second.
    pub fps: f64,
    /// Bake length in seconds.
    pub duration: f64,
    /// Frame count.
    pub frames: usize,
    /// Resolved parameters.
    pub params: Vec<ParamGroup>,
    /// Relative paths of this motion's own files, every format.
    pub files: Vec<String>,
    /// Per track: name and up to [`PREVIEW_POINTS`] evenly picked (time, position) frames.
    pub preview: Vec<(&'static str, Vec<(f64, f64)>)>,
    /// Per track, the value it rests at or arrives at (empty when it has none).
    pub ends: Vec<f64>,
    /// When the motion looks done ([`done::looks_done`]), if it has an end value.
    pub looks_done: Option<f64>,
    /// Whether the bake ran until the motion provably rests (then at `duration`).
    pub rests: bool,
}

impl Digest {
    /// The digest of a baked motion (its files are filled in by the pipeline), with a preview
    /// only when `preview` is set (the contact sheet needs it; nothing else does, and a bake of
    /// many motions should not hold one per motion for nothing).
    pub fn of(baked: &Baked, preview: bool) -> Self {
        let spec = baked.spec;
        let frames = baked.frames();
        let preview = if preview {
            let step = frames.div_ceil(PREVIEW_POINTS).max(1);
            let picks: Vec<usize> = (0..frames)
                .step_by(step)
                .chain(std::iter::once(frames - 1))
                .collect();
            let points = |t: &crate::bake::Track| {
                picks
                    .iter()
                    .map(|&i| (baked.time(i), t.position[i]))
                    .collect()
            };
            baked.tracks.iter().map(|t| (t.name, points(t))).collect()
        } else {
            Vec::new()
        };
        Self {
            name: spec.name.clone(),
            kind: spec.model.kind(),
            property: spec.property.name().to_owned(),
            unit: spec.unit.clone(),
            fps: spec.fps,
            duration: baked.duration,
            frames,
            params: spec.model.params(),
            files: Vec::new(),
            preview,
            ends: spec.model.end_values(),
            looks_done: done::looks_done(baked),
            rests: spec.ending == crate::spec::Ending::Rests,
        }
    }
}

/// One output format.
pub trait Exporter: Send + Sync {
    /// Short name used by `--formats` (`json`, `css`, `png`, `html`).
    fn name(&self) -> &'static str;
    /// The streamed file gathering every motion, if this format has one in `layout`.
    fn bundle(&self, layout: Layout) -> Option<Bundle> {
        let _ = layout;
        None
    }
    /// Whether [`Exporter::summary`] reads the digests' previews (so they are kept).
    fn needs_preview(&self) -> bool {
        false
    }
    /// Relative paths of the files [`Exporter::motion`] writes for the motion `name` alone.
    fn files(&self, name: &str, layout: Layout) -> Vec<String> {
        let _ = (name, layout);
        Vec::new()
    }
    /// Files and bundle chunk of one motion. `files` lists the motion's own files in every
    /// format of this bake (for an index that points at them).
    fn motion(&self, baked: &Baked, layout: Layout, files: &[String]) -> MotionOutput;
    /// Whether [`Exporter::summary`] writes anything in `layout` (so digests are kept).
    fn summarizes(&self, layout: Layout) -> bool {
        let _ = layout;
        false
    }
    /// Files describing the whole bake, written after every motion.
    fn summary(&self, digests: &[Digest], layout: Layout) -> Vec<OutputFile> {
        let _ = (digests, layout);
        Vec::new()
    }
}
