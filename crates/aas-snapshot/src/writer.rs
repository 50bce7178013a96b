//! Writing one snapshot as the crawl goes. The answers are handed to a thread of
//! their own, through a short queue: the crawl goes on while they are hashed,
//! compressed, indexed and written, and waits only when the writer falls behind. Each
//! body is written once per content hash, with the search index's document of a new
//! elements body; each answer is a row of three integers. Rows are committed in
//! batches, so a crash loses at most the last batch and the snapshot stays marked as
//! being taken until the next writer marks it partial.

use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;
use std::time::SystemTime;

use aas_client::{Body, Crawl, Failure, Fetched, NodeLevel, NodePath, Unreadable};
use rusqlite::{params, Connection, OptionalExtension};

use crate::content::{self, Packer};
use crate::index::index;
use crate::schema::level;
use crate::store::{
    connect, sql_error, SnapshotInfo, Store, WriterLock, BYTES_HELD, NODES_HELD, SHELLS_HELD,
};
use crate::{Error, Result};
use aas_model::FileError;

/// Answers written per transaction, at most.
const BATCH: usize = 2000;
/// Bytes (as received) written per transaction, at most: a batch's memory stays small.
const BATCH_BYTES: usize = 64 << 20;
/// Answers waiting for the writer, at most, before the crawl waits for it.
const QUEUE: usize = 64;

impl Store {
    /// Starts a snapshot of `plant` from `source`, taken at `taken_at` (the crawl's
    /// start). Fails with [`Error::Busy`] while another one is being taken.
    pub fn begin(
        &mut self,
        source: &str,
        plant: &str,
        taken_at: SystemTime,
    ) -> Result<SnapshotWriter<'_>> {
        let lock = WriterLock::take(&self.path)?;
        // Holding the lock, a snapshot still being taken was interrupted: it keeps what
        // its rows hold, counted.
        self.conn
            .execute(
                &format!(
                    "UPDATE snapshots SET state = 'partial', shells = {SHELLS_HELD},
                     nodes = {NODES_HELD}, bytes = {BYTES_HELD} WHERE state = 'taking'"
                ),
                [],
            )
            .map_err(self.sql())?;
        let taken_at = humantime::format_rfc3339_seconds(taken_at).to_string();
        self.conn
            .execute(
                "INSERT INTO snapshots (source, plant, taken_at, state) VALUES (?1, ?2, ?3, 'taking')",
                params![source, plant, taken_at],
            )
            .map_err(self.sql())?;
        let id = self.conn.last_insert_rowid();
        SnapshotWriter::new(self, id, lock)
    }
}

/// A snapshot being taken. [`SnapshotWriter::finish`] ends it; dropped without, it
/// keeps what was written and is marked partial by the next writer.
#[derive(Debug)]
pub struct SnapshotWriter<'s> {
    store: &'s mut Store,
    id: i64,
    _lock: WriterLock,
    queue: Option<SyncSender<Job>>,
    thread: Option<JoinHandle<Result<Tally>>>,
}

#[derive(Debug)]
enum Job {
    Answer(Fetched),
    Failure(Failure),
    Unreadable(Unreadable),
}

/// What a snapshot holds, counted as it is written.
#[derive(Debug, Default)]
struct Tally {
    nodes: u64,
    shells: u64,
    bytes: u64,
}

impl<'s> SnapshotWriter<'s> {
    pub(crate) fn new(store: &'s mut Store, id: i64, lock: WriterLock) -> Result<Self> {
        let conn = connect(&store.path).map_err(sql_error(&store.path))?;
        let path = store.path.clone();
        let (queue, jobs) = sync_channel(QUEUE);
        let thread = std::thread::Builder::new()
            .name("snapshot writer".into())
            .spawn(move || write_jobs(conn, &path, id, jobs))
            .map_err(|source| {
                Error::File(FileError {
                    action: "start a writer for",
                    path: store.path.clone(),
                    source,
                })
            })?;
        Ok(SnapshotWriter {
            store,
            id,
            _lock: lock,
            queue: Some(queue),
            thread: Some(thread),
        })
    }

    pub fn id(&self) -> i64 {
        self.id
    }

    /// Keeps one answer of the crawl. It is written by the writer's thread: an error
    /// there is returned by the next call (or by [`SnapshotWriter::finish`]). Given by
    /// value it is not copied (a 100,000-asset registry is hundreds of megabytes).
    pub fn answer(&mut self, fetched: Fetched) -> Result<()> {
        self.send(Job::Answer(fetched))
    }

