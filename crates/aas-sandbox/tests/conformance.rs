//! The demo data judged by an independent AAS V2.0.1 implementation
//! (`shared/tools/aasv2-check`, PyI40AAS): JSON schema, strict loading, and AASX.

mod package;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use aas_sandbox::{demo_plant, environment};
use serde_json::Value;

/// Runs `aasv2-check <check> <file>` and fails the test with its output unless it held.
fn aasv2_check(check: &str, file: &Path) {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/aasv2-check");
    let out = Command::new(&tool)
        .arg(check)
        .arg(file)
        .output()
        .expect("run aasv2-check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "aasv2-check {check} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{}", stdout.trim());
}

#[test]
fn a_demo_environment_passes_the_v2_schema_and_strict_loading() {
    let env = environment(&demo_plant("P", 16, 7));
    let file = package::scratch("conformance-demo.json");
    let json = serde_json::to_vec_pretty(&env).expect("json");
    std::fs::write(&file, &json).expect("write environment");
    aasv2_check("schema", &file);
    aasv2_check("load", &file);

    // A reader resolves File values to package parts, so the package holds them.
    let mut files = Vec::new();
    file_values(&env, &mut files);
    let package = package::scratch("conformance-demo.aasx");
    package::write_aasx(&package, "aasx/P/P.aas.json", &json, &files);
    aasv2_check("load", &package);
}

/// The values of all File elements nested in `v`.
fn file_values(v: &Value, found: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if o.get("modelType").is_some_and(|t| t["name"] == "File") {
                found.extend(o.get("value").and_then(Value::as_str).map(str::to_owned));
            }
            o.values().for_each(|v| file_values(v, found));
        }
        Value::Array(a) => a.iter().for_each(|v| file_values(v, found)),
        _ => {}
    }
}

/// Not an assertion: how long a big plant takes in this build. Ignored by default
/// (half a minute in a debug build); run it with
/// `cargo test -p aas-sandbox --test conformance -- --ignored --nocapture`.
#[test]
#[ignore]
fn ten_thousand_assets_generate_in_seconds() {
    let start = Instant::now();
    let plant = demo_plant("BIG", 10_000, 1);
    let generated = start.elapsed();
    let bytes = serde_json::to_vec(&environment(&plant))
        .expect("json")
        .len();
    println!(
        "10,000 assets: generated in {generated:.2?}, environment {} MB serialized in {:.2?} more",
        bytes / 1_000_000,
        start.elapsed() - generated
    );
}
