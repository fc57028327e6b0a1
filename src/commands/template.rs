//! `curvebake new`: commented RON templates, one per kind of motion, whose defaults bake as
//! they are.

use curvebake_model::load::load_file;
use curvebake_model::source::find_inputs;
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

/// The property line of every template but the ring's (a ring animates two properties of
/// its own).
const PROPERTY: &str = r#"    // The property animated: translateX (default), translateY, scale, rotate, opacity, or a
    // custom property such as "--glow".
    property: "translateX",
"#;

/// The unit line of every template but the tracks' (each track has its own unit).
const UNIT: &str = r#"    // Unit of the values. Defaults: px for translate, deg for rotate, none otherwise.
    unit: "px",
"#;

/// The field every template shares, after `name`, `property` and `unit`.
const FPS: &str = r#"    // Frames per second of the bake (default 60).
    fps: 60,
"#;

/// The RON text of a new motion called `name` (not validated here; see [`create`]).
pub fn template(kind: Kind, name: &str) -> String {
    let (intro, timing, motion) = match kind {
        Kind::Spring => (
            "A spring: settles on `to` with the feel set by its duration and bounce.",
            r#"    // Without `duration` the bake ends once the spring provably rests: within rest_delta
    // of `to` (default 0.25 in px and deg, 0.001 without a unit, 0.01 in other units) and
    // slower than rest_speed per second (default 2 in px and deg, 0.01 without a unit, 0.1
    // in other units).
    // duration: 1.0,
    // rest_delta: 0.25,
    // rest_speed: 2,
"#,
            r#"    motion: Spring(
        from: 0,
        to: 100,
        // Initial velocity, units per second (default 0).
        velocity: 0,
        // Perceptual form, as in SwiftUI and Flutter: the duration in seconds and a bounce
        // in (-1, 1): 0 is no overshoot, 0.3 a lively one, below 0 slower than critical.
        perceptual_duration: 0.5,
        bounce: 0.2,
        // Or exactly one other form, instead of the two lines above:
        // physical:            mass: 1, stiffness: 170, damping: 26,
        // SwiftUI:             response: 0.5, damping_fraction: 0.8,
        // Android, Compose:    stiffness: 1500, damping_ratio: 0.5,
        // motion.dev:          visual_duration: 0.4, bounce: 0.2,
        // Origami, Rebound:    origami_tension: 40, origami_friction: 7,
        // `curvebake inspect` shows the same spring in every form.
    ),
"#,
        ),
        Kind::Friction => (
            "A fling slowed by friction: starts fast and glides to a stop.",
            r#"    // The bake ends once the fling provably rests (see rest_delta and rest_speed in
    // curvebake's docs/guide/curves.md); or give it a `duration`.
    // duration: 1.0,
"#,
            r#"    motion: Friction(
        from: 0,
        // Initial velocity, units per second.
        velocity: 1800,
        // The fraction of its velocity kept each second, in (0, 1]: smaller stops sooner.
        friction: 0.02,
        // Or the snap form, instead of `friction`: the fling that comes to rest exactly
        // at `to` (velocity must point towards it).
        // to: 320,
    ),
"#,
        ),
        Kind::Gravity => (
            "Gravity: a fall onto a floor at `to` that bounces until it rests.",
            r#"    // With `restitution` the bake ends once the bounces are provably over. Without it, the
    // fall ends when it reaches `to`; with neither `to` nor `restitution` give a `duration`.
    // duration: 0.8,
"#,
            r#"    motion: Gravity(
        from: -300,
        // Initial velocity, units per second (default 0).
        velocity: 0,
        // Acceleration, units per second squared, towards the floor.
        acceleration: 2400,
        // The floor.
        to: 0,
        // The fraction of speed kept at each bounce, in [0, 1); 0 lands without a bounce.
        restitution: 0.5,
    ),
"#,
        ),
        Kind::Decay => (
            "An exponential decay, solved so that it arrives at `to` with `end_velocity`.",
            r#"    // A decay needs a `duration` in seconds: it arrives at `to` exactly then.
    duration: 0.45,
"#,
            r#"    motion: Decay(
        from: 0,
        to: 100,
        // Speed at the end, units per second; the solve finds the initial velocity and rate.
        // Slower than the average speed (to - from)/duration slows down, faster speeds up.
        end_velocity: 40,
        // Or the direct form, instead of `to` and `end_velocity`:
        // velocity: 2200,
        // lambda: 7.5,
    ),
"#,
        ),
        Kind::Ring => (
            "An explosion ring: inner and outer radius expand fast and settle; the band between\n\
             // them thins out. A ring animates two custom properties, --NAME-inner and\n\
             // --NAME-outer, in the ring's unit.",
            r#"    // A ring needs a `duration` in seconds: both radii arrive at their `to` exactly then.
    duration: 0.9,
"#,
            r#"    motion: ExplosionRing(
        // Each radius: where it starts, where it ends, and its speed at the end.
        inner: (from: 0, to: 150, end_velocity: 30),
        outer: (from: 8, to: 180, end_velocity: 15),
    ),
