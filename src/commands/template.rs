//! `curvebake new`: commented RON templates, one per kind of motion, whose defaults bake as
//! they are.

use curvebake_model::load::load_file;
use curvebake_model::source::find_inputs_within;
use curvebake_model::spec::{check_motion_name, Overrides};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The kinds of motion `new` has a template for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A spring (perceptual form, with the physical form in comments).
    Spring,
    /// A fling slowed by friction (with the snap form in comments).
    Friction,
    /// A fall that bounces on a floor (with the other gravity forms in comments).
    Gravity,
    /// A decay solved from where it ends (with the direct form in comments).
    Decay,
    /// An explosion ring.
    Ring,
    /// A fling with bounds and snap points.
    Inertia,
    /// Motions that hand over position and velocity.
    Sequence,
    /// Several properties (or x and y) on one timeline.
    Tracks,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 8] = [
        Kind::Spring,
        Kind::Friction,
        Kind::Gravity,
        Kind::Decay,
        Kind::Ring,
        Kind::Inertia,
        Kind::Sequence,
        Kind::Tracks,
    ];

    /// The name `new` takes: `spring`, `friction`, `gravity`, `decay`, `ring`, `inertia`,
    /// `sequence`, `tracks`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Spring => "spring",
            Self::Friction => "friction",
            Self::Gravity => "gravity",
            Self::Decay => "decay",
            Self::Ring => "ring",
            Self::Inertia => "inertia",
            Self::Sequence => "sequence",
            Self::Tracks => "tracks",
        }
    }

    /// Parses a kind name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The RON text of a new motion called `name` (not validated here; see [`create`]): the
/// kind's commented template, `templates/<kind>.ron` (the file as `new` writes it, with
/// `@name@` for the name), with the name put in.
pub fn template(kind: Kind, name: &str) -> String {
    let text = match kind {
        Kind::Spring => include_str!("templates/spring.ron"),
        Kind::Friction => include_str!("templates/friction.ron"),
        Kind::Gravity => include_str!("templates/gravity.ron"),
        Kind::Decay => include_str!("templates/decay.ron"),
        Kind::Ring => include_str!("templates/ring.ron"),
        Kind::Inertia => include_str!("templates/inertia.ron"),
        Kind::Sequence => include_str!("templates/sequence.ron"),
        Kind::Tracks => include_str!("templates/tracks.ron"),
    };
    let name_literal = serde_json::to_string(name).expect("a string serializes");
    text.replace("\"@name@\"", &name_literal)
        .replace("@name@", name)
}

/// Why `new` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum NewError {
    /// The name is not a valid motion name.
    #[error("invalid name: the name {0}")]
    Name(String),
    /// The file exists.
    #[error(
        "{0}: already exists; refusing to overwrite it (pick another name, or delete the file)"
    )]
    Exists(PathBuf),
    /// A motion of that name exists in another file.
    #[error(
        "{file}: already holds a motion named {existing:?}; names must be unique, ignoring case"
    )]
    Taken {
        /// The file holding it.
        file: PathBuf,
        /// Its name as written there.
        existing: String,
    },
    /// The folder or file could not be created.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// Most names in folders [`create`] looks at for a motion of the same name: far more than a
/// project's curve folders hold, few enough that `new --dir /` ends at once.
pub const MAX_NAMES_SEARCHED: usize = 100_000;

/// A curve file [`create`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    /// Its path.
    pub path: PathBuf,
    /// Whether the name was checked against every motion under the folders searched; `false`
    /// when they hold more than [`MAX_NAMES_SEARCHED`] names, and the check was given up (the
    /// bake still refuses a name used twice).
    pub names_checked: bool,
}

/// Writes the template for `kind` as `<dir>/<name>.ron`, creating `dir` if needed. Refuses a
/// name that is invalid, a file that exists, and a name already used (ignoring case) by a
/// motion in a `.ron` file under `dir` or under any of `inputs` (the project's curve folders),
/// since the bake would reject it. That search looks at no more than [`MAX_NAMES_SEARCHED`]
/// names in folders (each folder once, as the bake finds inputs, breadth first): under a
/// folder holding more (`--dir /`), only the files found until then are checked, and
/// [`Created::names_checked`] says so.
pub fn create(kind: Kind, name: &str, dir: &Path, inputs: &[PathBuf]) -> Result<Created, NewError> {
    create_searching(kind, name, dir, inputs, MAX_NAMES_SEARCHED)
}

