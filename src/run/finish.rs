//! The end of a bake, once every window is written: the files of motions that are gone
//! removed, the last good outputs of motions that failed kept, the bundles closed, the files
//! describing the whole bake written, and the manifest completed.

use super::plan::Plan;
use super::tally::{record, Tally};
use super::writer::{write_files, Writer};
use super::{FatalError, Report};
use crate::output::bundle::{Chunk, OpenBundle};
use crate::output::claims;
use crate::output::digests;
use crate::output::manifest::{Manifest, Summaries};
use crate::output::pool::Pool;
use crate::output::record::{BundleStamp, Entry};
use crate::output::write::OutputDir;
use crate::output::write::WriteError;
use curvebake_export::{Digest, OutputFile};
use curvebake_model::error::InputError;
use curvebake_model::intake::Intake;
use std::collections::HashSet;
use std::path::Path;

/// Finishes the bake `plan` describes, with what `intake` read, `tally` counted and `writer`
/// has open, and returns its report.
pub(super) fn finish(
    plan: &Plan,
    pool: &Pool,
    intake: Intake,
    tally: Tally,
    writer: Writer,
) -> Result<Report, FatalError> {
    let (names, run_hash, warnings) = intake.finish();
    let Tally {
        mut report,
        bake_errors,
        unbaked,
        mut digests,
        changed,
        ..
    } = tally;
    let Writer {
        mut bundles,
        manifest,
        ..
    } = writer;
    // Input errors in file order, then motions that could not be baked, in input order.
    report.errors.extend(bake_errors);
    report.warnings.extend(warnings);

    // A motion that could not be baked has no new record: it is treated as gone from the
    // inputs, so its old record is kept while its file fails.
    let baked = |name: &str| names.contains(name) && !unbaked.contains(name);
    let failed = failed_sources(plan, &report.errors);
    let (mut kept, removed) = remove_vanished(&plan.out, &plan.old, &baked, &failed)?;
    let gone = (plan.old.motions.iter()).any(|e| !baked(&e.name) && !failed(&e.source));
    report.warnings.extend(other_inputs(plan, &baked, &failed));
    report.removed = removed;
    let kept_lines = keep_last_good(
        &plan.out,
        &mut kept,
        &plan.old,
        &mut bundles,
        digests.as_mut(),
        pool,
    )?;
    let mut stamps = Vec::new();
    for bundle in bundles {
        let (outcome, stamp) = bundle.finish()?;
        record(&mut report, stamp.path.clone(), outcome);
        stamps.push(stamp);
    }
    let mut summary_paths = write_summaries(plan, pool, digests, &mut report)?;
    // The files of formats this bake leaves out show the motions as the bake that wrote them
    // saw them: while every motion is the same, they are kept (the manifest owns them);
    // once one changed, came or went, every one of them goes (a format's files are kept
    // whole or not at all: its index, bundle or page names every motion).
    let left_out_whole = left_out_whole(plan, &stamps, &summary_paths);
    let left_out = if changed || gone {
        let mut files = left_out_own(plan);
        files.extend(left_out_whole);
        remove_there(&plan.out, &files)?
    } else {
        summary_paths.extend(left_out_whole);
        Vec::new()
    };
    report
        .warnings
        .extend(left_out_warning(&plan.out, &left_out));
    report.left_out = left_out;

    if let Some(mut manifest) = manifest {
        for (entry, line) in kept.into_iter().zip(kept_lines) {
            manifest.push_with(entry, line.as_deref())?;
        }
        // Only a bake without errors may let the next one skip everything.
        let run = if report.errors.is_empty() {
            run_hash
        } else {
            String::new()
        };
        let summaries = Summaries {
            paths: &summary_paths,
            stamps: &plan.out.stamps(&summary_paths),
        };
        let listed = manifest.finish(
            plan.out.root(),
            &run,
            &stamps,
            (summaries, &report.left_out),
        )?;
        // The manifest in place names every file this bake claimed and wrote.
        claims::remove(&plan.out)?;
        // And the list a repository commits with the files, the same on every machine.
        listed.write(&plan.out)?;
    }
    Ok(report)
}

/// Whether a source (by its identity) failed this time: a file with an input error, or one
/// below a folder that could not be searched. Its motions keep their outputs. So do those of
/// other inputs when this bake has errors: only a bake that read its inputs whole makes the
/// folder theirs alone (a bake of one broken file would otherwise empty it).
fn failed_sources<'a>(plan: &'a Plan, errors: &[InputError]) -> impl Fn(&str) -> bool + 'a {
    let failed: HashSet<String> = errors.iter().map(|e| plan.source_of(&e.file)).collect();
    let partial = !errors.is_empty();
    move |source: &str| {
        failed.contains(source)
            || (plan.failed_folders.iter()).any(|folder| Path::new(source).starts_with(folder))
            || (partial && !plan.reads(source))
    }
}

