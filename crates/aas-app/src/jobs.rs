//! Long jobs: taking a snapshot (see `snapshots`), the export of what the user ticked
//! (fetched with progress and Cancel), exports from the store. One runs at a time: a
//! second one gets a `busy` error instead of silently taking the first one's Cancel.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Mutex;

use aas_client::{Crawl, CrawlPlan, Pick, Progress, Selection};
use aas_export::{export, Format};
use aas_model::AssetType;
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::content::SaveAs;
use crate::session::lock;
use crate::{App, Error, Result};

/// The job running, if any: what it is and how to cancel it.
#[derive(Debug, Default)]
pub(crate) struct Jobs {
    running: Mutex<Option<(&'static str, CancellationToken)>>,
}

/// Holds the one job slot until dropped, however the job ends.
pub(crate) struct Running<'j> {
    jobs: &'j Jobs,
    pub(crate) cancel: CancellationToken,
}

impl Jobs {
    pub(crate) fn start(&self, what: &'static str) -> Result<Running<'_>> {
        let mut running = lock(&self.running);
        if let Some((other, _)) = running.as_ref() {
            return Err(Error::Busy(other));
        }
        let cancel = CancellationToken::new();
        *running = Some((what, cancel.clone()));
        Ok(Running { jobs: self, cancel })
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        lock(&self.jobs.running).take();
    }
}

/// What a crawl did, for the front end.
#[derive(Debug, Serialize)]
pub struct LoadSummary {
    pub requests: usize,
    pub failures: Vec<String>,
    /// How many parts of answers could not be read (kept as sent), and the first
    /// [`UNREADABLE_NAMED`] of them named: `URL at $[3].value: reason`.
    pub unreadable_count: usize,
    pub unreadable: Vec<String>,
    pub cancelled: bool,
}

/// Unreadable parts a summary names; the count says how many more there are.
const UNREADABLE_NAMED: usize = 20;

impl LoadSummary {
    pub(crate) fn of(crawl: &Crawl) -> Self {
        let mut failures: Vec<String> = crawl
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.url, f.message))
            .collect();
        if crawl.node_limit_reached {
            failures.push(format!(
                "the plant has more than {} nodes; those past them were not loaded",
                crawl.plan.max_nodes
            ));
        }
        LoadSummary {
            requests: crawl.fetched.len() + crawl.failures.len(),
            failures,
            unreadable_count: crawl.unreadable.len(),
            unreadable: crawl
                .unreadable
                .iter()
                .take(UNREADABLE_NAMED)
                .map(ToString::to_string)
                .collect(),
            cancelled: crawl.cancelled,
        }
    }
}

/// What an export did: where it wrote (none when cancelled) and what it fetched.
#[derive(Debug, Serialize)]
pub struct ExportSummary {
    pub path: Option<PathBuf>,
    pub bytes: u64,
    pub loaded: LoadSummary,
}

/// What to export: the plant, its asset types, the ticked shells and the format.
#[derive(Debug, Clone)]
pub struct ExportRequest {
    pub plant: String,
    pub asset_types: Vec<String>,
    pub picks: Vec<Pick>,
    pub format: String,
}

impl App {
    /// Cancels the snapshot or export running, if one is.
    pub fn cancel_job(&self) {
        if let Some((_, cancel)) = lock(&self.jobs.running).as_ref() {
            cancel.cancel();
        }
    }

    /// Asks `choose` where to save, fetches the ticked shells and submodels (progress
    /// on `on_progress`, Cancel as for a snapshot), then writes them. Nothing is
    /// written when the user cancels the choice or the fetching.
    pub async fn export_selection<F, Fut>(
        &self,
        request: ExportRequest,
        choose: F,
        on_progress: impl Fn(&Progress),
    ) -> Result<ExportSummary>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let job = self.jobs.start("An export")?;
        let format: Format = request.format.parse().map_err(Error::BadRequest)?;
        if request.picks.is_empty() {
            return Err(Error::BadRequest("nothing is ticked in the tree".into()));
        }
        let plan = plan(request.plant, &request.asset_types)?;
        let selection = Selection::from(Some(request.picks));
        let unwritten = |loaded| ExportSummary {
            path: None,
            bytes: 0,
            loaded,
        };
        let Some(path) = choose(save_as(format)).await? else {
            let nothing = LoadSummary {
                requests: 0,
                failures: Vec::new(),
                unreadable_count: 0,
                unreadable: Vec::new(),
                cancelled: true,
            };
            return Ok(unwritten(nothing));
        };
        let crawl = self.crawl(&job, &plan, &selection, on_progress).await;
        let loaded = LoadSummary::of(&crawl);
        if crawl.cancelled {
            return Ok(unwritten(loaded));
        }
        let bytes = export(&crawl, format, &self.session().profile.name, &path)?;
        *lock(&self.last_export) = Some(path.clone());
        Ok(ExportSummary {
            path: Some(path),
            bytes,
            loaded,
        })
    }

    /// The file the last export wrote, for "Show in folder".
    pub fn last_export(&self) -> Result<PathBuf> {
        lock(&self.last_export)
            .clone()
            .ok_or_else(|| Error::BadRequest("nothing was exported yet".into()))
    }

    async fn crawl(
        &self,
        job: &Running<'_>,
        plan: &CrawlPlan,
        selection: &Selection,
        on_progress: impl Fn(&Progress),
    ) -> Crawl {
        let client = self.session().client;
        client
            .crawl_selection(plan, selection, &job.cancel, on_progress)
            .await
    }
}

pub(crate) fn plan(plant: String, asset_types: &[String]) -> Result<CrawlPlan> {
    let asset_types = asset_types
        .iter()
        .map(|t| t.parse::<AssetType>())
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(CrawlPlan::new(plant, asset_types))
}

/// The file name a save dialog suggests for `format`.
pub(crate) fn save_as(format: Format) -> SaveAs {
    let (name, extension) = match format {
        Format::Raw => ("aas-raw-bundle.json", "json"),
        Format::Env => ("aas-environment.json", "json"),
        Format::Aasx => ("aas-environment.aasx", "aasx"),
        Format::Csv => ("aas-properties.csv", "csv"),
    };
    SaveAs {
        name: name.into(),
        extension,
    }
}
