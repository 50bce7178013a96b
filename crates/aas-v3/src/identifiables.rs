//! The identifiables: shells (with their Asset as `assetInformation`), submodels and
//! concept descriptions.

use std::borrow::Cow;

use crate::change::Rule;
use crate::convert::Converter;
use crate::element::last_key_value;
use crate::fields::{At, Fields};
use crate::id_short;
use crate::node::{member, remove_member, Members, Node};
use crate::Result;

/// A V2 Asset and where it was in the source.
#[derive(Debug, Clone)]
pub struct Asset<'a> {
    pub value: Node<'a>,
    pub at: String,
}

impl Converter<'_> {
    /// A shell; its Asset (from the environment's `assets`, a registry descriptor, or
    /// inline as BaSyx V1 writes it) becomes its `assetInformation`. `None` (reported)
    /// for a shell without an id.
    pub fn shell<'a>(
        &mut self,
        v2: Node<'a>,
        at: &str,
        asset: Option<Asset<'a>>,
    ) -> Result<Option<Node<'a>>> {
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
                at: f.path("asset").to_string(),
            });
        let asset = asset.or(inline);
        let named = reference.as_ref().and_then(last_key_value);
        let information = self.asset_information(asset, named, id, f.path("asset"))?;
        out.push(("assetInformation".into(), information));
        let items = f.list("submodels");
        let at_submodels = f.path("submodels");
        let mut submodels = Vec::new();
        for (i, r) in items.into_iter().enumerate() {
            if let Some(r) = self.submodel_reference(r, at_submodels.item(i))? {
                submodels.push(r);
            }
        }
        if !submodels.is_empty() {
            out.push(("submodels".into(), Node::List(submodels)));
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Node::Object(out)))
    }

    /// A shell's reference to a submodel, which V3.0 wants as a model reference of
    /// one Submodel key: BaSyx V1 writes the shell's key before it, kept in the report.
    fn submodel_reference<'a>(&mut self, v2: Node<'a>, at: At<'_>) -> Result<Option<Node<'a>>> {
        let keys = v2.get("keys").and_then(Node::as_list).unwrap_or_default();
        let submodel = keys.iter().rev().find_map(|k| {
            (k.get("type")?.as_str() == Some("Submodel"))
                .then(|| k.get("value")?.as_text().filter(|v| !v.is_empty()))?
        });
        match submodel.cloned() {
            Some(_) if keys.len() == 1 => self.reference(v2, at),
            Some(id) => {
                let key =
                    Node::object([("type", Node::text("Submodel")), ("value", Node::Text(id))]);
                let now = Node::object([
                    ("type", Node::text("ModelReference")),
                    ("keys", Node::List(vec![key])),
                ]);
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
    fn asset_information<'a>(
        &mut self,
        asset: Option<Asset<'a>>,
        named: Option<Cow<'a, str>>,
        shell_id: Cow<'a, str>,
        at: At<'_>,
    ) -> Result<Node<'a>> {
        let mut kind = None;
        let mut asset_id = None;
        if let Some(Asset { value, at }) = asset {
            if let Ok(mut a) = Fields::of(value, At::Root(&at)) {
                kind = a.text("kind");
                if let Some(identification) = a.take("identification") {
                    asset_id = identification.get("id").and_then(Node::as_text).cloned();
                }
                for (path, value) in a.rest(&["modelType", "keys"]) {
                    self.change(At::Root(&path), Rule::AssetField, value, None)?;
                }
            }
        }
        let kind = match kind {
            Some(k) if k == "Instance" || k == "Type" => k,
            other => {
                let was = other.map_or(Node::Null, Node::Text);
                self.change(
                    at.field("kind"),
                    Rule::Required,
                    was,
                    Some(Node::text("NotApplicable")),
                )?;
                Cow::Borrowed("NotApplicable")
            }
        };
        let global = match asset_id.or(named) {
            Some(id) => id,
            None => {
                self.change(
                    at,
                    Rule::Required,
                    Node::Null,
                    Some(Node::object([("globalAssetId", Node::text(&*shell_id))])),
                )?;
                shell_id
            }
        };
        Ok(Node::object([
            ("assetKind", Node::Text(kind)),
            ("globalAssetId", Node::Text(global)),
        ]))
    }

    /// A submodel; `None` (reported) for one without an id.
    pub fn submodel<'a>(&mut self, v2: Node<'a>, at: &str) -> Result<Option<Node<'a>>> {
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
                out.push(("kind".into(), Node::Text(kind)));
            } else {
                self.change(f.path("kind"), Rule::NotInV3, Node::Text(kind), None)?;
            }
        }
        self.semantic_id(&mut f, &mut out)?;
        self.qualifiers(&mut f, &mut out)?;
        self.data_specifications(&mut f, &mut out)?;
        let elements = self.elements(f.list("submodelElements"), f.path("submodelElements"))?;
        if !elements.is_empty() {
            out.push(("submodelElements".into(), Node::List(elements)));
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Node::Object(out)))
    }

    /// A concept description; its category is left out when it disagrees with its
    /// IEC 61360 data type as V3.0 wants (AASc-3a-004 to 007), and its IEC 61360
    /// content when that has no definition in English and no value (AASc-3a-008).
    pub fn concept_description<'a>(&mut self, v2: Node<'a>, at: &str) -> Result<Option<Node<'a>>> {
        let Some((mut f, mut out)) = self.start(v2, at, "ConceptDescription")? else {
            return Ok(None);
        };
        self.id_short(&mut f, &mut out)?;
        self.referable(&mut f, &mut out, false)?;
        if self.identifiable(&mut f, &mut out)?.is_none() {
            return self.no_id(f);
        }
        self.data_specifications(&mut f, &mut out)?;
        let items = f.list("isCaseOf");
        let at_cases = f.path("isCaseOf");
        let mut cases = Vec::new();
        for (i, r) in items.into_iter().enumerate() {
            if let Some(r) = self.reference(r, at_cases.item(i))? {
                cases.push(r);
            }
        }
        if !cases.is_empty() {
            out.push(("isCaseOf".into(), Node::List(cases)));
        }
        let contents: Vec<&Node> = member(&out, "embeddedDataSpecifications")
            .and_then(Node::as_list)
            .map(|specs| {
                specs
                    .iter()
                    .map(|s| s.get("dataSpecificationContent").unwrap_or(&Node::Null))
                    .collect()
            })
            .unwrap_or_default();
        let described = contents.iter().all(|c| {
            c.get("value").is_some()
                || c.get("definition")
                    .and_then(Node::as_list)
                    .is_some_and(|d| {
                        d.iter().any(|t| {
                            t.get("language")
                                .and_then(Node::as_str)
                                .is_some_and(crate::language::is_english)
                        })
                    })
        });
        let category_fits =
            member(&out, "category")
                .and_then(Node::as_str)
                .is_none_or(|category| {
                    contents.iter().all(|c| {
                        let data_type = c.get("dataType").and_then(Node::as_str);
                        crate::iec61360::category_fits(category, data_type)
                    })
                });
        if !category_fits {
            let category = remove_member(&mut out, "category").unwrap_or(Node::Null);
            self.change(f.path("category"), Rule::Category, category, None)?;
        }
        if !described {
            let specs = remove_member(&mut out, "embeddedDataSpecifications").unwrap_or(Node::Null);
            let at = f.path("embeddedDataSpecifications");
            self.change(at, Rule::DataSpecification, specs, None)?;
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Node::Object(out)))
    }

    /// The fields of an identifiable and its output, `modelType` first; `None` when
    /// it is not an object (reported).
    fn start<'a, 'p>(
        &mut self,
        v2: Node<'a>,
        at: &'p str,
        model_type: &'static str,
    ) -> Result<Option<(Fields<'a, 'p>, Members<'a>)>> {
        match Fields::of(v2, At::Root(at)) {
            Ok(f) => Ok(Some((
                f,
                vec![("modelType".into(), Node::text(model_type))],
            ))),
            Err(other) => {
                self.change(At::Root(at), Rule::NotInV3, other, None)?;
                Ok(None)
            }
        }
    }

    fn no_id<'a>(&mut self, f: Fields<'_, '_>) -> Result<Option<Node<'a>>> {
        let at = f.at;
        let rest = f.rest(&[]).into_iter();
        let rest = rest
            .map(|(path, value)| (Cow::Owned(path), value))
            .collect();
        self.change(at, Rule::Required, Node::Object(rest), None)?;
        Ok(None)
    }

    /// An identifiable's idShort, optional in V3.0, renamed when V3.0 rejects it.
    fn id_short<'a>(&mut self, f: &mut Fields<'a, '_>, out: &mut Members<'a>) -> Result<()> {
        if let Some(given) = f.text("idShort") {
            let target = self.target_version();
            let name = id_short::Siblings::of(target, std::iter::empty()).name(Some(&given));
            if name != given {
                self.change(
                    f.path("idShort"),
                    Rule::IdShort,
                    Node::Text(given),
                    Some(Node::Text(name.clone())),
                )?;
            }
            out.push(("idShort".into(), Node::Text(name)));
        }
        Ok(())
    }
}
