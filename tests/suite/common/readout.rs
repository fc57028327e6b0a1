//! Reading values back from a browser: computed-style strings, transform matrices and typed
//! OM readings, and the times at which to seek a baked motion.

use serde_json::Value;

/// Seek times (ms): up to 12 frame times (first and last included), 18 or more times between
/// frames, and four in the steepest interval.
pub fn sample_times(times: &[f64], tracks: &[(String, Vec<f64>)]) -> Vec<f64> {
    const FRACTIONS: [f64; 7] = [0.5, 0.25, 0.8, 0.1, 0.63, 0.37, 0.93];
    let n = times.len();
    let mut out = Vec::new();
    let picks = n.min(12);
    for k in 0..picks {
        out.push(times[k * (n - 1) / (picks - 1)]);
    }
    let intervals = (n - 1).min(18);
    let per = 18usize.div_ceil(intervals);
    let mut f = 0;
    for k in 0..intervals {
        let i = k * (n - 1) / intervals;
        for _ in 0..per {
            out.push(times[i] + FRACTIONS[f % FRACTIONS.len()] * (times[i + 1] - times[i]));
            f += 1;
        }
    }
    let slope = |i: usize| {
        tracks
            .iter()
            .map(|(_, x)| (x[i + 1] - x[i]).abs() / (times[i + 1] - times[i]))
            .fold(0.0, f64::max)
    };
    let steepest = (0..n - 1)
        .max_by(|&i, &j| slope(i).total_cmp(&slope(j)))
        .unwrap();
    for fraction in [0.0, 0.3, 0.5, 0.9] {
        out.push(times[steepest] + fraction * (times[steepest + 1] - times[steepest]));
    }
    // Every 1/960 s (no display refreshes at frame times), up to MAX_GRID seeks, and times
    // drawn at random (a fixed seed), as a browser's frames fall.
    let end = times[n - 1];
    let step = (end / MAX_GRID as f64).max(1.0 / 960.0);
    let grid = (end / step).floor() as usize;
    out.extend((0..=grid).map(|i| i as f64 * step));
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ n as u64;
    for _ in 0..RANDOM_SEEKS {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        out.push(end * 1.02 * (state >> 11) as f64 / (1u64 << 53) as f64);
    }
    out.sort_by(f64::total_cmp);
    out.dedup();
    // Whole microseconds: WebKit reads a seek back to the microsecond.
    out.into_iter().map(|t| (t * 1e6).round() / 1e3).collect()
}

/// Most seeks on the 1/960 s grid per motion (a longer motion gets a coarser grid).
pub const MAX_GRID: usize = 1200;

/// Seeks at random times per motion.
pub const RANDOM_SEEKS: usize = 40;

/// Leading number of a computed value (`-12.5px`, `0.3`).
pub fn leading_number(text: &str) -> Option<f64> {
    let text = text.trim();
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
        .unwrap_or(text.len());
    // `e` of a unit (`em`) is not an exponent: back off while it does not parse.
    (1..=end).rev().find_map(|k| text[..k].parse().ok())
}

pub fn matrix(text: &str) -> Option<[f64; 6]> {
    let inner = text.strip_prefix("matrix(")?.strip_suffix(')')?;
    let v: Vec<f64> = inner
        .split(',')
        .map(|s| s.trim().parse())
        .collect::<Result<_, _>>()
        .ok()?;
    v.try_into().ok()
}

/// Value of a typed-OM reading `[value, unit]`, in the unit of the table.
pub fn typed(reading: &Value) -> Option<f64> {
    let value = reading.get(0)?.as_f64()?;
    match reading.get(1)?.as_str()? {
        "px" | "percent" | "deg" | "number" => Some(value),
        "rad" => Some(value.to_degrees()),
        "turn" => Some(value * 360.0),
        "grad" => Some(value * 0.9),
        _ => None,
    }
}

pub fn unwrap_angle(angle: f64, towards: f64) -> f64 {
    angle + 360.0 * ((towards - angle) / 360.0).round()
}
