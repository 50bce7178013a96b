//! The desktop's store: snapshots in one SQLite file (WAL, so readers are never
//! blocked), every statement the crate sends to SQLite. Opening it ([`open`]: the file,
//! the connection's settings, the schema's migrations), its tables ([`schema`]), the
//! snapshot writer's connection and the one-writer lock beside the file ([`writer`]),
//! and here the reads: the list of snapshots, answers and bodies, an export's answers
//! streamed level by level, FTS5 search, the pairs of a diff, and removing a snapshot.

mod open;
mod schema;
mod writer;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use aas_source::NodeLevel;
use rusqlite::{params, Connection, OptionalExtension};

use crate::backend::{
    level, Backend, BatchWriter, BodyRow, Differing, EachStored, NodeRow, SnapshotInfo,
    StoredAnswer, StoredBytes, Which,
};
use crate::words::Typed;
use crate::{Error, Result};
use writer::{SqliteWriter, WriterLock};

/// An open SQLite store.
#[derive(Debug)]
pub(crate) struct Sqlite {
    conn: Connection,
    path: PathBuf,
}

/// A snapshot's counts as its rows give them. A snapshot being taken (or left so by a
/// process that died) has its counts only in its rows until it ends.
const SHELLS_HELD: &str = "(SELECT count(*) FROM answers a JOIN nodes n ON n.id = a.node
        WHERE a.snapshot = snapshots.id AND n.level = 2)
    + (SELECT count(*) FROM failures f
        WHERE f.snapshot = snapshots.id AND json_extract(f.path, '$.level') = 'submodels')";
const NODES_HELD: &str = "(SELECT count(*) FROM answers a WHERE a.snapshot = snapshots.id)";
const BYTES_HELD: &str = "(SELECT coalesce(sum(c.size), 0) FROM answers a
        JOIN contents c ON c.id = a.content WHERE a.snapshot = snapshots.id)";

/// Snapshots in the order they were taken: by the crawl's start (RFC 3339 UTC, whose
/// text sorts as its time), a copied snapshot among the others by its own; taken in the
/// same second, in the order they were stored.
const IN_ORDER: &str = "ORDER BY taken_at, id";

/// The size past which an export reads a body from its row piece by piece (the
/// registry, at most a few lists) rather than whole; smaller ones, nearly all, are
/// read whole, which is cheaper.
const READ_IN_PIECES: i64 = 64 * 1024;

/// The columns of [`snapshot_row`]; the counts of a snapshot still `taking` are counted.
fn snapshot_columns() -> String {
    let counted = |held: &str, column: &str| {
        format!("CASE WHEN state = 'taking' THEN {held} ELSE {column} END")
    };
    format!(
        "id, source, plant, taken_at, {}, {}, state, {},
         (SELECT count(*) FROM unreadable u WHERE u.snapshot = snapshots.id)",
        counted(SHELLS_HELD, "shells"),
        counted(NODES_HELD, "nodes"),
        counted(BYTES_HELD, "bytes")
    )
}

fn snapshot_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<SnapshotInfo> {
    let state: String = row.get(6)?;
    Ok(SnapshotInfo {
        id: row.get(0)?,
        source: row.get(1)?,
        plant: row.get(2)?,
        taken_at: row.get(3)?,
        shells: row.get(4)?,
        nodes: row.get(5)?,
        complete: state == "complete",
        bytes: row.get(7)?,
        unreadable: row.get(8)?,
        being_taken: state == "taking",
    })
}

fn body_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<BodyRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
}

impl Backend for Sqlite {
    fn snapshots(&self, which: Which<'_>) -> Result<Vec<SnapshotInfo>> {
        let columns = snapshot_columns();
        match which {
            Which::All => {
                self.snapshot_rows(&format!("SELECT {columns} FROM snapshots {IN_ORDER}"), [])
            }
            Which::OfPlant(plant) => self.snapshot_rows(
                &format!("SELECT {columns} FROM snapshots WHERE plant = ?1 {IN_ORDER}"),
                [plant],
            ),
            Which::One(id) => self.snapshot_rows(
                &format!("SELECT {columns} FROM snapshots WHERE id = ?1"),
                [id],
            ),
        }
    }

