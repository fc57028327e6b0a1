//! Reading the inputs as the bake goes: a few files at a time, in input order, handed out as
//! windows of motions. Only the motions read and not yet handed out are held (besides each
//! motion's name, for the duplicate check), so a bake's memory is bounded by its window, not
//! by the number of motions.

use crate::error::InputError;
use crate::hash::{source_digest, RunHasher, SourceDigest};
use crate::load::{load_bytes, Input, Loaded, Names};
use crate::source::read_source;
use crate::spec::Overrides;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::path::PathBuf;

/// Most motions in one window: enough to keep every core busy, few enough that memory is
/// bounded by the window, not by the number of motions (measured: benches/README.md, "Tuning decisions").
pub const WINDOW: usize = 256;
/// Most frames in one window (a window holds at least one motion): bounds memory when motions
/// are long, since a window's outputs are held until they are written.
pub const WINDOW_FRAMES: usize = 1_000_000;

/// Files read and parsed at once (in parallel). A fixed number, so that where windows start,
/// and the order errors are found in, do not depend on the thread count.
const FILES_AT_ONCE: usize = 8;
/// Bytes of source read at once, unless one file is larger. Small, so that the first window
/// is baked soon after the bake starts and the rest is read a little at a time beside the
/// baking (handing a batch's motions out is not parallel; measured: benches/README.md, "Tuning decisions"). Decided by
/// the files' sizes, not the thread count, so that errors come with the same windows whatever
/// the thread count.
const BYTES_AT_ONCE: u64 = 256 << 10;
/// Motions read ahead of the next window: while fewer are ready, each window's baking reads
/// another batch beside it, so that the next window is ready when it is due.
const READ_AHEAD: usize = 2 * WINDOW;

/// Motions to bake next, in input order, and the input errors found while reading them.
#[derive(Debug, Default)]
pub struct Window {
    /// Valid motions with unique names.
    pub inputs: Vec<Input>,
    /// Errors of the files read for this window (unreadable or invalid files and motions,
    /// taken names).
    pub errors: Vec<InputError>,
}

/// The input files, read a few at a time.
pub struct Intake<'a> {
    files: &'a [PathBuf],
    next_file: usize,
    overrides: Overrides,
    names: Names,
    /// Motions read and not yet handed out.
    ready: VecDeque<Input>,
    ready_frames: usize,
    errors: Vec<InputError>,
    /// Warnings about the files read ([`Loaded::note`]), in input order. (What a motion's
    /// frames call for is said once it is baked: [`crate::bake::long_motion_warning`].)
    warnings: Vec<String>,
    run: RunHasher,
    read: usize,
}

/// Every valid motion of `files` (in file order, then in order within a file) and every
/// error, read as a bake reads them (an [`Intake`]'s windows, drained): for tools and tests
/// that want them all at once.
pub fn read_all(files: &[PathBuf], overrides: Overrides) -> (Vec<Input>, Vec<InputError>) {
    let mut intake = Intake::new(files, overrides, RunHasher::new(b""));
    let (mut inputs, mut errors) = (Vec::new(), Vec::new());
    while let Some(mut window) = intake.next_window() {
        inputs.append(&mut window.inputs);
        errors.append(&mut window.errors);
    }
    (inputs, errors)
}

/// One file read: its digest (if it could be read) and what it holds.
type FileRead = (Option<SourceDigest>, Loaded);

impl<'a> Intake<'a> {
    /// Reads `files` (in this order) with `overrides`; `run` is the run hash the files are
    /// added to.
    pub fn new(files: &'a [PathBuf], overrides: Overrides, run: RunHasher) -> Self {
        Self {
            files,
            next_file: 0,
            overrides,
            names: Names::default(),
            ready: VecDeque::new(),
            ready_frames: 0,
            errors: Vec::new(),
            warnings: Vec::new(),
            run,
            read: 0,
        }
    }

    /// Reads files until the next window is ready: [`WINDOW`] motions or [`WINDOW_FRAMES`]
    /// frames read and not yet handed out, or every file read.
    fn read_window(&mut self) {
        while self.ready.len() < WINDOW
            && self.ready_frames < WINDOW_FRAMES
            && self.next_file < self.files.len()
        {
            self.read_files();
        }
    }

