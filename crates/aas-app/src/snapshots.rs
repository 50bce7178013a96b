//! The page's snapshot commands: the store's rules ([`crate::SnapshotStore`]) applied to
//! the active profile (its snapshots are those it took), with the job slot, the
//! keep-N preference and the save dialog.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use aas_client::Progress;
use aas_export::Format;
use aas_output::SafeCsv;
use aas_snapshot::{Change, SnapshotInfo};
use aas_source::ErrorKind;
use serde::{Deserialize, Serialize};

use crate::content::{day_of, SaveAs};
use crate::convert::SavedFile;
use crate::export_job::{plan, save_as};
use crate::opened_file::Origin;
use crate::save_export::write_bytes;
use crate::snapshot_ref::placed;
use crate::{
    App, ChangesView, CrawlSummary, Error, MovedAside, PlacedSnapshot, Result, SearchReply,
    SnapshotRef, SnapshotStore, StoreKind, FILE_SOURCE, V3_SOURCE,
};

/// What "Take snapshot" did, for the page.
#[derive(Debug, Serialize)]
pub struct SnapshotTaken {
    pub snapshot: SnapshotInfo,
    #[serde(flatten)]
    pub loaded: CrawlSummary,
    pub retired: Vec<i64>,
}

/// The snapshots of a plant, newest first: those the active profile took on this
/// computer and those of the team store, each with where it lives.
#[derive(Debug, Serialize)]
pub struct SnapshotList {
    pub store: StoreView,
    /// The team store, when the preferences name one.
    pub team: Option<TeamView>,
    pub keep: usize,
    pub snapshots: Vec<PlacedSnapshot>,
}

#[derive(Debug, Serialize)]
pub struct StoreView {
    pub path: PathBuf,
    pub bytes: u64,
}

/// The team store as the Snapshots dialog shows it: its URL (never with a password) and,
/// when it could not be read, why (this computer's snapshots are listed all the same).
#[derive(Debug, Serialize)]
pub struct TeamView {
    pub url: String,
    pub problem: Option<String>,
    pub problem_kind: Option<ErrorKind>,
}

/// The changes between two snapshots of one store.
#[derive(Debug, Serialize)]
pub struct PlacedChanges {
    #[serde(flatten)]
    pub view: ChangesView,
    pub store: StoreKind,
}

/// What the Snapshots dialog asks, through one command (`{"what": "list", "plant": …}`):
/// the desktop shell passes it on.
#[derive(Debug, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum SnapshotsAsk {
    List { plant: String },
    Delete { snapshot: SnapshotRef },
    MoveAside,
}

