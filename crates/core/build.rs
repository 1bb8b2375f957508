//! Writes `FERROCL_BUILD_ID`: a hash of every source that decides what a program build gives
//! (this crate's and those of the compiler, the IR, the builtin library, the device interface
//! and the CPU device, with their manifests and the workspace's lock file of dependency
//! versions), the target and the profile. The program cache (`src/cache.rs`) keys its entries
//! by it, so a cache entry is never served to a ferrocl built from other sources.
//!
//! Cargo runs this script again whenever one of those files changes (`rerun-if-changed` on a
//! directory watches everything under it). Outside the workspace (the crate alone) only this
//! crate's own sources are there to hash, beside its version.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// The crates whose sources decide a build, relative to this crate's folder.
const CRATES: [&str; 6] = [".", "../ir", "../clc", "../builtins", "../device", "../cpu"];

/// Every file under `path` (or `path` itself), in a fixed order.
fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = fs::read_dir(path) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        files(&p, out);
    }
}

fn main() {
    let mut watched = Vec::new();
    for krate in CRATES {
        for part in ["src", "build.rs", "Cargo.toml"] {
            watched.push(Path::new(krate).join(part));
        }
    }
    watched.push(PathBuf::from("../../Cargo.lock"));

    let mut hasher = DefaultHasher::new();
    for path in &watched {
        if !path.exists() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let mut found = Vec::new();
        files(path, &mut found);
        for file in found {
            let Ok(bytes) = fs::read(&file) else {
                continue;
            };
            let name = file.to_string_lossy();
            hasher.write_usize(name.len());
            hasher.write(name.as_bytes());
            hasher.write_usize(bytes.len());
            hasher.write(&bytes);
        }
    }
    for var in ["TARGET", "PROFILE"] {
        hasher.write(std::env::var(var).unwrap_or_default().as_bytes());
        hasher.write_u8(0);
    }
    println!("cargo:rustc-env=FERROCL_BUILD_ID={:016x}", hasher.finish());
}
