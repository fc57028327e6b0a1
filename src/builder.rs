//! The library's front door: [`Bake`] bakes folders of curve files with the same options and
//! the same code path as `curvebake bake` (for build scripts), and [`Curve`] builds one motion
//! from RON text to sample in code.
//!
//! In a build script (`build.rs`, with `curvebake` under `[build-dependencies]`):
//!
//! ```no_run
//! use curvebake::export::Format;
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     println!("cargo:rerun-if-changed=curves");
//!     let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?).join("motion");
//!     let report = curvebake::Bake::new("curves")
//!         .out(&out)
//!         .formats([Format::Json, Format::Css])
//!         .jobs(2)
//!         .run()?;
//!     if !report.errors.is_empty() {
//!         for e in &report.errors {
//!             println!("cargo:warning={e}");
//!         }
//!         return Err(format!("{} curve errors", report.errors.len()).into());
//!     }
//!     Ok(())
//! }
//! ```
//!
//! One motion, sampled in code:
//!
//! ```
//! use curvebake::Curve;
//! let card = Curve::from_ron(
//!     r#"(name: "card", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26))"#,
//! )?;
//! assert_eq!(card.position(0.0), 0.0);
//! assert!((card.position(2.0) - 100.0).abs() < 0.01);
//! let baked = card.bake()?; // the frames `bake` would write, at the motion's fps
//! assert_eq!(baked.tracks[0].position.last(), Some(&100.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::config::Config;
use crate::options::BakeOptions;
use crate::run::{run, FatalError, Report};
use curvebake_export::{Format, Layout};
use curvebake_model::bake::{bake, BakeError, Baked};
use curvebake_model::error::{InputError, Problem};
use curvebake_model::load::{load_bytes, Loaded};
use curvebake_model::spec::{MotionSpec, Overrides};
use curvebake_motion::Motion;
use std::fmt;
use std::path::{Path, PathBuf};

/// A bake to run: the options of `curvebake bake`, set by method. Defaults are the CLI's:
/// output folder `out`, every format, each motion's own fps, all cores.
///
/// ```no_run
/// use curvebake::{export::Format, Bake};
/// let report = Bake::new("curves").out("site/motion").formats([Format::Js]).run()?;
/// println!("{} motions, {} files written", report.motions, report.written.len());
/// # Ok::<(), curvebake::FatalError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Bake {
    options: BakeOptions,
}

impl Bake {
    /// A bake of the `.ron` files in `input` (a file, or a folder searched recursively).
    pub fn new(input: impl Into<PathBuf>) -> Self {
        Self::from(BakeOptions {
            inputs: vec![input.into()],
            ..BakeOptions::default()
        })
    }

    /// A bake with the options of the project file at `path` (see [`crate::config`]): the
    /// methods called after it override them, as flags override it on the command line.
    pub fn with_config(path: impl AsRef<Path>) -> Result<Self, InputError> {
        Config::read(path.as_ref()).map(|config| Self::from(config.options))
    }

    /// Adds another input file or folder.
    pub fn input(mut self, input: impl Into<PathBuf>) -> Self {
        self.options.inputs.push(input.into());
        self
    }

    /// The output folder (default `out`).
    pub fn out(mut self, dir: impl AsRef<Path>) -> Self {
        self.options.out = dir.as_ref().to_owned();
        self
    }

    /// The output formats (default: json, css, png, html and js, as the CLI's; the hand-off
    /// formats tokens, tailwind and lottie when asked).
    pub fn formats(mut self, formats: impl IntoIterator<Item = Format>) -> Self {
        self.options.formats = formats.into_iter().collect();
        self
    }

