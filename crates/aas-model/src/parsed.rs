use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::{Error, Result};

/// One node as the server sent it: the exact bytes, and the typed view of them, or why
/// the typed view failed. A node whose view failed is still kept, so nothing is dropped.
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

impl<T> Parsed<T> {
    /// The exact JSON text the server sent for this node.
    pub fn raw(&self) -> &str {
        self.raw.get()
    }

    pub fn view(&self) -> std::result::Result<&T, &Error> {
        self.view.as_ref()
    }
}

/// Parses `json` as `T`, naming the JSON path of a failure.
pub fn parse<T: DeserializeOwned>(json: &str) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| Error::decode(e.path(), e.inner()))
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
    fn not_an_array_is_an_error_at_the_root() {
        let err = parse_list::<SubmodelElement>(r#"{"a":1}"#).expect_err("not a list");
        assert!(err.to_string().starts_with("unexpected JSON at ."), "{err}");
    }
}
