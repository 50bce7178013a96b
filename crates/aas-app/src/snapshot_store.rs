//! The snapshot store as both front ends use it, and the one home of its rules: which
//! snapshot a command means when none is named (the newest complete one of a plant from
//! one source), recording a crawl, keeping the newest N, and search with each hit's
//! asset type. One reader stays open while the store is in use: searches as the user
//! types, hits opened and nodes browsed reuse it instead of opening the file each time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use aas_client::{
    Client, Crawl, CrawlPlan, Progress, ReadStep, Reading, RepositoryPlan, RepositoryProgress,
    Secret, V3Server,
};
use aas_export::{Exported, Format};
use aas_model::AssetType;
use aas_output::About;
use aas_snapshot::{Access, Change, Hit, SnapshotInfo, SnapshotWriter, Store};
use aas_source::{Selection, Source};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::{lock, snapshot_store_path, Error, Result, StoreKind};
use aas_model::FileError;

/// How many complete snapshots of a plant and source are kept when nobody said.
pub const DEFAULT_KEEP: usize = 10;

/// The snapshot store at one path, shared by the app and `aasmd` (each process has its
/// own `SnapshotStore`; SQLite keeps them apart).
#[derive(Debug)]
pub struct SnapshotStore {
    /// A file, or a team store's URL without its password.
    path: PathBuf,
    /// A team store's password, from the OS keychain (else libpq's ways apply).
    password: Option<Secret>,
    /// Opened on the first read; a store that is not there yet is looked for again.
    reader: Mutex<Option<Store>>,
    /// The asset type and idShort of each shell of the snapshot searched last: hits name
    /// them without reading the AAS lists again as the user types.
    shell_types: Mutex<Option<(i64, Arc<TypeOfShell>)>>,
}

type TypeOfShell = HashMap<String, (AssetType, Option<String>)>;

/// A snapshot taken: what the store recorded, the crawl behind it, and the older
/// snapshots removed to keep the newest ones only.
#[derive(Debug)]
pub struct Taken {
    pub info: SnapshotInfo,
    pub crawl: Crawl,
    pub retired: Vec<i64>,
}

/// A V3 server taken into the store: what the store recorded, what the reading did,
/// and the older snapshots of the server removed to keep the newest ones only.
#[derive(Debug)]
pub struct TakenV3 {
    pub info: SnapshotInfo,
    pub reading: Reading,
    pub retired: Vec<i64>,
}

/// The source a file's snapshots come from; their plant is the file's name.
pub const FILE_SOURCE: &str = "file";

/// The source an AAS V3 server's snapshots come from; their plant is its address.
pub const V3_SOURCE: &str = "v3";

/// A file taken into the store: what the store recorded, and the older snapshots of
/// the same file name removed to keep the newest ones only.
#[derive(Debug)]
pub struct Imported {
    pub info: SnapshotInfo,
    pub retired: Vec<i64>,
}

/// A search's hits and the snapshot they come from.
#[derive(Debug, Serialize)]
pub struct SearchReply {
    pub snapshot: SnapshotInfo,
    pub hits: Vec<PlantHit>,
}

/// A hit with the asset type whose list holds its shell, so the page can open it, and
/// the shell's idShort there, so the page names it as the tree does.
#[derive(Debug, Serialize)]
pub struct PlantHit {
    #[serde(flatten)]
    pub hit: Hit,
    pub asset_type: Option<AssetType>,
    pub id_short: Option<String>,
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

impl SnapshotStore {
    pub fn at(path: PathBuf) -> Self {
        SnapshotStore {
            path,
            password: None,
            reader: Mutex::new(None),
            shell_types: Mutex::new(None),
        }
    }

    /// The team store at `url` (without a password), logging in with `password`.
    pub fn team(url: &str, password: Option<Secret>) -> Self {
        SnapshotStore {
            password,
            ..Self::at(PathBuf::from(url))
        }
    }

    /// The same store with a reader of its own (a long read on another thread leaves
    /// this one's reader to the searches meanwhile).
    pub(crate) fn another(&self) -> Self {
        SnapshotStore {
            password: self.password.clone(),
            ..Self::at(self.path.clone())
        }
    }

    /// Opens the store (its password put into the URL for this connection only).
    fn open(&self, access: Access) -> aas_snapshot::Result<Store> {
        Store::open(&self.address(), access)
    }

