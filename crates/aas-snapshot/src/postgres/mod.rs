//! The team store: snapshots in a PostgreSQL database that many desktops read and a
//! scheduled `aasmd snapshot take` writes. The same rows as the SQLite store, in
//! PostgreSQL's words; one take per plant and source at a time (a lock on its row in
//! `takes`, held by a connection of the writer's, so a writer that dies frees it, and
//! a reader role, which may not lock rows, cannot hold it: [`writer::TakeLock`]).

mod connect;
mod schema;
mod tls;
mod writer;

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::mpsc::sync_channel;

use aas_source::NodeLevel;
use postgres::fallible_iterator::FallibleIterator;
use postgres::Client;

use crate::backend::{
    Access, Backend, BatchWriter, BodyRow, EachStored, Keys, NodeRow, SnapshotInfo, StoredAnswer,
    Which,
};
use crate::words::{tokens, Typed};
use crate::{Error, Result};
use connect::Conn;

pub(crate) use connect::shown;
pub use connect::{is_url, url_role, with_password};
pub(crate) use schema::latest;

/// An open team store.
#[derive(Debug)]
pub(crate) struct Postgres {
    /// Reads take `&self`; the connection's calls take `&mut`. One call at a time.
    conn: RefCell<Conn>,
}

impl Postgres {
    /// Opens the store at `url` for `access`. Its tables must be this app's version:
    /// only `aasmd store init|migrate` ([`Postgres::init`]) makes or changes them, so
    /// that a new desktop never migrates a store older desktops still read. A take or
    /// a removal needs a role that may write.
    pub(crate) fn open(url: &str, access: Access) -> Result<Postgres> {
        let mut conn = Conn::open(url)?;
        let (found, read_only) = conn.run(|client| {
            let mut tx = client.transaction()?;
            let found = schema::version(&mut tx)?;
            let read_only = match access {
                Access::Write | Access::Create if found == schema::latest() => {
                    schema::read_only_role(&mut tx)?
                }
                _ => None,
            };
            tx.commit()?;
            Ok((found, read_only))
        })?;
        check_version(url, found)?;
        if let Some(user) = read_only {
            return Err(Error::ReadOnlyTeam {
                store: shown(url),
                user,
            });
        }
        Ok(Postgres {
            conn: RefCell::new(conn),
        })
    }

    /// Makes the store's tables in the database at `url` (`create`), or brings older
    /// ones up to date (not `create`: a database without them is refused, so a
    /// mistyped URL makes nothing), and lets each role of `readers` read them, and the
    /// tables of later versions. Returns the version found. A database without the
    /// store's tables but with tables of another program is refused
    /// ([`Error::NotATeamStore`]), and nothing is made in it.
    pub(crate) fn init(url: &str, create: bool, readers: &[String]) -> Result<i64> {
        let latest = schema::latest();
        // `init` makes new tables or finds this version's; `migrate` needs older ones.
        let fits = move |found: i64| match create {
            true => found == 0 || found == latest,
            false => (1..=latest).contains(&found),
        };
        let mut conn = Conn::open(url)?;
        let (found, others) = conn.run(|client| {
            let mut tx = client.transaction()?;
            let found = schema::version(&mut tx)?;
            let others = match found {
                0 => schema::others_tables(&mut tx)?,
                _ => Vec::new(),
            };
            if fits(found) && others.is_empty() {
                schema::migrate(&mut tx)?;
                schema::grant_reading(&mut tx, readers)?;
                tx.commit()?;
            }
            Ok((found, others))
        })?;
        if !others.is_empty() {
            let tables = match others.len() {
                n if n > 5 => format!("{} and {} more", others[..5].join(", "), n - 5),
                _ => others.join(", "),
            };
            return Err(Error::NotATeamStore {
                store: shown(url),
                tables,
            });
        }
        if !fits(found) {
            // Says what does not fit: no tables, older ones, newer ones.
            check_version(url, found)?;
        }
        Ok(found)
    }

    fn run<T: Send>(
        &self,
        work: impl FnOnce(&mut Client) -> std::result::Result<T, postgres::Error> + Send,
    ) -> Result<T> {
        self.conn.borrow_mut().run(work)
    }

    fn run_prepared<T: Send>(
        &self,
        sql: &'static str,
        work: impl FnOnce(&mut Client, &postgres::Statement) -> std::result::Result<T, postgres::Error>
            + Send,
    ) -> Result<T> {
        self.conn.borrow_mut().run_prepared(sql, work)
    }

    fn url(&self) -> String {
        self.conn.borrow().url().to_owned()
    }

