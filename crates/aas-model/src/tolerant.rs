//! Deserialisation helpers for shapes real servers send beside the standard ones.

use serde::{Deserialize, Deserializer};

/// Reads `null` as the default value: exporters write `"description": null` or
/// `"submodels": null` where V2.0.1 would omit the field.
pub(crate) fn null_as_default<'de, D, T>(de: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(de)?.unwrap_or_default())
}
