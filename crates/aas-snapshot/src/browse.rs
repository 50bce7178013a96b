//! A snapshot read as the live service would answer, for browsing it offline: the
//! stored answer of one node, which asset type's list holds each shell (and its idShort
//! there), and the file's size.

use std::collections::HashMap;

use aas_model::AssetType;
use aas_source::NodePath;
use serde_json::Value;

use crate::store::Store;
use crate::Result;

impl Store {
    /// The answer snapshot `id` holds for `path`, exactly as the server sent it; `None`
    /// when the snapshot has none (the node failed, or the crawl never reached it).
    pub fn answer(&self, id: i64, path: &NodePath) -> Result<Option<String>> {
        self.snapshot(id)?;
        self.stored_answer(id, path)
    }

    /// The asset type whose AAS list holds each shell of snapshot `id`, and the shell's
    /// idShort in that list (how the tree names it).
    pub fn shell_types(&self, id: i64) -> Result<HashMap<String, (AssetType, Option<String>)>> {
        let mut types = HashMap::new();
        for code in self.db.listed_asset_types(id)? {
            let asset_type = AssetType::named(code);
            let list = NodePath::AasList {
                asset_type: asset_type.clone(),
            };
            let Some(raw) = self.answer(id, &list)? else {
                continue;
            };
            let Ok(Value::Array(shells)) = serde_json::from_str::<Value>(&raw) else {
                continue;
            };
            for shell in &shells {
                // V2's identification, V3's id.
                let id = shell["identification"]["id"]
                    .as_str()
                    .or(shell["id"].as_str());
                if let Some(aas_id) = id {
                    let id_short = shell["idShort"].as_str().map(str::to_owned);
                    types.insert(aas_id.to_owned(), (asset_type.clone(), id_short));
                }
            }
        }
        Ok(types)
    }

    /// The space the store takes: for SQLite, its file's size on disk, its write-ahead
    /// log included.
    pub fn size(&self) -> u64 {
        self.db.size()
    }
}