    fn node_rows(&self, sql: &str, id: i64) -> Result<Vec<NodeRow>> {
        let rows = self.run(|c| c.query(sql, &[&id]))?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect())
    }
}

/// Whether this app can read the store's tables of version `found`.
fn check_version(url: &str, found: i64) -> Result<()> {
    if found > schema::latest() {
        return Err(Error::TooNewTeam {
            store: shown(url),
            found,
            known: schema::latest(),
        });
    }
    if found < schema::latest() {
        return Err(Error::NotMigrated {
            store: shown(url),
            found,
        });
    }
    Ok(())
}

/// A snapshot's counts as its rows give them, for one still being taken.
pub(crate) const SHELLS_HELD: &str = "(SELECT count(*) FROM answers a JOIN nodes n ON n.id = a.node
        WHERE a.snapshot = snapshots.id AND n.level = 2)
    + (SELECT count(*) FROM failures f
        WHERE f.snapshot = snapshots.id AND f.path::jsonb->>'level' = 'submodels')";
pub(crate) const NODES_HELD: &str =
    "(SELECT count(*) FROM answers a WHERE a.snapshot = snapshots.id)";
pub(crate) const BYTES_HELD: &str = "(SELECT coalesce(sum(c.size), 0)::BIGINT FROM answers a
        JOIN contents c ON c.id = a.content WHERE a.snapshot = snapshots.id)";

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

fn snapshot_row(row: &postgres::Row) -> SnapshotInfo {
    let count = |i: usize| u64::try_from(row.get::<_, i64>(i)).unwrap_or(0);
    let state: String = row.get(6);
    SnapshotInfo {
        id: row.get(0),
        source: row.get(1),
        plant: row.get(2),
        taken_at: row.get(3),
        shells: count(4),
        nodes: count(5),
        complete: state == "complete",
        bytes: count(7),
        unreadable: count(8),
        being_taken: state == "taking",
    }
}

/// Snapshots in the order they were taken: by the crawl's start (RFC 3339 UTC, whose
/// text sorts as its time byte by byte), a copied snapshot among the others by its own;
/// taken in the same second, in the order they were stored.
const IN_ORDER: &str = "ORDER BY taken_at COLLATE \"C\", id";

/// An answer as it streams out of the store, owned by the reading thread's queue.
struct Streamed {
    keys: [String; 3],
    url: String,
    hash: Vec<u8>,
    size: i64,
    zstd: bool,
    bytes: Vec<u8>,
}

fn level(level: NodeLevel) -> i16 {
    crate::backend::level(level) as i16
}

fn body_row(row: &postgres::Row) -> BodyRow {
    let size: i64 = row.get(2);
    (row.get(0), row.get(1), u64::try_from(size).unwrap_or(0))
}

impl Backend for Postgres {
    fn snapshots(&self, which: Which<'_>) -> Result<Vec<SnapshotInfo>> {
        let columns = snapshot_columns();
        let rows = self.run(|c| match which {
            Which::All => c.query(&format!("SELECT {columns} FROM snapshots {IN_ORDER}"), &[]),
            Which::OfPlant(plant) => c.query(
                &format!("SELECT {columns} FROM snapshots WHERE plant = $1 {IN_ORDER}"),
                &[&plant],
            ),
            Which::One(id) => c.query(
                &format!("SELECT {columns} FROM snapshots WHERE id = $1"),
                &[&id],
            ),
        })?;
        Ok(rows.iter().map(snapshot_row).collect())
    }

