//! A crawl always ends, and the server's input bounds it, not trust: one URL that
//! always fails fails alone, a service that stays away is waited for only so long,
//! repeated ids are fetched once, the node count is capped, and the token answer and
//! a silent connection are bounded too. The demo service sits behind a real TCP proxy that
//! resets chosen requests; the repeats come from a small server built to send them.

mod support;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aas_client::{Client, Connection, Crawl, CrawlPlan, RetryPolicy};
use aas_demo::DEMO_PLANT;
use aas_model::{encode_segment, AssetType};
use aas_source::{ErrorKind, NodePath};
use axum::body::{Body, Bytes};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

/// Longer than any crawl here takes; a crawl that hangs fails the test instead.
const HANG: Duration = Duration::from_secs(120);

fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        attempts: 3,
        base_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(100),
    }
}

/// A TCP proxy in front of `upstream` that resets (RST, no answer) every request for
/// which `reset(n, request_line)` holds, `n` counting requests from 0. Each request is
/// sent upstream with `Connection: close`, so every request comes on a new connection
/// and is looked at.
async fn reset_proxy(
    upstream: SocketAddr,
    reset: impl Fn(usize, &str) -> bool + Send + Sync + 'static,
) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let reset = Arc::new(reset);
    let count = Arc::new(AtomicUsize::new(0));
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let (reset, count) = (Arc::clone(&reset), Arc::clone(&count));
            tokio::spawn(async move {
                let _ = forward(client, upstream, |line| {
                    reset(count.fetch_add(1, Ordering::SeqCst), line)
                })
                .await;
            });
        }
    });
    addr
}

