//! Command-line flags (clap), turned into plain library options.

use clap::{Args, Parser, Subcommand};
use curvebake::export::{Format, Layout};
use curvebake::new::Kind;
use curvebake::{BakeOptions, Config, InputError};
use std::path::PathBuf;

/// Bakes physically based animation curves into JSON tables, CSS, ES modules, plots, a review
/// page, design tokens, Tailwind and Lottie (`about` is the package's description).
#[derive(Debug, Parser)]
#[command(
    name = "curvebake",
    version,
    about,
    long_about = None,
    after_help = "Examples:\n  curvebake new spring sheet-open    # write curves/sheet-open.ron\n  curvebake inspect sheet-open       # its damping ratio, overshoot, settle time, ...\n  curvebake bake                     # curves/ -> out/\n  curvebake watch                    # bake again on every save\n  curvebake completions bash > ~/.local/share/bash-completion/completions/curvebake"
)]
pub struct Cli {
    /// The project file to read options from (default: `curvebake.toml` in the current
    /// folder, when there is one). Flags override it.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read no project file, even if `curvebake.toml` is there.
    #[arg(long, global = true, conflicts_with = "config")]
    pub no_config: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Bake every motion under PATHS into the output folder.
    #[command(
        after_help = "Examples:\n  curvebake bake\n  curvebake bake curves/buttons.ron --out site/motion\n  curvebake bake --check        # in CI: fail if out/ is stale\n  curvebake bake --bundle --formats json,css\n  curvebake bake --formats js   # only the ES modules, out/js/<name>.js and .d.ts"
    )]
    Bake(BakeArgs),
    /// Show what motions look and feel like: damping ratio, frequency, period, overshoot,
    /// peak speed, settle time, resting value, decay rates, and a sparkline of the position.
    #[command(
        after_help = "Each FILE_OR_NAME is a .ron file (all its motions), a folder (every motion under it)\nor a motion name, looked up in the .ron files under --curves.\n\nExamples:\n  curvebake inspect card-drop\n  curvebake inspect curves/buttons.ron\n  curvebake inspect --json explosion-ring > ring.json\n  curvebake inspect --fps 120 modal-scale-in"
    )]
    Inspect(InspectArgs),
    /// Bake, then bake again each time a curve file is saved; errors are printed and watching
    /// goes on. Takes the flags of `bake` (except --check).
    #[command(
        mut_arg("check", |a| a.hide(true)),
        after_help = "Only changed motions are baked again and only changed files rewritten. A burst of\nevents (an editor's save) bakes once: the first event opens a --debounce window.\nCtrl-C stops.\n\nExamples:\n  curvebake watch\n  curvebake watch curves/buttons.ron --out site/motion --formats css,js\n  curvebake watch --serve curves/    # then open the printed address"
    )]
    Watch(WatchArgs),
    /// Write a commented curve file for a new motion, with defaults that bake as they are.
    #[command(
        after_help = "Examples:\n  curvebake new spring sheet-open            # curves/sheet-open.ron\n  curvebake new ring burst --dir design/fx    # design/fx/burst.ron\n  curvebake new decay tooltip-in && curvebake inspect tooltip-in\n  curvebake new config                       # ./curvebake.toml, the project file"
    )]
    New(NewArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  curvebake completions bash > ~/.local/share/bash-completion/completions/curvebake\n  curvebake completions zsh > ~/.zfunc/_curvebake     # with fpath+=(~/.zfunc)\n  curvebake completions fish > ~/.config/fish/completions/curvebake.fish"
    )]
    Completions(CompletionsArgs),
}

