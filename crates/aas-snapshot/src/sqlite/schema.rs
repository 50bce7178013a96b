//! The store's tables, versioned with SQLite's `user_version`: each entry of
//! [`MIGRATIONS`] takes the store one version further, and a store is brought up to
//! date when it is opened.

use rusqlite::Connection;

/// Version `i + 1` is reached by running `MIGRATIONS[i]`. Never edit an entry once
/// released: add one.
const MIGRATIONS: &[&str] = &[
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
    // 4: small rows. A body gets an integer id and is kept zstd-compressed (the bodies
    // of earlier versions stay as they were, `zstd = 0`); a node (its place in the tree
    // and its URL) is kept once for all snapshots; an answer is three integers. The
    // search index has one document per elements body (its rowid is the body's id) in
    // place of a row per element: the elements are read from the body when found. The
    // bodies of earlier versions are indexed anew by the next `Store::open`
    // (`unindexed`), since SQL cannot read them.
    "
    CREATE TABLE contents (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        -- The answer's length as the server sent it.
        size INTEGER NOT NULL,
        zstd INTEGER NOT NULL,
        bytes BLOB NOT NULL
    );
    INSERT INTO contents (hash, size, zstd, bytes)
        SELECT hash, length(bytes), 0, bytes FROM bodies;
    -- level: 0 registry, 1 AAS list, 2 submodels, 3 elements; '' where a key is absent.
    CREATE TABLE nodes (
        id INTEGER PRIMARY KEY,
        level INTEGER NOT NULL,
        asset_type TEXT NOT NULL,
        aas_id TEXT NOT NULL,
        submodel TEXT NOT NULL,
        url TEXT NOT NULL,
        UNIQUE (level, asset_type, aas_id, submodel, url)
    );
    INSERT OR IGNORE INTO nodes (level, asset_type, aas_id, submodel, url)
        SELECT CASE json_extract(path, '$.level')
                   WHEN 'registry' THEN 0 WHEN 'aas_list' THEN 1
                   WHEN 'submodels' THEN 2 ELSE 3 END,
               coalesce(json_extract(path, '$.asset_type'), ''),
               coalesce(aas_id, ''), coalesce(submodel, ''), url
        FROM answers ORDER BY snapshot, seq;
    CREATE TABLE stored (
        snapshot INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        node INTEGER NOT NULL,
        content INTEGER NOT NULL,
        PRIMARY KEY (snapshot, node)
    ) WITHOUT ROWID;
    INSERT OR IGNORE INTO stored (snapshot, node, content)
        SELECT a.snapshot, n.id, c.id FROM answers a
        JOIN contents c ON c.hash = a.hash
        JOIN nodes n ON n.level = CASE json_extract(a.path, '$.level')
                   WHEN 'registry' THEN 0 WHEN 'aas_list' THEN 1
                   WHEN 'submodels' THEN 2 ELSE 3 END
             AND n.asset_type = coalesce(json_extract(a.path, '$.asset_type'), '')
             AND n.aas_id = coalesce(a.aas_id, '') AND n.submodel = coalesce(a.submodel, '')
             AND n.url = a.url;
    DROP TABLE answers;
    DROP TABLE bodies;
    DROP TABLE element_text;
    DROP TABLE elements;
    ALTER TABLE stored RENAME TO answers;
    -- Which snapshots hold a body, for removal and for search.
    CREATE INDEX answers_by_content ON answers(content, snapshot);
    CREATE VIRTUAL TABLE answer_text USING fts5(
        id_short, value, texts, semantic_id, description,
        content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 0'
    );
    CREATE TABLE unindexed (content INTEGER PRIMARY KEY);
    INSERT INTO unindexed SELECT DISTINCT a.content FROM answers a
        JOIN nodes n ON n.id = a.node WHERE n.level = 3;
    ",
    // 5: the parts of answers that could not be read (an element with a number past
    // f64, a key given twice…), named with their JSON path in the answer.
    "
    CREATE TABLE unreadable (
        snapshot INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        url TEXT NOT NULL,
        at TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX unreadable_by_snapshot ON unreadable(snapshot);
    ",
];

/// The version this build writes.
pub(super) fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// The store's version.
pub(super) fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// Whose database a file holds, as far as can be told by reading it: told before
/// anything is written to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Owner {
    /// No table and no schema version: a new file (SQLite reads an empty file so), or a
    /// database nothing was made in.
    Empty,
    /// This app's store, of this schema version (1 to [`latest`]).
    Ours(i64),
    /// This app's store, of a newer schema version.
    Newer(i64),
    /// Another program's database, and what shows it.
    Other(String),
}

/// The columns of `snapshots` that every version of this app's store has.
const OUR_COLUMNS: [&str; 5] = ["id", "source", "plant", "taken_at", "state"];

