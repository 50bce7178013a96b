//! The app's snapshot stores, held apart from the commands that use them
//! (snapshot_place.rs) so that the app's state can hold them.

use std::sync::{Arc, Mutex};

use crate::SnapshotStore;

/// Where the app keeps snapshots: this computer's file, and the team store the
/// preferences name, once used.
#[derive(Debug)]
pub(crate) struct Stores {
    pub(crate) here: Arc<SnapshotStore>,
    pub(crate) team: Mutex<Option<Arc<SnapshotStore>>>,
}

impl Stores {
    pub(crate) fn new(here: SnapshotStore) -> Self {
        Stores {
            here: Arc::new(here),
            team: Mutex::new(None),
        }
    }
}
