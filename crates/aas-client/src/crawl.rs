//! "Load everything": plant × asset types → AAS → submodels → elements, with bounded
//! concurrency, progress, and cancellation. A node that fails is recorded with its
//! reason and the crawl goes on; what was fetched is never thrown away.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::SystemTime;

use aas_model::{parse_list, AssetAdministrationShell, AssetType, Submodel};
use serde::Serialize;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::client::Service;
use crate::{Client, ErrorKind, Result};

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
}

/// Everything a crawl gathered.
#[derive(Debug, Clone)]
pub struct Crawl {
    pub plan: CrawlPlan,
    pub started: SystemTime,
    pub finished: SystemTime,
    pub fetched: Vec<Fetched>,
    pub failures: Vec<Failure>,
    pub cancelled: bool,
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

/// A finished request: its answer and the requests it leads to, or why it failed.
type Outcome = (NodePath, String, Result<(String, Vec<NodePath>)>);

impl Client {
    /// Crawls `plan`; `on_progress` is called after every request. Cancelling `cancel`
    /// stops it at once and returns what was fetched so far, marked `cancelled`.
    pub async fn crawl(
        self: &Arc<Self>,
        plan: &CrawlPlan,
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
        loop {
            while running.len() < plan.concurrency.max(1) {
                let Some(path) = queue.pop_front() else { break };
                let client = Arc::clone(self);
                let plant = plan.plant.clone();
                running.spawn(async move { client.fetch_node(&plant, path).await });
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
            let (path, url, result) = outcome;
            progress.requests_done += 1;
            match result {
                Ok((raw, children)) => {
                    progress.bytes += raw.len() as u64;
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
            started,
            finished: SystemTime::now(),
            fetched,
            failures,
            cancelled,
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
            Err(e) => return (path, String::new(), Err(e)),
        };
        let service = match path {
            NodePath::Registry => Service::Registry,
            _ => Service::Gateway,
        };
        let result = async {
            let raw = self.get(&url, service).await?;
            let children = children(&path, &raw)?;
            Ok((raw, children))
        }
        .await;
        (path, url, result)
    }
}

/// The requests below a node: each AAS's submodels, each submodel's elements.
fn children(path: &NodePath, raw: &str) -> Result<Vec<NodePath>> {
    Ok(match path {
        NodePath::Registry | NodePath::Elements { .. } => Vec::new(),
        NodePath::AasList { .. } => parse_list::<AssetAdministrationShell>(raw)?
            .iter()
            .filter_map(|aas| aas.view().ok())
            .map(|aas| NodePath::Submodels {
                aas_id: aas.identification.id.clone(),
            })
            .collect(),
        NodePath::Submodels { aas_id } => parse_list::<Submodel>(raw)?
            .iter()
            .filter_map(|sm| sm.view().ok())
            // An empty idShort cannot be addressed; its elements came with the list.
            .filter(|sm| !sm.id_short.is_empty())
            .map(|sm| NodePath::Elements {
                aas_id: aas_id.clone(),
                submodel: sm.id_short.clone(),
            })
            .collect(),
    })
}
