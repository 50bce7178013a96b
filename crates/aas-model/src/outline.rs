use serde::Serialize;

use crate::{
    AssetAdministrationShell, LangString, Nullable, Parsed, Reference, Submodel, SubmodelElement,
    MAX_ELEMENT_DEPTH,
};

/// What the tree and the details pane show of one node: a few display fields read from
/// the typed view, the exact JSON, and the reason when the node could not be read.
/// Fields without a value are left out of its JSON: an AAS list of 10,000 shells
/// crosses to the page as 1.1 MB instead of 2.5 MB.
#[derive(Debug, Clone, Default, Serialize)]
pub struct OutlineNode {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_short: Option<String>,
    /// The AAS or submodel identifier, where the node has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub description: Vec<LangString>,
    /// The unit from the element's own IEC 61360 data specification, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// How many qualifiers (constraints) the element or submodel carries.
    #[serde(skip_serializing_if = "is_zero")]
    pub qualifiers: usize,
    /// Nested elements (collection values, entity statements, annotations, operation
    /// variables), already outlined.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<OutlineNode>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub raw: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl OutlineNode {
    /// A shell as an AAS list gives it to the page: without its JSON (6.7 MB for
    /// 10,000 shells, most never looked at; the page asks for the one it shows), unless
    /// the shell cannot be read and is shown as received.
    pub fn shell(node: &Parsed<AssetAdministrationShell>) -> Self {
        Self::build(node, Raw::OnError, |aas, out| {
            out.id_short = Some(aas.id_short.clone());
            out.id = Some(aas.id().to_owned());
            out.model_type = Some("AssetAdministrationShell".into());
            out.description = aas.description.to_vec();
            Ok(())
        })
    }

    pub fn submodel(node: &Parsed<Submodel>) -> Self {
        Self::build(node, Raw::Always, |sm, out| {
            out.id_short = Some(sm.id_short.clone());
            out.id = Some(sm.id().to_owned()).filter(|id| !id.is_empty());
            out.model_type = Some("Submodel".into());
            out.semantic_id = semantic(&sm.semantic_id);
            out.kind = sm.kind.as_ref().cloned();
            out.description = sm.description.to_vec();
            out.qualifiers = sm.qualifiers.len();
            Ok(())
        })
    }

    pub fn element(node: &Parsed<SubmodelElement>) -> Self {
        Self::element_at(node, 1)
    }

    /// An element `depth` levels below its submodel; past [`MAX_ELEMENT_DEPTH`] its
    /// children are not outlined (they stay in its JSON), so the walk cannot exhaust
    /// the stack on an answer stored before answers were measured on arrival.
    fn element_at(node: &Parsed<SubmodelElement>, depth: usize) -> Self {
        Self::build(node, Raw::Always, |el, out| {
            out.id_short = Some(el.id_short.clone());
            out.model_type = Some(el.model_type.name.clone());
            out.value_type = el.value_type();
            out.semantic_id = semantic(&el.semantic_id);
            out.kind = el.kind.as_ref().cloned();
            out.description = el.description.to_vec();
            out.unit = el.unit().map(str::to_owned);
            out.qualifiers = el.qualifiers.len();
            out.value = el.display_value()?;
            let children = el.children()?;
            if depth >= MAX_ELEMENT_DEPTH && !children.is_empty() {
                return Err(crate::Error::Decode {
                    path: ".".into(),
                    message: format!(
                        "its elements are nested deeper than {MAX_ELEMENT_DEPTH} levels and are not shown; they are in its JSON"
                    ),
                });
            }
            out.children = children
                .iter()
                .map(|child| Self::element_at(child, depth + 1))
                .collect();
            Ok(())
        })
    }

    fn build<T>(
        node: &Parsed<T>,
        raw: Raw,
        fill: impl FnOnce(&T, &mut OutlineNode) -> crate::Result<()>,
    ) -> Self {
        let mut out = OutlineNode::default();
        let filled = match node.view() {
            Ok(view) => fill(view, &mut out),
            Err(e) => Err(e.clone()),
        };
        if let Err(e) = &filled {
            out.error = Some(e.to_string());
        }
        if filled.is_err() || raw == Raw::Always {
            out.raw = node.raw().to_owned();
        }
        out
    }
}

/// When an outline node carries the JSON it was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    Always,
    OnError,
}

