//! What a reading needs of a shell's or submodel's text, read from it without making the
//! whole a JSON tree (a tree takes ten times its text, and a server's items are held
//! until the reading ends): its id, and a shell's submodel references.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value as Json;

/// A shell or submodel as the server sent it, as text.
pub type Item = Box<RawValue>;

/// The fields a reading looks at; the rest of the item is skipped, not kept.
#[derive(Deserialize)]
struct Looked {
    #[serde(default)]
    id: Option<Json>,
    #[serde(default)]
    submodels: Option<Json>,
}

fn looked(item: &RawValue) -> Option<Looked> {
    serde_json::from_str(item.get()).ok().or_else(|| {
        // A key given twice (serde refuses it in a struct): the last, as a tree keeps it.
        let tree: Json = serde_json::from_str(item.get()).ok()?;
        Some(Looked {
            id: tree.get("id").cloned(),
            submodels: tree.get("submodels").cloned(),
        })
    })
}

/// An item's `id`, where it is a string.
pub(super) fn item_id(item: &RawValue) -> Option<String> {
    looked(item)?.id?.as_str().map(str::to_owned)
}

/// A shell's id (a string) and the ids of the submodels it names (each reference's last
/// key of type Submodel), read in one pass.
pub(super) fn shell_refs(shell: &RawValue) -> Option<(String, Vec<String>)> {
    let looked = looked(shell)?;
    let id = looked.id?.as_str()?.to_owned();
    let refs = match looked.submodels {
        Some(Json::Array(refs)) => refs,
        _ => Vec::new(),
    };
    let submodels = (refs.iter())
        .filter_map(|reference| {
            let last = reference.get("keys")?.as_array()?.last()?;
            (last.get("type")?.as_str()? == "Submodel")
                .then(|| last.get("value")?.as_str().map(str::to_owned))
                .flatten()
        })
        .collect();
    Some((id, submodels))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str) -> Item {
        RawValue::from_string(text.to_owned()).expect("JSON")
    }

    #[test]
    fn only_ids_that_are_strings_and_references_to_submodels_count() {
        let shell = item(
            r#"{"id": "urn:s", "assetInformation": {"assetKind": "Instance"}, "submodels": [
              {"keys": [{"type": "Submodel", "value": "urn:a"}]},
              {"keys": [{"type": "AssetAdministrationShell", "value": "urn:b"}]},
              {"keys": []}, 7]}"#,
        );
        assert_eq!(item_id(&shell).as_deref(), Some("urn:s"));
        assert_eq!(
            shell_refs(&shell),
            Some(("urn:s".into(), vec!["urn:a".into()]))
        );
        assert_eq!(item_id(&item(r#"{"id": 5}"#)), None);
        assert_eq!(
            item_id(&item(r#"{"id": "a", "id": "b"}"#)).as_deref(),
            Some("b")
        );
        let odd = item(r#"{"id": "s", "submodels": "x"}"#);
        assert_eq!(shell_refs(&odd), Some(("s".into(), Vec::new())));
    }
}
