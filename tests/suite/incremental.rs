//! Incremental bakes against fresh ones: random sequences of edits to a project (motions
//! edited, renamed, added, removed, reordered; files broken and fixed; motions made impossible
//! to bake and fixed; outputs deleted), each
//! followed by an incremental bake, must leave the output folder as a fresh bake of the same
//! inputs would, in both layouts. proptest shrinks a failure to a shortest sequence.

use crate::common;

use common::project::outputs;
use curvebake::export::{Format, Layout};
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use proptest::prelude::*;
use std::fs;
use std::path::Path;

/// One input file: its motions as (name, stiffness), or broken; maybe one motion that
/// validates but cannot be baked (too many frames).
#[derive(Debug, Clone)]
struct SourceFile {
    motions: Vec<(String, u32)>,
    broken: bool,
    overlong: Option<usize>,
}

impl SourceFile {
    fn text(&self) -> String {
        if self.broken {
            return "[(name: \"oops\", motion: Spring(".into();
        }
        let motions: Vec<String> = self
            .motions
            .iter()
            .enumerate()
            .map(|(k, (name, stiffness))| {
                let duration = if self.overlong == Some(k) {
                    "duration: 100000, "
                } else {
                    ""
                };
                format!(
                    "(name: \"{name}\", {duration}motion: Spring(from: 0, to: 100, stiffness: {stiffness}, damping: 15))"
                )
            })
            .collect();
        format!("[{}]", motions.join(",\n"))
    }
}

/// An edit; `pick` chooses the file, motion or output it applies to.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// Set a motion's stiffness (maybe to the value it has).
    Stiffness { pick: usize, stiffness: u32 },
    /// Give a motion a new name.
    Rename { pick: usize },
    /// Add a motion to a file.
    Add { pick: usize },
    /// Remove a file (unless it is the last).
    Remove { pick: usize },
    /// Swap two files, which reorders the motions in the bundles.
    Swap { pick: usize, with: usize },
    /// Make a file unparsable.
    Break { pick: usize },
    /// Make one motion of a file impossible to bake.
    Overlong { pick: usize },
    /// Repair every broken file and motion.
    Fix,
    /// Delete one of the output files.
    DeleteOutput { pick: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    let pick = any::<usize>();
    prop_oneof![
        (pick, 10..15u32).prop_map(|(pick, s)| Edit::Stiffness {
            pick,
            stiffness: s * 10
        }),
        pick.prop_map(|pick| Edit::Rename { pick }),
        pick.prop_map(|pick| Edit::Add { pick }),
        pick.prop_map(|pick| Edit::Remove { pick }),
        (pick, pick).prop_map(|(pick, with)| Edit::Swap { pick, with }),
        pick.prop_map(|pick| Edit::Break { pick }),
        pick.prop_map(|pick| Edit::Overlong { pick }),
        Just(Edit::Fix),
        pick.prop_map(|pick| Edit::DeleteOutput { pick }),
    ]
}

/// The project being edited: its files, and the next fresh motion name.
struct Project {
    sources: Vec<SourceFile>,
    names: usize,
}

impl Project {
    fn new() -> Self {
        let mut project = Self {
            sources: Vec::new(),
            names: 0,
        };
        for _ in 0..4 {
            let motions = vec![project.new_motion(), project.new_motion()];
            project.sources.push(SourceFile {
                motions,
                broken: false,
                overlong: None,
            });
        }
        project
    }

    fn new_motion(&mut self) -> (String, u32) {
        self.names += 1;
        (format!("m{}", self.names), 100)
    }

    fn apply(&mut self, edit: Edit, out: &Path) {
        let n = self.sources.len();
        match edit {
            Edit::Stiffness { pick, stiffness } => {
                let motions = &mut self.sources[pick % n].motions;
                let k = pick / n % motions.len();
                motions[k].1 = stiffness;
            }
            Edit::Rename { pick } => {
                let name = self.new_motion().0;
                self.sources[pick % n].motions[0].0 = name;
            }
            Edit::Add { pick } => {
                let motion = self.new_motion();
                self.sources[pick % n].motions.push(motion);
            }
            Edit::Remove { pick } if n > 1 => {
                self.sources.remove(pick % n);
            }
            Edit::Remove { .. } => {}
            Edit::Swap { pick, with } => self.sources.swap(pick % n, with % n),
            Edit::Break { pick } => self.sources[pick % n].broken = true,
            Edit::Overlong { pick } => {
                let source = &mut self.sources[pick % n];
                source.overlong = Some(pick / n % source.motions.len());
            }
            Edit::Fix => self.sources.iter_mut().for_each(|s| {
                s.broken = false;
                s.overlong = None;
            }),
            Edit::DeleteOutput { pick } => {
                let files = outputs(out);
                if !files.is_empty() {
                    fs::remove_file(out.join(&files[pick % files.len()].0)).unwrap();
                }
            }
        }
    }

    fn write(&self, curves: &Path) {
        for entry in fs::read_dir(curves).unwrap() {
            fs::remove_file(entry.unwrap().path()).unwrap();
        }
        for (i, source) in self.sources.iter().enumerate() {
            fs::write(curves.join(format!("f{i:02}.ron")), source.text()).unwrap();
        }
    }

    fn broken(&self) -> bool {
        self.sources
            .iter()
            .any(|s| s.broken || s.overlong.is_some())
    }
}

/// Bakes `curves` into `out`; returns the number of input errors.
fn bake(curves: &Path, out: &Path, layout: Layout) -> usize {
    let options = BakeOptions {
        inputs: vec![curves.to_owned()],
        out: out.to_owned(),
        layout,
        formats: vec![Format::Json, Format::Css, Format::Js, Format::Html],
        ..BakeOptions::default()
    };
    run(&options, &|_, _| {}).unwrap().errors.len()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn incremental_bakes_match_fresh_ones_after_any_edits(
        bundle in any::<bool>(),
        edits in prop::collection::vec(edit(), 1..16),
    ) {
        let layout = if bundle { Layout::Bundle } else { Layout::PerMotion };
        let dir = tempfile::tempdir().unwrap();
        let (curves, out) = (dir.path().join("curves"), dir.path().join("out"));
        fs::create_dir(&curves).unwrap();
        let mut project = Project::new();
        project.write(&curves);
        bake(&curves, &out, layout);
        for (step, &edit) in edits.iter().enumerate() {
            project.apply(edit, &out);
            project.write(&curves);
            let errors = bake(&curves, &out, layout);
            prop_assert_eq!(errors > 0, project.broken(), "step {} ({:?})", step, edit);
            if project.broken() {
                // The outputs of a failing file's motions are kept, which a fresh bake lacks.
                continue;
            }
            let fresh = dir.path().join(format!("fresh-{step}"));
            bake(&curves, &fresh, layout);
            let (got, want) = (outputs(&out), outputs(&fresh));
            let paths = |files: &[(std::path::PathBuf, Vec<u8>)]| -> Vec<_> {
                files.iter().map(|(p, _)| p.clone()).collect()
            };
            prop_assert_eq!(paths(&got), paths(&want), "step {} ({:?})", step, edit);
            for ((path, a), (_, b)) in got.iter().zip(&want) {
                prop_assert!(a == b, "step {} ({:?}): {} differs from a fresh bake", step, edit, path.display());
            }
        }
    }
}
