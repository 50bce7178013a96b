//! Crawl and export against a real demo service over loopback; the exports are judged by the
//! independent `aasv2-check`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aas_client::{Client, CrawlPlan, Progress, RetryPolicy};
use aas_demo::{Config, DemoService, DEMO_PLANT};
use aas_export::{export, Format};
use aas_model::AssetType;
use aas_source::{ErrorKind, NodePath};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

mod support;

use support::connection;

fn client(sb: &DemoService) -> Arc<Client> {
    Arc::new(Client::new(connection(sb)).expect("client"))
}

fn plan(concurrency: usize) -> CrawlPlan {
    CrawlPlan {
        concurrency,
        ..CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec())
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aas-crawl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn aasv2_check(args: &[&str]) -> (bool, String) {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/aasv2-check");
    let out = std::process::Command::new(tool)
        .args(args)
        .output()
        .expect("aasv2-check runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

async fn stats(sb: &DemoService) -> Value {
    reqwest::get(format!("{}/demo-service/stats", sb.info().registry_url))
        .await
        .expect("stats")
        .json()
        .await
        .expect("json")
}

#[tokio::test]
async fn a_whole_plant_is_crawled_and_exported_in_every_format() {
    let sb = DemoService::start(Config::default())
        .await
        .expect("demo-service");
    let c = client(&sb);
    let last = Mutex::new(Progress::default());
    let crawl = c
        .crawl(&plan(8), &CancellationToken::new(), |p| {
            *last.lock().expect("lock") = *p
        })
        .await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    assert!(!crawl.cancelled);
    // registry + 8 lists + 21 shared AAS (the 3 `user` assets are not shared) + 6 submodels each
    assert_eq!(crawl.fetched.len(), 1 + 8 + 21 + 21 * 6);
    let progress = *last.lock().expect("lock");
    assert_eq!(progress.requests_done, crawl.fetched.len() as u64);
    assert_eq!(progress.requests_known, progress.requests_done);
    assert_eq!(
        progress.bytes,
        crawl.fetched.iter().map(|f| f.raw.size()).sum::<u64>()
    );
    assert_eq!(
        stats(&sb).await["token_requests"],
        1,
        "one token for the whole crawl"
    );

    let dir = temp_dir("formats");
    let raw = dir.join("bundle.json");
    export(&crawl, Format::Raw, "demo", &raw).expect("raw");
    let bundle_text = std::fs::read_to_string(&raw).expect("read");
    let bundle: Value = serde_json::from_str(&bundle_text).expect("json");
    assert_eq!(bundle["manifest"]["plant"], DEMO_PLANT);
    assert_eq!(bundle["manifest"]["nodes"], crawl.fetched.len());
    // In the fixed order of every export: level by level, then by the path's keys.
    let order: Vec<_> = crawl
        .fetched
        .iter()
        .map(|f| (f.path.level(), f.path.keys()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let listed: Vec<NodePath> = bundle["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| serde_json::from_value(n["path"].clone()).expect("path"))
        .collect();
    let listed_order: Vec<_> = listed.iter().map(|p| (p.level(), p.keys())).collect();
    assert_eq!(listed_order, order);
    for node in bundle["nodes"].as_array().expect("nodes") {
        let fetched = crawl
            .fetched
            .iter()
            .find(|f| serde_json::to_value(&f.path).expect("path") == node["path"])
            .expect("a fetched node");
        let sent: Value = serde_json::from_str(&fetched.raw.text().expect("text")).expect("json");
        assert_eq!(node["json"], sent, "the bundle holds the server's JSON");
        assert_eq!(node["url"], fetched.url.as_str());
        assert_eq!(
            node["path"],
            serde_json::to_value(&fetched.path).expect("path")
        );
        assert!(
            bundle_text.contains(&format!(
                ",\"json\":{}}}",
                fetched.raw.text().expect("text")
            )),
            "the answer is in the bundle byte for byte: {}",
            fetched.url
        );
    }

    let env = dir.join("plant.json");
    export(&crawl, Format::Env, "demo", &env).expect("env");
    let env_json: Value =
        serde_json::from_slice(&std::fs::read(&env).expect("read")).expect("json");
    assert_eq!(
        env_json["assetAdministrationShells"]
            .as_array()
            .map(Vec::len),
        Some(21)
    );
    assert_eq!(env_json["assets"].as_array().map(Vec::len), Some(21));
    assert_eq!(env_json["submodels"].as_array().map(Vec::len), Some(21 * 6));
    let env_path = env.to_str().expect("utf-8 path");
    for check in ["schema", "load"] {
        let (ok, out) = aasv2_check(&[check, env_path]);
        assert!(ok, "aasv2-check {check}: {out}");
    }
    let aasx = dir.join("plant.aasx");
    export(&crawl, Format::Aasx, "demo", &aasx).expect("aasx");
    let (ok, out) = aasv2_check(&["load", aasx.to_str().expect("utf-8 path")]);
    assert!(ok, "aasv2-check load AASX: {out}");

    let csv = dir.join("properties.csv");
    export(&crawl, Format::Csv, "demo", &csv).expect("csv");
    let text = std::fs::read_to_string(&csv).expect("read");
    assert!(text.starts_with(
        "aas_id,asset_type,submodel,id_short_path,model_type,value_type,value,unit,semantic_id\n"
    ));
    assert!(text.contains(
        "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001,machine,Nameplate,ManufacturerName,Property,string,Acme Tools Inc."
    ), "{}", &text[..text.len().min(2000)]);
    assert!(text.contains(",Nameplate,Address/CityTown,Property,string,Stuttgart,"));
    let weight = text
        .lines()
        .find(|l| l.contains(",TechnicalData,TechnicalProperties/Weight,"))
        .expect("a Weight row");
    assert!(
        weight.contains(",Property,double,") && weight.contains(",kg,"),
        "{weight}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary files left: {leftovers:?}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn a_cancelled_crawl_keeps_what_it_fetched() {
    let sb = DemoService::start(Config {
        faults: Some("latency=30ms".parse().expect("faults")),
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let c = client(&sb);
    let cancel = CancellationToken::new();
    let crawl = c
        .crawl(&plan(2), &cancel, |p| {
            if p.requests_done == 10 {
                cancel.cancel();
            }
        })
        .await;
    assert!(crawl.cancelled);
    assert_eq!(crawl.fetched.len(), 10);
    assert!(crawl.failures.is_empty());
}

#[tokio::test]
async fn failed_nodes_are_recorded_and_the_rest_goes_on() {
    let sb = DemoService::start(Config {
        faults: Some("error=0.2,seed=4".parse().expect("faults")),
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let conn = connection(&sb);
    let no_retry = RetryPolicy {
        attempts: 1,
        ..RetryPolicy::default()
    };
    let c = Arc::new(Client::new(conn).expect("client").with_retry(no_retry));
    let crawl = c.crawl(&plan(4), &CancellationToken::new(), |_| {}).await;
    assert!(!crawl.failures.is_empty());
    assert!(
        crawl.fetched.len() > crawl.failures.len(),
        "most nodes still arrive"
    );
    assert!(crawl
        .failures
        .iter()
        .all(|f| f.kind == ErrorKind::Server && !f.url.is_empty()));
    let dir = temp_dir("failures");
    let raw = dir.join("bundle.json");
    export(&crawl, Format::Raw, "demo", &raw).expect("raw");
    let bundle: Value = serde_json::from_slice(&std::fs::read(&raw).expect("read")).expect("json");
    assert_eq!(
        bundle["manifest"]["failures"].as_array().map(Vec::len),
        Some(crawl.failures.len())
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn short_lived_tokens_are_refreshed_once_per_lifetime_during_a_long_crawl() {
    let sb = DemoService::start(Config {
        token_ttl: Duration::from_secs(2),
        faults: Some("latency=100ms".parse().expect("faults")),
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let c = client(&sb);
    let started = Instant::now();
    let crawl = c.crawl(&plan(2), &CancellationToken::new(), |_| {}).await;
    let took = started.elapsed().as_secs_f64();
    assert!(
        crawl.failures.is_empty(),
        "no 401 reaches the caller: {:?}",
        crawl.failures
    );
    assert!(
        took > 6.0,
        "the crawl must outlive several tokens ({took:.1}s)"
    );
    let tokens = stats(&sb).await["token_requests"].as_u64().expect("count");
    // One token per 80% of its 2 s lifetime, never one per request.
    let most = (took / 1.6).ceil() as u64 + 1;
    assert!(
        tokens >= 3 && tokens <= most,
        "{tokens} token requests in {took:.1}s"
    );
}

#[tokio::test]
async fn a_grant_revoked_mid_session_gives_not_found_for_that_asset_only() {
    let sb = DemoService::start(Config::default())
        .await
        .expect("demo-service");
    let c = client(&sb);
    let tool = "urn:demo-platform:acme:DEMO-01:aas:tool#T-0001";
    let machine = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";
    assert!(c.aas(tool).await.is_ok());
    let revoke = reqwest::Client::new()
        .put(format!("{}/demo-service/admin/grants", sb.info().registry_url))
        .bearer_auth(sb.admin_token())
        .json(&serde_json::json!({"client_id": sb.info().client_id, "aas_id": tool, "grant": "denied"}))
        .send()
        .await
        .expect("admin");
    assert_eq!(revoke.status(), 200);
    assert_eq!(
        c.aas(tool).await.expect_err("revoked").kind(),
        ErrorKind::NotFound
    );
    assert!(c.aas(machine).await.is_ok(), "the rest keeps working");
    let crawl = c.crawl(&plan(4), &CancellationToken::new(), |_| {}).await;
    assert!(crawl.failures.is_empty());
    assert!(!crawl.fetched.iter().any(|f| f.path
        == NodePath::Submodels {
            aas_id: tool.into()
        }));
}

#[tokio::test]
async fn a_selection_fetches_and_exports_only_the_ticked_shells_and_submodels() {
    let sb = DemoService::start(Config::default())
        .await
        .expect("demo-service");
    let c = client(&sb);
    let id = |code: &str| format!("urn:demo-platform:acme:{DEMO_PLANT}:aas:machine#{code}");
    let selection: aas_source::Selection = serde_json::from_value(serde_json::json!([
        {"aas_id": id("M-0001")},
        {"aas_id": id("M-0002"), "submodels": ["Nameplate"]},
    ]))
    .expect("picks");
    let plan = CrawlPlan {
        asset_types: vec![AssetType::MACHINE],
        ..plan(8)
    };
    let crawl = c
        .crawl_selection(&plan, &selection, &CancellationToken::new(), |_| {})
        .await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    let submodel_lists = crawl
        .at(|p| matches!(p, NodePath::Submodels { .. }))
        .count();
    let element_lists: Vec<_> = crawl
        .at(|p| matches!(p, NodePath::Elements { .. }))
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(
        submodel_lists, 2,
        "only the ticked shells' submodels are listed"
    );
    assert_eq!(element_lists.len(), 6 + 1, "{element_lists:?}");

    let dir = temp_dir("selection");
    let env_path = dir.join("env.json");
    export(&crawl, Format::Env, "test", &env_path).expect("env export");
    let env: Value =
        serde_json::from_slice(&std::fs::read(&env_path).expect("read")).expect("json");
    let shells: Vec<&str> = env["assetAdministrationShells"]
        .as_array()
        .expect("shells")
        .iter()
        .map(|s| s["identification"]["id"].as_str().expect("id"))
        .collect();
    assert_eq!(shells.len(), 2, "{shells:?}");
    assert!(shells.contains(&id("M-0001").as_str()) && shells.contains(&id("M-0002").as_str()));
    assert_eq!(env["submodels"].as_array().expect("submodels").len(), 7);
    assert_eq!(env["assets"].as_array().expect("assets").len(), 2);
    let (ok, text) = aasv2_check(&["schema", env_path.to_str().expect("utf-8")]);
    assert!(ok, "{text}");

    let csv_path = dir.join("props.csv");
    export(&crawl, Format::Csv, "test", &csv_path).expect("csv export");
    let csv = std::fs::read_to_string(&csv_path).expect("csv");
    let m2_rows: Vec<&str> = csv.lines().filter(|l| l.contains("#M-0002,")).collect();
    assert!(!m2_rows.is_empty());
    assert!(
        m2_rows.iter().all(|l| l.contains(",Nameplate,")),
        "only M-0002's Nameplate: {m2_rows:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
