//! A snapshot read back: one stored answer, its failed nodes, and the whole snapshot as
//! a source of answers for the exports, which stream it level by level in the fixed
//! order every source gives them, so that an export of a snapshot is the export of a
//! fresh crawl of the plant.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::SystemTime;

use aas_client::{
    Crawl, CrawlPlan, ErrorKind, Failure, NodeLevel, NodePath, Selection, Unreadable,
};
use aas_export::{Answers, Format, Visit};
use aas_model::AssetType;

use crate::backend::{BodyRow, NodeRow, SnapshotInfo};
use crate::content;
use crate::store::Store;
use crate::{Error, Result};
use aas_export::Exported;
use aas_model::FileError;

impl Store {
    /// Writes snapshot `id` to `out` in `format`, with the same content as an export of
    /// a fresh crawl of the plant (the raw bundle's manifest names the snapshot's
    /// source); returns what was written. One answer is in memory at a time.
    pub fn export(&self, id: i64, format: Format, out: &Path) -> Result<Exported> {
        let (info, crawl) = self.described(id)?;
        self.write_export(&info, &crawl, format, out)
    }

    /// Hands `read` snapshot `id` as a source of answers (the plant table and the
    /// template audit read it so), with what the snapshot is.
    pub fn with_answers<T>(
        &self,
        id: i64,
        read: impl FnOnce(&SnapshotInfo, &dyn Answers) -> T,
    ) -> Result<T> {
        let (info, crawl) = self.described(id)?;
        let stored = Stored {
            store: self,
            id,
            count: info.nodes as usize,
            crawl: &crawl,
        };
        Ok(read(&info, &stored))
    }

    /// Snapshot `id` and the crawl that would have written it: its plan (the asset
    /// types whose lists were asked), its time, failures and unreadable parts.
    fn described(&self, id: i64) -> Result<(SnapshotInfo, Crawl)> {
        let info = self.snapshot(id)?;
        let failures = self.failures_of(id)?;
        // The asset types crawled are those whose lists were asked.
        let listed = self.db.listed_asset_types(id)?;
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
        Ok((info, crawl))
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
        let found = self.db.answer(id, path.level(), path.keys())?;
        let mut unpacker = content::Unpacker::new(&self.path);
        found
            .map(|body| self.decoded(&mut unpacker, body))
            .transpose()
    }

    /// A stored body as the text the server sent.
    pub(crate) fn content(&self, id: i64) -> Result<Option<String>> {
        Ok(self.contents(&[id])?.remove(&id))
    }

    /// The stored bodies with these ids, as the text the server sent, by id.
    pub(crate) fn contents(&self, ids: &[i64]) -> Result<HashMap<i64, String>> {
        let mut unpacker = content::Unpacker::new(&self.path);
        let found = self.db.contents(ids)?.into_iter();
        found
            .map(|(id, body)| Ok((id, self.decoded(&mut unpacker, body)?)))
            .collect()
    }

    /// A body as the store keeps it, as text: read no further than its recorded size,
    /// and damaged ([`Error::DamagedAnswer`]) when it is not what its row records.
    fn decoded(&self, unpacker: &mut content::Unpacker, body: BodyRow) -> Result<String> {
        let (zstd, bytes, size) = body;
        (unpacker.text(&bytes, zstd, size))
            .map_err(|e| content::body_error(&self.path, "read an answer stored in", e))
    }

    /// The parts of snapshot `id`'s answers that could not be read, with their reasons.
    pub fn unreadable(&self, id: i64) -> Result<Vec<Unreadable>> {
        let parts = read_places(self.db.unreadable(id)?);
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
        let failures = read_places(self.db.failures(id)?);
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
}

/// Rows of a node's place (as [`crate::writer::path_key`] wrote it), its URL and two
/// more texts, with the place read; a place no longer read is passed over.
fn read_places(rows: Vec<NodeRow>) -> impl Iterator<Item = (NodePath, String, String, String)> {
    rows.into_iter().filter_map(|(path, url, first, second)| {
        Some((serde_json::from_str(&path).ok()?, url, first, second))
    })
}

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
        self.each_stored(at, None, visit)
    }

    fn each_of_shells(
        &self,
        at: NodeLevel,
        shells: &HashSet<&str>,
        visit: &mut Visit<'_>,
    ) -> aas_export::Result<()> {
        self.each_stored(at, Some(shells), visit)
    }
}

impl Stored<'_> {
    /// Hands `visit` each answer at `at` (of `shells`, when given), its body read no
    /// further than its recorded size. The store's failures come back as an export's
    /// file error that carries the store's own ([`Error::found_in`] finds it: a damaged
    /// answer, a team store whose connection was lost), so that they are told apart from
    /// a failure of the file being written.
    fn each_stored(
        &self,
        at: NodeLevel,
        shells: Option<&HashSet<&str>>,
        visit: &mut Visit<'_>,
    ) -> aas_export::Result<()> {
        let path = &self.store.path;
        let unreadable = |source| {
            aas_export::Error::File(FileError {
                action: "read",
                path: path.clone(),
                source,
            })
        };
        let mut unpacker = content::Unpacker::new(path);
        let walked = self
            .store
            .db
            .each_stored(self.id, at, shells, &mut |answer| {
                let Some(node) = NodePath::from_keys(at, answer.keys) else {
                    return Ok(());
                };
                let body = unpacker.reader(answer.bytes, answer.zstd, answer.size, answer.stored);
                let mut body = body.map_err(|e| content::body_error(path, "read", e))?;
                let visited = visit(&node, answer.url, &mut body);
                // A damaged body is the store's fault, whatever the visit made of it
                // (its own error, or an element passed over as unreadable).
                if let Some(damaged) = body.damage() {
                    return Err(damaged);
                }
                Ok(visited?)
            });
        // The export's own errors come back as they were; the store's say what failed.
        walked.map_err(|e| match e {
            Error::Export(e) => e,
            other => unreadable(std::io::Error::other(other)),
        })
    }
}
