//! Incremental bakes against fresh ones: random sequences of edits to a project (motions
//! edited, renamed, added, removed, reordered; files broken and fixed; outputs deleted), each
//! followed by an incremental bake, must leave the output folder as a fresh bake of the same
//! inputs would, in both layouts.

mod common;

use common::project::outputs;
use curvebake::export::{Format, Layout};
use curvebake::pipeline::{run, BakeOptions};
use std::fs;
use std::path::{Path, PathBuf};

/// Deterministic pseudo-random numbers (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One input file: its motions as (name, stiffness), or broken.
#[derive(Clone)]
struct SourceFile {
    motions: Vec<(String, u32)>,
    broken: bool,
}

impl SourceFile {
    fn text(&self) -> String {
        if self.broken {
            return "[(name: \"oops\", motion: Spring(".into();
        }
        let motions: Vec<String> = self
            .motions
            .iter()
            .map(|(name, stiffness)| {
                format!(
                    "(name: \"{name}\", motion: Spring(from: 0, to: 100, stiffness: {stiffness}, damping: 15))"
                )
            })
            .collect();
        format!("[{}]", motions.join(",\n"))
    }
}

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

fn write_sources(curves: &Path, sources: &[SourceFile]) {
    for entry in fs::read_dir(curves).unwrap() {
        fs::remove_file(entry.unwrap().path()).unwrap();
    }
    for (i, source) in sources.iter().enumerate() {
        fs::write(curves.join(format!("f{i:02}.ron")), source.text()).unwrap();
    }
}

#[test]
fn incremental_bakes_match_fresh_ones_after_random_edits() {
    for (seed, layout) in [
        (1, Layout::PerMotion),
        (2, Layout::Bundle),
        (3, Layout::PerMotion),
        (4, Layout::Bundle),
    ] {
        let mut rng = Rng(seed);
        let dir = tempfile::tempdir().unwrap();
        let (curves, out) = (dir.path().join("curves"), dir.path().join("out"));
        fs::create_dir(&curves).unwrap();
        let mut next_name = 0;
        let mut new_motion = |rng: &mut Rng| {
            next_name += 1;
            (format!("m{next_name}"), 100 + rng.below(5) as u32 * 10)
        };
        let mut sources: Vec<SourceFile> = (0..4)
            .map(|_| SourceFile {
                motions: (0..2).map(|_| new_motion(&mut rng)).collect(),
                broken: false,
            })
            .collect();
        write_sources(&curves, &sources);
        bake(&curves, &out, layout);
        for step in 0..24 {
            let i = rng.below(sources.len());
            let what = match rng.below(9) {
                0 => {
                    let motions = &mut sources[i].motions;
                    let k = rng.below(motions.len());
                    motions[k].1 = 100 + rng.below(5) as u32 * 10;
                    "edit a motion (maybe to the same values)"
                }
                1 => {
                    sources[i].motions[0].0 = new_motion(&mut rng).0;
                    "rename a motion"
                }
                2 => {
                    sources[i].motions.push(new_motion(&mut rng));
                    "add a motion"
                }
                3 if sources.len() > 1 => {
                    sources.remove(i);
                    "remove a file"
                }
                4 => {
                    let j = rng.below(sources.len());
                    sources.swap(i, j);
                    "reorder files"
                }
                5 => {
                    sources[i].broken = true;
                    "break a file"
                }
                6 => {
                    for source in &mut sources {
                        source.broken = false;
                    }
                    "fix every file"
                }
                7 => {
                    let files = outputs(&out);
                    let (path, _) = &files[rng.below(files.len())];
                    fs::remove_file(out.join(path)).unwrap();
                    "delete an output"
                }
                _ => "nothing",
            };
            write_sources(&curves, &sources);
            let errors = bake(&curves, &out, layout);
            let broken = sources.iter().any(|s| s.broken);
            assert_eq!(errors > 0, broken, "seed {seed} step {step} ({what})");
            if broken {
                // Outputs of the motions of a failing file are kept, which a fresh bake lacks.
                continue;
            }
            let fresh = dir.path().join(format!("fresh-{step}"));
            bake(&curves, &fresh, layout);
            let (got, want) = (outputs(&out), outputs(&fresh));
            let paths = |files: &[(PathBuf, Vec<u8>)]| -> Vec<PathBuf> {
                files.iter().map(|(p, _)| p.clone()).collect()
            };
            assert_eq!(
                paths(&got),
                paths(&want),
                "seed {seed} step {step} ({what})"
            );
            for ((path, a), (_, b)) in got.iter().zip(&want) {
                assert!(
                    a == b,
                    "seed {seed} step {step} ({what}): {} differs from a fresh bake",
                    path.display()
                );
            }
            fs::remove_dir_all(&fresh).unwrap();
        }
    }
}
