//! What the app keeps of the plant table while the page shows it (see plant_table.rs):
//! a module of its own so that the app's state can hold it without the table's commands.

use aas_model::AssetType;
use aas_table::{Census, Table, View};

/// The table kept open: what it was built from, and how it is arranged.
#[derive(Debug)]
pub(crate) struct OpenTable {
    pub snapshot: crate::PlacedSnapshot,
    pub table: Table,
    pub view: View,
    pub asset_type: Option<AssetType>,
}

/// The column census read last, and what it was read of.
#[derive(Debug)]
pub(crate) struct KeptCensus {
    pub snapshot: crate::PlacedSnapshot,
    pub asset_type: Option<AssetType>,
    pub census: Census,
}
