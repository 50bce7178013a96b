//! The demo service as an AAS V3 server (the Part 2 API's read routes at `/api/v3.0`):
//! judged by the IDTA's own server tests (aas-test-engines through `aasv3-check server`),
//! and checked to serve exactly what the customers share, as the gateway does.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use aas_demo::Config;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use common::{Fixture, MACHINE, TOOL, USER_ASSET};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const PROFILES: [&str; 2] = [
    "https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRepositoryServiceSpecification/SSP-002",
    "https://admin-shell.io/aas/API/3/0/SubmodelRepositoryServiceSpecification/SSP-002",
];

fn b64(id: &str) -> String {
    URL_SAFE_NO_PAD.encode(id)
}

impl Fixture {
    fn v3(&self, rest: &str) -> String {
        let base = self.demo_service.info().v3_url.clone();
        format!("{}{rest}", base.expect("the V3 server is on by default"))
    }

    async fn v3_get(&self, rest: &str) -> common::Answer {
        common::answer(self.http.get(self.v3(rest)).send().await.expect("GET")).await
    }

    /// Every shell id, page by page (`limit` a page) as a client follows the cursor.
    async fn shell_ids_paged(&self, limit: usize) -> Vec<String> {
        let mut ids = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let at = cursor.map_or(String::new(), |c| format!("&cursor={c}"));
            let page = self.v3_get(&format!("/shells?limit={limit}{at}")).await;
            assert_eq!(page.status, StatusCode::OK, "{page:?}");
            let result = page.body["result"].as_array().expect("result");
            assert!(result.len() <= limit);
            ids.extend(
                result
                    .iter()
                    .map(|s| s["id"].as_str().expect("present").to_owned()),
            );
            match page.body["paging_metadata"]["cursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => return ids,
            }
        }
    }
}

