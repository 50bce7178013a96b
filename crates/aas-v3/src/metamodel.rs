//! The metamodel's classes as V3 JSON and XML write them: each class's properties in the
//! order of its XML elements (those it inherits first, then its own), and the class of
//! the object a property holds. The XML writer follows it; a reader names by it the
//! properties no version it knows has (a newer writer's), which it keeps as read.
//! The tables were taken from the V3.0 and V3.1 schemas, which agree on every class here.

use serde_json::Value as Json;

/// The properties of each class, in the order its XML elements come: those it inherits
/// first (the metamodel's abstract classes below), then its own.
#[rustfmt::skip] // a class a line: the table reads as the metamodel does
const CLASSES: &[(&str, &[&[&str]])] = &[
    ("environment", &[&["assetAdministrationShells", "submodels", "conceptDescriptions"]]),
    ("assetAdministrationShell", &[IDENTIFIABLE, &[EDS, "derivedFrom", "assetInformation", "submodels"]]),
    ("submodel", &[IDENTIFIABLE, &["kind"], SEMANTIC, &[QUALIFIERS, EDS, "submodelElements"]]),
    ("conceptDescription", &[IDENTIFIABLE, &[EDS, "isCaseOf"]]),
    ("relationshipElement", &[ELEMENT, &["first", "second"]]),
    ("annotatedRelationshipElement", &[ELEMENT, &["first", "second", "annotations"]]),
    ("submodelElementList", &[ELEMENT, &["orderRelevant", "semanticIdListElement", "typeValueListElement", "valueTypeListElement", "value"]]),
    ("submodelElementCollection", &[ELEMENT, &["value"]]),
    ("property", &[ELEMENT, &["valueType", "value", "valueId"]]),
    ("multiLanguageProperty", &[ELEMENT, &["value", "valueId"]]),
    ("range", &[ELEMENT, &["valueType", "min", "max"]]),
    ("referenceElement", &[ELEMENT, &["value"]]),
    ("blob", &[ELEMENT, &["value", "contentType"]]),
    ("file", &[ELEMENT, &["value", "contentType"]]),
    ("entity", &[ELEMENT, &["statements", "entityType", "globalAssetId", "specificAssetIds"]]),
    ("basicEventElement", &[ELEMENT, &["observed", "direction", "state", "messageTopic", "messageBroker", "lastUpdate", "minInterval", "maxInterval"]]),
    ("operation", &[ELEMENT, &["inputVariables", "outputVariables", "inoutputVariables"]]),
    ("capability", &[ELEMENT]),
    ("operationVariable", &[&["value"]]),
    ("extension", &[SEMANTIC, &["name", "valueType", "value", "refersTo"]]),
    ("administrativeInformation", &[&[EDS, "version", "revision", "creator", "templateId"]]),
    ("qualifier", &[SEMANTIC, &["kind", "type", "valueType", "value", "valueId"]]),
    ("assetInformation", &[&["assetKind", "globalAssetId", "specificAssetIds", "assetType", "defaultThumbnail"]]),
    ("resource", &[&["path", "contentType"]]),
    ("specificAssetId", &[SEMANTIC, &["name", "value", "externalSubjectId"]]),
    ("reference", &[&["type", "referredSemanticId", "keys"]]),
    ("key", &[&["type", "value"]]),
    ("langStringNameType", &[LANG_STRING]),
    ("langStringTextType", &[LANG_STRING]),
    ("langStringPreferredNameTypeIec61360", &[LANG_STRING]),
    ("langStringShortNameTypeIec61360", &[LANG_STRING]),
    ("langStringDefinitionTypeIec61360", &[LANG_STRING]),
    ("embeddedDataSpecification", &[&["dataSpecification", "dataSpecificationContent"]]),
    ("dataSpecificationIec61360", &[&["preferredName", "shortName", "unit", "unitId", "sourceOfDefinition", "symbol", "dataType", "definition", "valueFormat", "valueList", "value", "levelType"]]),
    ("levelType", &[&["min", "nom", "typ", "max"]]),
    ("valueList", &[&["valueReferencePairs"]]),
    ("valueReferencePair", &[&["value", "valueId"]]),
];

