//! What a file holds, in one model whatever its version and serialisation.

use crate::raw_text::RawText;
use std::collections::HashSet;

use base64::Engine as _;

/// The shells and submodels of a file (every spec part of a package, an identifiable
/// that several parts repeat kept once: the first).
#[derive(Debug, Default)]
pub struct Contents {
    pub shells: Vec<Shell>,
    pub submodels: Vec<Submodel>,
    /// Each part read: its name, version and serialisation.
    pub parts: Vec<(String, Version, Serialisation)>,
    /// A package's thumbnail: its part name and bytes (at most [`THUMBNAIL_MAX`]).
    pub thumbnail: Option<(String, Vec<u8>)>,
    /// Properties of a V3 JSON part that no class of the metamodel has (a newer
    /// writer's): kept as read in each object's raw JSON, named here by their paths
    /// (the first [`UNKNOWN_NAMED`]), and how many there are.
    pub unknown: Vec<String>,
    pub unknown_count: usize,
}

/// How many properties of no known class a reading names (it counts them all).
pub const UNKNOWN_NAMED: usize = 20;

/// The largest thumbnail read: a picture beside the file's name, not a document.
pub const THUMBNAIL_MAX: usize = 2 << 20;

#[derive(Debug, Clone, PartialEq)]
pub struct Shell {
    pub id: String,
    pub id_short: Option<String>,
    /// V3's `assetInformation.globalAssetId`; in V2 the first key of `assetRef`.
    pub global_asset_id: Option<String>,
    /// V3's `assetInformation.assetKind`; in V2 the asset's `kind`, where the file has it.
    pub asset_kind: Option<String>,
    /// V3's `assetInformation.assetType`.
    pub asset_type: Option<String>,
    /// The identifiers its submodel references name (the first key of each).
    pub submodels: Vec<String>,
    /// Its text as the file has it (JSON or XML).
    pub raw: RawText,
}

/// The group of a file's shells that say neither an asset type nor an asset kind.
const NO_ASSET_TYPE: &str = "no asset type";

impl Shell {
    /// The group the tree and the file's AAS lists put it in: its asset type where the
    /// file says one, else its asset kind, else "no asset type".
    pub fn group(&self) -> aas_model::AssetType {
        let named = |text: &Option<String>| {
            text.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
        };
        let name = named(&self.asset_type).or_else(|| named(&self.asset_kind));
        aas_model::AssetType::named(name.unwrap_or_else(|| NO_ASSET_TYPE.to_owned()))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Submodel {
    pub id: String,
    pub id_short: Option<String>,
    /// The first key's value of its semanticId.
    pub semantic_id: Option<String>,
    pub elements: Vec<Element>,
    /// Its text as the file has it (JSON or XML).
    pub raw: RawText,
}

/// A submodel element, its kind named as V3 names it (V2's `SubmodelElementCollection`
/// stays one, V2's `BasicEvent` is `BasicEventElement`).
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub id_short: Option<String>,
    pub model_type: &'static str,
    /// Properties' and Ranges' value type, without the `xs:` prefix V3 writes.
    pub value_type: Option<String>,
    pub semantic_id: Option<String>,
    pub value: Value,
    /// A collection's or a list's elements, an entity's statements, an annotated
    /// relationship's annotations, an operation's variables' values.
    pub children: Vec<Element>,
    /// Its text as the file has it (JSON or XML).
    pub raw: RawText,
}

impl Element {
    /// Whether its children are addressed by position (a SubmodelElementList's).
    pub fn is_list(&self) -> bool {
        self.model_type == "SubmodelElementList"
    }
}

/// An element's value, as the file writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Kinds whose value is their children, or that have none.
    None,
    /// A Property's value text.
    Text(Option<String>),
    /// A MultiLanguageProperty's texts by language, in the file's order.
    Languages(Vec<(String, String)>),
    Range {
        min: Option<String>,
        max: Option<String>,
    },
    File {
        content_type: Option<String>,
        value: Option<String>,
    },
    /// A Blob: its content type, the size of its decoded content, and that content as
    /// the file writes it (base64), to be saved on request.
    Blob {
        content_type: Option<String>,
        bytes: Option<usize>,
        base64: Option<String>,
    },
    /// A ReferenceElement's keys' values.
    Reference(Option<Vec<String>>),
}

