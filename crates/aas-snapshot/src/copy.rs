//! Copying snapshots from one store into another: a desktop's file into the team's
//! database, and back. Each snapshot is written in one transaction of the target, so it
//! is there whole or not at all: a failure, a stop (Ctrl-C) or a crash mid-copy leaves
//! nothing of it (the database rolls the transaction back, also when the process or the
//! connection dies), no reader sees it before it is whole, and a repeat copy has no
//! half snapshot to recognise. The price: until the copy commits, SQLite's write-ahead
//! log holds what the snapshot adds (it is emptied after), and on PostgreSQL a take of
//! another plant that needs a body the copy has just added waits for the copy's commit.
//!
//! Bodies are found by their SHA-256 in the target, as a take finds them, so an
//! unchanged second snapshot adds rows, not bodies; those the target lacks are written
//! as the source keeps them (compressed), with their search index document made anew,
//! once each is checked to unpack to exactly its recorded size and SHA-256: a damaged
//! body (a zstd bomb among them) is never carried into another store, and the snapshot
//! holding it is not copied.
//! A snapshot the target already holds (the same source, plant and taken_at) is left
//! out.

use std::ops::ControlFlow;
use std::path::Path;

use aas_model::FileError;
use aas_source::NodeLevel;

use crate::backend::{BatchWriter, Counts, NewContent, Packed, Place, SnapshotInfo, StoredAnswer};
use crate::chunk::{Added, Chunk, Pending};
use crate::content::{self, Packer, Unpacker};
use crate::index::{document, element_rows};
use crate::store::Store;
use crate::{Error, Result};

/// Answers written between two progress reports.
const REPORT_EVERY: u64 = 500;

/// Which snapshots of the source a copy takes, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// These ids.
    Ids(Vec<i64>),
    /// Every snapshot, or every one of a plant.
    All { plant: Option<String> },
}

/// What became of one snapshot of the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub from: SnapshotInfo,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Written whole as snapshot `to`, with `bodies` bodies the target lacked
    /// (`bytes` of them as stored).
    Copied {
        to: SnapshotInfo,
        bodies: u64,
        bytes: u64,
    },
    /// The target holds it already, as this id.
    AlreadyThere(i64),
    /// It is being taken (or was left so by a take that stopped, until the next take
    /// marks it partial): copied once that take has ended.
    BeingTaken,
}

