//! A V3 source read through its registry: `/shell-descriptors` page by page, then each
//! shell at the endpoint its descriptor names, and each submodel at its submodel
//! descriptor's endpoint (or, where the descriptor names none, beside the shell: its
//! repository's `/submodels/{id}`). Endpoints are followed only to the origins the user
//! named (the registry's, and a repository's beside it): a descriptor is the server's
//! word, and the credentials must not go where the user did not send them.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use aas_source::NodePath;
use reqwest::Url;
use serde_json::Value as Json;
use tokio_util::sync::CancellationToken;

use super::gathering::Gathering;
use super::repository::{failure, Kind, Reading, Wanted};
use super::{encode_id, RepositoryPlan, RepositoryProgress, V3Server};
use crate::{Error, Result};

impl V3Server {
    /// Reads every shell the registry describes, at its endpoint, and then the
    /// submodels it names, at theirs (or, where none is described, beside the shell),
    /// each handed to `gathering`; `progress` hears of each step. Fails only when the
    /// first page of descriptors cannot be had.
    pub(super) async fn read_through_registry(
        self: &Arc<Self>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        gathering: &mut Gathering<'_, '_>,
    ) -> Result<Reading> {
        let mut read = Reading::empty(&self.address);
        let mut descriptors = Vec::new();
        self.list_into(
            "shell-descriptors",
            plan,
            cancel,
            &mut read,
            |items: Vec<Json>| descriptors.extend(items),
        )
        .await?;
        if read.cancelled {
            return Ok(read);
        }
        let mut shells = Vec::new();
        let mut seen = HashSet::new();
        for descriptor in &descriptors {
            let Some(id) = descriptor_id(descriptor).filter(|id| seen.insert(id.to_owned())) else {
                continue;
            };
            match self.endpoint(descriptor, "AAS-3") {
                Ok(url) => shells.push(Wanted {
                    kind: Kind::Shell,
                    id: id.to_owned(),
                    url: url.into(),
                    path: NodePath::Registry,
                }),
                Err((url, e)) => read.failures.push(failure(NodePath::Registry, url, &e)),
            }
        }
        let found_at: HashMap<String, String> = shells
            .iter()
            .map(|w| (w.id.clone(), w.url.clone()))
            .collect();
        // The shells are gathered in the registry's order, however their answers came.
        let order: HashMap<String, usize> = (shells.iter().enumerate())
            .map(|(at, w)| (w.id.clone(), at))
            .collect();
        let mut fetched = vec![None; shells.len()];
        read.cancelled = self
            .fetch_each(shells, plan, cancel, |wanted, got| match got {
                Ok(shell) => fetched[order[&wanted.id]] = Some(shell),
                Err(failed) => read.failures.push(failed),
            })
            .await;
        fetched
            .into_iter()
            .flatten()
            .for_each(|shell| gathering.shell(shell));
        if read.cancelled {
            progress(self.progress(&read, gathering));
            return Ok(read);
        }
        gathering.all_listed();
        progress(self.progress(&read, gathering));
        let mut wanted = Vec::new();
        for submodel in self.submodels_described(&descriptors, gathering.missing(), &found_at) {
            match submodel {
                Ok(submodel) => wanted.push(submodel),
                Err((id, refused)) => {
                    gathering.failed(&id);
                    read.failures.push(refused);
                }
            }
        }
        self.fetch_submodels(wanted, plan, cancel, progress, gathering, &mut read)
            .await;
        Ok(read)
    }

    /// Where each submodel `named` (with the shell naming it) is: at the endpoint its
    /// descriptor names, else beside its shell; one that cannot be asked for is its id
    /// and its failure.
    fn submodels_described(
        &self,
        descriptors: &[Json],
        named: Vec<(String, String)>,
        found_at: &HashMap<String, String>,
    ) -> Vec<std::result::Result<Wanted, (String, aas_source::Failure)>> {
        let described: HashMap<&str, &Json> = (descriptors.iter())
            .filter_map(|d| Some((descriptor_id(d)?, d)))
            .collect();
        let mut wanted = Vec::new();
        for (aas_id, submodel) in named {
            let submodel_descriptors = (described.get(aas_id.as_str()))
                .and_then(|d| d.get("submodelDescriptors"))
                .and_then(Json::as_array);
            let descriptor = (submodel_descriptors.into_iter().flatten())
                .find(|d| descriptor_id(d) == Some(submodel.as_str()));
            let url = match descriptor {
                Some(descriptor) => self.endpoint(descriptor, "SUBMODEL-3"),
                None => self.beside(found_at, &aas_id, &submodel),
            };
            wanted.push(match url {
                Ok(url) => Ok(Wanted::submodel(aas_id, submodel, url.into())),
                Err((url, e)) => {
                    let path = NodePath::Submodels { aas_id };
                    Err((submodel, failure(path, url, &e)))
                }
            });
        }
        wanted
    }

    fn endpoint(
        &self,
        descriptor: &Json,
        interface: &str,
    ) -> std::result::Result<Url, (String, Error)> {
        let id = descriptor_id(descriptor).unwrap_or_default();
        let endpoints = descriptor.get("endpoints").and_then(Json::as_array);
        let href = (endpoints.into_iter().flatten())
            .filter(|e| {
                let named = e
                    .get("interface")
                    .and_then(Json::as_str)
                    .unwrap_or_default();
                named.to_ascii_uppercase().starts_with(interface)
            })
            .find_map(|e| {
                e.pointer("/protocolInformation/href")
                    .and_then(Json::as_str)
            });
        let Some(href) = href else {
            let why = format!("the descriptor of {id} names no {interface} endpoint");
            return Err((self.address.clone(), descriptor_error(&self.address, why)));
        };
        self.followable(href, id)
    }

    /// The submodel `submodel` of the shell `aas_id`, beside the shell: the repository
    /// its address is in (`…/shells/{id}` → `…/submodels/{id}`).
    fn beside(
        &self,
        found_at: &HashMap<String, String>,
        aas_id: &str,
        submodel: &str,
    ) -> std::result::Result<Url, (String, Error)> {
        let repository = (found_at.get(aas_id))
            .and_then(|url| url.rsplit_once("/shells/"))
            .map(|(base, _)| base);
        match repository {
            Some(base) => self.followable(
                &format!("{base}/submodels/{}", encode_id(submodel)),
                submodel,
            ),
            None => {
                let why = format!("no descriptor names where submodel {submodel} is");
                Err((self.address.clone(), descriptor_error(&self.address, why)))
            }
        }
    }

    /// `href` as an address to follow: a URL at an origin this source allows.
    fn followable(&self, href: &str, id: &str) -> std::result::Result<Url, (String, Error)> {
        let url = Url::parse(href).map_err(|e| {
            let why = format!("the endpoint of {id} is not a URL ({e})");
            (href.to_owned(), descriptor_error(href, why))
        })?;
        if !self.allows(&url) {
            let why = format!(
                "the registry points {id} to {}, which was not named as a source: add that address as the repository to read it",
                url.origin().ascii_serialization()
            );
            return Err((href.to_owned(), Error::Settings(why)));
        }
        Ok(url)
    }
}

/// A descriptor's `id`.
fn descriptor_id(descriptor: &Json) -> Option<&str> {
    descriptor.get("id").and_then(Json::as_str)
}

fn descriptor_error(at: &str, why: String) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: at.to_owned(),
        message: why,
    })
}
