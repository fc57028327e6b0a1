//! The plan of a bake: what it reads, where it writes, what the last bake left there, and
//! whether anything needs doing at all. Everything decided before the first motion is baked.

use super::key::{run_key, RunKey};
use super::{source_identity, FatalError, Report};
use crate::options::BakeOptions;
use crate::output::lock::OutputLock;
use crate::output::manifest::Manifest;
use crate::output::record::said_once;
use crate::output::write::OutputDir;
use curvebake_export::{exporters, Exporter, Summary};
use curvebake_model::error::{InputError, Problem};
use curvebake_model::hash::{source_digest, RunHasher, SourceDigest};
use curvebake_model::source::{find_inputs_reporting, read_source};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a bake works from: its inputs, its output folder (locked), its exporters and the
/// manifest the last bake left.
pub(super) struct Plan {
    /// The input files, in input order.
    pub files: Vec<PathBuf>,
    /// Folders that could not be searched: input errors like a broken file, reported first.
    pub folder_errors: Vec<InputError>,
    /// Those folders' identities: the motions of files below them keep their outputs.
    pub failed_folders: Vec<String>,
    /// The inputs as given, each by its identity (see [`source_identity`]): a motion of the
    /// last bake from a file under none of them came from other inputs.
    pub input_roots: Vec<String>,
    /// What the manifest records as each motion's source: the same file however its path was
    /// spelled (`curves`, `./curves`, `$PWD/curves/`, by `bake` or by `watch`).
    identities: HashMap<PathBuf, String>,
    /// The output folder.
    pub out: OutputDir,
    /// Held until the bake is done (the plan lives as long as the bake): from reading the
    /// manifest to writing the next one.
    _lock: Option<OutputLock>,
    /// One per format, in the order of the options.
    pub exporters: Vec<Box<dyn Exporter>>,
    /// The last bake's manifest, less the entries naming paths outside the folder.
    pub old: Manifest,
    /// The bytes every motion's hash and the run's hash start from (the run's settings).
    pub run_key: RunKey,
}

/// What planning found.
pub(super) enum Planned {
    /// Nothing changed since the manifest was written: nothing to bake, nothing to write;
    /// the report says so.
    Unchanged(Report),
    /// Something may have changed: bake.
    Bake(Box<Plan>),
}

impl Plan {
    /// Finds the inputs, opens (and locks) the output folder, reads the manifest and decides
    /// whether anything needs baking.
    pub fn make(options: &BakeOptions) -> Result<Planned, FatalError> {
        let (mut files, folder_errors) = find_inputs_reporting(&options.inputs, Some(&options.out))
            .map_err(FatalError::Input)?;
        let identities: HashMap<PathBuf, String> = files
            .par_iter()
            .map(|f| (f.clone(), source_identity(f)))
            .collect();
        let mut out = if options.check {
            OutputDir::existing(&options.out)
        } else {
            OutputDir::create(&options.out)?
        };
        let lock = if options.check {
            OutputLock::shared(&out)
        } else {
            Some(OutputLock::exclusive(&out)?)
        };
        let exporters = exporters(&options.formats, options.layout, &options.settings);

        // With `--force`, nothing the manifest says is trusted, but which files are ours is
        // still known, so the files of motions that are gone are still removed.
        let mut old = if options.force {
            Manifest::read(&options.out).ownership()
        } else {
            Manifest::read(&options.out)
        };
        // An entry naming a path outside the folder (a hand-edited manifest) is not ours to
        // touch.
        old.motions
            .retain(|e| e.files.iter().all(|f| out.resolve(f).is_ok()));
        let whole_bake = whole_bake_files(&exporters);
        leave_out_own_outputs(&mut files, &identities, options, &old, &whole_bake)?;
        if !options.check && !options.force {
            // Only files of ours are replaced: those the manifest names, and the files of
            // the whole bake if nothing of the user's is there (checked before anything is
            // written; each motion's new files are checked as they are claimed).
            out.guard(old.files().cloned());
            out.claim(whole_bake.iter().map(String::as_str))?;
        }
        let run_key = run_key(options);
        if !options.check
            && folder_errors.is_empty()
            && nothing_changed(&old, &out, &files, &run_key.whole())
        {
            let shared = old.bundles.len() + old.summaries.len();
            let mut warnings = kept_warnings(&old, &identities);
            let with_files = old.motions.iter().any(|e| !e.files.is_empty());
            warnings.extend(
                (exporters.iter()).flat_map(|e| e.summary_warnings(old.motions.len(), with_files)),
            );
            return Ok(Planned::Unchanged(Report {
                warnings,
                motions: old.motions.len(),
                skipped: old.motions.len(),
                frames: old.motions.iter().map(|e| e.frames).sum(),
                unchanged: old.motions.iter().map(|e| e.files.len()).sum::<usize>() + shared,
                ..Report::default()
            }));
        }
        let failed_folders = folder_errors
            .iter()
            .map(|e| source_identity(&e.file))
            .collect();
        let input_roots = options.inputs.iter().map(|i| source_identity(i)).collect();
        Ok(Planned::Bake(Box::new(Plan {
            files,
            folder_errors,
            failed_folders,
            input_roots,
            identities,
            out,
            _lock: lock,
            exporters,
            old,
            run_key,
        })))
    }

