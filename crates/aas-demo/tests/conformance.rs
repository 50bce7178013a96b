//! The demo data judged by an independent AAS V2.0.1 implementation
//! (`shared/tools/aasv2-check`, PyI40AAS): JSON schema, strict loading, and AASX.

mod package;

use std::path::Path;
use std::process::Command;

use aas_demo::{demo_plant, environment};
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

/// A big plant is whole: every asset generated, each shell its own id, every asset
/// type present, the same seed the same plant. (How long it takes is the benches'.)
#[test]
fn a_thousand_assets_generate_whole_and_each_distinct() {
    let plant = demo_plant("BIG", 1_000, 1);
    let env = environment(&plant);
    let shells = env["assetAdministrationShells"].as_array().expect("shells");
    assert_eq!(shells.len(), 1_000);
    let ids: std::collections::HashSet<&str> = shells
        .iter()
        .map(|s| s["identification"]["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids.len(), 1_000, "every shell has an id of its own");
    for asset_type in aas_model::AssetType::PLATFORM {
        let of_type = plant
            .assets
            .iter()
            .filter(|a| a.asset_type == asset_type)
            .count();
        assert!(of_type >= 1_000 / 8, "{asset_type:?}: {of_type}");
    }
    assert_eq!(
        environment(&demo_plant("BIG", 1_000, 1)),
        env,
        "the same seed gives the same plant"
    );
}
