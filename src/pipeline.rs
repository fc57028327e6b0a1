//! The bake: load -> validate -> bake (in parallel) -> export -> write, with every input
//! error collected and reported, and valid motions still baked.

use crate::bake::bake;
use crate::error::{InputError, Problem};
use crate::export::{Digest, Exporter, Layout, MotionOutput, OutputFile};
use crate::load::{find_inputs, load_all, Input};
use crate::spec::Overrides;
use crate::write::{Outcome, OutputDir, StreamedFile, WriteError};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Motions baked and exported at once: enough to keep every core busy, few enough that memory
/// is bounded by the window, not by the number of motions.
const WINDOW: usize = 256;

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
        }
    }
}

/// What a bake did.
#[derive(Debug, Default)]
pub struct Report {
    /// Motions baked.
    pub motions: usize,
    /// Frames baked (over all tracks' motions, counted once per motion).
    pub frames: u64,
    /// Files written (in check mode: files that differ or are missing).
    pub written: Vec<String>,
    /// Files that already held the right bytes.
    pub unchanged: usize,
    /// Every input error.
    pub errors: Vec<InputError>,
    /// Format figures summed over motions (e.g. CSS stops before and after tolerance).
    pub stats: BTreeMap<&'static str, u64>,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// A failure that stops the whole bake (as opposed to an input error).
#[derive(Debug, thiserror::Error)]
pub enum FatalError {
    /// An input path does not exist or cannot be listed.
    #[error("{0}")]
    Input(InputError),
    /// A bad option.
    #[error("{0}")]
    Usage(String),
    /// Writing outputs failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Runs a bake. `progress(done, total)` is called as motions finish.
pub fn run(
    options: &BakeOptions,
    exporters: &[Box<dyn Exporter>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .map_err(|e| FatalError::Usage(format!("--jobs: cannot start threads: {e}")))?;
    let mut report = pool.install(|| run_in_pool(options, exporters, progress))?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// A bundle being streamed: chunks are appended in input order.
struct OpenBundle {
    exporter: usize,
    path: String,
    file: StreamedFile,
    separator: Vec<u8>,
    footer: Vec<u8>,
    empty: bool,
}

impl OpenBundle {
    fn append(&mut self, chunk: &[u8]) -> Result<(), WriteError> {
        if !self.empty {
            self.file.append(&self.separator)?;
        }
        self.empty = false;
        self.file.append(chunk)
    }
}

fn run_in_pool(
    options: &BakeOptions,
    exporters: &[Box<dyn Exporter>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let files = find_inputs(&options.inputs).map_err(FatalError::Input)?;
    let (inputs, errors) = load_all(&files, Overrides { fps: options.fps });
    let out = if options.check {
        OutputDir::existing(&options.out)
    } else {
        OutputDir::create(&options.out)?
    };
    let mut report = Report {
        errors,
        ..Report::default()
    };

    let mut bundles = Vec::new();
    for (exporter, e) in exporters.iter().enumerate() {
        if let Some(b) = e.bundle(options.layout) {
            let mut file = out.stream(&b.path, options.check)?;
            file.append(&b.header)?;
            bundles.push(OpenBundle {
                exporter,
                path: b.path,
                file,
                separator: b.separator,
                footer: b.footer,
                empty: true,
            });
        }
    }

    let mut digests = Vec::new();
    let total = inputs.len();
    let done = AtomicUsize::new(0);
    for window in inputs.chunks(WINDOW) {
        let results: Vec<_> = window
            .par_iter()
            .map(|input| {
                let result = export_one(input, exporters, options.layout);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                result
            })
            .collect();
        let mut files = Vec::new();
        for result in results {
            let (mut digest, outputs) = match result {
                Ok(r) => r,
                Err(e) => {
                    report.errors.push(e);
                    continue;
                }
            };
            report.motions += 1;
            report.frames += digest.frames as u64;
            for (exporter, output) in outputs.into_iter().enumerate() {
                for (name, value) in output.stats {
                    *report.stats.entry(name).or_default() += value;
                }
                if let (Some(chunk), Some(bundle)) = (
                    output.chunk,
                    bundles.iter_mut().find(|b| b.exporter == exporter),
                ) {
                    bundle.append(&chunk)?;
                }
                digest
                    .files
                    .extend(output.files.iter().map(|f| f.path.clone()));
                files.extend(output.files);
            }
            digests.push(digest);
        }
        write_files(&out, options.check, files, &mut report)?;
    }
    for mut bundle in bundles {
        bundle.file.append(&bundle.footer)?;
        let outcome = bundle.file.finish()?;
        record(&mut report, bundle.path, outcome);
    }
    let summaries = exporters
        .iter()
        .flat_map(|e| e.summary(&digests, options.layout))
        .collect();
    write_files(&out, options.check, summaries, &mut report)?;
    Ok(report)
}

/// Bakes one motion and runs every exporter on it.
fn export_one(
    input: &Input,
    exporters: &[Box<dyn Exporter>],
    layout: Layout,
) -> Result<(Digest, Vec<MotionOutput>), InputError> {
    let baked = bake(&input.spec).map_err(|e| {
        InputError::new(
            &input.file,
            Problem::Field {
                motion: input.spec.name.clone(),
                message: e.to_string(),
            },
        )
    })?;
    let outputs = exporters.iter().map(|e| e.motion(&baked, layout)).collect();
    Ok((Digest::of(&baked), outputs))
}

/// Writes (or, in check mode, compares) files in parallel; records what happened.
fn write_files(
    out: &OutputDir,
    check: bool,
    files: Vec<OutputFile>,
    report: &mut Report,
) -> Result<(), WriteError> {
    let outcomes: Vec<(String, Result<Outcome, WriteError>)> = files
        .into_par_iter()
        .map(|f| {
            let outcome = if check {
                out.holds(&f.path, &f.bytes).map(|same| {
                    if same {
                        Outcome::Unchanged
                    } else {
                        Outcome::Written
                    }
                })
            } else {
                out.write(&f.path, &f.bytes)
            };
            (f.path, outcome)
        })
        .collect();
    for (path, outcome) in outcomes {
        record(report, path, outcome?);
    }
    Ok(())
}

fn record(report: &mut Report, path: String, outcome: Outcome) {
    match outcome {
        Outcome::Written => report.written.push(path),
        Outcome::Unchanged => report.unchanged += 1,
    }
}
