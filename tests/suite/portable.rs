//! Outputs are the same bytes on every platform, not only across runs and thread counts: a team
//! commits `out/` from one machine and CI runs `bake --check` on another. What differs between
//! platforms is their libm (glibc's, Apple's, Microsoft's round `exp`, `log`, `sin` ... each its
//! own way, a last bit apart in one call of ten), so the bake takes every transcendental
//! function from the `libm` crate (clippy.toml forbids the standard ones in the crates' code).
//!
//! The proof: the examples, and decays and rings on each branch of their solve, baked in every
//! format twice, once as they are and once with `LD_PRELOAD` of a libm that returns the next
//! float above each of the platform's results (`exp`, `log`, `sin`, `sincos`, `pow` ...); every
//! byte the same. A control checks that the shim takes: a program calling `f64::exp` prints
//! another number under it.

use crate::common::project::{outputs, project};
use std::fs;
use std::path::Path;
use std::process::Command;

/// A libm one unit in the last place above the platform's: each function calls the real one
/// (the next definition, `dlsym(RTLD_NEXT)`) and returns the next float up.
const SHIM: &str = r#"
use std::ffi::c_void;
extern "C" { fn dlsym(handle: *mut c_void, symbol: *const u8) -> *mut c_void; }
const RTLD_NEXT: *mut c_void = -1isize as *mut c_void;
fn up(x: f64) -> f64 { if x.is_finite() && x != 0.0 { f64::from_bits(x.to_bits() + 1) } else { x } }
macro_rules! one { ($($name:ident),*) => { $(
    #[no_mangle] pub extern "C" fn $name(x: f64) -> f64 {
        let f: extern "C" fn(f64) -> f64 = unsafe { std::mem::transmute(dlsym(RTLD_NEXT, concat!(stringify!($name), "\0").as_ptr())) };
        up(f(x))
    }
)* } }
macro_rules! two { ($($name:ident),*) => { $(
    #[no_mangle] pub extern "C" fn $name(x: f64, y: f64) -> f64 {
        let f: extern "C" fn(f64, f64) -> f64 = unsafe { std::mem::transmute(dlsym(RTLD_NEXT, concat!(stringify!($name), "\0").as_ptr())) };
        up(f(x, y))
    }
)* } }
one!(exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, cbrt);
two!(pow, atan2, hypot);
#[no_mangle] pub extern "C" fn sincos(x: f64, s: *mut f64, c: *mut f64) {
    let f: extern "C" fn(f64, *mut f64, *mut f64) = unsafe { std::mem::transmute(dlsym(RTLD_NEXT, "sincos\0".as_ptr())) };
    f(x, s, c);
    unsafe { *s = up(*s); *c = up(*c); }
}
"#;

/// The control: the platform's `exp`, as bits.
const CONTROL: &str =
    r#"fn main() { println!("{:x}", std::hint::black_box(0.7f64).exp().to_bits()); }"#;

/// Decays and rings through every branch of their solve: W0 (it speeds up), W-1 by `lambert_w`,
/// W-1 in the far tail (it ends at a thousandth of its mean speed and less), near A = -1.
const SOLVES: &str = r#"[
    (name: "speeds-up", property: "translateX", duration: 0.8, motion: Decay(from: 0, to: 100, end_velocity: 400)),
    (name: "slows-down", property: "translateX", duration: 0.8, motion: Decay(from: 0, to: 100, end_velocity: 30)),
    (name: "far-tail", property: "translateX", duration: 1.0, motion: Decay(from: -100, to: 0, end_velocity: 0.001)),
    (name: "near-uniform", property: "translateX", duration: 1.0, motion: Decay(from: 0, to: 100, end_velocity: 99.5)),
    (name: "far-ring", duration: 1.2, motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 0.002), outer: (from: 8, to: 180, end_velocity: 0.0015))),
]"#;

/// Compiles `source` with `rustc` into `out` (a `cdylib` or a program).
fn rustc(source: &str, kind: &str, out: &Path) {
    let file = out.with_extension("rs");
    fs::write(&file, source).unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let status = Command::new(rustc)
        .args(["-O", "--edition", "2021", "--crate-type", kind])
        .arg(&file)
        .arg("-o")
        .arg(out)
        .status()
        .expect("rustc runs (the toolchain that builds these tests has it)");
    assert!(status.success(), "rustc failed on {}", file.display());
}

#[cfg(target_os = "linux")]
#[test]
fn every_output_is_the_same_bytes_under_a_libm_one_unit_off() {
    let tools = tempfile::tempdir().unwrap();
    let shim = tools.path().join("libone-ulp-up.so");
    rustc(SHIM, "cdylib", &shim);
    let control = tools.path().join("control");
    rustc(CONTROL, "bin", &control);
    let run_control = |preload: bool| {
        let mut command = Command::new(&control);
        if preload {
            command.env("LD_PRELOAD", &shim);
        }
        String::from_utf8(command.output().unwrap().stdout).unwrap()
    };
    let (platform, shifted) = (run_control(false), run_control(true));
    assert_ne!(
        platform, shifted,
        "the shim does not take: `exp` is the same under LD_PRELOAD ({platform})"
    );

    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("curves");
    let dir = project(&[("solves.ron", SOLVES)]);
    for entry in fs::read_dir(&examples).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(
            &path,
            dir.path().join("curves").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    let formats = "json,css,png,html,js,tokens,tailwind,lottie";
    let bake = |out: &str, preload: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_curvebake"));
        command.current_dir(dir.path()).args([
            "bake",
            "--quiet",
            "--formats",
            formats,
            "--out",
            out,
        ]);
        if preload {
            command.env("LD_PRELOAD", &shim);
        }
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        outputs(&dir.path().join(out))
    };
    let (plain, off) = (bake("plain", false), bake("off", true));
    assert_eq!(
        plain.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        off.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    let differ: Vec<_> = (plain.iter().zip(&off))
        .filter(|((_, a), (_, b))| a != b)
        .map(|((path, _), _)| path.display().to_string())
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} files differ under a libm one unit off: {differ:?}",
        differ.len(),
        plain.len()
    );
    assert!(plain.len() > 100, "{} files", plain.len());
}
