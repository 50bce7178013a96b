//! A take into the team store, on a connection of its own, while a second connection
//! holds the plant's take lock ([`TakeLock`]) for as long as the take lives: a writer
//! that dies (a crash, a lost connection) frees it, and the next take of the plant marks
//! its snapshot partial. Answers are buffered per batch and copied in (COPY) when the
//! batch commits.

use std::collections::{HashMap, HashSet};
use std::io::Read;

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::Type;

use super::connect::Conn;
use super::{level, lexemes, shown, BYTES_HELD, NODES_HELD, SHELLS_HELD};
use crate::backend::{level_at, BatchWriter, Counts, NewContent, NodeRow, Place};
use crate::{Error, Result};

/// How a writer finds the ids of rows by their keys (hashes, places).
type Ids<K> = fn(&mut PgWriter, &[K]) -> Result<HashMap<K, i64>>;

#[derive(Debug)]
pub(crate) struct PgWriter {
    conn: Conn,
    /// Held until the writer is dropped.
    _lock: TakeLock,
    source: String,
    plant: String,
    /// The batch's answers (snapshot, node, body), copied in when it commits.
    answers: Vec<[i64; 3]>,
    /// A batch is open (begun, not committed).
    in_batch: bool,
}

impl PgWriter {
    /// Takes the lock of `plant` from `source` (or says another take holds it), and
    /// connects.
    pub(crate) fn new(url: &str, source: &str, plant: &str) -> Result<PgWriter> {
        let lock = TakeLock::take(url, source, plant)?;
        let conn = Conn::open(url)?;
        Ok(PgWriter {
            conn,
            _lock: lock,
            source: source.to_owned(),
            plant: plant.to_owned(),
            answers: Vec::new(),
            in_batch: false,
        })
    }
}

impl PgWriter {
    /// The ids of the bodies with these hashes that the store has.
    fn ids_of_hashes(&mut self, hashes: &[Vec<u8>]) -> Result<HashMap<Vec<u8>, i64>> {
        let rows = self.conn.run_prepared(
            "SELECT hash, id FROM contents WHERE hash = ANY($1)",
            |c, s| c.query(s, &[&hashes]),
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// The ids of the nodes at `places`, those not there yet added, in one statement:
    /// the nodes it finds were there before it began, those it adds are returned by the
    /// insert. One another writer added meanwhile is in neither.
    fn add_nodes(&mut self, places: &[Place]) -> Result<HashMap<Place, i64>> {
        let levels: Vec<i16> = places.iter().map(|p| level(p.level)).collect();
        let key = |i: usize| -> Vec<&str> { places.iter().map(|p| p.keys[i].as_str()).collect() };
        let (asset_types, aas_ids, submodels) = (key(0), key(1), key(2));
        let urls: Vec<&str> = places.iter().map(|p| p.url.as_str()).collect();
        let rows = self.conn.run_prepared(
            "WITH wanted AS (
                 SELECT DISTINCT * FROM unnest($1::int2[], $2::text[], $3::text[], $4::text[],
                     $5::text[]) AS w(level, asset_type, aas_id, submodel, url)),
             added AS (
                 INSERT INTO nodes (level, asset_type, aas_id, submodel, url)
                 SELECT * FROM wanted ON CONFLICT DO NOTHING
                 RETURNING id, level, asset_type, aas_id, submodel, url)
             SELECT id, level, asset_type, aas_id, submodel, url FROM added
             UNION ALL
             SELECT n.id, n.level, n.asset_type, n.aas_id, n.submodel, n.url
             FROM nodes n JOIN wanted w USING (level, asset_type, aas_id, submodel, url)",
            |c, s| c.query(s, &[&levels, &asset_types, &aas_ids, &submodels, &urls]),
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let place = Place {
                    level: level_at(r.get::<_, i16>(1).into())?,
                    keys: [r.get(2), r.get(3), r.get(4)],
                    url: r.get(5),
                };
                Some((place, r.get(0)))
            })
            .collect())
    }

    /// The id of each row of `wanted`, in order: from `found`, else from `again`, in a
    /// statement of its own, which sees the rows another writer committed while the
    /// first one ran. A row still missing was removed meanwhile: an error of `what`.
    fn in_order<K: Eq + std::hash::Hash + Clone>(
        &mut self,
        wanted: &[K],
        mut found: HashMap<K, i64>,
        again: Ids<K>,
        what: &str,
    ) -> Result<Vec<i64>> {
        if found.len() < wanted.len() {
            let missing: Vec<K> = (wanted.iter())
                .filter(|k| !found.contains_key(*k))
                .cloned()
                .collect();
            found.extend(again(self, &missing)?);
        }
        let vanished = || {
            Error::File(aas_model::FileError {
                action: "find what another take had added to",
                path: shown(self.conn.url()).into(),
                source: std::io::Error::other(format!("{what} was removed meanwhile; take again")),
            })
        };
        (wanted.iter())
            .map(|k| found.get(k).copied().ok_or_else(vanished))
            .collect()
    }
}

