//! How the page names a snapshot: ids are each store's own, so by its store (this
//! computer's file or the team's) and its id there: `{"store": "team", "id": 7}`.

use aas_snapshot::SnapshotInfo;
use serde::{Deserialize, Serialize};

/// The store a snapshot is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoreKind {
    /// The snapshot file on this computer.
    #[default]
    Here,
    /// The team store.
    Team,
}

/// A snapshot as the page names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotRef {
    #[serde(default)]
    pub store: StoreKind,
    pub id: i64,
}

/// A snapshot's record and the store it is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlacedSnapshot {
    #[serde(flatten)]
    pub info: SnapshotInfo,
    pub store: StoreKind,
}

impl PlacedSnapshot {
    pub fn at(&self) -> SnapshotRef {
        SnapshotRef {
            store: self.store,
            id: self.info.id,
        }
    }
}

pub(crate) fn placed(info: SnapshotInfo, store: StoreKind) -> PlacedSnapshot {
    PlacedSnapshot { info, store }
}