impl Contents {
    /// Adds what another part of the same package holds: an identifiable met before (in
    /// an earlier part, or earlier in this one) is kept as it was first met.
    pub fn merge(&mut self, other: Contents) {
        let mut shells: HashSet<String> = self.shells.iter().map(|s| s.id.clone()).collect();
        let mut submodels: HashSet<String> = self.submodels.iter().map(|s| s.id.clone()).collect();
        let new_shells = other
            .shells
            .into_iter()
            .filter(|s| shells.insert(s.id.clone()));
        self.shells.extend(new_shells);
        let new_submodels = other
            .submodels
            .into_iter()
            .filter(|s| submodels.insert(s.id.clone()));
        self.submodels.extend(new_submodels);
        self.parts.extend(other.parts);
        let room = UNKNOWN_NAMED.saturating_sub(self.unknown.len());
        self.unknown.extend(other.unknown.into_iter().take(room));
        self.unknown_count += other.unknown_count;
    }
}

/// The V3 name of an element kind, from V2's or V3's name of it (XML's camelCase
/// element names and JSON's modelType names alike); `None` for a name that is no
/// submodel element.
pub(crate) fn model_type(name: &str) -> Option<&'static str> {
    const KINDS: [(&str, &str); 15] = [
        ("property", "Property"),
        ("multiLanguageProperty", "MultiLanguageProperty"),
        ("range", "Range"),
        ("blob", "Blob"),
        ("file", "File"),
        ("referenceElement", "ReferenceElement"),
        ("relationshipElement", "RelationshipElement"),
        (
            "annotatedRelationshipElement",
            "AnnotatedRelationshipElement",
        ),
        ("capability", "Capability"),
        ("operation", "Operation"),
        ("basicEvent", "BasicEventElement"),
        ("basicEventElement", "BasicEventElement"),
        ("entity", "Entity"),
        ("submodelElementCollection", "SubmodelElementCollection"),
        ("submodelElementList", "SubmodelElementList"),
    ];
    let mut chars = name.chars();
    let first = chars.next()?.to_ascii_lowercase();
    let camel: String = std::iter::once(first).chain(chars).collect();
    KINDS
        .iter()
        .find(|(xml, _)| *xml == camel)
        .map(|(_, v3)| *v3)
}

/// The size of base64 text once decoded (line breaks allowed); `None` if it is not base64.
pub(crate) fn decoded_size(text: &str) -> Option<usize> {
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .ok()
        .map(|bytes| bytes.len())
}

/// A V2 asset's kind, which V2 keeps on the asset (`kinds`: each asset's id and kind),
/// apart from the shell that names the asset.
pub(crate) fn asset_kind(asset: Option<&str>, kinds: &[(String, String)]) -> Option<String> {
    let asset = asset?;
    kinds
        .iter()
        .find(|(id, _)| id == asset)
        .map(|(_, kind)| kind.clone())
}

/// A value type as V3 names it without its prefix (`xs:string` → `string`).
pub(crate) fn bare_value_type(text: &str) -> String {
    let text = text.trim();
    text.rsplit_once(':')
        .map_or(text, |(_, name)| name)
        .to_owned()
}

/// The metamodel version a payload is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Version {
    /// V1.0 XML, read as V2.0 (v1.rs).
    #[serde(rename = "1.0")]
    V1,
    #[serde(rename = "2.0")]
    V2,
    #[serde(rename = "3.0")]
    V3_0,
    #[serde(rename = "3.1")]
    V3_1,
    /// V3 JSON, which names no version: read as V3.1, which reads V3.0 too.
    #[serde(rename = "3")]
    V3,
}

/// How a payload is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Serialisation {
    Json,
    Xml,
}
