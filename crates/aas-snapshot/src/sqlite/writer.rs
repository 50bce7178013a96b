//! The snapshot writer's connection: its rows in batches of one transaction each, a
//! large body copied into its row piece by piece, and the lock file beside the store
//! that lets one writer at a time take a snapshot into it.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};

use super::open::{connect, file_error};
use super::{index, sql_error, BYTES_HELD, NODES_HELD, SHELLS_HELD};
use crate::backend::{level, BatchWriter, Counts, NewContent, NodeRow, Place};
use crate::{Error, Result};
use aas_model::FileError;

/// The packed size past which a body is copied into its row piece by piece (a large
/// plant's registry, read from a temporary file) rather than bound whole; nearly all
/// are far smaller (an elements answer packs to a few kilobytes).
const WRITTEN_IN_PIECES: u64 = 64 * 1024;

/// The one-writer lock: an OS lock on a file beside the store, released when dropped
/// (or when the process dies).
#[derive(Debug)]
pub(super) struct WriterLock {
    /// Held only for its lock.
    _file: File,
}

impl WriterLock {
    pub(super) fn take(store: &Path) -> Result<WriterLock> {
        let path = PathBuf::from(format!("{}.writer-lock", store.display()));
        let file = file_error(store, "create the writer lock of", File::create(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(WriterLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::Busy {
                path: store.to_owned(),
            }),
            Err(std::fs::TryLockError::Error(e)) => file_error(store, "lock", Err(e)),
        }
    }
}

/// A snapshot writer's connection to the store, holding the store's lock.
pub(super) struct SqliteWriter {
    /// Before the lock: dropped first, the connection rolls back a batch an error left
    /// open while the lock is still held.
    conn: Connection,
    _lock: WriterLock,
    path: PathBuf,
    source: String,
    plant: String,
}

impl SqliteWriter {
    pub(super) fn new(path: &Path, lock: WriterLock, source: &str, plant: &str) -> Result<Self> {
        Ok(SqliteWriter {
            conn: connect(path).map_err(sql_error(path))?,
            _lock: lock,
            path: path.to_owned(),
            source: source.to_owned(),
            plant: plant.to_owned(),
        })
    }

    fn sql(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        sql_error(&self.path)
    }

    /// A new body's row, its id: bound whole when small, else a row of zeros of its size
    /// that `packed` is copied into, so that it is never in memory whole.
    fn insert_content(
        &self,
        hash: &[u8],
        size: u64,
        packed: &mut dyn Read,
        packed_size: u64,
    ) -> Result<i64> {
        let size = size as i64;
        if packed_size <= WRITTEN_IN_PIECES {
            let mut bytes = Vec::with_capacity(packed_size as usize);
            packed.read_to_end(&mut bytes).map_err(self.io())?;
            self.conn
                .prepare_cached(
                    "INSERT INTO contents (hash, size, zstd, bytes) VALUES (?1, ?2, 1, ?3)",
                )
                .and_then(|mut s| s.execute(params![hash, size, bytes]))
                .map_err(self.sql())?;
            return Ok(self.conn.last_insert_rowid());
        }
        self.conn
            .prepare_cached(
                "INSERT INTO contents (hash, size, zstd, bytes) VALUES (?1, ?2, 1, zeroblob(?3))",
            )
            .and_then(|mut s| s.execute(params![hash, size, packed_size as i64]))
            .map_err(self.sql())?;
        let content = self.conn.last_insert_rowid();
        let mut row = (self.conn)
            .blob_open(rusqlite::MAIN_DB, "contents", "bytes", content, false)
            .map_err(self.sql())?;
        std::io::copy(packed, &mut row).map_err(self.io())?;
        Ok(content)
    }

    /// The id of the node at `place`, added when new.
    fn node(&self, place: &Place) -> Result<i64> {
        let [asset_type, aas_id, submodel] = &place.keys;
        let keys = params![level(place.level), asset_type, aas_id, submodel, place.url];
        let known: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT id FROM nodes WHERE level = ?1 AND asset_type = ?2 AND aas_id = ?3
                 AND submodel = ?4 AND url = ?5",
            )
            .and_then(|mut s| s.query_row(keys, |row| row.get(0)).optional())
            .map_err(self.sql())?;
        if let Some(node) = known {
            return Ok(node);
        }
        self.conn
            .prepare_cached(
                "INSERT INTO nodes (level, asset_type, aas_id, submodel, url) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| s.execute(keys))
            .map_err(self.sql())?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The store's error for a body that could not be read or copied into its row.
    fn io(&self) -> impl Fn(std::io::Error) -> Error + '_ {
        |source| {
            Error::File(FileError {
                action: "keep an answer in",
                path: self.path.clone(),
                source,
            })
        }
    }

