//! "Load everything": plant × asset types → AAS → submodels → elements, with bounded
//! concurrency, progress, and cancellation. A node that fails is recorded with its
//! reason and the crawl goes on; what was fetched is never thrown away. A server that
//! stops answering mid-crawl is waited for (see [`Progress::offline`]), not given up on.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use aas_model::AssetType;
use serde::Serialize;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::client::Service;
use crate::follow::ids_in_list;
use crate::{Client, ErrorKind, Result, Selection};

/// What to load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlPlan {
    pub plant: String,
    pub asset_types: Vec<AssetType>,
    /// Requests in flight at most.
    pub concurrency: usize,
}

/// One request of the crawl: where its answer sits in the tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "level", rename_all = "snake_case")]
pub enum NodePath {
    /// The registry (the assets' descriptors).
    Registry,
    /// The AAS of one asset type in the plant.
    AasList { asset_type: AssetType },
    /// The submodels of one AAS.
    Submodels { aas_id: String },
    /// The elements of one submodel.
    Elements { aas_id: String, submodel: String },
}

/// An answer, exactly as the server sent it.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub path: NodePath,
    pub url: String,
    /// The answer as sent; it passed a JSON syntax check when it arrived.
    pub raw: String,
}

/// A node that could not be fetched or read, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub path: NodePath,
    pub url: String,
    pub kind: ErrorKind,
    pub message: String,
}

/// How far the crawl is. `requests_known` grows as the tree unfolds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub requests_done: u64,
    pub requests_known: u64,
    pub bytes: u64,
    pub failures: u64,
    /// Requests repeated after a transient failure (see [`crate::RetryPolicy`]).
    pub retries: u64,
    /// The server stopped answering: the crawl is probing it and goes on when it is back.
    pub offline: bool,
}

/// Everything a crawl gathered.
#[derive(Debug, Clone)]
pub struct Crawl {
    pub plan: CrawlPlan,
    /// What of the plan was wanted (everything for "load everything").
    pub selection: Selection,
    pub started: SystemTime,
    pub finished: SystemTime,
    pub fetched: Vec<Fetched>,
    pub failures: Vec<Failure>,
    pub cancelled: bool,
    /// Requests repeated after a transient failure, all nodes together.
    pub retries: u64,
}

impl Crawl {
    /// The answers at one level of the tree, in the order they arrived.
    pub fn at<'c>(
        &'c self,
        wanted: impl Fn(&NodePath) -> bool + 'c,
    ) -> impl Iterator<Item = &'c Fetched> + 'c {
        self.fetched.iter().filter(move |f| wanted(&f.path))
    }
}

/// A finished request: its answer and the requests it leads to, or why it failed; and
/// how many retries it took.
type Outcome = (NodePath, String, Result<(String, Vec<NodePath>)>, u32);

/// Waits between probes of a server that stopped answering: doubling from the first to
/// the last, so a restart is noticed soon and a long outage costs few requests.
const PROBE_FIRST: Duration = Duration::from_millis(250);
const PROBE_MAX: Duration = Duration::from_secs(5);

impl Client {
    /// Crawls the whole of `plan`: see [`Client::crawl_selection`].
    pub async fn crawl(
        self: &Arc<Self>,
        plan: &CrawlPlan,
        cancel: &CancellationToken,
        on_progress: impl Fn(&Progress),
    ) -> Crawl {
        self.crawl_selection(plan, &Selection::everything(), cancel, on_progress)
            .await
    }