fn semantic(r: &Nullable<Reference>) -> Option<String> {
    r.as_ref().and_then(Reference::target).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_list;

    #[test]
    fn a_collection_outlines_its_children_with_unit_and_qualifiers() {
        let json = r#"[{"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
            {"idShort":"p","modelType":{"name":"Property"},"valueType":"double","value":"2.5",
             "qualifiers":[{"modelType":{"name":"Qualifier"},"type":"Multiplicity","valueType":"string","value":"One"}],
             "embeddedDataSpecifications":[{"dataSpecificationContent":{"preferredName":[],"unit":"mm"}}]},
            {"idShort":"e","modelType":{"name":"Entity"},"entityType":"CoManagedEntity","statements":[
                {"idShort":"s","modelType":{"name":"Property"},"value":"x"}]}]}]"#;
        let items = parse_list::<SubmodelElement>(json).expect("list");
        let c = OutlineNode::element(&items[0]);
        assert_eq!(c.error, None);
        assert_eq!(c.children.len(), 2);
        let p = &c.children[0];
        assert_eq!(p.value.as_deref(), Some("2.5"));
        assert_eq!(p.value_type.as_deref(), Some("double"));
        assert_eq!(p.unit.as_deref(), Some("mm"));
        assert_eq!(p.qualifiers, 1);
        assert_eq!(c.children[1].children[0].value.as_deref(), Some("x"));
    }

    #[test]
    fn a_bad_child_carries_its_reason_and_its_collection_is_fine() {
        let json = r#"[{"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
            {"idShort":"p","modelType":{"name":"Property"},"valueType":"string","value":"v"},
            {"idShort":"bad","modelType":{"name":"MultiLanguageProperty"},"value":"not a list"}]},
            {"idShort":"fine","modelType":{"name":"Property"},"value":"1"}]"#;
        let items = parse_list::<SubmodelElement>(json).expect("list");
        let c = OutlineNode::element(&items[0]);
        assert_eq!(c.error, None);
        assert_eq!(c.id_short.as_deref(), Some("C"));
        assert_eq!(c.children.len(), 2);
        assert_eq!(c.children[0].value.as_deref(), Some("v"));
        assert_eq!(c.children[0].error, None);
        let bad = &c.children[1];
        assert_eq!(bad.id_short, None);
        let error = bad.error.as_deref().expect("the bad child has its reason");
        assert!(error.contains("at value:"), "{error}");
        assert!(error.contains("expected a sequence"), "{error}");
        assert_eq!(
            bad.raw,
            r#"{"idShort":"bad","modelType":{"name":"MultiLanguageProperty"},"value":"not a list"}"#
        );
        assert_eq!(OutlineNode::element(&items[1]).value.as_deref(), Some("1"));
    }

    #[test]
    fn elements_nested_past_the_bound_stop_with_a_reason_instead_of_a_deeper_walk() {
        let mut json =
            r#"{"idShort":"leaf","modelType":{"name":"Property"},"value":"x"}"#.to_owned();
        for level in 0..MAX_ELEMENT_DEPTH + 5 {
            json = format!(
                r#"{{"idShort":"c{level}","modelType":{{"name":"SubmodelElementCollection"}},"value":[{json}]}}"#
            );
        }
        let items = parse_list::<SubmodelElement>(&format!("[{json}]")).expect("list");
        let mut node = OutlineNode::element(&items[0]);
        let mut depth = 1;
        while let Some(child) = node.children.pop() {
            (node, depth) = (child, depth + 1);
        }
        assert_eq!(depth, MAX_ELEMENT_DEPTH);
        let error = node
            .error
            .expect("the deepest outlined node says why it stops");
        assert!(error.contains("nested deeper than"), "{error}");
        assert!(node.raw.contains(r#""idShort":"leaf""#));
    }

    #[test]
    fn a_listed_shell_crosses_to_the_page_with_its_fields_that_have_a_value_only() {
        let json = r#"[{"modelType":{"name":"AssetAdministrationShell"},"idShort":"M1",
            "identification":{"idType":"IRI","id":"urn:m1"},
            "asset":{"keys":[{"type":"Asset","local":true,"value":"urn:a1","idType":"IRI"}]}},
            {"idShort":7}]"#;
        let items = parse_list::<AssetAdministrationShell>(json).expect("list");
        let fine = serde_json::to_value(OutlineNode::shell(&items[0])).expect("json");
        assert_eq!(
            fine,
            serde_json::json!({"id_short": "M1", "id": "urn:m1", "model_type": "AssetAdministrationShell"})
        );
        let bad = serde_json::to_value(OutlineNode::shell(&items[1])).expect("json");
        assert_eq!(bad["raw"], r#"{"idShort":7}"#);
        assert!(
            bad["error"].as_str().is_some_and(|e| e.contains("idShort")),
            "{bad}"
        );
    }
}
