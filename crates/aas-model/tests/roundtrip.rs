//! Every public AAS V2 sample, and the full example environment of an independent
//! implementation, read into the typed model and written back gives the same JSON value.

use std::path::Path;
use std::process::Command;

mod support;

use support::{read_text, sample_files, shape, shared_dir};

use aas_model::{parse, Environment, Submodel, SubmodelElement};
use serde_json::Value;

/// Checks one file; returns a line for the report, or the failure.
fn check(path: &Path) -> Result<String, String> {
    let text = read_text(path);
    let text = text.as_str();
    let json: Value = serde_json::from_str(text).expect("well-formed JSON");
    let shape = shape(&json);
    let written =
        (shape.round_trip)(text).map_err(|e| format!("{}: {}: {e}", path.display(), shape.name))?;
    if written != json {
        return Err(format!(
            "{}: {}: differs after round trip\n read: {json}\nwrote: {written}",
            path.display(),
            shape.name
        ));
    }
    Ok(format!("ok  {:<20} {}", shape.name, path.display()))
}

#[test]
fn every_sample_file_round_trips_through_the_typed_model() {
    let files = sample_files();
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
    let mut total = 0;
    for path in &sample_files() {
        let text = read_text(path);
        let text = text.as_str();
        let json: Value = serde_json::from_str(text).expect("well-formed JSON");
        let submodels: Vec<Submodel> = match shape(&json).name {
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
