//! "Load everything": plant × asset types → AAS → submodels → elements, with bounded
//! concurrency, progress, and cancellation. A node that fails is recorded with its
//! reason and the crawl goes on; what was fetched is never thrown away.
//!
//! A crawl always ends. A connection error on one URL while the service still answers
//! ([`Client::probe`]) is that node's failure; only when the probe finds nothing
//! answering is the service offline, and then it is waited for at most
//! [`CrawlPlan::offline_wait`]. The server's lists are not trusted to be finite or
//! distinct: repeated ids are fetched once and [`CrawlPlan::max_nodes`] caps the walk.

use std::collections::{HashSet, VecDeque};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use aas_model::AssetType;
use serde::Serialize;
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use aas_source::{
    check_json, ids_in_list, Body, Coverage, ErrorKind, Failure, Fetched, NodeLevel, NodePath,
    Selection, Source, Unreadable, Visit, WalkReport, ID_SHORT, SHELL_ID,
};

use crate::client::Service;
use crate::{Client, Error, Result};

/// What to load, and the bounds of the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlPlan {
    pub plant: String,
    pub asset_types: Vec<AssetType>,
    /// Requests in flight at most.
    pub concurrency: usize,
    /// How long an offline service is waited for before the nodes still to fetch are
    /// reported failed and the crawl ends.
    pub offline_wait: Duration,
    /// Requests a crawl makes at most; past it the crawl ends partial
    /// ([`Crawl::node_limit_reached`]).
    pub max_nodes: u64,
}

/// Requests in flight unless a plan says otherwise.
pub const DEFAULT_CONCURRENCY: usize = 8;
/// Ten minutes: a restart or a short network outage is waited out, a dead service is not.
pub const DEFAULT_OFFLINE_WAIT: Duration = Duration::from_secs(600);
/// Enough for a 100,000-asset plant (about 15 requests per asset).
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

impl CrawlPlan {
    /// Every node of `asset_types` in `plant`, with the default bounds.
    pub fn new(plant: impl Into<String>, asset_types: Vec<AssetType>) -> Self {
        CrawlPlan {
            plant: plant.into(),
            asset_types,
            concurrency: DEFAULT_CONCURRENCY,
            offline_wait: DEFAULT_OFFLINE_WAIT,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
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
    /// Nothing answers: the crawl is probing the service and goes on when it is back.
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
    /// Answers received, whether kept in `fetched` or handed on as they arrived.
    pub answers: usize,
    pub failures: Vec<Failure>,
    /// Parts of answers that could not be read (their answers are in `fetched`).
    pub unreadable: Vec<Unreadable>,
    pub cancelled: bool,
    /// The plant has more nodes than [`CrawlPlan::max_nodes`]: those past it were not
    /// fetched.
    pub node_limit_reached: bool,
    /// Requests repeated after a transient failure, all nodes together.
    pub retries: u64,
    /// Reachability probes sent ([`Client::probe`]) after connection errors.
    pub probes: u64,
}

impl Crawl {
    /// The answers at one level of the tree, in the order they arrived.
    pub fn at<'c>(
        &'c self,
        wanted: impl Fn(&NodePath) -> bool + 'c,
    ) -> impl Iterator<Item = &'c Fetched> + 'c {
        self.fetched.iter().filter(move |f| wanted(&f.path))
    }

    /// Whether something wanted is missing: failed nodes or the node limit.
    pub fn is_partial(&self) -> bool {
        !self.failures.is_empty() || self.node_limit_reached
    }
}

/// A crawl held in memory, read as every source is.
impl Source for Crawl {
    fn coverage(&self) -> Coverage<'_> {
        Coverage {
            plant: &self.plan.plant,
            asset_types: &self.plan.asset_types,
            selection: &self.selection,
            read_at: self.started,
            failures: &self.failures,
            unreadable: &self.unreadable,
            complete: !self.cancelled && !self.is_partial(),
        }
    }

    fn walk(&self) -> Option<WalkReport> {
        Some(WalkReport {
            started: self.started,
            finished: self.finished,
            cancelled: self.cancelled,
            node_limit_reached: self.node_limit_reached,
            retries: self.retries,
            probes: self.probes,
        })
    }

