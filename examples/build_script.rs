//! curvebake as a library, the way a build script uses it: bake a folder of curves with the
//! options of `curvebake bake`, then build single motions in code and sample them.
//!
//! Run it with `cargo run --example build_script [OUT_DIR]`. In a crate of your own, put
//! `curvebake = { path = "../curvebake", default-features = false }` (or a `git` dependency)
//! under `[build-dependencies]` (without the command line's dependencies and the plots) and
//! the bake in `build.rs`, as `docs/guide/library.md` shows:
//!
//! ```ignore
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     println!("cargo:rerun-if-changed=curves");
//!     let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?).join("motion");
//!     let report = curvebake::Bake::new("curves").out(&out).run()?;
//!     for error in &report.errors {
//!         println!("cargo:warning={error}");
//!     }
//!     if report.errors.is_empty() { Ok(()) } else { Err("invalid curves".into()) }
//! }
//! ```
//!
//! and `include_str!(concat!(env!("OUT_DIR"), "/motion/css/card-drop.css"))` (or serve the
//! folder) from the crate itself.

use curvebake::export::Format;
use curvebake::motion::{Motion, Spring};
use curvebake::{Bake, Curve};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. A folder of curve files, baked like `curvebake bake curves --out <dir> --formats
    //    json,css,js --jobs 2`; a second run writes only what changed.
    let curves = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves");
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("curvebake-build-script-example"));
    let report = Bake::new(&curves)
        .out(&out)
        .formats([Format::Json, Format::Css, Format::Js])
        .jobs(2)
        .run()?;
    for error in &report.errors {
        eprintln!("error: {error}");
    }
    println!(
        "baked {} motions ({} frames) from {} into {}: {} files written, {} unchanged",
        report.motions,
        report.frames,
        curves.display(),
        out.display(),
        report.written.len(),
        report.unchanged
    );

    // 2. One motion in code, in closed form: position and velocity at any time.
    let spring = Spring::new(0.0, 100.0, 0.0, 1.0, 170.0, 26.0)?;
    println!(
        "spring: damping ratio {:.3}, at 0.1 s x = {:.3} px, v = {:.2} px/s",
        spring.damping_ratio(),
        spring.position(0.1),
        spring.velocity(0.1)
    );

    // 3. One motion from RON text (a curve file's contents), baked into the frames `bake`
    //    would write.
    let card = Curve::from_ron(
        r#"(name: "card", property: "translateY",
            motion: Spring(from: -240, to: 0, perceptual_duration: 0.5, bounce: 0.25))"#,
    )?;
    let baked = card.bake()?;
    let frames = &baked.tracks[0].position;
    println!(
        "{}: {} frames over {:.3} s; every 10th: {}",
        card.name(),
        baked.frames(),
        baked.duration,
        frames
            .iter()
            .step_by(10)
            .map(|x| format!("{x:.1}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}
