//! AAS V3 servers that break the Part 2 API's rules, from a small real HTTP server built
//! to break them (the independent server, BaSyx Python's, is in aas-cli's v3_server
//! test): paging ends however the cursors go, within the bound on items; submodels are
//! listed only while a shell waits for one, each shell handed on once its own are in;
//! a listing the server does not offer is made up for by asking for each submodel; a submodel that
//! cannot be had is a failure of its own and the rest is kept; refusals say the server's
//! own words; ids reach the server as base64url, once; a redirect to another origin is
//! not followed; a silent server is left when the reading is cancelled.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use aas_client::{ReadStep, RepositoryPlan, RetryPolicy, Transport, V3Auth, V3Server};
use aas_source::ErrorKind;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

mod support;

#[derive(serde::Deserialize)]
struct Paging {
    limit: Option<usize>,
    cursor: Option<String>,
}

fn shell(id: &str, submodels: &[&str]) -> Value {
    let refs: Vec<Value> = (submodels.iter())
        .map(|sm| json!({"type": "ModelReference", "keys": [{"type": "Submodel", "value": sm}]}))
        .collect();
    json!({"modelType": "AssetAdministrationShell", "id": id, "idShort": "s",
           "assetInformation": {"assetKind": "Instance", "globalAssetId": id}, "submodels": refs})
}

fn submodel(id: &str) -> Value {
    json!({"modelType": "Submodel", "id": id, "idShort": "Nameplate", "submodelElements": [
        {"modelType": "Property", "idShort": "Serial", "valueType": "xs:string", "value": "42"}]})
}

fn page(result: Vec<Value>, cursor: Option<String>) -> Json<Value> {
    Json(json!({"paging_metadata": {"cursor": cursor}, "result": result}))
}

fn server(address: &str) -> Arc<V3Server> {
    let quick = RetryPolicy {
        attempts: 2,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
    };
    let server = V3Server::new(address, V3Auth::None, &Transport::default()).expect("address");
    Arc::new(server.with_retry(quick))
}

fn plan(max_items: usize) -> RepositoryPlan {
    RepositoryPlan {
        page_size: 2,
        max_items,
        ..RepositoryPlan::default()
    }
}

async fn read(
    server: &Arc<V3Server>,
    plan: RepositoryPlan,
) -> aas_client::Result<aas_client::Repository> {
    server
        .read_repository(plan, &CancellationToken::new(), &|_| {}, &mut |_| {})
        .await
}

/// The ids of `items` (each as the server sent it), in order.
fn ids(items: &[aas_client::Item]) -> Vec<String> {
    let id = |i: &aas_client::Item| {
        serde_json::from_str::<Value>(i.get()).ok()?["id"]
            .as_str()
            .map(str::to_owned)
    };
    items.iter().filter_map(id).collect()
}

#[tokio::test]
async fn paging_ends_on_an_empty_page_a_repeated_cursor_or_the_bound_on_items() {
    let app = Router::new()
        // BaSyx Python 1.2: a cursor past the end, forever, with an empty page.
        .route(
            "/basyx/shells",
            get(|Query(p): Query<Paging>| async move {
                let from: usize = p.cursor.as_deref().map_or(0, |c| c.parse().expect("n"));
                let all: Vec<Value> = (0..5).map(|i| shell(&format!("urn:s{i}"), &[])).collect();
                let limit = p.limit.expect("a limit is sent");
                let items = all.into_iter().skip(from).take(limit).collect();
                page(items, Some((from + limit).to_string()))
            }),
        )
        // A cursor that comes back: the walk would loop.
        .route(
            "/repeat/shells",
            get(|Query(p): Query<Paging>| async move {
                let n = if p.cursor.is_some() { 1 } else { 0 };
                page(vec![shell(&format!("urn:r{n}"), &[])], Some("again".into()))
            }),
        )
        // A new cursor and a new shell for ever, pages larger than asked.
        .route(
            "/endless/shells",
            get(|Query(p): Query<Paging>| async move {
                let n: usize = p.cursor.as_deref().map_or(0, |c| c.parse().expect("n"));
                let items = (0..3)
                    .map(|i| shell(&format!("urn:e{}", n * 3 + i), &[]))
                    .collect();
                page(items, Some((n + 1).to_string()))
            }),
        )
        // Every server here lists no submodels.
        .route("/{kind}/submodels", get(|| async { page(vec![], None) }));
    let (base, received) = support::serve_counting(app).await;

    let basyx = read(&server(&format!("{base}/basyx")), plan(1000))
        .await
        .expect("read");
    assert_eq!(
        ids(&basyx.shells),
        ["urn:s0", "urn:s1", "urn:s2", "urn:s3", "urn:s4"]
    );
    assert!(basyx.reading.complete());

    let repeat = read(&server(&format!("{base}/repeat")), plan(1000))
        .await
        .expect("read");
    assert_eq!(ids(&repeat.shells), ["urn:r0", "urn:r1"]);
    assert!(
        repeat.reading.complete(),
        "a repeated cursor is the server's end"
    );

    let before = received.load(Ordering::SeqCst);
    let endless = read(&server(&format!("{base}/endless")), plan(10))
        .await
        .expect("read");
    assert_eq!(
        endless.shells.len(),
        10,
        "held to the bound, pages larger than asked read"
    );
    assert!(endless.reading.bounded && !endless.reading.complete());
    let asked = received.load(Ordering::SeqCst) - before;
    assert!(
        asked <= 6,
        "4 pages of shells and 1 of submodels, not more: {asked}"
    );
}

