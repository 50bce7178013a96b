//! Submodel elements, by model type. Each keeps its place among its siblings (V3.0
//! collections are unordered, but the file keeps the order the source had).

use serde_json::{json, Map, Value};

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, model_type_name, Fields};
use crate::id_short::Siblings;
use crate::limits::NAME_MAX;
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
    pub(crate) fn elements(&mut self, items: Vec<Value>, at: &str) -> Result<Vec<Value>> {
        let mut siblings = Siblings::of(&items);
        let mut out = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            if let Some(element) = self.element(item, &format!("{at}[{i}]"), &mut siblings)? {
                out.push(element);
            }
        }
        Ok(out)
    }

    /// One element; `None` (reported) when V3.0 has no element of its kind.
    pub(crate) fn element(
        &mut self,
        item: Value,
        at: &str,
        siblings: &mut Siblings,
    ) -> Result<Option<Value>> {
        let v2_type = model_type_name(&item).unwrap_or_default();
        let v3_type = match v2_type.as_str() {
            "BasicEvent" => "BasicEventElement",
            t @ ("Property"
            | "MultiLanguageProperty"
            | "Range"
            | "Blob"
            | "File"
            | "ReferenceElement"
            | "RelationshipElement"
            | "AnnotatedRelationshipElement"
            | "SubmodelElementCollection"
            | "Operation"
            | "Capability"
            | "Entity") => t,
            _ => {
                if !holds_nothing(&item) {
                    self.change(at, Rule::NotInV3, item, None)?;
                }
                return Ok(None);
            }
        };
        let mut f = Fields::of(item, at).expect("an object has a model type");
        let mut out = Map::new();
        out.insert("modelType".into(), json!(v3_type));
        let given = f.take("idShort");
        let name = siblings.name(given.as_ref().and_then(Value::as_str));
        if given.as_ref().and_then(Value::as_str) != Some(name.as_str()) {
            let was = given.unwrap_or(Value::Null);
            self.change(f.path("idShort"), Rule::IdShort, was, Some(json!(name)))?;
        }
        out.insert("idShort".into(), json!(name));
        self.referable(&mut f, &mut out, DATA_ELEMENTS.contains(&v3_type))?;
        self.semantic_id(&mut f, &mut out)?;
        self.qualifiers(&mut f, &mut out)?;
        self.data_specifications(&mut f, &mut out)?;
        if let Some(kind) = f.text("kind") {
            if kind != "Instance" {
                self.change(f.path("kind"), Rule::ElementKind, json!(kind), None)?;
            }
        }
        let kept = self.element_body(v3_type, &mut f, &mut out)?;
        self.leftovers(f, &["modelType"])?;
        Ok(kept.then_some(Value::Object(out)))
    }

    /// The fields of one model type; false when the element cannot be held (a
    /// relationship without both ends), which is reported.
    fn element_body(
        &mut self,
        model_type: &str,
        f: &mut Fields,
        out: &mut Map<String, Value>,
    ) -> Result<bool> {
        match model_type {
            "Property" => {
                self.typed_values(f, &["value"], out)?;
                self.reference_field(f, "valueId", out)?;
            }
            "Range" => self.typed_values(f, &["min", "max"], out)?,
            "MultiLanguageProperty" => {
                if let Some(value) = f.take("value") {
                    if let Some(texts) = self.lang_strings(value, &f.path("value"), usize::MAX)? {
                        out.insert("value".into(), texts);
                    }
                }
                self.reference_field(f, "valueId", out)?;
                // Some exporters give an MLP the type of its texts: nothing to keep.
                if let Some(other) = f
                    .text("valueType")
                    .filter(|t| !t.eq_ignore_ascii_case("langString"))
                {
                    self.change(f.path("valueType"), Rule::NotInV3, json!(other), None)?;
                }
            }
            "File" | "Blob" => {
                self.content_type(f, out)?;
                if let Some(value) = f.text("value") {
                    let fits = model_type == "File" || crate::xsd::fits("xs:base64Binary", &value);
                    if model_type == "File" && !self.file_held(&value) {
                        self.change(f.path("value"), Rule::MissingFile, json!(value), None)?;
                    } else if fits {
                        out.insert("value".into(), json!(value));
                    } else {
                        self.change(f.path("value"), Rule::ValueType, json!(value), None)?;
                    }
                }
            }
            "ReferenceElement" => self.reference_field(f, "value", out)?,
            "RelationshipElement" | "AnnotatedRelationshipElement" => {
                for end in ["first", "second"] {
                    self.reference_field(f, end, out)?;
                }
                if !(out.contains_key("first") && out.contains_key("second")) {
                    self.change(
                        f.at.clone(),
                        Rule::Required,
                        json!("first and second"),
                        None,
                    )?;
                    return Ok(false);
                }
                // V2.0.1 annotates with references to data elements, V3.0 with the
                // data elements themselves.
                let annotations = f.list("annotation");
                let (elements, references): (Vec<Value>, Vec<Value>) = annotations
                    .into_iter()
                    .partition(|a| model_type_name(a).is_some());
                if !references.is_empty() {
                    self.change(
                        f.path("annotation"),
                        Rule::NotInV3,
                        Value::Array(references),
                        None,
                    )?;
                }
                let annotations = self.elements(elements, &f.path("annotation"))?;
                if !annotations.is_empty() {
                    out.insert("annotations".into(), Value::Array(annotations));
                }
            }
            "SubmodelElementCollection" => {
                for flag in ["ordered", "allowDuplicates"] {
                    if let Some(value) = f.take(flag) {
                        if value != json!(false) {
                            self.change(f.path(flag), Rule::CollectionOrder, value, None)?;
                        }
                    }
                }
                let value = self.elements(f.list("value"), &f.path("value"))?;
                if !value.is_empty() {
                    out.insert("value".into(), Value::Array(value));
                }
            }
            "Operation" => {
                let mut siblings = Siblings::of(std::iter::empty());
                for (v2, v3) in [
                    ("inputVariable", "inputVariables"),
                    ("outputVariable", "outputVariables"),
                    ("inoutputVariable", "inoutputVariables"),
                ] {
                    let at = f.path(v2);
                    let mut variables = Vec::new();
                    for (i, variable) in f.list(v2).into_iter().enumerate() {
                        let here = format!("{at}[{i}]");
                        let mut var = match Fields::of(variable, &here) {
                            Ok(var) => var,
                            Err(other) => {
                                self.change(here, Rule::NotInV3, other, None)?;
                                continue;
                            }
                        };
                        if let Some(mut value) = var.take("value") {
                            // V2.0.1 wants an operation variable's value to be of kind
                            // Template: the mapping, not something V3.0 loses.
                            if value.get("kind") == Some(&json!("Template")) {
                                value.as_object_mut().map(|v| v.remove("kind"));
                            }
                            if let Some(e) =
                                self.element(value, &var.path("value"), &mut siblings)?
                            {
                                variables.push(json!({ "value": e }));
                            }
                        }
                        self.leftovers(var, &["modelType"])?;
                    }
                    if !variables.is_empty() {
                        out.insert(v3.into(), Value::Array(variables));
                    }
                }
            }
            "Capability" => {}
            "Entity" => self.entity(f, out)?,
            "BasicEventElement" => {
                self.reference_field(f, "observed", out)?;
                let model = out.get("observed").and_then(|r| r.get("type"))
                    == Some(&json!("ModelReference"));
                if !model {
                    self.change(
                        f.path("observed"),
                        Rule::Required,
                        out.remove("observed").unwrap_or(Value::Null),
                        None,
                    )?;
                    return Ok(false);
                }
                // V3.0 requires a direction and a state, which V2.0.1 events lack.
                for (name, value) in [("direction", "output"), ("state", "off")] {
                    self.change(
                        f.path(name),
                        Rule::Required,
                        Value::Null,
                        Some(json!(value)),
                    )?;
                    out.insert(name.into(), json!(value));
                }
            }
            _ => unreachable!("only mapped model types get here"),
        }
        Ok(true)
    }

    /// An entity's type, statements and asset (its global asset id in V3.0), made to
    /// agree as V3.0 wants (AASd-014: a self-managed entity names its asset, a
    /// co-managed one does not).
    fn entity(&mut self, f: &mut Fields, out: &mut Map<String, Value>) -> Result<()> {
        let statements = self.elements(f.list("statements"), &f.path("statements"))?;
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
            let was = given.map_or(Value::Null, Value::from);
            self.change(
                f.path("entityType"),
                Rule::Required,
                was,
                Some(json!(entity_type)),
            )?;
        }
        let entity_type = match (entity_type.as_str(), &asset) {
            ("SelfManagedEntity", None) => {
                self.change(
                    f.path("entityType"),
                    Rule::Required,
                    json!("SelfManagedEntity"),
                    Some(json!("CoManagedEntity")),
                )?;
                "CoManagedEntity".to_owned()
            }
            ("CoManagedEntity", Some(asset)) => {
                self.change(f.path("asset"), Rule::NotInV3, json!(asset), None)?;
                entity_type
            }
            _ => entity_type,
        };
        if !statements.is_empty() {
            out.insert("statements".into(), Value::Array(statements));
        }
        out.insert("entityType".into(), json!(entity_type));
        if let (Some(asset), "SelfManagedEntity") = (asset, entity_type.as_str()) {
            out.insert("globalAssetId".into(), json!(asset));
        }
        Ok(())
    }

    /// `mimeType` as V3.0's required `contentType`; a missing one, or one that is not
    /// a MIME type, becomes `application/octet-stream`, said so.
    fn content_type(&mut self, f: &mut Fields, out: &mut Map<String, Value>) -> Result<()> {
        const ANY: &str = "application/octet-stream";
        let given = f.text("mimeType").or_else(|| f.text("contentType"));
        let content_type = match given {
            Some(t) if crate::xsd::mime_type(&t) && t.len() <= NAME_MAX => t,
            other => {
                let was = other.map_or(Value::Null, Value::from);
                self.change(f.path("mimeType"), Rule::Required, was, Some(json!(ANY)))?;
                ANY.to_owned()
            }
        };
        out.insert("contentType".into(), json!(content_type));
        Ok(())
    }

    /// Reference field `name` into `out` under the same name.
    pub(crate) fn reference_field(
        &mut self,
        f: &mut Fields,
        name: &str,
        out: &mut Map<String, Value>,
    ) -> Result<()> {
        if let Some(value) = f.take(name) {
            if let Some(r) = self.reference(value, &f.path(name))? {
                out.insert(name.into(), r);
            }
        }
        Ok(())
    }
}

/// The value of a V2 reference's last key (what an asset reference names).
pub(crate) fn last_key_value(reference: &Value) -> Option<String> {
    reference
        .get("keys")?
        .as_array()?
        .last()?
        .get("value")?
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}
