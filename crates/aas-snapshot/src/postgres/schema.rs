//! The team store's tables in PostgreSQL, versioned in `store_schema`: each entry of
//! [`MIGRATIONS`] takes the store one version further. Only the writer role runs them,
//! through `aasmd store init|migrate`; a desktop of an older or newer schema is told
//! what to do. Reader roles are granted reading.

use postgres::Transaction;

/// Version `i + 1` is reached by running `MIGRATIONS[i]`. Never edit an entry once
/// released: add one.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: as SQLite's schema 5, but for the search index: each elements body carries its
    // words (the same words the SQLite index makes, without positions), GIN-indexed.
    "
    CREATE TABLE snapshots (
        id BIGSERIAL PRIMARY KEY,
        source TEXT NOT NULL,
        plant TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        -- taking | complete | partial
        state TEXT NOT NULL,
        nodes BIGINT NOT NULL DEFAULT 0,
        shells BIGINT NOT NULL DEFAULT 0,
        bytes BIGINT NOT NULL DEFAULT 0
    );
    CREATE TABLE contents (
        id BIGSERIAL PRIMARY KEY,
        hash BYTEA NOT NULL UNIQUE,
        size BIGINT NOT NULL,
        zstd BOOLEAN NOT NULL,
        bytes BYTEA NOT NULL,
        words TSVECTOR
    );
    CREATE INDEX contents_by_words ON contents USING GIN (words);
    -- level: 0 registry, 1 AAS list, 2 submodels, 3 elements; '' where a key is absent.
    CREATE TABLE nodes (
        id BIGSERIAL PRIMARY KEY,
        level SMALLINT NOT NULL,
        asset_type TEXT NOT NULL,
        aas_id TEXT NOT NULL,
        submodel TEXT NOT NULL,
        url TEXT NOT NULL,
        UNIQUE (level, asset_type, aas_id, submodel, url)
    );
    CREATE TABLE answers (
        snapshot BIGINT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        node BIGINT NOT NULL REFERENCES nodes(id),
        content BIGINT NOT NULL REFERENCES contents(id),
        PRIMARY KEY (snapshot, node)
    );
    CREATE INDEX answers_by_content ON answers(content, snapshot);
    CREATE TABLE failures (
        id BIGSERIAL PRIMARY KEY,
        snapshot BIGINT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        url TEXT NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL
    );
    CREATE INDEX failures_by_snapshot ON failures(snapshot);
    CREATE TABLE unreadable (
        id BIGSERIAL PRIMARY KEY,
        snapshot BIGINT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        url TEXT NOT NULL,
        at TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX unreadable_by_snapshot ON unreadable(snapshot);
    ",
    // 2: which snapshots hold a body, found by the body alone. B-tree deduplication
    // keeps one entry per body for the rows of every snapshot, where (content,
    // snapshot) made an entry per answer and split its pages at each take: a second
    // take of an unchanged 30,000-asset plant grew the store by 6.2 %.
    "
    DROP INDEX answers_by_content;
    CREATE INDEX answers_by_content ON answers(content);
    ",
    // 3: one take per plant and source at a time, held by a lock on its row here that
    // the take's own connection keeps in an open transaction. Locking a row needs UPDATE
    // on the table, which a reader role is never granted; the advisory lock of schemas 1
    // and 2 needed no privilege at all, and its key could be computed, so a reader could
    // hold it and make every scheduled take fail as busy.
    "
    CREATE TABLE takes (
        source TEXT NOT NULL,
        plant TEXT NOT NULL,
        PRIMARY KEY (source, plant)
    );
    ",
];

/// The tables the store's migrations make, `store_schema` included: any other table in
/// the database's schema is another program's.
pub(super) const TABLES: &[&str] = &[
    "store_schema",
    "snapshots",
    "contents",
    "nodes",
    "answers",
    "failures",
    "unreadable",
    "takes",
];

/// The version this build writes.
pub(crate) fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// The store's version; 0 for a database without the store's tables.
pub(super) fn version(tx: &mut Transaction<'_>) -> Result<i64, postgres::Error> {
    let exists: bool = tx
        .query_one("SELECT to_regclass('store_schema') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    let row = tx.query_opt("SELECT version FROM store_schema", &[])?;
    Ok(row.map_or(0, |r| r.get::<_, i32>(0).into()))
}

/// Runs the migrations from the store's version on, in `tx` (which the caller commits),
/// under a lock, so that two writers opening a new store at once do not both make it.
pub(super) fn migrate(tx: &mut Transaction<'_>) -> Result<i64, postgres::Error> {
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    let from = version(tx)?;
    if from == 0 {
        tx.batch_execute("CREATE TABLE IF NOT EXISTS store_schema (version INTEGER NOT NULL)")?;
        tx.execute("INSERT INTO store_schema VALUES (0)", &[])?;
    }
    for sql in MIGRATIONS.iter().skip(from.max(0) as usize) {
        tx.batch_execute(sql)?;
    }
    let latest = latest() as i32;
    tx.execute("UPDATE store_schema SET version = $1", &[&latest])?;
    Ok(from)
}

/// The tables (views, sequences…) in the database's schema that are not the store's,
/// sorted: those of another program, when there are any.
pub(super) fn others_tables(tx: &mut Transaction<'_>) -> Result<Vec<String>, postgres::Error> {
    let rows = tx.query(
        "SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
             AND c.relname <> ALL($1)
         ORDER BY 1",
        &[&TABLES],
    )?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// The connected role's name when it may not take or remove snapshots (write every
/// table, and lock the rows of `takes`); `None` when it may.
pub(super) fn read_only_role(tx: &mut Transaction<'_>) -> Result<Option<String>, postgres::Error> {
    let row = tx.query_one(
        "SELECT current_user::text,
                bool_and(has_table_privilege(t, 'INSERT, UPDATE, DELETE'))
         FROM unnest(ARRAY['snapshots', 'contents', 'nodes', 'answers', 'failures',
                           'unreadable', 'takes']) AS t",
        &[],
    )?;
    let writes: Option<bool> = row.get(1);
    Ok((writes != Some(true)).then(|| row.get(0)))
}

/// Lets each role of `readers` read the store: its tables now, and those later
/// migrations of this (the writer) role make.
pub(super) fn grant_reading(
    tx: &mut Transaction<'_>,
    readers: &[String],
) -> Result<(), postgres::Error> {
    for reader in readers {
        // A role is a name, not a value: quoted as an identifier, never bound.
        let role = format!("\"{}\"", reader.replace('"', "\"\""));
        tx.batch_execute(&format!(
            "GRANT USAGE ON SCHEMA public TO {role};
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role};
             ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO {role};"
        ))?;
    }
    Ok(())
}

/// The advisory lock key migrations run under (any constant: "aasmd" in ASCII).
const MIGRATION_LOCK: i64 = i64::from_be_bytes(*b"\0\0\0aasmd");
