//! A take into the team store, on a connection of its own that holds the plant's
//! advisory lock for as long as it lives: a writer that dies (a crash, a lost
//! connection) frees it, and the next take of the plant marks its snapshot partial.
//! Answers are buffered per batch and copied in (COPY) when the batch commits.

use std::collections::{HashMap, HashSet};
use std::io::Read;

use aas_client::NodeLevel;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};
use postgres::Client;

use super::connect::Conn;
use super::{level, lexemes, shown, take_lock, BYTES_HELD, NODES_HELD, SHELLS_HELD};
use crate::backend::{BatchWriter, Counts, NodeRow};
use crate::{Error, Result};

#[derive(Debug)]
pub(crate) struct PgWriter {
    conn: Conn,
    source: String,
    plant: String,
    /// The batch's answers (snapshot, node, body), copied in when it commits.
    answers: Vec<[i64; 3]>,
    /// Node ids this take has looked up.
    nodes: HashMap<(i16, [String; 3], String), i64>,
}

impl PgWriter {
    /// Connects and takes the lock of `plant` from `source`, or says another take holds it.
    pub(crate) fn new(url: &str, source: &str, plant: &str) -> Result<PgWriter> {
        let mut conn = Conn::open(url)?;
        let lock = take_lock(source, plant);
        let locked: bool = conn
            .run(|c| c.query_one("SELECT pg_try_advisory_lock($1)", &[&lock]))?
            .get(0);
        if !locked {
            return Err(Error::BusyTeam {
                store: shown(url),
                plant: plant.to_owned(),
            });
        }
        Ok(PgWriter {
            conn,
            source: source.to_owned(),
            plant: plant.to_owned(),
            answers: Vec::new(),
            nodes: HashMap::new(),
        })
    }
}

impl Drop for PgWriter {
    /// Ends a batch an error left open and lets the lock go before the connection
    /// closes: the server ends a closed session a moment later, and the next take or
    /// copy of the plant (in this process, at once) would find the lock still held.
    fn drop(&mut self) {
        let _ = (self.conn).run(|c| c.batch_execute("ROLLBACK; SELECT pg_advisory_unlock_all()"));
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
        self.conn.run(|c| c.batch_execute("BEGIN"))
    }

    fn known_content(&mut self, hash: &[u8]) -> Result<Option<i64>> {
        let row = self
            .conn
            .run(|c| c.query_opt("SELECT id FROM contents WHERE hash = $1", &[&hash]))?;
        Ok(row.map(|r| r.get(0)))
    }

    fn add_content(
        &mut self,
        hash: &[u8],
        size: u64,
        packed: &mut dyn Read,
        packed_size: u64,
        document: Option<[String; 5]>,
    ) -> Result<i64> {
        let mut bytes = Vec::with_capacity(usize::try_from(packed_size).unwrap_or(0));
        packed.read_to_end(&mut bytes).map_err(|source| {
            Error::File(aas_model::FileError {
                action: "keep an answer in",
                path: shown(self.conn.url()).into(),
                source,
            })
        })?;
        let words = document.as_ref().map(lexemes);
        let size = i64::try_from(size).unwrap_or(i64::MAX);
        self.conn.run(|c| {
            inserted_or_found(
                c,
                "INSERT INTO contents (hash, size, zstd, bytes, words)
                 VALUES ($1, $2, true, $3, array_to_tsvector($4::text[]))
                 ON CONFLICT DO NOTHING RETURNING id",
                &[&hash, &size, &bytes, &words],
                "SELECT id FROM contents WHERE hash = $1",
                &[&hash],
            )
        })
    }

    fn node(&mut self, at: NodeLevel, keys: [&str; 3], url: &str) -> Result<i64> {
        let key = (level(at), keys.map(str::to_owned), url.to_owned());
        if let Some(node) = self.nodes.get(&key) {
            return Ok(*node);
        }
        let [asset_type, aas_id, submodel] = keys;
        let params: [&(dyn ToSql + Sync); 5] = [&key.0, &asset_type, &aas_id, &submodel, &url];
        let node = self.conn.run(|c| {
            inserted_or_found(
                c,
                "INSERT INTO nodes (level, asset_type, aas_id, submodel, url)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id",
                &params,
                "SELECT id FROM nodes WHERE level = $1 AND asset_type = $2 AND aas_id = $3
                     AND submodel = $4 AND url = $5",
                &params,
            )
        })?;
        self.nodes.insert(key, node);
        Ok(node)
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
        })
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

/// The id of the row `insert` adds, or, when another take or copy has added it (the
/// insert waits for that one's transaction to end, then does nothing), of the row
/// `select` finds: in a statement of its own, which sees what the other committed.
fn inserted_or_found(
    c: &mut Client,
    insert: &str,
    insert_params: &[&(dyn ToSql + Sync)],
    select: &str,
    select_params: &[&(dyn ToSql + Sync)],
) -> std::result::Result<i64, postgres::Error> {
    match c.query_opt(insert, insert_params)? {
        Some(row) => Ok(row.get(0)),
        None => Ok(c.query_one(select, select_params)?.get(0)),
    }
}
