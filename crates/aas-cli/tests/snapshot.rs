//! `aasmd snapshot take|list|rm` and `aasmd search` as users and scripts call them:
//! the JSON they print, exit codes, and a snapshot killed (SIGKILL) mid-crawl, which
//! leaves the earlier ones intact and is marked partial by the next one.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{temp_dir, Sandbox, AASMD};

fn aasmd(config: &Path, store: &Path, args: &[&str]) -> Output {
    Command::new(AASMD)
        .arg("--config")
        .arg(config)
        .args(args)
        .env("AASMD_STORE", store)
        .output()
        .expect("aasmd runs")
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn snapshots_are_taken_listed_searched_and_removed() {
    let sandbox = Sandbox::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir("snapshot");
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    sandbox.write_config(&config);

    let empty = aasmd(&config, &store, &["search", "pump"]);
    assert_eq!(empty.status.code(), Some(4), "no snapshot to search");

    let first = json(&aasmd(
        &config,
        &store,
        &["snapshot", "take", "--plant", "DEMO-01"],
    ));
    assert_eq!(first["complete"], true);
    assert_eq!(first["plant"], "DEMO-01");
    assert!(first["nodes"].as_u64().expect("nodes") > 100, "{first}");
    for field in ["id", "taken_at", "shells"] {
        assert!(!first[field].is_null(), "{field} in {first}");
    }
    let second = json(&aasmd(
        &config,
        &store,
        &["snapshot", "take", "--plant", "DEMO-01"],
    ));
    let list = json(&aasmd(&config, &store, &["snapshot", "list", "--json"]));
    assert_eq!(list, Value::Array(vec![first.clone(), second.clone()]));

    let hits = json(&aasmd(&config, &store, &["search", "Stuttgart", "--json"]));
    let hit = &hits[0];
    assert_eq!(hit["submodel"], "Nameplate");
    assert_eq!(hit["path"], serde_json::json!(["Address", "CityTown"]));
    assert_eq!(hit["value"], "Stuttgart");
    assert_eq!(hit["model_type"], "Property");

    let rm = aasmd(
        &config,
        &store,
        &["snapshot", "rm", &first["id"].to_string()],
    );
    assert!(rm.status.success());
    let list = json(&aasmd(&config, &store, &["snapshot", "list", "--json"]));
    assert_eq!(list, Value::Array(vec![second]));
    let gone = aasmd(
        &config,
        &store,
        &["search", "x", "--snapshot", &first["id"].to_string()],
    );
    assert_eq!(gone.status.code(), Some(4));

    // A plant the user token does not grant: kept partial, exit 6.
    let take_other = [
        "snapshot",
        "take",
        "--plant",
        "NO-SUCH-PLANT",
        "--type",
        "machine",
    ];
    let refused = aasmd(&config, &store, &take_other);
    assert_eq!(refused.status.code(), Some(6));
    let other: Value = serde_json::from_slice(&refused.stdout).expect("JSON line");
    assert_eq!(other["complete"], false);
    // Two plants and no --plant: exit 2, naming them.
    let which = aasmd(&config, &store, &["search", "Stuttgart"]);
    assert_eq!(which.status.code(), Some(2));
    let said = String::from_utf8_lossy(&which.stderr);
    assert!(
        said.contains("DEMO-01") && said.contains("NO-SUCH-PLANT"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_snapshot_killed_mid_crawl_is_marked_partial_and_earlier_ones_stay() {
    let sandbox = Sandbox::start(&["--addr", "127.0.0.1:0", "--faults", "latency=40ms,seed=1"]);
    let dir = temp_dir("snapshot-kill");
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    sandbox.write_config(&config);
    let take = [
        "snapshot", "take", "--plant", "DEMO-01", "--type", "machine",
    ];
    let earlier = json(&aasmd(&config, &store, &take));

    let mut running = Command::new(AASMD)
        .arg("--config")
        .arg(&config)
        .args(["snapshot", "take", "--plant", "DEMO-01"])
        .env("AASMD_STORE", &store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("aasmd starts");
    // Killed once its snapshot is listed and answers are arriving.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let list = json(&aasmd(&config, &store, &["snapshot", "list", "--json"]));
        if list.as_array().is_some_and(|l| l.len() == 2) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the second snapshot never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    running.kill().expect("SIGKILL");
    running.wait().expect("reaped");

    let next = json(&aasmd(&config, &store, &take));
    let list = json(&aasmd(&config, &store, &["snapshot", "list", "--json"]));
    let states: Vec<(Value, Value)> = list
        .as_array()
        .expect("list")
        .iter()
        .map(|s| (s["id"].clone(), s["complete"].clone()))
        .collect();
    assert_eq!(
        states,
        [
            (earlier["id"].clone(), Value::Bool(true)),
            (
                Value::from(earlier["id"].as_i64().expect("id") + 1),
                Value::Bool(false)
            ),
            (next["id"].clone(), Value::Bool(true)),
        ]
    );
    let hits = json(&aasmd(
        &config,
        &store,
        &[
            "search",
            "Stuttgart",
            "--json",
            "--snapshot",
            &earlier["id"].to_string(),
        ],
    ));
    assert!(
        !hits.as_array().expect("hits").is_empty(),
        "the earlier snapshot is whole"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
