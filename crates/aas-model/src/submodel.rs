use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize};

use crate::model_typed::Head;
use crate::record::{self, Record};
use crate::{
    AdministrativeInformation, Constraint, EmbeddedDataSpecification, Identifier, LangString,
    ModelType, Nullable, OtherFields, Parsed, RawElement, Reference, SubmodelElement,
};

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Submodel {
    /// Required by V2, optional by V3 (`""` when it has none, written back so).
    pub id_short: String,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub identification: Nullable<Identifier>,
    /// V3's identifier; [`Submodel::id`] reads either version's.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub id: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub category: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub parent: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub administration: Nullable<AdministrativeInformation>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub embedded_data_specifications: Nullable<Vec<EmbeddedDataSpecification>>,
    /// `Instance` or `Template`.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub kind: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub qualifiers: Nullable<Vec<Constraint>>,
    /// The top-level elements, as sent; [`Submodel::elements`] types them.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub submodel_elements: Nullable<Vec<RawElement>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl Submodel {
    /// Its identifier: V2's `identification.id` or V3's `id` (`""` if it has neither).
    pub fn id(&self) -> &str {
        crate::common::identifier(&self.identification, &self.id)
    }

    /// The top-level elements, each with its exact JSON for the raw view; a malformed
    /// one is an error view of its own, beside its good siblings.
    pub fn elements(&self) -> Vec<Parsed<SubmodelElement>> {
        self.submodel_elements
            .iter()
            .map(RawElement::parse)
            .collect()
    }
}

/// Read key by key (not with `flatten`, which would buffer the elements' text away).
impl<'de> Deserialize<'de> for Submodel {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        record::deserialize::<D, SubmodelFields>(de)
    }
}

#[derive(Default)]
struct SubmodelFields {
    submodel: Submodel,
    /// `idShort` is required in V2, and may be empty, so its presence is tracked apart.
    has_id_short: bool,
}

impl<'de> Head<'de> for SubmodelFields {
    fn read<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let sm = &mut self.submodel;
        match key {
            "idShort" => {
                sm.id_short = map.next_value()?;
                self.has_id_short = true;
            }
            "identification" => sm.identification = map.next_value()?,
            "id" => sm.id = map.next_value()?,
            "modelType" => sm.model_type = map.next_value()?,
            "category" => sm.category = map.next_value()?,
            "description" => sm.description = map.next_value()?,
            "parent" => sm.parent = map.next_value()?,
            "administration" => sm.administration = map.next_value()?,
            "embeddedDataSpecifications" => sm.embedded_data_specifications = map.next_value()?,
            "kind" => sm.kind = map.next_value()?,
            "semanticId" => sm.semantic_id = map.next_value()?,
            "qualifiers" => sm.qualifiers = map.next_value()?,
            "submodelElements" => sm.submodel_elements = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl Record<'_> for SubmodelFields {
    type Output = Submodel;
    const EXPECTING: &'static str = "a submodel";

    fn finish<E: serde::de::Error>(self, extra: OtherFields) -> Result<Submodel, E> {
        // V2 requires an idShort; V3 identifies a submodel by `id` alone.
        if !self.has_id_short && self.submodel.id.is_absent() {
            return Err(E::missing_field("idShort"));
        }
        Ok(Submodel {
            extra,
            ..self.submodel
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, Error};

    const GOOD: &str = r#"{"value" : 1.50,"idShort":"good","modelType":{"name":"Property"}}"#;
    const BAD: &str =
        r#"{"idShort":"bad","modelType":{"name":"MultiLanguageProperty"},"value":"oops"}"#;

    #[test]
    fn a_malformed_element_fails_alone_and_every_element_keeps_its_text() {
        let json = format!(
            r#"{{"submodelElements":[ {GOOD},{BAD} ],"idShort":"S","modelType":{{"name":"Submodel"}},"x":1}}"#
        );
        let sm = parse::<Submodel>(&json).expect("the submodel is fine");
        assert_eq!(sm.id_short, "S");
        assert_eq!(sm.extra.len(), 1);
        let elements = sm.elements();
        assert_eq!(elements.len(), 2);
        assert_eq!(elements[0].raw(), GOOD);
        assert_eq!(elements[0].view().expect("good").id_short, "good");
        assert_eq!(elements[1].raw(), BAD);
        let err = elements[1].view().expect_err("bad");
        assert!(
            matches!(err, Error::Decode { path, message }
                if path == "value" && message.contains("expected a sequence")),
            "{err}"
        );
        let written = serde_json::to_string(&sm).expect("writes");
        assert_eq!(
            written,
            format!(
                r#"{{"idShort":"S","modelType":{{"name":"Submodel"}},"submodelElements":[{GOOD},{BAD}],"x":1}}"#
            )
        );
    }

    #[test]
    fn absent_null_and_empty_elements_come_back_as_they_went_in() {
        for json in [
            r#"{"idShort":"S"}"#,
            r#"{"idShort":"S","submodelElements":null}"#,
            r#"{"idShort":"S","submodelElements":[]}"#,
        ] {
            let sm = parse::<Submodel>(json).expect("valid");
            assert!(sm.elements().is_empty());
            assert_eq!(serde_json::to_string(&sm).expect("writes"), json);
        }
        assert!(parse::<Submodel>(r#"{"submodelElements":[]}"#).is_err());
    }

    #[test]
    fn a_decode_error_names_the_json_path_of_a_nested_failure() {
        let json = r#"{"idShort":"S","submodelElements":[
            {"idShort":"ok","modelType":{"name":"Property"}}],
            "qualifiers":[{"modelType":{"name":"Qualifier"},"type":"t","valueId":{"keys":[{"type":"GlobalReference"}]}}]}"#;
        let err = parse::<Submodel>(json).expect_err("key value is missing");
        match err {
            Error::Decode { path, message } => {
                assert_eq!(path, "qualifiers[0].valueId.keys[0]");
                assert!(message.contains("missing field `value`"), "{message}");
            }
            other => panic!("not a decode error: {other}"),
        }
    }

    #[test]
    fn a_bad_nested_element_fails_alone_and_names_its_path_inside_itself() {
        let json = r#"{"idShort":"S","submodelElements":[
            {"idShort":"ok","modelType":{"name":"Property"}},
            {"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
                {"idShort":"m","modelType":{"name":"MultiLanguageProperty"},"value":[{"language":"en"}]}]}]}"#;
        let sm = parse::<Submodel>(json).expect("the submodel itself is fine");
        let elements = sm.elements();
        let c = elements[1].view().expect("the collection is fine");
        let kids = c.children().expect("children");
        match kids[0].view().expect_err("text is missing") {
            Error::Decode { path, message } => {
                assert_eq!(path, "value[0]");
                assert!(message.contains("missing field `text`"), "{message}");
            }
            other => panic!("not a decode error: {other}"),
        }
    }
}
