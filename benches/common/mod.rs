//! Generated inputs for the benchmarks.

use std::fmt::Write as _;
use std::path::Path;

/// Which motions a generated batch holds.
#[derive(Clone, Copy)]
pub enum Mix {
    /// Springs only (the JavaScript comparison).
    Springs,
    /// All kinds in turn: spring, friction, gravity, decay, solved decay, ring.
    AllKinds,
}

/// One motion of about one second at 60 fps (61 frames).
fn motion(i: usize, mix: Mix) -> String {
    let x = (i % 97) as f64;
    let kind = match mix {
        Mix::Springs => 0,
        Mix::AllKinds => i % 6,
    };
    let body = match kind {
        0 => format!("Spring(from: {x}, to: {}, stiffness: {}, damping: {})", x + 200.0, 150 + i % 50, 12 + i % 10),
        1 => format!("Friction(from: {x}, velocity: {}, friction: 0.05)", 900 + i % 300),
        2 => format!("Gravity(from: {x}, velocity: -600, acceleration: 2000)"),
        3 => format!("Decay(from: {x}, velocity: 800, lambda: 4)"),
        4 => format!("Decay(from: {x}, to: {}, end_velocity: 40)", x + 150.0),
        _ => "ExplosionRing(inner: (from: 0, to: 150, end_velocity: 30), outer: (from: 8, to: 180, end_velocity: 15))".into(),
    };
    format!("(name: \"m{i}\", duration: 1.0, motion: {body}),\n")
}

/// Writes `n` motions into `dir`, 100 motions per file.
pub fn write_curves(dir: &Path, n: usize, mix: Mix) {
    std::fs::create_dir_all(dir).unwrap();
    for (file, start) in (0..n).step_by(100).enumerate() {
        let mut text = String::from("[\n");
        for i in start..(start + 100).min(n) {
            text.push_str(&motion(i, mix));
        }
        text.push(']');
        let _ = writeln!(text);
        std::fs::write(dir.join(format!("batch-{file:04}.ron")), text).unwrap();
    }
}
