//! Plant snapshots for both front ends: taking one (a job, with progress and Cancel,
//! after which only the newest complete ones of that plant and source are kept), the
//! list with the store's place and size, search over a whole snapshot, the changes
//! between two, exports of a snapshot or of its changes, and moving a damaged store
//! aside. The store is one file shared with `aasmd`; each call opens it.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use aas_client::{Client, Crawl, CrawlPlan, Progress, Selection};
use aas_export::{Format, SafeCsv};
use aas_model::AssetType;
use aas_snapshot::{Access, Change, Hit, SnapshotInfo, Store};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::content::SaveAs;
use crate::jobs::{plan, save_as, LoadSummary};
use crate::session::lock;
use crate::{App, Error, Result};

/// How many complete snapshots of a plant and source are kept when nobody said.
pub const DEFAULT_KEEP: usize = 10;

/// A snapshot taken: what the store recorded, the crawl behind it, and the older
/// snapshots removed to keep the newest ones only.
#[derive(Debug)]
pub struct Taken {
    pub info: SnapshotInfo,
    pub crawl: Crawl,
    pub retired: Vec<i64>,
}

/// Crawls `plan` into a new snapshot of the store at `store` from `source`, then keeps
/// the newest `keep` complete snapshots of the plant and source. Cancelled, it keeps
/// what was fetched as a partial snapshot.
pub async fn take_snapshot(
    client: &Arc<Client>,
    store: &Path,
    source: &str,
    plan: &CrawlPlan,
    keep: usize,
    cancel: &CancellationToken,
    on_progress: impl Fn(&Progress),
) -> Result<Taken> {
    let mut store = Store::open(store, Access::Create)?;
    let mut writer = store.begin(source, &plan.plant, SystemTime::now())?;
    // The first failure to write stops the crawl: nothing is fetched to be lost.
    let mut unwritten = None;
    let crawl = client
        .crawl_into(
            plan,
            &Selection::everything(),
            cancel,
            on_progress,
            |answer| {
                if unwritten.is_none() {
                    if let Err(e) = writer.answer(answer) {
                        unwritten = Some(e);
                        cancel.cancel();
                    }
                }
            },
        )
        .await;
    if let Some(e) = unwritten {
        return Err(e.into());
    }
    for failure in &crawl.failures {
        writer.failure(failure)?;
    }
    for part in &crawl.unreadable {
        writer.unreadable(part)?;
    }
    let info = writer.finish(!crawl.cancelled && !crawl.is_partial())?;
    let retired = store.retire(source, &plan.plant, keep)?;
    Ok(Taken {
        info,
        crawl,
        retired,
    })
}

/// What "Take snapshot" did, for the page.
#[derive(Debug, Serialize)]
pub struct SnapshotTaken {
    pub snapshot: SnapshotInfo,
    #[serde(flatten)]
    pub loaded: LoadSummary,
    pub retired: Vec<i64>,
}

/// The snapshots of a plant from the active profile, newest first, and the store.
#[derive(Debug, Serialize)]
pub struct SnapshotShelf {
    pub store: StoreView,
    pub keep: usize,
    pub snapshots: Vec<SnapshotInfo>,
}

#[derive(Debug, Serialize)]
pub struct StoreView {
    pub path: PathBuf,
    pub bytes: u64,
}

/// A search's hits and the snapshot they come from.
#[derive(Debug, Serialize)]
pub struct SearchAnswer {
    pub snapshot: SnapshotInfo,
    pub hits: Vec<PlantHit>,
}

/// A hit with the asset type whose list holds its shell, so the page can open it.
#[derive(Debug, Serialize)]
pub struct PlantHit {
    #[serde(flatten)]
    pub hit: Hit,
    pub asset_type: Option<AssetType>,
}

/// The changes between two snapshots.
#[derive(Debug, Serialize)]
pub struct ChangesView {
    pub old: SnapshotInfo,
    pub new: SnapshotInfo,
    pub changes: Vec<Change>,
    pub warnings: Vec<String>,
}

/// Where a damaged store went.
#[derive(Debug, Serialize)]
pub struct MovedAside {
    pub moved_to: PathBuf,
}

/// The asset type of each shell of the snapshot searched last: a search's hits name it
/// without reading the AAS lists again as the user types.
#[derive(Debug, Default)]
pub(crate) struct ShellTypes(std::sync::Mutex<Option<(i64, Arc<TypeOfShell>)>>);

type TypeOfShell = HashMap<String, AssetType>;

impl App {
    /// The same app over the store at `path` instead of the one in the data folder.
    pub fn with_store(mut self, path: PathBuf) -> Self {
        self.store_path = path;
        self
    }

