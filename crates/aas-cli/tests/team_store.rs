//! `aasmd store init|migrate` and the snapshot commands on a team store (a real
//! PostgreSQL server made for the test, as in aas-snapshot's tests): the writer role
//! makes the tables and takes; a reader role lists, searches and exports, and is told
//! why it cannot take or remove, with exit code 4. No message shows a password.

#[path = "../../aas-snapshot/tests/support/cluster.rs"]
mod cluster;
mod support;

use std::process::Output;

use cluster::Cluster;
use serde_json::Value;
use support::{aasmd_with_store, temp_dir, Sandbox};

/// stderr, checked to hold no password of the cluster's roles.
fn said(out: &Output, cluster: &Cluster) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains(cluster.password()), "{stderr}");
    stderr
}

fn json(out: &Output, cluster: &Cluster) -> Value {
    let stderr = said(out, cluster);
    assert!(out.status.success(), "{}: {stderr}", out.status);
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn the_writer_role_makes_the_store_and_takes_and_a_reader_role_reads_it() {
    let cluster = Cluster::start();
    let (writer, reader) = cluster.writer_and_reader("plants");
    let sandbox = Sandbox::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir("team-store");
    let config = dir.join("line.json");
    sandbox.write_config(&config);

    let out = aasmd_with_store(&config, &writer, &["store", "migrate"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out, &cluster));
    assert!(said(&out, &cluster).contains("aasmd store init"));
    let out = aasmd_with_store(&config, &writer, &["store", "init", "--reader", "desktop"]);
    let stderr = said(&out, &cluster);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("tables are made") && stderr.contains("desktop may read it"),
        "{stderr}"
    );

    let take = ["snapshot", "take", "--plant", "DEMO-01"];
    let taken = json(&aasmd_with_store(&config, &writer, &take), &cluster);
    assert_eq!(taken["complete"], true, "{taken}");

    let list = json(
        &aasmd_with_store(&config, &reader, &["snapshot", "list", "--json"]),
        &cluster,
    );
    assert_eq!(list, Value::Array(vec![taken.clone()]));
    let hits = json(
        &aasmd_with_store(&config, &reader, &["search", "SN-M-0001", "--json"]),
        &cluster,
    );
    assert!(!hits.as_array().expect("hits").is_empty(), "{hits}");
    let out_file = dir.join("plant.json");
    let id = taken["id"].to_string();
    let out_path = out_file.to_str().expect("a UTF-8 temp path");
    let export = [
        "export",
        "--snapshot",
        &id,
        "--format",
        "env",
        "--out",
        out_path,
    ];
    let out = aasmd_with_store(&config, &reader, &export);
    assert!(out.status.success(), "{}", said(&out, &cluster));
    assert!(std::fs::metadata(&out_file).expect("exported").len() > 1000);

    for refused in [&take[..], &["snapshot", "rm", &id]] {
        let out = aasmd_with_store(&config, &reader, refused);
        let stderr = said(&out, &cluster);
        assert_eq!(out.status.code(), Some(4), "{refused:?}: {stderr}");
        assert!(
            stderr.contains("lets desktop only read") && stderr.contains("writer role"),
            "{stderr}"
        );
    }
    let list = json(
        &aasmd_with_store(&config, &reader, &["snapshot", "list", "--json"]),
        &cluster,
    );
    assert_eq!(list, Value::Array(vec![taken]));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
