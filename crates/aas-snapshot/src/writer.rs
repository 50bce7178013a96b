//! Writing one snapshot as the crawl goes: each answer's body once per content hash,
//! its row, and the element index of a new elements answer. Rows are committed in
//! batches, so a crash loses at most the last batch and the snapshot stays marked as
//! being taken until the next writer marks it partial.

use std::fs::File;
use std::path::{Path, PathBuf};

use aas_client::{Failure, Fetched, NodePath};
use rusqlite::params;
use sha2::{Digest, Sha256};

use crate::index::element_rows;
use crate::store::{SnapshotInfo, Store};
use crate::{Error, Result};

/// Answers written per transaction.
const BATCH: usize = 2000;

/// The one-writer lock: an OS lock on a file beside the store, released when dropped
/// (or when the process dies).
#[derive(Debug)]
pub(crate) struct WriterLock {
    /// Held only for its lock.
    _file: File,
}

impl WriterLock {
    pub(crate) fn take(store: &Path) -> Result<WriterLock> {
        let path = PathBuf::from(format!("{}.writer-lock", store.display()));
        let io = |action, source| Error::Io {
            action,
            path: path.clone(),
            source,
        };
        let file = File::create(&path).map_err(|e| io("create", e))?;
        match file.try_lock() {
            Ok(()) => Ok(WriterLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::Busy {
                path: store.to_owned(),
            }),
            Err(std::fs::TryLockError::Error(e)) => Err(io("lock", e)),
        }
    }
}

/// A snapshot being taken. [`SnapshotWriter::finish`] ends it; dropped without, it
/// keeps what was written and is marked partial by the next writer.
#[derive(Debug)]
pub struct SnapshotWriter<'s> {
    store: &'s mut Store,
    id: i64,
    _lock: WriterLock,
    seq: i64,
    in_batch: usize,
    nodes: u64,
    shells: u64,
    bytes: u64,
}

impl<'s> SnapshotWriter<'s> {
    pub(crate) fn new(store: &'s mut Store, id: i64, lock: WriterLock) -> Self {
        SnapshotWriter {
            store,
            id,
            _lock: lock,
            seq: 0,
            in_batch: 0,
            nodes: 0,
            shells: 0,
            bytes: 0,
        }
    }

    pub fn id(&self) -> i64 {
        self.id
    }

    /// Keeps one answer of the crawl.
    pub fn answer(&mut self, fetched: &Fetched) -> Result<()> {
        self.in_transaction()?;
        self.insert(fetched)?;
        self.seq += 1;
        self.nodes += 1;
        self.bytes += fetched.raw.len() as u64;
        self.shells += u64::from(matches!(fetched.path, NodePath::Submodels { .. }));
        self.end_batch_if_full()
    }

    /// The rows of one answer: its body (once per content), the element index of a new
    /// elements body, and the answer's own row.
    fn insert(&self, fetched: &Fetched) -> Result<()> {
        let sql = self.store.sql();
        let conn = &self.store.conn;
        let hash = Sha256::digest(fetched.raw.as_bytes()).to_vec();
        // Cached statements: preparing each insert anew was much of a snapshot's time.
        let run = |statement: &str, values: &[&dyn rusqlite::ToSql]| {
            conn.prepare_cached(statement)
                .and_then(|mut s| s.execute(values))
                .map_err(&sql)
        };
        let new_body = run(
            "INSERT OR IGNORE INTO bodies (hash, bytes) VALUES (?1, ?2)",
            params![hash, fetched.raw.as_bytes()],
        )? == 1;
        let (aas_id, submodel) = owners(&fetched.path);
        if new_body && matches!(fetched.path, NodePath::Elements { .. }) {
            for row in element_rows(&fetched.raw) {
                let path = serde_json::to_string(&row.path).unwrap_or_default();
                run(
                    "INSERT INTO elements (hash, path, model_type, value) VALUES (?1, ?2, ?3, ?4)",
                    params![hash, path, row.model_type, row.value],
                )?;
                run(
                    "INSERT INTO element_text (rowid, id_short, value, texts, semantic_id, description)
                     VALUES (last_insert_rowid(), ?1, ?2, ?3, ?4, ?5)",
                    params![
                        row.path.join("/"),
                        row.value,
                        row.texts,
                        row.semantic_id,
                        row.description
                    ],
                )?;
            }
        }
        run(
            "INSERT INTO answers (snapshot, seq, path, url, hash, aas_id, submodel)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                self.id,
                self.seq,
                path_key(&fetched.path),
                fetched.url,
                hash,
                aas_id,
                submodel
            ],
        )?;
        Ok(())
    }

    /// Keeps a node that failed, with its reason.
    pub fn failure(&mut self, failure: &Failure) -> Result<()> {
        self.in_transaction()?;
        let kind = serde_json::to_value(failure.kind)
            .ok()
            .and_then(|k| k.as_str().map(str::to_owned))
            .unwrap_or_default();
        self.store
            .conn
            .execute(
                "INSERT INTO failures (snapshot, path, url, kind, message) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![self.id, path_key(&failure.path), failure.url, kind, failure.message],
            )
            .map_err(self.store.sql())?;
        self.shells += u64::from(matches!(failure.path, NodePath::Submodels { .. }));
        self.end_batch_if_full()
    }

    /// Ends the snapshot, complete or partial.
    pub fn finish(mut self, complete: bool) -> Result<SnapshotInfo> {
        self.in_transaction()?;
        let state = if complete { "complete" } else { "partial" };
        self.store
            .conn
            .execute(
                "UPDATE snapshots SET state = ?2, nodes = ?3, shells = ?4, bytes = ?5 WHERE id = ?1",
                params![self.id, state, self.nodes, self.shells, self.bytes],
            )
            .map_err(self.store.sql())?;
        self.commit()?;
        self.store.snapshot(self.id)
    }

    fn in_transaction(&mut self) -> Result<()> {
        if self.store.conn.is_autocommit() {
            self.store
                .conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(self.store.sql())?;
        }
        Ok(())
    }

    fn end_batch_if_full(&mut self) -> Result<()> {
        self.in_batch += 1;
        if self.in_batch >= BATCH {
            self.commit()?;
        }
        Ok(())
    }

    fn commit(&mut self) -> Result<()> {
        self.in_batch = 0;
        if self.store.conn.is_autocommit() {
            return Ok(());
        }
        self.store
            .conn
            .execute_batch("COMMIT")
            .map_err(self.store.sql())
    }
}

impl Drop for SnapshotWriter<'_> {
    /// What was written stays (a failure here has nowhere to go: the next writer marks
    /// the snapshot partial either way).
    fn drop(&mut self) {
        let _ = self.commit();
    }
}

/// The answer's place in the tree, as the raw export names it.
pub(crate) fn path_key(path: &NodePath) -> String {
    serde_json::to_string(path).unwrap_or_default()
}

/// The shell and submodel an answer belongs to.
fn owners(path: &NodePath) -> (Option<&str>, Option<&str>) {
    match path {
        NodePath::Registry | NodePath::AasList { .. } => (None, None),
        NodePath::Submodels { aas_id } => (Some(aas_id), None),
        NodePath::Elements { aas_id, submodel } => (Some(aas_id), Some(submodel)),
    }
}
