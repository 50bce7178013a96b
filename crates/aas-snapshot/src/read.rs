//! A snapshot read back: one stored answer, its failed nodes, and the whole snapshot as
//! a source of answers for the exports, which stream it level by level in the fixed
//! order every source gives them, so that an export of a snapshot is the export of a
//! fresh crawl of the plant.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::SystemTime;

use std::ops::ControlFlow;

use aas_export::{Exported, Format};
use aas_model::AssetType;
use aas_source::{
    Coverage, ErrorKind, Failure, NodeLevel, NodePath, Selection, Source, Unreadable, Visit,
    WalkReport,
};

use crate::backend::{BodyRow, NodeRow, SnapshotInfo};
use crate::content;
use crate::store::Store;
use crate::Result;

impl Store {
    /// Writes snapshot `id` to `out` in `format`, with the same content as an export of
    /// a fresh crawl of the plant (the raw bundle's manifest names the snapshot's
    /// source); returns what was written. One answer is in memory at a time.
    pub fn export(&self, id: i64, format: Format, out: &Path) -> Result<Exported> {
        self.with_answers(id, |info, stored| {
            aas_export::export(stored, format, &info.source, out)
        })?
        .map_err(Into::into)
    }

    /// Hands `read` snapshot `id` as a source of answers (the plant table and the
    /// template audit read it so), with what the snapshot is.
    pub fn with_answers<T>(
        &self,
        id: i64,
        read: impl FnOnce(&SnapshotInfo, &dyn Source) -> T,
    ) -> Result<T> {
        let (info, described) = self.described(id)?;
        let stored = Stored {
            store: self,
            id,
            count: info.nodes as usize,
            coverage: described.coverage(),
            walk: None,
        };
        Ok(read(&info, &stored))
    }

    /// Snapshot `id` and what its answers cover: the asset types whose lists were
    /// asked, its time, failures and unreadable parts.
    fn described(&self, id: i64) -> Result<(SnapshotInfo, Described)> {
        let info = self.snapshot(id)?;
        let failures = self.failures_of(id)?;
        // The asset types read are those whose lists were asked.
        let listed = self.db.listed_asset_types(id)?;
        let failed_lists = failures.iter().filter_map(|f| match &f.path {
            NodePath::AasList { asset_type } => Some(asset_type.clone()),
            _ => None,
        });
        let mut asset_types: Vec<AssetType> = listed
            .into_iter()
            .map(AssetType::named)
            .chain(failed_lists)
            .collect();
        asset_types.sort();
        asset_types.dedup();
        let described = Described {
            plant: info.plant.clone(),
            asset_types,
            selection: Selection::everything(),
            taken_at: humantime::parse_rfc3339(&info.taken_at).unwrap_or(SystemTime::UNIX_EPOCH),
            failures,
            unreadable: self.unreadable(id)?,
            complete: info.complete,
        };
        Ok((info, described))
    }

    /// Writes snapshot `id` as [`Store::export`] does, described by `crawl`, the walk
    /// that wrote it, as it ended (its node limit and interruption, which the store
    /// does not keep).
    pub fn export_crawled(
        &self,
        id: i64,
        crawl: &dyn Source,
        format: Format,
        out: &Path,
    ) -> Result<Exported> {
        let info = self.snapshot(id)?;
        let stored = Stored {
            store: self,
            id,
            count: info.nodes as usize,
            coverage: crawl.coverage(),
            walk: crawl.walk(),
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

/// What a stored snapshot's answers cover, read from the store.
struct Described {
    plant: String,
    asset_types: Vec<AssetType>,
    selection: Selection,
    taken_at: SystemTime,
    failures: Vec<Failure>,
    unreadable: Vec<Unreadable>,
    complete: bool,
}

impl Described {
    fn coverage(&self) -> Coverage<'_> {
        Coverage {
            plant: &self.plant,
            asset_types: &self.asset_types,
            selection: &self.selection,
            read_at: self.taken_at,
            failures: &self.failures,
            unreadable: &self.unreadable,
            complete: self.complete,
        }
    }
}

/// One snapshot as a source: what it covers, and the walk that wrote it when that walk
/// is at hand (an export straight after a take).
struct Stored<'s> {
    store: &'s Store,
    id: i64,
    count: usize,
    coverage: Coverage<'s>,
    walk: Option<WalkReport>,
}

impl Source for Stored<'_> {
    fn coverage(&self) -> Coverage<'_> {
        self.coverage
    }

    fn walk(&self) -> Option<WalkReport> {
        self.walk
    }

    fn count(&self) -> usize {
        self.count
    }

    fn each(&self, at: NodeLevel, visit: &mut Visit<'_>) -> aas_source::Result<ControlFlow<()>> {
        self.each_stored(at, None, visit)
    }

    fn each_of_shells(
        &self,
        at: NodeLevel,
        shells: &HashSet<&str>,
        visit: &mut Visit<'_>,
    ) -> aas_source::Result<ControlFlow<()>> {
        self.each_stored(at, Some(shells), visit)
    }
}

impl Stored<'_> {
    /// Hands `visit` each answer at `at` (of `shells`, when given), its body read no
    /// further than its recorded size. The store's failures (a damaged answer, a team
    /// store whose connection was lost) come back with the store's kind, so that they
    /// are told apart from a failure of whatever the answers are read for.
    fn each_stored(
        &self,
        at: NodeLevel,
        shells: Option<&HashSet<&str>>,
        visit: &mut Visit<'_>,
    ) -> aas_source::Result<ControlFlow<()>> {
        let path = &self.store.path;
        let mut unpacker = content::Unpacker::new(path);
        let mut flow = ControlFlow::Continue(());
        let walked = self
            .store
            .db
            .each_stored(self.id, at, shells, &mut |answer| {
                let Some(node) = NodePath::from_keys(at, answer.keys) else {
                    return Ok(ControlFlow::Continue(()));
                };
                let body = unpacker.reader(answer.bytes, answer.zstd, answer.size, answer.stored);
                let mut body = body.map_err(|e| content::body_error(path, "read", e))?;
                flow = visit(&node, answer.url, &mut body);
                // A damaged body is the store's fault, whatever the visit made of it
                // (its own error, or an element passed over as unreadable).
                if let Some(damaged) = body.damage() {
                    return Err(damaged);
                }
                Ok(flow)
            });
        match walked {
            Ok(()) => Ok(flow),
            Err(e) => Err(aas_source::Error::Failed {
                at: path.clone(),
                kind: e.kind(),
                source: Box::new(e),
            }),
        }
    }
}
