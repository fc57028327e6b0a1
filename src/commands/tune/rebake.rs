//! One motion baked again from an edited text by the real engine (read, validate, plan,
//! sample, export), and what the review page needs to show it: its card as the page writes
//! it, its CSS, and its figures.

use super::{refuse, Refusal};
use crate::options::BakeOptions;
use curvebake_export::exporter::{Digest, Exporter as _, New};
use curvebake_export::{css, exporters, html, Format, Layout};
use curvebake_model::bake::{bake_planned, frame_plan, Baked};
use curvebake_model::load::{load_bytes, Loaded};
use curvebake_model::spec::Overrides;
use serde_json::{json, Value};
use std::path::Path;

/// Bakes motion `name` of `text` (the edited bytes of `file`) and returns `{card, css,
/// figures}`; a motion the engine refuses is a 422 with the engine's message.
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
    let css = if options.formats.contains(&Format::Css) {
        let output = css::Css::new(Layout::PerMotion, &options.settings).motion(&baked, &[], &New);
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
    }))
}

/// Looks done, at rest, and per track with an end value its overshoot: the furthest it goes
/// past the end, in the unit and as a fraction of the travel |end - start|, and when its first
/// swing past the end peaks (the frame of largest excursion before it comes back).
fn figures(baked: &Baked, digest: &Digest) -> Value {
    let tracks: Vec<Value> = (baked.tracks.iter().zip(&digest.ends))
        .map(|(track, &end)| {
            let (fraction, peak) = overshoot(&track.position, end);
            let start = track.position.first().copied().unwrap_or(end);
            json!({
                "name": track.name,
                "overshoot": fraction.map(|f| f * (end - start).abs()),
                "overshoot_fraction": fraction,
                "peak_time": peak.map(|i| baked.time(i)),
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
    use super::overshoot;

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