    /// Whether a source (by its identity) lies under one of the inputs: else a motion of the
    /// last bake from it came from other inputs.
    pub fn reads(&self, source: &str) -> bool {
        (self.input_roots.iter()).any(|root| Path::new(source).starts_with(root))
    }

    /// A file's identity as the manifest records it (see [`source_identity`]), looked up
    /// when it is one of the inputs.
    pub fn source_of(&self, file: &Path) -> String {
        (self.identities.get(file).cloned()).unwrap_or_else(|| source_identity(file))
    }

    /// The files of the whole bake its exporters write: their bundles and summaries.
    pub fn whole_bake_files(&self) -> Vec<String> {
        whole_bake_files(&self.exporters)
    }

    /// Whether an exporter writes files describing the whole bake, so that every motion's
    /// digest is kept.
    pub fn summarized(&self) -> bool {
        (self.exporters.iter()).any(|e| e.shape().summary != Summary::None)
    }
}

/// The files of the whole bake `exporters` write: their bundles and summaries.
fn whole_bake_files(exporters: &[Box<dyn Exporter>]) -> Vec<String> {
    (exporters.iter())
        .flat_map(|e| {
            let shape = e.shape();
            (shape.bundle.iter().map(|b| b.path.clone()))
                .chain(shape.summaries.iter().map(|s| s.to_string()))
        })
        .collect()
}

/// Leaves out of `files` the bake's own outputs, found where the output folder is itself
/// searched (an input folder that is the output folder or lies inside it: `bake curves --out
/// curves`; a search never enters the output folder from above, see
/// [`find_inputs_reporting`]): the files the `old` manifest (and the claims) name and the
/// files of the `whole_bake`, such as `curves.tokens.json`. A file named as an input is read
/// all the same. An `Err` if no input is left, as when none was found.
fn leave_out_own_outputs(
    files: &mut Vec<PathBuf>,
    identities: &HashMap<PathBuf, String>,
    options: &BakeOptions,
    old: &Manifest,
    whole_bake: &[String],
) -> Result<(), FatalError> {
    let Ok(root) = options.out.canonicalize() else {
        return Ok(());
    };
    let inputs: Vec<String> = options.inputs.iter().map(|i| source_identity(i)).collect();
    if !inputs.iter().any(|i| Path::new(i).starts_with(&root)) {
        return Ok(());
    }
    // Relative paths the bake validated (no `..`, no link inside the output folder), so
    // joined to the resolved folder they are the files' identities.
    let own: std::collections::HashSet<String> = (old.files().chain(whole_bake))
        .map(|f| root.join(f).display().to_string())
        .collect();
    files.retain(|f| {
        let identity = &identities[f];
        !own.contains(identity) || inputs.contains(identity)
    });
    if files.is_empty() {
        return Err(FatalError::Input(InputError::new(
            &options.inputs[0],
            Problem::Read(format!(
                "no curve files (.ron) here but the outputs of the bake into {}",
                options.out.display()
            )),
        )));
    }
    Ok(())
}

/// The warnings the `old` bake gave about its motions, said again by a bake that changes
/// nothing; each names its input file as given (found by its identity among `identities`).
fn kept_warnings(old: &Manifest, identities: &HashMap<PathBuf, String>) -> Vec<String> {
    let files: HashMap<&str, &Path> = (identities.iter())
        .map(|(file, identity)| (identity.as_str(), file.as_path()))
        .collect();
    let mut warnings = Vec::new();
    for entry in &old.motions {
        let file = files
            .get(entry.source.as_str())
            .copied()
            .unwrap_or(Path::new(&entry.source));
        warnings.extend(said_once(&entry.warnings, file, &entry.name));
    }
    warnings
}

/// Whether the inputs are the ones the old manifest was written for (same files, same bytes,
/// same run settings, and that bake had no errors) and every output it lists is still the
/// file it left (the bundles by length and hash, the other files by their stamps, see
/// `output::stamp`): then nothing needs baking. Reads the files, but parses nothing.
fn nothing_changed(old: &Manifest, out: &OutputDir, files: &[PathBuf], run_key: &[u8]) -> bool {
    if old.run.is_empty() {
        return false;
    }
    let digests: Option<Vec<SourceDigest>> = files
        .par_iter()
        .map(|f| read_source(f).ok().map(|bytes| source_digest(f, &bytes)))
        .collect();
    let Some(digests) = digests else {
        return false;
    };
    let mut run = RunHasher::new(run_key);
    digests.iter().for_each(|d| run.add(d));
    // The files every motion feeds: bundles (and the digests annex, which a later failing
    // bake reads) as the manifest left them, summaries present.
    let bundles_intact = old
        .bundles
        .iter()
        .chain(&old.digests)
        .all(|stamp| (out.resolve(&stamp.path)).is_ok_and(|path| stamp.describes(&path)));
    run.finish() == old.run
        && bundles_intact
        && out.still_holds(&old.summaries, &old.summary_stamps)
        && old
            .motions
            .par_iter()
            .all(|e| out.still_holds(&e.files, &e.stamps))
        // The list of files a repository commits is there as this record writes it.
        && old.listed(out.root()).is_in(out)
}
