//! Opening the store's file: created 0600 before SQLite touches it, checked to be there
//! for a read or a change, brought up to the current schema (a read store by a write
//! open first), and the settings of each connection to it.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::schema::Owner;
use super::{index, schema, sql_error, Sqlite};
use crate::backend::Access;
use crate::index::{document, element_rows};
use crate::{Error, Result};
use aas_model::FileError;

/// How long a statement waits for another connection's write to end.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

impl Sqlite {
    /// Opens the store at `path` for `access`. A store of an older schema is brought up
    /// to date first, also for a read (that is the one write a read makes). A file is
    /// ours or refused before anything is written to it ([`schema::owner`]): an empty
    /// one (or none) becomes a store only for a take ([`Access::Create`]); a database of
    /// another program is [`Error::NotAStore`], one of a newer version of this app
    /// [`Error::TooNew`].
    pub(crate) fn open(path: &Path, access: Access) -> Result<Sqlite> {
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
        let found = match schema::owner(&conn).map_err(&damaged)? {
            Owner::Ours(found) => found,
            // Nothing in it yet: a take makes the store, a read or a removal finds none.
            Owner::Empty if access == Access::Create => 0,
            Owner::Empty => return Err(Error::NoStore(path.to_owned())),
            Owner::Newer(found) => {
                return Err(Error::TooNew {
                    path: path.to_owned(),
                    found,
                    known: schema::latest(),
                })
            }
            Owner::Other(why) => {
                return Err(Error::NotAStore {
                    path: path.to_owned(),
                    why,
                })
            }
        };
        if read_only {
            if found < schema::latest() {
                drop(conn);
                drop(Sqlite::open(path, Access::Write)?);
                return Sqlite::open(path, Access::Read);
            }
        } else {
            // Before the settings: a new store's vacuum mode is set before WAL writes
            // its first page.
            schema::migrate(&mut conn).map_err(&damaged)?;
            settings(&conn).map_err(&damaged)?;
            index_unindexed(&mut conn, path).map_err(&damaged)?;
        }
        Ok(Sqlite {
            conn,
            path: path.to_owned(),
        })
    }
}

/// A further connection to the store at `path` (opened, so brought up to date), for
/// the snapshot writer's thread.
pub(super) fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = connect_as(path, false)?;
    settings(&conn)?;
    Ok(conn)
}

/// A connection for writing (its settings are the caller's to apply) or for reading
/// only. A reader never writes: on a read-only file system, where SQLite can make no
/// shared-memory file, the store is opened as immutable (nobody can change it there).
fn connect_as(path: &Path, read_only: bool) -> rusqlite::Result<Connection> {
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
fn index_unindexed(conn: &mut Connection, path: &Path) -> rusqlite::Result<()> {
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
            let found = crate::content::text(path, &bytes, zstd, size)
                .map(|raw| document(&element_rows(&raw)));
            if let Ok(Some(document)) = found {
                index(&tx, content, &document)?;
            }
            tx.execute("DELETE FROM unindexed WHERE content = ?1", [content])?;
        }
        tx.commit()?;
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
pub(super) fn file_error<T>(
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
