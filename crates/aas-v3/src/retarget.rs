//! A V3 environment (V3.0 or V3.1, as read) made valid for the other V3 version where
//! the two differ. Of what a file holds, they differ in the idShort's rule: V3.1 takes a
//! hyphen inside but wants two characters (`A` becomes `A_`), V3.0 takes no hyphen
//! (`Motor-Speed` becomes `Motor_Speed`). Each rename is a change, reported as a
//! conversion from V2 reports it, and a model reference's key naming a renamed element
//! follows it; everything else is kept as read.

use std::borrow::Cow;

use crate::change::Rule;
use crate::fields::At;
use crate::id_short::{renamed, valid, Siblings};
use crate::node::Node;
use crate::reference::ELEMENT_KEYS;
use crate::{Converter, Result};

/// The lists of an environment whose items are identifiables.
const IDENTIFIABLES: [&str; 3] = [
    "assetAdministrationShells",
    "submodels",
    "conceptDescriptions",
];

impl Converter<'_> {
    /// `environment` (V3 JSON) for the converter's target ([`Converter::target`]).
    pub fn retarget<'a>(&mut self, environment: Node<'a>) -> Result<Node<'a>> {
        let mut environment = environment.read();
        let root = At::Root("");
        if let Node::Object(members) = &mut environment {
            for (name, list) in members.iter_mut() {
                if IDENTIFIABLES.contains(&name.as_ref()) {
                    self.identifiables(list, root.field(name))?;
                }
            }
        }
        self.follow_keys(&mut environment, root)?;
        Ok(environment)
    }

    /// One identifiable of a V3 source (a shell, a submodel, a concept description) for
    /// the converter's target, its paths below `at` (as [`Converter::submodel`]'s).
    pub fn retarget_identifiable<'a>(&mut self, item: Node<'a>, at: &str) -> Result<Node<'a>> {
        let mut item = item.read();
        let root = At::Root(at);
        self.retarget_one(&mut item, root)?;
        self.follow_keys(&mut item, root)?;
        Ok(item)
    }

    fn identifiables(&mut self, list: &mut Node<'_>, at: At<'_>) -> Result<()> {
        read_in_place(list);
        let Node::List(items) = list else {
            return Ok(());
        };
        for (i, item) in items.iter_mut().enumerate() {
            self.retarget_one(item, at.item(i))?;
        }
        Ok(())
    }

    fn retarget_one(&mut self, item: &mut Node<'_>, at: At<'_>) -> Result<()> {
        read_in_place(item);
        // An identifiable's idShort is unique among nothing: it is only held to the rule.
        let mut alone = Siblings::of(self.target_version(), std::iter::empty());
        self.retarget_id_short(item, &mut alone, at)?;
        match field_mut(item, "submodelElements") {
            Some(elements) => self.retarget_elements(elements, at.field("submodelElements"), false),
            None => Ok(()),
        }
    }

    /// The elements of a list: siblings, each idShort held to the rule and unique among
    /// them; a SubmodelElementList's items (`in_list`) have none to hold.
    fn retarget_elements(&mut self, list: &mut Node<'_>, at: At<'_>, in_list: bool) -> Result<()> {
        read_in_place(list);
        let Node::List(items) = list else {
            return Ok(());
        };
        items.iter_mut().for_each(read_in_place);
        let mut siblings = Siblings::of(self.target_version(), items.iter());
        for (i, item) in items.iter_mut().enumerate() {
            let here = at.item(i);
            if !in_list {
                self.retarget_id_short(item, &mut siblings, here)?;
            }
            self.retarget_below(item, here)?;
        }
        Ok(())
    }

    /// The elements an element holds, by its kind.
    fn retarget_below(&mut self, element: &mut Node<'_>, at: At<'_>) -> Result<()> {
        let model_type = element
            .get("modelType")
            .and_then(Node::as_str)
            .map(str::to_owned);
        let (field, in_list) = match model_type.as_deref() {
            Some("SubmodelElementCollection") => ("value", false),
            Some("SubmodelElementList") => ("value", true),
            Some("Entity") => ("statements", false),
            Some("AnnotatedRelationshipElement") => ("annotations", false),
            Some("Operation") => return self.retarget_variables(element, at),
            _ => return Ok(()),
        };
        match field_mut(element, field) {
            Some(list) => self.retarget_elements(list, at.field(field), in_list),
            None => Ok(()),
        }
    }

    /// An operation's variables: their values are siblings across all three lists
    /// (AASd-134).
    fn retarget_variables(&mut self, operation: &mut Node<'_>, at: At<'_>) -> Result<()> {
        let target = self.target_version();
        let mut siblings = Siblings::of(target, std::iter::empty());
        for kind in ["inputVariables", "outputVariables", "inoutputVariables"] {
            let Some(list) = field_mut(operation, kind) else {
                continue;
            };
            read_in_place(list);
            let Node::List(variables) = list else {
                continue;
            };
            let list_at = at.field(kind);
            for (i, variable) in variables.iter_mut().enumerate() {
                read_in_place(variable);
                let item_at = list_at.item(i);
                if let Some(value) = field_mut(variable, "value") {
                    read_in_place(value);
                    let value_at = item_at.field("value");
                    self.retarget_id_short(value, &mut siblings, value_at)?;
                    self.retarget_below(value, value_at)?;
                }
            }
        }
        Ok(())
    }

    /// Gives `item` the idShort `siblings` allow it, reporting a rename.
    fn retarget_id_short(
        &mut self,
        item: &mut Node<'_>,
        siblings: &mut Siblings<'_>,
        at: At<'_>,
    ) -> Result<()> {
        let Some(given) = item
            .get("idShort")
            .and_then(Node::as_str)
            .map(str::to_owned)
        else {
            return Ok(());
        };
        let name = siblings.name(Some(&Cow::Owned(given.clone()))).into_owned();
        if name != given {
            self.change(
                at.field("idShort"),
                Rule::IdShort,
                Node::text(given),
                Some(Node::text(name.clone())),
            )?;
            if let Some(id_short) = field_mut(item, "idShort") {
                *id_short = Node::Text(Cow::Owned(name));
            }
        }
        Ok(())
    }

    /// Every model reference's keys into elements, renamed as their elements were.
    fn follow_keys(&mut self, node: &mut Node<'_>, at: At<'_>) -> Result<()> {
        read_in_place(node);
        let target = self.target_version();
        match node {
            Node::Object(members) => {
                let model = members.iter().any(|(name, value)| {
                    name == "type" && value.as_str() == Some("ModelReference")
                });
                for (name, value) in members.iter_mut() {
                    let here = at.field(name);
                    if model && name == "keys" {
                        self.model_keys(value, here, target)?;
                    } else {
                        self.follow_keys(value, here)?;
                    }
                }
            }
            Node::List(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.follow_keys(item, at.item(i))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn model_keys(&mut self, keys: &mut Node<'_>, at: At<'_>, target: crate::Target) -> Result<()> {
        read_in_place(keys);
        let Node::List(keys) = keys else {
            return Ok(());
        };
        for (i, key) in keys.iter_mut().enumerate().skip(1) {
            read_in_place(key);
            let element = key
                .get("type")
                .and_then(Node::as_str)
                .is_some_and(|t| ELEMENT_KEYS.contains(&t));
            let Some(value) = key.get("value").and_then(Node::as_str).map(str::to_owned) else {
                continue;
            };
            if element && !valid(target, &value) {
                let now = renamed(target, &value);
                let here = at.item(i);
                self.change(
                    here.field("value"),
                    Rule::IdShort,
                    Node::text(value),
                    Some(Node::text(now.clone())),
                )?;
                if let Some(v) = field_mut(key, "value") {
                    *v = Node::Text(Cow::Owned(now));
                }
            }
        }
        Ok(())
    }
}

/// `node` made a tree where the reader kept it as text.
fn read_in_place(node: &mut Node<'_>) {
    if matches!(node, Node::Raw(_)) {
        *node = std::mem::replace(node, Node::Null).read();
    }
}

/// Field `name` of an object, to change.
fn field_mut<'n, 'a>(node: &'n mut Node<'a>, name: &str) -> Option<&'n mut Node<'a>> {
    match node {
        Node::Object(members) => members.iter_mut().find(|(n, _)| n == name).map(|(_, v)| v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Change, Target};

    const V3_1: &str = r#"{"submodels": [{"modelType": "Submodel", "id": "urn:sm", "idShort": "A",
      "submodelElements": [
        {"modelType": "Property", "idShort": "Motor-Speed", "valueType": "xs:int"},
        {"modelType": "Property", "idShort": "Motor_Speed", "valueType": "xs:int"},
        {"modelType": "SubmodelElementList", "idShort": "Li", "value": [
          {"modelType": "SubmodelElementCollection", "value": [
            {"modelType": "Property", "idShort": "X", "valueType": "xs:int"}]}]},
        {"modelType": "ReferenceElement", "idShort": "Ref", "value": {"type": "ModelReference",
          "keys": [{"type": "Submodel", "value": "urn:sm"}, {"type": "Property", "value": "Motor-Speed"}]}}]}]}"#;

    fn retargeted(target: Target) -> (serde_json::Value, Vec<Change>) {
        let mut changes = Vec::new();
        let env = Converter::new(&mut changes)
            .target(target)
            .retarget(serde_json::from_str(V3_1).expect("JSON"))
            .expect("retargeted")
            .to_value();
        (env, changes)
    }

    #[test]
    fn v3_1_idshorts_are_renamed_for_v3_0_and_model_references_follow() {
        let (env, changes) = retargeted(Target::V3_0);
        let elements = &env["submodels"][0]["submodelElements"];
        // A hyphen V3.0 does not take; the twin it would make gets `_2`.
        assert_eq!(elements[0]["idShort"], "Motor_Speed_2");
        assert_eq!(elements[1]["idShort"], "Motor_Speed");
        // V3.0 takes one character; a list's items keep having no idShort.
        assert_eq!(env["submodels"][0]["idShort"], "A");
        assert_eq!(elements[2]["value"][0]["value"][0]["idShort"], "X");
        assert!(elements[2]["value"][0].get("idShort").is_none());
        // The key follows the rule's rename; that a twin made it `_2` it cannot know
        // (as in a conversion from V2): the report names both.
        assert_eq!(elements[3]["value"]["keys"][1]["value"], "Motor_Speed");
        let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "submodels[0].submodelElements[0].idShort",
                "submodels[0].submodelElements[3].value.keys[1].value"
            ]
        );
        assert!(changes.iter().all(|c| c.rule == Rule::IdShort));
    }

    #[test]
    fn v3_1_keeps_hyphens_and_renames_one_character_idshorts() {
        let (env, changes) = retargeted(Target::V3_1);
        let elements = &env["submodels"][0]["submodelElements"];
        assert_eq!(elements[0]["idShort"], "Motor-Speed");
        assert_eq!(env["submodels"][0]["idShort"], "A_");
        assert_eq!(elements[2]["value"][0]["value"][0]["idShort"], "X_");
        assert_eq!(changes.len(), 2, "{changes:?}");
    }
}
