//! `aasmd snapshot import FILE`: the shared real files (V2.0 XML to V3.1, AASX, JSON and
//! XML) taken into a store and read as any snapshot. Each file's snapshot holds every
//! shell the independent readers (`aas-dump`) read: the table
//! has a row for each, the search finds their values, the audit judges them, and a
//! second import of the same file has no changes. A file that is no AAS is refused
//! with its reason, and nothing is stored.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod support;

use support::{temp_dir, AASMD};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn aasmd(store: &Path, args: &[&str]) -> Output {
    Command::new(AASMD)
        .args(args)
        .arg("--store")
        .arg(store)
        .env("AASMD_STORE", "")
        .output()
        .expect("aasmd runs")
}

fn import(store: &Path, file: &Path) -> Output {
    let file = file.to_str().expect("a UTF-8 path");
    aasmd(store, &["snapshot", "import", file])
}

/// What `aas-dump` reads of `file`: its lines, or `None` where no reader could.
fn dumped(file: &Path) -> Option<Vec<Value>> {
    let out = Command::new(shared().join("tools/aas-dump"))
        .arg(file)
        .output()
        .expect("aas-dump runs");
    out.status.success().then(|| {
        (String::from_utf8_lossy(&out.stdout).lines())
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect()
    })
}

/// `export --snapshot ID --format FORMAT --out OUT`.
fn export_args<'a>(id: &'a str, format: &'a str, out: &'a Path) -> Vec<&'a str> {
    let out = out.to_str().expect("a UTF-8 path");
    vec!["export", "--snapshot", id, "--format", format, "--out", out]
}

/// What aas-core finds in a V3.0 file (`aasv3-check verify`), each finding without the
/// part or file it names.
fn findings(file: &Path) -> Vec<String> {
    let out = Command::new(shared().join("tools/aasv3-check"))
        .arg("verify")
        .arg(file)
        .output()
        .expect("aasv3-check runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines: Vec<String> = (text.lines())
        .filter_map(|line| line.strip_prefix("FAIL aas-core3.0: "))
        .map(|line| {
            line.split_once(": ")
                .map_or(line, |(_, rest)| rest)
                .to_owned()
        })
        .collect();
    lines.sort();
    assert!(!lines.is_empty() || out.status.success(), "{text}");
    lines
}

/// The shared AAS files, as `SOURCES.md` lists them (the first cell of its table's rows).
fn shared_files() -> Vec<PathBuf> {
    let dir = shared().join("aas-files");
    let sources = std::fs::read_to_string(dir.join("SOURCES.md")).expect("SOURCES.md");
    (sources.lines())
        .filter_map(|line| line.strip_prefix("| ")?.split(" |").next())
        .filter(|name| name.contains('/') && !name.starts_with("file"))
        .map(|name| dir.join(name))
        .collect()
}

/// A word of some element's text value that the search can look for.
fn a_word(lines: &[Value]) -> Option<String> {
    lines
        .iter()
        .filter(|line| line["kind"] == "element")
        .filter_map(|line| line["value"].as_str())
        .flat_map(|text| text.split(|c: char| !c.is_ascii_alphanumeric()))
        .find(|word| word.len() >= 5 && word.chars().all(|c| c.is_ascii_alphabetic()))
        .map(str::to_owned)
}

#[test]
fn every_shared_file_is_taken_in_and_read_as_any_snapshot() {
    let store = temp_dir("file-import").join("snapshots.sqlite3");
    let files = shared_files();
    assert_eq!(files.len(), 12, "{files:?}");
    let mut ids = std::collections::HashMap::new();
    for file in &files {
        let name = file.display();
        let out = import(&store, file);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {said}");
        let info: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        let plant = info["plant"].as_str().expect("the file's name").to_owned();
        ids.insert(plant.clone(), info["id"].to_string());
        assert_eq!(info["source"], "file", "{name}");
        assert_eq!(info["complete"], true, "{name}");

        let table = aasmd(&store, &["table", "--plant", &plant, "--format", "json"]);
        assert!(
            table.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&table.stderr)
        );
        let table: Value = serde_json::from_slice(&table.stdout).expect("the table as JSON");
        let rows: BTreeSet<&str> = (table["rows"].as_array().expect("rows").iter())
            .map(|row| row["aasId"].as_str().expect("aasId"))
            .collect();
        assert_eq!(
            rows.len() as u64,
            info["shells"].as_u64().expect("shells"),
            "{name}"
        );

        if let Some(lines) = dumped(file) {
            let shells: BTreeSet<&str> = (lines.iter())
                .filter(|line| line["kind"] == "shell")
                .map(|line| line["id"].as_str().expect("id"))
                .collect();
            assert_eq!(
                rows, shells,
                "{name}: the table's shells are the readers' shells"
            );
            if let Some(word) = a_word(&lines) {
                let found = aasmd(&store, &["search", &word, "--plant", &plant, "--json"]);
                assert!(
                    found.status.success(),
                    "{name}: {}",
                    String::from_utf8_lossy(&found.stderr)
                );
                let hits: Value = serde_json::from_slice(&found.stdout).expect("hits");
                let count = hits.as_array().map_or(0, Vec::len);
                assert!(count > 0, "{name}: no hit for {word}: {hits}");
                println!("{name}: search {word}: {count} hits");
            }
        }

        println!("{name}: {} shells in the table", rows.len());
        let audit = aasmd(&store, &["audit", "--plant", &plant, "--format", "json"]);
        let code = audit.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "{name}: audit {code:?}: {}",
            String::from_utf8_lossy(&audit.stderr)
        );
    }

    // A V3 file's snapshot is exported as V3, as the file has it: aas-core finds in the
    // export what it finds in the file; as V2 it is refused, and nothing is written.
    let dir = store.parent().expect("the store's folder").to_owned();
    let faaast = shared().join("aas-files/C-v3.0/FAAAST-Service/model.aasx");
    let v3 = dir.join("model-v3.json");
    let id = &ids["model.aasx"];
    let exported = aasmd(&store, &export_args(id, "v3-env", &v3));
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    assert_eq!(findings(&v3), findings(&faaast));
    let v2 = dir.join("model-v2.json");
    let refused = aasmd(&store, &export_args(id, "env", &v2));
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("written as AAS V3 only"), "{said}");
    assert!(!v2.exists());

    // The same file again: a second snapshot of it, with nothing changed.
    let file = shared().join("aas-files/C-v3.0/FAAAST-Service/model.aasx");
    assert!(import(&store, &file).status.success());
    let diff = aasmd(&store, &["diff", "--plant", "model.aasx", "--json"]);
    assert!(
        diff.status.success(),
        "{}",
        String::from_utf8_lossy(&diff.stderr)
    );
    let changes: Value = serde_json::from_slice(&diff.stdout).expect("changes as JSON");
    assert_eq!(changes.as_array().map(Vec::len), Some(0), "{changes}");
}

