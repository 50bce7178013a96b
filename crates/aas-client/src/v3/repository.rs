//! A V3 server's shells and the submodels they name, read shell by shell: `/shells`
//! followed page by page, then `/submodels` for as long as a shell waits for one, then
//! each submodel still wanted fetched by its id (a server may list only some, or not
//! offer the listing). Each shell is told as listed, and handed on again once its
//! submodels are in (gathering.rs), so a reading into the store holds little at a time.
//! A failure after the first page of shells is recorded and the reading goes on: what
//! was read is never thrown away.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::SystemTime;

use serde::de::DeserializeOwned;

use aas_source::{Failure, NodePath};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::gathering::{EachStep, Gathering, ReadStep, ShellsRead};
use super::items::{item_id, Item};
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

/// What a reading did: where it fetched submodels one by one, what failed, and whether
/// it read everything.
#[derive(Debug, Clone)]
pub struct Reading {
    pub address: String,
    /// Where each submodel fetched by itself was (a registry's endpoint, say), by id:
    /// where its attachments are asked for. One listed is at the server's address.
    pub submodel_urls: HashMap<String, String>,
    pub failures: Vec<Failure>,
    pub read_at: SystemTime,
    pub cancelled: bool,
    /// A bound of the plan was reached: the rest of the server was not read.
    pub bounded: bool,
}

