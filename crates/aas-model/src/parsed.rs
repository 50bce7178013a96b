use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::{to_raw_value, RawValue};

use crate::{Error, Result};

/// One node as the server sent it: its JSON text, and the typed view of it, or why the
/// typed view failed. A node whose view failed is still kept, so nothing is dropped.
#[derive(Debug, Clone, Serialize)]
pub struct Parsed<T> {
    raw: Box<RawValue>,
    #[serde(skip)]
    view: Result<T>,
}

impl<T: DeserializeOwned> Parsed<T> {
    /// Reads the typed view of a raw JSON value.
    pub fn new(raw: Box<RawValue>) -> Self {
        let view = parse(raw.get());
        Parsed { raw, view }
    }
}

impl<T: Serialize> Parsed<T> {
    /// A node that was read as part of a larger one: its JSON is the typed view written
    /// back, which is the same JSON value the server sent (key order may differ).
    pub fn from_view(view: T) -> Self {
        match to_raw_value(&view) {
            Ok(raw) => Parsed {
                raw,
                view: Ok(view),
            },
            Err(e) => Parsed {
                raw: RawValue::NULL.to_owned(),
                view: Err(Error::Encode(e.to_string())),
            },
        }
    }
}

impl<T> Parsed<T> {
    /// The JSON text of this node: exactly what the server sent (also for a nested
    /// element, see [`RawElement`](crate::RawElement)), unless it was made with
    /// [`Parsed::from_view`].
    pub fn raw(&self) -> &str {
        self.raw.get()
    }

    pub fn view(&self) -> std::result::Result<&T, &Error> {
        self.view.as_ref()
    }
}

/// Parses `json` as `T`, naming the JSON path of a failure.
pub fn parse<T: DeserializeOwned>(json: &str) -> Result<T> {
    // Tracking the path costs an allocation per key, so only a failed parse pays it:
    // the second run fails at the same place, now with the path.
    serde_json::from_str(json).map_err(|first| {
        let de = &mut serde_json::Deserializer::from_str(json);
        match serde_path_to_error::deserialize::<_, T>(de) {
            Err(e) => Error::decode(e.path(), e.inner()),
            // The value itself reads: what follows it is wrong (found by fuzzing).
            Ok(_) => Error::decode(".", first),
        }
    })
}

/// Parses a JSON array whose items are parsed one by one: a malformed item is kept with
/// its error, the others are unaffected. Fails only when `json` is not an array.
pub fn parse_list<T: DeserializeOwned>(json: &str) -> Result<Vec<Parsed<T>>> {
    let items: Vec<Box<RawValue>> = parse(json)?;
    Ok(items.into_iter().map(Parsed::new).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SubmodelElement;

    #[test]
    fn a_bad_item_keeps_its_bytes_and_its_reason_and_spares_the_rest() {
        let json = r#"[{"idShort":"a","modelType":{"name":"Property"},"value":"1"},
                       {"idShort":42,"modelType":{"name":"Property"}}]"#;
        let items = parse_list::<SubmodelElement>(json).expect("an array");
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].view().expect("first is fine").id_short, "a");
        let err = items[1].view().expect_err("second is malformed");
        assert!(err.to_string().contains("idShort"), "{err}");
        assert_eq!(
            items[1].raw(),
            r#"{"idShort":42,"modelType":{"name":"Property"}}"#
        );
    }

    #[test]
    fn raw_text_is_kept_byte_for_byte() {
        let json = r#"[ {"value" : 1.50, "idShort":"x", "modelType":{"name":"Property"}} ]"#;
        let items = parse_list::<SubmodelElement>(json).expect("an array");
        assert_eq!(
            items[0].raw(),
            r#"{"value" : 1.50, "idShort":"x", "modelType":{"name":"Property"}}"#
        );
    }

    #[test]
    fn a_decode_error_names_the_json_path_of_a_nested_failure() {
        let json = r#"{"idShort":"S","submodelElements":[
            {"idShort":"ok","modelType":{"name":"Property"}}],
            "qualifiers":[{"modelType":{"name":"Qualifier"},"type":"t","valueId":{"keys":[{"type":"GlobalReference"}]}}]}"#;
        let err = parse::<crate::Submodel>(json).expect_err("key value is missing");
        match err {
            Error::Decode { path, message } => {
                assert_eq!(path, "qualifiers[0].valueId.keys[0]");
                assert!(message.contains("missing field `value`"), "{message}");
            }
            other => panic!("not a decode error: {other}"),
        }
    }

    #[test]
    fn a_bad_nested_element_fails_alone_and_names_its_path_inside_itself() {
        let json = r#"{"idShort":"S","submodelElements":[
            {"idShort":"ok","modelType":{"name":"Property"}},
            {"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
                {"idShort":"m","modelType":{"name":"MultiLanguageProperty"},"value":[{"language":"en"}]}]}]}"#;
        let sm = parse::<crate::Submodel>(json).expect("the submodel itself is fine");
        let elements = sm.elements();
        let c = elements[1].view().expect("the collection is fine");
        let kids = c.children().expect("children");
        match kids[0].view().expect_err("text is missing") {
            Error::Decode { path, message } => {
                assert_eq!(path, "value[0]");
                assert!(message.contains("missing field `text`"), "{message}");
            }
            other => panic!("not a decode error: {other}"),
        }
    }

    #[test]
    fn characters_after_the_value_are_an_error() {
        let json = r#"{"idShort":"a","modelType":{"name":"Property"}}"#;
        for text in [format!("{json}\u{1a}"), format!("{json} {{}}")] {
            let err = parse::<SubmodelElement>(&text).expect_err("trailing characters");
            assert!(err.to_string().contains("trailing characters"), "{err}");
        }
        parse::<SubmodelElement>(&format!(" {json}\n")).expect("whitespace is fine");
    }

    #[test]
    fn not_an_array_is_an_error_at_the_root() {
        let err = parse_list::<SubmodelElement>(r#"{"a":1}"#).expect_err("not a list");
        assert!(err.to_string().starts_with("unexpected JSON at ."), "{err}");
    }
}
