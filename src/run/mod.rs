//! The bake: load -> validate -> bake (in parallel) -> export -> write, with every input
//! error collected and reported, and valid motions still baked.

mod key;

use crate::bake::bake;
use crate::error::{InputError, Problem};
use crate::export::{
    exporters, Digest, ExportSettings, Exporter, Format, Layout, OutputFile, Summary,
};
use crate::input::intake::{Intake, Window};
use crate::input::load::{find_inputs_reporting, read_source, Input};
use crate::output::bundle::{Chunk, OpenBundle};
use crate::output::lock::OutputLock;
use crate::output::manifest::{
    source_digest, Entry, Manifest, ManifestWriter, RunHasher, SpecHasher, SummaryRecord,
};
use crate::output::pool::{self, Pool};
use crate::output::write::{Outcome, OutputDir, WriteError};
use crate::spec::Overrides;
use arrayvec::ArrayVec;
use key::run_key;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Most worker threads a bake starts (`--jobs`): far more than any machine's cores, few enough
/// that starting them takes no time.
pub const MAX_JOBS: usize = 256;

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
            formats: Format::built(),
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
    /// What is worth knowing but stopped nothing, each naming its file or option (a motion
    /// that rests only after a long time; formats a bundle leaves out), in input order.
    pub warnings: Vec<String>,
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

