use serde::{Deserialize, Serialize};

use crate::{Nullable, OtherFields};

/// One step of a reference. Some exporters add `index`, some omit `local`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Key {
    /// The kind of the referenced object (`Submodel`, `GlobalReference`, …).
    #[serde(rename = "type")]
    pub key_type: String,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub id_type: Nullable<String>,
    pub value: String,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub local: Nullable<bool>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// A chain of keys. BaSyx V1 sometimes puts a whole object where a reference belongs
/// (an AAS's `asset`); its fields then sit in `extra` and `keys` is absent.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Reference {
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub keys: Nullable<Vec<Key>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl Reference {
    /// The value of the last key: what the reference points at, for display.
    pub fn target(&self) -> Option<&str> {
        self.keys.last().map(|k| k.value.as_str())
    }
}
