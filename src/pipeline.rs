//! The bake: load -> validate -> bake (in parallel) -> export -> write, with every input
//! error collected and reported, and valid motions still baked.

use crate::bake::{bake, frame_count};
use crate::bundle::OpenBundle;
use crate::error::{InputError, Problem};
use crate::export::{
    exporters, Digest, ExportSettings, Exporter, Format, Layout, MotionOutput, OutputFile,
};
use crate::load::{find_inputs, load_all, Input};
use crate::manifest::{hash, tool, Entry, Manifest, SpecHasher, MANIFEST_PATH};
use crate::spec::Overrides;
use crate::write::{Outcome, OutputDir, WriteError};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Most motions baked and exported at once: enough to keep every core busy, few enough that
/// memory is bounded by the window, not by the number of motions.
const WINDOW: usize = 256;
/// Most frames in one window (a window holds at least one motion): bounds memory when motions
/// are long, since a window's outputs are held until they are written.
const WINDOW_FRAMES: usize = 1_000_000;

/// Consecutive ranges of motions, each at most [`WINDOW`] motions and, unless a single motion
/// is longer, [`WINDOW_FRAMES`] frames.
fn windows(frames: &[usize]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start == frames.len() {
            return None;
        }
        let (mut end, mut sum) = (start, 0);
        while end < frames.len()
            && end - start < WINDOW
            && (end == start || sum + frames[end] <= WINDOW_FRAMES)
        {
            sum += frames[end];
            end += 1;
        }
        let range = start..end;
        start = end;
        Some(range)
    })
}

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
            formats: Format::ALL.to_vec(),
            settings: ExportSettings::default(),
            force: false,
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
    /// Files that already held the right bytes (or belong to motions the manifest shows
    /// unchanged).
    pub unchanged: usize,
    /// Files of motions that no longer exist, removed (in check mode: that would be removed).
    pub removed: Vec<String>,
    /// Motions whose hash matched the manifest, so their own files were not regenerated.
    pub skipped: usize,
    /// Every input error.
    pub errors: Vec<InputError>,
    /// Format figures summed over the motions exported in this bake (e.g. CSS stops before and
    /// after tolerance); an unchanged motion whose outputs are reused adds nothing.
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
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .map_err(|e| FatalError::Usage(format!("--jobs: cannot start threads: {e}")))?;
    let mut report = pool.install(|| run_in_pool(options, progress))?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

