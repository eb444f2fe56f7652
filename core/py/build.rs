//! Fingerprints the engine's sources, so that a study's manifest names the exact core that played it, and
//! each custom effect function's own source, so that a card's fingerprint changes when its function does.

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

/// FNV-1a: stable across toolchains, unlike std's hasher.
fn fnv(h: &mut u64, bytes: impl IntoIterator<Item = u8>) {
    for b in bytes {
        *h = (*h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// The text of the top-level `fn name(` item of `source`, up to its closing brace at the start of a line.
fn item_text<'a>(source: &'a str, name: &str) -> Option<&'a str> {
    let start = [format!("\nfn {name}("), format!("\npub fn {name}(")]
        .iter()
        .filter_map(|p| source.find(p.as_str()))
        .min()?;
    let end = start + 1 + source[start + 1..].find("\n}")? + 2;
    Some(&source[start + 1..end])
}

/// (registered name, hash of the function's source) for every `table.push(("name", function))` of the
/// faction files of the custom effects.
fn custom_fingerprints() -> String {
    let mut out = String::from("pub const CUSTOM_SOURCES: &[(&str, &str)] = &[\n");
    for faction in [
        "imperial",
        "highland",
        "sylvan",
        "legends",
        "etherweave",
        "everfrost",
        "nethervoid",
    ] {
        let path = format!("../engine/src/effects/{faction}.rs");
        let source = fs::read_to_string(&path).unwrap_or_default();
        for line in source.lines() {
            let Some(rest) = line.trim().strip_prefix("table.push((\"") else {
                continue;
            };
            let Some((name, tail)) = rest.split_once('"') else {
                continue;
            };
            let function = tail
                .trim_start_matches(',')
                .trim()
                .trim_end_matches("));")
                .trim();
            let text = item_text(&source, function)
                .unwrap_or_else(|| panic!("{path}: no top-level fn {function} for {name}"));
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            fnv(&mut h, text.bytes());
            out.push_str(&format!("    ({name:?}, \"{h:016x}\"),\n"));
        }
    }
    out.push_str("];\n");
    out
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
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    fs::write(
        Path::new(&out).join("custom_sources.rs"),
        custom_fingerprints(),
    )
    .expect("write custom_sources.rs");
}
