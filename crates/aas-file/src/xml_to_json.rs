//! AAS V3.0 and V3.1 XML as the JSON the same specification writes for it. Both schemas
//! are derived from the metamodel the same way (a property is an element of its name; a
//! list holds elements named by their class), so one walk converts it, knowing only a
//! few facts of the metamodel: which elements are list items, which properties hold one
//! object named by its class, which values are booleans, and which classes JSON names
//! with a `modelType`.

use serde_json::{Map, Value as Json};

use crate::contents::Version;
use crate::xml_tree::Node;

/// The classes JSON names with `"modelType"`, as XML names their elements.
const MODEL_TYPED: [&str; 18] = [
    "assetAdministrationShell",
    "submodel",
    "conceptDescription",
    "relationshipElement",
    "annotatedRelationshipElement",
    "basicEventElement",
    "blob",
    "capability",
    "entity",
    "file",
    "multiLanguageProperty",
    "operation",
    "property",
    "range",
    "referenceElement",
    "submodelElementCollection",
    "submodelElementList",
    "dataSpecificationIec61360",
];

/// The other classes whose elements are the items of a list.
const LIST_ITEMS: [&str; 13] = [
    "key",
    "reference",
    "langStringTextType",
    "langStringNameType",
    "langStringPreferredNameTypeIec61360",
    "langStringShortNameTypeIec61360",
    "langStringDefinitionTypeIec61360",
    "qualifier",
    "extension",
    "embeddedDataSpecification",
    "specificAssetId",
    "valueReferencePair",
    "operationVariable",
];

/// Properties that are lists, for an empty one (the schemas want items, writers do not
/// always give them).
const LISTS: [&str; 23] = [
    "assetAdministrationShells",
    "submodels",
    "conceptDescriptions",
    "keys",
    "description",
    "displayName",
    "qualifiers",
    "extensions",
    "embeddedDataSpecifications",
    "supplementalSemanticIds",
    "refersTo",
    "specificAssetIds",
    "submodelElements",
    "statements",
    "annotations",
    "inputVariables",
    "outputVariables",
    "inoutputVariables",
    "isCaseOf",
    "valueReferencePairs",
    "preferredName",
    "shortName",
    "definition",
];

/// Properties that hold an object (V2's and V3's), for an empty one
/// (`<administration/>`).
const OBJECTS: [&str; 19] = [
    "administration",
    "semanticId",
    "derivedFrom",
    "valueId",
    "first",
    "second",
    "observed",
    "unitId",
    "dataSpecification",
    "parent",
    "externalSubjectId",
    "defaultThumbnail",
    "creator",
    "semanticIdListElement",
    "assetRef",
    "assetIdentificationModelRef",
    "billOfMaterialRef",
    "isCaseOf",
    "containedElementRef",
];

/// The classes whose `value` is a list (of elements, of texts by language).
const LISTED_VALUES: [&str; 3] = [
    "submodelElementCollection",
    "submodelElementList",
    "multiLanguageProperty",
];

/// The environment `root` (an `<environment>` of V3.0 or V3.1) as JSON.
pub(crate) fn environment(root: &Node) -> Json {
    object(root)
}

/// One item of a root's list (a shell, a submodel, a V2 asset) of `version` as JSON,
/// as it is in the list's JSON that [`environment`] (or V2's) writes.
pub(crate) fn item(version: Version, node: &Node) -> Json {
    match version {
        Version::V1 | Version::V2 => v2::item(node),
        _ => object(node),
    }
}

fn object(node: &Node) -> Json {
    let mut map = Map::new();
    if MODEL_TYPED.contains(&node.name.as_str()) {
        map.insert("modelType".into(), Json::String(class_name(&node.name)));
    }
    for child in &node.children {
        map.insert(child.name.clone(), property(node, child));
    }
    Json::Object(map)
}

