//! A stored snapshot as the tree's source: each node read from the store, as the
//! service sent it when the snapshot was taken.

use std::sync::Arc;

use aas_model::{parse_list, AssetType, Identified, OutlineNode, Parsed};
use aas_source::NodePath;
use serde::de::DeserializeOwned;

use super::{no_registry, outline, Browse, Reply};
use crate::{Error, Result, SnapshotStore};

pub(super) struct Stored {
    store: Arc<SnapshotStore>,
    id: i64,
}

impl Stored {
    pub(super) fn new(store: Arc<SnapshotStore>, id: i64) -> Self {
        Stored { store, id }
    }

    /// The list the snapshot holds at `node`, read as the live answer is.
    fn list<T: DeserializeOwned>(&self, node: &NodePath) -> Result<Vec<Parsed<T>>> {
        parse_list(&self.answer(node)?).map_err(unreadable)
    }

    /// The answer the snapshot holds at `node`, as the service sent it.
    fn answer(&self, node: &NodePath) -> Result<String> {
        let id = self.id;
        self.store.read(|store| store.answer(id, node))?.ok_or_else(|| {
            Error::NotInSnapshot(format!(
                "snapshot {id} does not hold this node (it failed or was not reached when the snapshot was taken)"
            ))
        })
    }
}

impl Browse for Stored {
    fn is_the_service(&self) -> bool {
        false
    }

    fn children<'a>(&'a self, node: &'a NodePath) -> Reply<'a, Vec<OutlineNode>> {
        Box::pin(async move {
            Ok(match node {
                NodePath::AasList { .. } => outline(self.list(node)?, OutlineNode::shell),
                NodePath::Submodels { .. } => outline(self.list(node)?, OutlineNode::submodel),
                NodePath::Elements { .. } => outline(self.list(node)?, OutlineNode::element),
                NodePath::Registry => return Err(no_registry()),
            })
        })
    }

    fn shell_count<'a>(&'a self, asset_type: &'a AssetType) -> Reply<'a, usize> {
        Box::pin(async move {
            let list = self.answer(&NodePath::AasList {
                asset_type: asset_type.clone(),
            })?;
            aas_model::count_list(&list).map_err(unreadable)
        })
    }

    fn shell_json<'a>(&'a self, asset_type: &'a AssetType, aas_id: &'a str) -> Reply<'a, String> {
        Box::pin(async move {
            let id = self.id;
            // Each shell's identifier only: reading 10,000 whole shells to find one took
            // 13-20 ms of parsing a click, a read of their identifiers about 6.
            self.list::<Identified>(&NodePath::AasList {
                asset_type: asset_type.clone(),
            })?
            .iter()
            .find(|shell| shell.view().is_ok_and(|shell| shell.id() == Some(aas_id)))
            .map(|shell| shell.raw().to_owned())
            .ok_or_else(|| Error::NotInSnapshot(format!("snapshot {id} has no shell {aas_id}")))
        })
    }
}

fn unreadable(e: aas_model::Error) -> Error {
    Error::BadData {
        what: "the stored answer cannot be read".into(),
        source: e.into(),
    }
}
