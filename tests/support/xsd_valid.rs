//! An AAS V3 XML file (or an AASX package's XML spec part) held to the published XML
//! schema of its version (`xsd_valid.py` beside this file); included by path
//! (`#[path]`) where needed.

use std::path::Path;
use std::process::Command;

/// Fails the test, with the schema's words, unless `file` is valid.
pub fn assert_schema_valid(file: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/support/xsd_valid.py");
    let out = Command::new("/usr/bin/python3")
        .arg(script)
        .arg(file)
        .output()
        .expect("python3 with lxml (Debian's python3-lxml)");
    assert!(
        out.status.success(),
        "{}: {}{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
