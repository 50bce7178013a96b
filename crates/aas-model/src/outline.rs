use serde::Serialize;

use crate::{AssetAdministrationShell, LangString, Parsed, Submodel, SubmodelElement};

/// What the tree and the details pane show of one node: a few display fields read from
/// the typed view, the exact JSON, and the reason when the node could not be read.
#[derive(Debug, Clone, Default, Serialize)]
pub struct OutlineNode {
    pub id_short: Option<String>,
    /// The AAS or submodel identifier, where the node has one.
    pub id: Option<String>,
    pub model_type: Option<String>,
    pub value: Option<String>,
    pub value_type: Option<String>,
    pub semantic_id: Option<String>,
    pub kind: Option<String>,
    pub description: Vec<LangString>,
    /// Nested elements (collection values, entity statements), already outlined.
    pub children: Vec<OutlineNode>,
    pub raw: String,
    pub error: Option<String>,
}

impl OutlineNode {
    pub fn shell(node: &Parsed<AssetAdministrationShell>) -> Self {
        Self::build(node, |aas, out| {
            out.id_short = Some(aas.id_short.clone());
            out.id = Some(aas.identification.id.clone());
            out.model_type = Some("AssetAdministrationShell".into());
            out.description = aas.description.clone();
            Ok(())
        })
    }

    pub fn submodel(node: &Parsed<Submodel>) -> Self {
        Self::build(node, |sm, out| {
            out.id_short = Some(sm.id_short.clone());
            out.id = sm.identification.as_ref().map(|i| i.id.clone());
            out.model_type = Some("Submodel".into());
            out.semantic_id = semantic(sm.semantic_id.as_ref());
            out.kind = sm.kind.clone();
            out.description = sm.description.clone();
            Ok(())
        })
    }

    pub fn element(node: &Parsed<SubmodelElement>) -> Self {
        Self::build(node, |el, out| {
            out.id_short = Some(el.id_short.clone());
            out.model_type = Some(el.model_type.name.clone());
            out.value_type = el.value_type();
            out.semantic_id = semantic(el.semantic_id.as_ref());
            out.kind = el.kind.clone();
            out.description = el.description.clone();
            out.value = el.display_value()?;
            out.children = el.children()?.iter().map(OutlineNode::element).collect();
            Ok(())
        })
    }

    fn build<T>(
        node: &Parsed<T>,
        fill: impl FnOnce(&T, &mut OutlineNode) -> crate::Result<()>,
    ) -> Self {
        let mut out = OutlineNode {
            raw: node.raw().to_owned(),
            ..OutlineNode::default()
        };
        let filled = match node.view() {
            Ok(view) => fill(view, &mut out),
            Err(e) => Err(e.clone()),
        };
        if let Err(e) = filled {
            out.error = Some(e.to_string());
        }
        out
    }
}

fn semantic(r: Option<&crate::Reference>) -> Option<String> {
    r.and_then(|r| r.target()).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_list;

    #[test]
    fn a_collection_outlines_its_children_and_a_bad_child_carries_its_reason() {
        let json = r#"[{"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
            {"idShort":"p","modelType":{"name":"Property"},"valueType":"string","value":"v"},
            {"idShort":"bad","modelType":{"name":"MultiLanguageProperty"},"value":"not a list"}]}]"#;
        let items = parse_list::<SubmodelElement>(json).expect("list");
        let c = OutlineNode::element(&items[0]);
        assert_eq!(c.error, None);
        assert_eq!(c.children.len(), 2);
        assert_eq!(c.children[0].value.as_deref(), Some("v"));
        assert_eq!(c.children[1].id_short.as_deref(), Some("bad"));
        assert!(c.children[1]
            .error
            .as_deref()
            .unwrap_or("")
            .contains("expected a sequence"));
    }
}
