//! AAS V3.0 and V3.1 XML as the JSON the same specification writes for it. Both schemas
//! are derived from the metamodel the same way (a property is an element of its name; a
//! list holds elements named by their class), so one walk converts it, knowing only a
//! few facts of the metamodel: which elements are list items, which properties hold one
//! object named by its class, which values are booleans, and which classes JSON names
//! with a `modelType`.

use serde_json::{Map, Value as Json};

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
    let empty_list = node.text.is_empty()
        && (LISTS.contains(&node.name.as_str())
            || (node.name == "value" && LISTED_VALUES.contains(&parent.name.as_str())));
    if empty_list {
        return Json::Array(Vec::new());
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