/// Runs a bake. `progress(done, total)` is called as motions finish, with `total` the motions
/// read so far (files are read as the bake goes, so it grows until the last is read).
pub fn run(
    options: &BakeOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let started = Instant::now();
    if options.check && options.out.exists() && !options.out.is_dir() {
        return Err(FatalError::Usage(format!(
            "{}: --out names a file, not an output folder, so there is nothing to compare (a bake would refuse to write there too)",
            options.out.display()
        )));
    }
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .map_err(|e| FatalError::Usage(format!("--jobs: cannot start threads: {e}")))?;
    // The output buffers kept for reuse within this bake (freed with it).
    let pool = Pool::default();
    let mut report = threads.install(|| run_in_pool(options, &pool, progress))?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

fn run_in_pool(
    options: &BakeOptions,
    pool: &Pool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let (files, folder_errors) =
        find_inputs_reporting(&options.inputs).map_err(FatalError::Input)?;
    // What the manifest records as each motion's source: the same file however its path was
    // spelled (`curves`, `./curves`, `$PWD/curves/`, by `bake` or by `watch`).
    let identities: HashMap<&Path, String> = files
        .par_iter()
        .map(|f| (f.as_path(), source_identity(f)))
        .collect();
    let out = if options.check {
        OutputDir::existing(&options.out)
    } else {
        OutputDir::create(&options.out)?
    };
    // Held until the bake is done: from reading the manifest to writing the next one.
    let _lock = if options.check {
        OutputLock::shared(&out)
    } else {
        Some(OutputLock::exclusive(&out)?)
    };
    let exporters = exporters(&options.formats, options.layout, &options.settings);

    // With `--force`, nothing the manifest says is trusted, but which files are ours is still
    // known, so the files of motions that are gone are still removed.
    let mut old = if options.force {
        Manifest::read(&options.out).ownership()
    } else {
        Manifest::read(&options.out)
    };
    // An entry naming a path outside the folder (a hand-edited manifest) is not ours to touch.
    old.motions
        .retain(|e| e.files.iter().all(|f| out.resolve(f).is_ok()));
    let run_key = run_key(options);
    if !options.check && folder_errors.is_empty() && nothing_changed(&old, &out, &files, &run_key) {
        // Nothing changed since the manifest was written: nothing to bake, nothing to write.
        let shared = old.bundles.len() + old.summaries.len();
        return Ok(Report {
            motions: old.motions.len(),
            skipped: old.motions.len(),
            frames: old.motions.iter().map(|e| e.frames).sum(),
            unchanged: old.motions.iter().map(|e| e.files.len()).sum::<usize>() + shared,
            ..Report::default()
        });
    }

    let manifest = if options.check {
        None
    } else {
        // Until this bake completes, the manifest in place says only which files are ours: a
        // run that fails or is killed from here on leaves that record, so the next run bakes
        // everything again instead of trusting stale hashes, and still removes the files of
        // motions that are gone. It is on disk before any output is replaced.
        old.in_progress(&out)?;
        // Before this bake writes anything: a fresh folder has nothing to walk, and the files
        // this bake writes are not walked again at its end.
        out.remove_leftovers();
        Some(ManifestWriter::open(&out)?)
    };
    let mut bundles = Vec::new();
    for (exporter, e) in exporters.iter().enumerate() {
        if let Some(b) = &e.shape().bundle {
            bundles.push(OpenBundle::open(
                &out,
                exporter,
                b.clone(),
                options.check,
                &old,
            )?);
        }
    }
    // Per exporter: whether its motions' outputs of an unchanged motion are all reusable (its
    // own files are on disk; a bundle chunk can be copied from the previous bundle).
    let reusable: Vec<bool> = (0..exporters.len())
        .map(|k| !options.check && bundles.iter().all(|b| b.exporter != k || b.reusable()))
        .collect();
    let old_entries: HashMap<&str, &Entry> =
        old.motions.iter().map(|e| (e.name.as_str(), e)).collect();
    // The old record of a motion whose spec, and so whose outputs, are unchanged, if its own
    // files are still there.
    let spec_hasher = SpecHasher::new(&run_key);
    let unchanged_record = |name: &str, hash: &str| {
        old_entries.get(name).copied().filter(|e| {
            e.hash == hash
                && e.files.iter().all(|f| out.exists(f))
                && e.chunks.len() == old.bundles.len()
        })
    };

    let bundle_of = (0..exporters.len())
        .map(|k| bundles.iter().position(|b| b.exporter == k))
        .collect();
    // A folder that cannot be searched is an input error, like a broken file: its motions
    // keep their outputs (below), and they are reported first.
    let failed_folders: Vec<String> = folder_errors
        .iter()
        .map(|e| source_identity(&e.file))
        .collect();
    let mut tally = Tally {
        report: Report {
            errors: folder_errors,
            ..Report::default()
        },
        bake_errors: Vec::new(),
        unbaked: HashSet::new(),
        // Digests are kept only for the files that describe the whole bake, if any.
        digests: exporters
            .iter()
            .any(|e| e.shape().summary != Summary::None)
            .then(Vec::new),
        bundle_of,
    };
    let mut writer = Writer {
        out: &out,
        check: options.check,
        bundles,
        manifest,
        pool,
    };
    let keep_digests = tally.digests.is_some();
    // Records are made only for a manifest (none in check mode).
    let records = writer.manifest.is_some();
    let done = AtomicUsize::new(0);
    // Each motion's spec is dropped by the thread that baked it: the writer frees as little
    // as possible of what other threads allocated (glibc's arenas make such frees contend).
    let bake_window = |window: Vec<Input>, read: usize| -> Vec<Done> {
        window
            .into_par_iter()
            .map(|input| {
                let hash = spec_hasher.hash(&input.spec);
                let old = unchanged_record(&input.spec.name, &hash);
                // An unchanged motion is still baked for the summaries, but not exported again.
                let skip = |k: usize| old.is_some() && reusable[k];
                // Its old record, when its outputs are reused (not in check mode).
                let reused = old.filter(|_| !options.check);
                let result = match export_one(&input, &exporters, pool, &skip, keep_digests) {
                    Ok(mut exported) => {
                        let source = identities
                            .get(&*input.file)
                            .cloned()
                            .unwrap_or_else(|| source_identity(&input.file));
                        exported.settle(source, input.spec.name, hash, reused, records);
                        Ok(exported)
                    }
                    Err(e) => Err((input.spec.name, e)),
                };
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, read);
                Done {
                    old,
                    reused,
                    result,
                }
            })
            .collect()
    };
    // Window k+1 is baked, and the files of window k+2 read, on the pool while window k is
    // written, so the writing (which must keep input order) overlaps the parallel work
    // instead of idling every other core.
    let overrides = Overrides { fps: options.fps };
    let mut intake = Intake::new(&files, overrides, RunHasher::new(&run_key));
    let mut pending: Option<(Vec<InputError>, Vec<Done>)> = None;
    while let Some(Window { inputs, errors }) = intake.next_window() {
        let read = intake.read();
        let next = || rayon::join(|| bake_window(inputs, read), || intake.read_ahead()).0;
        let done = match pending.take() {
            Some((errors, done)) => {
                let (written, next) = write_window(&mut writer, &mut tally, errors, done, next);
                written?;
                next
            }
            None => next(),
        };
        pending = Some((errors, done));
    }
    if let Some((errors, done)) = pending {
        write_window(&mut writer, &mut tally, errors, done, || ()).0?;
    }
    let (names, run_hash, warnings) = intake.finish();
    let Tally {
        mut report,
        bake_errors,
        unbaked,
        digests,
        ..
    } = tally;
    let Writer {
        bundles, manifest, ..
    } = writer;
    // Input errors in file order, then motions that could not be baked, in input order.
    report.errors.extend(bake_errors);
    report.warnings.extend(warnings);

    // A motion that could not be baked has no new record: it is treated as gone from the
    // inputs, so its old record is kept while its file fails.
    let baked = |name: &str| names.contains(name) && !unbaked.contains(name);
    let failed: HashSet<String> = report
        .errors
        .iter()
        .map(|e| {
            (identities.get(e.file.as_path()).cloned()).unwrap_or_else(|| source_identity(&e.file))
        })
        .collect();
    let failed = |source: &str| {
        failed.contains(source)
            || (failed_folders.iter()).any(|folder| Path::new(source).starts_with(folder))
    };
    let (mut kept, removed) = remove_vanished(&out, &old, &baked, &failed, options.check)?;
    report.removed = removed;
    // A motion that fails keeps its last good chunks in the bundles (after the others), copied
    // from the previous bundles when they are still the ones the manifest describes.
    let mut bundles = bundles;
    let keep_chunks = !bundles.is_empty() && bundles.iter().all(OpenBundle::reusable);
    for entry in &mut kept {
        let chunks = std::mem::take(&mut entry.chunks);
        if keep_chunks && chunks.len() == old.bundles.len() {
            let places = (bundles.iter_mut())
                .map(|b| {
                    b.append_all(vec![Chunk::Previous(&chunks)], pool)
                        .map(|p| p[0])
                })
                .collect::<Result<Vec<_>, _>>()?;
            entry.chunks = places;
        }
    }
    // And its last good digest in the files describing the whole bake, after the others too
    // (so the page and the index list motions in one order), when its record holds as one.
    let mut digests = digests;
    if let Some(digests) = &mut digests {
        for entry in &mut kept {
            let digest = (entry.summary.as_ref()).and_then(|summary| summary.digest(entry));
            if digest.is_none() {
                entry.summary = None;
            }
            digests.extend(digest);
        }
    }
    let mut stamps = Vec::new();
    for bundle in bundles {
        let (outcome, stamp) = bundle.finish()?;
        record(&mut report, stamp.path.clone(), outcome);
        stamps.push(stamp);
    }
    let summaries: Vec<OutputFile> = exporters
        .iter()
        .flat_map(|e| e.summary(digests.as_deref().unwrap_or_default()))
        .collect();
    let summary_paths: Vec<String> = summaries.iter().map(|f| f.path.clone()).collect();
    let summaries = summaries.into_iter().map(|f| vec![f]).collect();
    for (path, outcome) in write_files(&out, options.check, pool, summaries) {
        record(&mut report, path, outcome?);
    }

    if let Some(mut manifest) = manifest {
        for entry in &kept {
            manifest.push(entry)?;
        }
        // Only a bake without errors may let the next one skip everything.
        let run = if report.errors.is_empty() {
            run_hash
        } else {
            String::new()
        };
        manifest.finish(&run, &stamps, &summary_paths)?;
    }
    Ok(report)
}