impl Reading {
    /// Nothing read yet of the server at `address`.
    pub(super) fn empty(address: &str) -> Self {
        Reading {
            address: address.to_owned(),
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
}

/// A server read whole: its shells, in the order listed, and the submodels they name,
/// each once, as sent (as text).
#[derive(Debug, Clone)]
pub struct Repository {
    pub shells: Vec<Item>,
    pub submodels: Vec<Item>,
    pub reading: Reading,
}

impl Repository {
    /// The repository as an AAS environment's JSON text (`assetAdministrationShells`,
    /// `submodels`), and the reading that gave it.
    pub fn into_environment(self) -> (Vec<u8>, Reading) {
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
        let text = serde_json::to_vec(&environment).expect("JSON texts write as JSON");
        (text, self.reading)
    }
}

impl V3Server {
    /// Reads every shell and the submodels they name, within `plan`, until done or
    /// `cancel`led, holding it all (for a window's tree); `progress` hears of each step,
    /// `shells_read` of every shell once all are read (before their submodels, which
    /// take longer). Fails only when the first page of shells cannot be had (nothing was
    /// read).
    pub async fn read_repository(
        self: &Arc<Self>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        shells_read: &mut ShellsRead<'_>,
    ) -> Result<Repository> {
        let mut shells = Vec::new();
        let mut gathered = Vec::new();
        let mut each = |step| match step {
            ReadStep::Listed(shell) => shells.push(shell),
            ReadStep::AllListed => shells_read(shells.clone()),
            ReadStep::Gathered(g) => gathered.push(g),
        };
        let reading =
            (self.read_gathering(plan, cancel, progress, Gathering::new(&mut each))).await?;
        gathered.sort_by_key(|g| g.at);
        let mut once = HashSet::new();
        let submodels: Vec<Arc<Item>> = (gathered.into_iter())
            .flat_map(|g| g.submodels)
            .filter(|s| once.insert(Arc::as_ptr(s)))
            .collect();
        // Each submodel is held here alone by now.
        let submodels = (submodels.into_iter())
            .map(|s| Arc::try_unwrap(s).unwrap_or_else(|s| (*s).clone()))
            .collect();
        Ok(Repository {
            shells,
            submodels,
            reading,
        })
    }

    /// Reads every shell and the submodels it names, within `plan`, until done or
    /// `cancel`led, telling `each` every shell as listed, that all are, and every shell
    /// again as soon as its submodels are in (in no fixed order:
    /// [`GatheredShell::at`] is its place); `progress` hears of each step.
    /// The shells are listed first, then the submodels, for as long as a shell waits for
    /// one; what is still wanted then is fetched by its id (a server may list only some
    /// submodels, or not offer the listing). Fails only when the first page of shells
    /// cannot be had (nothing was read).
    pub async fn read_each_shell(
        self: &Arc<Self>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        each: &mut EachStep<'_>,
    ) -> Result<Reading> {
        let gathering = Gathering::new(each);
        self.read_gathering(plan, cancel, progress, gathering).await
    }

    /// Reads every shell and the submodels it names into `gathering`, as
    /// [`V3Server::read_each_shell`] says.
    async fn read_gathering(
        self: &Arc<Self>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        mut gathering: Gathering<'_, '_>,
    ) -> Result<Reading> {
        let read = match self.through_registry {
            true => (self.read_through_registry(plan, cancel, progress, &mut gathering)).await,
            false => (self.read_listed(plan, cancel, progress, &mut gathering)).await,
        };
        gathering.finish();
        read
    }

    /// Reads the shells `/shells` lists and the submodels they name into `gathering`.
    async fn read_listed(
        self: &Arc<Self>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        gathering: &mut Gathering<'_, '_>,
    ) -> Result<Reading> {
        let mut read = Reading::empty(&self.address);
        self.list_into("shells", plan, cancel, &mut read, |items| {
            items.into_iter().for_each(|item| gathering.shell(item))
        })
        .await?;
        if !read.cancelled {
            gathering.all_listed();
        }
        progress(self.progress(&read, gathering));
        if !read.cancelled && gathering.waits() {
            // A listing that fails, or that the server does not offer, is made up for
            // below: every submodel still wanted is asked for by its id.
            let listing = tokio::select! {
                _ = self.each_page("submodels", plan.page_size, plan.max_items, |items| {
                    items.into_iter().for_each(|item| gathering.submodel_listed(item));
                    progress(self.progress(&read, gathering));
                    match gathering.waits() {
                        true => ControlFlow::Continue(()),
                        false => ControlFlow::Break(()),
                    }
                }) => true,
                _ = cancel.cancelled() => false,
            };
            read.cancelled = !listing;
        }
        if !read.cancelled {
            let mut wanted = Vec::new();
            for (aas_id, submodel) in gathering.missing() {
                let url = self.url(&format!("submodels/{}", encode_id(&submodel)), &[])?;
                wanted.push(Wanted::submodel(aas_id, submodel, url));
            }
            self.fetch_submodels(wanted, plan, cancel, progress, gathering, &mut read)
                .await;
        }
        Ok(read)
    }

    /// Follows the listing at `route` into `take` until its end or `cancel`, and records
    /// in `read` how it ended: cancelled, bounded, or failed after some items (a failure
    /// of its own). A failure before any item is the error returned: the server's
    /// refusal or silence is the answer.
    pub(super) async fn list_into<T: DeserializeOwned>(
        &self,
        route: &str,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        read: &mut Reading,
        mut take: impl FnMut(Vec<T>),
    ) -> Result<()> {
        let mut taken = 0;
        let listing = tokio::select! {
            listed = self.each_page(route, plan.page_size, plan.max_items, |items| {
                taken += items.len();
                take(items);
                ControlFlow::Continue(())
            }) => Some(listed),
            _ = cancel.cancelled() => None,
        };
        match listing {
            None => read.cancelled = true,
            Some(Ok(end)) => read.bounded = end == PageEnd::Bounded,
            Some(Err(e)) if taken == 0 => return Err(e),
            Some(Err(e)) => {
                (read.failures).push(failure(NodePath::Registry, self.url(route, &[])?, &e))
            }
        }
        Ok(())
    }

    /// Fetches the submodels `wanted` by their ids, each handed to `gathering`; each
    /// that fails is recorded at its node.
    pub(super) async fn fetch_submodels(
        self: &Arc<Self>,
        wanted: Vec<Wanted>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
        gathering: &mut Gathering<'_, '_>,
        read: &mut Reading,
    ) {
        let cancelled = self
            .fetch_each(wanted, plan, cancel, |wanted, got| {
                match got {
                    Ok(submodel) => {
                        (read.submodel_urls).insert(wanted.id.clone(), wanted.url);
                        gathering.fetched(wanted.id, submodel);
                    }
                    Err(failed) => {
                        gathering.failed(&wanted.id);
                        read.failures.push(failed);
                    }
                }
                progress(self.progress(read, gathering));
            })
            .await;
        read.cancelled |= cancelled;
    }

    /// Fetches `wanted`, `plan.concurrency` at once, each checked to be the object asked
    /// for, handing each to `got` as it comes (one that fails as its failure at its
    /// node). Says whether it was cancelled.
    pub(super) async fn fetch_each(
        self: &Arc<Self>,
        wanted: Vec<Wanted>,
        plan: RepositoryPlan,
        cancel: &CancellationToken,
        mut got: impl FnMut(Wanted, std::result::Result<Item, Failure>),
    ) -> bool {
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
                    let fetched = server.get(url).await.and_then(|text| {
                        serde_json::from_str::<Item>(&text).map_err(|e| not_json(url, e))
                    });
                    (wanted, fetched)
                });
            }
            let next = tokio::select! {
                next = running.join_next() => next,
                _ = cancel.cancelled() => return true,
            };
            let Some(joined) = next else { return false };
            let Ok((wanted, fetched)) = joined else {
                continue;
            };
            let checked =
                fetched.and_then(|item| match item_id(&item) == Some(wanted.id.clone()) {
                    true => Ok(item),
                    false => {
                        let why = format!(
                            "the answer for {} {} is another object",
                            wanted.kind.word(),
                            wanted.id
                        );
                        Err(not_json(&wanted.url, why))
                    }
                });
            let checked = checked.map_err(|e| failure(wanted.path.clone(), wanted.url.clone(), &e));
            got(wanted, checked);
        }
    }

    pub(super) fn progress(&self, read: &Reading, gathering: &Gathering) -> RepositoryProgress {
        RepositoryProgress {
            requests: self.requests(),
            shells: gathering.shells,
            submodels: gathering.submodels,
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
