//! What the app keeps of the plant table while the page shows it (see plant_table.rs):
//! a module of its own so that the app's state can hold it without the table's commands.

use std::sync::{Arc, Mutex};

use aas_model::AssetType;
use aas_table::{Census, Outlines, Shell, Table, View};

/// The Table tab's state: the table the page shows, kept so it scrolls, sorts and
/// exports without being built again, and the rows read last.
#[derive(Debug, Default)]
pub(crate) struct TableState {
    pub open: Mutex<Option<OpenTable>>,
    pub rows: Mutex<Option<KeptRows>>,
}

/// The table kept open: what it was built from, and how it is arranged.
#[derive(Debug)]
pub(crate) struct OpenTable {
    pub snapshot: crate::PlacedSnapshot,
    pub table: Table,
    pub view: View,
    pub asset_type: Option<AssetType>,
}

/// The rows read last, a snapshot's shells of one asset type, and their column census
/// once read: a table built again with other columns, or the picker's list, reads
/// neither the AAS list (12 MB of JSON for 10,000 shells) nor every element again.
#[derive(Debug)]
pub(crate) struct KeptRows {
    pub snapshot: crate::PlacedSnapshot,
    pub asset_type: Option<AssetType>,
    pub rows: KnownRows,
    pub census: Option<Census>,
}

/// Shells read from a snapshot before, to build a table of again: and, once a census
/// read them, where each one's submodels lie in its answer.
#[derive(Debug, Clone)]
pub struct KnownRows {
    pub shells: Vec<Shell>,
    pub outlines: Option<Arc<Outlines>>,
}

impl KeptRows {
    /// Whether these are the rows of `snapshot`'s `asset_type`.
    pub fn of(&self, snapshot: &crate::PlacedSnapshot, asset_type: Option<&AssetType>) -> bool {
        self.snapshot == *snapshot && self.asset_type.as_ref() == asset_type
    }
}
