//! The seam between what a store does (taking, listing, reading, searching, comparing
//! snapshots: the rest of this crate) and the database that holds its rows: SQLite in
//! one file for one desktop ([`crate::sqlite`]), PostgreSQL for a team
//! ([`crate::postgres`]). Every SQL statement lives behind this trait, one
//! implementation per database; the rules (what a snapshot holds, when it is complete,
//! how answers are paired and matched) live once, above it.

use std::collections::HashSet;
use std::io::{BufRead, Read};
use std::ops::ControlFlow;

use aas_source::NodeLevel;
use serde::Serialize;

use crate::words::Typed;
use crate::Result;

/// One snapshot as `aasmd snapshot take` prints it and `snapshot list --json` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnapshotInfo {
    pub id: i64,
    /// The profile name, or `client_id@realm (registry host)`.
    pub source: String,
    pub plant: String,
    /// When the crawl started, RFC 3339 UTC.
    pub taken_at: String,
    pub shells: u64,
    /// Answers stored.
    pub nodes: u64,
    /// The size of its answers as the server sent them.
    pub bytes: u64,
    /// Every node answered; a partial snapshot (failed nodes, cancelled, interrupted) is
    /// kept but never chosen by default.
    pub complete: bool,
    /// Parts of its answers that could not be read ([`crate::Store::unreadable`] names
    /// them).
    pub unreadable: u64,
    /// Still being taken, or left so by a take that stopped (the next take marks it
    /// partial): a copy leaves it out.
    #[serde(skip)]
    pub being_taken: bool,
}

/// What a caller does with a store: a read never creates or changes one (it works on a
/// read-only file system), a write needs one that exists, only a take creates one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Create,
}

/// A body as the `contents` table keeps it: whether zstd-compressed, its bytes, and its
/// size as the server sent it.
pub(crate) type BodyRow = (bool, Vec<u8>, u64);

/// A node's keys (asset type, shell id, submodel idShort), `""` where a key is absent.
pub(crate) type Keys = [String; 3];

/// A place that differs between two snapshots, as [`Backend::differing`] gives it: its
/// level (numbered as [`level`] numbers it), its keys, and each side's body id (`None`
/// on the side that lacks it).
pub(crate) type Differing = (i64, Keys, Option<i64>, Option<i64>);

/// A failed node or an unreadable part, as written: the node's place (JSON, as
/// [`crate::writer::path_key`] writes it), its URL, and two texts (kind and message, or
/// where in the answer and why).
pub(crate) type NodeRow = (String, String, String, String);

/// A node's place: its level, its keys (see [`Keys`]) and the URL it was fetched from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Place {
    pub level: NodeLevel,
    pub keys: Keys,
    pub url: String,
}

/// A body the store lacks, ready to be kept: its SHA-256, its size as sent, its
/// zstd-compressed bytes, and its search index document (an elements body's columns).
#[derive(Debug)]
pub(crate) struct NewContent {
    pub hash: Vec<u8>,
    pub size: u64,
    pub packed: Packed,
    pub document: Option<[String; 5]>,
}

/// Compressed bytes: in memory, or in a temporary file (a large plant's registry) with
/// their length, so that they are never in memory whole where the database can take
/// them in pieces.
#[derive(Debug)]
pub(crate) enum Packed {
    Bytes(Vec<u8>),
    File(std::fs::File, u64),
}

impl Packed {
    pub(crate) fn len(&self) -> u64 {
        match self {
            Packed::Bytes(bytes) => bytes.len() as u64,
            Packed::File(_, len) => *len,
        }
    }

    /// The bytes, read from the start.
    pub(crate) fn reader(&mut self) -> Box<dyn Read + '_> {
        match self {
            Packed::Bytes(bytes) => Box::new(bytes.as_slice()),
            Packed::File(file, _) => Box::new(std::io::BufReader::new(file)),
        }
    }
}

/// What a snapshot holds, counted as it is written.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Counts {
    pub nodes: u64,
    pub shells: u64,
    pub bytes: u64,
}

/// A level as the `nodes` table numbers it: 0 for the registry to 3 for elements.
pub(crate) fn level(level: NodeLevel) -> i64 {
    NodeLevel::ALL.iter().position(|l| *l == level).unwrap_or(0) as i64
}

/// The level the `nodes` table numbers `n` ([`Backend::differing`] gives these).
pub(crate) fn level_at(n: i64) -> Option<NodeLevel> {
    NodeLevel::ALL.get(usize::try_from(n).ok()?).copied()
}

/// Which snapshots [`Backend::snapshots`] lists.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Which<'a> {
    All,
    OfPlant(&'a str),
    One(i64),
}

/// An answer as [`Backend::each_stored`] hands it: its node's keys and URL, and its body
/// as the store keeps it (found by `hash`, the SHA-256 of the bytes as sent; `size`
/// bytes as sent; zstd-compressed or not), read as it comes from the store.
pub(crate) struct StoredAnswer<'r> {
    pub keys: [&'r str; 3],
    pub url: &'r str,
    pub hash: &'r [u8],
    pub size: u64,
    pub zstd: bool,
    /// How many bytes are stored (compressed, when `zstd`).
    pub stored: u64,
    pub bytes: &'r mut dyn StoredBytes,
}

/// A body's bytes as the store keeps them, read as they come from it, and read again
/// from the start where a large one is checked before it is read
/// ([`crate::content::Unpacker::reader`]).
pub(crate) trait StoredBytes: BufRead + std::io::Seek {}

impl<T: BufRead + std::io::Seek> StoredBytes for T {}