/// The answer to a [`SnapshotsAsk`]; `Done` is JSON's null.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum SnapshotsReply {
    List(SnapshotList),
    Moved(MovedAside),
    Done,
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
        let taken = (self.stores.here)
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

    /// Takes the file open on screen (numbered `file`; or the V3 server read as one) into
    /// this computer's store, as a snapshot of its own (its plant: the file's name, the
    /// server's address), keeping the newest ones as the
    /// preferences say: search, Changes, the Table and Quality then read it.
    pub async fn take_file_in(&self, file: u32) -> Result<PlacedSnapshot> {
        let _job = self.jobs.start("Taking the file in")?;
        let opened = self.whole_file(file).await?;
        let source = match opened.origin {
            Origin::File(_) => FILE_SOURCE,
            Origin::V3Server { .. } => V3_SOURCE,
        };
        let keep = self.preferences().keep_snapshots;
        let store = Arc::clone(&self.stores.here);
        let imported =
            tokio::task::spawn_blocking(move || store.import(&opened.answers()?, source, keep))
                .await
                .map_err(|e| Error::internal("taking the file in stopped", e))??;
        Ok(placed(imported.info, StoreKind::Here))
    }

    /// The snapshots of `plant`, newest first: the active profile's on this computer,
    /// those of a file taken in under that name, and every one of the team store (its
    /// scheduled takes run under profiles of their own). A team store that cannot be
    /// read is named with why, not an error.
    pub fn snapshots(&self, plant: &str) -> Result<SnapshotList> {
        let session = self.session();
        let sources = [session.snapshot_source(), FILE_SOURCE, V3_SOURCE];
        let here = (self.stores.here).newest_first(plant, None)?;
        let mut snapshots: Vec<_> = (here.into_iter())
            .filter(|s| sources.contains(&s.source.as_str()))
            .map(|s| placed(s, StoreKind::Here))
            .collect();
        let team = match self.team_store() {
            Ok(None) => None,
            Ok(Some(team)) => {
                let url = team.path().to_string_lossy().into_owned();
                Some(match team.newest_first(plant, None) {
                    Ok(list) => {
                        snapshots.extend(list.into_iter().map(|s| placed(s, StoreKind::Team)));
                        TeamView::read(url)
                    }
                    Err(e) => TeamView::unread(url, &e),
                })
            }
            Err(e) => self
                .preferences()
                .team_store
                .map(|url| TeamView::unread(url, &e)),
        };
        // RFC 3339 in UTC: the text orders as the times do.
        snapshots.sort_by(|a, b| b.info.taken_at.cmp(&a.info.taken_at));
        Ok(SnapshotList {
            store: StoreView {
                path: self.stores.here.path().to_owned(),
                bytes: self.stores.here.bytes(),
            },
            team,
            keep: self.preferences().keep_snapshots,
            snapshots,
        })
    }

    pub fn delete_snapshot(&self, snapshot: SnapshotRef) -> Result<()> {
        self.store_at(snapshot.store)?.remove(snapshot.id)
    }

    /// Renames a damaged store beside it; the next use starts a new one.
    pub fn move_store_aside(&self) -> Result<MovedAside> {
        let _job = self.jobs.start("Moving the store aside")?;
        self.stores.here.move_aside()
    }

    /// What the Snapshots dialog asks, answered.
    pub fn snapshots_ask(&self, ask: SnapshotsAsk) -> Result<SnapshotsReply> {
        Ok(match ask {
            SnapshotsAsk::List { plant } => SnapshotsReply::List(self.snapshots(&plant)?),
            SnapshotsAsk::Delete { snapshot } => {
                self.delete_snapshot(snapshot)?;
                SnapshotsReply::Done
            }
            SnapshotsAsk::MoveAside => SnapshotsReply::Moved(self.move_store_aside()?),
        })
    }

    /// The first `limit` elements matching `query` in `snapshot`, or in the latest
    /// complete snapshot of `plant` (see [`App::snapshot`]).
    pub fn search(
        &self,
        plant: &str,
        query: &str,
        snapshot: Option<SnapshotRef>,
        limit: usize,
    ) -> Result<SearchReply> {
        let (store, chosen) = self.snapshot(snapshot, plant)?;
        store.search(chosen.info, query, limit)
    }

    /// The changes from `old` to `new` (two snapshots of one store); both `None`: the
    /// latest two complete snapshots of `plant` from the active profile on this computer.
    pub fn changes(
        &self,
        plant: &str,
        old: Option<SnapshotRef>,
        new: Option<SnapshotRef>,
    ) -> Result<PlacedChanges> {
        let (place, ids) = match old.zip(new) {
            Some((old, new)) => (one_store(old, new)?, Some((old.id, new.id))),
            None => (StoreKind::Here, None),
        };
        let store = self.store_at(place)?;
        let source =
            (place == StoreKind::Here).then(|| self.session().snapshot_source().to_owned());
        let (old, new) = store.chosen_pair(ids, Some(plant), source.as_deref())?;
        Ok(PlacedChanges {
            view: store.changes(old, new)?,
            store: place,
        })
    }

    /// Asks `choose` where to save, then writes the changes from `old` to `new` as
    /// `csv` or `json`; `None` when the user cancelled the choice.
    pub async fn export_changes<F, Fut>(
        &self,
        old: SnapshotRef,
        new: SnapshotRef,
        format: &str,
        choose: F,
    ) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let format: ChangesFormat = format.parse().map_err(Error::BadRequest)?;
        let prepare = || {
            let store = self.store_at(one_store(old, new)?)?;
            let (from, to, changes) = store.read(|store| {
                let changes = store.diff(old.id, new.id)?.changes;
                Ok((store.snapshot(old.id)?, store.snapshot(new.id)?, changes))
            })?;
            let (plant, days) = (&to.plant, [day_of(&from.taken_at), day_of(&to.taken_at)]);
            let parts = [plant.as_str(), "changes", days[0], "to", days[1]];
            Ok((SaveAs::describing(&parts, format.extension()), changes))
        };
        let write = |path: PathBuf, changes: Vec<Change>| async move {
            let bytes = match format {
                ChangesFormat::Csv => changes_csv(&changes)?,
                ChangesFormat::Json => serde_json::to_vec_pretty(&changes)
                    .map_err(|e| Error::internal("the changes cannot be written as JSON", e))?,
            };
            write_bytes(&path, &bytes)
        };
        let saved = self.save_export(prepare, choose, write).await?;
        Ok(saved.map(|(path, ())| path))
    }

    /// Asks `choose` where to save, then writes `snapshot` (or the latest complete one
    /// of `plant` from the active profile) in `format`; `None` when the user cancelled
    /// the choice.
    pub async fn export_snapshot<F, Fut>(
        &self,
        plant: &str,
        snapshot: Option<SnapshotRef>,
        format: &str,
        choose: F,
    ) -> Result<Option<SavedFile>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let format: Format = format.parse().map_err(Error::BadRequest)?;
        let prepare = || {
            let chosen = self.snapshot(snapshot, plant)?;
            let info = &chosen.1.info;
            let offer = save_as(format, &[&info.plant, day_of(&info.taken_at)]);
            Ok((offer, chosen))
        };
        let write = |path: PathBuf, (store, chosen): (Arc<SnapshotStore>, PlacedSnapshot)| async move {
            store.export(chosen.info.id, format, path).await
        };
        let saved = self.save_export(prepare, choose, write).await?;
        Ok(saved.map(|(path, exported)| SavedFile::of(path, exported)))
    }
}