"#,
        ),
        Kind::Inertia => (
            "A fling that stops inside its bounds (a rubber band at each end) or on the\n\
             // snap point nearest where it would rest.",
            r#"    // The bake ends once it provably rests; or give it a `duration`.
    // duration: 1.5,
"#,
            r#"    motion: Inertia(
        from: 0,
        // Initial velocity, units per second (the finger's speed at release).
        velocity: -1500,
        // The fraction of its velocity kept each second, in (0, 1].
        friction: 0.02,
        // Bounds (each optional): past one, a spring of mass 1 pulls it back.
        min: -1280,
        max: 0,
        // bounce_stiffness: 500,
        // bounce_damping: 10,
        // Snap points (optional, within the bounds): it glides onto the one nearest where
        // friction alone would rest it, or springs back to it if that one is behind.
        snap: [0, -320, -640, -960, -1280],
    ),
"#,
        ),
        Kind::Sequence => (
            "Motions one after the other, each starting at the exact position and velocity\n\
             // the previous one hands over.",
            r#"    // The bake ends when the last step rests or arrives; or give the motion a `duration`.
    // duration: 1.0,
"#,
            r#"    motion: Sequence([
        // A step with `duration` hands over after that many seconds (an interruption);
        // without it, when it rests or arrives. Only the first step says where it starts.
        (motion: Spring(from: 0, to: 100, stiffness: 300, damping: 20), duration: 0.25),
        // Later steps give no `from` or `velocity`: any kind but a ring, any spring form.
        (motion: Spring(to: 0, stiffness: 170, damping: 26)),
    ]),
"#,
        ),
        Kind::Tracks => (
            "Several properties on one timeline, from one class: each track is a motion of its\n\
             // own (any kind but a ring), and a track that ends first holds its end value.",
            r#"    // The bake ends when the last track rests or arrives. Each track may carry its own
    // `unit`, `duration`, `rest_delta` and `rest_speed`.
"#,
            r#"    tracks: [
        (property: "translateY", motion: Spring(from: 480, to: 0, stiffness: 260, damping: 24)),
        (property: "opacity", motion: Decay(from: 0, to: 1, end_velocity: 0.2), duration: 0.3),
        (property: "scale", motion: Spring(from: 0.96, to: 1, perceptual_duration: 0.4, bounce: 0.1)),
        // translateX and translateY together animate one `translate: X Y` (a 2D toss).
    ],
"#,
        ),
    };
    let intro = intro.replace("NAME", name);
    let name_literal = serde_json::to_string(name).expect("a string serializes");
    format!(
        "// {name}: {intro}\n\
         // Made by `curvebake new {kind}`. Bake it with `curvebake bake`, look at it with\n\
         // `curvebake inspect {name}`. Every field: curvebake's docs/guide/curves.md.\n\
         (\n    name: {name_literal},\n{property}{unit}{FPS}{timing}{motion})\n",
        kind = kind.name(),
        property = if matches!(kind, Kind::Ring | Kind::Tracks) {
            ""
        } else {
            PROPERTY
        },
        unit = if kind == Kind::Tracks { "" } else { UNIT },
    )
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

/// Writes the template for `kind` as `<dir>/<name>.ron`, creating `dir` if needed. Refuses a
/// name that is invalid, a file that exists, and a name already used (ignoring case) by a
/// motion in a `.ron` file under `dir` or under any of `inputs` (the project's curve folders),
/// since the bake would reject it. Returns the path.
pub fn create(kind: Kind, name: &str, dir: &Path, inputs: &[PathBuf]) -> Result<PathBuf, NewError> {
    check_motion_name(name).map_err(NewError::Name)?;
    let path = dir.join(format!("{name}.ron"));
    if path.exists() {
        return Err(NewError::Exists(path));
    }
    let searched: Vec<PathBuf> = std::iter::once(dir.to_owned())
        .chain(inputs.iter().cloned())
        .filter(|p| p.exists())
        .collect();
    // Files that fail to load are the bake's business, not a reason to refuse.
    for file in find_inputs(&searched).unwrap_or_default() {
        for input in load_file(&file, Overrides::default()).0 {
            if input.spec.name.eq_ignore_ascii_case(name) {
                return Err(NewError::Taken {
                    file,
                    existing: input.spec.name,
                });
            }
        }
    }
    write_new(dir, &path, template(kind, name).as_bytes())?;
    Ok(path)
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

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.name()), Some(kind));
        }
        assert_eq!(Kind::parse("wobble"), None);
    }
}