fn run_in_pool(
    options: &BakeOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let files = find_inputs(&options.inputs).map_err(FatalError::Input)?;
    let (inputs, errors) = load_all(&files, Overrides { fps: options.fps });
    let out = if options.check {
        OutputDir::existing(&options.out)
    } else {
        OutputDir::create(&options.out)?
    };
    let exporters = exporters(&options.formats, &options.settings);
    let mut report = Report {
        errors,
        ..Report::default()
    };

    let mut old = if options.force {
        Manifest::default()
    } else {
        Manifest::read(&options.out)
    };
    // An entry naming a path outside the folder (a hand-edited manifest) is not ours to touch.
    old.motions
        .retain(|e| e.files.iter().all(|f| out.resolve(f).is_ok()));
    let run_key = format!(
        "{}|{:?}|{:?}|{:?}|{:?}",
        tool(),
        options.layout,
        options.formats,
        options.settings,
        options.fps
    );
    let spec_hasher = SpecHasher::new(run_key.as_bytes());
    let hashes: Vec<String> = inputs
        .par_iter()
        .map(|i| spec_hasher.hash(&i.spec))
        .collect();
    let run_hash = hash(&hashes.iter().map(|h| h.as_bytes()).collect::<Vec<_>>());
    let old_entries: HashMap<&str, &Entry> =
        old.motions.iter().map(|e| (e.name.as_str(), e)).collect();
    let files_exist = |e: &Entry| e.files.iter().all(|f| out.exists(f));
    let unchanged: Vec<bool> = inputs
        .par_iter()
        .zip(&hashes)
        .map(|(i, h)| {
            old_entries.get(i.spec.name.as_str()).is_some_and(|e| {
                &e.hash == h && files_exist(e) && e.chunks.len() == old.bundles.len()
            })
        })
        .collect();

    // The files every motion feeds: bundles as the manifest left them, summaries present.
    let shared_intact = || {
        let bundles = old
            .bundles
            .iter()
            .all(|stamp| (out.resolve(&stamp.path)).is_ok_and(|path| old.describes(stamp, &path)));
        bundles && old.summaries.iter().all(|f| out.exists(f))
    };
    // Every motion unchanged, and none gone (the manifest keeps the records of motions whose
    // file failed, until the file is fixed or removed).
    let all_unchanged = unchanged.iter().all(|&u| u) && old.motions.len() == inputs.len();
    if !options.check && old.run == run_hash && all_unchanged && shared_intact() {
        // Nothing changed since the manifest was written: nothing to bake, nothing to write.
        report.motions = inputs.len();
        report.skipped = inputs.len();
        report.frames = old.motions.iter().map(|e| e.frames).sum();
        let shared = old.bundles.len() + old.summaries.len();
        report.unchanged = old.motions.iter().map(|e| e.files.len()).sum::<usize>() + shared;
        return Ok(report);
    }

    if !options.check {
        // Until this bake completes, the folder matches no manifest: a run killed from here on
        // leaves none, so the next run bakes everything again instead of trusting stale hashes.
        out.remove(MANIFEST_PATH)?;
    }
    let mut bundles = Vec::new();
    for (exporter, e) in exporters.iter().enumerate() {
        if let Some(b) = e.bundle(options.layout) {
            bundles.push(OpenBundle::open(&out, exporter, b, options.check, &old)?);
        }
    }
    // Per exporter: whether its motions' outputs of an unchanged motion are all reusable (its
    // own files are on disk; a bundle chunk can be copied from the previous bundle).
    let reusable: Vec<bool> = (0..exporters.len())
        .map(|k| !options.check && bundles.iter().all(|b| b.exporter != k || b.reusable()))
        .collect();

    let mut sink = Sink {
        out: &out,
        check: options.check,
        old_entries: &old_entries,
        report,
        bundles,
        // Digests are kept only for the files that describe the whole bake, if any.
        digests: exporters
            .iter()
            .any(|e| e.summarizes(options.layout))
            .then(Vec::new),
        entries: Vec::new(),
    };
    let total = inputs.len();
    let done = AtomicUsize::new(0);
    let frames: Vec<usize> = inputs
        .par_iter()
        .map(|i| frame_count(&i.spec).unwrap_or(1))
        .collect();
    // Each window owns its jobs and drops them once written: a spec is not held until the
    // end of the bake.
    let mut jobs =
        inputs
            .into_iter()
            .zip(hashes)
            .zip(unchanged)
            .map(|((input, hash), unchanged)| Job {
                input,
                hash,
                unchanged,
            });
    let windows: Vec<Vec<Job>> = windows(&frames)
        .map(|range| jobs.by_ref().take(range.len()).collect())
        .collect();
    drop(jobs);
    let keep_digests = sink.digests.is_some();
    let bake_window = |window: &[Job]| -> Vec<ExportResult> {
        window
            .par_iter()
            .map(|job| {
                // An unchanged motion is still baked for the summaries, but not exported again.
                let skip = |k: usize| job.unchanged && reusable[k];
                let result =
                    export_one(&job.input, &exporters, options.layout, &skip, keep_digests);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                result
            })
            .collect()
    };
    // Window k+1 is baked on the pool while window k is written, so the writing (which must
    // keep input order) overlaps the parallel work instead of idling every other core.
    let mut pending: Option<(Vec<Job>, Vec<ExportResult>)> = None;
    for window in windows {
        let (results, written) = rayon::join(
            || bake_window(&window),
            || match pending.take() {
                Some((previous, results)) => absorb(&mut sink, previous, results),
                None => Ok(()),
            },
        );
        written?;
        pending = Some((window, results));
    }
    if let Some((previous, results)) = pending {
        absorb(&mut sink, previous, results)?;
    }
    let Sink {
        mut report,
        bundles,
        digests,
        mut entries,
        ..
    } = sink;
    let mut stamps = Vec::new();
    for bundle in bundles {
        let (outcome, stamp) = bundle.finish()?;
        record(&mut report, stamp.path.clone(), outcome);
        stamps.push(stamp);
    }
    let summaries: Vec<OutputFile> = exporters
        .iter()
        .flat_map(|e| e.summary(digests.as_deref().unwrap_or_default(), options.layout))
        .collect();
    let summary_paths = summaries.iter().map(|f| f.path.clone()).collect();
    write_files(&out, options.check, summaries, &mut report)?;

    let (kept, removed) = remove_vanished(&out, &old, &entries, &report.errors, options.check)?;
    report.removed = removed;
    if !options.check {
        entries.extend(kept);
        let manifest = Manifest {
            tool: tool(),
            run: run_hash,
            bundles: stamps,
            summaries: summary_paths,
            written: None,
            motions: entries,
        };
        out.write(MANIFEST_PATH, &manifest.to_bytes())?;
        out.remove_leftovers();
    }
    Ok(report)
}