    fn plants(&self) -> Result<Vec<String>> {
        let rows =
            self.run(|c| c.query("SELECT DISTINCT plant FROM snapshots ORDER BY plant", &[]))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn remove(&mut self, id: i64) -> Result<()> {
        let row = self.run(|c| {
            c.query_opt(
                "SELECT state, source, plant FROM snapshots WHERE id = $1",
                &[&id],
            )
        })?;
        let row = row.ok_or(Error::NoSuchSnapshot(id))?;
        let (state, source, plant): (String, String, String) = (row.get(0), row.get(1), row.get(2));
        // A live writer holds its plant's lock; one that died freed it.
        let taking = state == "taking";
        let removed = self.run(|c| {
            let mut tx = c.transaction()?;
            if taking && !writer::lock_row(&mut tx, &source, &plant)? {
                return Ok(false);
            }
            tx.execute("DELETE FROM snapshots WHERE id = $1", &[&id])?;
            tx.batch_execute(
                "DELETE FROM contents c WHERE NOT EXISTS
                     (SELECT 1 FROM answers a WHERE a.content = c.id);
                 DELETE FROM nodes n WHERE NOT EXISTS (SELECT 1 FROM answers a WHERE a.node = n.id);",
            )?;
            tx.commit()?;
            Ok(true)
        })?;
        if removed {
            Ok(())
        } else {
            Err(Error::BeingTaken(id))
        }
    }

    fn writer(&self, source: &str, plant: &str) -> Result<Box<dyn BatchWriter>> {
        Ok(Box::new(writer::PgWriter::new(&self.url(), source, plant)?))
    }

    fn answer(&self, id: i64, at: NodeLevel, keys: [&str; 3]) -> Result<Option<BodyRow>> {
        let [asset_type, aas_id, submodel] = keys;
        let row = self.run(|c| {
            c.query_opt(
                "SELECT c.zstd, c.bytes, c.size FROM nodes k
                 JOIN answers a ON a.snapshot = $1 AND a.node = k.id
                 JOIN contents c ON c.id = a.content
                 WHERE k.level = $2 AND k.asset_type = $3 AND k.aas_id = $4 AND k.submodel = $5
                 LIMIT 1",
                &[&id, &level(at), &asset_type, &aas_id, &submodel],
            )
        })?;
        Ok(row.as_ref().map(body_row))
    }

    fn contents(&self, ids: &[i64]) -> Result<Vec<(i64, BodyRow)>> {
        let rows = self.run_prepared(
            "SELECT zstd, bytes, size, id FROM contents WHERE id = ANY($1)",
            |c, s| c.query(s, &[&ids]),
        )?;
        Ok(rows.iter().map(|r| (r.get(3), body_row(r))).collect())
    }

    fn failures(&self, id: i64) -> Result<Vec<NodeRow>> {
        self.node_rows(
            "SELECT path, url, kind, message FROM failures WHERE snapshot = $1 ORDER BY id",
            id,
        )
    }

    fn unreadable(&self, id: i64) -> Result<Vec<NodeRow>> {
        self.node_rows(
            "SELECT path, url, at, reason FROM unreadable WHERE snapshot = $1 ORDER BY id",
            id,
        )
    }

    fn listed_asset_types(&self, id: i64) -> Result<Vec<String>> {
        let rows = self.run(|c| {
            c.query(
                "SELECT DISTINCT k.asset_type FROM answers a JOIN nodes k ON k.id = a.node
                 WHERE a.snapshot = $1 AND k.level = 1",
                &[&id],
            )
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn each_stored(
        &self,
        id: i64,
        at: NodeLevel,
        shells: Option<&HashSet<&str>>,
        visit: &mut EachStored<'_>,
    ) -> Result<()> {
        // The rows stream from a connection of their own through a short queue (one
        // body in memory per slot); a visit that fails closes it, which ends the query.
        let mut conn = Conn::open(&self.url())?;
        let (rows, queue) = sync_channel::<Result<Streamed>>(8);
        let level = level(at);
        let wanted: Option<Vec<&str>> = shells.map(|s| s.iter().copied().collect());
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let streamed = conn.run(|c| {
                    let params: [&(dyn postgres::types::ToSql + Sync); 3] = [&id, &level, &wanted];
                    // Keys compared byte by byte, as every source of answers orders them.
                    let mut found = c.query_raw(
                        "SELECT k.asset_type, k.aas_id, k.submodel, k.url, c.hash, c.size,
                             c.zstd, c.bytes
                         FROM nodes k
                         JOIN answers a ON a.snapshot = $1 AND a.node = k.id
                         JOIN contents c ON c.id = a.content
                         WHERE k.level = $2 AND ($3::text[] IS NULL OR k.aas_id = ANY($3))
                         ORDER BY k.asset_type COLLATE \"C\", k.aas_id COLLATE \"C\",
                             k.submodel COLLATE \"C\"",
                        params,
                    )?;
                    while let Some(row) = found.next()? {
                        let answer = Streamed {
                            keys: [row.get(0), row.get(1), row.get(2)],
                            url: row.get(3),
                            hash: row.get(4),
                            size: row.get(5),
                            zstd: row.get(6),
                            bytes: row.get(7),
                        };
                        if rows.send(Ok(answer)).is_err() {
                            break;
                        }
                    }
                    Ok(())
                });
                if let Err(e) = streamed {
                    let _ = rows.send(Err(e));
                }
            });
            for answer in queue {
                let answer = answer?;
                let [asset_type, aas_id, submodel] = &answer.keys;
                let flow = visit(StoredAnswer {
                    keys: [asset_type, aas_id, submodel],
                    url: &answer.url,
                    hash: &answer.hash,
                    size: u64::try_from(answer.size).unwrap_or(0),
                    zstd: answer.zstd,
                    stored: answer.bytes.len() as u64,
                    bytes: &mut std::io::Cursor::new(answer.bytes.as_slice()),
                })?;
                // Leaving drops the queue, which ends the query.
                if flow.is_break() {
                    break;
                }
            }
            Ok(())
        })
    }