    /// Reads one more batch of files if fewer than `READ_AHEAD` motions (and fewer than
    /// twice [`WINDOW_FRAMES`] frames) are ready: what a window's baking does beside it.
    pub fn read_ahead(&mut self) {
        if self.ready.len() < READ_AHEAD
            && self.ready_frames < 2 * WINDOW_FRAMES
            && self.next_file < self.files.len()
        {
            self.read_files();
        }
    }

    /// Reads files until at least `motions` motions are read and not yet handed out, or every
    /// file is read: for the claims a bake makes ahead of its windows (see `run::claims`).
    /// Only their specs are held, not their frames.
    pub fn read_ahead_motions(&mut self, motions: usize) {
        while self.ready.len() < motions && self.next_file < self.files.len() {
            self.read_files();
        }
    }

    /// The motions read and not yet handed out, in input order.
    pub fn ready(&self) -> impl ExactSizeIterator<Item = &Input> {
        self.ready.iter()
    }

    /// The next window, from the motions read so far: at most [`WINDOW`] motions and, unless
    /// one motion is longer, [`WINDOW_FRAMES`] frames. `None` once every file has been read
    /// and handed out.
    pub fn next_window(&mut self) -> Option<Window> {
        self.read_window();
        if self.ready.is_empty() && self.errors.is_empty() {
            return None;
        }
        let mut window = Window {
            // Room for every motion it may take: a motion is a few hundred bytes to move.
            inputs: Vec::with_capacity(self.ready.len().min(WINDOW)),
            errors: std::mem::take(&mut self.errors),
        };
        let mut frames = 0;
        while let Some(next) = self.ready.front().map(Input::frames) {
            let fits = window.inputs.is_empty()
                || (window.inputs.len() < WINDOW && frames + next <= WINDOW_FRAMES);
            if !fits {
                break;
            }
            frames += next;
            self.ready_frames -= next;
            let input = self.ready.pop_front().expect("a motion is ready");
            window.inputs.push(input);
        }
        Some(window)
    }

    /// Motions read so far (valid, with unique names).
    pub fn read(&self) -> usize {
        self.read
    }

    /// The names of every motion read, the run hash of every file and the warnings about
    /// their motions, once all are read.
    pub fn finish(self) -> (Names, String, Vec<String>) {
        (self.names, self.run.finish(), self.warnings)
    }