#[tokio::test]
async fn submodels_are_listed_only_while_a_shell_waits_and_each_shell_comes_with_its_own() {
    // Submodels listed last shell first, then unnamed ones for ever, a new cursor each.
    let app = Router::new()
        .route(
            "/shells",
            get(|| async {
                let shells = (0..3)
                    .map(|i| shell(&format!("urn:s{i}"), &[&format!("urn:sm{i}")]))
                    .collect();
                page(shells, None)
            }),
        )
        .route(
            "/submodels",
            get(|Query(p): Query<Paging>| async move {
                let n: usize = p.cursor.as_deref().map_or(0, |c| c.parse().expect("n"));
                let id = match n {
                    0..=2 => format!("urn:sm{}", 2 - n),
                    _ => format!("urn:unnamed{n}"),
                };
                page(vec![submodel(&id)], Some((n + 1).to_string()))
            }),
        );
    let (base, received) = support::serve_counting(app).await;
    let (mut steps, mut listed) = (Vec::new(), 0);
    let reading = server(&base)
        .read_each_shell(
            plan(1000),
            &CancellationToken::new(),
            &|_| {},
            &mut |step| {
                steps.push(match step {
                    ReadStep::Listed(shell) => {
                        listed += 1; // the nth listed is at place n - 1
                        format!("listed {} {}", listed - 1, ids(&[shell])[0])
                    }
                    ReadStep::AllListed => "all listed".into(),
                    ReadStep::Gathered(g) => {
                        let own = g
                            .submodels
                            .iter()
                            .map(|s| (**s).clone())
                            .collect::<Vec<_>>();
                        format!("gathered {} {} {:?}", g.at, g.aas_id, ids(&own))
                    }
                })
            },
        )
        .await
        .expect("read");
    assert!(reading.complete(), "{:?}", reading.failures);
    assert_eq!(
        steps,
        [
            "listed 0 urn:s0",
            "listed 1 urn:s1",
            "listed 2 urn:s2",
            "all listed",
            r#"gathered 2 urn:s2 ["urn:sm2"]"#,
            r#"gathered 1 urn:s1 ["urn:sm1"]"#,
            r#"gathered 0 urn:s0 ["urn:sm0"]"#,
        ],
        "every shell told as listed, then each again as soon as it is complete"
    );
    assert_eq!(
        received.load(Ordering::SeqCst),
        4,
        "one page of shells, three of submodels: no more once nothing waits"
    );
}

