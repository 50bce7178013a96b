#![allow(dead_code)] // each test binary that includes it uses part of it
//! The demo service on a loopback port and a client of it, as the store's tests crawl it
//! into stores, and what they compare between two stores.

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use aas_client::{Client, Connection, Crawl, CrawlPlan};
use aas_demo::{Config, DemoService, DEMO_PLANT};
use aas_export::Format;
use aas_model::AssetType;
use aas_snapshot::{SnapshotInfo, Store};
use aas_source::{Fetched, Selection};
use tokio_util::sync::CancellationToken;

/// The demo service (kept running while held) and a client built from its start-up line.
pub async fn demo() -> (DemoService, Arc<Client>) {
    let demo_service = DemoService::start(Config::default())
        .await
        .expect("demo-service");
    let line = serde_json::to_string(demo_service.info()).expect("json");
    let conn: Connection = serde_json::from_str(&line).expect("connection");
    (demo_service, Arc::new(Client::new(conn).expect("client")))
}

/// Crawls the whole demo plant, handing each answer to `answer`.
pub async fn crawl_demo(client: &Arc<Client>, answer: impl FnMut(Fetched) + Send) -> Crawl {
    let plan = CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec());
    let (everything, go_on) = (Selection::everything(), CancellationToken::new());
    client
        .crawl_into(&plan, &everything, &go_on, |_| {}, answer)
        .await
}

/// Crawls the demo plant once into a new snapshot of each store, taken at `at` from
/// source "demo", and ends each as `edit` makes the crawl (failures added make it
/// partial; unreadable parts added are kept).
pub async fn take_into(
    stores: &mut [&mut Store],
    client: &Arc<Client>,
    at: SystemTime,
    edit: impl FnOnce(&mut Crawl),
) -> Vec<SnapshotInfo> {
    let mut writers: Vec<_> = stores
        .iter_mut()
        .map(|s| s.begin("demo", DEMO_PLANT, at).expect("begin"))
        .collect();
    let mut crawl = crawl_demo(client, |answer| {
        for writer in &mut writers {
            writer.answer(answer.clone()).expect("stored");
        }
    })
    .await;
    edit(&mut crawl);
    writers
        .into_iter()
        .map(|w| w.finish_crawl(&crawl).expect("finish"))
        .collect()
}

/// Snapshot `a` of one store and `b` of another export the same files (raw bundle and
/// environment), byte for byte but for the moment each raw bundle was written (two
/// exports a second apart differ there); written into the folder `out`.
pub fn same_exports((one, a): (&Store, i64), (other, b): (&Store, i64), out: &Path) {
    for format in [Format::Raw, Format::Env] {
        let (one_file, other_file) = (out.join("one"), out.join("other"));
        one.export(a, format, &one_file).expect("export");
        other.export(b, format, &other_file).expect("export");
        assert!(
            without_created(&one_file) == without_created(&other_file),
            "{format:?} exports of {a} and {b} differ"
        );
    }
}

/// A file's bytes, with a raw bundle's `"created":"…"` (the export's own time) blanked.
fn without_created(file: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(file).expect("exported");
    let key = b"\"created\":\"";
    if let Some(start) = bytes.windows(key.len()).position(|w| w == key) {
        let value = start + key.len();
        let end = value
            + bytes[value..]
                .iter()
                .position(|&b| b == b'"')
                .expect("closed");
        bytes.drain(value..end);
    }
    bytes
}