    /// Worker threads (default: all cores); must be at least 1.
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.options.jobs = Some(jobs);
        self
    }

    /// A frame rate for every motion, replacing each motion's own `fps`.
    pub fn fps(mut self, fps: f64) -> Self {
        self.options.fps = Some(fps);
        self
    }

    /// Compare instead of writing: the report's `written` then lists what differs.
    pub fn check(mut self, check: bool) -> Self {
        self.options.check = check;
        self
    }

    /// Write only `curves.json` and `curves.css`, each holding every motion (formats other
    /// than JSON and CSS are dropped).
    pub fn bundle(mut self, bundle: bool) -> Self {
        self.options.layout = if bundle {
            Layout::Bundle
        } else {
            Layout::PerMotion
        };
        self
    }

    /// Largest distance, in each motion's unit, of what a browser plays from the motion at any
    /// instant (0: the unit's default).
    pub fn css_tolerance(mut self, tolerance: f64) -> Self {
        self.options.settings.css_tolerance = tolerance;
        self
    }

    /// Put `prefix` before every global name the CSS and JS make (classes, `@keyframes`,
    /// `--<name>-duration`/`-easing` and registered custom properties): `cb-` turns
    /// `.card-drop` into `.cb-card-drop` and `--glow` into `--cb-glow`. A letter, then
    /// letters, digits, `-` and `_`, at most 32 characters; empty (the default) for none.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.options.settings.prefix = prefix.into();
        self
    }

    /// CSS keyframes at the fitted stops with `linear` timing instead of two stops timed by
    /// the `linear()` easing: the fallback for browsers without `linear()`.
    pub fn css_frames(mut self, frames: bool) -> Self {
        self.options.settings.css_frames = frames;
        self
    }

    /// Plot size in pixels, each side in [`PLOT_SIDES`](crate::PLOT_SIDES).
    pub fn plot_size(mut self, width: u32, height: u32) -> Self {
        self.options.settings.plot_size = (width, height);
        self
    }

    /// Bake and export every motion again, ignoring the output folder's manifest.
    pub fn force(mut self, force: bool) -> Self {
        self.options.force = force;
        self
    }

    /// The options as set.
    pub fn options(&self) -> &BakeOptions {
        &self.options
    }

    /// The options a run uses: validated, and in bundle layout without the formats that have
    /// no bundle. Errors name the option.
    pub fn resolved(&self) -> Result<BakeOptions, FatalError> {
        let o = &self.options;
        let usage = |m: String| Err(FatalError::Usage(m));
        if let Err(e) = o.check() {
            return usage(e.to_string());
        }
        if o.inputs.is_empty() {
            return usage("no inputs: give at least one file or folder".into());
        }
        let mut options = o.clone();
        if options.layout == Layout::Bundle {
            options.formats.retain(|f| f.has_bundle());
            if options.formats.is_empty() {
                return usage(
                    "a bundle holds only JSON and CSS (curves.json, curves.css): \
                     ask for json or css with it, or leave out bundle"
                        .into(),
                );
            }
        }
        Ok(options)
    }

    /// Runs the bake.
    pub fn run(&self) -> Result<Report, FatalError> {
        self.run_with_progress(&|_, _| {})
    }

    /// Runs the bake; `progress(done, total)` is called as motions finish (`total`: the motions
    /// read so far, which grows as files are read).
    pub fn run_with_progress(
        &self,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Report, FatalError> {
        run(&self.resolved()?, progress)
    }
}

impl From<BakeOptions> for Bake {
    fn from(options: BakeOptions) -> Self {
        Self { options }
    }
}

/// Errors reading curves from RON text: each is worded like the bake's, with `<ron>` as the
/// file name.
#[derive(Debug, Clone, PartialEq)]
pub struct RonError {
    /// Every error found.
    pub errors: Vec<InputError>,
}

impl fmt::Display for RonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RonError {}

/// The file name RON text is reported under.
const TEXT_FILE: &str = "<ron>";

/// One validated motion, evaluated in closed form at any time or baked into frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    spec: MotionSpec,
}

impl Curve {
    /// The one motion in `text` (a `.ron` file's contents holding exactly one motion).
    pub fn from_ron(text: &str) -> Result<Self, RonError> {
        let mut all = Self::all_from_ron(text)?;
        if all.len() != 1 {
            return Err(RonError {
                errors: vec![InputError::new(
                    Path::new(TEXT_FILE),
                    Problem::Read(format!(
                        "holds {} motions, expected one (use Curve::all_from_ron for a list)",
                        all.len()
                    )),
                )],
            });
        }
        Ok(all.remove(0))
    }

    /// Every motion in `text` (one motion or a list), validated; all errors if any is invalid.
    pub fn all_from_ron(text: &str) -> Result<Vec<Self>, RonError> {
        let Loaded { inputs, errors, .. } =
            load_bytes(Path::new(TEXT_FILE), text.as_bytes(), Overrides::default());
        if errors.is_empty() {
            Ok(inputs
                .into_iter()
                .map(|input| Self { spec: input.spec })
                .collect())
        } else {
            Err(RonError { errors })
        }
    }