/// [`create`], its search looking at no more than `max_names` names.
fn create_searching(
    kind: Kind,
    name: &str,
    dir: &Path,
    inputs: &[PathBuf],
    max_names: usize,
) -> Result<Created, NewError> {
    check_motion_name(name).map_err(NewError::Name)?;
    let path = dir.join(format!("{name}.ron"));
    if path.exists() {
        return Err(NewError::Exists(path));
    }
    let searched: Vec<PathBuf> = std::iter::once(dir.to_owned())
        .chain(inputs.iter().cloned())
        .collect();
    // Past its names, the files found until then (those nearest the folders) are still checked.
    let (found, complete) = find_inputs_within(&searched, max_names);
    // Files that fail to load are the bake's business, not a reason to refuse.
    for file in &found {
        for input in load_file(file, Overrides::default()).0 {
            if input.spec.name.eq_ignore_ascii_case(name) {
                return Err(NewError::Taken {
                    file: file.clone(),
                    existing: input.spec.name,
                });
            }
        }
    }
    write_new(dir, &path, template(kind, name).as_bytes())?;
    Ok(Created {
        path,
        names_checked: complete,
    })
}

/// Writes the project file `<dir>/curvebake.toml` (see [`crate::config`]), every key
/// commented out at its default; refuses to replace one. Returns the path.
pub fn create_config(dir: &Path) -> Result<PathBuf, NewError> {
    let path = dir.join(crate::config::CONFIG_FILE);
    write_new(dir, &path, crate::config::config_template().as_bytes())?;
    Ok(path)
}

/// Writes `bytes` as the new file `path` in `dir` (created if needed), refusing to replace a
/// file that exists.
fn write_new(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), NewError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| NewError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    // `create_new` refuses atomically, even if the file appeared since any check.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|source| {
            if source.kind() == std::io::ErrorKind::AlreadyExists {
                NewError::Exists(path.to_owned())
            } else {
                io(path)(source)
            }
        })?;
    file.write_all(bytes).map_err(io(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::source::parse_bytes;
    use curvebake_model::spec::MotionSpec;

    #[test]
    fn every_template_is_a_valid_motion_that_bakes() {
        for kind in Kind::ALL {
            let text = template(kind, "my-motion");
            let files = parse_bytes(Path::new("t.ron"), text.as_bytes())
                .unwrap_or_else(|e| panic!("{kind:?}: {e}\n{text}"));
            let spec = MotionSpec::from_file(&files[0], Overrides::default())
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            assert_eq!(spec.name, "my-motion");
            curvebake_model::bake::bake(&spec).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        }
    }

    #[test]
    fn the_spring_template_names_the_default_rest_thresholds() {
        use curvebake_model::spec::{REST_FOR_PIXELS, REST_FOR_UNITLESS, REST_FOR_UNITS};
        // Comments are joined into one line, as they read.
        let text: String = template(Kind::Spring, "my-motion")
            .lines()
            .map(|l| l.trim().trim_start_matches("//").trim())
            .collect::<Vec<_>>()
            .join(" ");
        let (px, unitless, units) = (REST_FOR_PIXELS, REST_FOR_UNITLESS, REST_FOR_UNITS);
        for expected in [
            format!(
                "rest_delta of `to` (default {} in px and deg, {} without a unit, {} in other units)",
                px.0, unitless.0, units.0
            ),
            format!(
                "rest_speed per second (default {} in px and deg, {} without a unit, {} in other units)",
                px.1, unitless.1, units.1
            ),
            // The template's unit is px.
            format!("rest_delta: {}, rest_speed: {},", px.0, px.1),
        ] {
            assert!(text.contains(&expected), "{expected:?} not in:\n{text}");
        }
    }

    /// Past the names a search looks at (`--dir` over a tree of thousands), a clash in the
    /// folder itself is still refused: the files nearest it are found first and checked.
    #[test]
    fn a_clash_near_the_folder_is_refused_past_the_names_searched() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("bar.ron"),
            r#"(name: "foo", motion: Spring(from: 0, to: 1))"#,
        )
        .unwrap();
        let deep = root.join("node_modules/pkg");
        std::fs::create_dir_all(&deep).unwrap();
        for i in 0..20 {
            std::fs::write(deep.join(format!("m{i}.txt")), "").unwrap();
        }
        let taken = create_searching(Kind::Spring, "foo", root, &[], 10).unwrap_err();
        assert!(matches!(taken, NewError::Taken { .. }), "{taken}");
        let created = create_searching(Kind::Spring, "other", root, &[], 10).unwrap();
        assert!(!created.names_checked && created.path.is_file());
        let checked = create_searching(Kind::Spring, "third", root, &[], 1_000).unwrap();
        assert!(checked.names_checked);
    }

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.name()), Some(kind));
        }
        assert_eq!(Kind::parse("wobble"), None);
    }
}
