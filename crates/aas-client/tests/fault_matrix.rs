//! The crawl under each fault the demo service injects, alone and all mixed, on a 500-asset
//! plant: every run must end with exactly what a fault-free crawl got (the raw exports
//! compared node by node), with every retry counted and bounded, and a node that could
//! not be fetched reported rather than silently missing. Each test prints one row of
//! the table in docs/RELIABILITY.md (`cargo test -p aas-client --test fault_matrix --
//! --nocapture`).

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use aas_client::{Client, Crawl, CrawlPlan, RetryPolicy};
use aas_demo::{demo_plant, Config, DemoService, DEMO_PLANT};
use aas_export::{export, Format};
use aas_model::AssetType;
use aas_source::NodePath;
use serde_json::Value;
use tokio::sync::OnceCell;
use tokio_util::sync::CancellationToken;

const ASSETS: usize = 500;
const CONCURRENCY: usize = 16;
const DEFAULT_TTL: Duration = Duration::from_secs(300);
const SHORT_TTL: Duration = Duration::from_secs(2);

/// What one crawl brought home, from its raw export: node path → (URL path, JSON).
type Nodes = BTreeMap<String, (String, String)>;

struct Run {
    crawl: Crawl,
    nodes: Nodes,
    stats: Value,
}

async fn crawl(faults: &str, token_ttl: Duration, retry: RetryPolicy) -> Run {
    let sb = DemoService::start(Config {
        plants: vec![demo_plant(DEMO_PLANT, ASSETS, 1)],
        faults: Some(faults.parse().expect("fault spec")),
        token_ttl,
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let client = Arc::new(
        Client::new(support::connection(&sb))
            .expect("client")
            .with_retry(retry),
    );
    let plan = CrawlPlan {
        concurrency: CONCURRENCY,
        ..CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec())
    };
    let crawl = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
    let stats: Value = reqwest::get(format!("{}/demo-service/stats", sb.info().registry_url))
        .await
        .expect("stats")
        .json()
        .await
        .expect("json");
    let nodes = raw_export(&crawl, &sb.info().registry_url);
    Run {
        crawl,
        nodes,
        stats,
    }
}

/// Writes the raw bundle and reads it back, keyed by node, with URLs relative to the
/// demo service (each run has its own port).
fn raw_export(crawl: &Crawl, base: &str) -> Nodes {
    let file = std::env::temp_dir().join(format!(
        "aas-fault-matrix-{}-{}.json",
        std::process::id(),
        rand::random::<u64>()
    ));
    export(crawl, Format::Raw, "matrix", &file).expect("raw export");
    let bundle: Value =
        serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("bundle json");
    std::fs::remove_file(&file).expect("cleanup");
    let listed = bundle["nodes"].as_array().expect("nodes");
    let nodes: Nodes = listed
        .iter()
        .map(|n| {
            let url = n["url"].as_str().expect("url");
            let url = url.strip_prefix(base).expect("a URL of the demo service");
            // The registry's endpoints name the demo service's own address.
            let json = n["json"].to_string().replace(base, "http://demo service");
            (n["path"].to_string(), (url.to_owned(), json))
        })
        .collect();
    // No node is recorded twice: node count = distinct paths = the manifest's count,
    // and no failed node is among the answers.
    assert_eq!(nodes.len(), listed.len(), "a node recorded twice");
    assert_eq!(bundle["manifest"]["nodes"], listed.len());
    for failure in &crawl.failures {
        let path = serde_json::to_value(&failure.path)
            .expect("path")
            .to_string();
        assert!(!nodes.contains_key(&path), "{path} both fetched and failed");
    }
    nodes
}

/// The fault-free crawl every run is compared with, made once per test binary.
async fn baseline() -> &'static Nodes {
    static BASELINE: OnceCell<Nodes> = OnceCell::const_new();
    BASELINE
        .get_or_init(|| async {
            let run = crawl("", DEFAULT_TTL, RetryPolicy::default()).await;
            assert!(run.crawl.failures.is_empty(), "{:?}", run.crawl.failures);
            assert_eq!(run.crawl.retries, 0);
            run.nodes
        })
        .await
}