/// Whose database `conn` holds: this app's (its `snapshots` table and a schema version
/// it wrote), nobody's yet (empty), or another program's (tables of its own with
/// version 0, a version this app never writes: negative, or without its tables).
pub(super) fn owner(conn: &Connection) -> rusqlite::Result<Owner> {
    let found = version(conn)?;
    let names = |sql: &str| -> rusqlite::Result<Vec<String>> {
        let mut statement = conn.prepare(sql)?;
        let rows = statement.query_map([], |row| row.get(0))?;
        rows.collect()
    };
    let objects = names(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         ORDER BY type <> 'table', name",
    )?;
    let columns = names("SELECT name FROM pragma_table_info('snapshots')")?;
    let ours = OUR_COLUMNS
        .iter()
        .all(|c| columns.iter().any(|have| have == c));
    Ok(match found {
        0 if objects.is_empty() => Owner::Empty,
        1.. if ours && found <= latest() => Owner::Ours(found),
        1.. if ours => Owner::Newer(found),
        _ => Owner::Other(match objects.as_slice() {
            [] => format!("no tables, user_version {found}, which this app never writes"),
            [..] if objects.len() > 5 => format!(
                "tables of its own: {} and {} more; user_version {found}",
                objects[..5].join(", "),
                objects.len() - 5
            ),
            [..] => format!(
                "tables of its own: {}; user_version {found}",
                objects.join(", ")
            ),
        }),
    })
}

/// Runs the migrations from the store's version on, each in its own transaction.
pub(super) fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
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

    /// A store of version 3, opened for reading: migrated by a write open, its bodies
    /// read back, its elements indexed anew (`unindexed`) and found, its answers paired.
    #[test]
    fn answers_of_version_3_are_read_searched_and_compared_after_the_migration() {
        use crate::backend::{Access, Backend, BodyRow};
        use crate::content;
        use crate::sqlite::Sqlite;
        use aas_source::{NodeLevel, NodePath};
        let dir = std::env::temp_dir().join(format!("aas-snapshot-v3-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("store.sqlite3");
        let elements = |serial: &str| {
            format!(
                r#"[{{"idShort":"SerialNumber","modelType":{{"name":"Property"}},"value":"{serial}"}}]"#
            )
        };
        let nameplate = NodePath::Elements {
            aas_id: "urn:x:pump#1".into(),
            submodel: "Nameplate".into(),
        };
        {
            let conn = Connection::open(&path).expect("sqlite");
            for sql in &MIGRATIONS[..3] {
                conn.execute_batch(sql).expect("version 3");
            }
            conn.pragma_update(None, "user_version", 3)
                .expect("version");
            let key = serde_json::to_string(&nameplate).expect("key");
            for (id, serial) in [(1, "SN-P-0001"), (2, "SN-P-0002")] {
                let raw = elements(serial);
                let hash = content::hash(raw.as_bytes());
                conn.execute(
                    "INSERT INTO snapshots (id, source, plant, taken_at, state) VALUES (?1, 's', 'P', '2026-11-23T10:00:00Z', 'complete')",
                    [id],
                )
                .expect("snapshot");
                conn.execute(
                    "INSERT INTO bodies (hash, bytes) VALUES (?1, ?2)",
                    rusqlite::params![hash, raw.as_bytes()],
                )
                .expect("body");
                conn.execute(
                    "INSERT INTO answers (snapshot, seq, path, url, hash, aas_id, submodel)
                     VALUES (?1, 0, ?2, 'http://gw/x', ?3, 'urn:x:pump#1', 'Nameplate')",
                    rusqlite::params![id, key, hash],
                )
                .expect("answer");
            }
        }
        let store = Sqlite::open(&path, Access::Read).expect("migrated by a read");
        let text = |body: Option<BodyRow>| {
            body.map(|(zstd, bytes, size)| content::text(&path, &bytes, zstd, size).expect("text"))
        };
        let body = |content| {
            text(
                store
                    .contents(&[content])
                    .expect("read")
                    .pop()
                    .map(|(_, b)| b),
            )
        };
        let read = store.answer(1, NodeLevel::Elements, nameplate.keys());
        assert_eq!(text(read.expect("read")), Some(elements("SN-P-0001")));
        let typed = |t| crate::words::Typed::checked(t).expect("typed");
        let found = store.search(2, typed("SN-P-0002"), 10).expect("search");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(body(found[0]), Some(elements("SN-P-0002")));
        let owners = store.owners(&found, 2).expect("owners");
        let pump = ("urn:x:pump#1".to_owned(), "Nameplate".to_owned());
        assert_eq!(owners, [(found[0], pump.0, pump.1)]);
        assert!(store
            .search(1, typed("SN-P-0002"), 10)
            .expect("search")
            .is_empty());
        let differing = store.differing(1, 2).expect("diff");
        assert_eq!(differing.len(), 1, "{differing:?}");
        let (at, keys, before, after) = &differing[0];
        assert_eq!(*at, crate::backend::level(NodeLevel::Elements));
        assert_eq!(keys.each_ref().map(String::as_str), nameplate.keys());
        assert_eq!(before.and_then(body), Some(elements("SN-P-0001")));
        assert_eq!(after.and_then(body), Some(elements("SN-P-0002")));
        drop(store);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
