//! An open store, whichever database holds it: the list of snapshots, the newest
//! complete ones a caller chooses from, retiring old ones and removing one. Its rows
//! are its [`Backend`]'s.

use std::path::{Path, PathBuf};

use crate::backend::{Access, Backend, SnapshotInfo, Which};
use crate::postgres::{is_url, shown, Postgres};
use crate::sqlite::Sqlite;
use crate::{Error, Result};

/// How messages name the store at `path`: a file by its path, a team store by its URL
/// without its password.
pub fn store_name(path: &Path) -> String {
    match path.to_str().filter(|p| is_url(p)) {
        Some(url) => shown(url),
        None => path.display().to_string(),
    }
}

/// An open snapshot store.
#[derive(Debug)]
pub struct Store {
    pub(crate) db: Box<dyn Backend>,
    pub(crate) path: PathBuf,
}

impl Store {
    /// Opens the store at `path` for `access`: a SQLite file, or the PostgreSQL
    /// database a `postgres://` URL names. A SQLite store of an older schema is brought
    /// up to date first, also for a read (that is the one write a read makes); a team
    /// store only by a writer.
    pub fn open(path: &Path, access: Access) -> Result<Store> {
        if let Some(url) = path.to_str().filter(|p| is_url(p)) {
            return Ok(Store {
                db: Box::new(Postgres::open(url, access)?),
                path: PathBuf::from(shown(url)),
            });
        }
        Ok(Store {
            db: Box::new(Sqlite::open(path, access)?),
            path: path.to_owned(),
        })
    }

    /// Makes a team store's tables in the (empty) database at `url`, or, when not
    /// `create`, brings older ones up to date; lets the roles `readers` read them.
    /// Returns the schema version found before (0: none). Only the writer role can.
    pub fn init_team(url: &str, create: bool, readers: &[String]) -> Result<i64> {
        Postgres::init(url, create, readers)
    }

    /// The schema version this build reads and writes.
    pub fn team_schema() -> i64 {
        crate::postgres::latest()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The snapshots, oldest first (by when they were taken, a copied one among the
    /// others by its own time); only those of `plant` when given.
    pub fn list(&self, plant: Option<&str>) -> Result<Vec<SnapshotInfo>> {
        self.db.snapshots(plant.map_or(Which::All, Which::OfPlant))
    }

    pub fn snapshot(&self, id: i64) -> Result<SnapshotInfo> {
        (self.db.snapshots(Which::One(id))?.pop()).ok_or(Error::NoSuchSnapshot(id))
    }

    /// The complete snapshots of `plant` taken from `source`, newest first: what the app
    /// and `aasmd` choose from by default, so a plant code two platforms share never
    /// mixes them. Without a source, those of the plant's only source; when several
    /// took the plant, [`Error::SeveralSources`] names them.
    pub fn complete_newest_first(
        &self,
        plant: &str,
        source: Option<&str>,
    ) -> Result<Vec<SnapshotInfo>> {
        let mut list = self.list(Some(plant))?;
        let source = match source {
            Some(source) => source.to_owned(),
            None => {
                // Only sources that could be chosen from: a cancelled take of another
                // profile does not make the plant's own history ambiguous.
                let mut sources: Vec<String> = list
                    .iter()
                    .filter(|s| s.complete)
                    .map(|s| s.source.clone())
                    .collect();
                sources.sort();
                sources.dedup();
                match sources.as_slice() {
                    [] => return Ok(Vec::new()),
                    [only] => only.clone(),
                    _ => {
                        return Err(Error::SeveralSources {
                            plant: plant.to_owned(),
                            sources,
                        })
                    }
                }
            }
        };
        list.retain(|s| s.complete && s.source == source);
        list.reverse();
        Ok(list)
    }

    /// The plants that have snapshots, sorted.
    pub fn plants(&self) -> Result<Vec<String>> {
        self.db.plants()
    }

    /// Keeps the newest `keep` complete snapshots of `plant` from `source` (at least
    /// one) and removes every snapshot older than the oldest of them, complete or
    /// partial; while there are fewer complete ones, nothing is removed. Returns the ids
    /// removed, oldest first.
    pub fn retire(&mut self, source: &str, plant: &str, keep: usize) -> Result<Vec<i64>> {
        let mut newest_first: Vec<SnapshotInfo> = self
            .list(Some(plant))?
            .into_iter()
            .filter(|s| s.source == source)
            .collect();
        newest_first.reverse();
        let Some(oldest_kept) = (newest_first.iter().enumerate())
            .filter(|(_, s)| s.complete)
            .nth(keep.max(1) - 1)
            .map(|(at, _)| at)
        else {
            return Ok(Vec::new());
        };
        let mut retired: Vec<i64> = newest_first[oldest_kept + 1..]
            .iter()
            .map(|s| s.id)
            .collect();
        retired.reverse();
        for id in &retired {
            self.remove(*id)?;
        }
        Ok(retired)
    }

    /// Removes snapshot `id`, then every answer body and index row no other snapshot
    /// uses, and gives the space back (to the file system, for SQLite). A snapshot being
    /// taken is refused ([`Error::BeingTaken`]).
    pub fn remove(&mut self, id: i64) -> Result<()> {
        self.db.remove(id)
    }
}