impl Drop for PgWriter {
    /// Ends a batch an error left open (the lock is let go after it, as its field is
    /// dropped).
    fn drop(&mut self) {
        if self.in_batch {
            let _ = self.conn.run(|c| c.batch_execute("ROLLBACK"));
        }
    }
}

/// The lock of the takes of one plant from one source: its row in `takes`, locked (FOR
/// UPDATE) by a transaction that a connection of its own keeps open for as long as the
/// take lives. Only a role that may update `takes` can lock its rows: a reader role
/// cannot hold the lock and block the writer's takes (any role may take any advisory
/// lock, which the store used before). A writer that dies ends its session, and the
/// server lets the lock go with it.
#[derive(Debug)]
pub(crate) struct TakeLock {
    conn: Conn,
}

impl TakeLock {
    /// The lock of the takes of `plant` from `source` in the store at `url`, or
    /// [`Error::BusyTeam`] while another take holds it.
    pub(crate) fn take(url: &str, source: &str, plant: &str) -> Result<TakeLock> {
        let mut conn = Conn::open(url)?;
        let locked = conn.run(|c| {
            // The row is made by a statement of its own, committed at once: made in the
            // lock's transaction, another take's insert would wait for it to end
            // instead of finding it locked.
            c.execute(
                "INSERT INTO takes (source, plant) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&source, &plant],
            )?;
            c.batch_execute("BEGIN")?;
            lock_row(c, source, plant)
        })?;
        if !locked {
            return Err(Error::BusyTeam {
                store: shown(url),
                plant: plant.to_owned(),
            });
        }
        Ok(TakeLock { conn })
    }
}

impl Drop for TakeLock {
    /// Lets the lock go before the connection closes: the server ends a closed session
    /// a moment later, and the next take or copy of the plant (in this process, at once)
    /// would find the lock still held.
    fn drop(&mut self) {
        let _ = self.conn.run(|c| c.batch_execute("ROLLBACK"));
    }
}

/// Locks the take row of `plant` from `source` in the transaction open on `c`, without
/// waiting: whether it was free (a row never made is free: nothing to lock). A lock
/// another take holds leaves the transaction failed, for the caller to roll back.
pub(crate) fn lock_row(
    c: &mut impl postgres::GenericClient,
    source: &str,
    plant: &str,
) -> std::result::Result<bool, postgres::Error> {
    let locked = c.query(
        "SELECT 1 FROM takes WHERE source = $1 AND plant = $2 FOR UPDATE NOWAIT",
        &[&source, &plant],
    );
    match locked {
        Ok(_) => Ok(true),
        Err(e) if e.code() == Some(&postgres::error::SqlState::LOCK_NOT_AVAILABLE) => Ok(false),
        Err(e) => Err(e),
    }
}

impl BatchWriter for PgWriter {
    fn start(&mut self, taken_at: &str) -> Result<i64> {
        self.begin_batch()?;
        let (source, plant) = (&self.source, &self.plant);
        // Holding the lock, a take of this plant and source still 'taking' was
        // interrupted: it keeps what its rows hold, counted.
        self.conn.run(|c| {
            c.execute(
                &format!(
                    "UPDATE snapshots SET state = 'partial', shells = {SHELLS_HELD},
                     nodes = {NODES_HELD}, bytes = {BYTES_HELD}
                     WHERE state = 'taking' AND source = $1 AND plant = $2"
                ),
                &[source, plant],
            )
        })?;
        let id = self.insert_snapshot(taken_at)?;
        self.commit_batch()?;
        Ok(id)
    }

    fn insert_snapshot(&mut self, taken_at: &str) -> Result<i64> {
        let (source, plant) = (&self.source, &self.plant);
        let row = self.conn.run(|c| {
            c.query_one(
                "INSERT INTO snapshots (source, plant, taken_at, state)
                 VALUES ($1, $2, $3, 'taking') RETURNING id",
                &[source, plant, &taken_at],
            )
        })?;
        Ok(row.get(0))
    }

    fn begin_batch(&mut self) -> Result<()> {
        self.conn.run(|c| c.batch_execute("BEGIN"))?;
        self.in_batch = true;
        Ok(())
    }

    fn known_contents(&mut self, hashes: &[Vec<u8>]) -> Result<Vec<Option<i64>>> {
        let found = self.ids_of_hashes(hashes)?;
        Ok(hashes.iter().map(|hash| found.get(hash).copied()).collect())
    }

