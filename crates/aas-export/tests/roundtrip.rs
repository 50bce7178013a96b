//! Real AAS files in, the same AAS out: each sample environment is served by the
//! demo service, crawled, and exported as environment JSON; every AAS, asset and submodel in
//! the export equals the original's as a JSON value. The conforming example of the
//! independent implementation also passes its own `same` check.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aas_client::{Client, CrawlPlan};
use aas_demo::{load_environment, Config, DemoService, Plant};
use aas_export::{export, Format};
use aas_model::AssetType;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The file's JSON; a UTF-8 byte order mark (one sample has it) is not part of it.
fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("readable");
    serde_json::from_str(text.trim_start_matches('\u{feff}')).expect("JSON")
}

fn environments(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            environments(&path, found);
        } else if path.extension().is_some_and(|e| e == "json")
            && read_json(&path).get("assetAdministrationShells").is_some()
        {
            found.push(path);
        }
    }
}

/// Objects of one list of an environment, by `identification.id`.
fn by_id(env: &Value, list: &str) -> HashMap<String, Value> {
    env[list]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| Some((o["identification"]["id"].as_str()?.to_owned(), o.clone())))
        .collect()
}

/// The connection exactly as `aasmd demo-service` prints it: the start-up line's JSON.
fn connection(demo_service: &DemoService) -> aas_client::Connection {
    let line = serde_json::to_string(demo_service.info()).expect("json");
    serde_json::from_str(&line).expect("the start-up line is a connection")
}

/// Serves `file`, crawls it and exports it as environment JSON to `out`.
async fn round_trip(file: &Path, out: &Path) {
    let assets = load_environment(file, AssetType::MACHINE).expect("loads");
    let sb = DemoService::start(Config {
        plants: vec![Plant {
            code: "SAMPLES".into(),
            assets,
        }],
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let client = Arc::new(Client::new(connection(&sb)).expect("client"));
    let plan = CrawlPlan {
        concurrency: 4,
        ..CrawlPlan::new("SAMPLES", vec![AssetType::MACHINE])
    };
    let crawl = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
    assert!(
        crawl.failures.is_empty(),
        "{}: {:?}",
        file.display(),
        crawl.failures
    );
    export(&crawl, Format::Env, "samples", out).expect("export");
}

#[tokio::test]
async fn every_sample_environment_survives_serve_crawl_and_export() {
    let mut files = Vec::new();
    environments(&shared().join("aas-samples"), &mut files);
    assert!(files.len() >= 4, "{files:?}");
    let dir = std::env::temp_dir().join(format!("aas-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (i, file) in files.iter().enumerate() {
        let out = dir.join(format!("export-{i}.json"));
        round_trip(file, &out).await;
        let (original, exported) = (read_json(file), read_json(&out));
        for list in ["assetAdministrationShells", "submodels", "assets"] {
            let want = by_id(&original, list);
            let got = by_id(&exported, list);
            for (id, object) in &got {
                // The demo service makes up an Asset when a file lacks it; those are not compared.
                if list == "assets" && !want.contains_key(id) {
                    continue;
                }
                assert_eq!(
                    Some(object),
                    want.get(id),
                    "{}: {list} {id}",
                    file.display()
                );
            }
            if list != "assets" {
                // Submodels no AAS references are not served, so not exported either.
                let referenced = exported["assetAdministrationShells"].to_string();
                let expected = want
                    .keys()
                    .filter(|id| list != "submodels" || referenced.contains(id.as_str()));
                for id in expected {
                    assert!(
                        got.contains_key(id),
                        "{}: {list} {id} is missing",
                        file.display()
                    );
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn the_independent_example_comes_back_the_same() {
    let dir = std::env::temp_dir().join(format!("aas-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let tool = shared().join("tools/aasv2-check");
    let (original, exported) = (dir.join("example.json"), dir.join("exported.json"));
    let status = std::process::Command::new(&tool)
        .arg("example")
        .arg(&original)
        .status()
        .expect("tool runs");
    assert!(status.success());
    round_trip(&original, &exported).await;
    // A gateway serves AAS with the submodels they reference, and assets through the
    // registry; concept descriptions and unreferenced submodels are not served.
    let mut servable = read_json(&original);
    let referenced = servable["assetAdministrationShells"].to_string();
    servable["conceptDescriptions"] = Value::Array(Vec::new());
    if let Some(submodels) = servable["submodels"].as_array_mut() {
        submodels.retain(|sm| {
            let id = sm["identification"]["id"].as_str().unwrap_or_default();
            referenced.contains(&format!("\"value\":\"{id}\""))
        });
    }
    let expected = dir.join("servable.json");
    std::fs::write(&expected, serde_json::to_vec(&servable).expect("json")).expect("write");
    let same = std::process::Command::new(&tool)
        .arg("same")
        .arg(&expected)
        .arg(&exported)
        .output()
        .expect("tool runs");
    assert!(
        same.status.success(),
        "aasv2-check same: {}{}",
        String::from_utf8_lossy(&same.stdout),
        String::from_utf8_lossy(&same.stderr)
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
