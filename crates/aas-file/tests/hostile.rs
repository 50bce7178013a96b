//! Files made to hurt a reader: each is refused with words that say why, or read within
//! bounds, and nothing else happens.

use std::path::Path;

use aas_file::read_bytes;

const V3: &str = "https://admin-shell.io/aas/3/0";

fn refused(bytes: &[u8]) -> String {
    match read_bytes("hostile", bytes.to_vec()) {
        Ok(contents) => panic!("read: {contents:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn entity_expansion_and_external_entities_are_refused() {
    let laughs = format!(
        r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
        <environment xmlns="{V3}"><submodels><submodel><id>&lol2;</id></submodel></submodels></environment>"#
    );
    assert!(refused(laughs.as_bytes()).contains("document type"));
    let external = format!(
        r#"<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <environment xmlns="{V3}"><submodels><submodel><id>&x;</id></submodel></submodels></environment>"#
    );
    assert!(refused(external.as_bytes()).contains("document type"));
    // An undeclared entity is not expanded either.
    let undeclared = format!(
        r#"<environment xmlns="{V3}"><submodels><submodel><id>&x;</id></submodel></submodels></environment>"#
    );
    assert!(refused(undeclared.as_bytes()).contains("cannot be read"));
}

#[test]
fn deep_nesting_is_refused_in_xml_and_json() {
    let depth = 10_000;
    let xml = format!(
        r#"<environment xmlns="{V3}">{}{}</environment>"#,
        "<a>".repeat(depth),
        "</a>".repeat(depth)
    );
    assert!(refused(xml.as_bytes()).contains("nested deeper"));
    let json = format!(
        r#"{{"submodels": {}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let why = refused(json.as_bytes());
    assert!(why.contains("deep") || why.contains("nest"), "{why}");
}

#[test]
fn other_versions_and_other_documents_are_named() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg"/>"#;
    assert!(refused(svg.as_bytes()).contains("no AAS V1.0, V2.0, V3.0 or V3.1 namespace"));
    assert!(refused(b"PK\x03\x04 not a zip").contains("AASX"));
    assert!(refused(b"\x00\x01binary").contains("neither XML nor"));
    assert!(
        refused(format!(r#"<environment xmlns="{V3}"><submodels>"#).as_bytes()).contains("XML")
    );
}

#[test]
fn a_huge_attribute_or_text_is_read_within_the_files_own_size() {
    // 20 MB of text in one value: read as it is, no copy grows past it.
    let big = "x".repeat(20 << 20);
    let xml = format!(
        r#"<environment xmlns="{V3}"><submodels><submodel><id>urn:s</id><submodelElements><property><idShort>p</idShort><valueType>xs:string</valueType><value>{big}</value></property></submodelElements></submodel></submodels></environment>"#
    );
    let contents = read_bytes("big", xml.into_bytes()).expect("read");
    match &contents.submodels[0].elements[0].value {
        aas_file::Value::Text(Some(text)) => assert_eq!(text.len(), 20 << 20),
        other => panic!("{other:?}"),
    }
}

/// The bytes every node's text holds of its own, all levels.
fn kept(elements: &[aas_file::Element]) -> usize {
    (elements.iter())
        .map(|e| e.raw.held() + kept(&e.children))
        .sum()
}

#[test]
fn a_file_nested_deep_is_not_kept_once_per_level() {
    // Thirty collections one in another around a 3 MB value: each level's text holds
    // the value, so keeping every level's text would take 30 times the file.
    for xml in [false, true] {
        let value = "v".repeat(3 << 20);
        let (mut json, mut xml_text) = (
            format!(r#"{{"idShort":"P","modelType":"Property","valueType":"xs:string","value":"{value}"}}"#),
            format!("<property><idShort>P</idShort><valueType>xs:string</valueType><value>{value}</value></property>"),
        );
        for level in 0..30 {
            json = format!(
                r#"{{"idShort":"C{level}","modelType":"SubmodelElementCollection","value":[{json}]}}"#
            );
            xml_text = format!("<submodelElementCollection><idShort>C{level}</idShort><value>{xml_text}</value></submodelElementCollection>");
        }
        let file = match xml {
            false => format!(
                r#"{{"submodels":[{{"id":"urn:sm","idShort":"S","modelType":"Submodel","submodelElements":[{json}]}}]}}"#
            ),
            true => format!(
                r#"<environment xmlns="{V3}"><submodels><submodel><id>urn:sm</id><idShort>S</idShort><submodelElements>{xml_text}</submodelElements></submodel></submodels></environment>"#
            ),
        };
        let contents = read_bytes("deep", file.clone().into_bytes()).expect("read");
        let submodel = &contents.submodels[0];
        let total = submodel.raw.held() + kept(&submodel.elements);
        assert!(
            total <= (64 << 20) + 2 * file.len(),
            "xml {xml}: {total} bytes kept of a {} byte file",
            file.len()
        );
        // The innermost nodes come first: the value itself is shown.
        let mut innermost = &submodel.elements[0];
        while let Some(child) = innermost.children.first() {
            innermost = child;
        }
        assert!(
            innermost.raw.text().contains(&value),
            "xml {xml}: the property's text is kept"
        );
        // The texts are spans of the submodel's: every level's text is there.
        assert_eq!(total, 0, "xml {xml}: nothing copied");
        assert!(submodel.elements[0].raw.text().contains(&value));
    }
}

#[test]
fn properties_of_a_newer_writer_are_kept_and_named_not_fatal() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/aas-files/D-v3.1/aas-specs-metamodel/maximal.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).expect("the shared V3.1 file")).expect("JSON");
    doc["submodels"][0]["futureField"] = serde_json::json!({"x": 1});
    doc["submodels"][0]["submodelElements"][0]["anotherNew"] = "v".into();
    let contents = read_bytes("newer.json", serde_json::to_vec(&doc).expect("JSON")).expect("read");
    // In the file's order (the new field was added after the elements).
    assert_eq!(
        contents.unknown,
        [
            "submodels[0].submodelElements[0].anotherNew",
            "submodels[0].futureField"
        ]
    );
    assert_eq!(contents.unknown_count, 2);
    // Kept as read: the raw JSON of the submodel holds them.
    assert!(contents.submodels[0].raw.text().contains("futureField"));
    // The file as published names none: every property it has is the metamodel's.
    let published = read_bytes("maximal.json", std::fs::read(&file).expect("file")).expect("read");
    assert_eq!((published.unknown.len(), published.unknown_count), (0, 0));
    // A list that is empty (null) is still the metamodel's; V2's assets and an unknown
    // list are not V3's, and do not make the file V2.
    doc["conceptDescriptions"] = serde_json::Value::Null;
    doc["assets"] = serde_json::json!([{"id": "urn:asset"}]);
    doc["extraList"] = serde_json::json!([]);
    let odd = read_bytes("odd.json", serde_json::to_vec(&doc).expect("JSON")).expect("read");
    assert_eq!(odd.parts[0].1, aas_file::Version::V3);
    assert!(
        odd.unknown
            .ends_with(&["assets".to_owned(), "extraList".to_owned()]),
        "{:?}",
        odd.unknown
    );
    assert!(!odd
        .unknown
        .iter()
        .any(|u| u.starts_with("conceptDescriptions")));
}

#[test]
fn elements_of_a_newer_writer_in_xml_are_kept_and_named_not_fatal() {
    // Everything known (one object, lists of objects, lists of language texts, an element
    // in a collection) besides two elements of no class, and an element kind of none.
    let xml = format!(
        r#"<environment xmlns="{V3}">
          <assetAdministrationShells><assetAdministrationShell>
            <id>urn:s</id><assetInformation><assetKind>Instance</assetKind></assetInformation>
            <submodels><reference><type>ModelReference</type><keys><key><type>Submodel</type><value>urn:sm</value></key></keys></reference></submodels>
          </assetAdministrationShell></assetAdministrationShells>
          <submodels><submodel>
            <idShort>S</idShort><id>urn:sm</id>
            <semanticId><type>ExternalReference</type><keys><key><type>GlobalReference</type><value>urn:x</value></key></keys></semanticId>
            <futureField>1</futureField>
            <submodelElements>
              <submodelElementCollection><idShort>C</idShort><value>
                <multiLanguageProperty><idShort>M</idShort><value><langStringTextType><language>en</language><text>t</text></langStringTextType></value></multiLanguageProperty>
                <property><idShort>P</idShort><valueType>xs:string</valueType><value>v</value><anotherNew>x</anotherNew></property>
              </value></submodelElementCollection>
              <hologram><idShort>H</idShort></hologram>
            </submodelElements>
          </submodel></submodels>
        </environment>"#
    );
    let contents = read_bytes("newer.xml", xml.into_bytes()).expect("read");
    assert_eq!(
        contents.unknown,
        [
            "submodels[0].futureField",
            "submodels[0].submodelElements[0].value[1].anotherNew",
            "submodels[0].submodelElements[1]",
        ]
    );
    assert_eq!(contents.unknown_count, 3);
    assert!(contents.submodels[0].raw.text().contains("<futureField>"));
    // The published XML files name none: every element they have is the metamodel's.
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/aas-files");
    for file in [
        "C-v3.0/basyx-java-server-sdk/testEnvironment.xml",
        "C-v3.0/FAAAST-Service/model.aasx",
        "C-v3.0/submodel-templates/IDTA 02006-3-0_Template_Digital Nameplate.aasx",
        "D-v3.1/basyx-aas-web-ui/cable1.aasx",
    ] {
        let published = aas_file::read(&shared.join(file)).expect("read");
        assert_eq!(published.unknown, Vec::<String>::new(), "{file}");
    }
}

/// A package holding one part `name`, `head`, then `filler` `times` over, then `tail`,
/// deflated: gigabytes of it are kilobytes of package.
fn package_of(name: &str, head: &str, filler: &str, times: usize, tail: &str) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().large_file(true);
    zip.start_file(name, options).expect("a part");
    zip.write_all(head.as_bytes()).expect("written");
    for _ in 0..times {
        zip.write_all(filler.as_bytes()).expect("written");
    }
    zip.write_all(tail.as_bytes()).expect("written");
    zip.finish().expect("a package").into_inner()
}

#[test]
fn an_xml_part_is_read_as_it_inflates_past_what_is_held_of_a_file() {
    // 300 MiB of concept descriptions (which the model does not read) before a
    // submodel: more than a file held whole may be (256 MiB), read as it inflates.
    let description = format!(
        "<conceptDescription><id>{}</id></conceptDescription>",
        "x".repeat(1 << 20)
    );
    let package = package_of(
        "env.xml",
        &format!(r#"<environment xmlns="{V3}"><conceptDescriptions>"#),
        &description,
        300,
        "</conceptDescriptions>\r\n  <submodels>\r\n    <submodel><id>urn:after</id>\r\n      <submodelElements>\r\n        <property><idShort>P</idShort></property>\r\n      </submodelElements></submodel>\r\n  </submodels>\r\n</environment>",
    );
    assert!(package.len() < 4 << 20, "{} bytes", package.len());
    // Taken in (the store's reading) as well as opened.
    aas_file::answers_of("large.aasx", package.clone()).expect("taken in");
    let contents = read_bytes("large.aasx", package).expect("read");
    let submodel = &contents.submodels[0];
    assert_eq!(submodel.id, "urn:after");
    // Each node's text exactly, after text between tags (which the XML reader reads
    // a byte past).
    assert_eq!(
        submodel.raw.text(),
        "<submodel><id>urn:after</id>\r\n      <submodelElements>\r\n        <property><idShort>P</idShort></property>\r\n      </submodelElements></submodel>"
    );
    assert_eq!(
        submodel.elements[0].raw.text(),
        "<property><idShort>P</idShort></property>"
    );
}

#[test]
fn an_xml_bomb_of_nothing_is_refused_past_what_one_item_may_be() {
    // 300 MiB of spaces between two submodels: nothing to read, and not held.
    let why = refused(&package_of(
        "env.xml",
        &format!(r#"<environment xmlns="{V3}"><submodels><submodel><id>urn:a</id></submodel>"#),
        &" ".repeat(1 << 20),
        300,
        "</submodels></environment>",
    ));
    assert!(why.contains("larger than 256 MiB"), "{why}");
}

#[test]
fn a_json_part_is_read_as_it_inflates_past_what_is_held_of_a_file() {
    // As of XML: 300 MiB of concept descriptions before a submodel.
    let description = format!(
        r#"{{"modelType":"ConceptDescription","id":"{}"}},"#,
        "x".repeat(1 << 20)
    );
    let submodel = r#"{"modelType":"Submodel","id":"urn:after","submodelElements":[{"modelType":"Property","idShort":"P","valueType":"xs:string"}]}"#;
    let package = package_of(
        "env.json",
        r#"{"conceptDescriptions": ["#,
        &description,
        300,
        &format!(
            r#"{{"modelType":"ConceptDescription","id":"last"}}],
          "submodels": [{submodel}]}}"#
        ),
    );
    assert!(package.len() < 4 << 20, "{} bytes", package.len());
    aas_file::answers_of("large.aasx", package.clone()).expect("taken in");
    let contents = read_bytes("large.aasx", package).expect("read");
    let read = &contents.submodels[0];
    assert_eq!(read.id, "urn:after");
    // Each node's text: compact JSON, a span of its submodel's.
    assert_eq!(read.raw.text(), submodel);
    assert_eq!(
        read.elements[0].raw.text(),
        r#"{"modelType":"Property","idShort":"P","valueType":"xs:string"}"#
    );
    assert_eq!(read.raw.held() + read.elements[0].raw.held(), 0);
}

#[test]
fn a_json_bomb_of_nothing_is_refused_past_what_one_item_may_be() {
    // 300 MiB of spaces in one submodel: nothing to read, and not held.
    let why = refused(&package_of(
        "env.json",
        r#"{"submodels": [{"id": "urn:a", "idShort": "#,
        &" ".repeat(1 << 20),
        300,
        r#""S"}]}"#,
    ));
    assert!(why.contains("larger than 256 MiB"), "{why}");
}

#[test]
fn a_json_name_past_what_one_item_may_be_is_refused() {
    // A name of the environment's is held whole by the parser: bounded as an item is.
    let why = refused(&package_of(
        "env.json",
        r#"{"submodels": [], ""#,
        &"n".repeat(1 << 20),
        300,
        r#"": 1}"#,
    ));
    assert!(why.contains("larger than 256 MiB"), "{why}");
}

#[test]
fn an_xml_file_past_what_is_held_of_a_file_is_opened_and_taken_in() {
    // 300 MiB on the disk: read as it comes from there, as a package's part is read as
    // it inflates.
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("aas-file-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("large.xml");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).expect("created"));
    write!(file, r#"<environment xmlns="{V3}"><conceptDescriptions>"#).expect("written");
    let description = format!(
        "<conceptDescription><id>{}</id></conceptDescription>",
        "x".repeat(1 << 20)
    );
    for _ in 0..300 {
        file.write_all(description.as_bytes()).expect("written");
    }
    file.write_all(b"</conceptDescriptions><submodels><submodel><id>urn:after</id></submodel></submodels></environment>").expect("written");
    file.into_inner().expect("flushed");
    let opened = aas_file::read(&path);
    let taken = aas_file::answers(&path);
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(opened.expect("opened").submodels[0].id, "urn:after");
    taken.expect("taken in");
}
