//! The claims a bake makes before it writes a window (see [`crate::output::claims`]): the
//! files its motions will write that the manifest in place does not name, so that a bake
//! killed while it writes them leaves them known to be ours. A window's claims reach the disk
//! while the window is baked, before it is written.

use super::plan::Plan;
use crate::export::FilePath;
use crate::input::load::Input;
use crate::output::claims::ClaimsWriter;
use crate::output::manifest::Entry;
use crate::output::write::WriteError;
use std::collections::HashMap;

/// What a bake claims, window by window.
pub(super) struct Claims<'a> {
    plan: &'a Plan,
    /// Each motion's files that the manifest in place names, by motion name.
    owned: HashMap<&'a str, &'a [String]>,
    /// Every format's pattern of a motion's own files, in exporter order.
    patterns: Vec<FilePath>,
    /// None in check mode (nothing is written, nothing claimed).
    writer: Option<ClaimsWriter>,
}

impl<'a> Claims<'a> {
    /// The claims of the bake `plan` describes (none when `check`ing).
    pub fn new(plan: &'a Plan, check: bool) -> Result<Self, WriteError> {
        Ok(Self {
            plan,
            owned: (plan.old.motions.iter())
                .map(|e| (e.name.as_str(), e.files.as_slice()))
                .collect(),
            patterns: (plan.exporters.iter())
                .flat_map(|e| e.shape().files.iter().copied())
                .collect(),
            writer: (!check).then(|| ClaimsWriter::new(&plan.out)).transpose()?,
        })
    }

    /// The claims of a window's `inputs`: per motion, the files it may write (every format's,
    /// made from the formats' patterns, as the baker makes them) that its record in the
    /// manifest in place does not name. Most motions of a re-bake have none.
    pub fn of(&self, inputs: &[Input]) -> Vec<Entry> {
        if self.writer.is_none() || self.patterns.is_empty() {
            return Vec::new();
        }
        let mut claims = Vec::new();
        for input in inputs {
            let name = &input.spec.name;
            let owned = self.owned.get(name.as_str()).copied().unwrap_or_default();
            let files: Vec<String> = (self.patterns.iter())
                .map(|p| p.of(name))
                .filter(|f| !owned.contains(f))
                .collect();
            if !files.is_empty() {
                claims.push(Entry {
                    name: name.clone(),
                    source: self.plan.source_of(&input.file),
                    hash: String::new(),
                    frames: 0,
                    files,
                    chunks: Vec::new(),
                    digest: None,
                    warnings: Vec::new(),
                });
            }
        }
        claims
    }

    /// Records `claims` (from [`Claims::of`]) durably.
    pub fn record(&mut self, claims: Vec<Entry>) -> Result<(), WriteError> {
        match &mut self.writer {
            Some(writer) => writer.claim(&self.plan.out, &claims),
            None => Ok(()),
        }
    }
}
