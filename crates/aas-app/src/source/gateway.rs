//! The platform's gateway as the tree's source: each node fetched when it is opened.

use std::sync::Arc;

use aas_client::Client;
use aas_model::{AssetType, OutlineNode};
use aas_source::NodePath;

use super::{no_registry, outline, Browse, Reply};

pub(super) struct Gateway {
    client: Arc<Client>,
    plant: String,
}

impl Gateway {
    pub(super) fn new(client: Arc<Client>, plant: String) -> Self {
        Gateway { client, plant }
    }
}

impl Browse for Gateway {
    fn is_the_service(&self) -> bool {
        true
    }

    fn children<'a>(&'a self, node: &'a NodePath) -> Reply<'a, Vec<OutlineNode>> {
        Box::pin(async move {
            let client = &self.client;
            Ok(match node {
                NodePath::AasList { asset_type } => outline(
                    client.aas_list(asset_type, &self.plant).await?,
                    OutlineNode::shell,
                ),
                NodePath::Submodels { aas_id } => {
                    outline(client.submodels(aas_id).await?, OutlineNode::submodel)
                }
                NodePath::Elements { aas_id, submodel } => outline(
                    client.elements(aas_id, submodel).await?,
                    OutlineNode::element,
                ),
                NodePath::Registry => return Err(no_registry()),
            })
        })
    }

    fn shell_count<'a>(&'a self, asset_type: &'a AssetType) -> Reply<'a, usize> {
        Box::pin(async move { Ok(self.client.aas_list_len(asset_type, &self.plant).await?) })
    }

    fn shell_json<'a>(&'a self, _: &'a AssetType, aas_id: &'a str) -> Reply<'a, String> {
        Box::pin(async move { Ok(self.client.aas(aas_id).await?.raw().to_owned()) })
    }
}
