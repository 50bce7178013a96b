//! Export throughput of a 1,000-asset crawl (`cargo bench -p aas-export --bench export`):
//! a demo service with a generated 1,000-asset plant is crawled once over loopback, then
//! each format is written into a temporary folder.
//!
//! Throughput is counted in bytes written for `raw` and `env`; for `aasx` in the bytes
//! of the environment JSON it packs (the file itself is compressed). `bench/run.sh`
//! reads the medians from `target/criterion/` and writes them to `bench/RESULTS.md`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aas_client::{Client, Connection, Crawl, CrawlPlan};
use aas_demo::{demo_plant, Config, DemoService, DEMO_PLANT};
use aas_export::{export, Format};
use aas_model::AssetType;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tokio_util::sync::CancellationToken;

const ASSETS: usize = 1000;

/// Crawls a fresh 1,000-asset demo service once.
fn crawl() -> Crawl {
    let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
    rt.block_on(async {
        let sb = DemoService::start(Config {
            plants: vec![demo_plant(DEMO_PLANT, ASSETS, 1)],
            ..Config::default()
        })
        .await
        .expect("demo-service");
        let line = serde_json::to_string(sb.info()).expect("start-up line");
        let conn: Connection = serde_json::from_str(&line).expect("connection");
        let client = Arc::new(Client::new(conn).expect("client"));
        let plan = CrawlPlan {
            concurrency: 32,
            ..CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec())
        };
        let crawl = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
        assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
        crawl
    })
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aas-export-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn bench_export(c: &mut Criterion) {
    let crawl = crawl();
    let dir = temp_dir();
    let mut g = c.benchmark_group("export-1000");
    g.sample_size(10);
    let env_bytes = export(&crawl, Format::Env, "bench", &dir.join("size.json"))
        .expect("env")
        .bytes;
    // Packages and V3.0 are counted on the V2 environment's bytes, so that their
    // throughput compares with env's: the same plant, in another format.
    for (name, file) in [
        ("raw", "raw.json"),
        ("env", "env.json"),
        ("aasx", "env.aasx"),
        ("v3-env", "v3.json"),
        ("v3-aasx", "v3.aasx"),
    ] {
        let format: Format = name.parse().expect("a format");
        let path = dir.join(file);
        let written = export(&crawl, format, "bench", &path)
            .expect("export")
            .bytes;
        let counted = if matches!(format, Format::Raw | Format::Env) {
            written
        } else {
            env_bytes
        };
        eprintln!("export {name}: {written} bytes written, throughput counted on {counted}");
        g.throughput(Throughput::Bytes(counted));
        g.bench_function(name, |b| {
            b.iter(|| export(&crawl, format, "bench", &path).expect("export"))
        });
    }
    g.finish();
    std::fs::remove_dir_all(&dir).expect("temp dir removed");
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_export
}
criterion_main!(benches);
