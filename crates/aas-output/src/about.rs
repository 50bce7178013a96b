//! What a file made from a plant's answers says it was made from (the plant table's
//! and the template audit's files carry it).

use serde::Serialize;

/// What a file was made from, written in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct About {
    /// `snapshot 7 (profile)` or the live service.
    pub source: String,
    pub plant: String,
    /// The asset type shown (or audited), or `all`.
    pub asset_type: String,
    /// When the data was taken (a snapshot's time), RFC 3339.
    pub taken_at: String,
    /// When the file was written, RFC 3339.
    pub written_at: String,
}

impl About {
    /// Each fact with its name, as a file's About sheet lists them.
    pub fn facts(&self) -> Vec<(&'static str, String)> {
        vec![
            ("Source", self.source.clone()),
            ("Plant", self.plant.clone()),
            ("Asset type", self.asset_type.clone()),
            ("Taken at", self.taken_at.clone()),
            ("Written at", self.written_at.clone()),
        ]
    }
}
