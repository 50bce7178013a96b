//! A whole V2 file as a V3.0 environment: an environment, or one of the other shapes
//! users hold (a shell, a submodel or a list of them, a registry's descriptors, BaSyx
//! V1's answers, a single element that names its submodel).

use std::collections::HashMap;

use crate::change::Rule;
use crate::convert::Converter;
use crate::element::last_key_value;
use crate::fields::{model_type_name, At, Fields};
use crate::identifiables::Asset;
use crate::node::{member, Members, Node};
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

fn kind_of(item: &Node) -> Option<Kind> {
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

/// Whether an identifiable is written as V3 writes it: `modelType` a name rather than
/// V2's `{"name": …}`, an `id` text where V2 has `identification`, or V3's
/// `assetInformation`.
fn written_as_v3(item: &Node) -> bool {
    item.get("modelType").is_some_and(|t| t.as_str().is_some())
        || item.get("assetInformation").is_some()
        || (item.get("identification").is_none()
            && item.get("id").is_some_and(|id| id.as_str().is_some()))
}

/// The V2 objects of a file, each with its path, sorted by what they are.
#[derive(Default)]
struct Objects<'a> {
    shells: Vec<(Node<'a>, String)>,
    submodels: Vec<(Node<'a>, String)>,
    concepts: Vec<(Node<'a>, String)>,
    assets: Vec<(Node<'a>, String)>,
}

impl<'a> Objects<'a> {
    fn add(&mut self, item: Node<'a>, at: String, kind: Kind) {
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
    pub fn environment<'a>(&mut self, document: Node<'a>) -> Result<Node<'a>> {
        let mut objects = Objects::default();
        let lists = [
            "assetAdministrationShells",
            "assets",
            "submodels",
            "conceptDescriptions",
        ];
        match document {
            Node::Object(members) if lists.iter().any(|l| member(&members, l).is_some()) => {
                let mut f = Fields::of(Node::Object(members), At::Root("")).expect("an object");
                for (name, kind) in lists.into_iter().zip([Kind::Shell, Kind::Asset, Kind::Submodel, Kind::ConceptDescription]) {
                    for (i, item) in f.list(name).into_iter().enumerate() {
                        let kind = if kind == Kind::Shell && kind_of(&item) == Some(Kind::Descriptor) { Kind::Descriptor } else { kind };
                        objects.add(item, format!("{name}[{i}]"), kind);
                    }
                }
                self.leftovers(f, &[])?;
            }
            Node::List(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    let at = format!("[{i}]");
                    match kind_of(&item) {
                        Some(kind) => objects.add(item, at, kind),
                        None => self.change(At::Root(&at), Rule::NotInV3, item, None)?,
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

    fn objects<'a>(&mut self, objects: Objects<'a>) -> Result<Node<'a>> {
        // Read as V2, a V3 object would come out damaged with no warning (its asset kind
        // lost, its globalAssetId replaced): refused before anything is written.
        let identifiables = [&objects.shells, &objects.submodels, &objects.concepts];
        if let Some((_, at)) = identifiables
            .into_iter()
            .flatten()
            .find(|(value, _)| written_as_v3(value))
        {
            return Err(Error::AlreadyV3(crate::display_path(at).to_owned()));
        }
        let ids = |list: &[(Node, String)]| -> Vec<String> {
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
                .and_then(Node::as_str)
            {
                Some(id) => {
                    assets.insert(id.to_owned(), Asset { value, at });
                }
                None => self.change(At::Root(&at), Rule::AssetField, value, None)?,
            }
        }
        let mut env = Members::new();
        let mut shells = Vec::new();
        for (value, at) in objects.shells {
            let value = if kind_of(&value) == Some(Kind::Descriptor) {
                self.descriptor_as_shell(value, &at)?
            } else {
                value
            };
            let named = value.get("asset").and_then(last_key_value);
            let asset = named.and_then(|id| assets.remove(id.as_ref()));
            if let Some(shell) = self.shell(value, &at, asset)? {
                shells.push(shell);
            }
        }
        // An Asset no shell names has no place in V3.0.
        let mut unused: Vec<Asset> = assets.into_values().collect();
        unused.sort_by(|a, b| a.at.cmp(&b.at));
        for Asset { value, at } in unused {
            self.change(At::Root(&at), Rule::AssetField, value, None)?;
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
                env.push((name.into(), Node::List(list)));
            }
        }
        Ok(Node::Object(env))
    }

    /// A registry descriptor as the shell it describes: its submodel descriptors
    /// become references; the endpoints, which V3.0 shells do not carry, are reported.
    fn descriptor_as_shell<'a>(&mut self, value: Node<'a>, at: &str) -> Result<Node<'a>> {
        let Ok(mut f) = Fields::of(value, At::Root(at)) else {
            unreachable!("a descriptor is an object")
        };
        let mut shell = Members::new();
        for name in [
            "identification",
            "idShort",
            "description",
            "administration",
            "asset",
        ] {
            if let Some(v) = f.take(name) {
                shell.push((name.into(), v));
            }
        }
        let mut references = Vec::new();
        for name in ["submodelDescriptors", "submodels"] {
            let items = f.list(name);
            let list_at = f.path(name);
            for (i, sm) in items.into_iter().enumerate() {
                let Ok(mut d) = Fields::of(sm, list_at.item(i)) else {
                    continue;
                };
                match d.take("identification").and_then(|i| i.get("id").cloned()) {
                    Some(id) => {
                        let key = Node::object([("type", Node::text("Submodel")), ("value", id)]);
                        references.push(Node::object([("keys", Node::List(vec![key]))]))
                    }
                    None => {
                        self.change(d.path("identification"), Rule::Required, Node::Null, None)?
                    }
                }
                self.leftovers(d, &["modelType"])?;
            }
        }
        shell.push(("submodels".into(), Node::List(references)));
        self.leftovers(f, &["modelType"])?;
        Ok(Node::Object(shell))
    }

    /// A single element as the submodel its BaSyx `parent` reference names, holding it
    /// alone (said so); `None` (reported) when it names none.
    fn element_as_submodel<'a>(
        &mut self,
        mut element: Node<'a>,
        at: &str,
    ) -> Result<Option<Node<'a>>> {
        let parent = element.remove("parent");
        let Some(id) = parent.as_ref().and_then(last_key_value) else {
            self.change(At::Root(at), Rule::Required, element, None)?;
            return Ok(None);
        };
        let identification = Node::object([("id", Node::Text(id))]);
        self.change(
            At::Root(at).field("parent"),
            Rule::Required,
            parent.unwrap_or(Node::Null),
            Some(Node::object([("identification", identification.clone())])),
        )?;
        Ok(Some(Node::object([
            ("identification", identification),
            ("submodelElements", Node::List(vec![element])),
        ])))
    }
}
