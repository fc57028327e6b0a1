//! The options of a bake ([`BakeOptions`]: the CLI's flags, without clap), their ranges and
//! how they are checked, in one place for the builder, the project file and the flags.

use curvebake_export::{ExportSettings, Format, Layout};
use curvebake_model::spec::check_fps;
use std::fmt;
use std::path::PathBuf;

/// Most worker threads a bake starts (`--jobs`): far more than any machine's cores, few enough
/// that starting them takes no time.
pub const MAX_JOBS: usize = 256;

/// Smallest and largest plot side, in pixels.
pub const PLOT_SIDES: std::ops::RangeInclusive<u32> = 200..=8000;

/// Options of a bake (the CLI's flags, without clap).
#[derive(Debug, Clone, PartialEq)]
pub struct BakeOptions {
    /// Files and folders to read `.ron` files from.
    pub inputs: Vec<PathBuf>,
    /// Output folder.
    pub out: PathBuf,
    /// Frame rate for every motion, replacing their own.
    pub fps: Option<f64>,
    /// Compare instead of writing.
    pub check: bool,
    /// Output layout.
    pub layout: Layout,
    /// Worker threads (None: all cores).
    pub jobs: Option<usize>,
    /// Output formats.
    pub formats: Vec<Format>,
    /// Exporter settings.
    pub settings: ExportSettings,
    /// Ignore the manifest: bake and export every motion again.
    pub force: bool,
}

impl Default for BakeOptions {
    fn default() -> Self {
        Self {
            inputs: vec![PathBuf::from("curves")],
            out: PathBuf::from("out"),
            fps: None,
            check: false,
            layout: Layout::PerMotion,
            jobs: None,
            formats: Format::defaults(),
            settings: ExportSettings::default(),
            force: false,
        }
    }
}

impl BakeOptions {
    /// Checks the options that have a range, in the words of both the builder's usage errors
    /// and the project file's (which points at the option's key).
    pub fn check(&self) -> Result<(), OptionError> {
        let o = self;
        if o.formats.is_empty() {
            return Err(OptionError::new(
                "formats",
                format!(
                    "must name at least one format ({}): a bake of none writes nothing",
                    Format::names()
                ),
            ));
        }
        if o.out.as_os_str().is_empty() {
            return Err(OptionError::new(
                "out",
                "must name a folder (\".\" for the current one)".into(),
            ));
        }
        if let Some(missing) = o.formats.iter().find(|f| !f.is_built()) {
            return Err(OptionError::new(
                "formats",
                format!(
                "asks for {}, which needs curvebake's `plots` feature (this build leaves it out)",
                missing.name()
            ),
            ));
        }
        if let Some(fps) = o.fps {
            check_fps(fps).map_err(|m| OptionError::new("fps", m))?;
        }
        match o.jobs {
            Some(0) => return Err(OptionError::new("jobs", "must be at least 1, got 0".into())),
            Some(jobs) if jobs > MAX_JOBS => {
                return Err(OptionError::new(
                    "jobs",
                    format!(
                        "must be at most {MAX_JOBS}, got {jobs} (each thread bakes a motion at a \
                     time; more only contend)"
                    ),
                ))
            }
            _ => {}
        }
        let tolerance = o.settings.css_tolerance;
        if !(tolerance.is_finite() && tolerance >= 0.0) {
            return Err(OptionError::new(
                "css_tolerance",
                format!("must be a number >= 0, got {tolerance}"),
            ));
        }
        if let Err(message) = curvebake_model::spec::check_prefix(&o.settings.prefix) {
            return Err(OptionError::new("prefix", message));
        }
        let (w, h) = o.settings.plot_size;
        if !(PLOT_SIDES.contains(&w) && PLOT_SIDES.contains(&h)) {
            let (low, high) = (PLOT_SIDES.start(), PLOT_SIDES.end());
            return Err(OptionError::new(
                "plot_size",
                format!("must be in {low}..={high} on each side, got {w}x{h}"),
            ));
        }
        Ok(())
    }
}

/// An option out of its range: which option (its key in `curvebake.toml`, as `fps` or
/// `plot_size`) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The option's key.
    pub option: &'static str,
    /// What is wrong (`must be in (0, 1000], got 0`).
    pub message: String,
}

impl OptionError {
    fn new(option: &'static str, message: String) -> Self {
        Self { option, message }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.option, self.message)
    }
}

impl std::error::Error for OptionError {}