/// Whether the inputs are the ones the old manifest was written for (same files, same bytes,
/// same run settings, and that bake had no errors) and every output it lists is still there:
/// then nothing needs baking. Reads the files, but parses nothing.
fn nothing_changed(old: &Manifest, out: &OutputDir, files: &[PathBuf], run_key: &[u8]) -> bool {
    if old.run.is_empty() {
        return false;
    }
    let digests: Option<Vec<[u8; 32]>> = files
        .par_iter()
        .map(|f| read_source(f).ok().map(|bytes| source_digest(f, &bytes)))
        .collect();
    let Some(digests) = digests else {
        return false;
    };
    let mut run = RunHasher::new(run_key);
    digests.iter().for_each(|d| run.add(d));
    // The files every motion feeds: bundles as the manifest left them, summaries present.
    let bundles_intact = old
        .bundles
        .iter()
        .all(|stamp| (out.resolve(&stamp.path)).is_ok_and(|path| old.describes(stamp, &path)));
    run.finish() == old.run
        && bundles_intact
        && old.summaries.iter().all(|f| out.exists(f))
        && old
            .motions
            .par_iter()
            .all(|e| e.files.iter().all(|f| out.exists(f)))
}

/// A source file's identity in the manifest: its canonical path (symbolic links, `.`, `..`
/// and repeated separators resolved), or, when it cannot be resolved (it is gone), its
/// absolute path.
pub fn source_identity(file: &Path) -> String {
    file.canonicalize()
        .or_else(|_| std::path::absolute(file))
        .unwrap_or_else(|_| file.to_owned())
        .display()
        .to_string()
}

