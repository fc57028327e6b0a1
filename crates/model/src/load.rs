//! Reading curve files into validated motions: each file is found, read and parsed by
//! [`crate::source`], each motion checked into a [`MotionSpec`] by [`crate::spec`] and planned
//! by [`crate::bake`], every error collected. Names must be unique across files ([`Names`]).

use crate::bake::{frame_plan, FramePlan};
use crate::error::{InputError, Problem};
use crate::source::schema::MotionFile;
use crate::source::{motion_texts, parse_motions, read_source, tokens};
use crate::spec::{Clash, MotionSpec, Overrides, Property, Variables};
use crate::str_map::{Span, StrMap};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// A validated motion and the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The source file (shared by the motions of one file).
    pub file: Arc<Path>,
    /// The motion.
    pub spec: MotionSpec,
    /// How it will be sampled (`None` if it cannot be baked: the bake says why).
    pub plan: Option<FramePlan>,
}

impl Input {
    /// Frames it will be baked as (one if it cannot be baked: the bake says why).
    pub fn frames(&self) -> usize {
        self.plan.map_or(1, |plan| plan.frames())
    }
}

/// The motion names taken so far, each with its file, and the custom properties their CSS
/// puts on the page ([`Variables`]). Names are compared ignoring ASCII case: outputs named
/// `Card.css` and `card.css` would clash on case-insensitive file systems. Holds a name and a
/// shared path per motion and a few names of custom properties, nothing else.
#[derive(Debug, Default)]
pub struct Names {
    /// Each name in ASCII lower case, with its spelling and file.
    taken: StrMap<(Span, Arc<Path>)>,
    variables: Variables,
    /// Every start of a taken name, or of a custom property a motion animates, that ends
    /// before a `-`, in lower case ([`Names::apart`]).
    starts: StrMap<()>,
    /// The name being looked up, in lower case.
    key: String,
}

impl Names {
    /// Takes `input`'s name and custom properties, or says which file already has the name,
    /// or which motion a custom property clashes with.
    pub fn admit(&mut self, input: &Input) -> Result<(), InputError> {
        let Some((first, file)) = self.find(&input.spec.name) else {
            if !(self.apart() && self.variables.defer(&input.spec)) {
                if let Err(clash) = self.variables.admit(&input.spec) {
                    return Err(self.clash(input, clash));
                }
            }
            let name = &input.spec.name;
            self.taken.insert_new(&self.key, |taken| {
                (taken.store(name), Arc::clone(&input.file))
            });
            self.note_starts(&input.spec);
            return Ok(());
        };
        let (first, file) = (first.to_owned(), Arc::clone(file));
        // Say so when the names differ only in case: they look different.
        let case = if *first == *input.spec.name {
            String::new()
        } else {
            format!(
                " (as {first:?}; names that differ only in case would clash on case-insensitive file systems)"
            )
        };
        // Two file names may look alike and differ (in Unicode normalisation, say): spell
        // both out then.
        let (there, here) = (file.display().to_string(), input.file.display().to_string());
        let case = if there != here && !(there.is_ascii() && here.is_ascii()) {
            format!(
                "{case} (that file is {}, this one {})",
                beyond_ascii_escaped(&there),
                beyond_ascii_escaped(&here)
            )
        } else {
            case
        };
        Err(InputError::new(
            &input.file,
            Problem::Field {
                motion: input.spec.name.clone(),
                message: format!(
                    "name is already used by a motion in {}{case}",
                    file.display()
                ),
            },
        ))
    }

    /// Whether the motion named `self.key` (in lower case) surely meets no motion taken so
    /// far on a custom property or `@keyframes` name. A motion's such names are its name,
    /// names that start with its name and `-`, and the custom property it animates; so two
    /// motions meet only if one's name is the start of the other's name, or of the property
    /// the other animates, up to a `-`, or if both animate a custom property. Compared in lower
    /// case: this may suspect a meeting where there is none, never miss one.
    fn apart(&self) -> bool {
        self.starts.get(&self.key).is_none()
            && starts_before_dash(&self.key).all(|start| self.taken.get(start).is_none())
    }

