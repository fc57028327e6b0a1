//! The claims a bake makes before it writes a window (see [`crate::output::claims`]): the
//! files its motions will write that the manifest in place does not name, so that a bake
//! killed while it writes them leaves them known to be ours.
//!
//! Claims reach the disk (an `fdatasync`) while a window is baked, before it is written. A
//! window whose motions are all claimed already needs none; one that needs claims also
//! claims the motions read ahead of it, twice as many each time up to [`MOST_AHEAD`] (reading
//! more first if need be), so a fresh bake of 10,000 motions (in 30 files) syncs its claims 4
//! times rather than once per window (79), and a re-bake of known motions never.

use super::plan::Plan;
use crate::output::claims::ClaimsWriter;
use crate::output::record::Entry;
use crate::output::write::WriteError;
use curvebake_export::FilePath;
use curvebake_model::intake::{Intake, WINDOW};
use curvebake_model::load::Input;
use std::collections::HashMap;

/// Most motions read ahead of a window to be claimed with it (their specs are held until
/// their windows come: a few MB at most).
pub const MOST_AHEAD: usize = 16 * WINDOW;

/// What a bake claims, window by window.
pub(super) struct Claims<'a> {
    plan: &'a Plan,
    /// Each motion's files that the manifest in place names, by motion name.
    owned: HashMap<&'a str, &'a [String]>,
    /// Every format's pattern of a motion's own files, in exporter order.
    patterns: Vec<FilePath>,
    /// None in check mode, or when no format writes files of a motion's own.
    writer: Option<ClaimsWriter>,
    /// Motions handed out in windows so far (counted in input order).
    handed: usize,
    /// Motions whose files are claimed (or need none) so far: the first ones in input order.
    claimed: usize,
    /// Motions to read ahead and claim with the next window that needs claims.
    ahead: usize,
}

/// What a window needs claimed before it is written ([`Claims::due`]).
pub(super) type Due = Option<Vec<Entry>>;

impl<'a> Claims<'a> {
    /// The claims of the bake `plan` describes (none when `check`ing).
    pub fn new(plan: &'a Plan) -> Result<Self, WriteError> {
        let check = plan.out.compares_only();
        let patterns: Vec<FilePath> = (plan.exporters.iter())
            .flat_map(|e| e.shape().files.iter().copied())
            .collect();
        Ok(Self {
            plan,
            owned: (plan.old.motions.iter())
                .map(|e| (e.name.as_str(), e.files.as_slice()))
                .collect(),
            writer: (!check && !patterns.is_empty())
                .then(|| ClaimsWriter::new(&plan.out))
                .transpose()?,
            patterns,
            handed: 0,
            claimed: 0,
            ahead: WINDOW,
        })
    }

    /// What the window of `inputs` (the next one, in input order) needs claimed: its motions'
    /// claims, when some of its motions are not claimed yet and have files to claim.
    pub fn due(&mut self, inputs: &[Input]) -> Due {
        let first = self.handed;
        self.handed += inputs.len();
        if self.writer.is_none() || self.claimed >= self.handed {
            return None;
        }
        let claims = self.of(&inputs[self.claimed.saturating_sub(first)..]);
        if claims.is_empty() {
            self.claimed = self.handed;
            return None;
        }
        Some(claims)
    }

    /// Records what is `due` durably, with the claims of the motions `intake` has read ahead
    /// of the window (reading more first, up to the current reach ahead).
    pub fn claim(&mut self, due: Due, intake: &mut Intake) -> Result<(), WriteError> {
        let (Some(mut claims), Some(writer)) = (due, &mut self.writer) else {
            return Ok(());
        };
        intake.read_ahead_motions(self.ahead);
        let ready: Vec<&Input> = intake.ready().collect();
        claims.extend(entries(self.plan, &self.owned, &self.patterns, ready));
        self.claimed = self.handed + intake.ready().len();
        self.ahead = (self.ahead * 2).min(MOST_AHEAD);
        // A file claimed is one no manifest names: anything already there is the user's.
        let files = claims
            .iter()
            .flat_map(|c| c.files.iter().map(String::as_str));
        self.plan.out.claim(files)?;
        writer.claim(&self.plan.out, &claims)
    }

    /// The claims of `inputs`.
    fn of(&self, inputs: &[Input]) -> Vec<Entry> {
        entries(self.plan, &self.owned, &self.patterns, inputs)
    }
}

/// Per motion of `inputs`, the files it may write (every format's, made from the formats'
/// `patterns` as the baker makes them) that its record in the manifest in place does not
/// name (`owned`): most motions of a re-bake have none.
fn entries<'i>(
    plan: &Plan,
    owned: &HashMap<&str, &[String]>,
    patterns: &[FilePath],
    inputs: impl IntoIterator<Item = &'i Input>,
) -> Vec<Entry> {
    let mut claims = Vec::new();
    for input in inputs {
        let name = &input.spec.name;
        let owned = owned.get(name.as_str()).copied().unwrap_or_default();
        let files: Vec<String> = (patterns.iter())
            .map(|p| p.of(name))
            .filter(|f| !owned.contains(f))
            .collect();
        if !files.is_empty() {
            claims.push(Entry {
                name: name.clone(),
                source: plan.source_of(&input.file),
                hash: String::new(),
                content: String::new(),
                frames: 0,
                files,
                stamps: Vec::new(),
                chunks: Vec::new(),
                digest: None,
                warnings: Vec::new(),
            });
        }
    }
    claims
}