fn count(v: &Value) -> u64 {
    v.as_object()
        .map_or(0, |o| o.values().filter_map(Value::as_u64).sum())
}

/// Prints the row of docs/RELIABILITY.md for this run.
fn report(mode: &str, faults: &str, run: &Run, identical: bool) {
    eprintln!(
        "| {mode} | `{faults}` | 1 | {} | {} | {} | {} | {} | {} |",
        run.stats["requests_total"],
        count(&run.stats["faults"]),
        run.crawl.retries,
        run.stats["token_requests"],
        run.crawl.failures.len(),
        if identical { "yes" } else { "no" },
    );
}

/// Crawls under `faults` with the default retry policy and checks the run against the
/// baseline; returns it for mode-specific checks.
async fn matrix_row(mode: &str, faults: &str, token_ttl: Duration) -> Run {
    let baseline = baseline().await;
    let run = crawl(faults, token_ttl, RetryPolicy::default()).await;
    let identical = run.nodes == *baseline;
    report(mode, faults, &run, identical);
    assert!(
        run.crawl.failures.is_empty(),
        "{mode}: {:?}",
        run.crawl.failures
    );
    assert_eq!(run.nodes.len(), baseline.len(), "{mode}: node count");
    assert!(
        identical,
        "{mode}: the content differs from a fault-free crawl"
    );
    // Every injected fault cost exactly one retry, and none was retried without cause.
    assert_eq!(
        run.crawl.retries,
        count(&run.stats["faults"]),
        "{mode}: retries"
    );
    let attempts = u64::from(RetryPolicy::default().attempts);
    assert!(run.crawl.retries <= (attempts - 1) * baseline.len() as u64);
    run
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn latency_with_jitter() {
    matrix_row(
        "latency + jitter",
        "latency=2ms,jitter=8ms,seed=11",
        DEFAULT_TTL,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors() {
    let run = matrix_row("500/502/503", "error=0.05,seed=12", DEFAULT_TTL).await;
    assert!(run.crawl.retries > 0, "faults were injected");
    let statuses: Vec<&str> = ["500", "502", "503"]
        .into_iter()
        .filter(|s| {
            run.stats["requests"]
                .to_string()
                .contains(&format!("\"{s}\""))
        })
        .collect();
    assert_eq!(statuses.len(), 3, "each of 500, 502, 503 was sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttling_with_retry_after() {
    let run = matrix_row(
        "429 + Retry-After: 1",
        "throttle=0.03,retry-after=1,seed=13",
        DEFAULT_TTL,
    )
    .await;
    assert!(run.stats["faults"]["throttle"].as_u64() > Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections() {
    let run = matrix_row("dropped connection", "drop=0.05,seed=14", DEFAULT_TTL).await;
    assert!(run.stats["faults"]["drop"].as_u64() > Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn truncated_bodies() {
    let run = matrix_row("truncated body", "truncate=0.05,seed=15", DEFAULT_TTL).await;
    assert!(run.stats["faults"]["truncate"].as_u64() > Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_json() {
    let run = matrix_row("invalid JSON (200)", "garbage=0.05,seed=16", DEFAULT_TTL).await;
    assert!(run.stats["faults"]["garbage"].as_u64() > Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_second_tokens() {
    // The latency makes the crawl outlive several tokens whatever the machine's speed:
    // ~3000 requests × 20 ms / 16 in flight ≥ 3.7 s.
    let run = matrix_row("token lifetime 2 s", "latency=20ms,seed=17", SHORT_TTL).await;
    assert!(
        run.stats["token_requests"].as_u64() >= Some(2),
        "the crawl outlived its first token: {}",
        run.stats["token_requests"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_mixed() {
    let run = matrix_row(
        "all mixed, token lifetime 2 s",
        "latency=2ms,jitter=8ms,error=0.03,throttle=0.01,retry-after=1,drop=0.01,truncate=0.01,garbage=0.01,seed=18",
        SHORT_TTL,
    )
    .await;
    let kinds = run.stats["faults"].as_object().map_or(0, |o| o.len());
    assert_eq!(
        kinds, 5,
        "every kind of fault occurred: {}",
        run.stats["faults"]
    );
}

/// Without retries, nodes do fail; each missing node must be a reported failure or lie
/// below one, never silently absent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_retries_every_missing_node_is_accounted_for() {
    let baseline = baseline().await;
    let faults = "error=0.02,drop=0.02,garbage=0.02,seed=19";
    let no_retry = RetryPolicy {
        attempts: 1,
        ..RetryPolicy::default()
    };
    let run = crawl(faults, DEFAULT_TTL, no_retry).await;
    report("mixed, no retries", faults, &run, run.nodes == *baseline);
    assert!(!run.crawl.failures.is_empty(), "faults were injected");
    // A connection dropped before the answer's head is a connection error: the crawl
    // probes the service, which answers, and asks the node once more (a retry). A
    // probe may meet a fault itself (it answers all the same): so each injected fault
    // is a reported failure, a retry, or one of the probes.
    let (accounted, faults) = (
        run.crawl.failures.len() as u64 + run.crawl.retries,
        count(&run.stats["faults"]),
    );
    assert!(
        (accounted..=accounted + run.crawl.probes).contains(&faults),
        "{faults} faults; {accounted} failures and retries, {} probes",
        run.crawl.probes
    );
    let failed: Vec<String> = run
        .crawl
        .failures
        .iter()
        .map(|f| serde_json::to_value(&f.path).expect("path").to_string())
        .collect();
    for (key, (url, json)) in baseline {
        match run.nodes.get(key) {
            Some(got) => assert_eq!(got, &(url.clone(), json.clone()), "{key}"),
            None => assert!(
                explained(key, baseline, &failed),
                "{key} is missing and no failure explains it"
            ),
        }
    }
}

/// Whether `key` failed itself, or its parent is missing for a reason.
fn explained(key: &str, baseline: &Nodes, failed: &[String]) -> bool {
    if failed.iter().any(|f| f == key) {
        return true;
    }
    let path: NodePathKey = serde_json::from_str(key).expect("node path");
    let parent = match path {
        NodePathKey::Elements { aas_id } => {
            serde_json::json!({"level": "submodels", "aas_id": aas_id})
        }
        // The list that named this AAS.
        NodePathKey::Submodels { aas_id } => {
            let list = baseline
                .iter()
                .find(|(k, (_, json))| {
                    k.contains("aas_list") && json.to_string().contains(&format!("\"{aas_id}\""))
                })
                .map(|(k, _)| k.clone())
                .expect("the AAS is in a list");
            return explained(&list, baseline, failed);
        }
        NodePathKey::Other => return false,
    };
    explained(&parent.to_string(), baseline, failed)
}

/// The part of a [`NodePath`] that names its parent.
#[derive(serde::Deserialize)]
#[serde(tag = "level", rename_all = "snake_case")]
enum NodePathKey {
    Elements {
        aas_id: String,
    },
    Submodels {
        aas_id: String,
    },
    #[serde(other)]
    Other,
}

#[test]
fn node_path_keys_follow_the_export() {
    let key = |p: &NodePath| serde_json::to_value(p).expect("path").to_string();
    let elements = NodePath::Elements {
        aas_id: "a".into(),
        submodel: "s".into(),
    };
    let submodels = NodePath::Submodels { aas_id: "a".into() };
    assert!(matches!(
        serde_json::from_str(&key(&elements)).expect("key"),
        NodePathKey::Elements { .. }
    ));
    assert_eq!(
        key(&submodels),
        serde_json::json!({"level": "submodels", "aas_id": "a"}).to_string()
    );
}
