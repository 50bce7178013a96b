#![allow(dead_code)] // each test binary uses part of it
//! Real `aasmd` processes for the reliability tests: a demo service that can be killed and
//! started again, and a crawl whose stderr is read line by line as it runs.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};

use serde_json::{json, Value};

pub const AASMD: &str = env!("CARGO_BIN_EXE_aasmd");

/// A running `aasmd demo-service`; killed (SIGKILL) when dropped.
pub struct DemoService {
    pub child: Child,
    /// Its start-up line.
    pub line: Value,
}

impl DemoService {
    /// Starts `aasmd demo-service ARGS` and reads its start-up line.
    pub fn start(args: &[&str]) -> DemoService {
        Self::start_with_env(args, &[])
    }

    /// Like [`DemoService::start`], with environment variables set for it.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> DemoService {
        let mut child = Command::new(AASMD)
            .arg("demo-service")
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("aasmd demo-service starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("start-up line");
        let line = serde_json::from_str(&line).expect("one JSON line");
        DemoService { child, line }
    }

    /// Writes the start-up line where `aasmd --config` reads it.
    pub fn write_config(&self, path: &Path) {
        std::fs::write(path, self.line.to_string()).expect("config file");
    }

    /// `HOST:PORT` it listens on.
    pub fn addr(&self) -> String {
        let url = self.line["registry_url"].as_str().expect("registry_url");
        url.trim_start_matches("http://").to_owned()
    }

    /// Requests served so far, from `/demo-service/stats`.
    pub fn requests(&self) -> u64 {
        let out = Command::new("curl")
            .args(["-sf", &format!("http://{}/demo-service/stats", self.addr())])
            .output()
            .expect("curl runs");
        let stats: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        stats["requests_total"].as_u64().unwrap_or(0)
    }

    /// SIGKILL, as a crash or `kill -9` would.
    pub fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reaped");
    }
}

impl Drop for DemoService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `aasmd --config CONFIG crawl ARGS` running, with its stderr lines as they come.
pub fn crawl(config: &Path, args: &[&str]) -> (Child, Receiver<String>) {
    let mut child = Command::new(AASMD)
        .arg("--config")
        .arg(config)
        .arg("crawl")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aasmd crawl starts");
    let stderr = child.stderr.take().expect("stderr");
    let (send, lines) = channel();
    std::thread::spawn(move || {
        // Read to the end even when nobody listens, so the crawl never writes to a
        // closed pipe.
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    (child, lines)
}

/// `aasmd --config CONFIG ARGS` with the snapshot store `store` (a file or a URL).
pub fn aasmd_with_store(config: &Path, store: impl AsRef<OsStr>, args: &[&str]) -> Output {
    Command::new(AASMD)
        .arg("--config")
        .arg(config)
        .args(args)
        .env("AASMD_STORE", store)
        .output()
        .expect("aasmd runs")
}

/// A store with one complete snapshot of the demo service's demo plant, and the config to
/// reach the demo service.
pub fn snapshot_of_demo(name: &str) -> (DemoService, PathBuf, PathBuf) {
    snapshot_of_demo_service(name, &[])
}

/// [`snapshot_of_demo`] of `aasmd demo-service ARGS` (`--demo N`: a larger plant).
pub fn snapshot_of_demo_service(name: &str, args: &[&str]) -> (DemoService, PathBuf, PathBuf) {
    let mut all = vec!["--addr", "127.0.0.1:0"];
    all.extend_from_slice(args);
    let demo_service = DemoService::start(&all);
    let dir = temp_dir(name);
    let (config, store) = (dir.join("line.json"), dir.join("store.sqlite3"));
    demo_service.write_config(&config);
    ok(&aasmd_with_store(
        &config,
        &store,
        &["snapshot", "take", "--plant", "DEMO-01"],
    ));
    (demo_service, config, store)
}

/// The stdout of a command that must have succeeded.
pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

/// A fresh directory under the system's temp dir.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "aasmd-{name}-{}-{}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The nodes of a raw export: node path → (URL, JSON).
pub fn raw_nodes(file: &Path) -> std::collections::BTreeMap<String, (Value, Value)> {
    let bundle: Value =
        serde_json::from_slice(&std::fs::read(file).expect("read export")).expect("JSON");
    let listed = bundle["nodes"].as_array().expect("nodes");
    let nodes: std::collections::BTreeMap<_, _> = listed
        .iter()
        .map(|n| (n["path"].to_string(), (n["url"].clone(), n["json"].clone())))
        .collect();
    // No node is recorded twice: distinct paths = nodes listed = the manifest's count.
    assert_eq!(
        nodes.len(),
        listed.len(),
        "a node recorded twice in {}",
        file.display()
    );
    assert_eq!(bundle["manifest"]["nodes"], listed.len());
    nodes
}

/// The names of the files in `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A V2 environment with one shell, Pump, whose one submodel, Documentation, holds
/// `elements`.
pub fn pump_with_documents(elements: Vec<Value>) -> Value {
    json!({
        "assetAdministrationShells": [{"modelType": {"name": "AssetAdministrationShell"}, "idShort": "Pump",
            "identification": {"idType": "IRI", "id": "urn:x:aas:pump"},
            "asset": {"keys": [{"type": "Asset", "local": true, "idType": "IRI", "value": "urn:x:asset:pump"}]},
            "submodels": [{"keys": [{"type": "Submodel", "local": true, "idType": "IRI", "value": "urn:x:sm:docs"}]}]}],
        "assets": [{"modelType": {"name": "Asset"}, "identification": {"idType": "IRI", "id": "urn:x:asset:pump"}, "kind": "Instance"}],
        "submodels": [{"modelType": {"name": "Submodel"}, "idShort": "Documentation", "kind": "Instance",
            "identification": {"idType": "IRI", "id": "urn:x:sm:docs"},
            "submodelElements": elements}],
        "conceptDescriptions": []})
}