    /// Reads the next [`FILES_AT_ONCE`] files (fewer if they hold more than
    /// [`BYTES_AT_ONCE`]), in parallel.
    fn read_files(&mut self) {
        let mut end = self.next_file;
        let mut bytes = 0;
        while end < self.files.len() && end - self.next_file < FILES_AT_ONCE {
            // A file that cannot be read fails when it is read; its size counts as nothing.
            let size = std::fs::metadata(&self.files[end]).map_or(0, |m| m.len());
            if end > self.next_file && bytes + size > BYTES_AT_ONCE {
                break;
            }
            bytes += size;
            end += 1;
        }
        let batch = &self.files[self.next_file..end];
        self.next_file = end;
        let overrides = self.overrides;
        let reads: Vec<FileRead> = batch
            .par_iter()
            .map(|file| match read_source(file) {
                Err(e) => (
                    None,
                    Loaded {
                        errors: vec![e],
                        ..Loaded::default()
                    },
                ),
                Ok(bytes) => (
                    Some(source_digest(file, &bytes)),
                    load_bytes(file, &bytes, overrides),
                ),
            })
            .collect();
        for (digest, loaded) in reads {
            if let Some(digest) = digest {
                self.run.add(&digest);
            }
            self.errors.extend(loaded.errors);
            self.warnings.extend(loaded.notes);
            self.ready.reserve(loaded.inputs.len());
            for input in loaded.inputs {
                match self.names.admit(&input) {
                    Ok(()) => {
                        let frames = input.frames();
                        self.read += 1;
                        self.ready_frames += frames;
                        self.ready.push_back(input);
                    }
                    Err(e) => self.errors.push(e),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::source_digest;
    use std::path::Path;

    fn spring(name: &str, duration: f64) -> String {
        format!("(name: \"{name}\", duration: {duration}, motion: Spring(from: 0, to: 1, stiffness: 100, damping: 10))")
    }

    /// Writes `files` (name, text) into `dir`; returns their paths in order.
    fn write(dir: &Path, files: &[(&str, String)]) -> Vec<PathBuf> {
        files
            .iter()
            .map(|(name, text)| {
                let path = dir.join(name);
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect()
    }

    fn windows(intake: &mut Intake) -> Vec<Window> {
        std::iter::from_fn(|| intake.next_window()).collect()
    }

    #[test]
    fn windows_keep_input_order_and_their_bounds() {
        let dir = tempfile::tempdir().unwrap();
        // 60 files of 10 motions: 600 motions, more than two windows' worth.
        let files: Vec<(String, String)> = (0..60)
            .map(|f| {
                let motions: Vec<String> =
                    (0..10).map(|m| spring(&format!("m{f}x{m}"), 1.0)).collect();
                (format!("f{f:02}.ron"), format!("[{}]", motions.join(",")))
            })
            .collect();
        let named: Vec<(&str, String)> =
            files.iter().map(|(n, t)| (n.as_str(), t.clone())).collect();
        let paths = write(dir.path(), &named);
        let mut intake = Intake::new(&paths, Overrides::default(), RunHasher::new(b"key"));
        // Reading ahead between windows, as a bake does beside each window's baking.
        let windows: Vec<Window> = std::iter::from_fn(|| {
            let window = intake.next_window();
            intake.read_ahead();
            window
        })
        .collect();
        // Full windows, whatever was read ahead of them, and the rest in the last.
        let sizes: Vec<usize> = windows.iter().map(|w| w.inputs.len()).collect();
        assert_eq!(sizes, [WINDOW, WINDOW, 600 - 2 * WINDOW]);
        assert!(windows.iter().all(|w| w.errors.is_empty()));
        let names: Vec<String> = windows
            .iter()
            .flat_map(|w| w.inputs.iter().map(|i| i.spec.name.clone()))
            .collect();
        let expected: Vec<String> = (0..60)
            .flat_map(|f| (0..10).map(move |m| format!("m{f}x{m}")))
            .collect();
        assert_eq!(names, expected);
        assert_eq!(intake.read(), 600);

        // The run hash is the one a re-run computes from the files alone.
        let (_, run, _) = intake.finish();
        let mut again = RunHasher::new(b"key");
        for path in &paths {
            again.add(&source_digest(path, &std::fs::read(path).unwrap()));
        }
        assert_eq!(run, again.finish());
    }

    #[test]
    fn a_window_holds_at_most_its_frames_unless_one_motion_is_longer() {
        let dir = tempfile::tempdir().unwrap();
        // 10,000 s at 60 fps: 600,001 frames each, so no two share a window.
        let long: Vec<String> = (0..3).map(|m| spring(&format!("l{m}"), 10_000.0)).collect();
        let paths = write(dir.path(), &[("long.ron", format!("[{}]", long.join(",")))]);
        let mut intake = Intake::new(&paths, Overrides::default(), RunHasher::new(b""));
        let sizes: Vec<usize> = windows(&mut intake)
            .iter()
            .map(|w| w.inputs.len())
            .collect();
        assert_eq!(sizes, [1, 1, 1]);
    }

    #[test]
    fn errors_come_with_the_window_of_their_file_and_taken_names_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let paths = write(
            dir.path(),
            &[
                ("a.ron", spring("card", 1.0)),
                ("b.ron", "(name: \"broken\"".to_owned()),
                ("c.ron", spring("Card", 1.0)),
            ],
        );
        let mut intake = Intake::new(&paths, Overrides::default(), RunHasher::new(b""));
        let windows = windows(&mut intake);
        let inputs: Vec<&str> = windows
            .iter()
            .flat_map(|w| w.inputs.iter().map(|i| i.spec.name.as_str()))
            .collect();
        assert_eq!(inputs, ["card"]);
        let errors: Vec<String> = windows
            .iter()
            .flat_map(|w| w.errors.iter().map(|e| e.to_string()))
            .collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("b.ron"), "{errors:?}");
        assert!(
            errors[1].contains("c.ron") && errors[1].contains("already used"),
            "{errors:?}"
        );
    }
}