    /// Notes the starts of `spec`'s name (`self.key`) and of the custom property it
    /// animates, for [`Names::apart`].
    fn note_starts(&mut self, spec: &MotionSpec) {
        for start in starts_before_dash(&self.key) {
            self.starts.insert_new(start, |_| ());
        }
        if let Property::Custom(property) = &spec.property {
            self.key.clear();
            self.key.push_str(property.trim_start_matches('-'));
            self.key.make_ascii_lowercase();
            for start in starts_before_dash(&self.key) {
                self.starts.insert_new(start, |_| ());
            }
        }
    }

    /// The spelling and file of the motion whose name is `name` ignoring ASCII case, if any
    /// (`self.key` is then `name` in lower case).
    fn find(&mut self, name: &str) -> Option<(&str, &Arc<Path>)> {
        self.key.clear();
        self.key.push_str(name);
        self.key.make_ascii_lowercase();
        self.lookup(&self.key)
    }

    /// The spelling and file of the motion whose name in lower case is `key`, if any.
    fn lookup(&self, key: &str) -> Option<(&str, &Arc<Path>)> {
        let (spelling, file) = self.taken.get(key)?;
        Some((self.taken.text(*spelling), file))
    }

    /// The error of a motion whose custom property clashes with an earlier motion's.
    fn clash(&mut self, input: &Input, clash: Clash) -> InputError {
        let file = self
            .find(&clash.other)
            .map_or_else(String::new, |(_, f)| format!(" (in {})", f.display()));
        InputError::new(
            &input.file,
            Problem::Field {
                motion: input.spec.name.clone(),
                message: format!("{}{file}, {}", clash.ours, clash.theirs),
            },
        )
    }

    /// Whether a motion has exactly this name.
    pub fn contains(&self, name: &str) -> bool {
        let key = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            std::borrow::Cow::Owned(name.to_ascii_lowercase())
        } else {
            std::borrow::Cow::Borrowed(name)
        };
        self.lookup(&key)
            .is_some_and(|(spelling, _)| spelling == name)
    }
}

/// Every start of `text` that ends before a `-` (`a` and `a-b` of `a-b-c`).
fn starts_before_dash(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices('-').map(|(end, _)| &text[..end])
}

/// `text` with every character beyond ASCII written `\u{...}`: two spellings that look alike
/// then read apart (`café` composed is `caf\u{e9}`, decomposed `cafe\u{301}`).
fn beyond_ascii_escaped(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect()
}

/// Reads one file: its valid motions and its errors (for tools that do not bake it, which
/// leave out its notes).
pub fn load_file(file: &Path, overrides: Overrides) -> (Vec<Input>, Vec<InputError>) {
    match read_source(file) {
        Ok(bytes) => {
            let loaded = load_bytes(file, &bytes, overrides);
            (loaded.inputs, loaded.errors)
        }
        Err(e) => (Vec::new(), vec![e]),
    }
}

/// What one file holds for a bake.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Its valid motions.
    pub inputs: Vec<Input>,
    /// Its errors.
    pub errors: Vec<InputError>,
    /// What it holds that the bake leaves out, naming the file (a tokens file's other
    /// tokens and edited values, [`tokens::Read::notes`]): warnings.
    pub notes: Vec<String>,
}

/// Parses and validates the bytes of `file`: its valid motions, its errors, its notes. The parsing is
/// one pass over the text; the motions are then checked and planned in parallel (which is
/// most of the work), so that one large file keeps every core busy.
pub fn load_bytes(file: &Path, bytes: &[u8], overrides: Overrides) -> Loaded {
    let (motions, mut errors, texts, notes) = if tokens::is_tokens_file_name(file) {
        let read = tokens::read(file, bytes);
        let notes = read.notes(file);
        let (motions, texts) = (read.motions.into_iter())
            .map(|(index, motion, text)| ((index, motion), text))
            .unzip();
        (motions, read.errors, texts, notes)
    } else {
        let (motions, errors) = parse_motions(file, bytes);
        let texts = if overrides.without_texts {
            Vec::new()
        } else {
            (motion_texts(bytes).unwrap_or_default().into_iter())
                .map(Some)
                .collect()
        };
        (motions, errors, texts, Vec::new())
    };
    let motions: Vec<(usize, MotionFile)> = motions;
    let texts: Vec<Option<crate::source::MotionText>> = texts;
    let shared: Arc<Path> = Arc::from(file);
    let checked: Vec<Result<Input, InputError>> = motions
        .par_iter()
        .map(
            |(index, motion)| match MotionSpec::from_file(motion, overrides) {
                Ok(mut spec) => {
                    spec.text = texts.get(*index).cloned().flatten();
                    Ok(Input {
                        file: Arc::clone(&shared),
                        plan: frame_plan(&spec).ok(),
                        spec,
                    })
                }
                Err(e) => Err(InputError::new(
                    file,
                    Problem::Field {
                        motion: motion_label(motion, *index),
                        message: e.to_string(),
                    },
                )),
            },
        )
        .collect();
    let mut valid = Vec::with_capacity(checked.len());
    for motion in checked {
        match motion {
            Ok(input) => valid.push(input),
            Err(e) => errors.push(e),
        }
    }
    Loaded {
        inputs: valid,
        errors,
        notes,
    }
}

