//! Parse throughput of the typed model against the ceiling for serde: plain
//! `serde_json::Value` parsing of the same bytes (`cargo bench -p aas-model --bench parse`).
//!
//! Three inputs: every public JSON sample under `shared/aas-samples` (the schema aside),
//! each read as the type its shape calls for, and generated 1,000- and 10,000-asset
//! environments (`aas_demo::environment` of a demo plant, what an environment export
//! of the plant's crawl holds). `bench/run.sh` reads the medians from
//! `target/criterion/` and writes the ratio to `bench/RESULTS.md`.

use std::hint::black_box;
use std::time::Duration;

use aas_model::{parse, Environment, RawElement, SubmodelElement};
#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;

/// Reads a document into the typed model its shape calls for.
type Reader = fn(&str) -> bool;

/// Every sample's text (without a UTF-8 BOM) and the typed reader for its shape.
fn samples() -> Vec<(String, Reader)> {
    let files = support::sample_files();
    assert!(
        !files.is_empty(),
        "no samples under {}",
        support::shared_dir().display()
    );
    files
        .iter()
        .map(|f| {
            let text = support::read_text(f);
            let json: Value = serde_json::from_str(&text).expect("well-formed JSON");
            let parses = support::shape(&json).parses;
            assert!(
                parses(&text),
                "{}: the typed model cannot read it",
                f.display()
            );
            (text, parses)
        })
        .collect()
}

fn bench_samples(c: &mut Criterion) {
    let docs = samples();
    let total: usize = docs.iter().map(|(b, _)| b.len()).sum();
    let mut g = c.benchmark_group("parse-samples");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("typed", |b| {
        b.iter(|| {
            for (bytes, read) in &docs {
                let text = std::str::from_utf8(black_box(bytes.as_bytes())).expect("UTF-8");
                black_box(read(text));
            }
        })
    });
    g.bench_function("value", |b| {
        b.iter(|| {
            for (bytes, _) in &docs {
                let v: Value = serde_json::from_slice(black_box(bytes.as_bytes())).expect("JSON");
                black_box(v);
            }
        })
    });
    g.finish();
}

/// Types an element and, below it, every nested element (the typed model keeps nested
/// elements as text until asked); returns how many were typed.
fn type_deep(raw: &RawElement) -> usize {
    match parse::<SubmodelElement>(raw.get()) {
        Ok(e) => {
            1 + e
                .nested()
                .map(|(_, nested)| type_deep(nested))
                .sum::<usize>()
        }
        Err(_) => 0,
    }
}

/// The environment, and every submodel element in it at every depth, typed.
fn parse_deep(text: &str) -> usize {
    let env = parse::<Environment>(text).expect("environment");
    env.submodels
        .iter()
        .flat_map(|sm| sm.submodel_elements.iter())
        .map(type_deep)
        .sum()
}

/// The environment of a generated plant of `assets` assets, as an environment export
/// of its crawl would hold it.
fn bench_environment(c: &mut Criterion, assets: usize) {
    let env = aas_demo::environment(&aas_demo::demo_plant("P", assets, 1));
    let bytes = serde_json::to_vec(&env).expect("serialisable environment");
    drop(env);
    assert!(
        parse::<Environment>(std::str::from_utf8(&bytes).expect("UTF-8")).is_ok(),
        "the typed model reads the generated environment"
    );
    let typed = parse_deep(std::str::from_utf8(&bytes).expect("UTF-8"));
    let group = format!("parse-env-{assets}");
    eprintln!(
        "{group}: {} bytes, {typed} submodel elements typed",
        bytes.len()
    );
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("typed", |b| {
        b.iter(|| {
            let text = std::str::from_utf8(black_box(&bytes)).expect("UTF-8");
            black_box(parse::<Environment>(text).expect("environment"))
        })
    });
    g.bench_function("typed-deep", |b| {
        b.iter(|| {
            let text = std::str::from_utf8(black_box(&bytes)).expect("UTF-8");
            black_box(parse_deep(text))
        })
    });
    g.bench_function("value", |b| {
        b.iter(|| {
            let v: Value = serde_json::from_slice(black_box(&bytes)).expect("JSON");
            black_box(v)
        })
    });
    g.finish();
}

/// The plants' sizes: `PARSE_ASSETS` if set (`make bench-smoke` runs a small one), else
/// 1,000 and 10,000 assets.
fn bench_environments(c: &mut Criterion) {
    let sizes = std::env::var("PARSE_ASSETS").unwrap_or_else(|_| "1000 10000".to_owned());
    for assets in sizes.split_whitespace() {
        bench_environment(c, assets.parse().expect("PARSE_ASSETS: numbers of assets"));
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_samples, bench_environments
}
criterion_main!(benches);
