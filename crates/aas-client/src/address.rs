use aas_model::{Parsed, SubmodelElement};
use serde::{Deserialize, Serialize};

use crate::{Client, Result};

/// Where an element is: its shell, its submodel's idShort, and the idShorts from the
/// outermost collection down to the element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ElementAddress {
    pub aas_id: String,
    pub submodel: String,
    pub id_shorts: Vec<String>,
}

impl Client {
    /// The element at `at`, as the server sends it.
    pub async fn element_at(&self, at: &ElementAddress) -> Result<Parsed<SubmodelElement>> {
        let path: Vec<&str> = at.id_shorts.iter().map(String::as_str).collect();
        self.element(&at.aas_id, &at.submodel, &path).await
    }
}
