//! Hand-made plants served by a real demo service and crawled over loopback, as the audit
//! meets them; and small edits of submodel JSON by idShort path.

#![allow(dead_code)] // Each test file uses its own part of this.

mod submodels;

use std::sync::Arc;

use aas_client::{Client, Connection, Crawl, CrawlPlan};
use aas_demo::elements::{identification, key, model_type, object, reference};
use aas_demo::{Asset, Config, DemoService, Plant};
use aas_model::AssetType;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use aas_demo::elements::{collection, file, mlp, property, submodel};
pub use submodels::*;

pub const PLANT: &str = "AUDIT-01";

/// A machine whose shell has `submodels`; `name` makes its ids and idShort.
pub fn machine(name: &str, submodels: Vec<Value>) -> Asset {
    asset(AssetType::MACHINE, name, submodels)
}

/// An asset of `asset_type` whose shell has `submodels`.
pub fn asset(asset_type: AssetType, name: &str, submodels: Vec<Value>) -> Asset {
    let aas_id = format!("urn:test:{PLANT}:aas:{asset_type}#{name}");
    let asset_id = format!("urn:test:{PLANT}:asset:{asset_type}#{name}");
    let refs = (submodels.iter())
        .map(|sm| {
            reference(vec![key(
                "Submodel",
                sm["identification"]["id"].as_str().unwrap_or_default(),
            )])
        })
        .collect();
    Asset {
        asset_type,
        code: name.to_owned(),
        shell: object([
            ("modelType", model_type("AssetAdministrationShell")),
            ("idShort", name.into()),
            ("identification", identification(&aas_id)),
            ("asset", reference(vec![key("Asset", &asset_id)])),
            ("submodels", refs),
        ]),
        asset: object([
            ("modelType", model_type("Asset")),
            ("idShort", format!("Asset_{name}").into()),
            ("identification", identification(&asset_id)),
            ("kind", "Instance".into()),
        ]),
        aas_id,
        submodels,
    }
}

/// A submodel of `shell` (its id is unique per shell) with this semanticId.
pub fn submodel_of(shell: &str, id_short: &str, semantic_id: &str, elements: Vec<Value>) -> Value {
    let id = format!("urn:test:{PLANT}:sm:{shell}/{id_short}");
    submodel(id_short, &id, semantic_id, elements)
}

/// Serves `assets` as one plant and crawls all of it (every asset type the demo
/// customer shares: all but `user`).
pub async fn crawl(assets: Vec<Asset>) -> Crawl {
    let demo_service = DemoService::start(Config {
        plants: vec![Plant {
            code: PLANT.into(),
            assets,
        }],
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let line = serde_json::to_string(demo_service.info()).expect("start-up line");
    let connection: Connection = serde_json::from_str(&line).expect("connection");
    let client = Arc::new(Client::new(connection).expect("client"));
    let shared = AssetType::PLATFORM
        .into_iter()
        .filter(|t| *t != AssetType::USER);
    let plan = CrawlPlan::new(PLANT, shared.collect());
    let crawl = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    crawl
}

/// The element at `path` (idShorts joined by `/`) of a submodel.
pub fn at<'v>(submodel: &'v mut Value, path: &str) -> &'v mut Value {
    let mut here = submodel;
    for id_short in path.split('/') {
        let list = match here.get("submodelElements") {
            Some(_) => &mut here["submodelElements"],
            None => &mut here["value"],
        };
        here = list
            .as_array_mut()
            .and_then(|items| items.iter_mut().find(|e| e["idShort"] == id_short))
            .unwrap_or_else(|| panic!("no element {id_short} on the way to {path}"));
    }
    here
}

/// Removes the element at `path`.
pub fn remove(submodel: &mut Value, path: &str) {
    let (parent, name) = match path.rsplit_once('/') {
        Some((parent, name)) => (Some(parent), name),
        None => (None, path),
    };
    let container = match parent {
        Some(parent) => &mut at(submodel, parent)["value"],
        None => &mut submodel["submodelElements"],
    };
    let items = container.as_array_mut().expect("a list of elements");
    let before = items.len();
    items.retain(|e| e["idShort"] != name);
    assert_eq!(items.len(), before - 1, "{path} removed");
}

/// Adds a copy of the element at `path`, named `id_short`, beside it.
pub fn duplicate(submodel: &mut Value, path: &str, id_short: &str) {
    let mut copy = at(submodel, path).clone();
    copy["idShort"] = id_short.into();
    let container = match path.rsplit_once('/') {
        Some((parent, _)) => &mut at(submodel, parent)["value"],
        None => &mut submodel["submodelElements"],
    };
    container.as_array_mut().expect("a list").push(copy);
}

/// The element without its semanticId, as data that names elements only by idShort.
pub fn unnamed(mut element: Value) -> Value {
    if let Some(fields) = element.as_object_mut() {
        fields.remove("semanticId");
    }
    element
}

/// German and English, the plant's languages in these tests.
pub fn texts(en: &str) -> [(&str, &str); 2] {
    [("en", en), ("de", en)]
}
