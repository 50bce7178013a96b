//! A V3 server's shells and submodels read whole: `/shells` and `/submodels` followed
//! page by page (both at once), then each submodel a shell names that the listing did
//! not hold fetched by its id (a server may list only some, or not offer the listing).
//! A failure after the first page of shells is recorded and the reading goes on: what
//! was read is never thrown away.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::SystemTime;

use aas_source::{Failure, NodePath};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::items::{item_id, shell_refs, Item};
use super::{encode_id, PageEnd, V3Server, DEFAULT_PAGE_SIZE};
use crate::{Error, Result};

/// How much of a server one reading takes at most: as many items as a platform crawl
/// makes requests.
pub const DEFAULT_MAX_ITEMS: usize = 2_000_000;

/// The bounds of a reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepositoryPlan {
    /// Submodels fetched one by one at once at most.
    pub concurrency: usize,
    pub page_size: usize,
    /// Shells, and submodels, read at most (each).
    pub max_items: usize,
}

impl Default for RepositoryPlan {
    fn default() -> Self {
        RepositoryPlan {
            concurrency: crate::DEFAULT_CONCURRENCY,
            page_size: DEFAULT_PAGE_SIZE,
            max_items: DEFAULT_MAX_ITEMS,
        }
    }
}

/// How far a reading is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct RepositoryProgress {
    pub requests: u64,
    pub shells: usize,
    pub submodels: usize,
    pub failures: usize,
}

/// What a reading of a server gave: its shells and submodels as sent (as text), in the
/// order sent, each id once.
#[derive(Debug, Clone)]
pub struct Repository {
    pub address: String,
    pub shells: Vec<Item>,
    pub submodels: Vec<Item>,
    /// Where each submodel fetched by itself was (a registry's endpoint, say), by id:
    /// where its attachments are asked for. One listed is at the server's address.
    pub submodel_urls: HashMap<String, String>,
    pub failures: Vec<Failure>,
    pub read_at: SystemTime,
    pub cancelled: bool,
    /// A bound of the plan was reached: the rest of the server was not read.
    pub bounded: bool,
}

impl Repository {
    /// Nothing read yet of the server at `address`.
    pub(super) fn empty(address: &str) -> Self {
        Repository {
            address: address.to_owned(),
            shells: Vec::new(),
            submodels: Vec::new(),
            submodel_urls: HashMap::new(),
            failures: Vec::new(),
            read_at: SystemTime::now(),
            cancelled: false,
            bounded: false,
        }
    }

    /// Everything the server listed was read.
    pub fn complete(&self) -> bool {
        self.failures.is_empty() && !self.cancelled && !self.bounded
    }

    /// The repository as an AAS environment's JSON text (`assetAdministrationShells`,
    /// `submodels`).
    pub fn into_environment(self) -> Vec<u8> {
        #[derive(serde::Serialize)]
        struct Environment {
            #[serde(rename = "assetAdministrationShells")]
            shells: Vec<Item>,
            submodels: Vec<Item>,
        }
        let environment = Environment {
            shells: self.shells,
            submodels: self.submodels,
        };
        serde_json::to_vec(&environment).expect("JSON texts write as JSON")
    }
}

impl V3Server {
    /// Reads every shell and the submodels they name, within `plan`, until done or
    /// `cancel`led; `progress` hears of each step. Fails only when the first page of
    /// shells cannot be had (nothing was read).
    pub async fn read_repository(
        self: &Arc<Self>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
    ) -> Result<Repository> {
        if self.through_registry {
            return self.read_through_registry(plan, cancel, progress).await;
        }
        let mut read = Repository::empty(&self.address);
        let (mut shell_ids, mut submodel_ids) = (HashSet::new(), HashSet::new());
        let (mut shells, mut submodels) = (Vec::new(), Vec::new());
        let listing = tokio::select! {
            both = async {
                tokio::join!(
                    self.each_page("shells", plan.page_size, plan.max_items, |items| {
                        keep_new(items, &mut shell_ids, &mut shells)
                    }),
                    self.each_page("submodels", plan.page_size, plan.max_items, |items| {
                        keep_new(items, &mut submodel_ids, &mut submodels)
                    }),
                )
            } => Some(both),
            _ = cancel.cancelled() => None,
        };
        let Some((shells_read, submodels_read)) = listing else {
            read.cancelled = true;
            return Ok(read);
        };
        match shells_read {
            Ok(end) => read.bounded |= end == PageEnd::Bounded,
            // Nothing read: the server's refusal or silence is the answer.
            Err(e) if shells.is_empty() => return Err(e),
            Err(e) => read
                .failures
                .push(failure(NodePath::Registry, self.url("shells", &[])?, &e)),
        }
        // A listing that failed, or that the server does not offer, is made up for
        // below: every submodel named and not listed is asked for by its id.
        read.bounded |= matches!(submodels_read, Ok(PageEnd::Bounded));
        read.shells = shells;
        read.submodels = submodels;
        progress(self.progress(&read));
        let mut wanted = Vec::new();
        for (aas_id, submodel) in named_not_listed(&read.shells, &submodel_ids) {
            let url = self.url(&format!("submodels/{}", encode_id(&submodel)), &[])?;
            wanted.push(Wanted::submodel(aas_id, submodel, url));
        }
        self.fetch_each(wanted, plan, cancel, progress, &mut read)
            .await;
        Ok(read)
    }

