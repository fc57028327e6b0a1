//! The tally: what the baked windows add up to (the report, the motions that failed, the
//! digests of the whole bake), counted in input order as each window is written.

use super::baker::{Done, Exported};
use super::Report;
use crate::output::bundle::Chunk;
use crate::output::record::Entry;
use crate::output::write::Outcome;
use curvebake_export::{Digest, OutputFile};
use curvebake_model::error::InputError;
use std::collections::HashSet;

/// What the baked windows add up to, in input order.
pub(super) struct Tally {
    pub report: Report,
    /// Motions that could not be baked (reported after the input errors).
    pub bake_errors: Vec<InputError>,
    /// Their names.
    pub unbaked: HashSet<String>,
    /// Kept only when an exporter summarizes the bake.
    pub digests: Option<Vec<Digest>>,
    /// Per exporter, the bundle its chunks go to, if any.
    pub bundle_of: Vec<Option<usize>>,
    /// Whether some motion baked is new or changed since the last bake.
    pub changed: bool,
}

impl Tally {
    /// An empty tally, starting from the input errors found before baking (folders that
    /// could not be searched), keeping digests if `summarized`.
    pub fn new(errors: Vec<InputError>, summarized: bool, bundle_of: Vec<Option<usize>>) -> Self {
        Self {
            report: Report {
                errors,
                ..Report::default()
            },
            bake_errors: Vec::new(),
            unbaked: HashSet::new(),
            digests: summarized.then(Vec::new),
            bundle_of,
            changed: false,
        }
    }
}

/// One baked window, sorted for writing.
pub(super) struct Sorted<'a> {
    /// Per exporter, so that one thread writes each folder's files: two threads creating
    /// files in one folder wait for each other on its lock (in the kernel).
    pub files: Vec<Vec<OutputFile>>,
    /// Per bundle.
    pub chunks: Vec<Vec<Chunk<'a>>>,
    /// The motions' records, their chunks' places still to be filled in, each with its line
    /// in the digests annex when a digest is kept.
    pub entries: Vec<(Entry, Option<Vec<u8>>)>,
}

/// Counts one baked window into the tally and sorts its outputs for writing.
pub(super) fn sort<'a>(
    tally: &mut Tally,
    errors: Vec<InputError>,
    done: Vec<Done<'a>>,
) -> Sorted<'a> {
    let report = &mut tally.report;
    report.errors.extend(errors);
    let bundles = tally.bundle_of.iter().flatten().count();
    // Room for a chunk and a record of every motion, which are moved in one by one.
    let mut sorted = Sorted {
        files: Vec::new(),
        chunks: (0..bundles)
            .map(|_| Vec::with_capacity(done.len()))
            .collect(),
        entries: Vec::with_capacity(done.len()),
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
            digest_line,
            kept_warnings: _,
            changed,
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
        tally.changed |= changed;
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
        sorted.entries.extend(record.map(|r| (r, digest_line)));
    }
    sorted
}

/// Counts one file written (or compared) into the report.
pub(super) fn record(report: &mut Report, path: String, outcome: Outcome) {
    match outcome {
        // `written` lists, in check mode, what a bake would write.
        Outcome::Written | Outcome::Differs => report.written.push(path),
        Outcome::Unchanged => report.unchanged += 1,
    }
}