/// Flags of `bake`.
#[derive(Debug, Args)]
pub struct BakeArgs {
    /// `.ron` files and folders to read (folders are searched recursively) [default: the
    /// project file's `inputs`, or curves]
    pub paths: Vec<PathBuf>,
    /// Output folder [default: the project file's `out`, or out]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads, at most 256 (default: all cores).
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Frame rate for every motion, replacing each motion's own `fps`.
    #[arg(long, value_parser = parse_fps)]
    pub fps: Option<f64>,
    /// Write nothing; exit 1 and list what differs when the output folder is not what a bake
    /// would write.
    #[arg(long)]
    pub check: bool,
    /// Print errors and warnings only: no summary line, no progress.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write only curves.json and curves.css, each holding every motion.
    #[arg(long, overrides_with = "no_bundle")]
    pub bundle: bool,
    /// Write each motion's own files, although the project file says `layout = "bundle"`.
    #[arg(long)]
    pub no_bundle: bool,
    /// Output formats, comma-separated: json, css, png, html, js, and the hand-off formats
    /// tokens, tailwind, lottie [default: json, css, png, html, js]
    #[arg(long, value_delimiter = ',', value_parser = parse_format)]
    pub formats: Option<Vec<Format>>,
    /// Largest distance, in each motion's unit, of what a browser plays (CSS, JS keyframes,
    /// easings) from the motion at any instant; also at most 0.5 % of its range. 0 is the
    /// default: each unit's own [default: 0.1 px/deg, 0.025 %, 5e-4 unitless]
    #[arg(long, value_parser = parse_tolerance)]
    pub css_tolerance: Option<f64>,
    /// Put this before every global name the CSS and JS make: classes, @keyframes,
    /// --<name>-duration/-easing and registered custom properties (e.g. `cb-`) [default: none]
    #[arg(long)]
    pub prefix: Option<String>,
    /// CSS keyframes at the fitted stops (linear timing) instead of two stops timed by the
    /// linear() easing: for browsers without linear() (before Chrome 113, Firefox 112, Safari
    /// 17.2). Writes no --<name>-from/-to, and no --<name>-velocity animation
    #[arg(long, overrides_with = "no_css_frames")]
    pub css_frames: bool,
    /// Two CSS stops timed by linear(), although the project file says `css_frames = true`.
    #[arg(long)]
    pub no_css_frames: bool,
    /// Bake and export every motion again, ignoring the manifest of the output folder; also
    /// replace files in it that curvebake did not write (which a bake otherwise refuses to).
    #[arg(long)]
    pub force: bool,
    /// Plot size in pixels, WIDTHxHEIGHT [default: 1200x800]
    #[arg(long, value_parser = parse_size)]
    pub plot_size: Option<(u32, u32)>,
}

/// Flags of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Motion names, `.ron` files or folders.
    #[arg(required = true, value_name = "FILE_OR_NAME")]
    pub targets: Vec<String>,
    /// Folder whose `.ron` files motion names are looked up in [default: the project file's
    /// first input, or curves]
    #[arg(long, value_name = "DIR")]
    pub curves: Option<PathBuf>,
    /// Print JSON (`{"motions": [...]}`) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Frame rate for every motion, replacing each motion's own `fps`.
    #[arg(long, value_parser = parse_fps)]
    pub fps: Option<f64>,
}

/// Flags of `watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The flags of `bake`.
    #[command(flatten)]
    pub bake: BakeArgs,
    /// Milliseconds to gather a burst of changes before baking.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    pub debounce: u64,
    /// Serve the output folder on http://127.0.0.1 (port 8419, or a free one if it is taken;
    /// `--serve=PORT` to choose, 0 for any free one): an open review page follows every
    /// re-bake and shows its errors. Only the loopback interface, only the output folder.
    /// The port takes an `=`, so what follows `--serve ` is a path to watch.
    #[arg(long, value_name = "PORT", num_args = 0..=1, require_equals = true)]
    pub serve: Option<Option<u16>>,
}

/// What `new` writes: a motion of one of the template kinds ([`Kind::ALL`]), or `config`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindArg(Option<Kind>);

impl KindArg {
    /// The motion kind, or `None` for the project file.
    pub fn motion(self) -> Option<Kind> {
        self.0
    }
}

/// `new`'s first argument: a template kind's name or `config` (listed in help and in shell
/// completions).
fn kind_parser() -> impl clap::builder::TypedValueParser<Value = KindArg> {
    let names = Kind::ALL.iter().map(|k| k.name()).chain(["config"]);
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(names).map(|name: String| KindArg(Kind::parse(&name)))
}

/// Flags of `new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The kind of motion (or `config`, for the project file).
    #[arg(value_parser = kind_parser())]
    pub kind: KindArg,
    /// The motion's name: a letter, then letters, digits, `-` and `_` (not for `config`).
    pub name: Option<String>,
    /// Folder to write `<name>.ron` into, created if missing [default: the project file's
    /// first input, or curves; for `config`, the current folder]
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// Flags of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

fn parse_format(name: &str) -> Result<Format, String> {
    Format::parse(name).ok_or_else(|| format!("unknown format {name:?}; use {}", Format::names()))
}

/// A flag's value, parsed and checked by the library's own rule for `option` (so the CLI,
/// the project file and the builder accept the same values, in the same words).
fn checked<T: std::str::FromStr + Copy>(
    text: &str,
    option: &str,
    set: impl FnOnce(&mut BakeOptions, T),
) -> Result<T, String> {
    let value: T = text
        .parse()
        .map_err(|_| format!("not a valid {option}: {text:?}"))?;
    let mut options = BakeOptions::default();
    set(&mut options, value);
    options.check().map(|()| value).map_err(|e| e.message)
}

fn parse_fps(text: &str) -> Result<f64, String> {
    checked(text, "frame rate", |o, fps| o.fps = Some(fps))
}

fn parse_jobs(text: &str) -> Result<usize, String> {
    checked(text, "thread count", |o, jobs| o.jobs = Some(jobs))
}

