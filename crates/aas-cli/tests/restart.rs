//! The server killed (SIGKILL) in the middle of `aasmd crawl` and started again on the
//! same address with the same `--state`: the crawl says it is offline, waits, goes on
//! when the server is back, and ends with exactly what an uninterrupted crawl got.

mod support;

use std::sync::mpsc::Receiver;
use std::time::Duration;

use support::{crawl, raw_nodes, temp_dir, DemoService};

/// Long enough for anything here; only there so a broken client cannot hang the suite.
const PATIENCE: Duration = Duration::from_secs(120);

fn demo_service_args<'a>(addr: &'a str, state: &'a str) -> [&'a str; 8] {
    // 20 ms per request: the crawl is still running when the server is killed.
    [
        "--addr",
        addr,
        "--demo",
        "200",
        "--state",
        state,
        "--faults",
        "latency=20ms",
    ]
}

/// Waits for a stderr line containing `text`; returns every line seen until then.
fn wait_for(lines: &Receiver<String>, text: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = lines
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|e| panic!("no {text:?} on stderr ({e}); saw {seen:?}"));
        let found = line.contains(text);
        seen.push(line);
        if found {
            return seen;
        }
    }
}

#[test]
fn a_crawl_waits_out_a_server_restart_and_loses_nothing() {
    let dir = temp_dir("restart");
    let (state, config) = (dir.join("state.json"), dir.join("demo-service.json"));
    let state_arg = state.to_str().expect("utf-8 path");
    let first = DemoService::start(&demo_service_args("127.0.0.1:0", state_arg));
    first.write_config(&config);
    let addr = first.addr();

    let expected = dir.join("expected.json");
    let out = expected.to_str().expect("utf-8");
    let (mut whole, _) = crawl(
        &config,
        &["--plant", "DEMO-01", "--format", "raw", "--out", out],
    );
    assert!(
        whole.wait().expect("crawl").success(),
        "an undisturbed crawl"
    );
    let whole_requests = first.requests();

    let interrupted = dir.join("interrupted.json");
    let out = interrupted.to_str().expect("utf-8");
    let (mut child, lines) = crawl(
        &config,
        &["--plant", "DEMO-01", "--format", "raw", "--out", out],
    );
    // Kill the server about a third of the way through the second crawl.
    while first.requests() < whole_requests + whole_requests / 3 {
        std::thread::sleep(Duration::from_millis(5));
    }
    let secret = first.line["client_secret"].clone();
    first.kill();
    wait_for(&lines, "offline");
    assert!(
        child.try_wait().expect("status").is_none(),
        "the crawl waits for the server instead of ending"
    );

    let second = DemoService::start(&demo_service_args(&addr, state_arg));
    assert_eq!(second.line["client_secret"], secret, "the same credentials");
    wait_for(&lines, "online again");
    let status = child.wait().expect("crawl ends");
    let rest: Vec<String> = lines.iter().collect();
    assert!(status.success(), "{status}: {rest:?}");
    let summary = rest
        .iter()
        .find(|l| l.contains("requests in"))
        .expect("summary");
    assert!(summary.contains(" 0 failed"), "{summary}");
    eprintln!(
        "restart: {summary}; served after the restart: {}",
        second.requests()
    );
    assert!(
        second.requests() > 0,
        "the rest came from the restarted server"
    );

    let (got, want) = (raw_nodes(&interrupted), raw_nodes(&expected));
    assert_eq!(got.len(), want.len(), "node count");
    assert!(
        got == want,
        "the content differs from an uninterrupted crawl"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
