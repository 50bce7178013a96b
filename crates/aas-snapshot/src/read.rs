//! A snapshot read back: one stored answer, its failed nodes, and the whole snapshot as
//! a source of answers for the exports, which stream it level by level in the fixed
//! order every source gives them, so that an export of a snapshot is the export of a
//! fresh crawl of the plant.

use std::path::Path;
use std::time::SystemTime;

use aas_client::{
    Crawl, CrawlPlan, ErrorKind, Failure, NodeLevel, NodePath, Selection, Unreadable,
};
use aas_export::{Answers, Format, Visit};
use aas_model::AssetType;
use rusqlite::{params, OptionalExtension};

use crate::content;
use crate::schema::level;
use crate::store::{SnapshotInfo, Store};
use crate::{Error, Result};
use aas_export::Exported;
use aas_model::FileError;

/// A body's row in `contents`: whether zstd-compressed, its bytes, its size as sent.
type BodyRow = (bool, Vec<u8>, u64);

impl Store {
    /// Writes snapshot `id` to `out` in `format`, with the same content as an export of
    /// a fresh crawl of the plant (the raw bundle's manifest names the snapshot's
    /// source); returns what was written. One answer is in memory at a time.
    pub fn export(&self, id: i64, format: Format, out: &Path) -> Result<Exported> {
        let info = self.snapshot(id)?;
        let failures = self.failures_of(id)?;
        // The asset types crawled are those whose lists were asked.
        let mut asked = self
            .conn
            .prepare(
                "SELECT DISTINCT k.asset_type FROM answers a JOIN nodes k ON k.id = a.node
                 WHERE a.snapshot = ?1 AND k.level = 1",
            )
            .map_err(self.sql())?;
        let listed: Vec<String> = asked
            .query_map([id], |row| row.get(0))
            .map_err(self.sql())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.sql())?;
        let asset_types = AssetType::ALL
            .into_iter()
            .filter(|t| {
                listed.iter().any(|code| code == t.code())
                    || failures
                        .iter()
                        .any(|f| f.path == NodePath::AasList { asset_type: *t })
            })
            .collect();
        let taken_at = humantime::parse_rfc3339(&info.taken_at).unwrap_or(SystemTime::UNIX_EPOCH);
        let crawl = Crawl {
            plan: CrawlPlan::new(info.plant.clone(), asset_types),
            selection: Selection::everything(),
            started: taken_at,
            finished: taken_at,
            fetched: Vec::new(),
            answers: usize::try_from(info.nodes).unwrap_or(usize::MAX),
            failures,
            unreadable: self.unreadable(id)?,
            cancelled: false,
            node_limit_reached: false,
            retries: 0,
            probes: 0,
        };
        self.write_export(&info, &crawl, format, out)
    }

    /// Writes snapshot `id` as [`Store::export`] does, described by `crawl`, the crawl
    /// that wrote it, as it ended (its node limit and interruption, which the store
    /// does not keep).
    pub fn export_crawled(
        &self,
        id: i64,
        crawl: &Crawl,
        format: Format,
        out: &Path,
    ) -> Result<Exported> {
        self.write_export(&self.snapshot(id)?, crawl, format, out)
    }

    /// Writes the snapshot `info` names, described by `crawl`.
    fn write_export(
        &self,
        info: &SnapshotInfo,
        crawl: &Crawl,
        format: Format,
        out: &Path,
    ) -> Result<Exported> {
        let stored = Stored {
            store: self,
            id: info.id,
            count: info.nodes as usize,
            crawl,
        };
        Ok(aas_export::export(&stored, format, &info.source, out)?)
    }

    /// The answer snapshot `id` holds for `path`, exactly as the server sent it.
    pub(crate) fn stored_answer(&self, id: i64, path: &NodePath) -> Result<Option<String>> {
        let [asset_type, aas_id, submodel] = path.keys();
        let found: Option<BodyRow> = self
            .conn
            .prepare_cached(
                "SELECT c.zstd, c.bytes, c.size FROM nodes k
                 JOIN answers a ON a.snapshot = ?1 AND a.node = k.id
                 JOIN contents c ON c.id = a.content
                 WHERE k.level = ?2 AND k.asset_type = ?3 AND k.aas_id = ?4 AND k.submodel = ?5",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![id, level(path.level()), asset_type, aas_id, submodel],
                    |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
                )
                .optional()
            })
            .map_err(self.sql())?;
        self.decoded(found)
    }

    /// A stored body as the text the server sent.
    pub(crate) fn content(&self, id: i64) -> Result<Option<String>> {
        let found: Option<BodyRow> = self
            .conn
            .prepare_cached("SELECT zstd, bytes, size FROM contents WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
                    .optional()
            })
            .map_err(self.sql())?;
        self.decoded(found)
    }

    /// A body as read from `contents`, as text.
    fn decoded(&self, found: Option<BodyRow>) -> Result<Option<String>> {
        found
            .map(|(zstd, bytes, size)| {
                content::text(&bytes, zstd, size).map_err(|source| {
                    Error::File(FileError {
                        action: "read an answer stored in",
                        path: self.path.clone(),
                        source,
                    })
                })
            })
            .transpose()
    }

    /// The parts of snapshot `id`'s answers that could not be read, with their reasons.
    pub fn unreadable(&self, id: i64) -> Result<Vec<Unreadable>> {
        let sql = "SELECT path, url, at, reason FROM unreadable WHERE snapshot = ?1 ORDER BY rowid";
        let parts = self.node_rows(sql, id)?.into_iter();
        Ok(parts
            .map(|(path, url, at, reason)| Unreadable {
                path,
                url,
                at,
                reason,
            })
            .collect())
    }

    /// The failed nodes of snapshot `id`, with their reasons.
    pub(crate) fn failures_of(&self, id: i64) -> Result<Vec<Failure>> {
        let sql = "SELECT path, url, kind, message FROM failures WHERE snapshot = ?1";
        let failures = self.node_rows(sql, id)?.into_iter();
        Ok(failures
            .map(|(path, url, kind, message)| Failure {
                path,
                url,
                kind: serde_json::from_value(serde_json::Value::String(kind))
                    .unwrap_or(ErrorKind::Server),
                message,
            })
            .collect())
    }

    /// Rows of a node's place (as [`crate::writer::path_key`] wrote it), its URL and two
    /// more texts, from `sql` over snapshot `id`; a place no longer read is passed over.
    fn node_rows(&self, sql: &str, id: i64) -> Result<Vec<(NodePath, String, String, String)>> {
        let mut statement = self.conn.prepare(sql).map_err(self.sql())?;
        let rows = statement
            .query_map([id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            })
            .map_err(self.sql())?;
        let mut read = Vec::new();
        for row in rows {
            let (path, url, first, second) = row.map_err(self.sql())?;
            if let Ok(path) = serde_json::from_str(&path) {
                read.push((path, url, first, second));
            }
        }
        Ok(read)
    }
}