/// Removes the files of motions in the old manifest that are gone: not baked now and not in a
/// file that failed this time (whose motions keep their outputs). Returns the entries kept.
fn remove_vanished(
    out: &OutputDir,
    old: &Manifest,
    baked: &[Entry],
    errors: &[InputError],
    check: bool,
) -> Result<(Vec<Entry>, Vec<String>), WriteError> {
    let current: HashSet<&str> = baked.iter().map(|e| e.name.as_str()).collect();
    let current_files: HashSet<&str> = baked
        .iter()
        .flat_map(|e| e.files.iter().map(String::as_str))
        .collect();
    let failed: HashSet<String> = errors
        .iter()
        .map(|e| e.file.display().to_string())
        .collect();
    let mut kept = Vec::new();
    let mut removed = Vec::new();
    for entry in &old.motions {
        if current.contains(entry.name.as_str()) {
            continue;
        }
        if failed.contains(&entry.source) {
            // The bundles written now leave its chunks out, so they locate nothing any more.
            kept.push(Entry {
                chunks: Vec::new(),
                ..entry.clone()
            });
            continue;
        }
        for file in entry
            .files
            .iter()
            .filter(|f| !current_files.contains(f.as_str()))
        {
            if !check {
                out.remove(file)?;
            }
            removed.push(file.clone());
        }
    }
    Ok((kept, removed))
}

/// One motion to bake: the input, its hash and whether the manifest shows it unchanged.
struct Job {
    input: Input,
    hash: String,
    unchanged: bool,
}
/// One motion baked and exported, or why it could not be.
type ExportResult = Result<Exported, InputError>;

/// One motion baked and exported.
struct Exported {
    frames: usize,
    /// Its digest, when a summary needs one.
    digest: Option<Digest>,
    /// Per exporter (empty for an exporter whose outputs are reused).
    outputs: Vec<MotionOutput>,
}

/// Where baked windows go, in input order: files, bundles, digests and manifest entries.
struct Sink<'a> {
    out: &'a OutputDir,
    check: bool,
    old_entries: &'a HashMap<&'a str, &'a Entry>,
    report: Report,
    bundles: Vec<OpenBundle>,
    /// Kept only when an exporter summarizes the bake.
    digests: Option<Vec<Digest>>,
    entries: Vec<Entry>,
}

/// Takes in one baked window: appends its bundle chunks, writes its files and records it.
fn absorb(sink: &mut Sink, window: Vec<Job>, results: Vec<ExportResult>) -> Result<(), WriteError> {
    let report = &mut sink.report;
    let mut files = Vec::new();
    for (job, result) in window.into_iter().zip(results) {
        let Exported {
            frames,
            digest,
            outputs,
        } = match result {
            Ok(r) => r,
            Err(e) => {
                report.errors.push(e);
                continue;
            }
        };
        report.motions += 1;
        report.frames += frames as u64;
        let mut own_files = Vec::new();
        let skipped = job.unchanged && !sink.check;
        // The motion's record in the old manifest, which an unchanged motion's reuse reads.
        let old = || sink.old_entries[job.input.spec.name.as_str()];
        let mut chunks = Vec::new();
        for (exporter, output) in outputs.into_iter().enumerate() {
            for (name, value) in output.stats {
                *report.stats.entry(name).or_default() += value;
            }
            if let Some(bundle) = sink.bundles.iter_mut().find(|b| b.exporter == exporter) {
                // No chunk: the exporter was skipped, and the previous bundle holds it.
                chunks.push(match output.chunk {
                    Some(chunk) => bundle.append(&chunk)?,
                    None => bundle.append_previous(&old().chunks)?,
                });
            }
            if !skipped {
                own_files.extend(output.files.iter().map(|f| f.path.clone()));
                files.extend(output.files);
            }
        }
        if skipped {
            report.skipped += 1;
            own_files = old().files.clone();
            report.unchanged += own_files.len();
        }
        if let (Some(digests), Some(mut digest)) = (&mut sink.digests, digest) {
            digest.files = own_files.clone();
            digests.push(digest);
        }
        sink.entries.push(Entry {
            source: job.input.file.display().to_string(),
            name: job.input.spec.name,
            hash: job.hash,
            frames: frames as u64,
            files: own_files,
            chunks,
        });
    }
    write_files(sink.out, sink.check, files, report)
}

/// Bakes one motion and runs every exporter it does not `skip` on it.
fn export_one(
    input: &Input,
    exporters: &[Box<dyn Exporter>],
    layout: Layout,
    skip: &dyn Fn(usize) -> bool,
    keep_digest: bool,
) -> Result<Exported, InputError> {
    let with_preview = exporters.iter().any(|e| e.needs_preview());
    let baked = bake(&input.spec).map_err(|e| {
        InputError::new(
            &input.file,
            Problem::Field {
                motion: input.spec.name.clone(),
                message: e.to_string(),
            },
        )
    })?;
    let outputs = exporters
        .iter()
        .enumerate()
        .map(|(k, e)| {
            if skip(k) {
                MotionOutput::default()
            } else {
                let mut output = e.motion(&baked, layout);
                // Outputs wait for the writer: give back what their buffers reserved beyond
                // their bytes (a shrink in place, no copy).
                let files = output.files.iter_mut().map(|f| &mut f.bytes);
                files
                    .chain(&mut output.chunk)
                    .for_each(|b| b.shrink_to_fit());
                output
            }
        })
        .collect();
    Ok(Exported {
        frames: baked.frames(),
        digest: keep_digest.then(|| Digest::of(&baked, with_preview)),
        outputs,
    })
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
