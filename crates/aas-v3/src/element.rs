//! Submodel elements, by model type. Each keeps its place among its siblings (V3.0
//! collections are unordered, but the file keeps the order the source had).

use std::borrow::Cow;

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, model_type_name, At, Fields};
use crate::id_short::Siblings;
use crate::limits::NAME_MAX;
use crate::node::{member, remove_member, Members, Node};
use crate::Result;

/// The data elements, whose category V3.0 restricts (AASd-090).
const DATA_ELEMENTS: [&str; 6] = [
    "Property",
    "MultiLanguageProperty",
    "Range",
    "Blob",
    "File",
    "ReferenceElement",
];

impl Converter<'_> {
    /// The elements of a list (a submodel's, a collection's, an entity's statements).
    pub(crate) fn elements<'a>(
        &mut self,
        items: Vec<Node<'a>>,
        at: At<'_>,
    ) -> Result<Vec<Node<'a>>> {
        let mut siblings = Siblings::of(self.target_version(), &items);
        let mut out = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            if let Some(element) = self.element(item, at.item(i), &mut siblings)? {
                out.push(element);
            }
        }
        Ok(out)
    }

    /// One element; `None` (reported) when V3.0 has no element of its kind.
    pub(crate) fn element<'a>(
        &mut self,
        item: Node<'a>,
        at: At<'_>,
        siblings: &mut Siblings<'a>,
    ) -> Result<Option<Node<'a>>> {
        let v2_type = model_type_name(&item).unwrap_or_default();
        let Some(v3_type) = v3_model_type(&v2_type) else {
            if !holds_nothing(&item) {
                self.change(at, Rule::NotInV3, item, None)?;
            }
            return Ok(None);
        };
        let mut f = Fields::of(item, at).expect("an object has a model type");
        let mut out = vec![("modelType".into(), Node::text(v3_type))];
        let given = f.take("idShort");
        let name = siblings.name(given.as_ref().and_then(Node::as_text));
        if given.as_ref().and_then(Node::as_str) != Some(name.as_ref()) {
            let was = given.unwrap_or(Node::Null);
            self.change(
                f.path("idShort"),
                Rule::IdShort,
                was,
                Some(Node::Text(name.clone())),
            )?;
        }
        out.push(("idShort".into(), Node::Text(name)));
        self.referable(&mut f, &mut out, DATA_ELEMENTS.contains(&v3_type))?;
        self.semantic_id(&mut f, &mut out)?;
        self.qualifiers(&mut f, &mut out)?;
        self.data_specifications(&mut f, &mut out)?;
        if let Some(kind) = f.text("kind") {
            if kind != "Instance" {
                self.change(f.path("kind"), Rule::ElementKind, Node::Text(kind), None)?;
            }
        }
        let kept = self.element_body(v3_type, &mut f, &mut out)?;
        self.leftovers(f, &["modelType"])?;
        Ok(kept.then_some(Node::Object(out)))
    }

    /// The fields of one model type; false when the element cannot be held (a
    /// relationship without both ends), which is reported.
    fn element_body<'a>(
        &mut self,
        model_type: &str,
        f: &mut Fields<'a, '_>,
        out: &mut Members<'a>,
    ) -> Result<bool> {
        match model_type {
            "Property" => {
                self.typed_values(f, &["value"], out)?;
                self.reference_field(f, "valueId", out)?;
            }
            "Range" => self.typed_values(f, &["min", "max"], out)?,
            "MultiLanguageProperty" => {
                if let Some(value) = f.take("value") {
                    if let Some(texts) = self.lang_strings(value, f.path("value"), usize::MAX)? {
                        out.push(("value".into(), texts));
                    }
                }
                self.reference_field(f, "valueId", out)?;
                // Some exporters give an MLP the type of its texts: nothing to keep.
                if let Some(other) = f
                    .text("valueType")
                    .filter(|t| !t.eq_ignore_ascii_case("langString"))
                {
                    self.change(f.path("valueType"), Rule::NotInV3, Node::Text(other), None)?;
                }
            }
            "File" | "Blob" => {
                self.content_type(f, out)?;
                if let Some(value) = f.text("value") {
                    let fits = model_type == "File" || crate::xsd::fits("xs:base64Binary", &value);
                    if model_type == "File" && !self.file_held(&value) {
                        self.change(f.path("value"), Rule::MissingFile, Node::Text(value), None)?;
                    } else if fits {
                        out.push(("value".into(), Node::Text(value)));
                    } else {
                        self.change(f.path("value"), Rule::ValueType, Node::Text(value), None)?;
                    }
                }
            }
            "ReferenceElement" => self.reference_field(f, "value", out)?,
            "RelationshipElement" | "AnnotatedRelationshipElement" => {
                for end in ["first", "second"] {
                    self.reference_field(f, end, out)?;
                }
                if !(member(out, "first").is_some() && member(out, "second").is_some()) {
                    self.change(f.at, Rule::Required, Node::text("first and second"), None)?;
                    return Ok(false);
                }
                // V2.0.1 annotates with references to data elements, V3.0 with the
                // data elements themselves.
                let annotations = f.list("annotation");
                let (elements, references): (Vec<Node>, Vec<Node>) = annotations
                    .into_iter()
                    .partition(|a| model_type_name(a).is_some());
                if !references.is_empty() {
                    self.change(
                        f.path("annotation"),
                        Rule::NotInV3,
                        Node::List(references),
                        None,
                    )?;
                }
                let annotations = self.elements(elements, f.path("annotation"))?;
                if !annotations.is_empty() {
                    out.push(("annotations".into(), Node::List(annotations)));
                }
            }
            "SubmodelElementCollection" => {
                for flag in ["ordered", "allowDuplicates"] {
                    if let Some(value) = f.take(flag) {
                        if value != Node::Bool(false) {
                            self.change(f.path(flag), Rule::CollectionOrder, value, None)?;
                        }
                    }
                }
                let value = self.elements(f.list("value"), f.path("value"))?;
                if !value.is_empty() {
                    out.push(("value".into(), Node::List(value)));
                }
            }
            "Operation" => {
                let mut siblings = Siblings::of(self.target_version(), std::iter::empty());
                for (v2, v3) in [
                    ("inputVariable", "inputVariables"),
                    ("outputVariable", "outputVariables"),
                    ("inoutputVariable", "inoutputVariables"),
                ] {
                    let items = f.list(v2);
                    let at = f.path(v2);
                    let mut variables = Vec::new();
                    for (i, variable) in items.into_iter().enumerate() {
                        let here = at.item(i);
                        let mut var = match Fields::of(variable, here) {
                            Ok(var) => var,
                            Err(other) => {
                                self.change(here, Rule::NotInV3, other, None)?;
                                continue;
                            }
                        };
                        if let Some(mut value) = var.take("value") {
                            // V2.0.1 wants an operation variable's value to be of kind
                            // Template: the mapping, not something V3.0 loses.
                            if value.get("kind").and_then(Node::as_str) == Some("Template") {
                                value.remove("kind");
                            }
                            if let Some(e) =
                                self.element(value, var.path("value"), &mut siblings)?
                            {
                                variables.push(Node::object([("value", e)]));
                            }
                        }
                        self.leftovers(var, &["modelType"])?;
                    }
                    if !variables.is_empty() {
                        out.push((v3.into(), Node::List(variables)));
                    }
                }
            }
            "Capability" => {}
            "Entity" => self.entity(f, out)?,
            "BasicEventElement" => {
                self.reference_field(f, "observed", out)?;
                let model = member(out, "observed")
                    .and_then(|r| r.get("type"))
                    .and_then(Node::as_str)
                    == Some("ModelReference");
                if !model {
                    self.change(
                        f.path("observed"),
                        Rule::Required,
                        remove_member(out, "observed").unwrap_or(Node::Null),
                        None,
                    )?;
                    return Ok(false);
                }
                // V3.0 requires a direction and a state, which V2.0.1 events lack.
                for (name, value) in [("direction", "output"), ("state", "off")] {
                    self.change(
                        f.path(name),
                        Rule::Required,
                        Node::Null,
                        Some(Node::text(value)),
                    )?;
                    out.push((name.into(), Node::text(value)));
                }
            }
            _ => unreachable!("only mapped model types get here"),
        }
        Ok(true)
    }

    /// An entity's type, statements and asset (its global asset id in V3.0), made to
    /// agree as V3.0 wants (AASd-014: a self-managed entity names its asset, a
    /// co-managed one does not).
    fn entity<'a>(&mut self, f: &mut Fields<'a, '_>, out: &mut Members<'a>) -> Result<()> {
        let statements = self.elements(f.list("statements"), f.path("statements"))?;
        let asset = match f.take("asset") {
            Some(reference) => match last_key_value(&reference) {
                Some(asset) => Some(asset),
                None => {
                    f.put_back("asset", reference);
                    None
                }
            },
            None => f.text("globalAssetId"),
        };
        let given = f.text("entityType");
        let entity_type = match (given.as_deref(), &asset) {
            (Some(t @ ("SelfManagedEntity" | "CoManagedEntity")), _) => t.to_owned(),
            (_, Some(_)) => "SelfManagedEntity".to_owned(),
            (_, None) => "CoManagedEntity".to_owned(),
        };
        if given.as_deref() != Some(entity_type.as_str()) {
            let was = given.map_or(Node::Null, Node::Text);
            self.change(
                f.path("entityType"),
                Rule::Required,
                was,
                Some(Node::text(&entity_type)),
            )?;
        }
        let entity_type = match (entity_type.as_str(), &asset) {
            ("SelfManagedEntity", None) => {
                self.change(
                    f.path("entityType"),
                    Rule::Required,
                    Node::text("SelfManagedEntity"),
                    Some(Node::text("CoManagedEntity")),
                )?;
                "CoManagedEntity".to_owned()
            }
            ("CoManagedEntity", Some(asset)) => {
                self.change(
                    f.path("asset"),
                    Rule::NotInV3,
                    Node::Text(asset.clone()),
                    None,
                )?;
                entity_type
            }
            _ => entity_type,
        };
        if !statements.is_empty() {
            out.push(("statements".into(), Node::List(statements)));
        }
        out.push(("entityType".into(), Node::text(entity_type.clone())));
        if let (Some(asset), "SelfManagedEntity") = (asset, entity_type.as_str()) {
            out.push(("globalAssetId".into(), Node::Text(asset)));
        }
        Ok(())
    }

    /// `mimeType` as V3.0's required `contentType`; a missing one, or one that is not
    /// a MIME type, becomes `application/octet-stream`, said so.
    fn content_type<'a>(&mut self, f: &mut Fields<'a, '_>, out: &mut Members<'a>) -> Result<()> {
        const ANY: &str = "application/octet-stream";
        let given = f.text("mimeType").or_else(|| f.text("contentType"));
        let content_type = match given {
            Some(t) if crate::xsd::mime_type(&t) && t.len() <= NAME_MAX => t,
            other => {
                let was = other.map_or(Node::Null, Node::Text);
                self.change(
                    f.path("mimeType"),
                    Rule::Required,
                    was,
                    Some(Node::text(ANY)),
                )?;
                Cow::Borrowed(ANY)
            }
        };
        out.push(("contentType".into(), Node::Text(content_type)));
        Ok(())
    }

    /// Reference field `name` into `out` under the same name.
    pub(crate) fn reference_field<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        name: &'static str,
        out: &mut Members<'a>,
    ) -> Result<()> {
        if let Some(value) = f.take(name) {
            if let Some(r) = self.reference(value, f.path(name))? {
                out.push((name.into(), r));
            }
        }
        Ok(())
    }
}

/// The V3.0 model type of a V2 element's; `None` for a kind V3.0 has no element of.
fn v3_model_type(v2: &str) -> Option<&'static str> {
    // The other elements V3.0 keeps under their V2 name.
    const OTHERS: [&str; 6] = [
        "RelationshipElement",
        "AnnotatedRelationshipElement",
        "SubmodelElementCollection",
        "Operation",
        "Capability",
        "Entity",
    ];
    match v2 {
        "BasicEvent" => Some("BasicEventElement"),
        _ => DATA_ELEMENTS.into_iter().chain(OTHERS).find(|t| *t == v2),
    }
}

/// The value of a V2 reference's last key (what an asset reference names).
pub(crate) fn last_key_value<'a>(reference: &Node<'a>) -> Option<Cow<'a, str>> {
    reference
        .get("keys")?
        .as_list()?
        .last()?
        .get("value")?
        .as_text()
        .filter(|s| !s.is_empty())
        .cloned()
}
