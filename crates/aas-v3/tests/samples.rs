//! Every real V2.0.1 and BaSyx V1 file in `shared/aas-samples` (and the complete
//! environment `aasv2-check example` writes) converted to V3.0 and to V3.1 and judged by
//! `aasv3-check verify`: aas-core3.0 (every metamodel constraint) and Eclipse BaSyx's
//! strict reader, aas-core3.1 for V3.1; code we did not write. Zero findings each.

use std::path::{Path, PathBuf};
use std::process::Command;

use aas_v3::{Change, Converter, Node, Target};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn samples() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![shared().join("aas-samples")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("the samples in {} cannot be read: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("readable").path();
            if path.is_dir() && !path.ends_with("schema") {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The document in `bytes`, a file's (borrowing from them).
fn parse(bytes: &[u8]) -> Node<'_> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    serde_json::from_slice(bytes).expect("JSON")
}

/// `aasv3-check verify`'s verdict on a file of `target`: whether it passed, and what
/// it printed.
pub fn verify(file: &Path, target: Target) -> (bool, String) {
    let out = Command::new(shared().join("tools/aasv3-check"))
        .args(["verify", "--version", target.version()])
        .arg(file)
        .output()
        .expect("aasv3-check runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn every_sample_converts_to_v3_that_two_independent_readers_accept() {
    let dir = std::env::temp_dir().join(format!("aas-v3-samples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut files = samples();
    let example = dir.join("aasv2-check-example.json");
    let made = Command::new(shared().join("tools/aasv2-check"))
        .arg("example")
        .arg(&example)
        .status()
        .expect("aasv2-check runs");
    assert!(made.success());
    files.push(example);
    assert!(files.len() >= 15, "the samples are there: {files:?}");
    let mut failed = Vec::new();
    for (i, file) in files.iter().enumerate() {
        // V3.1 is judged by aas-core3.1 alone (BaSyx 1.2.1 reads V3.0 only).
        for target in [Target::V3_0, Target::V3_1] {
            let mut changes: Vec<Change> = Vec::new();
            let bytes = std::fs::read(file).expect("readable");
            let env = Converter::new(&mut changes)
                .target(target)
                .environment(parse(&bytes))
                .expect("converts");
            let out = dir.join(format!("{i}-v{}.json", target.version()));
            std::fs::write(&out, serde_json::to_vec_pretty(&env).expect("JSON")).expect("written");
            let (ok, text) = verify(&out, target);
            if !ok {
                failed.push(format!("{} ({}):\n{text}", file.display(), out.display()));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    std::fs::remove_dir_all(&dir).ok();
}
