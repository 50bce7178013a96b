//! The plant's shells, as the AAS lists name them: the audit's findings point at them
//! by index.

use std::collections::HashMap;

use aas_model::AssetType;
use aas_source::Source;
use serde::Serialize;

use crate::Result;

/// A shell of the plant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shell {
    /// V2's `identification.id` or V3's `id`.
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
    /// crawl's selection wants; a list that no longer reads ends the audit.
    pub fn read(answers: &dyn Source, asset_type: Option<&AssetType>) -> Result<ShellTable> {
        let listed = aas_export::listed_shells(answers, asset_type)?;
        if let Some(e) = listed.unreadable {
            return Err(e.into());
        }
        let mut table = ShellTable::default();
        for shell in listed.shells {
            table.insert(shell.id, shell.id_short, Some(shell.asset_type));
        }
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