/// Removes the files of motions in the old manifest that are gone: not `baked` now and not in
/// a file that `failed` this time (by [`source_identity`]; its motions keep their outputs).
/// Returns the entries kept and the files removed.
fn remove_vanished(
    out: &OutputDir,
    old: &Manifest,
    baked: &dyn Fn(&str) -> bool,
    failed: &dyn Fn(&str) -> bool,
    check: bool,
) -> Result<(Vec<Entry>, Vec<String>), WriteError> {
    let mut kept = Vec::new();
    let mut removed = Vec::new();
    for entry in &old.motions {
        if baked(&entry.name) {
            continue;
        }
        if failed(&entry.source) {
            // Its chunks still locate its last good chunks in the previous bundles.
            kept.push(entry.clone());
            continue;
        }
        for file in &entry.files {
            if !check {
                out.remove(file)?;
            }
            removed.push(file.clone());
        }
    }
    Ok((kept, removed))
}

/// One motion baked and exported (or why not, with its name) and, if its outputs are
/// unchanged, its old record.
struct Done<'a> {
    old: Option<&'a Entry>,
    /// The old record, when the motion's files are reused, not written (not in check mode).
    reused: Option<&'a Entry>,
    result: Result<Exported, (String, InputError)>,
}

impl Done<'_> {
    /// Whether the motion has files of its own to write (none with `--bundle`).
    fn has_files(&self) -> bool {
        self.reused.is_none()
            && (self.result.as_ref())
                .is_ok_and(|e| e.outputs.iter().any(|output| !output.files.is_empty()))
    }
}

/// One motion baked and exported.
struct Exported {
    frames: usize,
    /// The exporters' warnings about it, each naming its file and the motion.
    warnings: Vec<String>,
    /// Its digest, when a summary needs one.
    digest: Option<Digest>,
    /// Per exporter (empty for an exporter whose outputs are reused), held in place: a buffer
    /// of them, freed by the writing thread, would take the baking thread's glibc arena lock
    /// (it is too large for the lock-free bins) and make one of them wait.
    outputs: ArrayVec<Output, { Format::ALL.len() }>,
    /// Its record for the manifest, if one is kept (its chunks' places still to be filled in).
    record: Option<Entry>,
}

impl Exported {
    /// Lists the motion's own files (those of its outputs, or the `reused` record's) in its
    /// digest and, if `records` are kept, in its new record. Done by the thread that baked
    /// it, so that what the writing waits for is only moving outputs into place.
    fn settle(
        &mut self,
        source: String,
        name: String,
        hash: String,
        reused: Option<&Entry>,
        records: bool,
    ) {
        let files = match reused {
            Some(old) => old.files.clone(),
            None => self
                .outputs
                .iter()
                .flat_map(|output| output.files.iter().map(|f| f.path.clone()))
                .collect(),
        };
        if let Some(digest) = &mut self.digest {
            digest.files = files.clone();
        }
        self.record = records.then(|| Entry {
            source,
            name,
            hash,
            frames: self.frames as u64,
            files,
            chunks: Vec::new(),
            summary: self.digest.as_ref().map(SummaryRecord::of),
        });
    }
}