/// What a copy says as it goes.
#[derive(Debug)]
pub enum CopyEvent<'a> {
    /// This snapshot is about to be copied.
    Starting(&'a SnapshotInfo),
    /// `done` of its answers (of `from.nodes`) are written, not yet committed.
    Written { from: &'a SnapshotInfo, done: u64 },
    /// One snapshot copied, or left out.
    Ended(&'a Copied),
}

impl Store {
    /// Copies the snapshots of `from` that `pick` names into this store, oldest first,
    /// each whole or not at all, keeping its source, plant, taken_at, complete flag,
    /// counts, failed nodes and unreadable parts. `on` hears of each; answering
    /// [`ControlFlow::Break`] to `Starting` or `Written` stops the copy
    /// ([`Error::CopyStopped`]): the snapshot under way is left out whole, those copied
    /// before stay. Returns what became of each.
    pub fn copy_from(
        &mut self,
        from: &Store,
        pick: &Pick,
        on: &mut dyn FnMut(CopyEvent<'_>) -> ControlFlow<()>,
    ) -> Result<Vec<Copied>> {
        let all = from.list(None)?;
        let chosen: Vec<&SnapshotInfo> = match pick {
            Pick::Ids(ids) => {
                if let Some(id) = ids.iter().find(|id| !all.iter().any(|s| s.id == **id)) {
                    return Err(Error::NoSuchSnapshot(*id));
                }
                all.iter().filter(|s| ids.contains(&s.id)).collect()
            }
            Pick::All { plant } => all
                .iter()
                .filter(|s| plant.as_ref().is_none_or(|p| s.plant == *p))
                .collect(),
        };
        let mut ended = Vec::new();
        for snapshot in chosen {
            let outcome = self.copy_one(from, &all, snapshot, on)?;
            let copied = Copied {
                from: snapshot.clone(),
                outcome,
            };
            // Nothing is under way here: a stop takes effect at the next snapshot.
            let _ = on(CopyEvent::Ended(&copied));
            ended.push(copied);
        }
        if (ended.iter()).any(|c| matches!(c.outcome, Outcome::Copied { .. })) {
            self.db.settle()?;
        }
        Ok(ended)
    }

    /// Copies `snapshot` (one of `all`, the source's snapshots), unless the target holds
    /// it or it is being taken.
    fn copy_one(
        &mut self,
        from: &Store,
        all: &[SnapshotInfo],
        snapshot: &SnapshotInfo,
        on: &mut dyn FnMut(CopyEvent<'_>) -> ControlFlow<()>,
    ) -> Result<Outcome> {
        if snapshot.being_taken {
            return Ok(Outcome::BeingTaken);
        }
        // The lock of the plant's takes: no take or copy adds it meanwhile.
        let mut writer = self.db.writer(&snapshot.source, &snapshot.plant)?;
        if let Some(id) = self.holding(all, snapshot)? {
            return Ok(Outcome::AlreadyThere(id));
        }
        let stopped = || Error::CopyStopped {
            id: snapshot.id,
            store: self.path.clone(),
        };
        if on(CopyEvent::Starting(snapshot)).is_break() {
            return Err(stopped());
        }
        let mut written = |done| {
            on(CopyEvent::Written {
                from: snapshot,
                done,
            })
        };
        let (id, added) = write_copy(&mut *writer, from, snapshot, &mut written, &stopped)?;
        // The lock is let go once the snapshot is committed.
        drop(writer);
        Ok(Outcome::Copied {
            to: self.snapshot(id)?,
            bodies: added.bodies,
            bytes: added.bytes,
        })
    }

    /// The id of this store's copy of `snapshot`, one of the source's `all`. Snapshots
    /// of one source and plant taken in the same second are told apart by their order.
    fn holding(&self, all: &[SnapshotInfo], snapshot: &SnapshotInfo) -> Result<Option<i64>> {
        let same = |s: &SnapshotInfo| {
            (s.source == snapshot.source && s.plant == snapshot.plant)
                && s.taken_at == snapshot.taken_at
        };
        let rank = (all.iter().filter(|s| same(s)))
            .position(|s| s.id == snapshot.id)
            .unwrap_or(0);
        let here = self.list(Some(&snapshot.plant))?;
        Ok(here.into_iter().filter(same).nth(rank).map(|s| s.id))
    }
}

/// Writes `snapshot` of `from` through `writer` in one transaction, reporting to
/// `written` (a break: `stopped()`, and nothing is committed); the new snapshot's id and
/// the bodies added.
fn write_copy(
    writer: &mut dyn BatchWriter,
    from: &Store,
    snapshot: &SnapshotInfo,
    written: &mut dyn FnMut(u64) -> ControlFlow<()>,
    stopped: &dyn Fn() -> Error,
) -> Result<(i64, Added)> {
    writer.begin_batch()?;
    let id = writer.insert_snapshot(&snapshot.taken_at)?;
    let mut packer = Packer::new().map_err(read_error(&from.path))?;
    let mut unpacker = Unpacker::new(&from.path);
    let mut make = |body, hash| {
        new_content(&mut packer, &mut unpacker, body, hash, &from.path)
            .map_err(|e| copied_body_error(e, snapshot.id))
    };
    let (mut done, mut added, mut chunk) = (0, Added::default(), Chunk::new());
    for level in NodeLevel::ALL {
        from.db
            .each_stored(snapshot.id, level, None, &mut |answer| {
                let (pending, held) = pending(level, answer, &from.path)?;
                if chunk.push(pending, held) {
                    added += chunk.write(&mut *writer, id, &mut make)?;
                }
                done += 1;
                if done % REPORT_EVERY == 0 && written(done).is_break() {
                    return Err(stopped());
                }
                Ok(ControlFlow::Continue(()))
            })?;
    }
    added += chunk.write(&mut *writer, id, &mut make)?;
    for row in from.db.failures(snapshot.id)? {
        writer.add_failure(id, &row)?;
    }
    for row in from.db.unreadable(snapshot.id)? {
        writer.add_unreadable(id, &row)?;
    }
    let counts = Counts {
        nodes: snapshot.nodes,
        shells: snapshot.shells,
        bytes: snapshot.bytes,
    };
    writer.finish(id, snapshot.complete, counts)?;
    if written(done).is_break() {
        return Err(stopped());
    }
    writer.commit_batch()?;
    Ok((id, added))
}

/// A body as the source keeps it, waiting in a chunk, and the URL of its answer.
struct Kept {
    level: NodeLevel,
    url: String,
    zstd: bool,
    size: u64,
    bytes: Vec<u8>,
}

/// A stored answer as it waits in a chunk, and its bytes held in memory.
fn pending(
    level: NodeLevel,
    answer: StoredAnswer<'_>,
    source: &Path,
) -> Result<(Pending<Kept>, u64)> {
    let mut bytes = Vec::new();
    (answer.bytes.read_to_end(&mut bytes)).map_err(read_error(source))?;
    let held = bytes.len() as u64;
    let place = Place {
        level,
        keys: answer.keys.map(str::to_owned),
        url: answer.url.to_owned(),
    };
    let body = Kept {
        level,
        url: answer.url.to_owned(),
        zstd: answer.zstd,
        size: answer.size,
        bytes,
    };
    let hash = answer.hash.to_vec();
    Ok((Pending { place, hash, body }, held))
}

/// The row of a body the target lacks, compressed as the source keeps it (a body of a
/// store before schema 4 is compressed here), with its search index document when it
/// is an elements answer; a body that does not unpack to exactly its recorded size and
/// SHA-256 is refused as damaged, read no further than its size.
fn new_content(
    packer: &mut Packer,
    unpacker: &mut Unpacker,
    kept: Kept,
    hash: Vec<u8>,
    source: &Path,
) -> Result<NewContent> {
    let failed = |e| match content::body_error(source, "copy an answer from", e) {
        Error::DamagedAnswer { path, reason } => Error::DamagedAnswer {
            path,
            reason: format!("{reason} (the answer of {})", kept.url),
        },
        other => other,
    };
    let (stored, stored_len) = (kept.bytes.as_slice(), kept.bytes.len() as u64);
    let (found, document) = match kept.level {
        NodeLevel::Elements => {
            let raw = (unpacker.bytes(stored, kept.zstd, kept.size)).map_err(failed)?;
            let text = String::from_utf8_lossy(&raw);
            (content::hash(&raw), document(&element_rows(&text)))
        }
        _ => {
            let stored = std::io::Cursor::new(stored);
            let body = unpacker.reader(stored, kept.zstd, kept.size, stored_len);
            (body.and_then(content::hash_stream).map_err(failed)?, None)
        }
    };
    if found != hash {
        let e = content::damage(source, "unpacks to other bytes than its SHA-256 names");
        return Err(failed(e));
    }
    let failed = read_error(source);
    let packed = match kept.zstd {
        true => kept.bytes,
        false => packer.pack(&kept.bytes).map_err(&failed)?,
    };
    Ok(NewContent {
        hash,
        size: kept.size,
        packed: Packed::Bytes(packed),
        document,
    })
}

/// A body's error while snapshot `id` was copied: a damaged one says that nothing of the
/// snapshot was copied.
fn copied_body_error(e: Error, id: i64) -> Error {
    match e {
        Error::DamagedAnswer { path, reason } => Error::DamagedAnswer {
            path,
            reason: format!("{reason}, in snapshot {id}, which was not copied"),
        },
        other => other,
    }
}

/// The error of a body of the store at `source` that could not be read.
fn read_error(source: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| {
        Error::File(FileError {
            action: "copy an answer from",
            path: source.to_owned(),
            source: e,
        })
    }
}
