//! The identifiables: shells (with their Asset as `assetInformation`), submodels and
//! concept descriptions.

use serde_json::{json, Map, Value};

use crate::change::Rule;
use crate::convert::Converter;
use crate::element::last_key_value;
use crate::fields::Fields;
use crate::id_short;
use crate::Result;

/// A V2 Asset and where it was in the source.
#[derive(Debug, Clone)]
pub struct Asset {
    pub value: Value,
    pub at: String,
}

impl Converter<'_> {
    /// A shell; its Asset (from the environment's `assets`, a registry descriptor, or
    /// inline as BaSyx V1 writes it) becomes its `assetInformation`. `None` (reported)
    /// for a shell without an id.
    pub fn shell(&mut self, v2: Value, at: &str, asset: Option<Asset>) -> Result<Option<Value>> {
        let Some((mut f, mut out)) = self.start(v2, at, "AssetAdministrationShell")? else {
            return Ok(None);
        };
        self.id_short(&mut f, &mut out)?;
        self.referable(&mut f, &mut out, false)?;
        let Some(id) = self.identifiable(&mut f, &mut out)? else {
            return self.no_id(f);
        };
        self.data_specifications(&mut f, &mut out)?;
        self.reference_field(&mut f, "derivedFrom", &mut out)?;
        // The reference names the asset; BaSyx V1 writes the Asset itself there too.
        let reference = f.take("asset");
        let inline = reference
            .as_ref()
            .filter(|r| r.get("identification").is_some() || r.get("kind").is_some())
            .map(|r| Asset {
                value: r.clone(),
                at: f.path("asset"),
            });
        let asset = asset.or(inline);
        let named = reference.as_ref().and_then(last_key_value);
        let information = self.asset_information(asset, named, &id, &f.path("asset"))?;
        out.insert("assetInformation".into(), information);
        let at_submodels = f.path("submodels");
        let mut submodels = Vec::new();
        for (i, r) in f.list("submodels").into_iter().enumerate() {
            if let Some(r) = self.submodel_reference(r, &format!("{at_submodels}[{i}]"))? {
                submodels.push(r);
            }
        }
        if !submodels.is_empty() {
            out.insert("submodels".into(), Value::Array(submodels));
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Value::Object(out)))
    }

    /// A shell's reference to a submodel, which V3.0 wants as a model reference of
    /// one Submodel key: BaSyx V1 writes the shell's key before it, kept in the report.
    fn submodel_reference(&mut self, v2: Value, at: &str) -> Result<Option<Value>> {
        let keys = v2
            .get("keys")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let submodel = keys.iter().rev().find_map(|k| {
            (k.get("type")? == "Submodel")
                .then(|| k.get("value")?.as_str().filter(|v| !v.is_empty()))?
        });
        match submodel {
            Some(_) if keys.len() == 1 => self.reference(v2, at),
            Some(id) => {
                let now = json!({ "type": "ModelReference", "keys": [{ "type": "Submodel", "value": id }] });
                self.change(at, Rule::Reference, v2, Some(now.clone()))?;
                Ok(Some(now))
            }
            None => {
                self.change(at, Rule::Reference, v2, None)?;
                Ok(None)
            }
        }
    }

    /// `assetKind` from the Asset's kind, `globalAssetId` from its id (else the id the
    /// shell's reference names); every other field of the Asset is reported.
    fn asset_information(
        &mut self,
        asset: Option<Asset>,
        named: Option<String>,
        shell_id: &str,
        at: &str,
    ) -> Result<Value> {
        let mut kind = None;
        let mut asset_id = None;
        if let Some(Asset { value, at }) = asset {
            if let Ok(mut a) = Fields::of(value, &at) {
                kind = a.text("kind");
                if let Some(identification) = a.take("identification") {
                    asset_id = identification
                        .get("id")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                }
                for (path, value) in a.rest(&["modelType", "keys"]) {
                    self.change(path, Rule::AssetField, value, None)?;
                }
            }
        }
        let kind = match kind.as_deref() {
            Some(k @ ("Instance" | "Type")) => k.to_owned(),
            other => {
                let was = other.map_or(Value::Null, Value::from);
                self.change(
                    format!("{at}.kind"),
                    Rule::Required,
                    was,
                    Some(json!("NotApplicable")),
                )?;
                "NotApplicable".to_owned()
            }
        };
        let global = match asset_id.or(named) {
            Some(id) => id,
            None => {
                self.change(
                    at,
                    Rule::Required,
                    Value::Null,
                    Some(json!({ "globalAssetId": shell_id })),
                )?;
                shell_id.to_owned()
            }
        };
        Ok(json!({ "assetKind": kind, "globalAssetId": global }))
    }

    /// A submodel; `None` (reported) for one without an id.
    pub fn submodel(&mut self, v2: Value, at: &str) -> Result<Option<Value>> {
        let Some((mut f, mut out)) = self.start(v2, at, "Submodel")? else {
            return Ok(None);
        };
        self.id_short(&mut f, &mut out)?;
        self.referable(&mut f, &mut out, false)?;
        if self.identifiable(&mut f, &mut out)?.is_none() {
            return self.no_id(f);
        }
        if let Some(kind) = f.text("kind") {
            if kind == "Instance" || kind == "Template" {
                out.insert("kind".into(), json!(kind));
            } else {
                self.change(f.path("kind"), Rule::NotInV3, json!(kind), None)?;
            }
        }
        self.semantic_id(&mut f, &mut out)?;
        self.qualifiers(&mut f, &mut out)?;
        self.data_specifications(&mut f, &mut out)?;
        let elements = self.elements(f.list("submodelElements"), &f.path("submodelElements"))?;
        if !elements.is_empty() {
            out.insert("submodelElements".into(), Value::Array(elements));
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Value::Object(out)))
    }

    /// A concept description; its category is left out when it disagrees with its
    /// IEC 61360 data type as V3.0 wants (AASc-3a-004 to 007), and its IEC 61360
    /// content when that has no definition in English and no value (AASc-3a-008).
    pub fn concept_description(&mut self, v2: Value, at: &str) -> Result<Option<Value>> {
        let Some((mut f, mut out)) = self.start(v2, at, "ConceptDescription")? else {
            return Ok(None);
        };
        self.id_short(&mut f, &mut out)?;
        self.referable(&mut f, &mut out, false)?;
        if self.identifiable(&mut f, &mut out)?.is_none() {
            return self.no_id(f);
        }
        self.data_specifications(&mut f, &mut out)?;
        let at_cases = f.path("isCaseOf");
        let mut cases = Vec::new();
        for (i, r) in f.list("isCaseOf").into_iter().enumerate() {
            if let Some(r) = self.reference(r, &format!("{at_cases}[{i}]"))? {
                cases.push(r);
            }
        }
        if !cases.is_empty() {
            out.insert("isCaseOf".into(), Value::Array(cases));
        }
        let contents: Vec<&Value> = out
            .get("embeddedDataSpecifications")
            .and_then(Value::as_array)
            .map(|specs| {
                specs
                    .iter()
                    .map(|s| &s["dataSpecificationContent"])
                    .collect()
            })
            .unwrap_or_default();
        let described = contents.iter().all(|c| {
            c.get("value").is_some()
                || c.get("definition")
                    .and_then(Value::as_array)
                    .is_some_and(|d| {
                        d.iter().any(|t| {
                            t["language"]
                                .as_str()
                                .is_some_and(crate::language::is_english)
                        })
                    })
        });
        let category_fits = out
            .get("category")
            .and_then(Value::as_str)
            .is_none_or(|category| {
                contents
                    .iter()
                    .all(|c| crate::iec61360::category_fits(category, c["dataType"].as_str()))
            });
        if !category_fits {
            let category = out.remove("category").unwrap_or_default();
            self.change(f.path("category"), Rule::Category, category, None)?;
        }
        if !described {
            let specs = out.remove("embeddedDataSpecifications").unwrap_or_default();
            let at = f.path("embeddedDataSpecifications");
            self.change(at, Rule::DataSpecification, specs, None)?;
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Value::Object(out)))
    }

    /// The fields of an identifiable and its output, `modelType` first; `None` when
    /// it is not an object (reported).
    fn start(
        &mut self,
        v2: Value,
        at: &str,
        model_type: &str,
    ) -> Result<Option<(Fields, Map<String, Value>)>> {
        match Fields::of(v2, at) {
            Ok(f) => {
                let mut out = Map::new();
                out.insert("modelType".into(), json!(model_type));
                Ok(Some((f, out)))
            }
            Err(other) => {
                self.change(at, Rule::NotInV3, other, None)?;
                Ok(None)
            }
        }
    }

    fn no_id(&mut self, f: Fields) -> Result<Option<Value>> {
        let at = f.at.clone();
        let rest: Map<String, Value> = f.rest(&[]).into_iter().collect();
        self.change(at, Rule::Required, Value::Object(rest), None)?;
        Ok(None)
    }

    /// An identifiable's idShort, optional in V3.0, renamed when V3.0 rejects it.
    fn id_short(&mut self, f: &mut Fields, out: &mut Map<String, Value>) -> Result<()> {
        if let Some(given) = f.text("idShort") {
            let name = id_short::Siblings::of(std::iter::empty()).name(Some(&given));
            if name != given {
                self.change(
                    f.path("idShort"),
                    Rule::IdShort,
                    json!(given),
                    Some(json!(name)),
                )?;
            }
            out.insert("idShort".into(), json!(name));
        }
        Ok(())
    }
}