/// What an exporter made of one motion, its files with their paths.
#[derive(Default)]
struct Output {
    files: Vec<OutputFile>,
    chunk: Option<Vec<u8>>,
    stats: Vec<(&'static str, u64)>,
}

/// What the baked windows add up to, in input order.
struct Tally {
    report: Report,
    /// Motions that could not be baked (reported after the input errors).
    bake_errors: Vec<InputError>,
    /// Their names.
    unbaked: HashSet<String>,
    /// Kept only when an exporter summarizes the bake.
    digests: Option<Vec<Digest>>,
    /// Per exporter, the bundle its chunks go to, if any.
    bundle_of: Vec<Option<usize>>,
}

/// Where baked windows go, in input order: the output folder, the bundles and the manifest.
struct Writer<'a> {
    out: &'a OutputDir,
    check: bool,
    bundles: Vec<OpenBundle>,
    /// None in check mode.
    manifest: Option<ManifestWriter>,
    /// Where written buffers go back.
    pool: &'a Pool,
}

/// One baked window, sorted for writing.
struct Sorted<'a> {
    /// Per exporter, so that one thread writes each folder's files: two threads creating
    /// files in one folder wait for each other on its lock (in the kernel).
    files: Vec<Vec<OutputFile>>,
    /// Per bundle.
    chunks: Vec<Vec<Chunk<'a>>>,
    /// The motions' records, their chunks' places still to be filled in.
    entries: Vec<Entry>,
}

/// Counts one baked window into the tally and sorts its outputs for writing.
fn sort<'a>(tally: &mut Tally, errors: Vec<InputError>, done: Vec<Done<'a>>) -> Sorted<'a> {
    let report = &mut tally.report;
    report.errors.extend(errors);
    let bundles = tally.bundle_of.iter().flatten().count();
    let mut sorted = Sorted {
        files: Vec::new(),
        chunks: (0..bundles).map(|_| Vec::new()).collect(),
        entries: Vec::new(),
    };
    for Done {
        old,
        reused,
        result,
    } in done
    {
        let Exported {
            frames,
            warnings,
            digest,
            outputs,
            record,
        } = match result {
            Ok(r) => r,
            Err((name, e)) => {
                tally.unbaked.insert(name);
                tally.bake_errors.push(e);
                continue;
            }
        };
        report.motions += 1;
        report.frames += frames as u64;
        report.warnings.extend(warnings);
        for (exporter, output) in outputs.into_iter().enumerate() {
            for (name, value) in output.stats {
                *report.stats.entry(name).or_default() += value;
            }
            if let Some(b) = tally.bundle_of[exporter] {
                // No chunk: the exporter was skipped, and the previous bundle holds it.
                sorted.chunks[b].push(match (output.chunk, old) {
                    (Some(chunk), _) => Chunk::New(chunk),
                    (None, Some(old)) => Chunk::Previous(&old.chunks),
                    (None, None) => unreachable!("only an unchanged motion's chunk is reused"),
                });
            }
            if reused.is_none() {
                let files = &mut sorted.files;
                if files.len() <= exporter {
                    files.resize_with(exporter + 1, Vec::new);
                }
                files[exporter].extend(output.files);
            }
        }
        if let Some(old) = reused {
            report.skipped += 1;
            report.unchanged += old.files.len();
        }
        if let (Some(digests), Some(digest)) = (&mut tally.digests, digest) {
            digests.push(digest);
        }
        sorted.entries.extend(record);
    }
    sorted
}