/// HasExtensions, Referable and Identifiable.
#[rustfmt::skip]
const IDENTIFIABLE: &[&str] = &["extensions", "category", "idShort", "displayName", "description", "administration", "id"];
/// HasSemantics.
const SEMANTIC: &[&str] = &["semanticId", "supplementalSemanticIds"];
/// A submodel element: Referable, HasSemantics, Qualifiable, HasDataSpecification.
#[rustfmt::skip]
const ELEMENT: &[&str] = &["extensions", "category", "idShort", "displayName", "description", "semanticId", "supplementalSemanticIds", QUALIFIERS, EDS];
const QUALIFIERS: &str = "qualifiers";
const EDS: &str = "embeddedDataSpecifications";
const LANG_STRING: &[&str] = &["language", "text"];

/// The class of the object a property holds, where JSON does not name it: by the
/// property (and, for `value`, its owner). `None` for a property of an abstract type,
/// whose object names its class (`modelType`).
pub fn class_of(owner: &str, property: &str) -> Option<&'static str> {
    Some(match property {
        "administration" => "administrativeInformation",
        "assetInformation" => "assetInformation",
        "defaultThumbnail" => "resource",
        "levelType" => "levelType",
        "valueList" => "valueList",
        "keys" => "key",
        "description" => "langStringTextType",
        "value" if owner == "multiLanguageProperty" => "langStringTextType",
        "displayName" => "langStringNameType",
        "preferredName" => "langStringPreferredNameTypeIec61360",
        "shortName" => "langStringShortNameTypeIec61360",
        "definition" => "langStringDefinitionTypeIec61360",
        "extensions" => "extension",
        "qualifiers" => "qualifier",
        "embeddedDataSpecifications" => "embeddedDataSpecification",
        "specificAssetIds" => "specificAssetId",
        "valueReferencePairs" => "valueReferencePair",
        "inputVariables" | "outputVariables" | "inoutputVariables" => "operationVariable",
        "value" if owner == "referenceElement" => "reference",
        "semanticId"
        | "supplementalSemanticIds"
        | "derivedFrom"
        | "valueId"
        | "first"
        | "second"
        | "observed"
        | "messageBroker"
        | "unitId"
        | "dataSpecification"
        | "externalSubjectId"
        | "semanticIdListElement"
        | "referredSemanticId"
        | "creator"
        | "refersTo"
        | "isCaseOf" => "reference",
        "submodels" if owner == "assetAdministrationShell" => "reference",
        _ => return None,
    })
}

/// The class JSON names in `modelType`, as the tables name it (`Property` →
/// `property`), if they know it: the tables' own text, no copy.
pub fn known_class(model_type: &str) -> Option<&'static str> {
    let (first, rest) = model_type.split_at_checked(1)?;
    CLASSES.iter().map(|(class, _)| *class).find(|class| {
        class.len() == model_type.len()
            && class[..1].eq_ignore_ascii_case(first)
            && class[1..] == *rest
    })
}

/// The class JSON names in `modelType`, as the metamodel's tables (and the XML
/// elements) name it: `Property` → `property`.
pub fn class_named(model_type: &str) -> String {
    let mut chars = model_type.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

/// The properties of `class` in the order of its XML elements (none for a class the
/// tables do not know).
pub fn properties(class: &str) -> impl Iterator<Item = &'static str> {
    CLASSES
        .iter()
        .find(|(c, _)| *c == class)
        .map_or(&[][..], |(_, parts)| *parts)
        .iter()
        .flat_map(|part| part.iter().copied())
}

/// Properties that no class of the metamodel has (a newer writer's), found in a V3
/// environment item by item (its lists are read one item at a time), by their JSON path
/// (`submodels[0].submodelElements[2].futureField`): the first `limit` named, all counted.
#[derive(Debug)]
pub struct UnknownProperties {
    pub names: Vec<String>,
    pub count: usize,
    limit: usize,
}

impl UnknownProperties {
    pub fn new(limit: usize) -> Self {
        UnknownProperties {
            names: Vec::new(),
            count: 0,
            limit,
        }
    }

    /// Counts one more, named by the path `path` makes while names are wanted (most
    /// files name nothing, and a path is made only for what is named).
    pub fn found(&mut self, path: impl FnOnce() -> String) {
        self.count += 1;
        if self.names.len() < self.limit {
            self.names.push(path());
        }
    }