    /// Keeps a node that failed, with its reason.
    pub fn failure(&mut self, failure: &Failure) -> Result<()> {
        self.send(Job::Failure(failure.clone()))
    }

    /// Keeps the name of a part of an answer that could not be read, with its reason.
    pub fn unreadable(&mut self, part: &Unreadable) -> Result<()> {
        self.send(Job::Unreadable(part.clone()))
    }

    fn send(&mut self, job: Job) -> Result<()> {
        let sent = self.queue.as_ref().map(|queue| queue.send(job).is_ok());
        if sent == Some(true) {
            return Ok(());
        }
        // The writer stopped: its error says why.
        self.stop()?;
        Err(Error::File(FileError {
            action: "write to",
            path: self.store.path.clone(),
            source: std::io::Error::other("the snapshot's writer stopped after an earlier error"),
        }))
    }

    /// Waits for the writer to write what it was given; its tally.
    fn stop(&mut self) -> Result<Tally> {
        self.queue = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(tally)) => tally,
            Some(Err(_)) => Err(Error::File(FileError {
                action: "write to",
                path: self.store.path.clone(),
                source: std::io::Error::other("the snapshot's writer failed"),
            })),
            None => Ok(Tally::default()),
        }
    }

    /// Ends the snapshot of `crawl`, whose answers it was given: keeps the crawl's
    /// failures and unreadable parts, and is complete only when the crawl ran to its end
    /// with every node answered (the one rule for the app's takes and `aasmd`'s).
    pub fn finish_crawl(mut self, crawl: &Crawl) -> Result<SnapshotInfo> {
        for failure in &crawl.failures {
            self.failure(failure)?;
        }
        for part in &crawl.unreadable {
            self.unreadable(part)?;
        }
        self.finish(!crawl.cancelled && !crawl.is_partial())
    }

    /// Ends the snapshot, complete or partial.
    pub fn finish(mut self, complete: bool) -> Result<SnapshotInfo> {
        let tally = self.stop()?;
        let state = if complete { "complete" } else { "partial" };
        self.store
            .conn
            .execute(
                "UPDATE snapshots SET state = ?2, nodes = ?3, shells = ?4, bytes = ?5 WHERE id = ?1",
                params![self.id, state, tally.nodes, tally.shells, tally.bytes],
            )
            .map_err(self.store.sql())?;
        self.store.snapshot(self.id)
    }
}

impl Drop for SnapshotWriter<'_> {
    /// What was written stays (a failure here has nowhere to go: the next writer marks
    /// the snapshot partial either way).
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// The writer's thread: every job, in batches, until the queue is closed.
fn write_jobs(mut conn: Connection, path: &Path, id: i64, jobs: Receiver<Job>) -> Result<Tally> {
    let sql = sql_error(path);
    let mut packer = Packer::new().map_err(|source| {
        Error::File(FileError {
            action: "compress answers for",
            path: path.to_owned(),
            source,
        })
    })?;
    let mut tally = Tally::default();
    let mut jobs = jobs.into_iter().peekable();
    while jobs.peek().is_some() {
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(&sql)?;
        let (mut answers, mut bytes) = (0, 0);
        for job in jobs.by_ref() {
            match job {
                Job::Answer(fetched) => {
                    bytes += fetched.raw.size() as usize;
                    write_answer(&tx, &mut packer, id, &fetched).map_err(|e| match e {
                        Stored::Sql(e) => sql(e),
                        Stored::Io(source) => Error::File(FileError {
                            action: "keep an answer in",
                            path: path.to_owned(),
                            source,
                        }),
                    })?;
                    tally.nodes += 1;
                    tally.bytes += fetched.raw.size();
                    tally.shells += u64::from(fetched.path.level() == NodeLevel::Submodels);
                }
                Job::Failure(failure) => {
                    write_failure(&tx, id, &failure).map_err(&sql)?;
                    tally.shells += u64::from(failure.path.level() == NodeLevel::Submodels);
                }
                Job::Unreadable(part) => write_unreadable(&tx, id, &part).map_err(&sql)?,
            }
            answers += 1;
            if answers >= BATCH || bytes >= BATCH_BYTES {
                break;
            }
        }
        tx.commit().map_err(&sql)?;
    }
    Ok(tally)
}

/// Why one answer could not be written.
enum Stored {
    Sql(rusqlite::Error),
    Io(std::io::Error),
}

