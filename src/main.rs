//! The `curvebake` command line: parse flags, run the library, print errors, exit.
//!
//! Exit status: 0 success; 1 an input is invalid (or `--check` found differences, or `new`
//! refused to overwrite); 2 usage error; 3 outputs could not be written.

mod cli;

use clap::{CommandFactory, Parser};
use cli::{Cli, Command, CompletionsArgs, InspectArgs, NewArgs, WatchArgs};
use curvebake::export::Format;
use curvebake::new::NewError;
use curvebake::spec::Overrides;
use curvebake::watch::{Inbox, Server, WatchError, WatchEvent};
use curvebake::{Bake, BakeOptions, Config, FatalError, Report};
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// Writes a line to stderr. A closed stderr (`2>&1 | head -1`) is the reader's choice: the
/// line is dropped and the command goes on to exit with its own status (`eprintln!` would
/// panic, exit 101).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Exit status when an input is invalid or `--check` finds differences.
const EXIT_INPUT: u8 = 1;
/// Exit status for usage errors.
const EXIT_USAGE: u8 = 2;
/// Exit status when outputs cannot be written.
const EXIT_OUTPUT: u8 = 3;

/// Asks glibc's allocator to keep the memory a bake frees for its next allocations: buffers
/// of up to 32 MiB from the heap rather than each from a fresh mapping, and up to 64 MiB of
/// free heap kept rather than handed back. A page the process touches for the first time
/// costs a fault, and a bake frees and allocates its windows' inputs and outputs over and
/// over (measured: benches/README.md, "Tuning decisions").
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets the allocator's parameters, before any thread is started.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

fn main() -> ExitCode {
    keep_freed_memory();
    remove_temporary_files_on_signals();
    let cli = Cli::parse();
    let config = match &cli.command {
        // `completions` reads no options.
        Command::Completions(_) => None,
        _ => match cli.config() {
            Ok(config) => config,
            Err(e) => {
                say!("error: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    let config = config.as_ref();
    for warning in config.iter().flat_map(|c| &c.warnings) {
        say!("warning: {warning}");
    }
    match &cli.command {
        Command::Bake(args) => {
            warn_of_bundle(&args.left_out_of_bundle(config));
            bake(&args.options(config), args.quiet)
        }
        Command::Inspect(args) => inspect(args, config),
        Command::Watch(args) => watch(args, config),
        Command::New(args) => new(args, config),
        Command::Completions(args) => completions(args),
    }
}

fn bake(options: &BakeOptions, quiet: bool) -> ExitCode {
    let bake = Bake::from(options.clone());
    let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
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
    let result = bake.run_with_progress(&progress);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(report) => finish(&report, options, quiet),
        Err(e) => fatal(&e),
    }
}

/// On SIGINT or SIGTERM (Ctrl-C, `kill`), removes the temporary files of the bake in
/// progress, then ends as the signal would have ended it. (Outputs are replaced by renames, so
/// what is in place is whole; a SIGKILL leaves temporary files for the next bake to remove.)
#[cfg(unix)]
fn remove_temporary_files_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("curvebake-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                curvebake::remove_temporary_files();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
}

/// Elsewhere a signal ends the process at once; the next bake removes what it left.
#[cfg(not(unix))]
fn remove_temporary_files_on_signals() {}

/// Prints a bake that could not run; its exit status.
fn fatal(e: &FatalError) -> ExitCode {
    say!("error: {e}");
    match e {
        FatalError::Write(_) => ExitCode::from(EXIT_OUTPUT),
        _ => ExitCode::from(EXIT_USAGE),
    }
}

/// Warns that formats asked for by name will not be written in the bundle layout.
fn warn_of_bundle(left_out: &[Format]) {
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|f| f.name()).collect();
        say!(
            "warning: a bundle holds only JSON and CSS: {} will not be written",
            names.join(", ")
        );
    }
}

/// Prints a bake's errors and warnings.
fn print_problems(report: &Report) {
    for error in &report.errors {
        say!("error: {error}");
    }
    for warning in &report.warnings {
        say!("warning: {warning}");
    }
}

fn finish(report: &Report, options: &BakeOptions, quiet: bool) -> ExitCode {
    let check = options.check;
    print_problems(report);
    if check {
        for path in &report.written {
            say!("differs: {}", options.out.join(path).display());
        }
        for path in &report.removed {
            say!(
                "stale: {} (its motion no longer exists)",
                options.out.join(path).display()
            );
        }
        for path in &report.left_out {
            say!(
                "stale: {} (of a format this bake leaves out, it shows motions as they were)",
                options.out.join(path).display()
            );
        }
        if !(report.written.is_empty() && report.removed.is_empty() && report.left_out.is_empty()) {
            say!(
                "to update {}: run the same command without --check (it rewrites the files curvebake wrote there, edited ones too)",
                options.out.display()
            );
        }
    }
    if !quiet {
        say!("{}", summary(report, check));
    }
    let stale = check
        && !(report.written.is_empty() && report.removed.is_empty() && report.left_out.is_empty());
    if report.errors.is_empty() && !stale {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INPUT)
    }
}

