//! Clients that connect and then send nothing, or half a request's head, are cut off
//! after the head timeout rather than holding their connections open forever (the
//! review that found it left 600 of 600 such connections open after 35 s).

use std::time::Duration;

use aas_demo::{Config, DemoService};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How each slow client starts its connection.
const OPENINGS: [&[u8]; 3] = [
    b"",
    b"G",
    b"GET /api/v1/registry HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: applica",
];

#[tokio::test]
async fn half_sent_requests_are_cut_off_after_the_head_timeout() {
    let demo_service = DemoService::start(Config {
        head_timeout: Duration::from_secs(1),
        ..Config::default()
    })
    .await
    .expect("demo-service");

    let mut slow = Vec::new();
    for opening in OPENINGS.iter().cycle().take(60) {
        let mut stream = TcpStream::connect(demo_service.addr())
            .await
            .expect("connect");
        stream.write_all(opening).await.expect("write");
        slow.push(stream);
    }

    // Each must be closed by the server (end of stream, or a reset) well within this.
    let mut closed = 0;
    for mut stream in slow {
        let mut rest = Vec::new();
        let ended = tokio::time::timeout(Duration::from_secs(6), stream.read_to_end(&mut rest));
        if ended.await.is_ok() {
            closed += 1;
        }
    }
    assert_eq!(closed, 60, "connections the server closed, of 60 slow ones");

    // A client that sends its request in time is served as ever.
    let url = format!("http://{}/demo-service/stats", demo_service.addr());
    let answered = reqwest::get(url)
        .await
        .expect("a prompt request is answered");
    assert!(answered.status().as_u16() < 500, "{}", answered.status());
}

#[tokio::test]
async fn a_request_sent_in_pieces_within_the_timeout_is_served() {
    let demo_service = DemoService::start(Config {
        head_timeout: Duration::from_secs(2),
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let mut stream = TcpStream::connect(demo_service.addr())
        .await
        .expect("connect");
    let request =
        b"GET /demo-service/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    for piece in request.chunks(16) {
        stream.write_all(piece).await.expect("write");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
}
