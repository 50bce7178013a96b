//! The audit of a large demo plant (`cargo bench -p aas-audit --bench audit`; the plant's
//! size from `AUDIT_ASSETS`, default 30,000): the time of the audit and of writing its
//! findings, and the memory it takes beyond the answers it reads (the plant's crawl is
//! held in memory here, as no store is at hand; a snapshot streams its answers).
//! Issue 28 asks ≤ 10 s and ≤ 300 MB for 30,000 assets.

use std::time::{Instant, SystemTime};

use aas_audit::{audit, Options, Templates};
use aas_client::{Crawl, CrawlPlan};
use aas_demo::{demo_plant, Plant, DEMO_PLANT};
use aas_model::AssetType;
use aas_source::{Fetched, NodePath, Selection};

/// The answers the demo service gives for `plant`: its AAS lists and each shell's submodels.
fn crawl_of(plant: Plant) -> Crawl {
    let answer = |path: NodePath, json: String| Fetched {
        url: format!("{path:?}"),
        path,
        raw: json.into(),
    };
    let mut fetched = Vec::new();
    for asset_type in AssetType::PLATFORM {
        let shells: Vec<&serde_json::Value> = (plant.assets.iter())
            .filter(|a| a.asset_type == asset_type)
            .map(|a| &a.shell)
            .collect();
        let json = serde_json::to_string(&shells).expect("json");
        fetched.push(answer(NodePath::AasList { asset_type }, json));
    }
    for asset in plant.assets {
        let json = serde_json::to_string(&asset.submodels).expect("json");
        let path = NodePath::Submodels {
            aas_id: asset.aas_id,
        };
        fetched.push(answer(path, json));
    }
    Crawl {
        plan: CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec()),
        selection: Selection::everything(),
        started: SystemTime::now(),
        finished: SystemTime::now(),
        answers: fetched.len(),
        fetched,
        failures: Vec::new(),
        unreadable: Vec::new(),
        cancelled: false,
        node_limit_reached: false,
        retries: 0,
        probes: 0,
    }
}

/// A figure of /proc/self/status in MB (Linux).
fn status_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status.lines().find_map(|l| {
        l.strip_prefix(field)?
            .trim()
            .strip_suffix("kB")?
            .trim()
            .parse::<f64>()
            .ok()
    });
    kb.unwrap_or(0.0) / 1024.0
}

fn main() {
    // `cargo bench` passes `--bench`; a filter or `--list` from a test run asks nothing.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let assets: usize = std::env::var("AUDIT_ASSETS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30_000);
    let started = Instant::now();
    let crawl = crawl_of(demo_plant(DEMO_PLANT, assets, 1));
    let bytes: u64 = crawl.fetched.iter().map(|f| f.raw.size()).sum();
    eprintln!(
        "plant of {assets} assets: {:.1} MB of answers, made in {:.1} s",
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    // Resets the peak resident size, so the one read after is the audit's.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status_mb("VmRSS:");
    let started = Instant::now();
    let found = audit(&crawl, &Templates::builtin(), &Options::default()).expect("audit");
    let audited = started.elapsed().as_secs_f64();
    let peak = status_mb("VmHWM:") - before;
    let started = Instant::now();
    found.write_csv(std::io::sink()).expect("csv");
    let csv = started.elapsed().as_secs_f64();
    let started = Instant::now();
    found.write_json(None, std::io::sink()).expect("json");
    let json = started.elapsed().as_secs_f64();
    println!(
        "audit of {assets} assets: {audited:.2} s, peak +{peak:.0} MB; {} findings; CSV {csv:.2} s, JSON {json:.2} s",
        found.findings.len()
    );
    for v in &found.verdict.templates {
        let t = &found.templates[usize::from(v.template)];
        println!(
            "  {}: {} of {} shells complete",
            t.title(),
            v.complete,
            v.shells
        );
    }
    for g in found.verdict.groups.iter().take(12) {
        let t = &found.templates[usize::from(g.template)];
        println!(
            "  {:>7} {} {} {}",
            g.count,
            t.title(),
            g.template_path,
            g.kind.name()
        );
    }
}
