//! The store file: opening (created 0600 before SQLite touches it, brought up to the
//! current schema), the list of snapshots, removing one with what only it used, and
//! the one-writer lock beside it.

use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::index::index;
use crate::{schema, Error, Result};
use aas_model::FileError;

/// An open snapshot store.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
}

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
    /// Parts of its answers that could not be read ([`Store::unreadable`] names them).
    pub unreadable: u64,
}

/// A snapshot's counts as its rows give them. A snapshot being taken (or left so by a
/// process that died) has its counts only in its rows until it ends.
pub(crate) const SHELLS_HELD: &str = "(SELECT count(*) FROM answers a JOIN nodes n ON n.id = a.node
        WHERE a.snapshot = snapshots.id AND n.level = 2)
    + (SELECT count(*) FROM failures f
        WHERE f.snapshot = snapshots.id AND json_extract(f.path, '$.level') = 'submodels')";
pub(crate) const NODES_HELD: &str =
    "(SELECT count(*) FROM answers a WHERE a.snapshot = snapshots.id)";
pub(crate) const BYTES_HELD: &str = "(SELECT coalesce(sum(c.size), 0) FROM answers a
        JOIN contents c ON c.id = a.content WHERE a.snapshot = snapshots.id)";

/// The columns of [`snapshot_row`]; the counts of a snapshot still `taking` are counted.
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

fn snapshot_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<SnapshotInfo> {
    Ok(SnapshotInfo {
        id: row.get(0)?,
        source: row.get(1)?,
        plant: row.get(2)?,
        taken_at: row.get(3)?,
        shells: row.get(4)?,
        nodes: row.get(5)?,
        complete: row.get::<_, String>(6)? == "complete",
        bytes: row.get(7)?,
        unreadable: row.get(8)?,
    })
}

/// What a caller does with a store: a read never creates or changes one (it works on a
/// read-only file system), a write needs one that exists, only a take creates one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Create,
}