/// The size past which an export reads a body from its row piece by piece (the
/// registry, at most a few lists) rather than whole; smaller ones, nearly all, are
/// read whole, which is cheaper.
const READ_IN_PIECES: i64 = 64 * 1024;

/// One snapshot as a source of answers for an export.
struct Stored<'s> {
    store: &'s Store,
    id: i64,
    count: usize,
    /// What the snapshot's crawl was, without its answers.
    crawl: &'s Crawl,
}

impl Answers for Stored<'_> {
    fn crawl(&self) -> &Crawl {
        self.crawl
    }

    fn count(&self) -> usize {
        self.count
    }

    fn each(&self, at: NodeLevel, visit: &mut Visit<'_>) -> aas_export::Result<()> {
        let failed = |e: rusqlite::Error| {
            aas_export::Error::File(FileError {
                action: "read",
                path: self.store.path.clone(),
                source: std::io::Error::other(e),
            })
        };
        // The nodes' unique index gives the order: no sort of the snapshot.
        let mut statement = self
            .store
            .conn
            .prepare(
                "SELECT k.asset_type, k.aas_id, k.submodel, k.url, c.zstd, c.id,
                     CASE WHEN c.size > ?3 THEN NULL ELSE c.bytes END
                 FROM nodes k
                 JOIN answers a ON a.snapshot = ?1 AND a.node = k.id
                 JOIN contents c ON c.id = a.content
                 WHERE k.level = ?2
                 ORDER BY k.asset_type, k.aas_id, k.submodel",
            )
            .map_err(failed)?;
        let mut rows = statement
            .query(params![self.id, level(at), READ_IN_PIECES])
            .map_err(failed)?;
        while let Some(row) = rows.next().map_err(failed)? {
            let keys: [&str; 3] = [
                row.get_ref(0)
                    .and_then(|v| Ok(v.as_str()?))
                    .map_err(failed)?,
                row.get_ref(1)
                    .and_then(|v| Ok(v.as_str()?))
                    .map_err(failed)?,
                row.get_ref(2)
                    .and_then(|v| Ok(v.as_str()?))
                    .map_err(failed)?,
            ];
            let Some(path) = NodePath::from_keys(at, keys) else {
                continue;
            };
            let url: String = row.get(3).map_err(failed)?;
            let zstd: bool = row.get(4).map_err(failed)?;
            let small = row
                .get_ref(6)
                .and_then(|v| Ok(v.as_blob_or_null()?))
                .map_err(failed)?;
            let unreadable = |source| {
                aas_export::Error::File(FileError {
                    action: "read",
                    path: self.store.path.clone(),
                    source,
                })
            };
            let mut body = match small {
                Some(bytes) => content::reader(bytes, zstd),
                // A large body (a big plant's registry) is read from its row piece by
                // piece, never whole.
                None => {
                    let id = row.get(5).map_err(failed)?;
                    let blob = (self.store.conn)
                        .blob_open(rusqlite::MAIN_DB, "contents", "bytes", id, true)
                        .map_err(failed)?;
                    content::reader(std::io::BufReader::new(blob), zstd)
                }
            }
            .map_err(unreadable)?;
            visit(&path, &url, &mut body)?;
        }
        Ok(())
    }
}