    /// The snapshot store's file.
    pub fn store_path(&self) -> &Path {
        &self.store_path
    }

    /// The store, to read (it is never created or changed by a read).
    pub(crate) fn store(&self) -> Result<Store> {
        Ok(Store::open(&self.store_path, Access::Read)?)
    }

    /// Takes a snapshot of the plant (`on_progress` after every request; Cancel as for
    /// the other jobs), keeping the newest `keep` complete ones of the plant.
    pub async fn take_snapshot(
        &self,
        plant: String,
        asset_types: &[String],
        keep: usize,
        on_progress: impl Fn(&Progress),
    ) -> Result<SnapshotTaken> {
        let job = self.jobs.start("Taking a snapshot")?;
        let plan = plan(plant, asset_types)?;
        let session = self.session();
        let taken = take_snapshot(
            &session.client,
            &self.store_path,
            &session.profile.name,
            &plan,
            keep,
            &job.cancel,
            on_progress,
        )
        .await?;
        Ok(SnapshotTaken {
            loaded: LoadSummary::of(&taken.crawl),
            snapshot: taken.info,
            retired: taken.retired,
        })
    }

    /// The active profile's snapshots of `plant`, newest first.
    pub fn snapshots(&self, plant: &str, keep: usize) -> Result<SnapshotShelf> {
        let store = match self.store() {
            // Before the first take there is no store: an empty shelf.
            Err(Error::Snapshot(aas_snapshot::Error::NoStore(_))) => None,
            other => Some(other?),
        };
        let source = self.session().profile.name;
        let mut snapshots: Vec<SnapshotInfo> = match &store {
            Some(store) => store.list(Some(plant))?,
            None => Vec::new(),
        };
        snapshots.retain(|s| s.source == source);
        snapshots.reverse();
        Ok(SnapshotShelf {
            store: StoreView {
                path: self.store_path.clone(),
                bytes: store.as_ref().map_or(0, Store::size),
            },
            keep,
            snapshots,
        })
    }

    pub fn delete_snapshot(&self, id: i64) -> Result<()> {
        Ok(Store::open(&self.store_path, Access::Write)?.remove(id)?)
    }

