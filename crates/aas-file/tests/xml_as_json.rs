//! V3.0 and V3.1 XML as the JSON the specification writes, judged by aas-core (through
//! `aasv3-check`): our JSON of every shared V3 XML file is read by aas-core's strict
//! JSON reader without a word, and it finds in it what it finds in the XML itself.

use std::path::{Path, PathBuf};
use std::process::Command;

use aas_file::Version;

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// `aasv3-check verify` of `file`: its finding lines, each without the part it names.
fn findings(file: &Path, version: &str) -> Vec<String> {
    let out = Command::new(shared().join("tools/aasv3-check"))
        .args(["verify", "--version", version])
        .arg(file)
        .output()
        .expect("aasv3-check runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut lines: Vec<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("FAIL aas-core"))
        .map(|line| match line.split_once(": ") {
            // "3.0: <part>: <path>: <words>" → "<path>: <words>"
            Some((_, rest)) => rest.split_once(": ").map_or(rest, |(_, r)| r).to_owned(),
            None => line.to_owned(),
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn every_shared_v3_xml_file_converts_to_json_that_aas_core_reads_as_it_reads_the_xml() {
    let files = [
        "C-v3.0/FAAAST-Service/model.aasx",
        "C-v3.0/submodel-templates/IDTA 02006-3-0_Template_Digital Nameplate.aasx",
        "C-v3.0/basyx-java-server-sdk/testEnvironment.xml",
        "D-v3.1/basyx-aas-web-ui/cable1.aasx",
    ];
    let dir = std::env::temp_dir().join(format!("aas-file-xml-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for name in files {
        let file = shared().join("aas-files").join(name);
        let parts = aas_file::xml_parts_as_json(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(parts.len(), 1, "{name}: one XML spec part");
        let (_, version, json) = &parts[0];
        let version = match version {
            Version::V3_0 => "3.0",
            Version::V3_1 => "3.1",
            other => panic!("{name}: read as {other:?}"),
        };
        let ours = dir.join("ours.json");
        std::fs::write(&ours, json.to_string()).expect("written");
        let in_json = findings(&ours, version);
        assert!(
            !in_json.iter().any(|f| f.contains("could not read")),
            "{name}: aas-core cannot read our JSON: {in_json:#?}"
        );
        // Where aas-core reads the XML itself, it finds the same in both.
        let in_xml = findings(&file, version);
        if !in_xml.iter().any(|f| f.contains("could not read")) {
            assert_eq!(in_json, in_xml, "{name}: what aas-core finds");
        }
        println!("{name}: V{version}, {} findings in both", in_json.len());
    }
    std::fs::remove_dir_all(&dir).expect("temp dir removed");
}

#[test]
fn v2_xml_is_named_not_converted() {
    let file = shared()
        .join("aas-files/B-v2-aasx-json-and-xml-env/aas-specs/ServoDCMotor_-_Simplified_V2.0.xml");
    let error = aas_file::xml_parts_as_json(&file).expect_err("V2 XML");
    assert!(
        error.to_string().contains("V2.0 XML is not converted"),
        "{error}"
    );
}