/// How the Changes are written.
#[derive(Debug, Clone, Copy)]
enum ChangesFormat {
    Csv,
    Json,
}

impl ChangesFormat {
    fn extension(self) -> &'static str {
        match self {
            ChangesFormat::Csv => "csv",
            ChangesFormat::Json => "json",
        }
    }
}

impl std::str::FromStr for ChangesFormat {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "csv" => Ok(ChangesFormat::Csv),
            "json" => Ok(ChangesFormat::Json),
            other => Err(format!("unknown format {other:?}; expected csv or json")),
        }
    }
}

/// The store of two snapshots compared: one, since ids are each store's own.
fn one_store(old: SnapshotRef, new: SnapshotRef) -> Result<StoreKind> {
    if old.store != new.store {
        return Err(Error::BadRequest(
            "compare two snapshots of the same store: both on this computer, or both in the team store".into(),
        ));
    }
    Ok(old.store)
}

impl TeamView {
    fn read(url: String) -> Self {
        TeamView {
            url,
            problem: None,
            problem_kind: None,
        }
    }

    /// The team store named but not read, with what to do where its server does not
    /// answer (said at every opening of the Snapshots dialog until it is fixed).
    fn unread(url: String, e: &Error) -> Self {
        let problem = match e.kind() {
            ErrorKind::Offline => format!(
                "{e}. Check that its server runs and that the address is right, or choose \
                 No team store to list this computer's snapshots only."
            ),
            _ => e.to_string(),
        };
        TeamView {
            url,
            problem: Some(problem),
            problem_kind: Some(e.kind()),
        }
    }
}

/// The changes as CSV: change, aas_id, submodel, path (idShorts joined by `/`), old, new.
pub fn changes_csv(changes: &[Change]) -> Result<Vec<u8>> {
    // Only a bug fails a write into memory.
    let failed = |e: std::io::Error| Error::internal("cannot write the CSV", e);
    let mut out = SafeCsv::new(Vec::new());
    let header = ["change", "aas_id", "submodel", "path", "old", "new"];
    out.write_row(&header).map_err(|e| failed(e.into()))?;
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
        out.write_row(&row).map_err(|e| failed(e.into()))?;
    }
    out.into_inner().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_store_that_does_not_answer_says_what_to_do() {
        let refused = Error::Client(aas_client::Error::Offline {
            url: "postgresql://team.invalid/plants".into(),
            reason: "Connection refused (os error 111)".into(),
            source: None,
        });
        let view = TeamView::unread("postgresql://team.invalid/plants".into(), &refused);
        let problem = view.problem.expect("a problem");
        assert!(problem.contains("Connection refused"), "{problem}");
        assert!(
            problem.ends_with("or choose No team store to list this computer's snapshots only."),
            "{problem}"
        );
        assert_eq!(view.problem_kind, Some(ErrorKind::Offline));
    }
}
