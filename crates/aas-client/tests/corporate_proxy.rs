//! A profile's own proxy, through a real forward proxy from Debian's packages
//! (tinyproxy, with a user and password): plain http to the service, and CONNECT to
//! the service over TLS with a CA made at test time. The service listens on this
//! machine's network address, since this machine's loopback is never proxied. A relay
//! in front of the proxy records every byte the client sends it: for https, no token
//! and no secret may be among them. A proxy's refusal of the credentials (407, and
//! tinyproxy 1.11's own 401) gets words that name the proxy.

mod support;

use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aas_client::{Client, Connection, Secret, Transport};
use aas_demo::{Config, DemoService, TlsFiles, DEMO_PLANT};
use aas_model::AssetType;
use aas_source::ErrorKind;
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};

const PROXY_USER: &str = "engineer";
const PROXY_PASSWORD: &str = "proxy-canary-Pa55";

/// This machine's address on its network (not loopback), as the route out names it;
/// no packet is sent.
fn network_address() -> IpAddr {
    let socket = UdpSocket::bind("0.0.0.0:0").expect("udp socket");
    socket
        .connect("192.0.2.1:9")
        .expect("this machine needs a network address besides loopback for the proxy tests");
    let ip = socket.local_addr().expect("local address").ip();
    assert!(!ip.is_loopback(), "{ip} is loopback");
    ip
}

/// A running tinyproxy; stopped when dropped.
struct Tinyproxy {
    child: Child,
    addr: SocketAddr,
    log: PathBuf,
}

impl Drop for Tinyproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Tinyproxy {
    /// tinyproxy on a free loopback port, wanting [`PROXY_USER`] and [`PROXY_PASSWORD`].
    fn start(dir: &Path) -> Tinyproxy {
        std::fs::create_dir_all(dir).expect("dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let log = dir.join("tinyproxy.log");
        let config = dir.join("tinyproxy.conf");
        std::fs::write(
            &config,
            format!(
                "Port {port}\nListen 127.0.0.1\nTimeout 30\nMaxClients 20\nAllow 127.0.0.1\n\
                 LogFile \"{}\"\nLogLevel Info\nBasicAuth {PROXY_USER} {PROXY_PASSWORD}\n",
                log.display()
            ),
        )
        .expect("config");
        let child = Command::new("tinyproxy")
            .arg("-d")
            .arg("-c")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("tinyproxy runs (scripts/install-deps.sh test installs it)");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "tinyproxy did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Tinyproxy { child, addr, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// A relay to `proxy` that keeps every byte clients send through it.
async fn recording_relay(proxy: SocketAddr) -> (SocketAddr, Arc<Mutex<Vec<u8>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let sent = Arc::new(Mutex::new(Vec::new()));
    let record = sent.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let record = record.clone();
            tokio::spawn(async move {
                let upstream = TcpStream::connect(proxy).await.expect("proxy");
                let (mut from_client, mut to_client) = client.into_split();
                let (mut from_proxy, mut to_proxy) = upstream.into_split();
                let up = async {
                    let mut buf = [0u8; 16 * 1024];
                    while let Ok(n @ 1..) = from_client.read(&mut buf).await {
                        record.lock().expect("record").extend_from_slice(&buf[..n]);
                        if tokio::io::AsyncWriteExt::write_all(&mut to_proxy, &buf[..n])
                            .await
                            .is_err()
                        {
                            break;
                        }
                    }
                    let _ = tokio::io::AsyncWriteExt::shutdown(&mut to_proxy).await;
                };
                let down = async {
                    let _ = tokio::io::copy(&mut from_proxy, &mut to_client).await;
                };
                tokio::join!(up, down);
            });
        }
    });
    (addr, sent)
}