#[tokio::test]
async fn submodels_not_listed_are_asked_for_by_id_and_one_that_fails_is_its_own_failure() {
    let asked_ids = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked_ids);
    let app = Router::new()
        .route(
            "/api/v3.0/shells",
            get(|| async {
                page(vec![shell("urn:aas:1", &["urn:sm:ok/ä?#", "urn:sm:gone"])], None)
            }),
        )
        // The listing is not offered, in the Part 2 API's words.
        .route(
            "/api/v3.0/submodels",
            get(|| async {
                let result = json!({"messages": [{"code": "NotImplemented", "messageType": "Error",
                                                  "text": "This route is not implemented!"}]});
                (StatusCode::NOT_IMPLEMENTED, Json(result))
            }),
        )
        .route(
            "/api/v3.0/submodels/{id}",
            get(move |Path(segment): Path<String>| {
                let seen = Arc::clone(&seen);
                async move {
                    seen.lock().expect("lock").push(segment.clone());
                    let id = URL_SAFE_NO_PAD.decode(&segment).ok().and_then(|b| String::from_utf8(b).ok());
                    match id.as_deref() {
                        Some("urn:sm:ok/ä?#") => Json(submodel("urn:sm:ok/ä?#")).into_response(),
                        _ => {
                            let result = json!({"messages": [{"code": "404", "messageType": "Error",
                                                              "text": "No Submodel with this id"}]});
                            (StatusCode::NOT_FOUND, Json(result)).into_response()
                        }
                    }
                }
            }),
        );
    let (base, _) = support::serve_counting(app).await;
    let read = read(&server(&format!("{base}/api/v3.0/")), plan(1000))
        .await
        .expect("read");
    assert_eq!(ids(&read.submodels), ["urn:sm:ok/ä?#"]);
    // Base64url without padding, and not encoded again.
    let mut asked = asked_ids.lock().expect("lock").clone();
    asked.sort();
    assert_eq!(asked, ["dXJuOnNtOm9rL8OkPyM", "dXJuOnNtOmdvbmU"]);
    assert_eq!(
        read.reading.failures.len(),
        1,
        "{:?}",
        read.reading.failures
    );
    let failure = &read.reading.failures[0];
    assert_eq!(failure.kind, ErrorKind::NotFound);
    assert!(
        failure.message.contains("No Submodel with this id"),
        "{}",
        failure.message
    );
    assert!(
        failure.url.ends_with("/api/v3.0/submodels/dXJuOnNtOmdvbmU"),
        "{}",
        failure.url
    );
    assert!(!read.reading.complete());
}

#[tokio::test]
async fn a_refusal_says_the_servers_words_and_a_redirect_elsewhere_is_not_followed() {
    let app = Router::new()
        .route(
            "/refuses/shells",
            get(|| async {
                let result = json!({"success": false, "messages": [{"code": "Forbidden",
                    "messageType": "Error", "text": "Token lacks the scope aas:read"}]});
                (StatusCode::FORBIDDEN, Json(result)).into_response()
            }),
        )
        .route(
            "/elsewhere/shells",
            get(|| async { Redirect::temporary("http://127.0.0.2:9/shells").into_response() }),
        )
        .route("/{kind}/submodels", get(|| async { page(vec![], None) }));
    let (base, _) = support::serve_counting(app).await;
    let refused = read(&server(&format!("{base}/refuses")), plan(1000))
        .await
        .expect_err("refused");
    assert_eq!(refused.kind(), ErrorKind::NotAllowed);
    let words = refused.to_string();
    assert!(words.contains("the server refused access"), "{words}");
    assert!(
        !words.contains("user token"),
        "not the platform's words: {words}"
    );
    assert!(
        words.contains("Forbidden: Token lacks the scope aas:read"),
        "{words}"
    );
    let redirected = read(&server(&format!("{base}/elsewhere")), plan(1000))
        .await
        .expect_err("not followed");
    assert!(
        format!("{redirected:?}").contains("another origin"),
        "{redirected:?}"
    );
}

#[tokio::test]
async fn a_silent_server_is_left_when_the_reading_is_cancelled() {
    let app = Router::new().route(
        "/silent/{route}",
        get(|| async {
            tokio::time::sleep(Duration::from_secs(600)).await;
            Response::new(axum::body::Body::empty())
        }),
    );
    let (base, _) = support::serve_counting(app).await;
    let cancel = CancellationToken::new();
    let later = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        later.cancel();
    });
    let server = server(&format!("{base}/silent"));
    let read = tokio::time::timeout(
        Duration::from_secs(10),
        server.read_repository(plan(1000), &cancel, &|_| {}, &mut |_| {}),
    )
    .await
    .expect("ends when cancelled")
    .expect("what was read");
    assert!(read.reading.cancelled && read.shells.is_empty() && !read.reading.complete());
}

#[test]
fn plain_http_elsewhere_and_addresses_with_a_query_are_refused() {
    let plain = V3Server::new(
        "http://aas.example.com/api/v3.0",
        V3Auth::None,
        &Transport::default(),
    );
    assert!(plain.is_err());
    let query = V3Server::new(
        "https://aas.example.com/shells?limit=1",
        V3Auth::None,
        &Transport::default(),
    );
    assert!(query
        .expect_err("refused")
        .to_string()
        .contains("without a query"));
}
