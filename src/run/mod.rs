//! The bake: load -> validate -> bake (in parallel) -> export -> write, with every input
//! error collected and reported, and valid motions still baked.
//!
//! [`run_in_pool`] reads as the bake goes: `plan; for window { bake; write }; finish`.
//! - `plan`: the inputs, the locked output folder, the old manifest, whether anything changed;
//! - `baker`: a window's motions baked and exported in parallel (or reused when unchanged);
//! - `writer`: the output folder, the bundles and the manifest a window is written to;
//! - `tally`: what the windows add up to (the report), in input order;
//! - `claims`: the files a window may write that no manifest names, recorded before it is;
//! - `overlap`: each window written while the next is baked, and why it is scheduled so;
//! - `finish`: removals, the last good outputs of failing motions, summaries, the manifest;
//! - `key`: the bytes the manifest's hashes start from.

mod baker;
mod claims;
mod finish;
mod key;
mod overlap;
mod plan;
mod tally;
mod writer;

use crate::options::BakeOptions;
use crate::output::pool::Pool;
use crate::output::write::WriteError;
use baker::Baker;
use claims::Claims;
use curvebake_export::Format;
use curvebake_model::error::InputError;
use curvebake_model::hash::RunHasher;
use curvebake_model::intake::Intake;
use curvebake_model::spec::Overrides;
use plan::{Plan, Planned};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::time::Instant;
use tally::Tally;
use writer::Writer;

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
    /// Files of formats this bake leaves out, removed because some motion changed, came or
    /// went since they were written (in check mode: that would be removed).
    pub left_out: Vec<String>,
    /// Motions whose hash matched the manifest, so their own files were not regenerated.
    pub skipped: usize,
    /// Every input error.
    pub errors: Vec<InputError>,
    /// What is worth knowing but stopped nothing, each naming its file or option (a motion
    /// that rests only after a long time; formats a bundle leaves out), in input order. A
    /// motion whose outputs are reused says its exporters' warnings again.
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

/// Whether a bake has recorded `out`: its manifest is there, or the list of its files a
/// repository commits (a fresh checkout's).
fn recorded(out: &Path) -> bool {
    out.join(crate::output::manifest::MANIFEST_PATH).exists()
        || out.join(crate::output::listed::LISTED_PATH).exists()
}

/// A folder that no bake has recorded (no manifest) but that holds files where this bake
/// writes may hold a bake that came from elsewhere: a fresh checkout's committed `out/`. A
/// comparison first (a `--check`, which writes nothing) tells whether every file there that
/// the bake would write already holds exactly its bytes. If so, nothing of anyone's would be
/// replaced, and the bake goes on as with `--force` (returned as the options to run); if a
/// file there would get other bytes, it is the user's, and the bake stops before writing
/// anything, naming it. `None`: the bake runs as asked.
fn adopts_a_recorded_bake(
    options: &BakeOptions,
    threads: &rayon::ThreadPool,
    pool: &Pool,
) -> Result<Option<BakeOptions>, FatalError> {
    let unrecorded = !recorded(&options.out);
    let holds_files = std::fs::read_dir(&options.out).is_ok_and(|mut d| d.next().is_some());
    if options.check || options.force || !unrecorded || !holds_files {
        return Ok(None);
    }
    let compare = BakeOptions {
        check: true,
        ..options.clone()
    };
    let compared = threads.install(|| run_in_pool(&compare, pool, &|_, _| {}))?;
    // The comparison waited for any bake holding the folder: one that finished meanwhile
    // (a second bake started at once into a new folder) has recorded it, and this bake runs
    // as asked, its files known from that record.
    if recorded(&options.out) {
        return Ok(None);
    }
    // The files the bake would replace with other bytes: the user's, named all at once (the
    // first five, and how many more).
    let replaced: Vec<&String> = (compared.written.iter())
        .chain(&compared.removed)
        .chain(&compared.left_out)
        .filter(|path| std::fs::symlink_metadata(options.out.join(path)).is_ok())
        .collect();
    let root = options.out.display().to_string();
    match replaced.as_slice() {
        [] => {}
        [path] => {
            return Err(FatalError::Write(WriteError::NotOurs {
                path: options.out.join(path).display().to_string(),
                root,
            }))
        }
        paths => {
            let mut named: Vec<String> = (paths.iter().take(5))
                .map(|p| options.out.join(p).display().to_string())
                .collect();
            if paths.len() > named.len() {
                named.push(format!("and {} more", paths.len() - named.len()));
            }
            return Err(FatalError::Write(WriteError::NotOursFiles {
                count: paths.len(),
                paths: named.join(", "),
                root,
            }));
        }
    }
    Ok(Some(BakeOptions {
        force: true,
        ..options.clone()
    }))
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
    // A device (`/dev/null/x`) is no folder either.
    let not_a_folder = |a: &Path| a.exists() && !a.is_dir();
    if let Some(file) = (options.out.ancestors().skip(1)).find(|a| not_a_folder(a)) {
        return Err(FatalError::Usage(format!(
            "{}: --out lies under the file {}, where no folder can be",
            options.out.display(),
            file.display()
        )));
    }
    if let Some(missing) = missing_before_parent(&options.out) {
        return Err(FatalError::Usage(format!(
            "{}: --out goes up (`..`) out of {}, which does not exist: a bake would make that \
             folder outside its output folder; name the output folder without it",
            options.out.display(),
            missing.display()
        )));
    }
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .map_err(|e| FatalError::Usage(format!("--jobs: cannot start threads: {e}")))?;
    // The output buffers kept for reuse within this bake (freed with it).
    let pool = Pool::default();
    let adopting = adopts_a_recorded_bake(options, &threads, &pool)?;
    let options = &adopting.unwrap_or_else(|| options.clone());
    let mut report = threads.install(|| run_in_pool(options, &pool, progress))?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The first folder of `out` that does not exist and that a `..` after it leaves
/// (`a/b/../c` without `a/b`): making the output folder would make it, outside the output
/// folder.
fn missing_before_parent(out: &Path) -> Option<PathBuf> {
    let mut prefix = PathBuf::new();
    for component in out.components() {
        if component == Component::ParentDir && !prefix.as_os_str().is_empty() && !prefix.is_dir() {
            return Some(prefix);
        }
        prefix.push(component);
    }
    None
}

/// A bake on the current pool: plan it, then bake and write it window by window (each
/// window written while the next is baked, see [`overlap`]), then finish it.
fn run_in_pool(
    options: &BakeOptions,
    pool: &Pool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, FatalError> {
    let mut plan = match Plan::make(options)? {
        Planned::Unchanged(report) => return Ok(report),
        Planned::Bake(plan) => *plan,
    };
    let folder_errors = std::mem::take(&mut plan.folder_errors);
    let plan = &plan;
    let mut writer = Writer::open(plan, pool)?;
    let exporters = plan.exporters.len();
    let mut tally = Tally::new(
        folder_errors,
        plan.summarized(),
        writer.bundle_of(exporters),
    );
    let reusable = writer.reusable(exporters);
    let baker = Baker::new(plan, reusable, pool, progress);
    let overrides = Overrides {
        fps: options.fps,
        without_texts: !(plan.exporters.iter()).any(|e| e.format() == Format::Tokens),
    };
    let mut intake = Intake::new(
        &plan.files,
        overrides,
        RunHasher::new(&plan.run_key.whole()),
    );
    let mut claims = Claims::new(plan)?;
    overlap::bake_and_write(&mut intake, &baker, &mut writer, &mut claims, &mut tally)?;
    finish::finish(plan, pool, intake, tally, writer)
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