impl Store {
    /// Opens the store at `path` for `access`. A store of an older schema is brought up
    /// to date first, also for a read (that is the one write a read makes).
    pub fn open(path: &Path, access: Access) -> Result<Store> {
        match access {
            Access::Create => create_private(path)?,
            Access::Write => {
                must_exist(path)?;
                file_error(path, "open", open_for_writing(path, false).map(drop))?;
            }
            Access::Read => must_exist(path)?,
        }
        let damaged = sql_error(path);
        let read_only = access == Access::Read;
        let mut conn = connect_as(path, read_only).map_err(&damaged)?;
        let found = schema::version(&conn).map_err(&damaged)?;
        if found > schema::latest() {
            return Err(Error::TooNew {
                path: path.to_owned(),
                found,
                known: schema::latest(),
            });
        }
        if read_only {
            if found < schema::latest() {
                drop(conn);
                drop(Store::open(path, Access::Write)?);
                return Store::open(path, Access::Read);
            }
        } else {
            // Before the settings: a new store's vacuum mode is set before WAL writes
            // its first page.
            schema::migrate(&mut conn).map_err(&damaged)?;
            settings(&conn).map_err(&damaged)?;
            index_unindexed(&mut conn).map_err(&damaged)?;
        }
        Ok(Store {
            conn,
            path: path.to_owned(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Turns SQLite's errors into this store's ([`sql_error`]).
    pub(crate) fn sql(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        sql_error(&self.path)
    }

    /// The snapshots, oldest first; only those of `plant` when given.
    pub fn list(&self, plant: Option<&str>) -> Result<Vec<SnapshotInfo>> {
        let sql = format!(
            "SELECT {} FROM snapshots WHERE ?1 IS NULL OR plant = ?1 ORDER BY id",
            snapshot_columns()
        );
        let mut statement = self.conn.prepare(&sql).map_err(self.sql())?;
        let rows = statement
            .query_map(params![plant], snapshot_row)
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    pub fn snapshot(&self, id: i64) -> Result<SnapshotInfo> {
        let sql = format!("SELECT {} FROM snapshots WHERE id = ?1", snapshot_columns());
        self.conn
            .query_row(&sql, [id], snapshot_row)
            .optional()
            .map_err(self.sql())?
            .ok_or(Error::NoSuchSnapshot(id))
    }

    /// The complete snapshots of `plant` taken from `source`, newest first: what the app
    /// and `aasmd` choose from by default, so a plant code two platforms share never
    /// mixes them. Without a source, those of the plant's only source; when several
    /// took the plant, [`Error::SeveralSources`] names them.
    pub fn complete_newest_first(
        &self,
        plant: &str,
        source: Option<&str>,
    ) -> Result<Vec<SnapshotInfo>> {
        let mut list = self.list(Some(plant))?;
        let source = match source {
            Some(source) => source.to_owned(),
            None => {
                // Only sources that could be chosen from: a cancelled take of another
                // profile does not make the plant's own history ambiguous.
                let mut sources: Vec<String> = list
                    .iter()
                    .filter(|s| s.complete)
                    .map(|s| s.source.clone())
                    .collect();
                sources.sort();
                sources.dedup();
                match sources.as_slice() {
                    [] => return Ok(Vec::new()),
                    [only] => only.clone(),
                    _ => {
                        return Err(Error::SeveralSources {
                            plant: plant.to_owned(),
                            sources,
                        })
                    }
                }
            }
        };
        list.retain(|s| s.complete && s.source == source);
        list.reverse();
        Ok(list)
    }

    /// The plants that have snapshots, sorted.
    pub fn plants(&self) -> Result<Vec<String>> {
        let mut statement = self
            .conn
            .prepare("SELECT DISTINCT plant FROM snapshots ORDER BY plant")
            .map_err(self.sql())?;
        let rows = statement.query_map([], |r| r.get(0)).map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }

    /// Keeps the newest `keep` complete snapshots of `plant` from `source` (at least
    /// one) and removes every snapshot older than the oldest of them, complete or
    /// partial; while there are fewer complete ones, nothing is removed. Returns the ids
    /// removed, oldest first.
    pub fn retire(&mut self, source: &str, plant: &str, keep: usize) -> Result<Vec<i64>> {
        let mut newest_first: Vec<SnapshotInfo> = self
            .list(Some(plant))?
            .into_iter()
            .filter(|s| s.source == source)
            .collect();
        newest_first.reverse();
        let Some(oldest_kept) = newest_first
            .iter()
            .filter(|s| s.complete)
            .nth(keep.max(1) - 1)
        else {
            return Ok(Vec::new());
        };
        let oldest_kept = oldest_kept.id;
        let mut retired: Vec<i64> = newest_first
            .iter()
            .map(|s| s.id)
            .filter(|id| *id < oldest_kept)
            .collect();
        retired.reverse();
        for id in &retired {
            self.remove(*id)?;
        }
        Ok(retired)
    }

    /// Removes snapshot `id`, then every answer body and index row no other snapshot
    /// uses, and gives the space back to the file system.
    pub fn remove(&mut self, id: i64) -> Result<()> {
        self.snapshot(id)?;
        let state: String = self
            .conn
            .query_row("SELECT state FROM snapshots WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .map_err(self.sql())?;
        // A snapshot left 'taking' by a process that died is not locked: removable.
        if state == "taking" {
            match WriterLock::take(&self.path) {
                Err(Error::Busy { .. }) => return Err(Error::BeingTaken(id)),
                held => drop(held?),
            }
        }
        let path = self.path.clone();
        let sql = sql_error(&path);
        let tx = self.conn.transaction().map_err(&sql)?;
        tx.execute("DELETE FROM snapshots WHERE id = ?1", [id])
            .map_err(&sql)?;
        tx.execute_batch(
            "CREATE TEMP TABLE unused AS
                 SELECT id FROM contents WHERE id NOT IN (SELECT content FROM answers);
             DELETE FROM answer_text WHERE rowid IN (SELECT id FROM unused);
             DELETE FROM unindexed WHERE content IN (SELECT id FROM unused);
             DELETE FROM contents WHERE id IN (SELECT id FROM unused);
             DROP TABLE unused;
             DELETE FROM nodes WHERE id NOT IN (SELECT node FROM answers);",
        )
        .map_err(&sql)?;
        tx.commit().map_err(&sql)?;
        self.give_space_back().map_err(&sql)
    }

    /// Frees the pages no longer used (the store is made with incremental auto-vacuum)
    /// and truncates the write-ahead log: the file shrinks.
    fn give_space_back(&self) -> rusqlite::Result<()> {
        // The pragma frees a page for every step: it is stepped to its end.
        let mut vacuum = self.conn.prepare("PRAGMA incremental_vacuum")?;
        let mut steps = vacuum.query([])?;
        while steps.next()?.is_some() {}
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
    }
}

/// The one-writer lock: an OS lock on a file beside the store, released when dropped
/// (or when the process dies).
#[derive(Debug)]
pub(crate) struct WriterLock {
    /// Held only for its lock.
    _file: File,
}

impl WriterLock {
    pub(crate) fn take(store: &Path) -> Result<WriterLock> {
        let path = PathBuf::from(format!("{}.writer-lock", store.display()));
        let file = file_error(store, "create the writer lock of", File::create(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(WriterLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::Busy {
                path: store.to_owned(),
            }),
            Err(std::fs::TryLockError::Error(e)) => file_error(store, "lock", Err(e)),
        }
    }
}

/// How long a statement waits for another connection's write to end.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// A further connection to the store at `path` (opened, so brought up to date), for
/// the snapshot writer's thread.
pub(crate) fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = connect_as(path, false)?;
    settings(&conn)?;
    Ok(conn)
}

/// A connection for writing (its settings are the caller's to apply) or for reading
/// only. A reader never writes: on a read-only file system, where SQLite can make no
/// shared-memory file, the store is opened as immutable (nobody can change it there).
fn connect_as(path: &Path, read_only: bool) -> rusqlite::Result<Connection> {
    use rusqlite::OpenFlags;
    let conn = if read_only {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        match schema::version(&conn) {
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::CannotOpen) => {
                let uri = format!("file:{}?immutable=1", uri_path(path));
                Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)?
            }
            _ => conn,
        }
    } else {
        Connection::open(path)?
    };
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// `path` as the path of a `file:` URI: its bytes percent-encoded but for `/` and the
/// unreserved characters.
fn uri_path(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut uri = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'/' | b'-' | b'.' | b'_' | b'~' => uri.push(byte as char),
            b if b.is_ascii_alphanumeric() => uri.push(b as char),
            b => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri
}

/// A connection's settings. WAL with NORMAL sync: a commit is not fsynced (a power cut
/// may lose the last batches of a snapshot being taken, which is then marked partial),
/// but the file is never corrupted; fsync per batch was most of a snapshot's time.
fn settings(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
         PRAGMA cache_size = -32768;",
    )
}

/// Indexes the elements bodies of stores before schema 4, whose index SQL could not
/// carry over (see the migration).
fn index_unindexed(conn: &mut Connection) -> rusqlite::Result<()> {
    loop {
        let tx = conn.transaction()?;
        let bodies: Vec<(i64, bool, Vec<u8>, u64)> = tx
            .prepare(
                "SELECT c.id, c.zstd, c.bytes, c.size FROM unindexed u
                 JOIN contents c ON c.id = u.content LIMIT 500",
            )?
            .query_map([], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        if bodies.is_empty() {
            return tx.commit();
        }
        for (content, zstd, bytes, size) in bodies {
            if let Ok(raw) = crate::content::text(&bytes, zstd, size) {
                index(&tx, content, &raw)?;
            }
            tx.execute("DELETE FROM unindexed WHERE content = ?1", [content])?;
        }
        tx.commit()?;
    }
}

/// This store's error for one of SQLite's: a file that is not SQLite, or a corrupt page
/// met by any statement, is [`Error::Damaged`] (a full disk or a locked file is no
/// reason to move a store aside), a store that cannot be written is
/// [`Error::ReadOnly`], the rest [`Error::Sql`]. The path is copied only on an error.
pub(crate) fn sql_error(path: &Path) -> impl Fn(rusqlite::Error) -> Error + '_ {
    move |source| match source.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
            Error::Damaged {
                path: path.to_owned(),
                source,
            }
        }
        Some(rusqlite::ErrorCode::ReadOnly) => Error::ReadOnly {
            path: path.to_owned(),
        },
        _ => Error::Sql {
            path: path.to_owned(),
            source,
        },
    }
}

/// A store to read or change must be there: a mistyped `--store` is said, not made.
fn must_exist(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(Error::Folder(path.to_owned())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::NoStore(path.to_owned())),
        Err(source) => file_error(path, "read", Err(source)),
    }
}

/// Creates `path` readable by its owner only, before SQLite opens it: SQLite would
/// create it with the umask's permissions. An existing file is left as it is.
fn create_private(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        file_error(path, "create the folder of", std::fs::create_dir_all(dir))?;
    }
    if path.is_dir() {
        return Err(Error::Folder(path.to_owned()));
    }
    file_error(path, "create", open_for_writing(path, true).map(drop))
}

