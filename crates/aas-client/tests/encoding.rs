//! Property test: arbitrary identifiers (with `#`, `/`, `:`, `+`, `%`, `?`, `&`, `=`,
//! spaces, non-ASCII…) round-trip through the client's one encoder and the demo service's
//! router: what is asked for is what comes back.

mod support;

use std::collections::BTreeSet;

use aas_client::Client;
use aas_demo::{demo_plant, Config, DemoService, GrantSeed, Plant};
use proptest::prelude::*;
use serde_json::json;

/// Ids as they occur in the wild and worse. A segment of only dots cannot be addressed
/// in any URL path (`.` and `..` are removed by normalisation), so none is generated.
fn id() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9#/:+%?&= ._~äöüß€中-]{1,24}|\\PC{1,12}"
        .prop_filter("not only dots", |s| !s.chars().all(|c| c == '.'))
}

/// A plant whose assets carry `ids` as aasIds and, in turn, as their first submodel's idShort.
fn plant(ids: &[String]) -> Plant {
    let mut plant = demo_plant("PROP", ids.len(), 1);
    for (asset, id) in plant.assets.iter_mut().zip(ids) {
        asset.aas_id = id.clone();
        asset.shell["identification"]["id"] = json!(id);
        asset.submodels[0]["idShort"] = json!(id);
    }
    plant
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_ids_round_trip_through_the_demo_service(ids in prop::collection::btree_set(id(), 1..10)) {
        let ids: Vec<String> = ids.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async {
            // Every generated asset shared, whatever its type.
            let grants = GrantSeed::AllowedExcept(Vec::new());
            let sb = DemoService::start(Config { plants: vec![plant(&ids)], grants, ..Config::default() })
                .await
                .expect("demo-service");
            let client = Client::new(support::connection(&sb)).expect("client");
            for id in &ids {
                let shell = client.aas(id).await.unwrap_or_else(|e| panic!("{id:?}: {e}"));
                assert_eq!(shell.view().expect("shell").id(), id);
                let sm = client.submodel(id, id).await.unwrap_or_else(|e| panic!("{id:?}/{id:?}: {e}"));
                assert_eq!(&sm.view().expect("submodel").id_short, id);
            }
        });
    }
}
