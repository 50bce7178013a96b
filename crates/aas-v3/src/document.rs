//! A whole V2 file as a V3.0 environment: an environment, or one of the other shapes
//! users hold (a shell, a submodel or a list of them, a registry's descriptors, BaSyx
//! V1's answers, a single element that names its submodel).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::change::Rule;
use crate::convert::Converter;
use crate::element::last_key_value;
use crate::fields::{join, model_type_name, Fields};
use crate::identifiables::Asset;
use crate::{Error, Result};

/// What a V2 object is, by its model type or, without one, by its fields.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Shell,
    Descriptor,
    Submodel,
    ConceptDescription,
    Asset,
    Element,
}

fn kind_of(item: &Value) -> Option<Kind> {
    Some(match model_type_name(item).as_deref() {
        Some("AssetAdministrationShell") => Kind::Shell,
        Some("AssetAdministrationShellDescriptor") => Kind::Descriptor,
        Some("Submodel") => Kind::Submodel,
        Some("ConceptDescription") => Kind::ConceptDescription,
        Some("Asset") => Kind::Asset,
        Some(_) => Kind::Element,
        None if item.get("endpoints").is_some() => Kind::Descriptor,
        None if item.get("submodelElements").is_some() => Kind::Submodel,
        None if item.get("asset").is_some() => Kind::Shell,
        None => return None,
    })
}

/// The V2 objects of a file, each with its path, sorted by what they are.
#[derive(Default)]
struct Objects {
    shells: Vec<(Value, String)>,
    submodels: Vec<(Value, String)>,
    concepts: Vec<(Value, String)>,
    assets: Vec<(Value, String)>,
}

impl Objects {
    fn add(&mut self, item: Value, at: String, kind: Kind) {
        match kind {
            Kind::Shell | Kind::Descriptor => self.shells.push((item, at)),
            Kind::Submodel | Kind::Element => self.submodels.push((item, at)),
            Kind::ConceptDescription => self.concepts.push((item, at)),
            Kind::Asset => self.assets.push((item, at)),
        }
    }
}