/// Opens the store's file to append (creating it 0600 when `create`), which is how a
/// store that cannot be written shows before SQLite would fall back to reading it.
fn open_for_writing(path: &Path, create: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.create(create).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The store's error for a failed file operation on `path`: a read-only file system or
/// file, and a folder, in their own words.
pub(crate) fn file_error<T>(
    path: &Path,
    action: &'static str,
    done: std::io::Result<T>,
) -> Result<T> {
    done.map_err(|source| match source.kind() {
        std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
            Error::ReadOnly {
                path: path.to_owned(),
            }
        }
        std::io::ErrorKind::IsADirectory => Error::Folder(path.to_owned()),
        _ => Error::File(FileError {
            action,
            path: path.to_owned(),
            source,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content;
    use crate::schema::MIGRATIONS;

    #[test]
    fn answers_of_version_3_are_read_searched_and_compared_after_the_migration() {
        use aas_client::NodePath;
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
        let store = Store::open(&path, Access::Read).expect("migrated by a read");
        assert_eq!(
            store.answer(1, &nameplate).expect("read"),
            Some(elements("SN-P-0001"))
        );
        let hits = store.search(2, "SN-P-0002", 10).expect("search");
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].path, ["SerialNumber"]);
        assert!(store.search(1, "SN-P-0002", 10).expect("search").is_empty());
        let diff = store.diff(1, 2).expect("diff");
        assert_eq!(diff.changes.len(), 1, "{diff:?}");
        assert_eq!(diff.changes[0].new.as_deref(), Some("SN-P-0002"));
        drop(store);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
