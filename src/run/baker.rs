//! Baking a window: each motion baked and exported on the pool, in parallel, or its old
//! outputs reused when the manifest shows it unchanged.

use super::plan::Plan;
use crate::output::digests;
use crate::output::manifest::{SpecHash, SpecHasher};
use crate::output::pool::{self, Pool};
use crate::output::record::{said_once, Entry, KeptWarning, BAKE_WARNING};
use arrayvec::ArrayVec;
use curvebake_export::{Digest, Exporter, Format, OutputFile, Summary};
use curvebake_model::bake::{bake, bake_planned, long_motion_warning};
use curvebake_model::error::{InputError, Problem};
use curvebake_model::load::Input;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bakes windows of motions: what every motion of the bake needs to know to be baked,
/// exported and recorded on its own thread.
pub(super) struct Baker<'a> {
    plan: &'a Plan,
    check: bool,
    pool: &'a Pool,
    progress: &'a (dyn Fn(usize, usize) + Sync),
    /// The old records, by motion name.
    old_entries: HashMap<&'a str, &'a Entry>,
    spec_hasher: SpecHasher,
    /// Per exporter: whether its outputs of an unchanged motion are all reusable (its own
    /// files are on disk; a bundle chunk can be copied from the previous bundle).
    reusable: Vec<bool>,
    /// Whether digests are kept (only for the files that describe the whole bake).
    keep_digests: bool,
    /// Whether records are made (only for a manifest: none in check mode).
    records: bool,
    /// Motions done so far.
    done: AtomicUsize,
}

impl<'a> Baker<'a> {
    /// A baker for the motions of `plan`, reusing the outputs of an unchanged motion for the
    /// exporters marked `reusable` (none when the output folder only compares).
    pub fn new(
        plan: &'a Plan,
        reusable: Vec<bool>,
        pool: &'a Pool,
        progress: &'a (dyn Fn(usize, usize) + Sync),
    ) -> Self {
        let check = plan.out.compares_only();
        Self {
            plan,
            check,
            pool,
            progress,
            old_entries: (plan.old.motions.iter())
                .map(|e| (e.name.as_str(), e))
                .collect(),
            spec_hasher: SpecHasher::new(&plan.run_key.content, &plan.run_key.outputs),
            reusable,
            keep_digests: plan.summarized(),
            records: !check,
            done: AtomicUsize::new(0),
        }
    }

    /// The old record of a motion whose spec, and so whose outputs, are unchanged, if its own
    /// files are still the ones the last bake left (by their stamps: a file edited or cut
    /// short since is the motion's to write again).
    fn unchanged_record(&self, name: &str, hash: &str) -> Option<&'a Entry> {
        let (out, old) = (&self.plan.out, &self.plan.old);
        self.old_entries.get(name).copied().filter(|e| {
            e.hash == hash
                && e.chunks.len() == old.bundles.len()
                && out.still_holds(&e.files, &e.stamps)
        })
    }

    /// Whether a motion is new or changed since the last bake: its old record's `content`
    /// hash (the motion and what its outputs say of it) is not `content`, or unknown.
    fn changed(&self, name: &str, content: &str) -> bool {
        (self.old_entries.get(name))
            .map_or(true, |old| old.content.is_empty() || old.content != content)
    }

    /// Adds to a motion's new record the files its old record names that this bake does not
    /// write and that are still there (those of formats left out this time, `--formats json`
    /// after a bake of every format): the manifest owns them until the motion is gone, or
    /// until some motion changes (then the run removes every file of the formats left out,
    /// see `finish`).
    fn keep_owning(&self, record: &mut Entry) {
        let Some(old) = self.old_entries.get(record.name.as_str()) else {
            return;
        };
        let kept: Vec<String> = (old.files.iter())
            .filter(|f| !record.files.contains(f) && self.plan.out.exists(f))
            .cloned()
            .collect();
        record.files.extend(kept);
    }

    /// Bakes and exports a window's motions in parallel, reporting `progress` with `read`
    /// motions read so far. Each motion's spec is dropped by the thread that baked it: the
    /// writer frees as little as possible of what other threads allocated (glibc's arenas
    /// make such frees contend).
    pub fn bake_window(&self, window: Vec<Input>, read: usize) -> Vec<Done<'a>> {
        window
            .into_par_iter()
            .map(|input| {
                let hash = self.spec_hasher.hash(&input.spec);
                let old = self.unchanged_record(&input.spec.name, &hash.whole);
                let changed = self.changed(&input.spec.name, &hash.content);
                // An unchanged motion is still baked for the summaries, but not exported again.
                let skip = |k: usize| old.is_some() && self.reusable[k];
                // Its old record, when its outputs are reused (not in check mode).
                let reused = old.filter(|_| !self.check);
                let exporters = &self.plan.exporters;
                let result = match export_one(
                    &input,
                    exporters,
                    self.pool,
                    (&skip, old),
                    self.keep_digests,
                ) {
                    Ok(mut exported) => {
                        let source = self.plan.source_of(&input.file);
                        exported.settle(source, input.spec.name, hash, reused, self.records);
                        exported.changed = changed;
                        if let Some(record) = &mut exported.record {
                            self.keep_owning(record);
                        }
                        Ok(exported)
                    }
                    Err(e) => Err((input.spec.name, e)),
                };
                (self.progress)(self.done.fetch_add(1, Ordering::Relaxed) + 1, read);
                Done {
                    old,
                    reused,
                    result,
                }
            })
            .collect()
    }
}