    fn count(&self) -> usize {
        self.fetched.len()
    }

    fn each(&self, level: NodeLevel, visit: &mut Visit<'_>) -> aas_source::Result<ControlFlow<()>> {
        let mut at: Vec<&Fetched> = self.at(|path| path.level() == level).collect();
        at.sort_by(|a, b| a.path.keys().cmp(&b.path.keys()));
        for f in at {
            let mut body = f
                .raw
                .reader()
                .map_err(|e| aas_source::unreadable_body(&f.url, e))?;
            if visit(&f.path, &f.url, &mut body).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// A finished request: its answer and the requests it leads to, or why it failed; and
/// how many retries it took.
type Outcome = (NodePath, String, Result<(Body, Reading)>, u32);

/// What an answer was read for: the requests below it, and what of it cannot be read.
struct Reading {
    below: Vec<NodePath>,
    unreadable: Vec<aas_model::inspect::Finding>,
}

/// Waits between probes of a service that stopped answering: doubling from the first
/// to the last, so a restart is noticed soon and a long outage costs few requests.
const PROBE_FIRST: Duration = Duration::from_millis(250);
const PROBE_MAX: Duration = Duration::from_secs(5);

/// What the crawl has gathered so far, and what is left to ask.
struct Walk<'p> {
    plan: &'p CrawlPlan,
    selection: &'p Selection,
    queue: VecDeque<NodePath>,
    /// The shells already queued: a shell listed twice (in one list or under two asset
    /// types) is fetched once. It grows with the shells, not with every URL.
    shells: HashSet<String>,
    progress: Progress,
    /// Where each answer goes as it arrives (a list in memory, or a snapshot store).
    on_answer: &'p mut (dyn FnMut(Fetched) + Send),
    answers: usize,
    failures: Vec<Failure>,
    unreadable: Vec<Unreadable>,
    node_limit_reached: bool,
    /// Nodes whose connection failed, waiting for a probe's verdict.
    suspects: Vec<(NodePath, String, Error)>,
    /// Nodes already asked again after a connection error while the service answered;
    /// only such nodes, so it stays as small as the failures.
    asked_again: HashSet<NodePath>,
}

impl<'p> Walk<'p> {
    /// The walk of `plan`; the registry is asked unless `registry` is its answer already.
    fn new(
        plan: &'p CrawlPlan,
        selection: &'p Selection,
        registry: Option<Fetched>,
        on_answer: &'p mut (dyn FnMut(Fetched) + Send),
    ) -> Self {
        let queue: VecDeque<NodePath> = registry
            .is_none()
            .then_some(NodePath::Registry)
            .into_iter()
            .chain(plan.asset_types.iter().map(|asset_type| NodePath::AasList {
                asset_type: asset_type.clone(),
            }))
            .take(usize::try_from(plan.max_nodes).unwrap_or(usize::MAX))
            .collect();
        if let Some(registry) = registry {
            on_answer(registry);
        }
        Walk {
            plan,
            selection,
            progress: Progress {
                requests_known: queue.len() as u64,
                ..Progress::default()
            },
            queue,
            shells: HashSet::new(),
            on_answer,
            answers: 0,
            failures: Vec::new(),
            unreadable: Vec::new(),
            node_limit_reached: false,
            suspects: Vec::new(),
            asked_again: HashSet::new(),
        }
    }

    fn answered(&mut self, path: NodePath, url: String, raw: Body, reading: Reading) {
        self.progress.requests_done += 1;
        self.progress.bytes += raw.size();
        for finding in reading.unreadable {
            tracing::debug!(?path, at = %finding.path, reason = %finding.reason, "crawl: unreadable");
            self.unreadable.push(Unreadable {
                path: path.clone(),
                url: url.clone(),
                at: finding.path,
                reason: finding.reason,
            });
        }
        let mut below = Vec::new();
        for child in reading.below {
            if !wanted(self.selection, &child) {
                continue;
            }
            if let NodePath::Submodels { aas_id } = &child {
                if !self.shells.insert(aas_id.clone()) {
                    continue;
                }
            }
            if self.progress.requests_known >= self.plan.max_nodes {
                if !self.node_limit_reached {
                    tracing::warn!(limit = self.plan.max_nodes, "crawl: node limit reached");
                }
                self.node_limit_reached = true;
                break;
            }
            self.progress.requests_known += 1;
            below.push(child);
        }
        // Depth first: what lies below an answer is asked before the next shell's, so
        // the queue holds one list's shells, not every submodel of the plant.
        for child in below.into_iter().rev() {
            self.queue.push_front(child);
        }
        self.answers += 1;
        (self.on_answer)(Fetched { path, url, raw });
    }

    fn failed(&mut self, path: NodePath, url: String, kind: ErrorKind, message: String) {
        self.progress.requests_done += 1;
        self.progress.failures += 1;
        tracing::debug!(?path, %message, "crawl: node failed");
        self.failures.push(Failure {
            path,
            url,
            kind,
            message,
        });
    }

    /// Asks for `path` again before anything else (a retry).
    fn again(&mut self, path: NodePath) {
        self.progress.retries += 1;
        self.queue.push_front(path);
    }

    /// Fails every node still queued, for `why`; their URLs are what they would have been.
    fn fail_queued(&mut self, client: &Client, why: &str) {
        while let Some(path) = self.queue.pop_front() {
            let url = client.node_url(&self.plan.plant, &path).unwrap_or_default();
            self.failed(path, url, ErrorKind::Offline, why.to_owned());
        }
    }

    /// What a probe's verdict means for the nodes waiting on it, and the state after it.
    fn probed(&mut self, client: &Client, verdict: Verdict, reach: Reach) -> Reach {
        match verdict {
            Verdict::Answers => {
                if let Reach::Offline { .. } = reach {
                    tracing::info!("crawl: the server answers again");
                    self.progress.offline = false;
                }
                // The service answers, so the node's connection error is its own: one
                // more try (the service may just have come back), then it fails.
                for (path, url, e) in std::mem::take(&mut self.suspects) {
                    if self.asked_again.insert(path.clone()) {
                        self.again(path);
                    } else {
                        self.failed(path, url, e.kind(), e.to_string());
                    }
                }
                Reach::Answering
            }
            Verdict::NeverAnswered => {
                for (path, url, e) in std::mem::take(&mut self.suspects) {
                    self.failed(path, url, e.kind(), e.to_string());
                }
                self.fail_queued(client, "not asked: the server could not be reached");
                Reach::GaveUp
            }
            Verdict::Offline => {
                let (since, next_wait) = match reach {
                    Reach::Offline { since, next_wait } => (since, next_wait),
                    _ => {
                        tracing::info!("crawl: the server stopped answering; waiting for it");
                        self.progress.offline = true;
                        (Instant::now(), PROBE_FIRST)
                    }
                };
                if since.elapsed() < self.plan.offline_wait {
                    for (path, _, _) in std::mem::take(&mut self.suspects) {
                        self.again(path);
                    }
                    return Reach::Offline { since, next_wait };
                }
                tracing::warn!("crawl: the server stayed offline; giving up");
                self.progress.offline = false;
                let why = format!(
                    "not fetched: the server stopped answering and was not back within {}",
                    humantime::format_duration(self.plan.offline_wait)
                );
                for (path, url, _) in std::mem::take(&mut self.suspects) {
                    self.failed(path, url, ErrorKind::Offline, why.clone());
                }
                self.fail_queued(client, &why);
                Reach::GaveUp
            }
        }
    }
}

/// Whether the service answers, as the crawl last found out.
#[derive(Debug)]
enum Reach {
    /// It answers; a node's connection error is the node's own.
    Answering,
    /// Nothing answered since `since`: nodes wait (or fail once `offline_wait` is over).
    Offline { since: Instant, next_wait: Duration },
    /// It stayed offline longer than the plan waits: what is left fails.
    GaveUp,
}

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
    /// A node whose connection fails (after its retries) makes the crawl probe the
    /// service. If the service answers the probe, the node is asked once more and then
    /// fails: one bad URL never stalls the crawl. If nothing answers, new requests
    /// pause, `Progress::offline` is set and the probe repeats with capped backoff
    /// until the service is back (the paused nodes go on) or `plan.offline_wait` has
    /// passed (they fail). A service that never answered in this crawl is not waited for.
    pub async fn crawl_selection(
        self: &Arc<Self>,
        plan: &CrawlPlan,
        selection: &Selection,
        cancel: &CancellationToken,
        on_progress: impl Fn(&Progress),
    ) -> Crawl {
        let mut fetched = Vec::new();
        let mut crawl = self
            .crawl_into(plan, selection, cancel, on_progress, |f| fetched.push(f))
            .await;
        crawl.fetched = fetched;
        crawl
    }

    /// [`Client::crawl_selection`], handing each answer to `on_answer` as it arrives
    /// instead of keeping it: memory stays bounded whatever the plant's size. The
    /// [`Crawl`] returned has no `fetched`.
    pub async fn crawl_into(
        self: &Arc<Self>,
        plan: &CrawlPlan,
        selection: &Selection,
        cancel: &CancellationToken,
        on_progress: impl Fn(&Progress),
        mut on_answer: impl FnMut(Fetched) + Send,
    ) -> Crawl {
        let started = SystemTime::now();
        // What the user picked while browsing uses the registry as read for the
        // session; the whole plant reads it fresh.
        let registry = match selection.is_everything() {
            true => None,
            false => self.registry_for_session().await.ok().map(|raw| Fetched {
                path: NodePath::Registry,
                url: self.connection().registry_list_url(),
                raw: Body::Text(raw.to_string()),
            }),
        };
        let mut walk = Walk::new(plan, selection, registry, &mut on_answer);
        let mut running: JoinSet<Outcome> = JoinSet::new();
        let mut cancelled = false;
        let mut server_answered = false;
        let mut reach = Reach::Answering;
        // While set, the service is being probed and no new request starts.
        let mut probe: Option<JoinHandle<bool>> = None;
        let mut probes = 0;
        loop {
            if probe.is_none() {
                while running.len() < plan.concurrency.max(1) {
                    let Some(path) = walk.queue.pop_front() else {
                        break;
                    };
                    let client = Arc::clone(self);
                    let plant = plan.plant.clone();
                    running.spawn(async move { client.fetch_node(&plant, path).await });
                }
                if running.is_empty() {
                    break;
                }
            }
            tokio::select! {
                biased;
                _ = cancel.cancelled() => {
                    running.abort_all();
                    if let Some(p) = probe.take() {
                        p.abort();
                    }
                    cancelled = true;
                    break;
                }
                answers = async {
                    match probe.as_mut() {
                        // A probe task only ends without a verdict when aborted.
                        Some(task) => task.await.unwrap_or(false),
                        None => std::future::pending().await,
                    }
                }, if probe.is_some() => {
                    probe = None;
                    let verdict = if answers {
                        Verdict::Answers
                    } else if server_answered {
                        Verdict::Offline
                    } else {
                        Verdict::NeverAnswered
                    };
                    reach = walk.probed(self, verdict, reach);
                    if let Reach::Offline { next_wait, .. } = &mut reach {
                        probe = Some(self.probe_after(*next_wait));
                        probes += 1;
                        *next_wait = (*next_wait * 2).min(PROBE_MAX);
                    }
                }
                next = running.join_next(), if !running.is_empty() => {
                    let Some(Ok((path, url, result, retries))) = next else {
                        // A task only ends without an outcome when aborted, i.e. cancelled.
                        continue;
                    };
                    walk.progress.retries += u64::from(retries);
                    match result {
                        Err(e) if e.kind() == ErrorKind::Offline => match reach {
                            Reach::GaveUp => walk.failed(path, url, e.kind(), e.to_string()),
                            Reach::Offline { .. } => walk.again(path),
                            Reach::Answering => {
                                walk.suspects.push((path, url, e));
                                if probe.is_none() {
                                    probe = Some(self.probe_after(Duration::ZERO));
                                    probes += 1;
                                }
                            }
                        },
                        result => {
                            server_answered = true;
                            if let Reach::Offline { .. } = reach {
                                // An answer is as good as a probe's: the service is back.
                                tracing::info!("crawl: the server answers again");
                                walk.progress.offline = false;
                                reach = Reach::Answering;
                                if let Some(p) = probe.take() {
                                    p.abort();
                                }
                            }
                            match result {
                                Ok((raw, reading)) => walk.answered(path, url, raw, reading),
                                Err(e) => walk.failed(path, url, e.kind(), e.to_string()),
                            }
                        }
                    }
                }
            }
            on_progress(&walk.progress);
        }
        Crawl {
            plan: plan.clone(),
            selection: selection.clone(),
            started,
            finished: SystemTime::now(),
            fetched: Vec::new(),
            answers: walk.answers,
            failures: walk.failures,
            unreadable: walk.unreadable,
            cancelled,
            node_limit_reached: walk.node_limit_reached,
            retries: walk.progress.retries,
            probes,
        }
    }

    /// A probe of the service after `wait`.
    fn probe_after(self: &Arc<Self>, wait: Duration) -> JoinHandle<bool> {
        let client = Arc::clone(self);
        tokio::spawn(async move {
            // Only when waiting: even a zero sleep waits for the timer's next tick.
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            client.probe().await.is_ok()
        })
    }

    /// The URL of one node.
    fn node_url(&self, plant: &str, path: &NodePath) -> Result<String> {
        match path {
            NodePath::Registry => Ok(self.connection().registry_list_url()),
            NodePath::AasList { asset_type } => self.aas_list_url(asset_type, plant),
            NodePath::Submodels { aas_id } => Ok(self.submodels_url(aas_id)),
            NodePath::Elements { aas_id, submodel } => Ok(self.elements_url(aas_id, submodel, &[])),
        }
    }

    /// Fetches one node and reads which nodes lie below it.
    async fn fetch_node(&self, plant: &str, path: NodePath) -> Outcome {
        let url = match self.node_url(plant, &path) {
            Ok(url) => url,
            Err(e) => return (path, String::new(), Err(e), 0),
        };
        let service = match path {
            NodePath::Registry => Service::Registry,
            _ => Service::Gateway,
        };
        // Only an answer that leads nowhere may be too large to hold in memory.
        let may_spool = matches!(path, NodePath::Registry | NodePath::Elements { .. });
        let (result, retries) = self
            .get_reading(&url, service, may_spool, |raw| read_answer(&path, raw))
            .await;
        if let Ok((_, reading)) = &result {
            if let Some(NodePath::Submodels { aas_id }) = reading.below.first() {
                self.note_shell(aas_id);
            }
        }
        (path, url, result, retries)
    }
}

/// What a probe found.
#[derive(Debug, Clone, Copy)]
enum Verdict {
    Answers,
    /// Nothing answers, though the service did earlier in this crawl.
    Offline,
    /// Nothing answers, and nothing did in this crawl: a wrong address, not an outage.
    NeverAnswered,
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
/// followed). The registry is only checked; an elements answer is also read element by
/// element, to name what of it cannot be read.
fn read_answer(path: &NodePath, body: &Body) -> serde_json::Result<Reading> {
    let text = || body.text().map_err(serde_json::Error::io);
    let below = |below| Reading {
        below,
        unreadable: Vec::new(),
    };
    Ok(match path {
        NodePath::Registry => {
            check_json(body)?;
            below(Vec::new())
        }
        NodePath::Elements { .. } => {
            // Read once, for the syntax check and then element by element.
            let text = text()?;
            serde_json::from_str::<serde::de::IgnoredAny>(&text)?;
            Reading {
                below: Vec::new(),
                unreadable: aas_model::inspect::unreadable_elements(&text),
            }
        }
        NodePath::AasList { .. } => below(
            ids_in_list(&text()?, SHELL_ID)?
                .into_iter()
                .map(|aas_id| NodePath::Submodels { aas_id })
                .collect(),
        ),
        NodePath::Submodels { aas_id } => {
            let mut seen = HashSet::new();
            let elements = ids_in_list(&text()?, ID_SHORT)?
                .into_iter()
                // An empty idShort cannot be addressed; its elements came with the list.
                // One listed twice is fetched once.
                .filter(|id_short| !id_short.is_empty() && seen.insert(id_short.clone()))
                .map(|submodel| NodePath::Elements {
                    aas_id: aas_id.clone(),
                    submodel,
                })
                .collect();
            below(elements)
        }
    })
}
