//! The V3.0 exports of the demo plant: judged by `aasv3-check` (aas-core3.0's every
//! constraint, Eclipse BaSyx's strict readers, AASX included, and the IDTA's
//! aas-test-engines, whose warnings count as findings), and compared element
//! by element with the V2.0.1 export of the same crawl: every field V3.0 keeps (values,
//! language strings, semanticIds, references' keys, element order) is the same, across
//! every element type the demo plant uses.

#[path = "../../../tests/support/aas_dump.rs"]
mod aas_dump;
#[path = "../../../tests/support/xsd_valid.rs"]
mod xsd_valid;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use aas_client::{Client, CrawlPlan};
use aas_demo::{Config, DemoService};
use aas_dump::dump_lines;
use aas_export::{export, Format, Target};
use aas_model::AssetType;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use xsd_valid::assert_schema_valid;

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("written")).expect("JSON")
}

/// `aasv3-check verify` of a V3.0 file, the IDTA's engine (whose warnings count)
/// included; of a V3.1 file, aas-core3.1 (the others judge V3.0 only).
fn verify(file: &Path, target: Target) {
    let judges: &[&str] = match target {
        Target::V3_0 => &["verify", "--idta"],
        Target::V3_1 => &["verify", "--version", "3.1"],
    };
    let out = Command::new(shared().join("tools/aasv3-check"))
        .args(judges)
        .arg(file)
        .output()
        .expect("aasv3-check runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}: {said}", file.display());
}

/// The values of a reference's keys, V2 or V3 alike.
fn key_values(reference: &Value) -> Vec<&Value> {
    reference["keys"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| &k["value"])
        .collect()
}

