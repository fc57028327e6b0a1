//! Command-line flags (clap), turned into plain library options.

use clap::{Args, Parser, Subcommand};
use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::pipeline::BakeOptions;
use std::path::PathBuf;

/// Bakes physically based animation curves into JSON tables, CSS keyframes and plots.
#[derive(Debug, Parser)]
#[command(name = "curvebake", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Bake every motion under PATHS into the output folder.
    #[command(
        after_help = "Examples:\n  curvebake bake\n  curvebake bake curves/buttons --out site/motion\n  curvebake bake --check        # in CI: fail if out/ is stale\n  curvebake bake --bundle --formats json,css"
    )]
    Bake(BakeArgs),
}

/// Flags of `bake`.
#[derive(Debug, Args)]
pub struct BakeArgs {
    /// `.ron` files and folders to read (folders are searched recursively).
    #[arg(default_value = "curves")]
    pub paths: Vec<PathBuf>,
    /// Output folder.
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Frame rate for every motion, replacing each motion's own `fps`.
    #[arg(long)]
    pub fps: Option<f64>,
    /// Write nothing; exit 1 and list what differs when the output folder is not what a bake
    /// would write.
    #[arg(long)]
    pub check: bool,
    /// Print errors only.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write only curves.json and curves.css, each holding every motion.
    #[arg(long)]
    pub bundle: bool,
    /// Output formats, comma-separated: json, css, png, html.
    #[arg(long, value_delimiter = ',', value_parser = parse_format, default_value = "json,css,png,html")]
    pub formats: Vec<Format>,
    /// Drop CSS stops while linear interpolation stays within this many units of every frame.
    #[arg(long, default_value_t = 0.0, value_parser = parse_tolerance)]
    pub css_tolerance: f64,
    /// Bake and export every motion again, ignoring the manifest of the output folder.
    #[arg(long)]
    pub force: bool,
    /// Plot size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1200x800", value_parser = parse_size)]
    pub plot_size: (u32, u32),
}

fn parse_format(name: &str) -> Result<Format, String> {
    Format::parse(name)
        .ok_or_else(|| format!("unknown format {name:?}; use json, css, png or html"))
}

fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("must be a number >= 0, got {text:?}")),
    }
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("must be WIDTHxHEIGHT with each in 200..=8000, got {text:?}");
    let (w, h) = text.split_once('x').ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if (200..=8000).contains(&w) && (200..=8000).contains(&h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

impl BakeArgs {
    /// The layout, formats and library options these flags ask for.
    pub fn options(&self) -> Result<BakeOptions, String> {
        if let Some(fps) = self.fps {
            if !(fps > 0.0 && fps <= curvebake::spec::MAX_FPS) {
                return Err(format!(
                    "--fps must be in (0, {}], got {fps}",
                    curvebake::spec::MAX_FPS
                ));
            }
        }
        let layout = if self.bundle {
            Layout::Bundle
        } else {
            Layout::PerMotion
        };
        let formats: Vec<Format> = if self.bundle {
            self.formats
                .iter()
                .copied()
                .filter(|f| matches!(f, Format::Json | Format::Css))
                .collect()
        } else {
            self.formats.clone()
        };
        let options = BakeOptions {
            inputs: self.paths.clone(),
            out: self.out.clone(),
            fps: self.fps,
            check: self.check,
            layout,
            jobs: self.jobs.map(usize::from),
            formats,
            settings: ExportSettings {
                css_tolerance: self.css_tolerance,
                plot_size: self.plot_size,
            },
            force: self.force,
        };
        Ok(options)
    }
}