/// The lines of the judge's JSON report at level `level` (1 warning, 2 error, 3 critical).
fn at_level(node: &Value, level: u64, found: &mut Vec<String>) {
    if node["l"].as_u64() == Some(level) && node["s"].as_array().is_none_or(Vec::is_empty) {
        found.push(node["m"].as_str().unwrap_or_default().trim().to_owned());
    }
    for child in node["s"].as_array().into_iter().flatten() {
        at_level(child, level, found);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_idta_server_tests_pass_for_both_read_profiles() {
    let f = Fixture::start(Config::default()).await;
    for profile in PROFILES {
        let url = f.v3("");
        let out = tokio::task::spawn_blocking(move || {
            Command::new(tool_path())
                .args(["server", &url, profile, "--output", "json"])
                .output()
                .expect("aasv3-check runs")
        })
        .await
        .expect("present");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "{profile}: no report ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        at_level(&report, 2, &mut errors);
        at_level(&report, 3, &mut errors);
        at_level(&report, 1, &mut warnings);
        assert!(
            out.status.success() && errors.is_empty(),
            "{profile}: {errors:#?}"
        );
        // What is left are the judge's words on the demo's data, not on the server: element
        // types the demo plant does not hold, and no concept descriptions; and one of its
        // own (its suite of elements' `$reference` never keeps the cursor it is given, so
        // it says there is one entity where a page of one came with a cursor).
        for warning in &warnings {
            assert!(
                warning == "No such element present"
                    || warning.ends_with("skipping test.")
                    || warning == "contains conceptDescriptions: Fail"
                    || warning == "Cannot check pagination, there must be at least 2 entities",
                "{profile}: warning {warning:?}"
            );
        }
        let mut summary = Vec::new();
        at_level(&report, 0, &mut summary);
        let passed: Vec<_> = summary
            .iter()
            .filter(|l| l.contains("tests passed"))
            .collect();
        assert_eq!(passed.len(), 2, "{summary:?}");
        for line in passed {
            let (done, all) = line
                .rsplit_once(": ")
                .expect("present")
                .1
                .split_once(" / ")
                .expect("present");
            assert!(done == all && all != "0", "{profile}: {line}");
            println!("{profile}: {line}");
        }
    }
}

fn tool_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/aasv3-check")
}

#[tokio::test(flavor = "multi_thread")]
async fn it_serves_what_the_customer_shares_and_follows_the_admins_changes() {
    let f = Fixture::start(Config::default()).await;
    let all = f.v3_get("/shells").await;
    let ids: HashSet<String> = (all.body["result"].as_array().expect("present").iter())
        .map(|s| s["id"].as_str().expect("present").to_owned())
        .collect();
    // The gateway's registry lists what is shared with the demo application: the same.
    let registry = f
        .get(
            &format!("{}/api/v1/registry", f.demo_service.info().registry_url),
            Some(&f.token().await),
            None,
        )
        .await;
    let shared: HashSet<String> = (registry.body.as_array().expect("present").iter())
        .map(|d| {
            d["identification"]["id"]
                .as_str()
                .expect("present")
                .to_owned()
        })
        .collect();
    assert_eq!(ids, shared);
    assert!(
        ids.contains(MACHINE) && !ids.contains(USER_ASSET),
        "people are not shared"
    );
    assert_eq!(
        f.v3_get(&format!("/shells/{}", b64(USER_ASSET)))
            .await
            .status,
        404
    );

    // A submodel reached directly and through its shell is the same.
    let shell = f.v3_get(&format!("/shells/{}", b64(MACHINE))).await.body;
    let nameplate = shell["submodels"][0]["keys"][0]["value"]
        .as_str()
        .expect("present");
    let direct = f.v3_get(&format!("/submodels/{}", b64(nameplate))).await;
    let via = f
        .v3_get(&format!(
            "/shells/{}/submodels/{}",
            b64(MACHINE),
            b64(nameplate)
        ))
        .await;
    assert_eq!(
        (direct.status, via.status),
        (StatusCode::OK, StatusCode::OK)
    );
    assert_eq!(direct.body, via.body);
    // …but not through a shell that does not refer to it.
    let other = f
        .v3_get(&format!(
            "/shells/{}/submodels/{}",
            b64(TOOL),
            b64(nameplate)
        ))
        .await;
    assert_eq!(other.status, 404, "{other:?}");

    // An admin's change of a value shows at once, typed in the value-only form.
    let changed = f
        .admin(
            Method::PATCH,
            "/elements",
            json!({"aas_id": MACHINE, "submodel": "Nameplate", "path": ["SerialNumber"], "value": "SN-V3"}),
        )
        .await;
    assert_eq!(changed.status, 204, "{changed:?}");
    let value = f
        .v3_get(&format!(
            "/submodels/{}/submodel-elements/SerialNumber/$value",
            b64(nameplate)
        ))
        .await;
    assert_eq!(value.body, json!({"SerialNumber": "SN-V3"}));

    // A grant withdrawn, an asset removed: gone from the V3 server too.
    f.set_grant(TOOL, "denied").await;
    assert_eq!(
        f.v3_get(&format!("/shells/{}", b64(TOOL))).await.status,
        404
    );
    let removed = f
        .admin(
            Method::DELETE,
            &format!("/assets/{}", aas_model::encode_segment(MACHINE)),
            Value::Null,
        )
        .await;
    assert_eq!(removed.status, 204, "{removed:?}");
    assert_eq!(
        f.v3_get(&format!("/submodels/{}", b64(nameplate)))
            .await
            .status,
        404
    );
    let left = f.shell_ids_paged(100).await;
    assert_eq!(left.len(), ids.len() - 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn paging_hands_every_shell_once_whatever_the_page_size() {
    let f = Fixture::start(Config::default()).await;
    let whole = f.shell_ids_paged(1000).await;
    assert!(whole.len() > 10);
    for limit in [1, 5, whole.len() - 1, whole.len()] {
        assert_eq!(f.shell_ids_paged(limit).await, whole, "limit {limit}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn refusals_are_the_apis_error_results() {
    let f = Fixture::start(Config::default()).await;
    let nameplate = format!("{MACHINE}/Nameplate").replace(":aas:", ":sm:");
    let sm = b64(&nameplate);
    for (rest, status) in [
        ("/shells/not%20base64!".to_owned(), 400),
        (format!("/shells/{}", b64("urn:nobody")), 404),
        ("/shells?cursor=abc".to_owned(), 400),
        ("/shells?limit=0".to_owned(), 400),
        (format!("/shells?assetIds={}", b64("not json")), 400),
        ("/no/such/route".to_owned(), 404),
        (format!("/submodels/{sm}?level=everything"), 400),
        (format!("/submodels/{sm}/submodel-elements/Address[0]"), 404),
        (format!("/submodels/{sm}/submodel-elements/a..b"), 400),
        (
            format!("/submodels/{sm}/submodel-elements/SerialNumber/$path"),
            400,
        ),
        (
            "/serialization?includeConceptDescriptions=maybe".to_owned(),
            400,
        ),
    ] {
        let a = f.v3_get(&rest).await;
        assert_eq!(a.status.as_u16(), status, "{rest}: {a:?}");
        let message = &a.body["messages"][0];
        assert_eq!(message["code"], status.to_string(), "{rest}: {a:?}");
        assert_eq!(message["messageType"], "Error");
        assert!(message["text"].as_str().is_some_and(|t| !t.is_empty()));
    }
    // A filter on the globalAssetId finds its shell alone.
    let shell = f.v3_get(&format!("/shells/{}", b64(MACHINE))).await.body;
    let asset_id =
        json!({"name": "globalAssetId", "value": shell["assetInformation"]["globalAssetId"]});
    let found = f
        .v3_get(&format!("/shells?assetIds={}", b64(&asset_id.to_string())))
        .await;
    let found = found.body["result"].as_array().expect("present");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["id"], MACHINE);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_without_a_v3_server_offers_none() {
    let f = Fixture::start(Config {
        v3_server: false,
        ..Config::default()
    })
    .await;
    assert_eq!(f.demo_service.info().v3_url, None);
    let url = format!("{}/api/v3.0/shells", f.demo_service.info().registry_url);
    assert_eq!(f.get(&url, None, None).await.status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_submodel_two_shells_refer_to_is_listed_once_and_served_while_one_is_shared() {
    let mut plant = aas_demo::demo_plant("P", 16, 3);
    let (first, second) = (plant.assets[0].clone(), plant.assets[1].clone());
    let shared = first.submodels[0].clone();
    plant.assets[1].submodels.insert(0, shared.clone());
    let id = shared["identification"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let f = Fixture::start(Config {
        plants: vec![plant],
        ..Config::default()
    })
    .await;
    let listed = f.v3_get("/submodels").await;
    let ids: Vec<&str> = (listed.body["result"].as_array().expect("result").iter())
        .filter_map(|sm| sm["id"].as_str())
        .filter(|sm| *sm == id)
        .collect();
    assert_eq!(ids.len(), 1, "listed once");
    f.set_grant(&first.aas_id, "denied").await;
    let still = f.v3_get(&format!("/submodels/{}", b64(&id))).await;
    assert_eq!(
        still.status, 200,
        "the second shell's asset still shares it: {still:?}"
    );
    f.set_grant(&second.aas_id, "denied").await;
    assert_eq!(
        f.v3_get(&format!("/submodels/{}", b64(&id))).await.status,
        404
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_whole_server_in_one_answer_is_bounded_and_says_how_to_ask() {
    // 3,500 assets: about 3,000 shells and 18,000 submodels, more than one answer holds.
    let f = Fixture::start(Config {
        plants: vec![aas_demo::demo_plant("P", 3500, 1)],
        ..Config::default()
    })
    .await;
    let whole = f.v3_get("/serialization").await;
    assert_eq!(whole.status, 413, "{:?}", whole.body);
    let text = whole.body["messages"][0]["text"].as_str().expect("text");
    assert!(text.contains("aasIds and submodelIds"), "{text}");
    let shell = &f.v3_get("/shells?limit=1").await.body["result"][0];
    let one = f
        .v3_get(&format!(
            "/serialization?aasIds={}",
            b64(shell["id"].as_str().expect("id"))
        ))
        .await;
    assert_eq!(one.status, 200);
    assert_eq!(one.body["assetAdministrationShells"][0]["id"], shell["id"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn its_registry_describes_every_shell_with_endpoints_that_answer() {
    let f = Fixture::start(Config::default()).await;
    let description = f.v3_get("/description").await;
    assert!(
        description.body["profiles"].as_array().expect("profiles").iter().any(|p| p
            == "https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRegistryServiceSpecification/SSP-002"),
        "{description:?}"
    );
    let shells = f.shell_ids_paged(1000).await;
    let listed = f.v3_get("/shell-descriptors?limit=1000").await;
    let descriptors = listed.body["result"].as_array().expect("result").clone();
    let described: Vec<&str> = descriptors
        .iter()
        .map(|d| d["id"].as_str().expect("id"))
        .collect();
    assert_eq!(
        described, shells,
        "a descriptor per shell, in the same order"
    );

    // Each endpoint answers what it describes; each submodel the shell names has one.
    let first = &descriptors[0];
    let href = first["endpoints"][0]["protocolInformation"]["href"]
        .as_str()
        .expect("href");
    assert_eq!(first["endpoints"][0]["interface"], "AAS-3.0");
    let shell = common::answer(f.http.get(href).send().await.expect("GET")).await;
    assert_eq!(shell.body["id"], first["id"]);
    let named: Vec<&Value> = (shell.body["submodels"].as_array().expect("refs").iter())
        .map(|r| &r["keys"][0]["value"])
        .collect();
    let submodels = first["submodelDescriptors"]
        .as_array()
        .expect("submodel descriptors");
    assert_eq!(
        submodels.iter().map(|d| &d["id"]).collect::<Vec<_>>(),
        named
    );
    for d in submodels {
        let href = d["endpoints"][0]["protocolInformation"]["href"]
            .as_str()
            .expect("href");
        let submodel = common::answer(f.http.get(href).send().await.expect("GET")).await;
        assert_eq!(submodel.body["id"], d["id"], "{href}");
    }

    // One by its id, its submodels' descriptors, and the filters.
    let id = b64(first["id"].as_str().expect("id"));
    let one = f.v3_get(&format!("/shell-descriptors/{id}")).await;
    assert_eq!(&one.body, first);
    let sm = b64(submodels[0]["id"].as_str().expect("id"));
    let sub = f
        .v3_get(&format!(
            "/shell-descriptors/{id}/submodel-descriptors/{sm}"
        ))
        .await;
    assert_eq!(&sub.body, &submodels[0]);
    let all_subs = f
        .v3_get(&format!("/shell-descriptors/{id}/submodel-descriptors"))
        .await;
    assert_eq!(all_subs.body["result"].as_array(), Some(submodels));
    let instances = f
        .v3_get("/shell-descriptors?assetKind=Instance&limit=1000")
        .await;
    assert_eq!(
        instances.body["result"].as_array().map(Vec::len),
        Some(shells.len())
    );
    let types = f.v3_get("/shell-descriptors?assetKind=Type").await;
    assert_eq!(types.body["result"], json!([]));
    let unknown = f
        .v3_get(&format!("/shell-descriptors/{}", b64("urn:nobody")))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}
