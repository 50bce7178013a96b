//! Every public AAS V2 sample, and the full example environment of an independent
//! implementation, read into the typed model and written back gives the same JSON value.

use std::path::{Path, PathBuf};
use std::process::Command;

use aas_model::{
    parse, AasDescriptor, Asset, AssetAdministrationShell, ConceptDescription, Environment,
    Submodel, SubmodelDescriptor, SubmodelElement,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable folder")
        .map(|e| e.expect("folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// Reads `text` as `T` and writes it back.
fn typed<T: DeserializeOwned + Serialize>(text: &str) -> Result<Value, String> {
    let model: T = parse(text).map_err(|e| e.to_string())?;
    serde_json::to_value(&model).map_err(|e| e.to_string())
}

fn model_type(v: &Value) -> Option<&str> {
    v.pointer("/modelType/name").and_then(Value::as_str)
}

/// Picks the typed model by the document's shape, reads and writes it back; returns
/// the shape's name and the written JSON.
fn round_trip(text: &str, json: &Value) -> (&'static str, Result<Value, String>) {
    match json {
        Value::Array(items) => match items.first().and_then(model_type) {
            Some("AssetAdministrationShell") => {
                ("[AAS]", typed::<Vec<AssetAdministrationShell>>(text))
            }
            Some("Submodel") => ("[Submodel]", typed::<Vec<Submodel>>(text)),
            Some("AssetAdministrationShellDescriptor") => {
                ("[AasDescriptor]", typed::<Vec<AasDescriptor>>(text))
            }
            _ => ("[SubmodelElement]", typed::<Vec<SubmodelElement>>(text)),
        },
        _ => match model_type(json) {
            None => ("Environment", typed::<Environment>(text)),
            Some("AssetAdministrationShell") => ("AAS", typed::<AssetAdministrationShell>(text)),
            Some("Submodel") => ("Submodel", typed::<Submodel>(text)),
            Some("AssetAdministrationShellDescriptor") => {
                ("AasDescriptor", typed::<AasDescriptor>(text))
            }
            Some("SubmodelDescriptor") => ("SubmodelDescriptor", typed::<SubmodelDescriptor>(text)),
            Some("Asset") => ("Asset", typed::<Asset>(text)),
            Some("ConceptDescription") => ("ConceptDescription", typed::<ConceptDescription>(text)),
            Some(_) => ("SubmodelElement", typed::<SubmodelElement>(text)),
        },
    }
}

/// Checks one file; returns a line for the report, or the failure.
fn check(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).expect("readable file");
    let text = std::str::from_utf8(&bytes).expect("UTF-8");
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let json: Value = serde_json::from_str(text).expect("well-formed JSON");
    let (shape, written) = round_trip(text, &json);
    let written = written.map_err(|e| format!("{}: {shape}: {e}", path.display()))?;
    if written != json {
        return Err(format!(
            "{}: {shape}: differs after round trip\n read: {json}\nwrote: {written}",
            path.display()
        ));
    }
    Ok(format!("ok  {shape:<20} {}", path.display()))
}

#[test]
fn every_sample_file_round_trips_through_the_typed_model() {
    let samples = shared_dir().join("aas-samples");
    let schema = samples.join("schema/aas.json");
    let mut files = Vec::new();
    json_files(&samples, &mut files);
    files.retain(|f| *f != schema);
    assert!(files.len() >= 14, "samples missing: {files:?}");
    let results: Vec<_> = files.iter().map(|f| check(f)).collect();
    for line in results.iter().flatten() {
        println!("{line}");
    }
    let failures: Vec<_> = results.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_aasv2_check_example_environment_round_trips() {
    let tool = shared_dir().join("tools/aasv2-check");
    let dir = std::env::temp_dir().join(format!("aas-model-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("example.json");
    // The independent tool is part of the test: when it cannot run, the test fails.
    let ran = Command::new(&tool)
        .arg("example")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    assert!(
        ran.status.success(),
        "{} failed: {}",
        tool.display(),
        String::from_utf8_lossy(&ran.stderr)
    );
    let result = check(&out);
    std::fs::remove_dir_all(&dir).expect("temp dir removed");
    println!("{}", result.expect("round trip"));
}

/// Every element of `elements`, and everything nested in them, has the exact text it
/// has in `text` and a typed view; returns how many there were.
fn check_elements(
    text: &str,
    elements: &[aas_model::Parsed<SubmodelElement>],
    path: &Path,
) -> usize {
    let mut count = 0;
    for el in elements {
        assert!(
            text.contains(el.raw()),
            "{}: not the server's text: {}",
            path.display(),
            el.raw()
        );
        let view = el
            .view()
            .unwrap_or_else(|e| panic!("{}: {e}: {}", path.display(), el.raw()));
        let children = view.children().expect("children");
        count += 1 + check_elements(text, &children, path);
    }
    count
}

#[test]
fn every_nested_element_of_every_sample_keeps_its_exact_text() {
    let samples = shared_dir().join("aas-samples");
    let mut files = Vec::new();
    json_files(&samples, &mut files);
    let mut total = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("readable file");
        let text = std::str::from_utf8(&bytes).expect("UTF-8");
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let json: Value = serde_json::from_str(text).expect("well-formed JSON");
        let submodels: Vec<Submodel> = match round_trip(text, &json).0 {
            "Environment" => parse::<Environment>(text)
                .expect("environment")
                .submodels
                .to_vec(),
            "Submodel" => vec![parse(text).expect("submodel")],
            "[Submodel]" => parse(text).expect("submodels"),
            "SubmodelElement" => {
                let el: SubmodelElement = parse(text).expect("element");
                total += check_elements(text, &el.children().expect("children"), path);
                Vec::new()
            }
            _ => Vec::new(),
        };
        for sm in submodels {
            total += check_elements(text, &sm.elements(), path);
        }
    }
    println!("{total} elements keep their exact text");
    assert!(total > 100, "too few elements checked: {total}");
}
