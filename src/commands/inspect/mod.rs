//! `curvebake inspect`: the figures a motion designer thinks in, for one motion.
//!
//! Physical figures (damping ratio, frequencies, period, perceptual duration and bounce, decay
//! rates, the Lambert W branch of a solve) come from the resolved model in closed form. What
//! the animation does on screen (overshoot, peak speed, when it is visibly at rest) is read
//! from the baked frames: the closed form at each frame time, the tables the JSON and the ES
//! modules carry and the plots draw. The CSS and the Web Animations API keyframes play
//! straight lines between stops the fitting core places against the closed form, within the
//! motion's tolerance ε of it at every instant, so what they show is within ε of the motion
//! itself, not of its frames; an extreme between two frames reads a little low from the
//! frames (a spring's overshoot is also given in closed form beside it). Each such figure
//! says where it came from in its `source` field.
//!
//! ```
//! use curvebake::Curve;
//! use curvebake::inspect::inspect;
//! let curve = Curve::from_ron(
//!     r#"(name: "card", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 13))"#,
//! )
//! .unwrap();
//! let baked = curve.bake().unwrap();
//! let figures = inspect(&baked);
//! let spring = figures.spring.as_ref().unwrap();
//! assert!((spring.damping_ratio - 13.0 / (2.0 * 170f64.sqrt())).abs() < 1e-12);
//! // ζ ≈ 0.498: the classic e^(-ζπ/√(1-ζ²)) ≈ 16.4 % overshoot, seen in the frames.
//! assert!((figures.tracks[0].overshoot.as_ref().unwrap().percent - 16.4).abs() < 0.2);
//! ```
//!
//! `figures` computes them and `text` lays them out as `inspect` prints them
//! ([`Inspection::to_text`]); this module finds the motions the command's targets name
//! ([`resolve`]) and inspects them ([`inspect_targets`]).

mod figures;
mod text;

pub use figures::{
    inspect, DecayFigures, FrictionFigures, GravityFigures, InertiaFigures, Inspection, Overshoot,
    Params, PeakSpeed, SpringFigures, StepFigures, TrackFigures, CLOSED_FORM, CRITICAL_SLACK,
    FROM_FRAMES, SPARKLINE_COLUMNS,
};

use curvebake_model::bake::bake;
use curvebake_model::error::{InputError, Problem};
use curvebake_model::load::{load_file, Input};
use curvebake_model::source::find_inputs;
use curvebake_model::spec::Overrides;
use std::path::Path;

/// Every motion named by `targets` (as [`resolve`] finds them) baked and inspected, each
/// with its file; every error met on the way (a motion that cannot be baked is one); and,
/// apart, the targets that name nothing (see [`resolve`]).
pub fn inspect_targets(
    targets: &[String],
    curves: &Path,
    overrides: Overrides,
) -> (Vec<Inspection>, Vec<InputError>, Vec<InputError>) {
    let (inputs, mut errors, missing) = resolve(targets, curves, overrides);
    let mut figures = Vec::new();
    for input in &inputs {
        match bake(&input.spec) {
            Ok(baked) => {
                let mut f = inspect(&baked);
                f.file = Some(input.file.to_path_buf());
                figures.push(f);
            }
            Err(e) => errors.push(InputError::new(
                &input.file,
                Problem::Field {
                    motion: input.spec.name.clone(),
                    message: e.to_string(),
                },
            )),
        }
    }
    (figures, errors, missing)
}

/// The motions named by `targets`, each a `.ron` file (all its motions), a folder (every
/// motion under it) or a motion name looked up in the `.ron` files under `curves`; and every
/// error met on the way, worded like the bake's, and apart from them the errors of paths
/// given that do not exist (a usage error, as for `bake`). Motions are in target order,
/// without repeats.
pub fn resolve(
    targets: &[String],
    curves: &Path,
    overrides: Overrides,
) -> (Vec<Input>, Vec<InputError>, Vec<InputError>) {
    let mut inputs: Vec<Input> = Vec::new();
    let mut errors = Vec::new();
    let mut missing = Vec::new();
    // Loaded lazily, once: every motion under `curves`, and the errors of its files.
    let mut library: Option<(Vec<Input>, Vec<InputError>)> = None;
    for target in targets {
        let path = Path::new(target);
        // A path: there, a `.ron` file, or anything with a folder in it (a motion's name has
        // none), so that a missing one is an input path that does not exist (exit 2).
        let found = if path.exists() || target.ends_with(".ron") || target.contains('/') {
            let files = match find_inputs(&[path.to_owned()]) {
                Ok(files) => files,
                Err(e) if !path.exists() => {
                    missing.push(e);
                    continue;
                }
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let mut found = Vec::new();
            for file in files {
                let (valid, mut errs) = load_file(&file, overrides);
                found.extend(valid);
                errors.append(&mut errs);
            }
            found
        } else {
            let (all, library_errors) =
                library.get_or_insert_with(|| match find_inputs(&[curves.to_owned()]) {
                    Ok(files) => {
                        let mut all = Vec::new();
                        let mut errs = Vec::new();
                        for file in files {
                            let (valid, mut e) = load_file(&file, overrides);
                            all.extend(valid);
                            errs.append(&mut e);
                        }
                        (all, errs)
                    }
                    Err(e) => (Vec::new(), vec![e]),
                });
            let exact: Vec<Input> = all
                .iter()
                .filter(|i| i.spec.name == *target)
                .cloned()
                .collect();
            let found = if exact.is_empty() {
                all.iter()
                    .filter(|i| i.spec.name.eq_ignore_ascii_case(target))
                    .cloned()
                    .collect()
            } else {
                exact
            };
            if found.is_empty() {
                // The motion may be in a file that does not load: show why those fail.
                errors.append(library_errors);
                errors.push(InputError::new(
                    curves,
                    Problem::Read(format!(
                        "no motion named {target:?} here; give a motion name, a .ron file or a \
                         folder (names are looked up under --curves)"
                    )),
                ));
            }
            found
        };
        for input in found {
            if !inputs
                .iter()
                .any(|i| i.spec.name == input.spec.name && i.file == input.file)
            {
                inputs.push(input);
            }
        }
    }
    (inputs, errors, missing)
}