impl Converter<'_> {
    /// The V3.0 environment of a V2 document.
    pub fn environment(&mut self, document: Value) -> Result<Value> {
        let mut objects = Objects::default();
        let lists = [
            "assetAdministrationShells",
            "assets",
            "submodels",
            "conceptDescriptions",
        ];
        match document {
            Value::Object(map) if lists.iter().any(|l| map.contains_key(*l)) => {
                let mut f = Fields::of(Value::Object(map), "").expect("an object");
                for (name, kind) in lists.into_iter().zip([Kind::Shell, Kind::Asset, Kind::Submodel, Kind::ConceptDescription]) {
                    for (i, item) in f.list(name).into_iter().enumerate() {
                        let kind = if kind == Kind::Shell && kind_of(&item) == Some(Kind::Descriptor) { Kind::Descriptor } else { kind };
                        objects.add(item, format!("{name}[{i}]"), kind);
                    }
                }
                self.leftovers(f, &[])?;
            }
            Value::Array(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    let at = format!("[{i}]");
                    match kind_of(&item) {
                        Some(kind) => objects.add(item, at, kind),
                        None => self.change(at, Rule::NotInV3, item, None)?,
                    }
                }
            }
            item => match kind_of(&item) {
                Some(kind) => objects.add(item, String::new(), kind),
                None => {
                    return Err(Error::NotAas(
                        "the file holds no AAS environment, shell, submodel, registry answer or element".into(),
                    ))
                }
            },
        }
        self.objects(objects)
    }

    fn objects(&mut self, objects: Objects) -> Result<Value> {
        let ids = |list: &[(Value, String)]| -> Vec<String> {
            list.iter()
                .filter_map(|(v, _)| {
                    v.get("identification")?
                        .get("id")?
                        .as_str()
                        .map(str::to_owned)
                })
                .collect()
        };
        self.hold_concepts(ids(&objects.concepts));
        let mut assets: HashMap<String, Asset> = HashMap::new();
        for (value, at) in objects.assets {
            match value
                .get("identification")
                .and_then(|i| i.get("id"))
                .and_then(Value::as_str)
            {
                Some(id) => {
                    assets.insert(id.to_owned(), Asset { value, at });
                }
                None => self.change(at, Rule::AssetField, value, None)?,
            }
        }
        let mut env = Map::new();
        let mut shells = Vec::new();
        for (value, at) in objects.shells {
            let value = if kind_of(&value) == Some(Kind::Descriptor) {
                self.descriptor_as_shell(value, &at)?
            } else {
                value
            };
            let named = value.get("asset").and_then(last_key_value);
            let asset = named.and_then(|id| assets.remove(&id));
            if let Some(shell) = self.shell(value, &at, asset)? {
                shells.push(shell);
            }
        }
        // An Asset no shell names has no place in V3.0.
        let mut unused: Vec<Asset> = assets.into_values().collect();
        unused.sort_by(|a, b| a.at.cmp(&b.at));
        for Asset { value, at } in unused {
            self.change(at, Rule::AssetField, value, None)?;
        }
        let mut submodels = Vec::new();
        for (value, at) in objects.submodels {
            let value = if kind_of(&value) == Some(Kind::Element) {
                match self.element_as_submodel(value, &at)? {
                    Some(v) => v,
                    None => continue,
                }
            } else {
                value
            };
            if let Some(sm) = self.submodel(value, &at)? {
                submodels.push(sm);
            }
        }
        let mut concepts = Vec::new();
        for (value, at) in objects.concepts {
            if let Some(cd) = self.concept_description(value, &at)? {
                concepts.push(cd);
            }
        }
        for (name, list) in [
            ("assetAdministrationShells", shells),
            ("submodels", submodels),
            ("conceptDescriptions", concepts),
        ] {
            if !list.is_empty() {
                env.insert(name.into(), Value::Array(list));
            }
        }
        Ok(Value::Object(env))
    }

    /// A registry descriptor as the shell it describes: its submodel descriptors
    /// become references; the endpoints, which V3.0 shells do not carry, are reported.
    fn descriptor_as_shell(&mut self, value: Value, at: &str) -> Result<Value> {
        let Ok(mut f) = Fields::of(value, at) else {
            unreachable!("a descriptor is an object")
        };
        let mut shell = Map::new();
        for name in [
            "identification",
            "idShort",
            "description",
            "administration",
            "asset",
        ] {
            if let Some(v) = f.take(name) {
                shell.insert(name.into(), v);
            }
        }
        let mut references = Vec::new();
        for name in ["submodelDescriptors", "submodels"] {
            let list_at = f.path(name);
            for (i, sm) in f.list(name).into_iter().enumerate() {
                let here = format!("{list_at}[{i}]");
                let Ok(mut d) = Fields::of(sm, &here) else {
                    continue;
                };
                match d.take("identification").and_then(|i| i.get("id").cloned()) {
                    Some(id) => {
                        references.push(json!({ "keys": [{ "type": "Submodel", "value": id }] }))
                    }
                    None => {
                        self.change(d.path("identification"), Rule::Required, Value::Null, None)?
                    }
                }
                self.leftovers(d, &["modelType"])?;
            }
        }
        shell.insert("submodels".into(), Value::Array(references));
        self.leftovers(f, &["modelType"])?;
        Ok(Value::Object(shell))
    }

    /// A single element as the submodel its BaSyx `parent` reference names, holding it
    /// alone (said so); `None` (reported) when it names none.
    fn element_as_submodel(&mut self, mut element: Value, at: &str) -> Result<Option<Value>> {
        let parent = element.as_object_mut().and_then(|e| e.remove("parent"));
        let Some(id) = parent.as_ref().and_then(last_key_value) else {
            self.change(at, Rule::Required, element, None)?;
            return Ok(None);
        };
        let holder = json!({ "identification": { "id": id } });
        self.change(
            join(at, "parent"),
            Rule::Required,
            parent.unwrap_or_default(),
            Some(holder.clone()),
        )?;
        let mut submodel = holder;
        submodel["submodelElements"] = json!([element]);
        Ok(Some(submodel))
    }
}