/// Takes in one baked window: counts it into the tally, appends its bundle chunks, writes its
/// files and its records, while `next` (the next window's baking) fills the gaps; returns
/// what `next` returned.
///
/// The bundles and the files are written in parallel, each bundle getting the window's chunks
/// in one go and each folder's files written by one thread. The largest group of files is
/// written on this thread; another takes the rest and then `next`, whose many small tasks
/// whichever thread is done first picks up, so that neither waits for the other at the end
/// of the window. (With `next` beside the writing as a whole, the thread that baked it also
/// had a folder's files to write, while the other, done with its own, waited.)
fn write_window<R: Send>(
    writer: &mut Writer,
    tally: &mut Tally,
    errors: Vec<InputError>,
    done: Vec<Done>,
    next: impl FnOnce() -> R + Send,
) -> (Result<(), WriteError>, R) {
    let Writer {
        out,
        check,
        bundles,
        manifest,
        pool,
    } = writer;
    let (out, check, pool) = (*out, *check, *pool);
    if !done.iter().any(Done::has_files) {
        // Only bundles (`--bundle`): the baking starts on this thread, the rest on another.
        let (next, appended) = rayon::join(next, || {
            let sorted = sort(tally, errors, done);
            append(bundles, manifest, pool, sorted.chunks, sorted.entries)
        });
        return (appended, next);
    }
    let Sorted {
        files,
        chunks,
        entries,
    } = sort(tally, errors, done);
    let mut groups = by_size(files);
    let largest = groups.pop();
    let (written, ((appended, rest), next)) = rayon::join(
        || largest.map(|(k, group)| (k, write_group(out, check, pool, group))),
        || {
            rayon::join(
                || {
                    rayon::join(
                        || append(bundles, manifest, pool, chunks, entries),
                        || write_groups(out, check, pool, groups),
                    )
                },
                next,
            )
        },
    );
    let recorded = (|| {
        for (path, outcome) in in_group_order(written.into_iter().chain(rest).collect()) {
            record(&mut tally.report, path, outcome?);
        }
        appended
    })();
    (recorded, next)
}

/// Appends a window's chunks to the bundles, then its records (which say where the chunks
/// went) to the manifest.
fn append(
    bundles: &mut [OpenBundle],
    manifest: &mut Option<ManifestWriter>,
    pool: &Pool,
    chunks: Vec<Vec<Chunk>>,
    entries: Vec<Entry>,
) -> Result<(), WriteError> {
    let places = bundles
        .par_iter_mut()
        .zip(chunks)
        .map(|(bundle, chunks)| bundle.append_all(chunks, pool))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(manifest) = manifest {
        for (k, mut entry) in entries.into_iter().enumerate() {
            entry.chunks = places.iter().map(|p| p[k]).collect();
            manifest.push(&entry)?;
        }
    }
    Ok(())
}

/// Bakes one motion and runs every exporter it does not `skip` on it.
fn export_one(
    input: &Input,
    exporters: &[Box<dyn Exporter>],
    pool: &Pool,
    skip: &dyn Fn(usize) -> bool,
    keep_digest: bool,
) -> Result<Exported, InputError> {
    let with_preview = exporters
        .iter()
        .any(|e| e.shape().summary == Summary::Previews);
    let baked = bake(&input.spec).map_err(|e| {
        InputError::new(
            &input.file,
            Problem::Field {
                motion: input.spec.name.clone(),
                message: e.to_string(),
            },
        )
    })?;
    // Every format's paths for this motion, made from the formats' own patterns.
    let name = &input.spec.name;
    let files: Vec<String> = exporters
        .iter()
        .flat_map(|e| e.shape().files.iter().map(|p| p.of(name)))
        .collect();
    let mut first = 0;
    let mut warnings = Vec::new();
    let outputs = exporters
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let paths = &files[first..first + e.shape().files.len()];
            first += paths.len();
            if skip(k) {
                return Output::default();
            }
            let mut output = e.motion(&baked, &files, pool);
            assert_eq!(
                output.files.len(),
                e.shape().files.len(),
                "{:?}",
                e.format()
            );
            let bytes = output.files.iter_mut().chain(&mut output.chunk);
            bytes.for_each(pool::trim);
            let file = input.file.display();
            warnings.extend((output.warnings.iter()).map(|w| format!("{file}: {name}: {w}")));
            Output {
                files: (paths.iter().zip(output.files))
                    .map(|(path, bytes)| OutputFile {
                        path: path.clone(),
                        bytes,
                    })
                    .collect(),
                chunk: output.chunk,
                stats: output.stats,
            }
        })
        .collect();
    Ok(Exported {
        frames: baked.frames(),
        warnings,
        digest: keep_digest.then(|| Digest::of(&baked, with_preview)),
        outputs,
        record: None,
    })
}