/// The one-line account of a bake.
fn summary(report: &Report, check: bool) -> String {
    let files = report.written.len();
    let mut line = format!(
        "{}, {}: {} {}, {} unchanged",
        count(report.motions as u64, "motion", "motions"),
        count(report.frames, "frame", "frames"),
        count(files as u64, "file", "files"),
        match (check, files) {
            (true, 1) => "differs",
            (true, _) => "differ",
            (false, _) => "written",
        },
        report.unchanged,
    );
    if let (Some(before), Some(after)) = (
        report.stats.get("css_stops_before"),
        report.stats.get("css_stops_after"),
    ) {
        line.push_str(&format!(", CSS stops {before} -> {after}"));
    }
    let removed = report.removed.len() + report.left_out.len();
    if removed > 0 {
        // `--check` removes nothing: the files are stale, a bake would remove them.
        let verb = if check { "stale" } else { "removed" };
        line.push_str(&format!(", {removed} {verb}"));
    }
    if !report.errors.is_empty() {
        line.push_str(&format!(
            ", {}",
            count(report.errors.len() as u64, "error", "errors")
        ));
    }
    format!("{line} in {:.2} s", report.seconds)
}

/// `n` and the noun that goes with it: `1 file`, `2 files`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn inspect(args: &InspectArgs, config: Option<&Config>) -> ExitCode {
    let overrides = Overrides {
        fps: args.fps(config),
        ..Overrides::default()
    };
    let curves = args.curves(config);
    let (figures, errors, missing) =
        curvebake::inspect::inspect_targets(&args.targets, &curves, overrides);
    let mut stdout = std::io::stdout().lock();
    let written = if args.json {
        #[derive(serde::Serialize)]
        struct Motions<'a> {
            motions: &'a [curvebake::inspect::Inspection],
        }
        serde_json::to_writer_pretty(&mut stdout, &Motions { motions: &figures })
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(stdout))
    } else {
        figures.iter().enumerate().try_for_each(|(i, f)| {
            if i > 0 {
                writeln!(stdout)?;
            }
            write!(stdout, "{}", f.to_text())
        })
    };
    // A closed pipe (`| head`) is the reader's choice, not an error worth a message.
    if let Err(e) = written.and_then(|()| stdout.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            say!("error: writing the output: {e}");
            return ExitCode::from(EXIT_OUTPUT);
        }
    }
    for error in errors.iter().chain(&missing) {
        say!("error: {error}");
    }
    if !missing.is_empty() {
        // As for `bake`: an input path that does not exist is a usage error.
        ExitCode::from(EXIT_USAGE)
    } else if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INPUT)
    }
}

