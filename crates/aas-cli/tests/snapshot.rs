//! `aasmd snapshot take|list|rm` and `aasmd search` as users and scripts call them:
//! the JSON they print, exit codes, and a snapshot killed (SIGKILL) mid-crawl, which
//! leaves the earlier ones intact and is marked partial by the next one.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{aasmd_with_store, temp_dir, DemoService, AASMD};

fn aasmd(config: &Path, store: &Path, args: &[&str]) -> Output {
    aasmd_with_store(config, store, args)
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

/// An environment's lists, each sorted: a crawl's answers arrive in any order.
fn same_content(file: &Path) -> Value {
    let mut env: Value = serde_json::from_slice(&std::fs::read(file).expect("read")).expect("JSON");
    for list in env.as_object_mut().expect("environment").values_mut() {
        if let Value::Array(items) = list {
            items.sort_by_key(|item| item.to_string());
        }
    }
    env
}

#[test]
fn snapshots_are_taken_listed_searched_and_removed() {
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir("snapshot");
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    demo_service.write_config(&config);

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

    // An unchanged plant: no difference, in each form.
    assert_eq!(
        json(&aasmd(&config, &store, &["diff", "--json"])),
        Value::Array(vec![])
    );
    let csv = aasmd(&config, &store, &["diff", "--csv"]);
    assert_eq!(
        String::from_utf8_lossy(&csv.stdout),
        "change,aas_id,submodel,path,old,new\n"
    );

    // Exported from the snapshot: what a crawl of the plant exports.
    let id = second["id"].to_string();
    for format in ["raw", "env"] {
        let (crawled, exported) = (
            dir.join(format!("crawl.{format}")),
            dir.join(format!("snapshot.{format}")),
        );
        let out = aasmd(
            &config,
            &store,
            &[
                "crawl",
                "--plant",
                "DEMO-01",
                "--format",
                format,
                "--out",
                &crawled.display().to_string(),
            ],
        );
        assert!(out.status.success());
        let out = aasmd(
            &config,
            &store,
            &[
                "export",
                "--snapshot",
                &id,
                "--format",
                format,
                "--out",
                &exported.display().to_string(),
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if format == "raw" {
            assert_eq!(support::raw_nodes(&crawled), support::raw_nodes(&exported));
        } else {
            assert_eq!(same_content(&crawled), same_content(&exported));
        }
    }

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
    let demo_service =
        DemoService::start(&["--addr", "127.0.0.1:0", "--faults", "latency=40ms,seed=1"]);
    let dir = temp_dir("snapshot-kill");
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    demo_service.write_config(&config);
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

/// `curl` to the demo service's admin surface: the HTTP status.
fn admin(demo_service: &DemoService, method: &str, path: &str, body: Option<&Value>) -> String {
    let url = format!("http://{}/demo-service/admin{path}", demo_service.addr());
    let token = demo_service.line["admin_token"]
        .as_str()
        .expect("admin token");
    let mut curl = Command::new("curl");
    curl.args([
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        "-X",
        method,
        &url,
    ])
    .args(["-H", &format!("Authorization: Bearer {token}")]);
    if let Some(body) = body {
        curl.args([
            "-H",
            "Content-Type: application/json",
            "-d",
            &body.to_string(),
        ]);
    }
    String::from_utf8(curl.output().expect("curl").stdout).expect("status")
}

#[test]
fn a_changed_value_and_a_removed_asset_are_exactly_the_diff() {
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0", "--admin-token"]);
    let dir = temp_dir("snapshot-diff");
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    demo_service.write_config(&config);
    let take = ["snapshot", "take", "--plant", "DEMO-01"];
    json(&aasmd(&config, &store, &take));

    let machine = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";
    let tool = "urn:demo-platform:acme:DEMO-01:aas:tool#T-0002";
    let city = serde_json::json!({"aas_id": machine, "submodel": "Nameplate",
        "path": ["Address", "CityTown"], "value": "Esslingen"});
    assert_eq!(
        admin(&demo_service, "PATCH", "/elements", Some(&city)),
        "204"
    );
    let encoded = tool.replace(':', "%3A").replace('#', "%23");
    assert_eq!(
        admin(&demo_service, "DELETE", &format!("/assets/{encoded}"), None),
        "204"
    );
    // Unknown: 404; a collection's value: 400.
    let unknown = serde_json::json!({"aas_id": "urn:nope", "submodel": "Nameplate", "path": ["X"], "value": "v"});
    assert_eq!(
        admin(&demo_service, "PATCH", "/elements", Some(&unknown)),
        "404"
    );
    let collection = serde_json::json!({"aas_id": machine, "submodel": "Nameplate", "path": ["Address"], "value": "v"});
    assert_eq!(
        admin(&demo_service, "PATCH", "/elements", Some(&collection)),
        "400"
    );
    assert_eq!(
        admin(&demo_service, "DELETE", &format!("/assets/{encoded}"), None),
        "404"
    );

    json(&aasmd(&config, &store, &take));
    let diff = json(&aasmd(&config, &store, &["diff", "--json"]));
    assert_eq!(
        diff,
        serde_json::json!([
            {"change": "changed", "aas_id": machine, "submodel": "Nameplate",
             "path": ["Address", "CityTown"], "old": "Stuttgart", "new": "Esslingen"},
            {"change": "removed", "aas_id": tool, "submodel": null, "path": [],
             "old": null, "new": null},
        ])
    );
    let csv = aasmd(&config, &store, &["diff", "--csv"]);
    let text = String::from_utf8_lossy(&csv.stdout);
    assert!(
        text.contains(&format!(
            "changed,{machine},Nameplate,Address/CityTown,Stuttgart,Esslingen"
        )),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn take_keeps_only_the_newest_complete_snapshots_it_is_told_to() {
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir("snapshot-keep");
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    demo_service.write_config(&config);
    let take = [
        "snapshot", "take", "--plant", "DEMO-01", "--type", "tool", "--keep", "2",
    ];
    let taken: Vec<Value> = (0..3)
        .map(|_| json(&aasmd(&config, &store, &take))["id"].clone())
        .collect();
    let listed = json(&aasmd(&config, &store, &["snapshot", "list", "--json"]));
    let kept: Vec<Value> = listed
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["id"].clone())
        .collect();
    assert_eq!(kept, taken[1..], "the oldest was removed");
}

/// Runs the shell `script` as root of a user and mount namespace of its own (`unshare`,
/// util-linux: no real root, nothing mounted outside), where it may mount a small tmpfs
/// at `$DISK`; `$AASMD`, `$CONFIG` and `$OUT` (`out`) are set for it.
#[cfg(target_os = "linux")]
fn in_namespace(script: &str, disk: &Path, config: &Path, out: &Path) {
    let status = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", script])
        .env("DISK", disk)
        .env("AASMD", AASMD)
        .env("CONFIG", config)
        .env("OUT", out)
        .status()
        .expect("unshare (util-linux) runs");
    assert!(status.success(), "the script in the namespace: {status}");
}

/// A full disk: the take that fills it fails with exit 7 and words that say so, and the
/// snapshot before it stays whole. The store lives on a small tmpfs mounted in a user
/// and mount namespace of the test's own (`unshare`, util-linux): no root, no real
/// disk filled.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_fails_the_take_with_its_words_and_keeps_the_earlier_snapshot() {
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir("snapshot-full");
    let (config, disk) = (dir.join("line.json"), dir.join("disk"));
    demo_service.write_config(&config);
    std::fs::create_dir_all(&disk).expect("mount point");
    // The first take fits; then the disk is filled, so the second finds no space; then
    // the filler goes and the store is read again.
    let script = r#"
        mount -t tmpfs -o size=8m tmpfs "$DISK" || exit 90
        export AASMD_STORE="$DISK/store.sqlite3"
        take() { "$AASMD" --config "$CONFIG" snapshot take --plant DEMO-01 >"$OUT/$1.out" 2>"$OUT/$1.err"; echo $? >"$OUT/$1.code"; }
        take first
        dd if=/dev/zero of="$DISK/filler" bs=4k 2>/dev/null
        take second
        rm "$DISK/filler"
        "$AASMD" snapshot list --json >"$OUT/list.out" || exit 91
        "$AASMD" search SN-M-0001 --json >"$OUT/search.out" || exit 92
    "#;
    in_namespace(script, &disk, &config, &dir);
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect(name);
    assert_eq!(read("first.code").trim(), "0", "{}", read("first.err"));
    assert_eq!(read("second.code").trim(), "7", "{}", read("second.err"));
    let words = read("second.err");
    assert!(
        words.contains("full") && words.contains("earlier snapshots are whole"),
        "{words}"
    );
    let first: Value = serde_json::from_str(&read("first.out")).expect("first");
    let listed: Value = serde_json::from_str(&read("list.out")).expect("list");
    let kept = listed
        .as_array()
        .expect("a list")
        .iter()
        .find(|s| s["id"] == first["id"])
        .expect("the first snapshot is still listed");
    assert_eq!(kept["complete"], true);
    assert_eq!(kept["nodes"], first["nodes"]);
    let hits: Value = serde_json::from_str(&read("search.out")).expect("hits");
    assert!(
        !hits.as_array().expect("hits").is_empty(),
        "the first snapshot is still searched"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Each way a store cannot serve has its words and exit code, and reads never make a
/// store: a mistyped `--store` (4, nothing created), a folder (2), and a store on a
/// read-only file system, which every read command still reads while a take says why
/// it cannot write (7). The file system is a tmpfs remounted read-only in a user and
/// mount namespace of the test's own.
#[cfg(target_os = "linux")]
#[test]
fn store_failures_have_their_words_and_codes_and_reads_work_on_a_read_only_disk() {
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir("snapshot-store-errors");
    let config = dir.join("line.json");
    demo_service.write_config(&config);
    let words = |out: &Output| String::from_utf8_lossy(&out.stderr).into_owned();

    let missing = dir.join("mistyped.sqlite3");
    for args in [
        &["snapshot", "list"][..],
        &["search", "pump"],
        &["diff"],
        &["snapshot", "rm", "1"],
        &[
            "export",
            "--snapshot",
            "1",
            "--format",
            "env",
            "--out",
            "x.json",
        ],
    ] {
        let out = aasmd(&config, &missing, args);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {}", words(&out));
        assert!(
            words(&out).contains("no snapshot store at"),
            "{}",
            words(&out)
        );
        assert!(!missing.exists(), "{args:?} created a store");
    }
    let folder = aasmd(&config, &dir, &["snapshot", "list"]);
    assert_eq!(folder.status.code(), Some(2), "{}", words(&folder));
    assert!(words(&folder).contains("is a folder"), "{}", words(&folder));

    let disk = dir.join("disk");
    std::fs::create_dir_all(&disk).expect("mount point");
    let script = r#"
        mount -t tmpfs -o size=16m tmpfs "$DISK" || exit 90
        export AASMD_STORE="$DISK/store.sqlite3"
        run() { name=$1; shift; "$AASMD" --config "$CONFIG" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.code"; }
        run take1 snapshot take --plant DEMO-01 --type machine
        run take2 snapshot take --plant DEMO-01 --type machine
        mount -o remount,ro "$DISK" || exit 91
        run list snapshot list --json
        run search search SN-M-0001 --json
        run diff diff --json
        run export export --snapshot 1 --format env --out "$OUT/ro-export.json"
        run take3 snapshot take --plant DEMO-01 --type machine
        run rm snapshot rm 1
    "#;
    in_namespace(script, &disk, &config, &dir);
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect(name);
    for name in ["take1", "take2", "list", "search", "diff", "export"] {
        assert_eq!(
            read(&format!("{name}.code")).trim(),
            "0",
            "{name} on a read-only disk: {}",
            read(&format!("{name}.err"))
        );
    }
    let listed: Value = serde_json::from_str(&read("list.out")).expect("list");
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    let hits: Value = serde_json::from_str(&read("search.out")).expect("hits");
    assert!(!hits.as_array().expect("hits").is_empty(), "{hits}");
    for name in ["take3", "rm"] {
        assert_eq!(read(&format!("{name}.code")).trim(), "7", "{name}");
        let said = read(&format!("{name}.err"));
        assert!(said.contains("cannot be written"), "{name}: {said}");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Two platforms (two demo services) with the same plant code in one store: `diff` and
/// `search` choose by the plant and the source the connection names, as the app does,
/// and say which they chose; without a source they refuse to mix and name the
/// sources. Before, `diff` compared the latest two of the plant code whatever their
/// source.
#[test]
fn diff_and_search_choose_within_one_source_and_say_which() {
    let (a, b) = (
        DemoService::start(&["--addr", "127.0.0.1:0"]),
        DemoService::start(&["--addr", "127.0.0.1:0"]),
    );
    let dir = temp_dir("snapshot-sources");
    let (config_a, config_b, store) = (
        dir.join("a.json"),
        dir.join("b.json"),
        dir.join("store.sqlite3"),
    );
    a.write_config(&config_a);
    b.write_config(&config_b);
    let take = [
        "snapshot", "take", "--plant", "DEMO-01", "--type", "machine",
    ];
    let first_a = json(&aasmd(&config_a, &store, &take));
    let second_a = json(&aasmd(&config_a, &store, &take));
    let only_b = json(&aasmd(&config_b, &store, &take));
    assert_ne!(first_a["source"], only_b["source"], "two sources");
    let words = |out: &Output| String::from_utf8_lossy(&out.stderr).into_owned();

    let unnamed = Command::new(AASMD)
        .args(["diff"])
        .env("AASMD_STORE", &store)
        .output()
        .expect("aasmd runs");
    assert_eq!(unnamed.status.code(), Some(2), "{}", words(&unnamed));
    for source in [&first_a["source"], &only_b["source"]] {
        let source = source.as_str().expect("source");
        assert!(words(&unnamed).contains(source), "{}", words(&unnamed));
    }

    let diff_a = aasmd(&config_a, &store, &["diff", "--json"]);
    assert_eq!(json(&diff_a), Value::Array(vec![]), "A's two, unchanged");
    let said = words(&diff_a);
    assert!(
        said.contains(&format!("comparing snapshot {} of DEMO-01", first_a["id"]))
            && said.contains(&format!("with snapshot {} of DEMO-01", second_a["id"])),
        "{said}"
    );
    let diff_b = aasmd(&config_b, &store, &["diff"]);
    assert_eq!(
        diff_b.status.code(),
        Some(4),
        "B has one: {}",
        words(&diff_b)
    );
    assert!(
        words(&diff_b).contains("only one complete snapshot"),
        "{}",
        words(&diff_b)
    );

    let search_b = aasmd(&config_b, &store, &["search", "SN-M-0001"]);
    assert!(search_b.status.success(), "{}", words(&search_b));
    assert!(
        words(&search_b).contains(&format!("searching snapshot {} of DEMO-01", only_b["id"])),
        "{}",
        words(&search_b)
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