async fn forward(
    mut client: TcpStream,
    upstream: SocketAddr,
    reset: impl FnOnce(&str) -> bool,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if client.read(&mut byte).await? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let (line, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
    if reset(line) {
        client.set_zero_linger()?;
        return Ok(());
    }
    let length: usize = headers
        .lines()
        .filter_map(|h| h.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    client.read_exact(&mut body).await?;
    let mut server = TcpStream::connect(upstream).await?;
    server
        .write_all(format!("{line}\r\nConnection: close\r\n{headers}").as_bytes())
        .await?;
    server.write_all(&body).await?;
    tokio::io::copy(&mut server, &mut client).await?;
    client.shutdown().await
}

/// The demo service's connection with every URL pointing at `proxy`. The token endpoint is
/// given outright: the demo service's discovery document names its own address, which a
/// client that reaches it through a proxy must not send the secret to.
fn through(conn: &Connection, demo_service: SocketAddr, proxy: SocketAddr) -> Connection {
    let swap = |url: &str| url.replace(&demo_service.to_string(), &proxy.to_string());
    Connection {
        registry_url: swap(&conn.registry_url),
        gateway_url: swap(&conn.gateway_url),
        auth_url: swap(&conn.auth_url),
        token_url: Some(format!(
            "http://{proxy}/auth/realms/{}/protocol/openid-connect/token",
            conn.realm
        )),
        ..conn.clone()
    }
}

fn demo_plan() -> CrawlPlan {
    CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec())
}

/// Runs a crawl that must end, recording whether it ever reported the service offline.
async fn crawl(client: Client, plan: &CrawlPlan) -> (Crawl, bool) {
    let client = Arc::new(client);
    let was_offline = AtomicBool::new(false);
    let crawl = tokio::time::timeout(
        HANG,
        client.crawl(plan, &CancellationToken::new(), |p| {
            if p.offline {
                was_offline.store(true, Ordering::SeqCst);
            }
        }),
    )
    .await
    .expect("the crawl ends");
    (crawl, was_offline.into_inner())
}

/// One line of figures for docs/RELIABILITY.md (`-- --nocapture`).
fn report(what: &str, crawl: &Crawl) {
    let took = crawl
        .finished
        .duration_since(crawl.started)
        .unwrap_or_default();
    eprintln!(
        "{what}: {} fetched, {} failed, {} retries, {} probes, {:.1} s",
        crawl.fetched.len(),
        crawl.failures.len(),
        crawl.retries,
        crawl.probes,
        took.as_secs_f64()
    );
}

/// Every node is recorded once: as an answer or as a failure.
fn assert_each_node_once(crawl: &Crawl) {
    let paths: HashSet<&NodePath> = crawl
        .fetched
        .iter()
        .map(|f| &f.path)
        .chain(crawl.failures.iter().map(|f| &f.path))
        .collect();
    assert_eq!(
        paths.len(),
        crawl.fetched.len() + crawl.failures.len(),
        "a node recorded twice"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_url_that_always_resets_fails_alone_and_the_crawl_ends() {
    let sb = support::demo_service().await;
    let conn = support::connection(&sb);
    let whole = Client::new(conn.clone()).expect("client");
    let (baseline, _) = crawl(whole, &demo_plan()).await;
    assert!(baseline.failures.is_empty(), "{:?}", baseline.failures);

    let aas_id = format!("urn:demo-platform:acme:{DEMO_PLANT}:aas:machine#M-0001");
    let bad = format!(
        "/aasList/{}/aas/submodels/Nameplate/submodel/submodelElements ",
        encode_segment(&aas_id)
    );
    let proxy = reset_proxy(sb.addr(), move |_, line| line.contains(&bad)).await;
    let client = Client::new(through(&conn, sb.addr(), proxy))
        .expect("client")
        .with_retry(quick_retries());
    let (crawl, was_offline) = crawl(client, &demo_plan()).await;
    report("one URL resets", &crawl);

    assert!(!was_offline, "one bad URL is not an offline service");
    assert!(!crawl.cancelled);
    let failed: Vec<_> = crawl.failures.iter().map(|f| (&f.path, f.kind)).collect();
    let expected = NodePath::Elements {
        aas_id,
        submodel: "Nameplate".into(),
    };
    assert_eq!(failed, [(&expected, ErrorKind::Offline)]);
    assert_eq!(crawl.fetched.len(), baseline.fetched.len() - 1);
    assert_each_node_once(&crawl);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_that_stays_away_is_waited_for_only_the_offline_wait() {
    let sb = support::demo_service().await;
    let conn = support::connection(&sb);
    // Thirty requests answer, then nothing does: neither nodes nor probes.
    let proxy = reset_proxy(sb.addr(), |n, _| n >= 30).await;
    let client = Client::new(through(&conn, sb.addr(), proxy))
        .expect("client")
        .with_retry(quick_retries());
    let plan = CrawlPlan {
        offline_wait: Duration::from_secs(2),
        ..demo_plan()
    };
    let (crawl, was_offline) = crawl(client, &plan).await;
    report("offline after 30 requests, offline_wait 2 s", &crawl);

    assert!(was_offline, "the crawl said the service was offline");
    assert!(!crawl.cancelled);
    assert!(
        !crawl.fetched.is_empty() && !crawl.failures.is_empty(),
        "{} fetched, {} failed",
        crawl.fetched.len(),
        crawl.failures.len()
    );
    assert!(crawl.failures.iter().all(|f| f.kind == ErrorKind::Offline));
    assert!(
        crawl
            .failures
            .iter()
            .any(|f| f.message.contains("was not back within 2s")),
        "{:?}",
        crawl.failures.first()
    );
    assert_each_node_once(&crawl);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_limit_ends_the_crawl_partial() {
    let sb = support::demo_service().await;
    let client = Client::new(support::connection(&sb)).expect("client");
    let plan = CrawlPlan {
        max_nodes: 40,
        ..demo_plan()
    };
    let (crawl, _) = crawl(client, &plan).await;
    assert!(crawl.node_limit_reached && crawl.is_partial());
    assert_eq!(crawl.fetched.len() + crawl.failures.len(), 40);
    assert_each_node_once(&crawl);
}

/// One shell listed 10,000 times (and under two asset types), whose submodel list
/// names one submodel 1,000 times; and token answers and bodies that are too large or
/// never end.
async fn repeating_server() -> String {
    const SHELL: &str = r#"{"modelType":{"name":"AssetAdministrationShell"},"idShort":"S","identification":{"id":"urn:x:S","idType":"IRI"},"asset":{"keys":[]}}"#;
    const SUBMODEL: &str = r#"{"modelType":{"name":"Submodel"},"idShort":"Nameplate","identification":{"id":"urn:x:N","idType":"IRI"},"submodelElements":[]}"#;
    let json = |text: String| ([(CONTENT_TYPE, "application/json")], text).into_response();
    let token = r#"{"access_token":"t","expires_in":300,"token_type":"Bearer"}"#;
    let app = Router::new()
        .route(
            "/auth/realms/r/protocol/openid-connect/token",
            post(move || async move { json(token.to_owned()) }),
        )
        .route(
            "/auth/realms/huge/protocol/openid-connect/token",
            post(move || async move { json(format!("{{\"pad\":\"{}\"}}", "x".repeat(2 << 20))) }),
        )
        .route(
            "/api/v1/registry",
            get(move || async move { json("[]".into()) }),
        )
        .route(
            "/gateway/aasList",
            get(move || async move { json(format!("[{}]", vec![SHELL; 10_000].join(","))) }),
        )
        .route(
            "/gateway/aasList/{id}/aas/submodels",
            get(move || async move { json(format!("[{}]", vec![SUBMODEL; 1_000].join(","))) }),
        )
        .route(
            "/gateway/aasList/{id}/aas/submodels/{sm}/submodel/submodelElements",
            get(move || async move { json("[]".into()) }),
        )
        .route(
            "/gateway/aasList/stalls",
            get(|| async { stalling(Pace::Stalls) }),
        )
        .route(
            "/gateway/aasList/slow",
            get(|| async { stalling(Pace::Slow) }),
        )
        .route(
            "/gateway/aasList/trickles",
            get(|| async { stalling(Pace::Trickles) }),
        );
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

/// How a body comes after its first byte.
#[derive(Clone, Copy)]
enum Pace {
    /// Nothing more.
    Stalls,
    /// 8 KiB every 300 ms for two seconds: silences shorter than the idle timeout,
    /// about 27 KiB/s.
    Slow,
    /// A byte every 300 ms: never silent for long, but far under 4 KiB/s.
    Trickles,
}

fn stalling(pace: Pace) -> Response {
    (
        [(CONTENT_TYPE, "application/json")],
        Body::from_stream(pieces(pace)),
    )
        .into_response()
}

/// The most pieces of a trickling answer any request was sent: the client's cut-off,
/// seen by the server, not by a clock.
static MOST_TRICKLED: AtomicU32 = AtomicU32::new(0);

fn pieces(pace: Pace) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> + Send {
    futures_util::stream::unfold(0u32, move |sent| async move {
        if let Pace::Trickles = pace {
            MOST_TRICKLED.fetch_max(sent, Ordering::Relaxed);
        }
        let piece = match (sent, pace) {
            (0, _) => Bytes::from_static(b"["),
            (_, Pace::Stalls) => {
                std::future::pending::<()>().await;
                return None;
            }
            (1..=6, Pace::Slow) => Bytes::from(vec![b' '; 8 << 10]),
            (1..=60, Pace::Trickles) => Bytes::from_static(b" "),
            (7, Pace::Slow) | (61, Pace::Trickles) => Bytes::from_static(b"]"),
            _ => return None,
        };
        if sent > 0 {
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        Some((Ok(piece), sent + 1))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_a_list_repeats_are_fetched_once() {
    let base = repeating_server().await;
    let plan = CrawlPlan::new("P", vec![AssetType::MACHINE, AssetType::TOOL]);
    let (crawl, _) = crawl(support::quick_client(&base, "r"), &plan).await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    let levels: Vec<&str> = crawl
        .fetched
        .iter()
        .map(|f| match f.path {
            NodePath::Registry => "registry",
            NodePath::AasList { .. } => "list",
            NodePath::Submodels { .. } => "submodels",
            NodePath::Elements { .. } => "elements",
        })
        .collect();
    let count = |level| levels.iter().filter(|l| **l == level).count();
    assert_eq!(
        (count("list"), count("submodels"), count("elements")),
        (2, 1, 1)
    );
}

#[tokio::test]
async fn a_token_answer_is_capped_like_any_other() {
    let base = repeating_server().await;
    let err = support::quick_client(&base, "huge")
        .registry()
        .await
        .expect_err("2 MiB is no token answer");
    assert_eq!(err.kind(), ErrorKind::BadData, "{err}");
    assert!(err.to_string().contains("larger than"), "{err}");
}

#[tokio::test]
async fn silence_or_a_trickle_ends_a_request_and_a_slow_answer_still_arrives() {
    let base = repeating_server().await;
    let client = support::quick_client(&base, "r")
        .with_idle_timeout(Duration::from_secs(1))
        .expect("client");
    let slow = client.aas("slow").await.expect("silences under a second");
    assert_eq!(slow.raw().len(), 2 + 6 * (8 << 10));
    let stalled = tokio::time::timeout(HANG, client.aas("stalls"))
        .await
        .expect("the idle timeout ends it");
    let err = stalled.expect_err("nothing after the first byte");
    assert!(err.to_string().contains("no answer in time"), "{err}");
    // 62 pieces over 18 s: no silence reaches the idle timeout, but the pace ends each
    // of its two attempts within its first periods, long before half the answer is sent.
    let err = tokio::time::timeout(HANG, client.aas("trickles"))
        .await
        .expect("the pace ends it")
        .expect_err("too slow");
    assert!(err.to_string().contains("came too slowly"), "{err}");
    let most = MOST_TRICKLED.load(Ordering::Relaxed);
    assert!((1..31).contains(&most), "{most} of 62 pieces sent");
}
