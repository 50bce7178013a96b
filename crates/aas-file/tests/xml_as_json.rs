//! XML as the JSON the specification of its version writes, judged by code we did not
//! write: our JSON of every shared V3 XML file is read by aas-core's strict JSON reader
//! (through `aasv3-check`) without a word, and it finds in it what it finds in the XML
//! itself; our JSON of every shared V2.0 XML file holds the shells and submodels
//! `SOURCES.md` counts, that of PyI40AAS's own package the same objects as the package
//! (`aasv2-check same`), and that of its own full example environment reads strictly.

use std::path::Path;
use std::process::Command;

use aas_file::Version;

mod support;

use support::{counted, shared};

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

/// `aasv2-check COMMAND FILES…`: whether it held, and what it said.
fn aasv2_check(args: &[&Path]) -> (bool, String) {
    let out = Command::new(shared().join("tools/aasv2-check"))
        .args(args)
        .output()
        .expect("aasv2-check runs");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.success(),
        said + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn every_shared_v2_xml_file_converts_to_json_that_pyi40aas_reads_as_it_reads_the_file() {
    let files = [
        "A-v2.0-aasx-xml/aasx-package-explorer/07_PhoenixContact.aasx",
        "A-v2.0-aasx-xml/AASPortal/24_Festo.aasx",
        "A-v2.0-aasx-xml/basyx-java-sdk/TestPackage.aasx",
        "A-v2.0-aasx-xml/basyx-python-sdk/test_demo_full_example2.aasx",
        "B-v2-aasx-json-and-xml-env/aas-specs/ServoDCMotor_-_Simplified_V2.0.xml",
        "B-v2-aasx-json-and-xml-env/basyx-python-sdk/test_demo_full_example.xml",
    ];
    let dir = std::env::temp_dir().join(format!("aas-file-v2-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ours = dir.join("ours.json");
    let mut compared = 0;
    for name in files {
        let file = shared().join("aas-files").join(name);
        let parts = aas_file::xml_parts_as_json(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(parts.len(), 1, "{name}: one XML spec part");
        assert_eq!(parts[0].1, Version::V2, "{name}");
        std::fs::write(&ours, parts[0].2.to_string()).expect("written");
        let json = &parts[0].2;
        let count = |key: &str| json[key].as_array().map_or(0, Vec::len);
        let (shells, submodels) = counted(&file);
        assert_eq!(
            (count("assetAdministrationShells"), count("submodels")),
            (shells, submodels),
            "{name}: the shells and submodels SOURCES.md counts"
        );
        // PyI40AAS's own package (its other packages break its strict rules): it reads
        // the same objects from ours.
        if name.ends_with("test_demo_full_example2.aasx") {
            let (same, said) = aasv2_check(&[Path::new("same"), &ours, &file]);
            assert!(same, "{name}: {said}");
            compared += 1;
            println!("{name}: the same objects");
        }
        // Its own full example, every kind of object, as an environment file.
        if name.ends_with("test_demo_full_example.xml") {
            let (read, said) = aasv2_check(&[Path::new("load"), &ours]);
            assert!(read, "{name}: PyI40AAS cannot read our JSON: {said}");
            compared += 1;
            println!("{name}: read by PyI40AAS");
        }
    }
    assert_eq!(compared, 2, "files PyI40AAS judged");
    std::fs::remove_dir_all(&dir).expect("temp dir removed");
}
