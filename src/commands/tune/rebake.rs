//! One motion baked again from an edited text by the real engine (read, validate, plan,
//! sample, export), and what the review page needs to show it: its card as the page writes
//! it, its CSS, and its figures.

use super::{refuse, Refusal};
use crate::options::BakeOptions;
use curvebake_export::exporter::{Digest, Exporter as _, New};
use curvebake_export::{css, exporters, html, Format, Layout};
use curvebake_model::bake::long_motion_warning;
use curvebake_model::bake::{bake_planned, frame_plan, Baked};
use curvebake_model::load::{load_bytes, Loaded};
use curvebake_model::spec::Overrides;
use curvebake_motion::Motion;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Bakes motion `name` of `text` (the edited bytes of `file`) and returns `{card, css,
/// figures, warnings}` (what a bake would warn of it); a motion the engine refuses is a 422
/// with the engine's message.
pub fn rebake(
    options: &BakeOptions,
    file: &Path,
    text: &str,
    name: &str,
) -> Result<Value, Refusal> {
    let overrides = Overrides {
        fps: options.fps,
        ..Overrides::default()
    };
    let Loaded { inputs, errors, .. } = load_bytes(file, text.as_bytes(), overrides);
    let Some(input) = inputs.into_iter().find(|i| i.spec.name == name) else {
        let why = (errors.iter())
            .find(|e| e.to_string().contains(name))
            .or(errors.first())
            .map_or_else(|| format!("no motion named {name:?}"), ToString::to_string);
        return Err(refuse(422, why));
    };
    let plan = frame_plan(&input.spec).map_err(|e| refuse(422, format!("{name}: {e}")))?;
    let baked = bake_planned(&input.spec, plan).map_err(|e| refuse(422, format!("{name}: {e}")))?;
    let mut digest = Digest::of(&baked, true);
    let all = exporters(&options.formats, Layout::PerMotion, &options.settings);
    digest.files = (all.iter())
        .flat_map(|e| e.shape().files.iter().map(|f| f.of(name)))
        .collect();
    // What a bake would warn of, said on the card too (a slip such as 400 for 0.4 s).
    let mut warnings: Vec<String> = long_motion_warning(&input.spec, baked.frames())
        .into_iter()
        .collect();
    let css = if options.formats.contains(&Format::Css) {
        let output = css::Css::new(Layout::PerMotion, &options.settings).motion(&baked, &[], &New);
        warnings.extend(output.warnings);
        output
            .chunk
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    } else {
        None
    };
    Ok(json!({
        "card": html::card(&digest, &options.settings),
        "css": css,
        "figures": figures(&baked, &digest),
        "warnings": warnings,
    }))
}

/// The figures of every motion of `text` (the bytes of `file` as they are), by name: what the
/// page shows before any edit, computed as a bake's are (a motion the engine refuses has none).
pub fn figures_of_file(options: &BakeOptions, file: &Path, text: &str) -> BTreeMap<String, Value> {
    let overrides = Overrides {
        fps: options.fps,
        ..Overrides::default()
    };
    let Loaded { inputs, .. } = load_bytes(file, text.as_bytes(), overrides);
    (inputs.iter())
        .filter_map(|input| {
            let plan = frame_plan(&input.spec).ok()?;
            let baked = bake_planned(&input.spec, plan).ok()?;
            let digest = Digest::of(&baked, false);
            Some((input.spec.name.clone(), figures(&baked, &digest)))
        })
        .collect()
}

/// Looks done, at rest, and per track with an end value its overshoot: the furthest it goes
/// past the end, in the unit and as a fraction of the travel |end - start|, and its first
/// swing's peak past the end (time and value), exact: the closed form's extremum, not a
/// frame's.
fn figures(baked: &Baked, digest: &Digest) -> Value {
    let motions = baked.spec.model.tracks();
    let tracks: Vec<Value> = (baked.tracks.iter().zip(&digest.ends).zip(motions))
        .map(|((track, &end), (_, motion))| {
            let (fraction, frame) = overshoot(&track.position, end);
            let start = track.position.first().copied().unwrap_or(end);
            let travel = end - start;
            let peak = frame.map(|i| {
                let around = (baked.time(i.saturating_sub(1)), baked.time(i + 1));
                peak(motion, around, travel.signum())
            });
            // The exact peak may pass the end further than every frame does.
            let past = |x: f64| (x - end) * travel.signum() / travel.abs();
            let fraction = fraction.map(|f| peak.map_or(f, |(_, x)| f.max(past(x))));
            json!({
                "name": track.name,
                "overshoot": fraction.map(|f| f * travel.abs()),
                "overshoot_fraction": fraction,
                "peak_time": peak.map(|(t, _)| t),
                "peak_value": peak.map(|(_, x)| x),
            })
        })
        .collect();
    json!({
        "looks_done": digest.looks_done,
        "rests": digest.rests.then_some(digest.duration),
        "duration": digest.duration,
        "tracks": tracks,
    })
}