impl From<rusqlite::Error> for Stored {
    fn from(e: rusqlite::Error) -> Self {
        Stored::Sql(e)
    }
}

impl From<std::io::Error> for Stored {
    fn from(e: std::io::Error) -> Self {
        Stored::Io(e)
    }
}

/// The rows of one answer: its body (once per content), the search index's document
/// of a new elements body, its node (once for all snapshots), and the answer's row.
fn write_answer(
    conn: &Connection,
    packer: &mut Packer,
    id: i64,
    fetched: &Fetched,
) -> std::result::Result<(), Stored> {
    let hash = match &fetched.raw {
        Body::Text(raw) => content::hash(raw.as_bytes()),
        spooled => content::hash_stream(spooled.reader()?)?,
    };
    let known: Option<i64> = conn
        .prepare_cached("SELECT id FROM contents WHERE hash = ?1")?
        .query_row([&hash], |row| row.get(0))
        .optional()?;
    let content = match known {
        Some(content) => content,
        None => {
            let content = insert_content(conn, packer, &hash, &fetched.raw)?;
            if fetched.path.level() == NodeLevel::Elements {
                index(conn, content, &fetched.raw.text()?)?;
            }
            content
        }
    };
    let node = node(conn, &fetched.path, &fetched.url)?;
    conn.prepare_cached(
        "INSERT OR IGNORE INTO answers (snapshot, node, content) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![id, node, content])?;
    Ok(())
}

/// A new body's row, its id. A body held in memory is compressed in memory; one in a
/// temporary file (a large plant's registry) is compressed piece by piece into another
/// and copied into its row piece by piece, so it is never in memory whole.
fn insert_content(
    conn: &Connection,
    packer: &mut Packer,
    hash: &[u8],
    body: &Body,
) -> std::result::Result<i64, Stored> {
    let size = body.size() as i64;
    let Body::Text(raw) = body else {
        let (mut packed, packed_size) = content::pack_stream(body.reader()?)?;
        conn.prepare_cached(
            "INSERT INTO contents (hash, size, zstd, bytes) VALUES (?1, ?2, 1, zeroblob(?3))",
        )?
        .execute(params![hash, size, packed_size as i64])?;
        let content = conn.last_insert_rowid();
        let mut row = conn.blob_open(rusqlite::MAIN_DB, "contents", "bytes", content, false)?;
        std::io::copy(&mut packed, &mut row)?;
        return Ok(content);
    };
    let packed = packer.pack(raw.as_bytes())?;
    conn.prepare_cached("INSERT INTO contents (hash, size, zstd, bytes) VALUES (?1, ?2, 1, ?3)")?
        .execute(params![hash, size, packed])?;
    Ok(conn.last_insert_rowid())
}

/// The id of the node at `path` fetched from `url`, added when new.
fn node(conn: &Connection, path: &NodePath, url: &str) -> rusqlite::Result<i64> {
    let [asset_type, aas_id, submodel] = path.keys();
    let keys = params![level(path.level()), asset_type, aas_id, submodel, url];
    let known: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM nodes WHERE level = ?1 AND asset_type = ?2 AND aas_id = ?3
             AND submodel = ?4 AND url = ?5",
        )?
        .query_row(keys, |row| row.get(0))
        .optional()?;
    if let Some(node) = known {
        return Ok(node);
    }
    conn.prepare_cached(
        "INSERT INTO nodes (level, asset_type, aas_id, submodel, url) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(keys)?;
    Ok(conn.last_insert_rowid())
}

fn write_failure(conn: &Connection, id: i64, failure: &Failure) -> rusqlite::Result<()> {
    let kind = serde_json::to_value(failure.kind)
        .ok()
        .and_then(|k| k.as_str().map(str::to_owned))
        .unwrap_or_default();
    conn.prepare_cached(
        "INSERT INTO failures (snapshot, path, url, kind, message) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        id,
        path_key(&failure.path),
        failure.url,
        kind,
        failure.message
    ])?;
    Ok(())
}

fn write_unreadable(conn: &Connection, id: i64, part: &Unreadable) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO unreadable (snapshot, path, url, at, reason) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        id,
        path_key(&part.path),
        part.url,
        part.at,
        part.reason
    ])?;
    Ok(())
}

/// The answer's place in the tree, as the raw export names it.
pub(crate) fn path_key(path: &NodePath) -> String {
    serde_json::to_string(path).unwrap_or_default()
}
