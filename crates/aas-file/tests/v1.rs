//! AAS V1.0 XML (AASX Package Explorer's until 2020) read as V2.0, by the renames that
//! tool's own conversion makes: shells, submodels and element values as written.

use aas_file::{read_bytes, Value, Version};

/// A V1.0 environment as AASX Package Explorer wrote them (its schema, `schemaV10/AAS.xsd`,
/// and its example ServoDCMotor package): every element in a `submodelElement`, an
/// operation's variables `in` and `out`, identifier type `URI`, kind `Type`. aasmd's
/// conversion test converts it too.
const V1: &str = include_str!("support/v1-servo.xml");

#[test]
fn a_v1_file_is_read_as_v2_with_its_version_named() {
    let contents = read_bytes("servo.xml", V1.as_bytes().to_vec()).expect("read");
    assert_eq!(contents.parts[0].1, Version::V1);
    let shell = &contents.shells[0];
    assert_eq!(shell.id, "http://example.com/aas/servo");
    assert_eq!(
        shell.global_asset_id.as_deref(),
        Some("http://example.com/asset/servo")
    );
    // An asset's kind is one V2.0 keeps as it is.
    assert_eq!(shell.asset_kind.as_deref(), Some("Type"));
    assert_eq!(shell.submodels, ["http://example.com/sm/data"]);
    let submodel = &contents.submodels[0];
    assert_eq!(submodel.semantic_id.as_deref(), Some("TechnicalData"));
    let [speed, start] = &submodel.elements[..] else {
        panic!("{:?}", submodel.elements)
    };
    assert_eq!(speed.value, Value::Text(Some("5000".into())));
    assert_eq!(speed.value_type.as_deref(), Some("int"));
    // The operation's variables `in` and `out`.
    let variables: Vec<_> = start.children.iter().map(|v| v.id_short.clone()).collect();
    assert_eq!(variables, [Some("Speed".into()), Some("Done".into())]);
}

#[test]
fn a_v1_file_taken_in_is_v2_json_renamed_as_its_writer_renames_it() {
    let (_, json) =
        aas_file::environment_json("servo.xml", V1.as_bytes().to_vec()).expect("as JSON");
    let shell = &json["assetAdministrationShells"][0];
    assert_eq!(shell["identification"]["idType"], "IRI", "URI is IRI");
    let submodel = &json["submodels"][0];
    assert_eq!(submodel["semanticId"]["keys"][0]["idType"], "IdShort");
    assert_eq!(
        submodel["kind"], "Template",
        "a modelling kind Type is Template"
    );
    assert_eq!(json["assets"][0]["kind"], "Type", "an asset's kind stays");
    let start = &submodel["submodelElements"][1];
    assert_eq!(start["inputVariable"][0]["value"]["idShort"], "Speed");
    assert_eq!(start["outputVariable"][0]["value"]["idShort"], "Done");
    let embedded = &json["conceptDescriptions"][0]["embeddedDataSpecifications"][0];
    assert_eq!(embedded["dataSpecification"]["keys"][0]["idType"], "IRI");
    // A short name of no language keeps its text, with no language: giving it one
    // would be a guess.
    assert_eq!(
        embedded["dataSpecificationContent"]["shortName"],
        serde_json::json!([{"language": "", "text": "MaxRotSpeed"}])
    );
    // And item by item, as the store takes it in.
    aas_file::answers_of("servo.xml", V1.as_bytes().to_vec()).expect("taken in");
}