/// The motion's name when it is a valid one, else its position in the file.
fn motion_label(motion: &MotionFile, index: usize) -> String {
    if crate::spec::check_name(&motion.name).is_ok() {
        motion.name.clone()
    } else {
        format!("motion #{}", index + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Motions named `name` of every kind whose CSS makes other names: a spring, one with a
    /// CSS velocity, one with a reduced-motion fade, a ring, one with tracks, one animating a
    /// custom property (`property`).
    fn motions(name: &str, property: &str) -> [String; 6] {
        [
            format!("(name: {name:?}, motion: Spring(from: 0, to: 1))"),
            format!("(name: {name:?}, property: \"translateX\", css_velocity: true, motion: Spring(from: 0, to: 100))"),
            format!("(name: {name:?}, reduced_motion: \"fade\", motion: Spring(from: 0, to: 1))"),
            format!("(name: {name:?}, duration: 0.5, motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15)))"),
            format!("(name: {name:?}, tracks: [(property: \"translateY\", motion: Spring(from: 1, to: 0)), (property: \"opacity\", motion: Spring(from: 0, to: 1))])"),
            format!("(name: {name:?}, property: {property:?}, unit: \"px\", motion: Spring(from: 0, to: 1))"),
        ]
    }

    /// What admitting each motion in turn gives when every name is looked up (no motion
    /// deferred): `None` if admitted, else the words the error must hold.
    fn looked_up(inputs: &[Input]) -> Vec<Option<Vec<String>>> {
        let mut variables = Variables::default();
        let mut names = HashSet::new();
        (inputs.iter())
            .map(|input| {
                let key = input.spec.name.to_ascii_lowercase();
                if names.contains(&key) {
                    return Some(vec!["is already used".to_owned()]);
                }
                match variables.admit(&input.spec) {
                    Ok(()) => {
                        names.insert(key);
                        None
                    }
                    Err(clash) => Some(vec![clash.ours, clash.theirs]),
                }
            })
            .collect()
    }

    #[test]
    fn deferring_names_finds_the_clashes_that_looking_each_up_finds() {
        let names = [
            "a",
            "A",
            "a-velocity",
            "a-fade",
            "a-b",
            "a-B-c",
            "b",
            "b-c",
            "a-translateY",
            "a-inner",
            "c-d-e",
        ];
        let properties = ["--a-duration", "--b-c", "--a-b-from", "--q", "--a", "--c-d"];
        let mut seed = 7_u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut clashes = 0;
        for _ in 0..400 {
            let chosen: Vec<String> = (0..8)
                .map(|_| {
                    let name = names[next(names.len())];
                    let property = properties[next(properties.len())];
                    let kinds = motions(name, property);
                    // Mostly plain springs, as in most bakes.
                    let kind = next(12).saturating_sub(6);
                    kinds[kind].clone()
                })
                .collect();
            let text = format!("[{}]", chosen.join(","));
            let loaded = load_bytes(Path::new("t.ron"), text.as_bytes(), Overrides::default());
            assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
            let expected = looked_up(&loaded.inputs);
            let mut names = Names::default();
            for (input, expected) in loaded.inputs.iter().zip(expected) {
                match (names.admit(input), expected) {
                    (Ok(()), None) => {}
                    (Err(e), Some(words)) => {
                        clashes += 1;
                        let e = e.to_string();
                        assert!(words.iter().all(|w| e.contains(w)), "{e} lacks {words:?}");
                    }
                    (got, expected) => {
                        panic!("{text}: {}: {got:?}, not {expected:?}", input.spec.name)
                    }
                }
            }
        }
        assert!(clashes > 400, "{clashes}");
    }
}