fn parse_tolerance(text: &str) -> Result<f64, String> {
    checked(text, "tolerance", |o, x| o.settings.css_tolerance = x)
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("must be WIDTHxHEIGHT, got {text:?}");
    let (w, h) = text.split_once('x').ok_or_else(bad)?;
    let size: (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    let mut options = BakeOptions::default();
    options.settings.plot_size = size;
    options.check().map(|()| size).map_err(|e| e.message)
}

impl BakeArgs {
    /// The library options these flags ask for, over those of the project file `config` (or
    /// the defaults): validated, and in bundle layout reduced to the formats that have a
    /// bundle, by [`curvebake::Bake::resolved`] when the bake runs.
    pub fn options(&self, config: Option<&Config>) -> BakeOptions {
        let mut options = config.map_or_else(BakeOptions::default, |c| c.options.clone());
        if !self.paths.is_empty() {
            options.inputs = self.paths.clone();
        }
        if let Some(out) = &self.out {
            options.out = out.clone();
        }
        options.fps = self.fps.or(options.fps);
        options.check = self.check;
        if self.bundle {
            options.layout = Layout::Bundle;
        }
        if self.no_bundle {
            options.layout = Layout::PerMotion;
        }
        options.jobs = self.jobs.or(options.jobs);
        if let Some(formats) = &self.formats {
            options.formats = formats.clone();
        }
        if let Some(tolerance) = self.css_tolerance {
            options.settings.css_tolerance = tolerance;
        }
        if let Some(prefix) = &self.prefix {
            options.settings.prefix = prefix.clone();
        }
        if self.css_frames {
            options.settings.css_frames = true;
        }
        if self.no_css_frames {
            options.settings.css_frames = false;
        }
        if let Some(size) = self.plot_size {
            options.settings.plot_size = size;
        }
        options.force = self.force;
        options
    }
}

impl BakeArgs {
    /// The formats asked for by name (`--formats`, or the project file's `formats`) that the
    /// bundle layout leaves out: worth a warning, since they will not be written.
    pub fn left_out_of_bundle(&self, config: Option<&Config>) -> Vec<Format> {
        let options = self.options(config);
        let named = self.formats.is_some() || config.is_some_and(|c| c.sets_formats);
        if options.layout != Layout::Bundle || !named {
            return Vec::new();
        }
        options
            .formats
            .into_iter()
            .filter(|f| !f.has_bundle())
            .collect()
    }
}

impl InspectArgs {
    /// The folder motion names are looked up in: `--curves`, else the project file's first
    /// input, else `curves`.
    pub fn curves(&self, config: Option<&Config>) -> PathBuf {
        self.curves.clone().unwrap_or_else(|| {
            let options = config.map_or_else(BakeOptions::default, |c| c.options.clone());
            options.inputs.into_iter().next().unwrap_or_default()
        })
    }

    /// `--fps`, else the project file's.
    pub fn fps(&self, config: Option<&Config>) -> Option<f64> {
        self.fps.or(config.and_then(|c| c.options.fps))
    }
}

impl Cli {
    /// The project file these flags ask for: `--config FILE`, else `curvebake.toml` in the
    /// current folder when there is one; none with `--no-config`.
    pub fn config(&self) -> Result<Option<Config>, InputError> {
        match (&self.config, self.no_config) {
            (_, true) => Ok(None),
            (Some(path), false) => Config::read(path).map(Some),
            (None, false) => Config::find(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The `--serve` of `watch` given `args` (after `curvebake watch`), and its inputs.
    fn watch(args: &[&str]) -> (Option<Option<u16>>, Vec<PathBuf>) {
        let cli = Cli::try_parse_from(["curvebake", "watch"].iter().chain(args))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let Command::Watch(watch) = cli.command else {
            panic!("{args:?} is not a watch");
        };
        (watch.serve, watch.bake.paths)
    }

    /// `--serve` takes its port only after `=`: a path after it is an input to watch, in
    /// either order, and a bare `--serve` means the default port.
    #[test]
    fn serve_takes_its_port_only_after_an_equals_sign() {
        let curves = vec![PathBuf::from("curves/")];
        assert_eq!(watch(&["--serve", "curves/"]), (Some(None), curves.clone()));
        assert_eq!(watch(&["curves/", "--serve"]), (Some(None), curves.clone()));
        assert_eq!(
            watch(&["--serve=9000", "curves/"]),
            (Some(Some(9000)), curves)
        );
        assert_eq!(watch(&["--serve=0"]), (Some(Some(0)), vec![]));
        assert_eq!(watch(&["--serve"]), (Some(None), vec![]));
        assert_eq!(watch(&[]), (None, vec![]));
        // A number after `--serve ` is a path (a folder named 9000), not the port.
        assert_eq!(
            watch(&["--serve", "9000"]),
            (Some(None), vec![PathBuf::from("9000")])
        );
        assert!(Cli::try_parse_from(["curvebake", "watch", "--serve=port"]).is_err());
    }
}
