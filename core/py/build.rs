//! Fingerprints the engine's sources, so that a study's manifest names the exact core that played it.

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs" || x == "toml") {
            out.push(p);
        }
    }
}

fn main() {
    let roots = [Path::new("../engine"), Path::new(".")];
    let mut paths = Vec::new();
    for root in roots {
        println!("cargo:rerun-if-changed={}", root.join("src").display());
        files(&root.join("src"), &mut paths);
        paths.push(root.join("Cargo.toml"));
    }
    paths.sort();
    // FNV-1a over each path and its bytes: stable across toolchains, unlike std's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &paths {
        let bytes = fs::read(p).unwrap_or_default();
        for b in p.to_string_lossy().bytes().chain(bytes) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=TK_CORE_SOURCE={h:016x}");
}