    fn plants(&self) -> Result<Vec<String>> {
        let mut statement = self
            .conn
            .prepare("SELECT DISTINCT plant FROM snapshots ORDER BY plant")
            .map_err(self.sql())?;
        let rows = statement.query_map([], |r| r.get(0)).map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    fn remove(&mut self, id: i64) -> Result<()> {
        let sql = sql_error(&self.path);
        let state: String = self
            .conn
            .query_row("SELECT state FROM snapshots WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(&sql)?
            .ok_or(Error::NoSuchSnapshot(id))?;
        // A snapshot left 'taking' by a process that died is not locked: removable.
        if state == "taking" {
            match WriterLock::take(&self.path) {
                Err(Error::Busy { .. }) => return Err(Error::BeingTaken(id)),
                held => drop(held?),
            }
        }
        let tx = self.conn.transaction().map_err(&sql)?;
        tx.execute("DELETE FROM snapshots WHERE id = ?1", [id])
            .map_err(&sql)?;
        tx.execute_batch(
            "CREATE TEMP TABLE unused AS
                 SELECT id FROM contents WHERE id NOT IN (SELECT content FROM answers);
             DELETE FROM answer_text WHERE rowid IN (SELECT id FROM unused);
             DELETE FROM unindexed WHERE content IN (SELECT id FROM unused);
             DELETE FROM contents WHERE id IN (SELECT id FROM unused);
             DROP TABLE unused;
             DELETE FROM nodes WHERE id NOT IN (SELECT node FROM answers);",
        )
        .map_err(&sql)?;
        tx.commit().map_err(&sql)?;
        give_space_back(&self.conn).map_err(&sql)
    }

    fn writer(&self, source: &str, plant: &str) -> Result<Box<dyn BatchWriter>> {
        let lock = WriterLock::take(&self.path)?;
        // A store opened for reading is never written, as SQLite refuses it.
        if self
            .conn
            .is_readonly(rusqlite::MAIN_DB)
            .map_err(self.sql())?
        {
            return Err(Error::ReadOnly {
                path: self.path.clone(),
            });
        }
        Ok(Box::new(SqliteWriter::new(
            &self.path, lock, source, plant,
        )?))
    }

    fn answer(&self, id: i64, at: NodeLevel, keys: [&str; 3]) -> Result<Option<BodyRow>> {
        let [asset_type, aas_id, submodel] = keys;
        self.conn
            .prepare_cached(
                "SELECT c.zstd, c.bytes, c.size FROM nodes k
                 JOIN answers a ON a.snapshot = ?1 AND a.node = k.id
                 JOIN contents c ON c.id = a.content
                 WHERE k.level = ?2 AND k.asset_type = ?3 AND k.aas_id = ?4 AND k.submodel = ?5",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![id, level(at), asset_type, aas_id, submodel],
                    body_row,
                )
                .optional()
            })
            .map_err(self.sql())
    }

