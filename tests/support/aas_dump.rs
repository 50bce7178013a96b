//! What independent readers read of an AAS file (`../shared/tools/aas-dump`: aas-core,
//! else BaSyx): one JSON line per shell, submodel and element. For the Rust tests that
//! hold what we read or write against it; included by path (`#[path]`) where needed.

use std::path::Path;
use std::process::Command;

/// The lines `aas-dump` prints for `file`, sorted (what was read, in no order a writer
/// chose); the test fails when no reader could read it.
pub fn dump_lines(file: &Path) -> Vec<String> {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/aas-dump");
    let out = Command::new(tool)
        .arg(file)
        .output()
        .expect("aas-dump runs");
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines: Vec<String> = (String::from_utf8_lossy(&out.stdout).lines())
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}
