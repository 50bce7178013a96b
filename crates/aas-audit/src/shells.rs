//! The plant's shells, as the AAS lists name them: the audit's findings point at them
//! by index.

use std::collections::HashMap;

use aas_client::{NodeLevel, NodePath};
use aas_export::Answers;
use aas_model::AssetType;
use serde::{Deserialize, Serialize};

use crate::read::each;
use crate::{Error, Result};

/// A shell of the plant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shell {
    /// `identification.id`.
    pub id: String,
    pub id_short: String,
    /// The AAS list it came in; `None` for one no list named.
    pub asset_type: Option<AssetType>,
}

#[derive(Debug, Default)]
pub(crate) struct ShellTable {
    pub list: Vec<Shell>,
    by_id: HashMap<String, u32>,
}

impl ShellTable {
    /// The shells of the AAS lists of `asset_type` (all types when `None`) that the
    /// crawl's selection wants.
    pub fn read(answers: &dyn Answers, asset_type: Option<AssetType>) -> Result<ShellTable> {
        #[derive(Deserialize)]
        struct Item {
            #[serde(rename = "idShort", default)]
            id_short: Option<String>,
            identification: Option<Identification>,
        }
        #[derive(Deserialize)]
        struct Identification {
            id: Option<String>,
        }
        let selection = &answers.crawl().selection;
        let mut table = ShellTable::default();
        each(answers, NodeLevel::AasList, |path, text| {
            let NodePath::AasList { asset_type: listed } = path else {
                return Ok(());
            };
            if asset_type.is_some_and(|t| t != *listed) {
                return Ok(());
            }
            let items: Vec<Item> = serde_json::from_str(text).map_err(Error::bad_data)?;
            for item in items {
                let Some(id) = item.identification.and_then(|i| i.id) else {
                    continue;
                };
                if selection.wants_shell(&id) {
                    table.insert(id, item.id_short.unwrap_or_default(), Some(*listed));
                }
            }
            Ok(())
        })?;
        Ok(table)
    }

    fn insert(&mut self, id: String, id_short: String, asset_type: Option<AssetType>) -> u32 {
        if let Some(&at) = self.by_id.get(&id) {
            return at;
        }
        let at = u32::try_from(self.list.len()).unwrap_or(u32::MAX);
        self.by_id.insert(id.clone(), at);
        self.list.push(Shell {
            id,
            id_short,
            asset_type,
        });
        at
    }

    /// The shell's index; a shell no list named is added (unless only one asset type
    /// is audited: then it is not of that type).
    pub fn index(&mut self, id: &str, only_one_type: bool) -> Option<u32> {
        match self.by_id.get(id) {
            Some(&at) => Some(at),
            None if only_one_type => None,
            None => Some(self.insert(id.to_owned(), String::new(), None)),
        }
    }
}
