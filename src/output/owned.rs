//! Which files of the output folder a bake may replace: those curvebake wrote. A file there
//! that no manifest or claim of ours names is the user's (an `index.html` of their site, a
//! `package.json`): a bake refuses to replace it, names it, and says how to go on.
//!
//! What is ours: every file the old manifest names (its motions' files, bundles and
//! summaries, also when it is read for ownership only, with the claims an unfinished bake
//! left), the files this bake claims before it writes them (each checked first: a file
//! already there that is not ours stops the bake before its window is written), and the
//! bookkeeping files, named `.curvebake-*`. `--force` lets a bake replace anything.

use std::collections::HashSet;
use std::sync::RwLock;

/// The prefix of the names of curvebake's own bookkeeping files (the manifest, its annex,
/// the claims, the lock, temporary files): always ours.
pub const BOOKKEEPING_PREFIX: &str = ".curvebake-";

/// The files a bake may replace.
#[derive(Debug, Default)]
pub struct Owned {
    /// `None`: every file (no guard: `--force`, a folder only read, or a test's).
    paths: Option<RwLock<HashSet<String>>>,
}

impl Owned {
    /// Guards the folder: from now on only `paths` (relative to the folder), the bookkeeping
    /// files and what is [`Owned::adopt`]ed may be replaced.
    pub fn guard(&mut self, paths: impl IntoIterator<Item = String>) {
        self.paths = Some(RwLock::new(paths.into_iter().collect()));
    }

    /// Whether the file at `relative` may be replaced.
    pub fn contains(&self, relative: &str) -> bool {
        let Some(paths) = &self.paths else {
            return true;
        };
        let name = relative.rsplit('/').next().unwrap_or(relative);
        name.starts_with(BOOKKEEPING_PREFIX)
            || paths.read().map_or(true, |paths| paths.contains(relative))
    }

    /// Records files as ours (a bake's claims, once checked).
    pub fn adopt<'a>(&self, relative: impl IntoIterator<Item = &'a str>) {
        if let Some(Ok(mut paths)) = self.paths.as_ref().map(RwLock::write) {
            paths.extend(relative.into_iter().map(str::to_owned));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_named_adopted_and_bookkeeping_files_are_ours_once_guarded() {
        let mut owned = Owned::default();
        assert!(owned.contains("index.html"), "no guard: everything");
        owned.guard(["json/a.json".to_owned()]);
        assert!(owned.contains("json/a.json"));
        assert!(!owned.contains("index.html"));
        assert!(owned.contains(".curvebake-manifest.json"));
        assert!(owned.contains("css/.curvebake-tmp-x1"));
        owned.adopt(["index.html"]);
        assert!(owned.contains("index.html"));
    }
}
