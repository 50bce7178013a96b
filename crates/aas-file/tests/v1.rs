//! AAS V1.0 XML (AASX Package Explorer's until 2020) read as V2.0, by the renames that
//! tool's own conversion makes: shells, submodels and element values as written.

use aas_file::{read_bytes, Value, Version};

/// A V1.0 environment as AASX Package Explorer wrote them (its schema, `schemaV10/AAS.xsd`,
/// and its example ServoDCMotor package): every element in a `submodelElement`, an
/// operation's variables `in` and `out`, identifier type `URI`, kind `Type`.
const V1: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<aas:aasenv xmlns:aas="http://www.admin-shell.io/aas/1/0" xmlns:IEC61360="http://www.admin-shell.io/IEC61360/1/0">
  <aas:assetAdministrationShells>
    <aas:assetAdministrationShell>
      <aas:idShort>Servo</aas:idShort>
      <aas:identification idType="URI">http://example.com/aas/servo</aas:identification>
      <aas:assetRef><aas:keys><aas:key type="Asset" local="true" idType="URI">http://example.com/asset/servo</aas:key></aas:keys></aas:assetRef>
      <aas:submodelRefs>
        <aas:submodelRef><aas:keys><aas:key type="Submodel" local="true" idType="URI">http://example.com/sm/data</aas:key></aas:keys></aas:submodelRef>
      </aas:submodelRefs>
    </aas:assetAdministrationShell>
  </aas:assetAdministrationShells>
  <aas:assets>
    <aas:asset>
      <aas:idShort>ServoAsset</aas:idShort>
      <aas:identification idType="URI">http://example.com/asset/servo</aas:identification>
      <aas:kind>Type</aas:kind>
    </aas:asset>
  </aas:assets>
  <aas:submodels>
    <aas:submodel>
      <aas:idShort>TechnicalData</aas:idShort>
      <aas:identification idType="URI">http://example.com/sm/data</aas:identification>
      <aas:semanticId><aas:keys><aas:key type="ConceptDescription" local="true" idType="idShort">TechnicalData</aas:key></aas:keys></aas:semanticId>
      <aas:kind>Type</aas:kind>
      <aas:submodelElements>
        <aas:submodelElement>
          <aas:property>
            <aas:idShort>MaxRotationSpeed</aas:idShort>
            <aas:kind>Type</aas:kind>
            <aas:valueType>int</aas:valueType>
            <aas:value>5000</aas:value>
          </aas:property>
        </aas:submodelElement>
        <aas:submodelElement>
          <aas:operation>
            <aas:idShort>Start</aas:idShort>
            <aas:in>
              <aas:idShort>speedIn</aas:idShort>
              <aas:value><aas:property><aas:idShort>Speed</aas:idShort><aas:valueType>int</aas:valueType><aas:value>10</aas:value></aas:property></aas:value>
            </aas:in>
            <aas:out>
              <aas:idShort>doneOut</aas:idShort>
              <aas:value><aas:property><aas:idShort>Done</aas:idShort><aas:valueType>boolean</aas:valueType><aas:value>true</aas:value></aas:property></aas:value>
            </aas:out>
          </aas:operation>
        </aas:submodelElement>
      </aas:submodelElements>
    </aas:submodel>
  </aas:submodels>
  <aas:conceptDescriptions>
    <aas:conceptDescription>
      <aas:idShort>MaxRotationSpeed</aas:idShort>
      <aas:identification idType="IRDI">0173-1#02-BAA120#008</aas:identification>
      <aas:embeddedDataSpecification>
        <aas:hasDataSpecification><aas:keys><aas:key type="GlobalReference" local="false" idType="URI">www.admin-shell.io/DataSpecificationTemplates/DataSpecificationIEC61360</aas:key></aas:keys></aas:hasDataSpecification>
        <aas:dataSpecificationContent><aas:dataSpecificationIEC61360><IEC61360:shortName>MaxRotSpeed</IEC61360:shortName></aas:dataSpecificationIEC61360></aas:dataSpecificationContent>
      </aas:embeddedDataSpecification>
    </aas:conceptDescription>
  </aas:conceptDescriptions>
</aas:aasenv>
"#;

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