#[test]
fn a_file_that_is_no_aas_is_refused_with_its_reason_and_nothing_is_stored() {
    let dir = temp_dir("file-import-refused");
    let store = dir.join("snapshots.sqlite3");
    let file = dir.join("drawing.xml");
    std::fs::write(&file, r#"<svg xmlns="http://www.w3.org/2000/svg"/>"#).expect("written");
    let out = import(&store, &file);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no AAS V1.0, V2.0, V3.0 or V3.1 namespace"),
        "{said}"
    );
    assert!(out.stdout.is_empty());
    assert!(!store.exists(), "a store was made for nothing");
}

#[test]
fn a_file_named_with_file_is_the_source_of_search_table_export_and_diff() {
    let tmp = temp_dir("file-source");
    let faaast = shared().join("aas-files/C-v3.0/FAAAST-Service/model.aasx");
    let faaast = faaast.to_str().expect("UTF-8");
    // The temporary store goes where TMPDIR says: there, it is seen removed.
    let run = |args: &[&str]| {
        Command::new(AASMD)
            .args(args)
            .env("TMPDIR", &tmp)
            .env_remove("AASMD_STORE")
            .output()
            .expect("aasmd runs")
    };
    let json = |out: &Output| -> Value {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let table = json(&run(&["--file", faaast, "table", "--format", "json"]));
    assert_eq!(table["rows"].as_array().map(Vec::len), Some(1), "{table}");
    let hits = json(&run(&["--file", faaast, "search", "example", "--json"]));
    assert!(hits.as_array().is_some_and(|h| !h.is_empty()), "{hits}");
    let changes = json(&run(&[
        "--file", faaast, "--file", faaast, "diff", "--json",
    ]));
    assert_eq!(changes.as_array().map(Vec::len), Some(0), "{changes}");
    let out = tmp.join("model.json");
    let exported = run(&[
        "--file",
        faaast,
        "export",
        "--format",
        "v3-env",
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    assert!(out.exists());
    let refused = run(&["--file", faaast, "registry"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr)
        .contains("--file, --v3 and a V3 server's profile are sources for"));
    // Every temporary store is gone: only the export and its report are left.
    let mut left: Vec<_> = (std::fs::read_dir(&tmp).expect("the folder").flatten())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["model.conversion.json", "model.json"]);
}

#[test]
fn a_v3_1_file_exported_as_v3_0_has_its_idshorts_renamed_and_reported() {
    let dir = temp_dir("file-v3.1-to-v3.0");
    let file = dir.join("hyphens.json");
    std::fs::write(
        &file,
        r#"{"assetAdministrationShells": [{"modelType": "AssetAdministrationShell", "id": "urn:aas",
            "idShort": "Pump-7", "assetInformation": {"assetKind": "Instance", "globalAssetId": "urn:asset"},
            "submodels": [{"type": "ModelReference", "keys": [{"type": "Submodel", "value": "urn:sm"}]}]}],
          "submodels": [{"modelType": "Submodel", "id": "urn:sm", "idShort": "Nameplate",
            "submodelElements": [{"modelType": "Property", "idShort": "Motor-Speed", "valueType": "xs:int", "value": "7"}]}]}"#,
    )
    .expect("written");
    let out = dir.join("v3.0.json");
    let export = Command::new(AASMD)
        .args([
            "--file",
            file.to_str().expect("UTF-8"),
            "export",
            "--format",
            "v3.0-json",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("aasmd runs");
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let written: Value =
        serde_json::from_slice(&std::fs::read(&out).expect("written")).expect("JSON");
    assert_eq!(written["assetAdministrationShells"][0]["idShort"], "Pump_7");
    assert_eq!(
        written["submodels"][0]["submodelElements"][0]["idShort"],
        "Motor_Speed"
    );
    let report: Value = serde_json::from_slice(
        &std::fs::read(dir.join("v3.0.conversion.json")).expect("beside it"),
    )
    .expect("JSON");
    let renamed: Vec<(&str, &str)> = (report["changes"].as_array().expect("changes").iter())
        .map(|c| {
            (
                c["was"].as_str().unwrap_or_default(),
                c["now"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        renamed,
        [("Pump-7", "Pump_7"), ("Motor-Speed", "Motor_Speed")]
    );
    assert!(findings(&out).is_empty());
}