    /// Adds, with `sql`, a row of snapshot `id`: a node's place, its URL and two texts.
    fn add_node_row(&self, sql: &str, id: i64, row: &NodeRow) -> Result<()> {
        let (path, url, first, second) = row;
        self.conn
            .prepare_cached(sql)
            .and_then(|mut s| s.execute(params![id, path, url, first, second]))
            .map_err(self.sql())?;
        Ok(())
    }
}

impl BatchWriter for SqliteWriter {
    fn start(&mut self, taken_at: &str) -> Result<i64> {
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
        self.insert_snapshot(taken_at)
    }

    fn insert_snapshot(&mut self, taken_at: &str) -> Result<i64> {
        self.conn
            .execute(
                "INSERT INTO snapshots (source, plant, taken_at, state) VALUES (?1, ?2, ?3, 'taking')",
                params![self.source, self.plant, taken_at],
            )
            .map_err(self.sql())?;
        Ok(self.conn.last_insert_rowid())
    }

    fn begin_batch(&mut self) -> Result<()> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(self.sql())
    }

    fn known_contents(&mut self, hashes: &[Vec<u8>]) -> Result<Vec<Option<i64>>> {
        let mut known = self
            .conn
            .prepare_cached("SELECT id FROM contents WHERE hash = ?1")
            .map_err(self.sql())?;
        let found: rusqlite::Result<_> = (hashes.iter())
            .map(|hash| known.query_row([hash], |row| row.get(0)).optional())
            .collect();
        found.map_err(self.sql())
    }

    fn add_contents(&mut self, bodies: Vec<NewContent>) -> Result<Vec<i64>> {
        let mut ids = Vec::with_capacity(bodies.len());
        for mut body in bodies {
            let packed_size = body.packed.len();
            let content = self.insert_content(
                &body.hash,
                body.size,
                &mut body.packed.reader(),
                packed_size,
            )?;
            if let Some(document) = &body.document {
                index(&self.conn, content, document).map_err(self.sql())?;
            }
            ids.push(content);
        }
        Ok(ids)
    }

    fn nodes(&mut self, places: &[Place]) -> Result<Vec<i64>> {
        places.iter().map(|place| self.node(place)).collect()
    }

    fn add_answer(&mut self, id: i64, node: i64, content: i64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT OR IGNORE INTO answers (snapshot, node, content) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut s| s.execute(params![id, node, content]))
            .map_err(self.sql())?;
        Ok(())
    }

    fn add_failure(&mut self, id: i64, row: &NodeRow) -> Result<()> {
        self.add_node_row(
            "INSERT INTO failures (snapshot, path, url, kind, message) VALUES (?1, ?2, ?3, ?4, ?5)",
            id,
            row,
        )
    }

    fn add_unreadable(&mut self, id: i64, row: &NodeRow) -> Result<()> {
        self.add_node_row(
            "INSERT INTO unreadable (snapshot, path, url, at, reason) VALUES (?1, ?2, ?3, ?4, ?5)",
            id,
            row,
        )
    }

    fn commit_batch(&mut self) -> Result<()> {
        self.conn.execute_batch("COMMIT").map_err(self.sql())
    }

    fn finish(&mut self, id: i64, complete: bool, counts: Counts) -> Result<()> {
        let state = if complete { "complete" } else { "partial" };
        self.conn
            .execute(
                "UPDATE snapshots SET state = ?2, nodes = ?3, shells = ?4, bytes = ?5 WHERE id = ?1",
                params![id, state, counts.nodes, counts.shells, counts.bytes],
            )
            .map_err(self.sql())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Access, Backend, Packed};
    use crate::sqlite::Sqlite;

    #[test]
    fn a_body_too_large_to_bind_whole_is_copied_into_its_row_and_reads_back() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("store.sqlite3");
        let store = Sqlite::open(&path, Access::Create).expect("a store");
        let mut writer = store.writer("s", "P").expect("a writer");
        writer.start("2026-11-24T00:00:00Z").expect("started");
        writer.begin_batch().expect("a batch");
        let bodies: Vec<Vec<u8>> = [10, WRITTEN_IN_PIECES + 10]
            .into_iter()
            .map(|size| (0..size).map(|i| (i % 251) as u8).collect())
            .collect();
        let new = bodies.iter().enumerate().map(|(hash, body)| NewContent {
            hash: vec![hash as u8],
            size: body.len() as u64,
            packed: Packed::Bytes(body.clone()),
            document: None,
        });
        let added = writer.add_contents(new.collect()).expect("added");
        writer.commit_batch().expect("committed");
        for (content, body) in added.into_iter().zip(&bodies) {
            let (_, (zstd, bytes, size)) = store.contents(&[content]).expect("read").remove(0);
            assert!(zstd && bytes == *body && size == body.len() as u64);
        }
    }
}
