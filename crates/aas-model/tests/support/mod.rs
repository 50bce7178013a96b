//! Shared by the round-trip test and the parse benchmark (`#[path]`-included there):
//! the sample files, and which typed model each document's shape calls for.
#![allow(dead_code)] // each user needs part of it

use std::path::{Path, PathBuf};

use aas_model::{
    parse, AasDescriptor, Asset, AssetAdministrationShell, ConceptDescription, Environment,
    Submodel, SubmodelDescriptor, SubmodelElement,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// `../shared` beside the clone.
pub fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// Every JSON sample (the schema aside), in a stable order.
pub fn sample_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    json_files(&shared_dir().join("aas-samples"), &mut files);
    files.retain(|f| !f.ends_with("schema/aas.json"));
    files
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

/// A file's text, without the UTF-8 byte order mark one sample has.
pub fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("readable file");
    String::from_utf8(aas_model::aasx::without_bom(&bytes).to_vec()).expect("UTF-8")
}

/// The typed model a document's shape calls for: its name, a reader, and a reader
/// that writes the model back as JSON.
#[derive(Clone, Copy)]
pub struct Shape {
    pub name: &'static str,
    pub parses: fn(&str) -> bool,
    pub round_trip: fn(&str) -> Result<Value, String>,
}

fn of<T: DeserializeOwned + Serialize>(name: &'static str) -> Shape {
    Shape {
        name,
        parses: |text| parse::<T>(text).is_ok(),
        round_trip: |text| {
            let model: T = parse(text).map_err(|e| e.to_string())?;
            serde_json::to_value(&model).map_err(|e| e.to_string())
        },
    }
}

fn model_type(v: &Value) -> Option<&str> {
    v.pointer("/modelType/name").and_then(Value::as_str)
}

pub fn shape(json: &Value) -> Shape {
    match json {
        Value::Array(items) => match items.first().and_then(model_type) {
            Some("AssetAdministrationShell") => of::<Vec<AssetAdministrationShell>>("[AAS]"),
            Some("Submodel") => of::<Vec<Submodel>>("[Submodel]"),
            Some("AssetAdministrationShellDescriptor") => {
                of::<Vec<AasDescriptor>>("[AasDescriptor]")
            }
            _ => of::<Vec<SubmodelElement>>("[SubmodelElement]"),
        },
        _ => match model_type(json) {
            None => of::<Environment>("Environment"),
            Some("AssetAdministrationShell") => of::<AssetAdministrationShell>("AAS"),
            Some("Submodel") => of::<Submodel>("Submodel"),
            Some("AssetAdministrationShellDescriptor") => of::<AasDescriptor>("AasDescriptor"),
            Some("SubmodelDescriptor") => of::<SubmodelDescriptor>("SubmodelDescriptor"),
            Some("Asset") => of::<Asset>("Asset"),
            Some("ConceptDescription") => of::<ConceptDescription>("ConceptDescription"),
            Some(_) => of::<SubmodelElement>("SubmodelElement"),
        },
    }
}