    /// Where the store is, for opening it: a team store's URL with its password.
    pub(crate) fn address(&self) -> PathBuf {
        match (&self.password, self.path.to_str()) {
            (Some(password), Some(url)) => {
                PathBuf::from(aas_snapshot::with_password(url, password.expose()))
            }
            _ => self.path.clone(),
        }
    }

    /// The store in the app's local data folder, shared with `aasmd`.
    pub fn app_default() -> Result<Self> {
        Ok(Self::at(snapshot_store_path()?))
    }

    /// A team store (a URL) or this computer's file.
    pub fn place(&self) -> StoreKind {
        match self.path.to_str().is_some_and(aas_snapshot::is_url) {
            true => StoreKind::Team,
            false => StoreKind::Here,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes a team store's tables (`create`), or brings them up to date, letting the
    /// roles `readers` read them (see `Store::init_team`); the schema version found
    /// before. A snapshot file needs neither: a take makes it, a read updates it.
    pub fn init_team(&self, create: bool, readers: &[String]) -> Result<i64> {
        let Some(url) = self.path.to_str().filter(|p| aas_snapshot::is_url(p)) else {
            return Err(Error::BadRequest(format!(
                "{} is a snapshot file, not a team store (a postgres:// URL): a file needs no init, a take makes it",
                self.path.display()
            )));
        };
        Ok(Store::init_team(url, create, readers)?)
    }

    /// `read` with the store's reader (it never creates or changes a store).
    pub fn read<T>(&self, read: impl FnOnce(&Store) -> aas_snapshot::Result<T>) -> Result<T> {
        let mut reader = lock(&self.reader);
        let store = match reader.take() {
            Some(store) => store,
            None => self.open(Access::Read)?,
        };
        Ok(read(reader.insert(store))?)
    }

    /// The snapshots of `plant` (from `source` only, when given), newest first; none
    /// before the first take.
    pub fn newest_first(&self, plant: &str, source: Option<&str>) -> Result<Vec<SnapshotInfo>> {
        let mut list = match self.read(|store| store.list(Some(plant))) {
            Err(Error::Snapshot(aas_snapshot::Error::NoStore(_))) => Vec::new(),
            list => list?,
        };
        list.retain(|s| source.is_none_or(|source| s.source == source));
        list.reverse();
        Ok(list)
    }

    /// The file's size, 0 before the first take.
    pub fn bytes(&self) -> u64 {
        self.read(|store| Ok(store.size())).unwrap_or(0)
    }

    /// Snapshot `id`, or the newest complete one of `plant` (the store's only plant when
    /// `None`) from `source` (the plant's only source when `None`).
    pub fn chosen(
        &self,
        id: Option<i64>,
        plant: Option<&str>,
        source: Option<&str>,
    ) -> Result<SnapshotInfo> {
        match id {
            Some(id) => self.read(|store| store.snapshot(id)),
            None => Ok(self.complete_newest_first(plant, source)?.remove(0)),
        }
    }

    /// Snapshots `ids` (older, newer), or the newest two complete ones of the plant and
    /// source as [`SnapshotStore::chosen`] picks them.
    pub fn chosen_pair(
        &self,
        ids: Option<(i64, i64)>,
        plant: Option<&str>,
        source: Option<&str>,
    ) -> Result<(SnapshotInfo, SnapshotInfo)> {
        if let Some((old, new)) = ids {
            return self.read(|store| Ok((store.snapshot(old)?, store.snapshot(new)?)));
        }
        let mut newest_first = self.complete_newest_first(plant, source)?.into_iter();
        let newest = newest_first.next().expect("never empty");
        match newest_first.next() {
            Some(older) => Ok((older, newest)),
            None => Err(Error::NoSnapshot(format!(
                "only one complete snapshot of {} from {}: changes need two; take another (Take snapshot in the app, or aasmd snapshot take)",
                newest.plant, newest.source
            ))),
        }
    }

    /// Never empty: no complete snapshot is [`Error::NoSnapshot`].
    fn complete_newest_first(
        &self,
        plant: Option<&str>,
        source: Option<&str>,
    ) -> Result<Vec<SnapshotInfo>> {
        let plant = match plant {
            Some(plant) => plant.to_owned(),
            None => only_plant(self.read(|store| store.plants())?)?,
        };
        let list = self.read(|store| store.complete_newest_first(&plant, source))?;
        if list.is_empty() {
            let from = source.map(|s| format!(" from {s}")).unwrap_or_default();
            return Err(Error::NoSnapshot(format!(
                "there is no complete snapshot of {plant}{from} yet: take one (Take snapshot in the app, or aasmd snapshot take --plant {plant})"
            )));
        }
        Ok(list)
    }

    /// Crawls `plan` into a new snapshot from `source`, then keeps the newest `keep`
    /// complete snapshots of the plant and source. Cancelled, it keeps what was fetched
    /// as a partial snapshot.
    pub async fn take(
        &self,
        client: &Arc<Client>,
        source: &str,
        plan: &CrawlPlan,
        keep: usize,
        cancel: &CancellationToken,
        on_progress: impl Fn(&Progress),
    ) -> Result<Taken> {
        let mut store = self.open(Access::Create)?;
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
        let info = writer.finish_crawl(&crawl)?;
        let retired = store.retire(source, &plan.plant, keep)?;
        Ok(Taken {
            info,
            crawl,
            retired,
        })
    }

    /// Reads the V3 server `server` into a new snapshot (from [`V3_SOURCE`], its plant
    /// the server's address) shell by shell: the AAS lists once every shell is listed
    /// (before any submodel: a snapshot killed later keeps them), each shell's answers as
    /// soon as its submodels are read, so the server is never held whole. Then keeps the
    /// newest `keep` complete snapshots of it. Cancelled, or with failures, what was
    /// read is kept as a partial snapshot; when not even the first page of shells can be
    /// had, no snapshot is left.
    pub async fn take_v3(
        &self,
        server: &Arc<V3Server>,
        keep: usize,
        cancel: &CancellationToken,
        on_progress: &(dyn Fn(RepositoryProgress) + Send + Sync),
    ) -> Result<TakenV3> {
        let mut store = self.open(Access::Create)?;
        let address = server.address().to_owned();
        let mut writer = store.begin(V3_SOURCE, &address, SystemTime::now())?;
        let mut shaping = aas_file::ShellByShell::new(&address);
        // The first failure to write stops the reading: nothing is fetched to be lost.
        let mut unwritten = None;
        let mut each = |step: ReadStep| {
            if unwritten.is_none() {
                if let Err(e) = write_step(&mut shaping, &mut writer, step) {
                    unwritten = Some(e);
                    cancel.cancel();
                }
            }
        };
        let plan = RepositoryPlan::default();
        let reading = server
            .read_each_shell(plan, cancel, on_progress, &mut each)
            .await;
        if let Some(e) = unwritten {
            return Err(e);
        }
        let reading = match reading {
            Ok(reading) => reading,
            Err(e) => {
                let id = writer.id();
                drop(writer);
                store.remove(id)?;
                return Err(e.into());
            }
        };
        // A listing cut short leaves its shells' lists to be written now.
        for list in shaping.take_lists() {
            writer.answer(list)?;
        }
        for failure in &reading.failures {
            writer.failure(failure)?;
        }
        let info = writer.finish(reading.complete())?;
        let retired = store.retire(V3_SOURCE, &address, keep)?;
        Ok(TakenV3 {
            info,
            reading,
            retired,
        })
    }

    /// Takes the AAS file at `path` into a new snapshot (from [`FILE_SOURCE`], its plant
    /// the file's name), then keeps the newest `keep` complete snapshots of that name.
    /// Search, Changes, the table and the audit then read it as any.
    pub fn import_file(&self, path: &Path, keep: usize) -> Result<Imported> {
        self.import(&aas_file::answers(path)?, FILE_SOURCE, keep)
    }

    /// Takes `answers`, read whole from `source` (a file, a V3 server), into a new
    /// snapshot, then keeps the newest `keep` complete snapshots of its plant and source.
    pub fn import(&self, answers: &dyn Source, source: &str, keep: usize) -> Result<Imported> {
        let mut store = self.open(Access::Create)?;
        let info = store.import(answers, source)?;
        let retired = store.retire(source, &info.plant, keep)?;
        Ok(Imported { info, retired })
    }

    pub fn remove(&self, id: i64) -> Result<()> {
        Ok(self.open(Access::Write)?.remove(id)?)
    }

    /// The first `limit` elements of `snapshot` matching `query`, each with its shell's
    /// asset type and idShort.
    pub fn search(&self, snapshot: SnapshotInfo, query: &str, limit: usize) -> Result<SearchReply> {
        let (hits, types) = self.read(|store| {
            let hits = store.search(snapshot.id, query, limit)?;
            Ok((hits, self.shell_types(store, snapshot.id)?))
        })?;
        let hits = hits
            .into_iter()
            .map(|hit| {
                let shell = types.get(&hit.aas_id);
                PlantHit {
                    asset_type: shell.map(|(asset_type, _)| asset_type.clone()),
                    id_short: shell.and_then(|(_, id_short)| id_short.clone()),
                    hit,
                }
            })
            .collect();
        Ok(SearchReply { snapshot, hits })
    }

    fn shell_types(&self, store: &Store, id: i64) -> aas_snapshot::Result<Arc<TypeOfShell>> {
        let mut cached = lock(&self.shell_types);
        if let Some((_, types)) = cached.as_ref().filter(|(of, _)| *of == id) {
            return Ok(Arc::clone(types));
        }
        let types = Arc::new(store.shell_types(id)?);
        *cached = Some((id, Arc::clone(&types)));
        Ok(types)
    }

    /// The changes from `old` to `new`.
    pub fn changes(&self, old: SnapshotInfo, new: SnapshotInfo) -> Result<ChangesView> {
        let diff = self.read(|store| store.diff(old.id, new.id))?;
        Ok(ChangesView {
            old,
            new,
            changes: diff.changes,
            warnings: diff.warnings,
        })
    }

    /// Writes snapshot `id` as `format` to `out`; what was written. Seconds of reading and
    /// writing: off the async workers, with a reader of its own so that searches
    /// meanwhile are not held up.
    pub async fn export(&self, id: i64, format: Format, out: PathBuf) -> Result<Exported> {
        let address = self.address();
        tokio::task::spawn_blocking(move || {
            Ok(Store::open(&address, Access::Read)?.export(id, format, &out)?)
        })
        .await
        .map_err(Error::stopped)?
    }

    /// Renames a damaged store to `<name>.damaged-<unix seconds>` beside it; the next
    /// use starts a new one.
    pub fn move_aside(&self) -> Result<MovedAside> {
        lock(&self.reader).take();
        lock(&self.shell_types).take();
        let stamp = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let moved_to = PathBuf::from(format!("{}.damaged-{stamp}", self.path.display()));
        std::fs::rename(&self.path, &moved_to).map_err(|source| {
            Error::File(FileError {
                action: "move aside",
                path: self.path.clone(),
                source,
            })
        })?;
        // The log beside it belongs to the damaged file, not to the next store.
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.path.display()));
        }
        Ok(MovedAside { moved_to })
    }
}

