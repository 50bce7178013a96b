//! A workbook as openpyxl reads it (`read_xlsx.py` beside this file), for the Rust tests
//! of every XLSX the project writes; included by path (`#[path]`) where needed.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `{"order": [sheet names], "sheets": {name: {"freeze", "filter", "rows"}}}`; `typed`:
/// each cell `[Python type name, value]`, else its value.
pub fn read_xlsx(file: &Path, typed: bool) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/support/read_xlsx.py");
    let out = Command::new("/usr/bin/python3")
        .arg(script)
        .arg(file)
        .args(typed.then_some("--typed"))
        .output()
        .expect("python3 with openpyxl (Debian's python3-openpyxl)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}