    /// Looks through JSON `item`, at place `at` of the environment's list `list`.
    pub fn walk_item(&mut self, item: &Json, list: &str, at: usize) {
        if let Some(class) = class_in(item, "environment", list) {
            self.walk(item, &class, &format!("{list}[{at}]"));
        }
    }

    fn walk(&mut self, object: &Json, class: &str, at: &str) {
        let Some(fields) = object.as_object() else {
            return;
        };
        let known: Vec<&str> = properties(class).collect();
        for (name, value) in fields {
            if name == "modelType" {
                continue;
            }
            let path = || format!("{at}.{name}");
            if !known.contains(&name.as_str()) {
                self.found(path);
                continue;
            }
            match value {
                Json::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if let Some(item_class) = class_in(item, class, name) {
                            self.walk(item, &item_class, &format!("{}[{i}]", path()));
                        }
                    }
                }
                Json::Object(_) => {
                    if let Some(value_class) = class_in(value, class, name) {
                        self.walk(value, &value_class, &path());
                    }
                }
                _ => {}
            }
        }
    }
}

/// The class of `item`, held by property `property` of an object of `owner`: the one its
/// `modelType` names, else the one the property holds.
fn class_in(item: &Json, owner: &str, property: &str) -> Option<String> {
    item.get("modelType")
        .and_then(Json::as_str)
        .map(class_named)
        .or_else(|| class_of(owner, property).map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What an environment's reader finds, list by list and item by item.
    fn unknown_properties(environment: &Json, limit: usize) -> (Vec<String>, usize) {
        let mut found = UnknownProperties::new(limit);
        for (list, items) in environment.as_object().into_iter().flatten() {
            if !properties("environment").any(|known| known == list) {
                found.found(|| list.clone());
                continue;
            }
            for (at, item) in items.as_array().into_iter().flatten().enumerate() {
                found.walk_item(item, list, at);
            }
        }
        (found.names, found.count)
    }

    #[test]
    fn properties_no_class_has_are_named_by_their_path() {
        let environment = json!({
            "assetAdministrationShells": [{
                "modelType": "AssetAdministrationShell", "id": "a", "v32Thing": [1],
                "assetInformation": {"assetKind": "Instance", "newKind": "x"},
                "administration": {"version": "1", "creator": {"type": "ExternalReference", "keys": [{"type": "GlobalReference", "value": "c", "weight": 2}]}}
            }],
            "submodels": [{
                "modelType": "Submodel", "id": "s", "futureField": {"x": 1},
                "submodelElements": [
                    {"modelType": "Property", "idShort": "p", "valueType": "xs:int", "value": "1", "anotherNew": "v"},
                    {"modelType": "SubmodelElementCollection", "idShort": "c", "value": [
                        {"modelType": "MultiLanguageProperty", "idShort": "m", "value": [{"language": "en", "text": "t", "script": "Latn"}]}
                    ]}
                ]
            }],
            "extraList": []
        });
        let (names, count) = unknown_properties(&environment, 100);
        assert_eq!(
            names,
            [
                "assetAdministrationShells[0].v32Thing",
                "assetAdministrationShells[0].assetInformation.newKind",
                "assetAdministrationShells[0].administration.creator.keys[0].weight",
                "submodels[0].futureField",
                "submodels[0].submodelElements[0].anotherNew",
                "submodels[0].submodelElements[1].value[0].value[0].script",
                "extraList",
            ]
        );
        assert_eq!(count, 7);
        let (first, all) = unknown_properties(&environment, 2);
        assert_eq!(
            (first.len(), all),
            (2, 7),
            "named up to the limit, all counted"
        );
    }

    #[test]
    fn a_file_of_known_properties_names_none() {
        let environment = json!({"submodels": [{"modelType": "Submodel", "id": "s", "idShort": "S",
            "semanticId": {"type": "ExternalReference", "keys": [{"type": "GlobalReference", "value": "x"}]},
            "submodelElements": [{"modelType": "Range", "idShort": "r", "valueType": "xs:int", "min": "1", "max": "2"}]}]});
        assert_eq!(unknown_properties(&environment, 10), (vec![], 0));
    }
}
