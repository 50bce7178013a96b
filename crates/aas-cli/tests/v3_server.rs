//! `aasmd --v3 URL`: a real, independent AAS V3 server as the source. The server is
//! Eclipse BaSyx Python SDK 1.2.1's own Part 2 application (tests/v3-server/serve.py, in
//! the virtual environment `scripts/install-deps.sh test` makes), serving shared real
//! files; its paging bug (a cursor past the end, for ever) included. What aasmd reads of
//! it is checked against what the independent readers (`aas-dump`) read of the files
//! the server was given: every shell, every submodel a shell names with every element.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

#[path = "../../../tests/support/aas_dump.rs"]
mod aas_dump;
mod support;

use aas_dump::dump_lines;
use support::{ok, temp_dir, AASMD};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The V3.0 files the server serves: an AASX with an XML spec part (FA³ST's), an XML
/// environment (BaSyx Java's) and an IDTA template package.
fn served_files() -> Vec<PathBuf> {
    let dir = shared().join("aas-files/C-v3.0");
    [
        "FAAAST-Service/model.aasx",
        "basyx-java-server-sdk/testEnvironment.xml",
        "submodel-templates/IDTA 02006-3-0_Template_Digital Nameplate.aasx",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect()
}

/// BaSyx Python's server, killed when dropped.
struct BasyxServer {
    child: Child,
    url: String,
}

impl BasyxServer {
    fn start(files: &[PathBuf]) -> BasyxServer {
        let python = std::env::var_os("AAS_V3_SERVER_PYTHON").map_or_else(
            || {
                let home = std::env::var_os("HOME").expect("HOME");
                PathBuf::from(home).join(".cache/aas-browser/basyx-server/bin/python")
            },
            PathBuf::from,
        );
        assert!(
            python.exists(),
            "{} is missing: run scripts/install-deps.sh test",
            python.display()
        );
        let serve = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/v3-server/serve.py");
        let mut child = Command::new(python)
            .arg(serve)
            .args(files)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the BaSyx server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("its start-up line");
        let line: Value = serde_json::from_str(&line).expect("one JSON line");
        let url = line["url"].as_str().expect("url").to_owned();
        BasyxServer { child, url }
    }
}

impl Drop for BasyxServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn aasmd(server: &BasyxServer, args: &[&str]) -> Output {
    Command::new(AASMD)
        .args(["--v3", &server.url])
        .args(args)
        .env_remove("AASMD_STORE")
        .output()
        .expect("aasmd runs")
}

/// What the independent readers read of `files`: the shells' ids, and each submodel's
/// elements by id (nested ones included).
fn dumped(files: &[PathBuf]) -> (BTreeSet<String>, BTreeMap<String, usize>) {
    let (mut shells, mut elements) = (BTreeSet::new(), BTreeMap::new());
    for file in files {
        for line in dump_lines(file) {
            let item: Value = serde_json::from_str(&line).expect("a JSON line");
            let id = |key: &str| item[key].as_str().expect("an id").to_owned();
            match item["kind"].as_str() {
                Some("shell") => drop(shells.insert(id("id"))),
                Some("submodel") => drop(elements.entry(id("id")).or_insert(0)),
                Some("element") => *elements.entry(id("submodel")).or_insert(0) += 1,
                _ => {}
            }
        }
    }
    (shells, elements)
}

/// Elements in `list`, those nested in collections, lists, entities and annotated
/// relationships included.
fn count_elements(list: Option<&Value>) -> usize {
    let items = list.and_then(Value::as_array).into_iter().flatten();
    items
        .map(|e| {
            let below = match e["modelType"].as_str() {
                Some("SubmodelElementCollection" | "SubmodelElementList") => e.get("value"),
                Some("Entity") => e.get("statements"),
                Some("AnnotatedRelationshipElement") => e.get("annotations"),
                _ => None,
            };
            1 + count_elements(below)
        })
        .sum()
}

#[test]
fn every_shell_and_every_submodel_a_shell_names_is_read_as_independent_readers_read_them() {
    let files = served_files();
    let server = BasyxServer::start(&files);
    let dir = temp_dir("v3-server-export");
    let out = dir.join("server.json");
    let export = aasmd(
        &server,
        &[
            "export",
            "--format",
            "v3-env",
            "--out",
            out.to_str().expect("UTF-8"),
        ],
    );
    ok(&export);
    let env: Value = serde_json::from_slice(&std::fs::read(&out).expect("written")).expect("JSON");
    let (shells, elements) = dumped(&files);
    let read: BTreeSet<String> = (env["assetAdministrationShells"].as_array().expect("shells"))
        .iter()
        .map(|s| s["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(read, shells);
    // The submodels the shells name (a submodel no shell names has no place in a
    // shell's tree), each with every element the independent readers read.
    let named: BTreeSet<&str> = (env["assetAdministrationShells"].as_array().expect("shells"))
        .iter()
        .flat_map(|s| s["submodels"].as_array().cloned().unwrap_or_default())
        .filter_map(|r| {
            r["keys"].as_array()?.last()?["value"]
                .as_str()
                .map(str::to_owned)
        })
        .collect::<BTreeSet<String>>()
        .iter()
        .map(|s| {
            elements
                .get_key_value(s.as_str())
                .expect("a submodel the files hold")
                .0
                .as_str()
        })
        .collect();
    let submodels = env["submodels"].as_array().expect("submodels");
    assert_eq!(submodels.len(), named.len());
    assert!(named.len() >= 6, "{named:?}");
    for submodel in submodels {
        let id = submodel["id"].as_str().expect("id");
        assert!(named.contains(id), "{id}");
        assert_eq!(
            count_elements(submodel.get("submodelElements")),
            elements[id],
            "the elements of {id}"
        );
    }
}

#[test]
fn search_table_and_audit_read_a_v3_server() {
    let server = BasyxServer::start(&served_files());
    // A value of the FA³ST model's Nameplate, as the independent reader read it.
    let search = aasmd(&server, &["search", "Chat"]);
    let hits = ok(&search);
    assert!(
        hits.lines()
            .any(|l| l.contains("TypeOfCommunication") && l.ends_with("Chat")),
        "{hits}"
    );
    let table = ok(&aasmd(&server, &["table", "--format", "csv"]));
    let rows: BTreeSet<&str> = table
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    assert_eq!(rows.len(), 3, "a row per shell: {table}");
    let audit = aasmd(&server, &["audit"]);
    let said = String::from_utf8_lossy(&audit.stdout);
    assert!(said.contains("Digital Nameplate 3.0"), "{said}");
}

#[test]
fn a_server_that_does_not_answer_is_said_with_its_address_and_nothing_is_kept() {
    let dir = temp_dir("v3-server-down");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = format!("http://{}/api/v3.0", listener.local_addr().expect("addr"));
    drop(listener);
    let out = Command::new(AASMD)
        .args(["--v3", &address, "search", "x", "--store"])
        .arg(dir.join("never.sqlite3"))
        .env("AASMD_IDLE_TIMEOUT", "2s")
        .output()
        .expect("aasmd runs");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&address), "{said}");
    assert!(
        !dir.join("never.sqlite3").exists(),
        "the store it names is not touched"
    );
    // A take that read nothing leaves no snapshot behind, not even a partial one.
    let store = dir.join("kept.sqlite3");
    let take = Command::new(AASMD)
        .args(["--v3", &address, "snapshot", "take", "--store"])
        .arg(&store)
        .env("AASMD_IDLE_TIMEOUT", "2s")
        .output()
        .expect("aasmd runs");
    assert!(!take.status.success());
    let list = Command::new(AASMD)
        .args(["snapshot", "list", "--json", "--store"])
        .arg(&store)
        .output()
        .expect("aasmd runs");
    let listed: Vec<Value> = serde_json::from_str(&ok(&list)).expect("a JSON array");
    assert!(listed.is_empty(), "{listed:?}");
}

#[test]
fn a_change_made_through_the_servers_api_is_the_change_between_two_snapshots() {
    let server = BasyxServer::start(&served_files());
    let store = temp_dir("v3-server-take").join("snapshots.sqlite3");
    let store = store.to_str().expect("UTF-8");
    let take = || ok(&aasmd(&server, &["snapshot", "take", "--store", store]));
    let first: Value = serde_json::from_str(&take()).expect("a JSON line");
    assert_eq!(first["source"], "v3");
    assert_eq!(first["plant"], server.url.as_str());
    assert_eq!(first["shells"], 3);
    assert_eq!(first["complete"], true);
    // The FA³ST model's Nameplate: its contact's language, de, made fr through the
    // server's own API (the submodel's id as base64url, the element by its idShort path).
    let submodel = "MGNiMzNkMjAtODM3OC00NGU3LTg0MDItODQ4MjNjNGI1MWRk";
    let url = format!(
        "{}/submodels/{submodel}/submodel-elements/ContactInformation.Language",
        server.url
    );
    let element =
        r#"{"modelType":"Property","idShort":"Language","valueType":"xs:string","value":"fr"}"#;
    let put = Command::new("curl")
        .args([
            "-sf",
            "-X",
            "PUT",
            "-H",
            "Content-Type: application/json",
            "-d",
            element,
            &url,
        ])
        .output()
        .expect("curl runs");
    assert!(put.status.success(), "{put:?}");
    take();
    // The store read as any: no --v3 (which would read the server again).
    let diff = Command::new(AASMD)
        .args(["diff", "--store", store, "--plant", &server.url, "--json"])
        .output()
        .expect("aasmd runs");
    let diff = ok(&diff);
    let changes: Vec<Value> = serde_json::from_str(&diff).expect("JSON");
    let language: Vec<&Value> = (changes.iter())
        .filter(|c| c["path"] == serde_json::json!(["ContactInformation", "Language"]))
        .collect();
    assert_eq!(language.len(), 1, "{diff}");
    assert_eq!(language[0]["change"], "changed");
    assert_eq!(
        (&language[0]["old"], &language[0]["new"]),
        (&"de".into(), &"fr".into())
    );
    let refused = aasmd(
        &server,
        &["snapshot", "take", "--plant", "P", "--store", store],
    );
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn a_v3_snapshot_killed_while_submodels_are_read_keeps_every_shell_listed() {
    // The demo's V3 server, slow enough that the submodels take seconds to list.
    let demo = support::DemoService::start(&[
        "--addr",
        "127.0.0.1:0",
        "--demo",
        "2400",
        "--faults",
        "latency=30ms,seed=1",
    ]);
    let address = demo.line["v3_url"].as_str().expect("v3_url").to_owned();
    let dir = temp_dir("v3-server-kill");
    let store = dir.join("store.sqlite3");
    let mut running = Command::new(AASMD)
        .args(["--v3", &address, "snapshot", "take", "--store"])
        .arg(&store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("aasmd starts");
    // Killed once the shells are listed (22 pages) and 30 pages of submodels of about
    // 130 have come (a first batch of answers is written): each look at the count is a
    // request too.
    let (mut looks, start) = (1, demo.requests());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while demo.requests() < start + looks + 52 {
        looks += 1;
        if std::time::Instant::now() > deadline {
            let _ = running.kill();
            panic!("the reading never got far");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    running.kill().expect("SIGKILL");
    running.wait().expect("reaped");

    // The next take marks the killed one partial; it is whole itself.
    let take = Command::new(AASMD)
        .args(["--v3", &address, "snapshot", "take", "--store"])
        .arg(&store)
        .output()
        .expect("aasmd runs");
    let whole: Value = serde_json::from_str(&ok(&take)).expect("its line");
    let exported = |id: i64| {
        let out = dir.join(format!("snapshot-{id}.json"));
        let export = Command::new(AASMD)
            .args([
                "export",
                "--format",
                "v3-env",
                "--snapshot",
                &id.to_string(),
                "--out",
            ])
            .arg(&out)
            .arg("--store")
            .arg(&store)
            .output()
            .expect("aasmd runs");
        ok(&export);
        let env: Value =
            serde_json::from_slice(&std::fs::read(&out).expect("exported")).expect("JSON");
        let count = |key: &str| env[key].as_array().map_or(0, Vec::len);
        (count("assetAdministrationShells"), count("submodels"))
    };
    let whole_id = whole["id"].as_i64().expect("id");
    let (shells, submodels) = exported(whole_id);
    let (kept_shells, kept_submodels) = exported(whole_id - 1);
    assert!(shells > 2000 && submodels > 0, "{whole}");
    assert_eq!(
        kept_shells, shells,
        "every shell listed before the kill is in the partial snapshot"
    );
    assert!(
        kept_submodels < submodels,
        "{kept_submodels} of {submodels}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