/// A warning when the bake removes the outputs of motions the last bake took from inputs
/// this one does not read (from files under none of its inputs): baking `b/` into an output
/// folder last baked from `a/`, or two watchers of two folders into one. It names those
/// inputs' folders (a few) and how many motions and files go.
fn other_inputs(
    plan: &Plan,
    baked: &dyn Fn(&str) -> bool,
    failed: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let check = plan.out.compares_only();
    let others: Vec<&Entry> = (plan.old.motions.iter())
        .filter(|e| !baked(&e.name) && !failed(&e.source) && !plan.reads(&e.source))
        .collect();
    if others.is_empty() {
        return None;
    }
    let mut folders: Vec<String> = (others.iter())
        .map(|e| {
            let source = Path::new(&e.source);
            source.parent().unwrap_or(source).display().to_string()
        })
        .collect();
    folders.sort();
    folders.dedup();
    let shown = folders.len().min(3);
    let more = match folders.len() - shown {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let files: usize = others.iter().map(|e| e.files.len()).sum();
    Some(format!(
        "{} was last baked from other inputs as well: {}{more}; {} the outputs of their {} motion{} ({} file{}), which these inputs do not have",
        plan.out.root().display(),
        folders[..shown].join(", "),
        if check { "a bake would remove" } else { "removing" },
        others.len(),
        if others.len() == 1 { "" } else { "s" },
        files,
        if files == 1 { "" } else { "s" },
    ))
}

/// Keeps the last good outputs of motions that fail (`kept`): their chunks in the bundles
/// (after the others), copied from the previous bundles when they are still the ones the
/// manifest describes, and their digests in the files describing the whole bake (a card in
/// the review page, a plot in the contact sheet), after the others too, so that the page
/// lists the motions in the order of the bundles: read from the manifest's annex while it is
/// the file the manifest stamps, when their lines hold as digests. Returns each kept motion's
/// line, for the new annex.
fn keep_last_good(
    out: &OutputDir,
    kept: &mut [Entry],
    old: &Manifest,
    bundles: &mut [OpenBundle],
    digests: Option<&mut Vec<Digest>>,
    pool: &Pool,
) -> Result<Vec<Option<Vec<u8>>>, WriteError> {
    let keep_chunks = !bundles.is_empty() && bundles.iter().all(OpenBundle::reusable);
    for entry in kept.iter_mut() {
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
    let mut lines = vec![None; kept.len()];
    if let Some(digests) = digests {
        for (line, found) in lines
            .iter_mut()
            .zip(digests::kept(out, old.digests.as_ref(), kept))
        {
            if let Some((digest, bytes)) = found {
                digests.push(digest);
                *line = Some(bytes);
            }
        }
    }
    Ok(lines)
}

/// The motions' own files that the old manifest names and that are of formats this bake
/// leaves out (no exporter of it makes the path for the motion's name).
fn left_out_own(plan: &Plan) -> Vec<String> {
    (plan.old.motions.iter())
        .flat_map(|entry| {
            let written: Vec<String> = (plan.exporters.iter())
                .flat_map(|e| e.shape().files.iter().map(|p| p.of(&entry.name)))
                .collect();
            (entry.files.iter()).filter(move |f| !written.contains(f))
        })
        .cloned()
        .collect()
}

/// The files of the whole bake that the old manifest names (its summaries and bundles) and
/// that this bake does not write, when they are still there (those of formats left out this
/// time).
fn left_out_whole(plan: &Plan, stamps: &[BundleStamp], written: &[String]) -> Vec<String> {
    let old = &plan.old;
    (old.summaries.iter())
        .chain(old.bundles.iter().map(|b| &b.path))
        .filter(|f| {
            !written.contains(f) && !stamps.iter().any(|s| &s.path == *f) && plan.out.exists(f)
        })
        .cloned()
        .collect()
}

/// Writes (or compares) the files describing the whole bake from the motions' `digests`;
/// returns their paths.
fn write_summaries(
    plan: &Plan,
    pool: &Pool,
    digests: Option<Vec<Digest>>,
    report: &mut Report,
) -> Result<Vec<String>, WriteError> {
    let digests = digests.as_deref().unwrap_or_default();
    let summaries: Vec<OutputFile> = (plan.exporters.iter())
        .flat_map(|e| e.summary(digests))
        .collect();
    let with_files = digests.iter().any(|d| !d.files.is_empty());
    (report.warnings).extend(
        (plan.exporters.iter()).flat_map(|e| e.summary_warnings(digests.len(), with_files)),
    );
    let summary_paths: Vec<String> = summaries.iter().map(|f| f.path.clone()).collect();
    let summaries = summaries.into_iter().map(|f| vec![f]).collect();
    for (path, outcome) in write_files(&plan.out, pool, summaries) {
        record(report, path, outcome?);
    }
    Ok(summary_paths)
}

/// Removes the files of motions in the old manifest that are gone: not `baked` now and not in
/// a file that `failed` this time (by [`super::source_identity`]; its motions keep their outputs).
/// Returns the entries kept and the files removed (in check mode, there to be removed).
fn remove_vanished(
    out: &OutputDir,
    old: &Manifest,
    baked: &dyn Fn(&str) -> bool,
    failed: &dyn Fn(&str) -> bool,
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
        removed.extend(remove_there(out, &entry.files)?);
    }
    Ok((kept, removed))
}

/// Removes those of `files` that are there (in check mode, only finds them); returns them.
/// Only files that are there count: a claimed file may never have been written (a bake killed
/// before it), and a person may have removed one.
fn remove_there(out: &OutputDir, files: &[String]) -> Result<Vec<String>, WriteError> {
    let mut removed = Vec::new();
    for file in files {
        let there = if out.compares_only() {
            out.exists(file)
        } else {
            out.remove(file)?
        };
        if there {
            removed.push(file.clone());
        }
    }
    Ok(removed)
}

/// A warning when the bake removes files of formats it leaves out (`gone`), which showed
/// motions as they were: it names a few, and how to have them again.
fn left_out_warning(out: &OutputDir, gone: &[String]) -> Option<String> {
    if gone.is_empty() {
        return None;
    }
    let more = match gone.len().saturating_sub(3) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let names = (gone.iter().take(3))
        .map(|f| out.root().join(f).display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let verb = if out.compares_only() {
        "would remove"
    } else {
        "removed"
    };
    Some(format!(
        "{verb} {names}{more}: of formats this bake leaves out, they showed the motions as \
         they were before some changed, came or went; a bake with those formats writes them \
         again"
    ))
}