/// The demo service on this machine's network address, over TLS when `tls` is given.
async fn service(tls: Option<TlsFiles>) -> (DemoService, Connection) {
    let demo_service = DemoService::start(Config {
        addr: SocketAddr::new(network_address(), 0),
        tls,
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let conn = support::connection(&demo_service);
    (demo_service, conn)
}

/// `conn` through the proxy at `proxy` as [`PROXY_USER`] with `password`.
fn through(conn: &Connection, proxy: SocketAddr, password: &str, transport: Transport) -> Client {
    Client::new(Connection {
        transport: Transport {
            proxy: Some(format!("http://{proxy}")),
            proxy_user: Some(PROXY_USER.into()),
            proxy_password: Some(Secret::new(password)),
            ..transport
        },
        ..conn.clone()
    })
    .expect("client")
}

#[tokio::test]
async fn plain_http_goes_through_the_profiles_proxy_with_its_credentials() {
    let dir = std::env::temp_dir().join(format!("aas-proxy-plain-{}", std::process::id()));
    let proxy = Tinyproxy::start(&dir);
    let (_demo_service, conn) = service(None).await;
    let plain = Transport {
        allow_plain_http: true,
        ..Transport::default()
    };
    let client = through(&conn, proxy.addr, PROXY_PASSWORD, plain.clone());
    let list = client
        .aas_list(&AssetType::MACHINE, DEMO_PLANT)
        .await
        .expect("through the proxy");
    assert_eq!(list.len(), 3);
    let host = conn.registry_url.trim_start_matches("http://");
    assert!(
        proxy.log().contains(host),
        "the proxy carried the requests to {host}:\n{}",
        proxy.log()
    );

    // tinyproxy 1.11 refuses a wrong password with a 401 it cuts short: a failure,
    // whatever its words, and never the password in them.
    let refused = through(&conn, proxy.addr, "wrong", plain.clone())
        .registry()
        .await
        .expect_err("the proxy wants its password");
    assert!(
        !format!("{refused} {refused:?}").contains("wrong"),
        "{refused}"
    );

    // The standard refusal, 407, has words of its own.
    refused_with_407(&conn, plain).await;
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// A proxy answering 407 is an `auth` error in words that name the proxy.
async fn refused_with_407(conn: &Connection, transport: Transport) {
    let refused = through(conn, refusing_proxy().await, PROXY_PASSWORD, transport)
        .registry()
        .await
        .expect_err("407");
    assert_eq!(refused.kind(), ErrorKind::Auth, "{refused}");
    assert!(
        refused
            .to_string()
            .contains("the proxy refused our credentials"),
        "{refused}"
    );
}

/// A proxy that answers every request, CONNECT included, with 407.
async fn refusing_proxy() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut conn, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut head = [0u8; 4096];
                let _ = conn.read(&mut head).await;
                let answer = "HTTP/1.1 407 Proxy Authentication Required\r\n\
                              Proxy-Authenticate: Basic realm=\"corp\"\r\n\
                              Content-Length: 0\r\nConnection: close\r\n\r\n";
                let _ = tokio::io::AsyncWriteExt::write_all(&mut conn, answer.as_bytes()).await;
            });
        }
    });
    addr
}

#[tokio::test]
async fn https_is_tunnelled_and_the_proxy_sees_no_token_or_secret() {
    let dir = std::env::temp_dir().join(format!("aas-proxy-tls-{}", std::process::id()));
    let proxy = Tinyproxy::start(&dir);
    let (relay, sent) = recording_relay(proxy.addr).await;
    let ip = network_address().to_string();
    let (ca, cert, key) = support::certificates::make_certificates(&dir.join("tls"), &[&ip], false);
    let (_demo_service, conn) = service(Some(TlsFiles { cert, key })).await;
    assert!(
        conn.registry_url.starts_with("https://"),
        "{}",
        conn.registry_url
    );
    let trusted = Transport {
        ca_file: Some(ca),
        ..Transport::default()
    };
    let client = through(&conn, relay, PROXY_PASSWORD, trusted.clone());
    let list = client
        .aas_list(&AssetType::MACHINE, DEMO_PLANT)
        .await
        .expect("through the tunnel");
    assert_eq!(list.len(), 3);

    let sent = String::from_utf8_lossy(&sent.lock().expect("record")).into_owned();
    assert!(
        sent.starts_with("CONNECT "),
        "{}",
        &sent[..sent.len().min(200)]
    );
    for secret in [
        conn.client_secret.expose(),
        conn.user_token.expose(),
        "Bearer",
        "eyJ",
    ] {
        assert!(!sent.contains(secret), "the proxy saw {secret:?}");
    }

    let refused = through(&conn, proxy.addr, "wrong", trusted.clone())
        .registry()
        .await
        .expect_err("the proxy wants its password");
    assert!(
        refused
            .to_string()
            .contains("the proxy refused to open a tunnel"),
        "{refused}"
    );
    refused_with_407(&conn, trusted).await;
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
