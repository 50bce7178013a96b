//! The store's tables, versioned with SQLite's `user_version`: each entry of
//! [`MIGRATIONS`] takes the store one version further, and a store is brought up to
//! date when it is opened.

use rusqlite::Connection;

/// Version `i + 1` is reached by running `MIGRATIONS[i]`. Never edit an entry once
/// released: add one.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: snapshots, answers by content hash, failed nodes, the element index.
    "
    CREATE TABLE snapshots (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        plant TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        -- taking | complete | partial
        state TEXT NOT NULL,
        nodes INTEGER NOT NULL DEFAULT 0,
        shells INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE bodies (
        hash BLOB PRIMARY KEY,
        bytes BLOB NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE answers (
        snapshot INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        path TEXT NOT NULL,
        url TEXT NOT NULL,
        hash BLOB NOT NULL,
        aas_id TEXT,
        submodel TEXT,
        PRIMARY KEY (snapshot, seq)
    ) WITHOUT ROWID;
    CREATE INDEX answers_by_hash ON answers(hash);
    CREATE TABLE failures (
        snapshot INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        url TEXT NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL
    );
    CREATE TABLE elements (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL,
        path TEXT NOT NULL,
        model_type TEXT NOT NULL,
        value TEXT
    );
    CREATE INDEX elements_by_hash ON elements(hash);
    -- Contentless: the words are indexed, not kept twice (elements holds what a hit shows).
    CREATE VIRTUAL TABLE element_text USING fts5(
        id_short, value, texts, semantic_id, description,
        content = '', contentless_delete = 1
    );
    ",
    // 2: a diff pairs the answers of two snapshots by their place in the tree.
    "CREATE INDEX answers_by_path ON answers(snapshot, path);",
    // 3: a snapshot's size (its answers' bytes), for the app's list.
    "ALTER TABLE snapshots ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;",
];

/// The version this build writes.
pub(crate) fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// The store's version.
pub(crate) fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// Runs the migrations from the store's version on, each in its own transaction.
pub(crate) fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let from = version(conn)?;
    if from == 0 {
        // Only settable before the first table: lets `rm` give space back.
        conn.execute_batch("PRAGMA auto_vacuum = INCREMENTAL;")?;
    }
    for (done, sql) in MIGRATIONS.iter().enumerate().skip(from.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", done as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_of_each_earlier_version_is_brought_up_to_date_keeping_its_rows() {
        for from in 1..latest() {
            let mut conn = Connection::open_in_memory().expect("sqlite");
            for sql in &MIGRATIONS[..from as usize] {
                conn.execute_batch(sql).expect("old schema");
            }
            conn.pragma_update(None, "user_version", from)
                .expect("version");
            conn.execute(
                "INSERT INTO snapshots (source, plant, taken_at, state) VALUES ('s', 'P', 't', 'complete')",
                [],
            )
            .expect("a snapshot of that version");
            migrate(&mut conn).expect("migrated");
            assert_eq!(version(&conn).expect("version"), latest());
            let kept: i64 = conn
                .query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0))
                .expect("count");
            assert_eq!(kept, 1, "from version {from}");
        }
    }
}