/// What a file made from `snapshot` (a table, an audit's findings) says it was made
/// from.
pub fn about_snapshot(snapshot: &SnapshotInfo, asset_type: Option<&AssetType>) -> About {
    About {
        source: format!("snapshot {} ({})", snapshot.id, snapshot.source),
        plant: snapshot.plant.clone(),
        asset_type: asset_type.map_or("all", |t| t.code()).to_owned(),
        taken_at: snapshot.taken_at.clone(),
        written_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    }
}

/// The plant of a store that holds one; else what to say.
fn only_plant(plants: Vec<String>) -> Result<String> {
    match plants.as_slice() {
        [] => Err(Error::NoSnapshot(
            "the store holds no snapshot yet: take one (Take snapshot in the app, or aasmd snapshot take --plant P)".into(),
        )),
        [only] => Ok(only.clone()),
        several => Err(Error::BadRequest(format!(
            "the store holds snapshots of several plants ({}); say which (--plant)",
            several.join(", ")
        ))),
    }
}

/// Writes what one step of a V3 server's reading gives: the AAS lists once every shell
/// is listed (their shells' text is then let go), the answers below a shell once its
/// submodels are in.
fn write_step(
    shaping: &mut aas_file::ShellByShell,
    writer: &mut SnapshotWriter<'_>,
    step: ReadStep,
) -> Result<()> {
    match step {
        ReadStep::Listed(shell) => shaping.listed(&shell)?,
        ReadStep::AllListed => {
            for list in shaping.take_lists() {
                writer.answer(list)?;
            }
        }
        ReadStep::Gathered(gathered) => {
            let submodels: Vec<&serde_json::value::RawValue> =
                gathered.submodels.iter().map(|s| &***s).collect();
            let shaped = shaping.shell(&gathered.aas_id, &submodels)?;
            for answer in shaped.answers {
                writer.answer(answer)?;
            }
            for part in &shaped.unreadable {
                writer.unreadable(part)?;
            }
        }
    }
    Ok(())
}
