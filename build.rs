//! Fingerprints the sources that decide what curvebake writes, so that an output folder's
//! manifest from another build (even of the same version) is never taken as up to date.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// FNV-1a, 64 bits: stable across builds and platforms, and enough to tell sources apart.
fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

fn main() {
    let mut paths = Vec::new();
    for dir in ["src", "crates"] {
        println!("cargo:rerun-if-changed={dir}");
        files(Path::new(dir), &mut paths);
    }
    paths.push(PathBuf::from("Cargo.lock"));
    println!("cargo:rerun-if-changed=Cargo.lock");
    paths.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for path in paths {
        fnv1a(
            &mut hash,
            path.to_string_lossy().replace('\\', "/").as_bytes(),
        );
        fnv1a(&mut hash, &std::fs::read(&path).unwrap_or_default());
    }
    println!("cargo:rustc-env=CURVEBAKE_SOURCE_HASH={hash:016x}");
}
