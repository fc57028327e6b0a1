//! The `curvebake` command line: parse flags, run the library, print errors, exit.
//!
//! Exit status: 0 success; 1 an input is invalid (or `--check` found differences);
//! 2 usage error; 3 outputs could not be written.

mod cli;

use clap::Parser;
use cli::{BakeArgs, Cli, Command};
use curvebake::pipeline::{run, FatalError, Report};
use std::io::IsTerminal;
use std::process::ExitCode;

/// Exit status when an input is invalid or `--check` finds differences.
const EXIT_INPUT: u8 = 1;
/// Exit status for usage errors.
const EXIT_USAGE: u8 = 2;
/// Exit status when outputs cannot be written.
const EXIT_OUTPUT: u8 = 3;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Bake(args) => bake(&args),
    }
}

fn bake(args: &BakeArgs) -> ExitCode {
    let options = match args.options() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} baking {pos}/{len} motions {wide_bar} {eta}",
            )
            .expect("the template is valid"),
        );
        bar
    });
    let progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let result = run(&options, &progress);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(report) => finish(&report, args),
        Err(FatalError::Write(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_OUTPUT)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn finish(report: &Report, args: &BakeArgs) -> ExitCode {
    for error in &report.errors {
        eprintln!("error: {error}");
    }
    if args.check {
        for path in &report.written {
            eprintln!("differs: {}", args.out.join(path).display());
        }
        for path in &report.removed {
            eprintln!(
                "stale: {} (its motion no longer exists)",
                args.out.join(path).display()
            );
        }
    }
    if !args.quiet {
        let mut line = format!(
            "{} motions, {} frames: {} files {}, {} unchanged",
            report.motions,
            report.frames,
            report.written.len(),
            if args.check { "differ" } else { "written" },
            report.unchanged,
        );
        if let (Some(before), Some(after)) = (
            report.stats.get("css_stops_before"),
            report.stats.get("css_stops_after"),
        ) {
            line.push_str(&format!(", CSS stops {before} -> {after}"));
        }
        if !report.removed.is_empty() {
            line.push_str(&format!(", {} removed", report.removed.len()));
        }
        if !report.errors.is_empty() {
            line.push_str(&format!(", {} errors", report.errors.len()));
        }
        eprintln!("{line} in {:.2} s", report.seconds);
    }
    let stale = args.check && !(report.written.is_empty() && report.removed.is_empty());
    if report.errors.is_empty() && !stale {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INPUT)
    }
}