/// What [`Backend::each_stored`] calls with each answer.
/// It breaks to end the walk early.
pub(crate) type EachStored<'v> = dyn FnMut(StoredAnswer<'_>) -> Result<ControlFlow<()>> + 'v;

/// The rows of snapshots in one database.
pub(crate) trait Backend: Send + std::fmt::Debug {
    /// The snapshots `which` names, oldest first; a snapshot still being taken is
    /// counted from its rows.
    fn snapshots(&self, which: Which<'_>) -> Result<Vec<SnapshotInfo>>;
    /// The plants that have snapshots, sorted.
    fn plants(&self) -> Result<Vec<String>>;
    /// Removes snapshot `id` and every body, index document and node no other snapshot
    /// uses; gives the space back where the database can. A snapshot a live writer is
    /// taking is not removed ([`crate::Error::BeingTaken`]); one left being taken by a
    /// writer that died is.
    fn remove(&mut self, id: i64) -> Result<()>;

    /// A writer for a snapshot of `plant` from `source`, on a connection of its own (it
    /// runs on the writer's thread), holding the lock that lets one take of them run at
    /// a time ([`crate::Error::Busy`] while another runs), until it is dropped.
    fn writer(&self, source: &str, plant: &str) -> Result<Box<dyn BatchWriter>>;

    /// The body snapshot `id` holds for the node at `level` with `keys`.
    fn answer(&self, id: i64, level: NodeLevel, keys: [&str; 3]) -> Result<Option<BodyRow>>;
    /// The bodies with these ids that the store has, with their ids, in any order.
    fn contents(&self, ids: &[i64]) -> Result<Vec<(i64, BodyRow)>>;
    /// Snapshot `id`'s failed nodes (kind and message), in the order written.
    fn failures(&self, id: i64) -> Result<Vec<NodeRow>>;
    /// Snapshot `id`'s unreadable parts (where and why), in the order written.
    fn unreadable(&self, id: i64) -> Result<Vec<NodeRow>>;
    /// The asset types whose AAS lists snapshot `id` holds.
    fn listed_asset_types(&self, id: i64) -> Result<Vec<String>>;
    /// Hands `visit` every answer of snapshot `id` at `level` (only those of the shells
    /// `shells` names, when given: the others' bodies are not read), ordered by its keys
    /// compared byte by byte; a large body is never read whole where the database can
    /// read it in pieces. An error of `visit` ends the walk and is returned.
    fn each_stored(
        &self,
        id: i64,
        level: NodeLevel,
        shells: Option<&HashSet<&str>>,
        visit: &mut EachStored<'_>,
    ) -> Result<()>;

    /// The ids of at most `limit` elements bodies of snapshot `id` whose index document
    /// holds every word the user typed (the last one begun), in the order they were
    /// first stored; when more match, the first `limit` the database finds (SQLite: the
    /// first stored; PostgreSQL: the first in the table, which is the same until
    /// removals let later bodies fill freed space).
    fn search(&self, id: i64, typed: Typed<'_>, limit: usize) -> Result<Vec<i64>>;
    /// The (body id, shell id, submodel idShort) of each answer of snapshot `id` with
    /// one of the bodies `contents`.
    fn owners(&self, contents: &[i64], id: i64) -> Result<Vec<(i64, String, String)>>;
    /// The places (level, keys) whose body differs between snapshots `old` and `new` or
    /// that only one has, with each side's body id.
    fn differing(&self, old: i64, new: i64) -> Result<Vec<Differing>>;
    /// The space the store takes, in bytes.
    fn size(&self) -> u64;
    /// Lets the database catch up with a large write: PostgreSQL gathers fresh
    /// statistics (a search right after the first take was planned for empty tables:
    /// 1.4 s instead of 2 ms), SQLite empties the write-ahead log, which keeps the size
    /// of the largest transaction (a copy's).
    fn settle(&self) -> Result<()>;
}

/// The writer's connection: one transaction per batch of answers.
pub(crate) trait BatchWriter: Send {
    /// Marks the snapshots its lock covers that were left being taken as partial
    /// (counted from their rows), and starts one; its id.
    fn start(&mut self, taken_at: &str) -> Result<i64>;
    /// Adds a snapshot being taken in the open batch, its id: seen by others only once
    /// the batch commits.
    fn insert_snapshot(&mut self, taken_at: &str) -> Result<i64>;
    fn begin_batch(&mut self) -> Result<()>;
    /// The ids of the bodies with these SHA-256 hashes, where the store has them.
    fn known_contents(&mut self, hashes: &[Vec<u8>]) -> Result<Vec<Option<i64>>>;
    /// Adds bodies the store lacked, each once; their ids, in order (a body another
    /// writer added meanwhile is found instead).
    fn add_contents(&mut self, bodies: Vec<NewContent>) -> Result<Vec<i64>>;
    /// The ids of the nodes at these places, each added when new.
    fn nodes(&mut self, places: &[Place]) -> Result<Vec<i64>>;
    fn add_answer(&mut self, id: i64, node: i64, content: i64) -> Result<()>;
    fn add_failure(&mut self, id: i64, row: &NodeRow) -> Result<()>;
    fn add_unreadable(&mut self, id: i64, row: &NodeRow) -> Result<()>;
    fn commit_batch(&mut self) -> Result<()>;
    /// Ends snapshot `id` as complete or partial with its counts, after its last batch
    /// is committed.
    fn finish(&mut self, id: i64, complete: bool, counts: Counts) -> Result<()>;
}
