//! The page's snapshot commands: the store's rules ([`crate::SnapshotStore`]) applied to
//! the active profile (its snapshots are those it took), with the job slot, the
//! keep-N preference and the save dialog.

use std::future::Future;
use std::path::PathBuf;

use aas_client::Progress;
use aas_export::{Format, SafeCsv};
use aas_snapshot::{Change, SnapshotInfo};
use serde::Serialize;

use crate::content::SaveAs;
use crate::convert::SavedFile;
use crate::export_job::{plan, save_as};
use crate::{App, ChangesView, CrawlSummary, Error, MovedAside, Result, SearchAnswer};

/// What "Take snapshot" did, for the page.
#[derive(Debug, Serialize)]
pub struct SnapshotTaken {
    pub snapshot: SnapshotInfo,
    #[serde(flatten)]
    pub loaded: CrawlSummary,
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

impl App {
    /// Takes a snapshot of the plant (`on_progress` after every request; Cancel as for
    /// the other jobs), keeping the newest complete ones as the preferences say.
    pub async fn take_snapshot(
        &self,
        plant: String,
        asset_types: &[String],
        on_progress: impl Fn(&Progress),
    ) -> Result<SnapshotTaken> {
        let job = self.jobs.start("Taking a snapshot")?;
        let plan = plan(plant, asset_types)?;
        let session = self.session();
        let keep = self.preferences().keep_snapshots;
        let taken = self
            .store
            .take(
                &session.client,
                session.snapshot_source(),
                &plan,
                keep,
                &job.cancel,
                on_progress,
            )
            .await?;
        Ok(SnapshotTaken {
            loaded: CrawlSummary::of(&taken.crawl),
            snapshot: taken.info,
            retired: taken.retired,
        })
    }

    /// The active profile's snapshots of `plant`, newest first.
    pub fn snapshots(&self, plant: &str) -> Result<SnapshotShelf> {
        let snapshots = self
            .store
            .newest_first(plant, self.session().snapshot_source())?;
        Ok(SnapshotShelf {
            store: StoreView {
                path: self.store.path().to_owned(),
                bytes: self.store.bytes(),
            },
            keep: self.preferences().keep_snapshots,
            snapshots,
        })
    }

    pub fn delete_snapshot(&self, id: i64) -> Result<()> {
        self.store.remove(id)
    }

    /// Renames a damaged store beside it; the next use starts a new one.
    pub fn move_store_aside(&self) -> Result<MovedAside> {
        let _job = self.jobs.start("Moving the store aside")?;
        self.store.move_aside()
    }

    /// The first `limit` elements matching `query` in `snapshot`, or in the latest
    /// complete snapshot of `plant` from the active profile.
    pub fn search(
        &self,
        plant: &str,
        query: &str,
        snapshot: Option<i64>,
        limit: usize,
    ) -> Result<SearchAnswer> {
        let session = self.session();
        let chosen = self
            .store
            .chosen(snapshot, Some(plant), Some(session.snapshot_source()))?;
        self.store.search(chosen, query, limit)
    }

    /// The changes from `old` to `new`; both `None`: the latest two complete snapshots
    /// of `plant` from the active profile.
    pub fn changes(&self, plant: &str, old: Option<i64>, new: Option<i64>) -> Result<ChangesView> {
        let session = self.session();
        let (old, new) =
            self.store
                .chosen_pair(old.zip(new), Some(plant), Some(session.snapshot_source()))?;
        self.store.changes(old, new)
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
        let changes = self.store.read(|store| store.diff(old, new))?.changes;
        let save_as = SaveAs {
            name: name.into(),
            extension,
        };
        let Some(path) = choose(save_as).await? else {
            return Ok(None);
        };
        let bytes = match extension {
            "csv" => changes_csv(&changes)?,
            _ => serde_json::to_vec_pretty(&changes).map_err(|e| {
                Error::Internal(format!("the changes cannot be written as JSON: {e}"))
            })?,
        };
        aas_export::write_atomically(&path, &bytes)?;
        self.exported(path.clone());
        Ok(Some(path))
    }

    /// Asks `choose` where to save, then writes `snapshot` (or the latest complete one
    /// of `plant` from the active profile) in `format`; `None` when the user cancelled
    /// the choice.
    pub async fn export_snapshot<F, Fut>(
        &self,
        plant: &str,
        snapshot: Option<i64>,
        format: &str,
        choose: F,
    ) -> Result<Option<SavedFile>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let _job = self.jobs.start("An export")?;
        let format: Format = format.parse().map_err(Error::BadRequest)?;
        let session = self.session();
        let id = self
            .store
            .chosen(snapshot, Some(plant), Some(session.snapshot_source()))?
            .id;
        let Some(path) = choose(save_as(format)).await? else {
            return Ok(None);
        };
        let exported = self.store.export(id, format, path.clone()).await?;
        self.exported(path.clone());
        Ok(Some(SavedFile::of(path, exported)))
    }
}

/// The changes as CSV: change, aas_id, submodel, path (idShorts joined by `/`), old, new.
pub fn changes_csv(changes: &[Change]) -> Result<Vec<u8>> {
    // Only a bug fails a write into memory.
    let failed = |e: &dyn std::fmt::Display| Error::Internal(format!("cannot write the CSV: {e}"));
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