    /// Fetches `wanted`, `plan.concurrency` at once, each checked to be the object asked
    /// for; each that fails is recorded at its node. What is fetched is kept in the order
    /// asked, however the answers came.
    pub(super) async fn fetch_each(
        self: &Arc<Self>,
        wanted: Vec<Wanted>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        read: &mut Repository,
    ) {
        let order: HashMap<String, usize> = (wanted.iter().enumerate())
            .map(|(at, w)| (w.id.clone(), at))
            .collect();
        let (shells, submodels) = (read.shells.len(), read.submodels.len());
        let mut queue = wanted.into_iter();
        let mut running = JoinSet::new();
        loop {
            while running.len() < plan.concurrency.max(1) {
                let Some(wanted) = queue.next() else {
                    break;
                };
                let server = Arc::clone(self);
                running.spawn(async move {
                    let url = &wanted.url;
                    let got = server.get(url).await.and_then(|text| {
                        serde_json::from_str::<Item>(&text).map_err(|e| not_json(url, e))
                    });
                    (wanted, got)
                });
            }
            let next = tokio::select! {
                next = running.join_next() => next,
                _ = cancel.cancelled() => {
                    read.cancelled = true;
                    break;
                }
            };
            let Some(joined) = next else { break };
            let Ok((wanted, got)) = joined else {
                continue;
            };
            match got {
                Ok(item) if item_id(&item).as_deref() == Some(wanted.id.as_str()) => {
                    match wanted.kind {
                        Kind::Shell => read.shells.push(item),
                        Kind::Submodel => {
                            read.submodels.push(item);
                            read.submodel_urls.insert(wanted.id, wanted.url);
                        }
                    }
                }
                Ok(_) => {
                    let why = format!(
                        "the answer for {} {} is another object",
                        wanted.kind.word(),
                        wanted.id
                    );
                    let e = not_json(&wanted.url, why);
                    read.failures.push(failure(wanted.path, wanted.url, &e));
                }
                Err(e) => read.failures.push(failure(wanted.path, wanted.url, &e)),
            }
            progress(self.progress(read));
        }
        let place = |item: &Item| item_id(item).and_then(|id| order.get(&id).copied());
        read.shells[shells..].sort_by_cached_key(place);
        read.submodels[submodels..].sort_by_cached_key(place);
    }

    pub(super) fn progress(&self, read: &Repository) -> RepositoryProgress {
        RepositoryProgress {
            requests: self.requests(),
            shells: read.shells.len(),
            submodels: read.submodels.len(),
            failures: read.failures.len(),
        }
    }
}

/// What a reading fetches one by one: a shell or a submodel, by its address.
pub(super) struct Wanted {
    pub kind: Kind,
    pub id: String,
    pub url: String,
    /// Where a failure is recorded.
    pub path: NodePath,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Shell,
    Submodel,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Shell => "shell",
            Kind::Submodel => "submodel",
        }
    }
}

impl Wanted {
    /// The submodel `id` the shell `aas_id` names, at `url`.
    pub fn submodel(aas_id: String, id: String, url: String) -> Self {
        Wanted {
            kind: Kind::Submodel,
            id,
            url,
            path: NodePath::Submodels { aas_id },
        }
    }
}

/// The submodels the shells name that `listed` lacks, each with the first shell
/// naming it, in the shells' order.
fn named_not_listed(shells: &[Item], listed: &HashSet<String>) -> Vec<(String, String)> {
    let mut wanted = HashSet::new();
    let mut named = Vec::new();
    for shell in shells {
        let Some((aas_id, submodels)) = shell_refs(shell) else {
            continue;
        };
        for submodel in submodels {
            if !listed.contains(&submodel) && wanted.insert(submodel.clone()) {
                named.push((aas_id.clone(), submodel));
            }
        }
    }
    named
}

/// Keeps the `items` whose id is not in `ids` yet, in order.
fn keep_new(items: Vec<Item>, ids: &mut HashSet<String>, into: &mut Vec<Item>) {
    for item in items {
        if item_id(&item).is_some_and(|id| ids.insert(id)) {
            into.push(item);
        }
    }
}

pub(super) fn failure(path: NodePath, url: String, e: &Error) -> Failure {
    Failure {
        path,
        url,
        kind: e.kind(),
        message: e.to_string(),
    }
}

fn not_json(url: &str, e: impl std::fmt::Display) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: url.to_owned(),
        message: e.to_string(),
    })
}
