//! A user with a proxy exported (`HTTP_PROXY`, `HTTPS_PROXY`): this machine is still
//! reached directly (the built-in demo works with a dead proxy set), other hosts go
//! through the proxy. One test in its own binary: it sets the process's environment.

mod support;

use std::io::Read;
use std::time::Duration;

use aas_client::{Client, Connection, Transport};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_is_never_proxied_and_other_hosts_are() {
    // A "proxy" that records the first request line it gets, then hangs up.
    let proxy = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let proxy_url = format!("http://{}", proxy.local_addr().expect("addr"));
    let seen = std::thread::spawn(move || {
        let (mut conn, _) = proxy.accept().expect("a request through the proxy");
        let mut head = [0u8; 512];
        let n = conn.read(&mut head).expect("read");
        String::from_utf8_lossy(&head[..n])
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned()
    });
    for name in ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"] {
        std::env::set_var(name, &proxy_url);
    }
    std::env::remove_var("NO_PROXY");
    std::env::remove_var("no_proxy");

    let sb = support::demo_service().await;
    let demo = Client::new(support::connection(&sb)).expect("client");
    let registry = demo
        .registry()
        .await
        .expect("the demo answers, not the proxy");
    assert!(!registry.is_empty());

    let elsewhere = Connection {
        transport: Transport {
            allow_plain_http: true,
            ..Transport::default()
        },
        ..support::connection_to("http://plant.example", "r")
    };
    let client = Client::new(elsewhere)
        .expect("client")
        .with_idle_timeout(Duration::from_secs(5))
        .expect("client");
    assert!(
        client.registry().await.is_err(),
        "the recording proxy answers nothing"
    );
    let line = seen.join().expect("the proxy thread");
    // The first request is the token server's discovery document.
    assert!(
        line.starts_with("GET http://plant.example/realms/r/.well-known/openid-configuration"),
        "{line}"
    );
}