fn watch(args: &WatchArgs, config: Option<&Config>) -> ExitCode {
    let flags = &args.bake;
    let options = flags.options(config);
    warn_of_bundle(&flags.left_out_of_bundle(config));
    if flags.check {
        say!("error: watch writes the output folder; --check is for `bake`");
        return ExitCode::from(EXIT_USAGE);
    }
    let inputs: Vec<String> = options
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let inbox = Inbox::new();
    let server = match args.serve {
        None => None,
        Some(port) => match Server::start_tuning(&options, port, inbox.saves()) {
            Ok(server) => Some(server),
            Err(e) => {
                say!("error: --serve: cannot listen on 127.0.0.1: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    let mut started = false;
    let result = curvebake::watch::watch(
        &Bake::from(options.clone()),
        Duration::from_millis(args.debounce),
        config.map(|c| c.path.as_path()),
        inbox,
        |event| {
            match event {
                WatchEvent::Baked { changed, result } => {
                    if let Some(server) = &server {
                        server.publish(&result);
                    }
                    let cause = if changed.is_empty() {
                        String::new()
                    } else {
                        let names: Vec<String> = changed.iter().map(|p| shorten(p)).collect();
                        format!(" after changes to {}", names.join(", "))
                    };
                    match result {
                        Ok(report) => {
                            print_problems(&report);
                            if !flags.quiet {
                                say!("baked{cause}: {}", summary(&report, false));
                            }
                        }
                        Err(e) => say!("error: {e} (still watching)"),
                    }
                }
                WatchEvent::Trouble(message) => say!("warning: watching: {message}"),
                WatchEvent::ProjectFileChanged(path) => say!(
                    "warning: {} changed; watch keeps the options it started with: restart it to use the new ones",
                    shorten(&path)
                ),
            }
            if !started {
                started = true;
                if !flags.quiet {
                    say!("watching {} for changes; Ctrl-C stops", inputs.join(", "));
                }
                if let Some(server) = &server {
                    // Always printed (even with --quiet): it is how to reach the page.
                    say!(
                        "serving {} at http://{}/ (this machine only)",
                        options.out.display(),
                        server.addr()
                    );
                }
            }
            ControlFlow::Continue(())
        },
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ (WatchError::Usage(_) | WatchError::Watch { .. })) => {
            say!("error: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// A path relative to the current folder when it is inside it.
fn shorten(path: &Path) -> String {
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok());
    match cwd.as_deref().and_then(|d| path.strip_prefix(d).ok()) {
        Some(relative) => relative.display().to_string(),
        None => path.display().to_string(),
    }
}

fn new(args: &NewArgs, config: Option<&Config>) -> ExitCode {
    let options = config.map_or_else(BakeOptions::default, |c| c.options.clone());
    let written = match (args.kind.motion(), &args.name) {
        (None, None) => curvebake::new::create_config(
            args.dir.as_deref().unwrap_or(Path::new(".")),
        )
        .map(|path| {
            format!(
                "wrote {}: `curvebake bake`, `watch` and `inspect` now read it",
                path.display()
            )
        }),
        (None, Some(name)) => {
            say!("error: `new config` takes no name (got {name:?}); it writes curvebake.toml");
            return ExitCode::from(EXIT_USAGE);
        }
        (Some(kind), None) => {
            say!("error: `new {}` needs a NAME for the motion", kind.name());
            return ExitCode::from(EXIT_USAGE);
        }
        (Some(kind), Some(name)) => {
            let lookup = options.inputs.first().cloned().unwrap_or_default();
            let dir = args.dir.clone().unwrap_or_else(|| lookup.clone());
            curvebake::new::create(kind, name, &dir, &options.inputs).map(|created| {
                let path = created.path;
                if !created.names_checked {
                    let searched: Vec<String> = std::iter::once(&dir)
                        .chain(&options.inputs)
                        .filter(|p| p.exists())
                        .map(|p| p.display().to_string())
                        .collect();
                    say!(
                        "warning: {name} was checked only against the motions nearest the \
                         folders: those under {} hold more than {} names; `curvebake bake` \
                         refuses a name used twice",
                        searched.join(", "),
                        curvebake::new::MAX_NAMES_SEARCHED
                    );
                }
                // Commands that work as printed: `bake` and `inspect` find the new file
                // by name only where they look by default.
                let baked = options.inputs.iter().any(|input| path.starts_with(input));
                let bake = if baked {
                    "curvebake bake".to_owned()
                } else {
                    format!("curvebake bake {}", dir.display())
                };
                let inspect = if dir == lookup {
                    format!("curvebake inspect {name}")
                } else {
                    format!("curvebake inspect {}", path.display())
                };
                format!(
                    "wrote {}: bake it with `{bake}`, see it with `{inspect}`",
                    path.display()
                )
            })
        }
    };
    match written {
        Ok(message) => {
            say!("{message}");
            ExitCode::SUCCESS
        }
        Err(e @ NewError::Name(_)) => {
            say!("error: {e}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(e @ NewError::Io { .. }) => {
            say!("error: {e}");
            ExitCode::from(EXIT_OUTPUT)
        }
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(EXIT_INPUT)
        }
    }
}

fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "curvebake", &mut script);
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&script).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            say!("error: writing the script: {e}");
            ExitCode::from(EXIT_OUTPUT)
        }
        _ => ExitCode::SUCCESS,
    }
}
