//! The writer: where baked windows go, in input order (the output folder, the bundles and the
//! manifest), and how groups of files are written in parallel.

use super::plan::Plan;
use crate::output::bundle::{Chunk, OpenBundle};
use crate::output::claims;
use crate::output::manifest::ManifestWriter;
use crate::output::pool::Pool;
use crate::output::record::Entry;
use crate::output::write::{Outcome, OutputDir, WriteError};
use curvebake_export::OutputFile;
use rayon::prelude::*;

/// Where baked windows go, in input order: the output folder, the bundles and the manifest.
pub(super) struct Writer<'a> {
    pub out: &'a OutputDir,
    pub bundles: Vec<OpenBundle>,
    /// None in check mode.
    pub manifest: Option<ManifestWriter>,
    /// Where written buffers go back.
    pub pool: &'a Pool,
}

impl<'a> Writer<'a> {
    /// Opens the bake's outputs: marks the manifest in place as in progress and opens the
    /// next one (unless the folder only compares), and opens a bundle per exporter that
    /// writes one.
    pub fn open(plan: &'a Plan, pool: &'a Pool) -> Result<Self, WriteError> {
        let (out, old) = (&plan.out, &plan.old);
        let manifest = if out.compares_only() {
            None
        } else {
            // Until this bake completes, the manifest in place says only which files are
            // ours: a run that fails or is killed from here on leaves that record, so the next
            // run bakes everything again instead of trusting stale hashes, and still removes
            // the files of motions that are gone. It is on disk before any output is replaced,
            // and names the files of the whole bake about to be written.
            old.in_progress(out, &plan.whole_bake_files())?;
            // The claims an unfinished bake left are in that record now.
            claims::remove(out)?;
            // Before this bake writes anything: a fresh folder has nothing to walk, and the
            // files this bake writes are not walked again at its end.
            out.remove_leftovers();
            Some(ManifestWriter::open(out, plan.summarized())?)
        };
        let mut bundles = Vec::new();
        for (exporter, e) in plan.exporters.iter().enumerate() {
            if let Some(b) = &e.shape().bundle {
                bundles.push(OpenBundle::open(out, exporter, b.clone(), old)?);
            }
        }
        Ok(Self {
            out,
            bundles,
            manifest,
            pool,
        })
    }

    /// Per exporter of `exporters`: whether its outputs of an unchanged motion are all
    /// reusable (its own files are on disk; a bundle chunk can be copied from the previous
    /// bundle).
    pub fn reusable(&self, exporters: usize) -> Vec<bool> {
        (0..exporters)
            .map(|k| {
                !self.out.compares_only()
                    && (self.bundles.iter()).all(|b| b.exporter != k || b.reusable())
            })
            .collect()
    }

    /// Per exporter of `exporters`, the bundle its chunks go to, if any.
    pub fn bundle_of(&self, exporters: usize) -> Vec<Option<usize>> {
        (0..exporters)
            .map(|k| self.bundles.iter().position(|b| b.exporter == k))
            .collect()
    }
}

/// Where each bundle put a window's chunks, motion by motion.
pub(super) type Places = Vec<Vec<[u64; 2]>>;

/// Appends a window's chunks to the bundles; returns where they went.
pub(super) fn append_chunks(
    bundles: &mut [OpenBundle],
    pool: &Pool,
    chunks: Vec<Vec<Chunk>>,
) -> Result<Places, WriteError> {
    bundles
        .par_iter_mut()
        .zip(chunks)
        .map(|(bundle, chunks)| bundle.append_all(chunks, pool))
        .collect()
}

/// Appends a window's records to the manifest, once its files are written: each with where
/// its chunks went (`places`) and, for a motion exported by this bake, its files' stamps as
/// they are now; and their digest lines to its annex.
pub(super) fn push_entries(
    out: &OutputDir,
    manifest: &mut Option<ManifestWriter>,
    places: &Places,
    entries: Vec<(Entry, Option<Vec<u8>>)>,
) -> Result<(), WriteError> {
    if let Some(manifest) = manifest {
        for (k, (mut entry, line)) in entries.into_iter().enumerate() {
            entry.chunks = places.iter().map(|p| p[k]).collect();
            if entry.stamps.len() != entry.files.len() {
                entry.stamps = out.stamps(&entry.files);
            }
            manifest.push_with(entry, line.as_deref())?;
        }
    }
    Ok(())
}

/// What happened to each file written (or compared), by path.
pub(super) type Outcomes = Vec<(String, Result<Outcome, WriteError>)>;

/// The outcomes of one group of files, with the group's place among them.
pub(super) type Written = (usize, Outcomes);

/// Writes (or, in check mode, compares) groups of files in parallel, each group's in order on
/// one thread; returns what happened to each file, group by group.
pub(super) fn write_files(out: &OutputDir, pool: &Pool, groups: Vec<Vec<OutputFile>>) -> Outcomes {
    in_group_order(write_groups(out, pool, by_size(groups)))
}

/// The groups, each with its place, smallest (in bytes) first.
pub(super) fn by_size(groups: Vec<Vec<OutputFile>>) -> Vec<(usize, Vec<OutputFile>)> {
    let bytes = |group: &Vec<OutputFile>| group.iter().map(|f| f.bytes.len()).sum::<usize>();
    let mut groups: Vec<(usize, Vec<OutputFile>)> = groups.into_iter().enumerate().collect();
    groups.sort_by_key(|(k, group)| (bytes(group), std::cmp::Reverse(*k)));
    groups
}

/// Writes groups in parallel, the last (largest) handed out first.
pub(super) fn write_groups(
    out: &OutputDir,
    pool: &Pool,
    groups: Vec<(usize, Vec<OutputFile>)>,
) -> Vec<Written> {
    groups
        .into_par_iter()
        .rev()
        .map(|(k, group)| (k, write_group(out, pool, group)))
        .collect()
}

/// Writes one group of files in order.
pub(super) fn write_group(out: &OutputDir, pool: &Pool, group: Vec<OutputFile>) -> Outcomes {
    group.into_iter().map(|f| write_one(out, pool, f)).collect()
}

/// The outcomes of every group, in the groups' places.
pub(super) fn in_group_order(mut written: Vec<Written>) -> Outcomes {
    written.sort_by_key(|(k, _)| *k);
    written
        .into_iter()
        .flat_map(|(_, outcomes)| outcomes)
        .collect()
}

/// Writes (or compares) one file and hands its buffer back to the pool.
fn write_one(out: &OutputDir, pool: &Pool, f: OutputFile) -> (String, Result<Outcome, WriteError>) {
    let outcome = if out.compares_only() {
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
        let written = write_files(&out, &Pool::default(), groups);
        let paths: Vec<String> = written.iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(paths, expected);
        assert!(written
            .iter()
            .all(|(_, outcome)| matches!(outcome, Ok(Outcome::Written))));
        let b1 = std::fs::read(dir.path().join("b/1.txt")).unwrap();
        assert_eq!(b1, vec![b'x'; 1000]);
    }
}