    fn search(&self, id: i64, typed: Typed<'_>, limit: usize) -> Result<Vec<i64>> {
        let Some(query) = ts_query(typed.as_str()) else {
            return Ok(Vec::new());
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // GIN gives the bodies in no order: sorting all of them (17,500 bodies hold
        // "0173-1#02" in a 10,000-asset plant) to keep the first 400 cost 35 ms. The
        // first `limit` in the table's order, nearly always the order stored, cost 5 ms.
        // The fence (OFFSET 0) keeps the snapshot's test a look-up per body found, which
        // the planner otherwise trades for a hash of the whole snapshot when it
        // misjudges how many bodies match.
        let rows = self.run(|c| {
            c.query(
                "SELECT c.id FROM contents c WHERE c.words @@ $2::text::tsquery
                 AND EXISTS (SELECT 1 FROM answers a WHERE a.content = c.id AND a.snapshot = $1
                     OFFSET 0)
                 LIMIT $3",
                &[&id, &query, &limit],
            )
        })?;
        let mut found: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        found.sort_unstable();
        Ok(found)
    }

    fn owners(&self, contents: &[i64], id: i64) -> Result<Vec<(i64, String, String)>> {
        let rows = self.run_prepared(
            "SELECT a.content, k.aas_id, k.submodel FROM answers a JOIN nodes k ON k.id = a.node
             WHERE a.content = ANY($1) AND a.snapshot = $2",
            |c, s| c.query(s, &[&contents, &id]),
        )?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    fn differing(&self, old: i64, new: i64) -> Result<Vec<(i64, Keys, Option<i64>, Option<i64>)>> {
        let rows = self.run(|c| {
            c.query(
                "WITH side AS (
                     SELECT a.snapshot, k.level, k.asset_type, k.aas_id, k.submodel, a.content
                     FROM answers a JOIN nodes k ON k.id = a.node WHERE a.snapshot IN ($1, $2)),
                 before AS (SELECT * FROM side WHERE snapshot = $1),
                 after AS (SELECT * FROM side WHERE snapshot = $2)
                 SELECT coalesce(b.level, a.level), coalesce(b.asset_type, a.asset_type),
                     coalesce(b.aas_id, a.aas_id), coalesce(b.submodel, a.submodel),
                     b.content, a.content
                 FROM before b FULL JOIN after a
                     ON a.level = b.level AND a.asset_type = b.asset_type
                     AND a.aas_id = b.aas_id AND a.submodel = b.submodel
                 WHERE b.content IS DISTINCT FROM a.content",
                &[&old, &new],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| {
                let at: i16 = r.get(0);
                (
                    i64::from(at),
                    [r.get(1), r.get(2), r.get(3)],
                    r.get(4),
                    r.get(5),
                )
            })
            .collect())
    }

    fn size(&self) -> u64 {
        self.run(|c| c.query_one("SELECT pg_database_size(current_database())", &[]))
            .map(|r| u64::try_from(r.get::<_, i64>(0)).unwrap_or(0))
            .unwrap_or(0)
    }

    fn settle(&self) -> Result<()> {
        self.run(|c| c.batch_execute("ANALYZE snapshots, contents, nodes, answers"))
    }
}

/// The words of an index document, as a `tsvector` literal's lexemes: the words the
/// SQLite index makes of it (letters and digits, folded), each once.
pub(crate) fn lexemes(document: &[String; 5]) -> Vec<String> {
    let mut words: Vec<String> = document.iter().flat_map(|column| tokens(column)).collect();
    words.sort();
    words.dedup();
    words
}

/// The `tsquery` of what the user typed: every word, the last one begun; `None` without
/// a word. The words are letters and digits only, so quoting them needs no escapes.
fn ts_query(typed: &str) -> Option<String> {
    let words: Vec<String> = typed.split_whitespace().flat_map(tokens).collect();
    let last = words.len().checked_sub(1)?;
    let terms: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if i == last {
                format!("'{w}':*")
            } else {
                format!("'{w}'")
            }
        })
        .collect();
    Some(terms.join(" & "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_words_become_a_query_of_every_word_the_last_begun() {
        assert_eq!(ts_query("SN-M-00").as_deref(), Some("'sn' & 'm' & '00':*"));
        assert_eq!(ts_query("  pump's  "), Some("'pump' & 's':*".to_owned()));
        assert_eq!(ts_query(" -- "), None);
    }
}
