//! "Test connection": the three things a profile must get right, tried in order, each
//! reported with the server's own words when it fails.

use aas_model::AssetType;
use serde::Serialize;

use crate::{Client, Error};

/// One step of [`Client::check`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckStep {
    /// "token", "registry" or "gateway".
    pub step: &'static str,
    #[serde(flatten)]
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "text", rename_all = "snake_case")]
pub enum Outcome {
    /// What the server answered, in a few words.
    Passed(String),
    /// The error, with the server's `error` and `error_description` when it sent them.
    Failed(String),
    /// Why the step could not be tried.
    Skipped(String),
}

impl Client {
    /// Gets an access token, reads the registry, then makes one gateway call: the
    /// list of `plant`'s AAS of the first asset type, or without a plant the first
    /// AAS the registry names. Never fails as a whole: each step says how it went.
    pub async fn check(&self, plant: Option<&str>) -> Vec<CheckStep> {
        let step = |step, outcome| CheckStep { step, outcome };
        if let Err(e) = self.tokens().token().await {
            let skipped = || Outcome::Skipped("needs an access token".into());
            return vec![
                step("token", failed(&e)),
                step("registry", skipped()),
                step("gateway", skipped()),
            ];
        }
        let from = self.tokens().endpoint_known();
        let lifetime = match self.token_expires_in().await {
            Some(left) => format!(
                "access token received from {from}, valid for {} s",
                left.as_secs()
            ),
            None => format!("access token received from {from}"),
        };
        let registry = self.registry().await;
        let registry_outcome = match &registry {
            Ok(list) => Outcome::Passed(format!("{} AAS descriptors", list.len())),
            Err(e) => failed(e),
        };
        let gateway_outcome = match plant {
            Some(plant) => {
                let asset_type = AssetType::MACHINE;
                match self.aas_list(&asset_type, plant).await {
                    Ok(list) => Outcome::Passed(format!(
                        "{} AAS of type {} at {plant}",
                        list.len(),
                        asset_type.code()
                    )),
                    Err(e) => failed(&e),
                }
            }
            None => self.check_first_aas(registry.ok()).await,
        };
        vec![
            step("token", Outcome::Passed(lifetime)),
            step("registry", registry_outcome),
            step("gateway", gateway_outcome),
        ]
    }

    async fn check_first_aas(
        &self,
        registry: Option<Vec<aas_model::Parsed<aas_model::AasDescriptor>>>,
    ) -> Outcome {
        let first = registry
            .iter()
            .flatten()
            .find_map(|d| d.view().ok().map(|d| d.identification.id.clone()));
        let Some(aas_id) = first else {
            return Outcome::Skipped(
                "no plant code in the profile and no AAS in the registry to ask for".into(),
            );
        };
        match self.aas(&aas_id).await {
            Ok(_) => Outcome::Passed(format!("read AAS {aas_id}")),
            Err(e) => failed(&e),
        }
    }
}

fn failed(e: &Error) -> Outcome {
    Outcome::Failed(e.to_string())
}