    /// Crawls `plan`, following only the shells and submodels in `selection` (the
    /// lists that lead to them are fetched whole); `on_progress` is called after every
    /// request. Cancelling `cancel` stops it at once and returns what was fetched so
    /// far, marked `cancelled`.
    ///
    /// When a server that has answered in this crawl becomes unreachable, the node is
    /// kept, `Progress::offline` is set, and one request at a time probes the server
    /// with capped backoff until it answers (or the crawl is cancelled). A server that
    /// never answered is not waited for: its nodes fail as offline.
    pub async fn crawl_selection(
        self: &Arc<Self>,
        plan: &CrawlPlan,
        selection: &Selection,
        cancel: &CancellationToken,
        on_progress: impl Fn(&Progress),
    ) -> Crawl {
        let started = SystemTime::now();
        let mut queue: VecDeque<NodePath> = std::iter::once(NodePath::Registry)
            .chain(
                plan.asset_types
                    .iter()
                    .map(|&asset_type| NodePath::AasList { asset_type }),
            )
            .collect();
        let mut progress = Progress {
            requests_known: queue.len() as u64,
            ..Progress::default()
        };
        let (mut fetched, mut failures) = (Vec::new(), Vec::new());
        let mut running: JoinSet<Outcome> = JoinSet::new();
        let mut cancelled = false;
        let mut server_answered = false;
        // While the server is offline: the wait before the next probe.
        let mut probe_wait: Option<Duration> = None;
        loop {
            let limit = match probe_wait {
                Some(_) => 1,
                None => plan.concurrency.max(1),
            };
            while running.len() < limit {
                let Some(path) = queue.pop_front() else { break };
                let client = Arc::clone(self);
                let plant = plan.plant.clone();
                let wait = probe_wait.unwrap_or_default();
                running.spawn(async move {
                    // Only when probing: even a zero sleep waits for the timer's next tick.
                    if !wait.is_zero() {
                        tokio::time::sleep(wait).await;
                    }
                    client.fetch_node(&plant, path).await
                });
            }
            let outcome = tokio::select! {
                biased;
                _ = cancel.cancelled() => {
                    running.abort_all();
                    cancelled = true;
                    break;
                }
                next = running.join_next() => match next {
                    None => break,
                    Some(Ok(outcome)) => outcome,
                    // A task only ends without an outcome when aborted, i.e. cancelled.
                    Some(Err(_)) => continue,
                },
            };
            let (path, url, result, retries) = outcome;
            progress.retries += u64::from(retries);
            match &result {
                Err(e) if e.kind() == ErrorKind::Offline && server_answered => {
                    // The server is gone, not this node: keep it for when the server is
                    // back. Asking again is a retry too.
                    queue.push_front(path);
                    progress.retries += 1;
                    probe_wait = Some(probe_wait.map_or(PROBE_FIRST, |w| (w * 2).min(PROBE_MAX)));
                    if !progress.offline {
                        tracing::info!("crawl: the server stopped answering; waiting for it");
                        progress.offline = true;
                    }
                    on_progress(&progress);
                    continue;
                }
                Err(e) if e.kind() == ErrorKind::Offline => {}
                _ => {
                    server_answered = true;
                    if progress.offline {
                        tracing::info!("crawl: the server answers again");
                    }
                    probe_wait = None;
                    progress.offline = false;
                }
            }
            progress.requests_done += 1;
            match result {
                Ok((raw, children)) => {
                    progress.bytes += raw.len() as u64;
                    let children: Vec<NodePath> = children
                        .into_iter()
                        .filter(|c| wanted(selection, c))
                        .collect();
                    progress.requests_known += children.len() as u64;
                    queue.extend(children);
                    fetched.push(Fetched { path, url, raw });
                }
                Err(e) => {
                    progress.failures += 1;
                    tracing::debug!(?path, error = %e, "crawl: node failed");
                    failures.push(Failure {
                        path,
                        url,
                        kind: e.kind(),
                        message: e.to_string(),
                    });
                }
            }
            on_progress(&progress);
        }
        Crawl {
            plan: plan.clone(),
            selection: selection.clone(),
            started,
            finished: SystemTime::now(),
            fetched,
            failures,
            cancelled,
            retries: progress.retries,
        }
    }

    /// Fetches one node and reads which nodes lie below it.
    async fn fetch_node(&self, plant: &str, path: NodePath) -> Outcome {
        let url = match &path {
            NodePath::Registry => Ok(self.connection().registry_list_url()),
            NodePath::AasList { asset_type } => self.aas_list_url(*asset_type, plant),
            NodePath::Submodels { aas_id } => Ok(self.submodels_url(aas_id)),
            NodePath::Elements { aas_id, submodel } => Ok(self.elements_url(aas_id, submodel, &[])),
        };
        let url = match url {
            Ok(url) => url,
            Err(e) => return (path, String::new(), Err(e), 0),
        };
        let service = match path {
            NodePath::Registry => Service::Registry,
            _ => Service::Gateway,
        };
        let (result, retries) = self
            .get_reading(&url, service, |raw| children(&path, raw))
            .await;
        (path, url, result, retries)
    }
}

/// Whether the selection leads to the request at `path`.
fn wanted(selection: &Selection, path: &NodePath) -> bool {
    match path {
        NodePath::Registry | NodePath::AasList { .. } => true,
        NodePath::Submodels { aas_id } => selection.wants_shell(aas_id),
        NodePath::Elements { aas_id, submodel } => selection.wants_submodel(aas_id, submodel),
    }
}

/// The requests below a node: each AAS's submodels, each submodel's elements, read in
/// the pass that checks the answer's syntax (an item without an identifier is not
/// followed). Answers that lead nowhere are only checked.
fn children(path: &NodePath, raw: &str) -> serde_json::Result<Vec<NodePath>> {
    Ok(match path {
        NodePath::Registry | NodePath::Elements { .. } => {
            serde_json::from_str::<serde::de::IgnoredAny>(raw)?;
            Vec::new()
        }
        NodePath::AasList { .. } => ids_in_list(raw, &["identification", "id"])?
            .into_iter()
            .map(|aas_id| NodePath::Submodels { aas_id })
            .collect(),
        NodePath::Submodels { aas_id } => ids_in_list(raw, &["idShort"])?
            .into_iter()
            // An empty idShort cannot be addressed; its elements came with the list.
            .filter(|id_short| !id_short.is_empty())
            .map(|submodel| NodePath::Elements {
                aas_id: aas_id.clone(),
                submodel,
            })
            .collect(),
    })
}