    fn contents(&self, ids: &[i64]) -> Result<Vec<(i64, BodyRow)>> {
        let mut body = (self.conn)
            .prepare_cached("SELECT zstd, bytes, size FROM contents WHERE id = ?1")
            .map_err(self.sql())?;
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = body
                .query_row([id], body_row)
                .optional()
                .map_err(self.sql())?
            {
                found.push((*id, row));
            }
        }
        Ok(found)
    }

    fn failures(&self, id: i64) -> Result<Vec<NodeRow>> {
        self.node_rows(
            "SELECT path, url, kind, message FROM failures WHERE snapshot = ?1",
            id,
        )
    }

    fn unreadable(&self, id: i64) -> Result<Vec<NodeRow>> {
        self.node_rows(
            "SELECT path, url, at, reason FROM unreadable WHERE snapshot = ?1 ORDER BY rowid",
            id,
        )
    }

    fn listed_asset_types(&self, id: i64) -> Result<Vec<String>> {
        let mut asked = self
            .conn
            .prepare(
                "SELECT DISTINCT k.asset_type FROM answers a JOIN nodes k ON k.id = a.node
                 WHERE a.snapshot = ?1 AND k.level = 1",
            )
            .map_err(self.sql())?;
        let rows = asked
            .query_map([id], |row| row.get(0))
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    fn each_stored(
        &self,
        id: i64,
        at: NodeLevel,
        shells: Option<&HashSet<&str>>,
        visit: &mut EachStored<'_>,
    ) -> Result<()> {
        let sql = self.sql();
        // The shells wanted as a JSON array: SQLite's own json_each lists them.
        let wanted = shells.map(|s| serde_json::to_string(s).unwrap_or_default());
        // The nodes' unique index gives the order: no sort of the snapshot.
        let mut statement = self
            .conn
            .prepare(
                "SELECT k.asset_type, k.aas_id, k.submodel, k.url, c.hash, c.size, c.zstd, c.id,
                     CASE WHEN c.size > ?3 THEN NULL ELSE c.bytes END
                 FROM nodes k
                 JOIN answers a ON a.snapshot = ?1 AND a.node = k.id
                 JOIN contents c ON c.id = a.content
                 WHERE k.level = ?2
                     AND (?4 IS NULL OR k.aas_id IN (SELECT value FROM json_each(?4)))
                 ORDER BY k.asset_type, k.aas_id, k.submodel",
            )
            .map_err(&sql)?;
        let mut rows = statement
            .query(params![id, level(at), READ_IN_PIECES, wanted])
            .map_err(&sql)?;
        while let Some(row) = rows.next().map_err(&sql)? {
            let text = |i| row.get_ref(i).and_then(|v| Ok(v.as_str()?)).map_err(&sql);
            let blob = |i| {
                row.get_ref(i)
                    .and_then(|v| Ok(v.as_blob_or_null()?))
                    .map_err(&sql)
            };
            let (mut small, mut large);
            let stored;
            let bytes: &mut dyn StoredBytes = match blob(8)? {
                Some(bytes) => {
                    (small, stored) = (std::io::Cursor::new(bytes), bytes.len());
                    &mut small
                }
                // A large body (a big plant's registry) is read from its row piece by
                // piece, never whole.
                None => {
                    let body = row.get(7).map_err(&sql)?;
                    let blob = (self.conn)
                        .blob_open(rusqlite::MAIN_DB, "contents", "bytes", body, true)
                        .map_err(&sql)?;
                    stored = blob.len();
                    large = std::io::BufReader::new(blob);
                    &mut large
                }
            };
            let flow = visit(StoredAnswer {
                keys: [text(0)?, text(1)?, text(2)?],
                url: text(3)?,
                hash: blob(4)?.unwrap_or_default(),
                size: row.get(5).map_err(&sql)?,
                zstd: row.get(6).map_err(&sql)?,
                stored: stored as u64,
                bytes,
            })?;
            if flow.is_break() {
                break;
            }
        }
        Ok(())
    }

    fn search(&self, id: i64, typed: Typed<'_>, limit: usize) -> Result<Vec<i64>> {
        let Some(fts) = fts_query(typed.as_str()) else {
            return Ok(Vec::new());
        };
        let mut found = self
            .conn
            .prepare(
                "SELECT t.rowid FROM answer_text t WHERE answer_text MATCH ?2
                 AND EXISTS (SELECT 1 FROM answers a WHERE a.content = t.rowid AND a.snapshot = ?1)
                 LIMIT ?3",
            )
            .map_err(self.sql())?;
        let rows = found
            .query_map(
                params![id, fts, i64::try_from(limit).unwrap_or(i64::MAX)],
                |row| row.get(0),
            )
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    fn owners(&self, contents: &[i64], id: i64) -> Result<Vec<(i64, String, String)>> {
        let mut owners = self
            .conn
            .prepare_cached(
                "SELECT a.content, k.aas_id, k.submodel FROM answers a JOIN nodes k ON k.id = a.node
                 WHERE a.content = ?1 AND a.snapshot = ?2",
            )
            .map_err(self.sql())?;
        let mut found = Vec::new();
        for content in contents {
            let rows = owners
                .query_map(params![content, id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .map_err(self.sql())?;
            found.extend(
                rows.collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(self.sql())?,
            );
        }
        Ok(found)
    }

    fn differing(&self, old: i64, new: i64) -> Result<Vec<Differing>> {
        let mut statement = self
            .conn
            .prepare(
                "WITH pair(snapshot, level, asset_type, aas_id, submodel) AS (
                     SELECT a.snapshot, k.level, k.asset_type, k.aas_id, k.submodel
                     FROM answers a JOIN nodes k ON k.id = a.node WHERE a.snapshot IN (?1, ?2))
                 SELECT p.level, p.asset_type, p.aas_id, p.submodel,
                     (SELECT a.content FROM nodes k JOIN answers a ON a.snapshot = ?1 AND a.node = k.id
                      WHERE k.level = p.level AND k.asset_type = p.asset_type
                        AND k.aas_id = p.aas_id AND k.submodel = p.submodel) AS before,
                     (SELECT a.content FROM nodes k JOIN answers a ON a.snapshot = ?2 AND a.node = k.id
                      WHERE k.level = p.level AND k.asset_type = p.asset_type
                        AND k.aas_id = p.aas_id AND k.submodel = p.submodel) AS after
                 FROM pair p
                 -- Each place once: from the old side, or from the new when the old lacks it.
                 WHERE (p.snapshot = ?1 OR before IS NULL) AND before IS NOT after",
            )
            .map_err(self.sql())?;
        let rows = statement
            .query_map(params![old, new], |row| {
                Ok((
                    row.get(0)?,
                    [row.get(1)?, row.get(2)?, row.get(3)?],
                    row.get(4)?,
                    row.get(5)?,
                ))
            })
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    /// The store file's size on disk, its write-ahead log included.
    fn size(&self) -> u64 {
        let wal = format!("{}-wal", self.path.display());
        [self.path.as_os_str(), wal.as_ref()]
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }

    fn settle(&self) -> Result<()> {
        truncate_log(&self.conn).map_err(self.sql())
    }
}

impl Sqlite {
    /// Turns SQLite's errors into this store's ([`sql_error`]).
    fn sql(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        sql_error(&self.path)
    }

    /// The snapshots `sql` selects with `params`.
    fn snapshot_rows(&self, sql: &str, params: impl rusqlite::Params) -> Result<Vec<SnapshotInfo>> {
        let mut statement = self.conn.prepare(sql).map_err(self.sql())?;
        let rows = statement
            .query_map(params, snapshot_row)
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    /// Rows of a node's place, its URL and two more texts, from `sql` over snapshot `id`.
    fn node_rows(&self, sql: &str, id: i64) -> Result<Vec<NodeRow>> {
        let mut statement = self.conn.prepare(sql).map_err(self.sql())?;
        let rows = statement
            .query_map([id], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }
}

/// Adds an elements body's search index document: its rowid the body's id.
fn index(conn: &Connection, content: i64, document: &[String; 5]) -> rusqlite::Result<()> {
    let [id_short, value, texts, semantic_id, description] = document;
    conn.prepare_cached(
        "INSERT INTO answer_text (rowid, id_short, value, texts, semantic_id, description)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        content,
        id_short,
        value,
        texts,
        semantic_id,
        description
    ])?;
    Ok(())
}

/// Frees the pages no longer used (the store is made with incremental auto-vacuum)
/// and truncates the write-ahead log: the file shrinks.
fn give_space_back(conn: &Connection) -> rusqlite::Result<()> {
    // The pragma frees a page for every step: it is stepped to its end.
    let mut vacuum = conn.prepare("PRAGMA incremental_vacuum")?;
    let mut steps = vacuum.query([])?;
    while steps.next()?.is_some() {}
    truncate_log(conn)
}

/// Copies the write-ahead log into the file and empties it: it keeps the size of the
/// largest transaction otherwise.
fn truncate_log(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
}

/// The FTS5 query for what the user typed: each word quoted (an unquoted `urn:…` would
/// be a column filter, `SN-M-0001` a syntax error), all must match, the last may be the
/// start of a word; `None` when there is no word in it.
fn fts_query(typed: &str) -> Option<String> {
    let words: Vec<String> = typed
        .split_whitespace()
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    let last = words.len().checked_sub(1)?;
    Some(
        words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i == last {
                    format!("{w}*")
                } else {
                    w.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// This store's error for one of SQLite's: a file that is not SQLite, or a corrupt page
/// met by any statement, is [`Error::Damaged`] (a full disk or a locked file is no
/// reason to move a store aside), a store that cannot be written is
/// [`Error::ReadOnly`], the rest [`Error::Sql`]. The path is copied only on an error.
fn sql_error(path: &Path) -> impl Fn(rusqlite::Error) -> Error + '_ {
    move |source| match source.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
            Error::Damaged {
                path: path.to_owned(),
                source,
            }
        }
        Some(rusqlite::ErrorCode::ReadOnly) => Error::ReadOnly {
            path: path.to_owned(),
        },
        _ => Error::Sql {
            path: path.to_owned(),
            source,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_and_the_last_is_a_prefix() {
        assert_eq!(fts_query("SN-M-0001").as_deref(), Some("\"SN-M-0001\"*"));
        assert_eq!(
            fts_query(" urn:x:1  pump\"s ").as_deref(),
            Some("\"urn:x:1\" \"pump\"\"s\"*")
        );
        assert_eq!(fts_query("   "), None);
    }
}