    /// The motion's validated specification.
    pub fn spec(&self) -> &MotionSpec {
        &self.spec
    }

    /// The motion's name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The tracks by name: `value`, `inner` and `outer` for an explosion ring, or each
    /// track's property for a motion of several (`translateY`, `opacity`).
    pub fn tracks(&self) -> Vec<(&'static str, &dyn Motion)> {
        self.spec.model.tracks()
    }

    /// Position at `t` seconds of the first track (`value`; `inner` for a ring), in closed
    /// form. (The last baked frame of a motion that rests is its exact rest value instead.)
    pub fn position(&self, t: f64) -> f64 {
        self.tracks()[0].1.position(t)
    }

    /// Velocity at `t` seconds of the first track, in closed form.
    pub fn velocity(&self, t: f64) -> f64 {
        self.tracks()[0].1.velocity(t)
    }

    /// The frames `curvebake bake` writes for this motion.
    pub fn bake(&self) -> Result<Baked<'_>, BakeError> {
        bake(&self.spec)
    }
}

impl From<MotionSpec> for Curve {
    fn from(spec: MotionSpec) -> Self {
        Self { spec }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run in both builds: `cargo test --lib` and `cargo test --lib --no-default-features`.
    #[test]
    fn png_is_baked_by_default_exactly_when_the_plots_feature_is_built() {
        let plots = cfg!(feature = "plots");
        assert_eq!(BakeOptions::default().formats.contains(&Format::Png), plots);
        let png = Bake::new("curves")
            .formats([Format::Json, Format::Png])
            .resolved();
        match png {
            Ok(options) => assert!(plots && options.formats.contains(&Format::Png)),
            Err(e) => assert!(
                !plots
                    && e.to_string()
                        .contains("formats asks for png, which needs curvebake's `plots` feature"),
                "{e}"
            ),
        }
    }

    #[test]
    fn bad_options_are_usage_errors_that_name_the_option() {
        let cases = [
            (Bake::new("curves").fps(0.0), "fps"),
            (Bake::new("curves").jobs(0), "jobs"),
            (Bake::new("curves").css_tolerance(f64::NAN), "css_tolerance"),
            (Bake::new("curves").plot_size(10, 300), "plot_size"),
        ];
        for (bake, option) in cases {
            match bake.resolved() {
                Err(FatalError::Usage(m)) => assert!(m.starts_with(option), "{m}"),
                other => panic!("{option}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_bundle_keeps_only_the_formats_that_have_one() {
        let options = Bake::new("curves").bundle(true).resolved().unwrap();
        assert_eq!(options.formats, [Format::Json, Format::Css]);
        assert_eq!(options.layout, Layout::Bundle);
    }

    #[test]
    fn ron_errors_are_worded_like_the_bake() {
        let err = Curve::from_ron(
            r#"(name: "a", motion: Spring(from: 0, to: 1, stiffness: 1, damping: -1))"#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "<ron>: a: motion.Spring.damping must be >= 0, got -1"
        );
        let err = Curve::from_ron("[]").unwrap_err();
        assert!(err.to_string().contains("holds 0 motions"), "{err}");
    }

    /// Every motion of a list is read, as a bake reads a file: a typo in one and a bad value
    /// in another are both reported, and nothing stops at the first.
    #[test]
    fn all_from_ron_reports_every_motion_as_the_bake_does() {
        let err = Curve::all_from_ron(
            r#"[
    (name: "typo", motion: Sprung(from: 0, to: 1, stiffness: 1, damping: 1)),
    (name: "good", motion: Spring(from: 0, to: 1, stiffness: 1, damping: 1)),
    (name: "bad", motion: Spring(from: 0, to: 1, stiffness: 1, damping: -1)),
]"#,
        )
        .unwrap_err();
        assert_eq!(err.errors.len(), 2, "{err}");
        assert!(err.errors[0].to_string().starts_with("<ron>:2:"), "{err}");
        assert!(
            err.to_string()
                .contains("bad: motion.Spring.damping must be >= 0"),
            "{err}"
        );
    }
}