    /// Renames a damaged store to `<name>.damaged-<unix seconds>` beside it; the next
    /// use starts a new one.
    pub fn move_store_aside(&self) -> Result<MovedAside> {
        let _job = self.jobs.start("Moving the store aside")?;
        let stamp = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let moved_to = PathBuf::from(format!("{}.damaged-{stamp}", self.store_path.display()));
        std::fs::rename(&self.store_path, &moved_to).map_err(|source| Error::Io {
            action: "move aside",
            path: self.store_path.clone(),
            source,
        })?;
        // The log beside it belongs to the damaged file, not to the next store.
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.store_path.display()));
        }
        lock(&self.shell_types.0).take();
        Ok(MovedAside { moved_to })
    }

    /// The first `limit` elements matching `query` in `snapshot`, or in the latest
    /// complete snapshot of `plant`.
    pub fn search(
        &self,
        plant: &str,
        query: &str,
        snapshot: Option<i64>,
        limit: usize,
    ) -> Result<SearchAnswer> {
        let store = self.store()?;
        let snapshot = match snapshot {
            Some(id) => store.snapshot(id)?,
            None => self.latest(&store, plant)?,
        };
        let hits = store.search(snapshot.id, query, limit)?;
        let types = self.shell_types(&store, snapshot.id)?;
        let hits = hits
            .into_iter()
            .map(|hit| PlantHit {
                asset_type: types.get(&hit.aas_id).copied(),
                hit,
            })
            .collect();
        Ok(SearchAnswer { snapshot, hits })
    }

    fn shell_types(&self, store: &Store, id: i64) -> Result<Arc<TypeOfShell>> {
        let mut cached = lock(&self.shell_types.0);
        if let Some((_, types)) = cached.as_ref().filter(|(of, _)| *of == id) {
            return Ok(Arc::clone(types));
        }
        let types = Arc::new(store.shell_types(id)?);
        *cached = Some((id, Arc::clone(&types)));
        Ok(types)
    }

    /// The changes from `old` to `new`; both `None`: the latest two complete snapshots
    /// of `plant` from the active profile.
    pub fn changes(&self, plant: &str, old: Option<i64>, new: Option<i64>) -> Result<ChangesView> {
        let store = self.store()?;
        let (old, new) = match (old, new) {
            (Some(old), Some(new)) => (store.snapshot(old)?, store.snapshot(new)?),
            _ => self.latest_two(&store, plant)?,
        };
        let diff = store.diff(old.id, new.id)?;
        Ok(ChangesView {
            old,
            new,
            changes: diff.changes,
            warnings: diff.warnings,
        })
    }

    /// Asks `choose` where to save, then writes the changes from `old` to `new` as
    /// `csv` or `json`; `None` when the user cancelled the choice.
    pub async fn export_changes<F, Fut>(
        &self,
        old: i64,
        new: i64,
        format: &str,
        choose: F,
    ) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let _job = self.jobs.start("An export")?;
        let (name, extension) = match format {
            "csv" => ("aas-changes.csv", "csv"),
            "json" => ("aas-changes.json", "json"),
            other => {
                return Err(Error::BadRequest(format!(
                    "unknown format {other:?}; expected csv or json"
                )))
            }
        };
        let changes = self.store()?.diff(old, new)?.changes;
        let save_as = SaveAs {
            name: name.into(),
            extension,
        };
        let Some(path) = choose(save_as).await? else {
            return Ok(None);
        };
        let bytes = match extension {
            "csv" => changes_csv(&changes)?,
            _ => serde_json::to_vec_pretty(&changes).map_err(|e| Error::BadData(e.to_string()))?,
        };
        aas_export::write_atomically(&path, &bytes)?;
        *lock(&self.last_export) = Some(path.clone());
        Ok(Some(path))
    }

    /// Asks `choose` where to save, then writes `snapshot` (or the latest complete one
    /// of `plant`) in `format`; `None` when the user cancelled the choice.
    pub async fn export_snapshot<F, Fut>(
        &self,
        plant: &str,
        snapshot: Option<i64>,
        format: &str,
        choose: F,
    ) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let _job = self.jobs.start("An export")?;
        let format: Format = format.parse().map_err(Error::BadRequest)?;
        let id = match snapshot {
            Some(id) => id,
            None => self.latest(&self.store()?, plant)?.id,
        };
        let Some(path) = choose(save_as(format)).await? else {
            return Ok(None);
        };
        let (store, out) = (self.store_path.clone(), path.clone());
        // Seconds of SQLite reads and file writes: off the async workers.
        tokio::task::spawn_blocking(move || {
            Store::open(&store, Access::Read)?.export(id, format, &out)
        })
        .await
        .map_err(|e| Error::BadData(format!("the export stopped: {e}")))??;
        *lock(&self.last_export) = Some(path.clone());
        Ok(Some(path))
    }

    /// The latest complete snapshot of `plant` from the active profile.
    fn latest(&self, store: &Store, plant: &str) -> Result<SnapshotInfo> {
        self.complete_newest_first(store, plant)?
            .into_iter()
            .next()
            .ok_or_else(|| {
                Error::NoSnapshot(format!(
                    "there is no complete snapshot of {plant} yet: use Take snapshot to make one"
                ))
            })
    }

    fn latest_two(&self, store: &Store, plant: &str) -> Result<(SnapshotInfo, SnapshotInfo)> {
        let mut newest_first = self.complete_newest_first(store, plant)?.into_iter();
        match (newest_first.next(), newest_first.next()) {
            (Some(new), Some(old)) => Ok((old, new)),
            _ => Err(Error::NoSnapshot(format!(
                "changes need two complete snapshots of {plant}: use Take snapshot (again)"
            ))),
        }
    }

    fn complete_newest_first(&self, store: &Store, plant: &str) -> Result<Vec<SnapshotInfo>> {
        let source = self.session().profile.name;
        Ok(store.complete_newest_first(plant, Some(&source))?)
    }
}

/// The changes as CSV: change, aas_id, submodel, path (idShorts joined by `/`), old, new.
pub fn changes_csv(changes: &[Change]) -> Result<Vec<u8>> {
    let failed = |e: &dyn std::fmt::Display| Error::BadData(format!("cannot write the CSV: {e}"));
    let mut out = SafeCsv::new(Vec::new());
    let header = ["change", "aas_id", "submodel", "path", "old", "new"];
    out.write_row(&header).map_err(|e| failed(&e))?;
    for c in changes {
        let path = c.path.join("/");
        let row = [
            c.change.word(),
            &c.aas_id,
            c.submodel.as_deref().unwrap_or(""),
            &path,
            c.old.as_deref().unwrap_or(""),
            c.new.as_deref().unwrap_or(""),
        ];
        out.write_row(&row).map_err(|e| failed(&e))?;
    }
    out.into_inner().map_err(|e| failed(&e))
}
