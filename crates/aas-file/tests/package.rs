//! AASX packages as real writers make them: relationship types with and without `www.`,
//! split spec parts, part names in another case, byte order marks, fragments.

use std::io::Write;

use zip::write::SimpleFileOptions;

fn package(parts: &[(&str, &str)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in parts {
        zip.start_file(*name, SimpleFileOptions::default())
            .expect("a part");
        zip.write_all(text.as_bytes()).expect("written");
    }
    zip.finish().expect("a package").into_inner()
}

fn rels(entries: &[(&str, &str)]) -> String {
    let body: String = entries
        .iter()
        .enumerate()
        .map(|(i, (kind, target))| {
            format!(r#"<Relationship Type="{kind}" Target="{target}" Id="R{i}"/>"#)
        })
        .collect();
    format!("\u{feff}<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">{body}</Relationships>")
}

fn submodel_xml(id: &str) -> String {
    submodels_xml(&[id])
}

fn submodels_xml(ids: &[&str]) -> String {
    let submodels: String = ids
        .iter()
        .map(|id| format!("<submodel><id>{id}</id></submodel>"))
        .collect();
    format!(
        "\u{feff}<environment xmlns=\"https://admin-shell.io/aas/3/1\"><submodels>{submodels}</submodels></environment>"
    )
}

#[test]
fn spec_and_split_parts_are_read_whichever_namespace_and_case() {
    let new = "http://admin-shell.io/aasx/relationships/";
    let old = "http://www.admin-shell.io/aasx/relationships/";
    let bytes = package(&[
        (
            "_rels/.rels",
            &rels(&[(&format!("{old}aasx-origin"), "/aasx/aasx-origin")]),
        ),
        ("aasx/aasx-origin", "Intentionally empty."),
        (
            "aasx/_rels/aasx-origin.rels",
            &rels(&[(&format!("{new}aas-spec"), "/AASX/Main.xml#fragment")]),
        ),
        ("aasx/main.xml", &submodel_xml("urn:main")),
        (
            "aasx/_rels/main.xml.rels",
            &rels(&[(&format!("{new}aas-spec-split"), "split.xml")]),
        ),
        // The main part's submodel again, and one twice: each is read once, the first met.
        (
            "aasx/split.xml",
            &submodels_xml(&["urn:main", "urn:split", "urn:split"]),
        ),
    ]);
    let contents = aas_file::read_bytes("p.aasx", bytes).expect("read");
    let ids: Vec<&str> = contents.submodels.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["urn:main", "urn:split"]);
}

#[test]
fn a_package_zipped_by_hand_is_read_from_its_json_and_xml_parts() {
    let bytes = package(&[("aasx/data.xml", &submodel_xml("urn:x"))]);
    let contents = aas_file::read_bytes("p.aasx", bytes).expect("read without relationships");
    let ids: Vec<&str> = contents.submodels.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["urn:x"]);
    let bytes = package(&[("aasx/notes.txt", "not AAS")]);
    let why = aas_file::read_bytes("p.aasx", bytes)
        .expect_err("nothing to read")
        .to_string();
    assert!(why.contains("names no AAS spec part"), "{why}");
}