fn property(parent: &Node, node: &Node) -> Json {
    if node.name == "orderRelevant" || parent.name == "levelType" {
        return Json::Bool(node.text.trim() == "true");
    }
    // A property of an abstract type holds one object, named by its class.
    let one_of_a_kind = node.name == "dataSpecificationContent"
        || (parent.name == "operationVariable" && node.name == "value");
    if one_of_a_kind {
        return node.children.first().map_or(Json::Null, object);
    }
    let is_item = |c: &Node| {
        let name = c.name.as_str();
        MODEL_TYPED.contains(&name) || LIST_ITEMS.contains(&name)
    };
    if !node.children.is_empty() {
        if node.children.iter().all(is_item) {
            return Json::Array(node.children.iter().map(object).collect());
        }
        return object(node);
    }
    // Empty, or only the indentation of a pretty-printed file.
    let blank = node.text.trim().is_empty();
    let empty_list = blank
        && (LISTS.contains(&node.name.as_str())
            || (node.name == "value" && LISTED_VALUES.contains(&parent.name.as_str())));
    if empty_list {
        return Json::Array(Vec::new());
    }
    if blank && OBJECTS.contains(&node.name.as_str()) {
        return Json::Object(Map::new());
    }
    Json::String(node.text.clone())
}

/// A class's name as JSON writes it: its XML element name with a capital first letter.
fn class_name(element: &str) -> String {
    let mut chars = element.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// V2.0 XML, whose schema was written apart from its JSON schema: wrappers JSON does not
/// have (`submodelElement`, `dataElement`, `qualifier` around each constraint), names
/// JSON changed (`assetRef` → `asset`, `submodelRefs` → `submodels`), attributes
/// (`idType`, a key's `type` and `local`, a text's `lang`), and repeated elements where
/// JSON has a list (`embeddedDataSpecification`, `isCaseOf`, an operation's variables).
pub(crate) mod v2 {
    use serde_json::{json, Map, Value as Json};

    use crate::xml_tree::Node;

    /// The classes V2 JSON names with `"modelType": {"name": …}`, as XML names their
    /// elements.
    const MODEL_TYPED: [&str; 21] = [
        "assetAdministrationShell",
        "asset",
        "submodel",
        "conceptDescription",
        "view",
        "conceptDictionary",
        "property",
        "multiLanguageProperty",
        "range",
        "blob",
        "file",
        "referenceElement",
        "submodelElementCollection",
        "relationshipElement",
        "annotatedRelationshipElement",
        "capability",
        "entity",
        "basicEvent",
        "operation",
        "qualifier",
        "formula",
    ];

    /// The elements that only wrap the one element they hold.
    const WRAPPERS: [&str; 2] = ["submodelElement", "dataElement"];

    /// Elements whose items JSON lists (a reference each, unless named otherwise).
    const LISTS: [(&str, &str); 18] = [
        ("assetAdministrationShells", "assetAdministrationShells"),
        ("assets", "assets"),
        ("submodels", "submodels"),
        ("conceptDescriptions", "conceptDescriptions"),
        ("submodelRefs", "submodels"),
        ("views", "views"),
        ("conceptDictionaries", "conceptDictionaries"),
        ("conceptDescriptionRefs", "conceptDescriptions"),
        ("containedElements", "containedElements"),
        ("dependsOnRefs", "dependsOn"),
        ("submodelElements", "submodelElements"),
        ("statements", "statements"),
        ("annotations", "annotation"),
        ("keys", "keys"),
        ("description", "description"),
        ("preferredName", "preferredName"),
        ("shortName", "shortName"),
        ("definition", "definition"),
    ];

    /// Elements JSON renames.
    const RENAMED: [(&str, &str); 3] = [
        ("assetRef", "asset"),
        ("assetIdentificationModelRef", "assetIdentificationModel"),
        ("billOfMaterialRef", "billOfMaterial"),
    ];

    /// Elements that repeat where JSON has one list of them.
    const REPEATED: [(&str, &str); 6] = [
        ("embeddedDataSpecification", "embeddedDataSpecifications"),
        ("isCaseOf", "isCaseOf"),
        ("inputVariable", "inputVariable"),
        ("outputVariable", "outputVariable"),
        ("inoutputVariable", "inoutputVariable"),
        ("levelType", "levelType"),
    ];

    /// The environment `root` (a V2.0 `<aasenv>`) as V2 JSON.
    pub(crate) fn environment(root: &Node) -> Json {
        object(root)
    }

    fn object(node: &Node) -> Json {
        let mut map = Map::new();
        // A constraint's item names its class; the `qualifier` around it does not.
        if MODEL_TYPED.contains(&node.name.as_str()) {
            map.insert(
                "modelType".into(),
                json!({"name": super::class_name(&node.name)}),
            );
        }
        for child in &node.children {
            if let Some((_, key)) = REPEATED.iter().find(|(name, _)| *name == child.name) {
                add_to(&mut map, key, [repeated(child)]);
                continue;
            }
            // Each `<qualifier>` around a referable's constraints adds to one list.
            if child.name == "qualifier" {
                add_to(&mut map, "qualifiers", child.children.iter().map(object));
                continue;
            }
            // An empty Blob holds no content, as V2 XML readers take it.
            if node.name == "blob" && child.name == "value" && child.text.trim().is_empty() {
                continue;
            }
            let key = RENAMED
                .iter()
                .chain(LISTS.iter())
                .find(|(name, _)| *name == child.name)
                .map_or(child.name.as_str(), |(_, key)| key);
            map.insert(key.to_owned(), property(node, child));
        }
        Json::Object(map)
    }

    /// Adds `items` to the list at `key` of `map` (only this makes lists there).
    fn add_to(map: &mut Map<String, Json>, key: &str, items: impl IntoIterator<Item = Json>) {
        if let Json::Array(list) = map.entry(key).or_insert_with(|| Json::Array(Vec::new())) {
            list.extend(items);
        }
    }

    /// One of a repeated element: an operation's variable holds its element in `value`.
    fn repeated(node: &Node) -> Json {
        match node.name.as_str() {
            "inputVariable" | "outputVariable" | "inoutputVariable" => {
                let value = node.child("value").map_or(Json::Null, one_element);
                json!({"value": value})
            }
            "levelType" => Json::String(node.text.clone()),
            _ => object(node),
        }
    }

    fn property(parent: &Node, node: &Node) -> Json {
        match node.name.as_str() {
            "identification" => json!({
                "idType": node.attribute("idType").unwrap_or_default(),
                "id": node.text,
            }),
            "ordered" | "allowDuplicates" => Json::Bool(node.text.trim() == "true"),
            "dataSpecificationContent" => node.children.first().map_or(Json::Null, object),
            // V2 JSON gives each pair a value type, which V2 XML leaves to the content's
            // value format (a string where it has none), as V2 XML readers do.
            "valueList" => {
                let format = parent.child("valueFormat").map(|f| f.text.trim());
                let value_type = format.filter(|f| !f.is_empty()).unwrap_or("string");
                let pairs = node.children.iter().map(|pair| {
                    let mut pair = object(pair);
                    pair["valueType"] = Json::from(value_type);
                    pair
                });
                json!({"valueReferencePairTypes": pairs.collect::<Vec<_>>()})
            }
            "keys" => Json::Array(node.children.iter().map(key).collect()),
            // A collection's or a property's value: elements, texts, a reference or text.
            "value" if !node.children.is_empty() => match parent.name.as_str() {
                "submodelElementCollection" => list(node),
                "multiLanguageProperty" => list(node),
                _ => object(node),
            },
            "value"
                if node.text.trim().is_empty() && parent.name == "submodelElementCollection" =>
            {
                Json::Array(Vec::new())
            }
            name if LISTS.iter().any(|(list, _)| *list == name) => list(node),
            name if node.children.is_empty() && super::OBJECTS.contains(&name) => json!({}),
            _ if !node.children.is_empty() => object(node),
            _ => Json::String(node.text.clone()),
        }
    }

    /// The items of a list element: elements unwrapped, texts by language, references.
    fn list(node: &Node) -> Json {
        Json::Array(node.children.iter().map(item).collect())
    }

    pub(super) fn item(node: &Node) -> Json {
        match node.name.as_str() {
            "langString" => json!({
                "language": node.attribute("lang").unwrap_or_default(),
                "text": node.text,
            }),
            name if WRAPPERS.contains(&name) => one_element(node),
            _ => object(node),
        }
    }

    /// The one element `node` holds, through a wrapper if it has one.
    fn one_element(node: &Node) -> Json {
        match node.children.first() {
            Some(child) if WRAPPERS.contains(&child.name.as_str()) => one_element(child),
            Some(child) => object(child),
            None => Json::Null,
        }
    }

    fn key(node: &Node) -> Json {
        json!({
            "type": node.attribute("type").unwrap_or_default(),
            "local": node.attribute("local") == Some("true"),
            "value": node.text,
            "idType": node.attribute("idType").unwrap_or_default(),
        })
    }
}