/// One motion baked and exported (or why not, with its name) and, if its outputs are
/// unchanged, its old record.
pub(super) struct Done<'a> {
    pub old: Option<&'a Entry>,
    /// The old record, when the motion's files are reused, not written (not in check mode).
    pub reused: Option<&'a Entry>,
    pub result: Result<Exported, (String, InputError)>,
}

impl Done<'_> {
    /// Whether the motion has files of its own to write (none with `--bundle`).
    pub fn has_files(&self) -> bool {
        self.reused.is_none()
            && (self.result.as_ref())
                .is_ok_and(|e| e.outputs.iter().any(|output| !output.files.is_empty()))
    }
}

/// One motion baked and exported.
pub(super) struct Exported {
    pub frames: usize,
    /// The exporters' warnings about it, each naming its file and the motion (those of the
    /// exporters whose outputs are reused said again from its old record).
    pub warnings: Vec<String>,
    /// The same warnings, for its new record.
    pub kept_warnings: Vec<KeptWarning>,
    /// Its digest, when a summary needs one.
    pub digest: Option<Digest>,
    /// Per exporter (empty for an exporter whose outputs are reused), held in place: a buffer
    /// of them, freed by the writing thread, would take the baking thread's glibc arena lock
    /// (it is too large for the lock-free bins) and make one of them wait.
    pub outputs: ArrayVec<Output, { Format::ALL.len() }>,
    /// Its record for the manifest, if one is kept (its chunks' places still to be filled in).
    pub record: Option<Entry>,
    /// Its line in the manifest's digests annex, with its record when a digest is kept.
    pub digest_line: Option<Vec<u8>>,
    /// Whether it is new or changed since the last bake (see `Baker::changed`).
    pub changed: bool,
}

impl Exported {
    /// Lists the motion's own files (those of its outputs, or the `reused` record's, with its
    /// stamps) in its digest and, if `records` are kept, in its new record. Done by the thread that baked
    /// it, so that what the writing waits for is only moving outputs into place.
    fn settle(
        &mut self,
        source: String,
        name: String,
        hash: SpecHash,
        reused: Option<&Entry>,
        records: bool,
    ) {
        let (files, stamps) = match reused {
            Some(old) => (old.files.clone(), old.stamps.clone()),
            None => (
                self.outputs
                    .iter()
                    .flat_map(|output| output.files.iter().map(|f| f.path.clone()))
                    .collect(),
                // Taken once the files are written.
                Vec::new(),
            ),
        };
        if let Some(digest) = &mut self.digest {
            digest.files = files.clone();
        }
        self.record = records.then(|| Entry {
            source,
            name,
            hash: hash.whole,
            content: hash.content,
            frames: self.frames as u64,
            files,
            stamps,
            chunks: Vec::new(),
            digest: None,
            warnings: std::mem::take(&mut self.kept_warnings),
        });
        self.digest_line = (self.record.as_ref())
            .and(self.digest.as_ref())
            .map(digests::line);
    }
}

/// What an exporter made of one motion, its files with their paths.
#[derive(Default)]
pub(super) struct Output {
    pub files: Vec<OutputFile>,
    pub chunk: Option<Vec<u8>>,
    pub stats: Vec<(&'static str, u64)>,
}

/// Bakes one motion and runs every exporter it does not `skip` on it; a skipped exporter's
/// warnings are those of the motion's `old` record.
fn export_one(
    input: &Input,
    exporters: &[Box<dyn Exporter>],
    pool: &Pool,
    (skip, old): (&dyn Fn(usize) -> bool, Option<&Entry>),
    keep_digest: bool,
) -> Result<Exported, InputError> {
    let with_preview = exporters
        .iter()
        .any(|e| e.shape().summary == Summary::Previews);
    let baked = match input.plan {
        Some(plan) => bake_planned(&input.spec, plan),
        None => bake(&input.spec),
    };
    let baked = baked.map_err(|e| {
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
    // What the motion's frames call for, said only now that it baked (a motion that fails
    // says why instead), and kept in its record, so that a bake that changes nothing says it
    // again.
    let mut kept_warnings: Vec<KeptWarning> = long_motion_warning(&input.spec, baked.frames())
        .map(|text| KeptWarning {
            format: BAKE_WARNING.to_owned(),
            text,
        })
        .into_iter()
        .collect();
    let outputs = exporters
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let paths = &files[first..first + e.shape().files.len()];
            first += paths.len();
            let format = e.format().name();
            if skip(k) {
                let old = old.iter().flat_map(|entry| &entry.warnings);
                kept_warnings.extend(old.filter(|w| w.format == format).cloned());
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
            kept_warnings.extend(output.warnings.into_iter().map(|text| KeptWarning {
                format: format.to_owned(),
                text,
            }));
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
        warnings: said_once(&kept_warnings, &input.file, name),
        kept_warnings,
        digest: keep_digest.then(|| Digest::of(&baked, with_preview)),
        outputs,
        record: None,
        digest_line: None,
        changed: false,
    })
}