/// What happened to each file written (or compared), by path.
type Outcomes = Vec<(String, Result<Outcome, WriteError>)>;

/// The outcomes of one group of files, with the group's place among them.
type Written = (usize, Outcomes);

/// Writes (or, in check mode, compares) groups of files in parallel, each group's in order on
/// one thread; returns what happened to each file, group by group.
fn write_files(
    out: &OutputDir,
    check: bool,
    pool: &Pool,
    groups: Vec<Vec<OutputFile>>,
) -> Outcomes {
    in_group_order(write_groups(out, check, pool, by_size(groups)))
}

/// The groups, each with its place, smallest (in bytes) first.
fn by_size(groups: Vec<Vec<OutputFile>>) -> Vec<(usize, Vec<OutputFile>)> {
    let bytes = |group: &Vec<OutputFile>| group.iter().map(|f| f.bytes.len()).sum::<usize>();
    let mut groups: Vec<(usize, Vec<OutputFile>)> = groups.into_iter().enumerate().collect();
    groups.sort_by_key(|(k, group)| (bytes(group), std::cmp::Reverse(*k)));
    groups
}

/// Writes groups in parallel, the last (largest) handed out first.
fn write_groups(
    out: &OutputDir,
    check: bool,
    pool: &Pool,
    groups: Vec<(usize, Vec<OutputFile>)>,
) -> Vec<Written> {
    groups
        .into_par_iter()
        .rev()
        .map(|(k, group)| (k, write_group(out, check, pool, group)))
        .collect()
}

/// Writes one group of files in order.
fn write_group(out: &OutputDir, check: bool, pool: &Pool, group: Vec<OutputFile>) -> Outcomes {
    group
        .into_iter()
        .map(|f| write_one(out, check, pool, f))
        .collect()
}

/// The outcomes of every group, in the groups' places.
fn in_group_order(mut written: Vec<Written>) -> Outcomes {
    written.sort_by_key(|(k, _)| *k);
    written
        .into_iter()
        .flat_map(|(_, outcomes)| outcomes)
        .collect()
}

/// Writes (or compares) one file and hands its buffer back to the pool.
fn write_one(
    out: &OutputDir,
    check: bool,
    pool: &Pool,
    f: OutputFile,
) -> (String, Result<Outcome, WriteError>) {
    let outcome = if check {
        out.holds(&f.path, &f.bytes).map(|same| {
            if same {
                Outcome::Unchanged
            } else {
                Outcome::Differs
            }
        })
    } else {
        out.write(&f.path, &f.bytes)
    };
    pool.recycle([f.bytes]);
    (f.path, outcome)
}

fn record(report: &mut Report, path: String, outcome: Outcome) {
    match outcome {
        // `written` lists, in check mode, what a bake would write.
        Outcome::Written | Outcome::Differs => report.written.push(path),
        Outcome::Unchanged => report.unchanged += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_come_back_in_group_order_whatever_order_groups_are_written_in() {
        let dir = tempfile::tempdir().unwrap();
        let out = OutputDir::create(dir.path()).unwrap();
        // The second group is the largest, so it is handed out first.
        let group = |folder: &str, files: usize, size: usize| -> Vec<OutputFile> {
            (0..files)
                .map(|k| OutputFile {
                    path: format!("{folder}/{k}.txt"),
                    bytes: vec![b'x'; size],
                })
                .collect()
        };
        let groups = vec![group("a", 3, 10), group("b", 2, 1000), group("c", 1, 100)];
        let expected: Vec<String> = groups.iter().flatten().map(|f| f.path.clone()).collect();
        let written = write_files(&out, false, &Pool::default(), groups);
        let paths: Vec<String> = written.iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(paths, expected);
        assert!(written
            .iter()
            .all(|(_, outcome)| matches!(outcome, Ok(Outcome::Written))));
        let b1 = std::fs::read(dir.path().join("b/1.txt")).unwrap();
        assert_eq!(b1, vec![b'x'; 1000]);
    }
}
