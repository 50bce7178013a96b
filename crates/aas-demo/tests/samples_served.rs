//! Every AAS V2.0.1 environment in ../shared/aas-samples, loaded into a demo service and
//! read back over HTTP: each AAS and each submodel equals the file's object as a JSON
//! value. A new sample file is covered without code changes.

mod common;

use std::path::{Path, PathBuf};

use aas_demo::{load_environment, Config, Plant};
use aas_model::AssetType;
use common::Fixture;
use serde_json::Value;

fn environments(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("samples folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            environments(&path, found);
        } else if path.extension().is_some_and(|e| e == "json") {
            let is_env =
                read_json(&path).is_some_and(|v| v.get("assetAdministrationShells").is_some());
            if is_env {
                found.push(path);
            }
        }
    }
}

/// The file's JSON; a UTF-8 byte order mark (one sample has it) is not part of it.
fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(text.trim_start_matches('\u{feff}')).ok()
}

fn by_id<'v>(list: &'v Value, id: &str) -> Option<&'v Value> {
    list.as_array()?
        .iter()
        .find(|o| o["identification"]["id"] == id)
}

#[tokio::test]
async fn every_sample_environment_is_served_back_unchanged() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/aas-samples");
    let mut files = Vec::new();
    environments(&root, &mut files);
    assert!(
        files.len() >= 4,
        "expected the sample environments, found {files:?}"
    );
    let mut checked = 0;
    for file in files {
        let original = read_json(&file).expect("json");
        let assets = load_environment(&file, AssetType::MACHINE).expect("loads");
        let f = Fixture::start(Config {
            plants: vec![Plant {
                code: "SAMPLES".into(),
                assets: assets.clone(),
            }],
            ..Config::default()
        })
        .await;
        for asset in &assets {
            let shell = f.get_as_demo(&f.aas_url(&asset.aas_id, "")).await;
            assert_eq!(shell.status, 200, "{}: {}", file.display(), asset.aas_id);
            let expected =
                by_id(&original["assetAdministrationShells"], &asset.aas_id).expect("AAS in file");
            assert_eq!(
                &shell.body,
                expected,
                "{}: AAS {}",
                file.display(),
                asset.aas_id
            );
            // The submodel list holds every submodel, even those whose idShort is empty
            // (the V2 full example has some), which no idShort route can address.
            let list = f
                .get_as_demo(&f.aas_url(&asset.aas_id, "/aas/submodels"))
                .await;
            let listed = list.body.as_array().expect("a list");
            assert_eq!(listed.len(), asset.submodels.len(), "{}", file.display());
            for (got, sm) in listed.iter().zip(&asset.submodels) {
                let id = sm["identification"]["id"].as_str().expect("submodel id");
                let expected = by_id(&original["submodels"], id).expect("submodel in file");
                assert_eq!(got, expected, "{}: submodel {id}", file.display());
                let id_short = sm["idShort"].as_str().expect("idShort");
                if !id_short.is_empty() {
                    let rest = format!("/aas/submodels/{}", aas_model::encode_segment(id_short));
                    let one = f.get_as_demo(&f.aas_url(&asset.aas_id, &rest)).await;
                    assert_eq!(one.status, 200, "{}: {id_short}", file.display());
                    assert_eq!(
                        &one.body,
                        expected,
                        "{}: submodel {id_short}",
                        file.display()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "only {checked} submodels checked");
}