    fn add_contents(&mut self, bodies: Vec<NewContent>) -> Result<Vec<i64>> {
        if bodies.is_empty() {
            return Ok(Vec::new());
        }
        let n = bodies.len();
        let (mut hashes, mut sizes, mut packed, mut words) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for mut body in bodies {
            let mut bytes = Vec::with_capacity(usize::try_from(body.packed.len()).unwrap_or(0));
            (body.packed.reader().read_to_end(&mut bytes)).map_err(|source| {
                Error::File(aas_model::FileError {
                    action: "keep an answer in",
                    path: shown(self.conn.url()).into(),
                    source,
                })
            })?;
            hashes.push(body.hash);
            sizes.push(i64::try_from(body.size).unwrap_or(i64::MAX));
            packed.push(bytes);
            // The index's words are letters and digits: a space parts them.
            words.push(body.document.as_ref().map(|d| lexemes(d).join(" ")));
        }
        let added = self.conn.run_prepared(
            "INSERT INTO contents (hash, size, zstd, bytes, words)
             SELECT hash, size, true, bytes, array_to_tsvector(string_to_array(words, ' '))
             FROM unnest($1::bytea[], $2::int8[], $3::bytea[], $4::text[])
                 AS t(hash, size, bytes, words)
             ON CONFLICT DO NOTHING RETURNING hash, id",
            |c, s| c.query(s, &[&hashes, &sizes, &packed, &words]),
        )?;
        let added = added.iter().map(|r| (r.get(0), r.get(1))).collect();
        // One another take or copy added meanwhile: the insert waited for it, then did
        // nothing.
        self.in_order(&hashes, added, Self::ids_of_hashes, "a body")
    }

    fn nodes(&mut self, places: &[Place]) -> Result<Vec<i64>> {
        let found = self.add_nodes(places)?;
        self.in_order(places, found, Self::add_nodes, "a node")
    }

    fn add_answer(&mut self, id: i64, node: i64, content: i64) -> Result<()> {
        self.answers.push([id, node, content]);
        Ok(())
    }

    fn add_failure(&mut self, id: i64, row: &NodeRow) -> Result<()> {
        let (path, url, kind, message) = row;
        self.conn.run(|c| {
            c.execute(
                "INSERT INTO failures (snapshot, path, url, kind, message) VALUES ($1, $2, $3, $4, $5)",
                &[&id, path, url, kind, message],
            )
        })?;
        Ok(())
    }

    fn add_unreadable(&mut self, id: i64, row: &NodeRow) -> Result<()> {
        let (path, url, at, reason) = row;
        self.conn.run(|c| {
            c.execute(
                "INSERT INTO unreadable (snapshot, path, url, at, reason) VALUES ($1, $2, $3, $4, $5)",
                &[&id, path, url, at, reason],
            )
        })?;
        Ok(())
    }

    fn commit_batch(&mut self) -> Result<()> {
        // A place crawled twice in one take keeps its first answer, as SQLite's does.
        let mut placed = HashSet::new();
        let mut answers = std::mem::take(&mut self.answers);
        answers.retain(|[_, node, _]| placed.insert(*node));
        // In the order of the primary key (snapshot, node): a take finds the plant's nodes
        // in about the order the first take made them, so its rows go to the end of the
        // index instead of splitting its pages (which left them 70 % full).
        answers.sort_unstable_by_key(|[_, node, _]| *node);
        self.conn.run(|c| {
            if !answers.is_empty() {
                c.batch_execute(
                    "CREATE TEMP TABLE IF NOT EXISTS batch (snapshot BIGINT, node BIGINT, content BIGINT)
                     ON COMMIT DELETE ROWS",
                )?;
                let sink = c.copy_in("COPY batch (snapshot, node, content) FROM STDIN BINARY")?;
                let mut copy = BinaryCopyInWriter::new(sink, &[Type::INT8, Type::INT8, Type::INT8]);
                for [id, node, content] in &answers {
                    copy.write(&[id, node, content])?;
                }
                copy.finish()?;
                c.batch_execute(
                    "INSERT INTO answers (snapshot, node, content)
                     SELECT snapshot, node, content FROM batch ON CONFLICT DO NOTHING",
                )?;
            }
            c.batch_execute("COMMIT")
        })?;
        self.in_batch = false;
        Ok(())
    }

    fn finish(&mut self, id: i64, complete: bool, counts: Counts) -> Result<()> {
        let state = if complete { "complete" } else { "partial" };
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let [nodes, shells, bytes] = [counts.nodes, counts.shells, counts.bytes].map(count);
        self.conn.run(|c| {
            c.execute(
                "UPDATE snapshots SET state = $2, nodes = $3, shells = $4, bytes = $5 WHERE id = $1",
                &[&id, &state, &nodes, &shells, &bytes],
            )
        })?;
        Ok(())
    }
}