/// A list of language strings as (language, text) pairs.
fn texts(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            (
                t["language"]
                    .as_str()
                    .unwrap_or_default()
                    .to_ascii_lowercase(),
                t["text"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn text_of(value: &Value) -> Value {
    match value {
        Value::Number(n) => Value::from(n.to_string()),
        Value::Bool(b) => Value::from(b.to_string()),
        other => other.clone(),
    }
}

/// Compares one V2 element with its V3 conversion; notes the V2 model type seen.
fn same_element(v2: &Value, v3: &Value, at: &str, seen: &mut BTreeSet<String>) {
    let v2_type = v2["modelType"]["name"].as_str().expect("V2 model type");
    seen.insert(v2_type.to_owned());
    let v3_type = if v2_type == "BasicEvent" {
        "BasicEventElement"
    } else {
        v2_type
    };
    assert_eq!(v3["modelType"], v3_type, "{at}");
    assert_eq!(v3["idShort"], v2["idShort"], "{at}");
    assert_eq!(
        key_values(&v3["semanticId"]),
        key_values(&v2["semanticId"]),
        "{at}.semanticId"
    );
    assert_eq!(
        texts(&v3["description"]),
        texts(&v2["description"]),
        "{at}.description"
    );
    let qualifiers = |q: &Value| -> Vec<(Value, Value)> {
        q.as_array()
            .into_iter()
            .flatten()
            .map(|q| (q["type"].clone(), text_of(&q["value"])))
            .collect()
    };
    assert_eq!(
        qualifiers(&v3["qualifiers"]),
        qualifiers(&v2["qualifiers"]),
        "{at}.qualifiers"
    );
    let children = |v2: &Value, v3: &Value, name: &str, seen: &mut BTreeSet<String>| {
        let (a, b) = (
            v2.as_array().cloned().unwrap_or_default(),
            v3.as_array().cloned().unwrap_or_default(),
        );
        assert_eq!(
            a.len(),
            b.len(),
            "{at}.{name}: the same elements, none dropped"
        );
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            same_element(x, y, &format!("{at}.{name}[{i}]"), seen);
        }
    };
    match v2_type {
        "Property" => {
            assert_eq!(text_of(&v3["value"]), text_of(&v2["value"]), "{at}.value");
            let want = aas_v3::xsd::v3_name(v2["valueType"].as_str().unwrap_or_default());
            assert_eq!(v3["valueType"].as_str(), want, "{at}.valueType");
            assert_eq!(
                key_values(&v3["valueId"]),
                key_values(&v2["valueId"]),
                "{at}.valueId"
            );
        }
        "MultiLanguageProperty" => {
            assert_eq!(texts(&v3["value"]), texts(&v2["value"]), "{at}.value")
        }
        "Range" => {
            assert_eq!(
                (text_of(&v3["min"]), text_of(&v3["max"])),
                (text_of(&v2["min"]), text_of(&v2["max"])),
                "{at}"
            );
        }
        "File" | "Blob" => {
            assert_eq!(v3["value"], v2["value"], "{at}.value");
            assert_eq!(v3["contentType"], v2["mimeType"], "{at}.contentType");
        }
        "ReferenceElement" => assert_eq!(
            key_values(&v3["value"]),
            key_values(&v2["value"]),
            "{at}.value"
        ),
        "RelationshipElement" | "AnnotatedRelationshipElement" => {
            assert_eq!(
                key_values(&v3["first"]),
                key_values(&v2["first"]),
                "{at}.first"
            );
            assert_eq!(
                key_values(&v3["second"]),
                key_values(&v2["second"]),
                "{at}.second"
            );
        }
        "SubmodelElementCollection" => children(&v2["value"], &v3["value"], "value", seen),
        "Entity" => {
            assert_eq!(v3["entityType"], v2["entityType"], "{at}.entityType");
            assert_eq!(
                key_values(&v2["asset"]).last().copied(),
                v3.get("globalAssetId"),
                "{at}.asset"
            );
            children(&v2["statements"], &v3["statements"], "statements", seen);
        }
        "Operation" => {
            for (old, new) in [
                ("inputVariable", "inputVariables"),
                ("outputVariable", "outputVariables"),
                ("inoutputVariable", "inoutputVariables"),
            ] {
                let values = |list: &Value| {
                    Value::Array(
                        list.as_array()
                            .into_iter()
                            .flatten()
                            .map(|v| v["value"].clone())
                            .collect(),
                    )
                };
                children(&values(&v2[old]), &values(&v3[new]), new, seen);
            }
        }
        "BasicEvent" => assert_eq!(
            key_values(&v3["observed"]),
            key_values(&v2["observed"]),
            "{at}.observed"
        ),
        "Capability" => {}
        other => panic!("{at}: a V2 model type this test does not know: {other}"),
    }
}

#[tokio::test]
async fn the_demo_plant_exports_as_v3_that_keeps_every_field_v3_can_hold() {
    let sb = DemoService::start(Config::default())
        .await
        .expect("demo-service");
    let line = serde_json::to_string(sb.info()).expect("json");
    let client =
        Arc::new(Client::new(serde_json::from_str(&line).expect("connection")).expect("client"));
    let plan = CrawlPlan::new("DEMO-01", AssetType::PLATFORM.to_vec());
    let crawl = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    let dir = std::env::temp_dir().join(format!("aas-v3-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (v2_file, v3_file, package) = (
        dir.join("v2.json"),
        dir.join("v3.json"),
        dir.join("v3.aasx"),
    );
    export(&crawl, Format::Env, "test", &v2_file).expect("V2 export");
    let v3_json: Format = "v3-env".parse().expect("a format");
    let exported = export(&crawl, v3_json, "test", &v3_file).expect("V3 export");
    let conversion = exported
        .conversion
        .expect("a V3 export says what it changed");
    assert_eq!(
        conversion.report.as_deref(),
        Some(dir.join("v3.conversion.json").as_path())
    );
    let report = read_json(&dir.join("v3.conversion.json"));
    assert_eq!(report["total"].as_u64(), Some(conversion.tally.total()));
    let v3_aasx: Format = "v3-aasx".parse().expect("a format");
    let packaged = export(&crawl, v3_aasx, "test", &package).expect("V3 AASX export");
    assert!(packaged.conversion.expect("reported").report.is_some());
    verify(&v3_file, Target::V3_0);
    verify(&package, Target::V3_0);
    // The other V3 formats: the same plant as V3.0 XML, and as V3.1, each judged in its
    // version, its report saying which.
    for (name, target, file) in [
        ("v3.0-xml", Target::V3_0, "v3-0.xml"),
        ("v3.0-aasx-xml", Target::V3_0, "v3-0-xml.aasx"),
        ("v3.1-json", Target::V3_1, "v3-1.json"),
        ("v3.1-aasx", Target::V3_1, "v3-1.aasx"),
        ("v3.1-xml", Target::V3_1, "v3-1.xml"),
        ("v3.1-aasx-xml", Target::V3_1, "v3-1-xml.aasx"),
    ] {
        let file = dir.join(file);
        let format: Format = name.parse().expect("a format");
        let exported = export(&crawl, format, "test", &file).expect(name);
        let conversion = exported.conversion.expect("reported");
        let version = format!("AAS V{}", target.version());
        assert!(
            conversion.summary().starts_with(&version),
            "{}",
            conversion.summary()
        );
        let report = read_json(conversion.report.as_deref().expect("beside it"));
        assert_eq!(report["target"], version.as_str());
        verify(&file, target);
        // The judges read XML in any order of its elements; the schema does not.
        if name.contains("xml") {
            assert_schema_valid(&file);
        }
    }
    // The XML holds what the JSON holds, as independent readers read both.
    for (json, xml) in [("v3.json", "v3-0.xml"), ("v3-1.json", "v3-1.xml")] {
        let (json, xml) = (dump_lines(&dir.join(json)), dump_lines(&dir.join(xml)));
        assert!(json.len() > 1000, "{} lines", json.len());
        assert_eq!(json, xml);
    }

    let (v2, v3) = (read_json(&v2_file), read_json(&v3_file));
    let shells = v2["assetAdministrationShells"].as_array().expect("shells");
    assert_eq!(
        shells.len(),
        v3["assetAdministrationShells"]
            .as_array()
            .expect("shells")
            .len()
    );
    for (i, (old, new)) in shells
        .iter()
        .zip(v3["assetAdministrationShells"].as_array().expect("there"))
        .enumerate()
    {
        let at = format!("assetAdministrationShells[{i}]");
        assert_eq!(new["id"], old["identification"]["id"], "{at}");
        assert_eq!(new["idShort"], old["idShort"], "{at}");
        let asset = v2["assets"].as_array().expect("there").iter().find(|a| {
            Some(&a["identification"]["id"]) == key_values(&old["asset"]).last().copied()
        });
        assert_eq!(
            Some(&new["assetInformation"]["globalAssetId"]),
            asset.map(|a| &a["identification"]["id"]),
            "{at}"
        );
        assert_eq!(
            new["assetInformation"]["assetKind"],
            asset.expect("an asset")["kind"],
            "{at}"
        );
        let refs = |list: &Value| -> Vec<Vec<Value>> {
            list.as_array()
                .into_iter()
                .flatten()
                .map(|r| key_values(r).into_iter().cloned().collect())
                .collect()
        };
        assert_eq!(
            refs(&new["submodels"]),
            refs(&old["submodels"]),
            "{at}.submodels"
        );
    }
    let mut seen = BTreeSet::new();
    let submodels = v2["submodels"].as_array().expect("submodels");
    assert_eq!(
        submodels.len(),
        v3["submodels"].as_array().expect("submodels").len()
    );
    for (i, (old, new)) in submodels
        .iter()
        .zip(v3["submodels"].as_array().expect("there"))
        .enumerate()
    {
        let at = format!("submodels[{i}]");
        assert_eq!(new["id"], old["identification"]["id"], "{at}");
        assert_eq!(
            (&new["idShort"], &new["kind"]),
            (&old["idShort"], &old["kind"]),
            "{at}"
        );
        assert_eq!(
            key_values(&new["semanticId"]),
            key_values(&old["semanticId"]),
            "{at}"
        );
        let (a, b) = (
            old["submodelElements"].as_array().expect("there"),
            new["submodelElements"].as_array().expect("there"),
        );
        assert_eq!(a.len(), b.len(), "{at}");
        for (j, (x, y)) in a.iter().zip(b).enumerate() {
            same_element(x, y, &format!("{at}.submodelElements[{j}]"), &mut seen);
        }
    }
    // Every element type the plant holds was compared (the demo plant holds them all).
    let all: BTreeSet<String> = [
        "AnnotatedRelationshipElement",
        "BasicEvent",
        "Blob",
        "Capability",
        "Entity",
        "File",
        "MultiLanguageProperty",
        "Operation",
        "Property",
        "Range",
        "ReferenceElement",
        "RelationshipElement",
        "SubmodelElementCollection",
    ]
    .map(str::to_owned)
    .into();
    let v2_text = v2.to_string();
    let used: BTreeSet<String> = all
        .into_iter()
        .filter(|t| v2_text.contains(&format!("\"name\":\"{t}\"")))
        .collect();
    assert_eq!(seen, used);
    assert!(
        used.len() >= 10,
        "the demo plant uses most element types: {used:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