/// The extremum `(t, x(t))` of `motion` in direction `sign` (a maximum for +1, a minimum
/// for -1) within `(a, b)`, the frame times either side of the frame that peaks: where the
/// velocity turns from `sign` to against it, by bisection down to adjacent doubles (a join
/// inside, where the velocity jumps across zero, is found the same way). When the velocity
/// does not turn inside `(a, b)` the better end is the peak.
fn peak(motion: &dyn Motion, (mut a, mut b): (f64, f64), sign: f64) -> (f64, f64) {
    let towards = |t: f64| motion.velocity(t) * sign;
    if towards(a) > 0.0 && towards(b) < 0.0 {
        loop {
            let mid = 0.5 * (a + b);
            if mid <= a || mid >= b {
                break;
            }
            if towards(mid) > 0.0 {
                a = mid;
            } else {
                b = mid;
            }
        }
    }
    let (xa, xb) = (motion.position(a), motion.position(b));
    if (xb - xa) * sign > 0.0 {
        (b, xb)
    } else {
        (a, xa)
    }
}

/// The overshoot of `x` past `end` as a fraction of the travel from `x[0]` (0 when it never
/// passes the end), and the frame of the first swing's peak (`None` without one). With no
/// travel (a motion that starts at its end) there is no fraction.
fn overshoot(x: &[f64], end: f64) -> (Option<f64>, Option<usize>) {
    let Some(&start) = x.first() else {
        return (None, None);
    };
    let travel = end - start;
    if travel.abs() < f64::EPSILON * end.abs().max(1.0) {
        return (None, None);
    }
    let past = |v: f64| (v - end) * travel.signum();
    let most = x.iter().map(|&v| past(v)).fold(0.0, f64::max);
    // The first swing: from the first frame past the end to the first back before it.
    let mut peak: Option<usize> = None;
    for (i, &v) in x.iter().enumerate() {
        let p = past(v);
        if p > 0.0 {
            if peak.map_or(true, |k| p > past(x[k])) {
                peak = Some(i);
            }
        } else if peak.is_some() {
            break;
        }
    }
    (Some(most / travel.abs()), peak)
}

#[cfg(test)]
mod tests {
    use super::{figures_of_file, overshoot, rebake};
    use crate::options::BakeOptions;
    use std::f64::consts::PI;
    use std::path::Path;

    /// card-drop with stiffness 400 (the audit's case): the frames' peak is 20.32 % at
    /// 0.1833 s, the spring's 20.53 % at π/ωd = 0.1759 s; the page says the spring's, the
    /// same before an edit (the listing) and after one (a bake), so a Revert changes nothing.
    #[test]
    fn the_overshoot_is_the_closed_forms_peak_before_and_after_an_edit() {
        let text = "(name: \"drop\", property: \"translateY\", motion: Spring(from: -240, to: 0, stiffness: 400, damping: 18))";
        let (k, c) = (400.0_f64, 18.0_f64);
        let zeta = c / (2.0 * k.sqrt());
        let wd = k.sqrt() * (1.0 - zeta * zeta).sqrt();
        let (time, fraction) = (PI / wd, libm::exp(-zeta * PI / (1.0 - zeta * zeta).sqrt()));
        let options = BakeOptions::default();
        let file = Path::new("drop.ron");
        let listed = figures_of_file(&options, file, text)
            .remove("drop")
            .unwrap();
        let baked = rebake(&options, file, text, "drop").unwrap()["figures"].clone();
        assert_eq!(listed, baked);
        let track = &listed["tracks"][0];
        let at = track["peak_time"].as_f64().unwrap();
        assert!((at - time).abs() < 1e-9, "{at} against {time}");
        let f = track["overshoot_fraction"].as_f64().unwrap();
        assert!((f - fraction).abs() < 1e-9, "{f} against {fraction}");
        let x = track["peak_value"].as_f64().unwrap();
        assert!((x - 240.0 * fraction).abs() < 1e-6, "{x}");
    }

    #[test]
    fn the_first_swing_past_the_end_is_the_overshoot_peak() {
        // From 0 to 10: up to 12 (20 %), back to 9, then 10.5.
        let x = [0.0, 6.0, 11.0, 12.0, 11.5, 9.0, 10.5, 10.0];
        let (fraction, peak) = overshoot(&x, 10.0);
        assert!((fraction.unwrap() - 0.2).abs() < 1e-12);
        assert_eq!(peak, Some(3));
        // Downwards, never past: no overshoot, no peak.
        assert_eq!(overshoot(&[5.0, 2.0, 0.0], 0.0), (Some(0.0), None));
        assert_eq!(overshoot(&[1.0, 1.0], 1.0), (None, None));
    }
}
