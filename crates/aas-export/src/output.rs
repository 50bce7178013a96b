//! Writing a file the user named without ever leaving half of it: a regular file (or a
//! new one) is written beside its target and renamed over it, so an interrupted write
//! leaves the previous file intact. What is not a regular file is written through
//! instead: renaming over `/dev/null`, a FIFO or `/dev/stdout` would replace the device
//! or pipe with a plain file (and, as root, destroy `/dev/null`). A symbolic link the
//! user named is followed, and its target replaced within the target's own folder, so
//! the link stays. The file beside the target is made by [`aas_model::NewFile`]:
//! created exclusively under a name nobody can guess, so nothing planted in a shared
//! folder is ever written through. A file whose path the user did not name (a
//! conversion report beside the export) is written at that path exactly, never through
//! a link or device standing there ([`stage_exactly`]).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::{Error, Result};
use aas_model::aasx::{Flavour, Package};
use aas_model::{put_in_place_together, Access, FileError, NewFile};

/// Why writing stopped: the file could not be written, or something else (an answer
/// that cannot be read).
pub(crate) enum Stop {
    Write(std::io::Error),
    Other(Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        Stop::Write(e)
    }
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Other(e)
    }
}

impl From<aas_source::Error> for Stop {
    fn from(e: aas_source::Error) -> Self {
        Stop::Other(e.into())
    }
}

impl From<aas_in_order::WorkerGone> for Stop {
    fn from(e: aas_in_order::WorkerGone) -> Self {
        Stop::Other(e.into())
    }
}

impl From<serde_json::Error> for Stop {
    fn from(e: serde_json::Error) -> Self {
        Stop::Write(e.into())
    }
}

impl From<csv::Error> for Stop {
    fn from(e: csv::Error) -> Self {
        Stop::Write(e.into())
    }
}

impl Stop {
    /// The error of `action` (`write`) on `path`.
    fn into_error(self, action: &'static str, path: &Path) -> Error {
        match self {
            Stop::Write(source) => Error::File(FileError {
                action,
                path: path.to_owned(),
                source,
            }),
            Stop::Other(e) => e,
        }
    }
}

pub(crate) type Written = std::result::Result<(), Stop>;

/// What a writer is handed: a file it may seek in (a zip's headers are written back
/// once its sizes are known), or a stream that cannot take that (a pipe).
pub(crate) enum Out<'f> {
    File(&'f mut BufWriter<NewFile>),
    Stream(&'f mut dyn Write),
}

impl Out<'_> {
    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Out::File(file) => *file,
            Out::Stream(stream) => *stream,
        }
    }
}

/// Writes `bytes` to `path` as [`write_with`] does.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with(path, |mut out| Ok(out.writer().write_all(bytes)?)).map(drop)
}

/// Writes what `write` writes to `path`: atomically to a regular file (or a new one),
/// through to a device or FIFO; returns the bytes written. On Windows a file name it
/// refuses (`aux.json`, `a:b.csv`) is refused first, with words.
pub(crate) fn write_with(path: &Path, write: impl FnOnce(Out<'_>) -> Written) -> Result<u64> {
    match stage_with(path, write)? {
        Staged::Beside(pending) => {
            let bytes = pending.bytes;
            put_in_place(vec![pending])?;
            Ok(bytes)
        }
        Staged::Through(bytes) => Ok(bytes),
    }
}

/// What [`stage_with`] wrote: a new file beside its target, to be put in place, or a
/// device or FIFO, written to already.
pub(crate) enum Staged {
    Beside(Pending),
    Through(u64),
}

/// A file written beside its target, not yet put in place (removed if dropped).
pub(crate) struct Pending {
    file: NewFile,
    /// The path as the caller gave it, for errors.
    path: PathBuf,
    action: &'static str,
    pub(crate) bytes: u64,
}

/// Like [`write_with`], but a regular file is left beside its target for
/// [`put_in_place`] to put there (with others that belong with it).
pub(crate) fn stage_with(path: &Path, write: impl FnOnce(Out<'_>) -> Written) -> Result<Staged> {
    // Only Windows refuses these names; elsewhere `plant:2024.json` is a user's right.
    if cfg!(windows) {
        crate::file_name::check_file_name(path)?;
    }
    let target = Target::of(path).map_err(|source| {
        Error::File(FileError {
            action: "write",
            path: path.to_owned(),
            source,
        })
    })?;
    match target {
        Target::Replace(real) => {
            let (file, bytes) =
                beside(&real, write).map_err(|stop| stop.into_error("write", path))?;
            Ok(Staged::Beside(Pending {
                file,
                path: path.to_owned(),
                action: "write",
                bytes,
            }))
        }
        Target::Through(real) => through(&real, write)
            .map(Staged::Through)
            .map_err(|stop| stop.into_error("write", path)),
    }
}

/// Writes what `write` writes beside `path` itself, for [`put_in_place`]: for a file
/// whose name the user did not give but which follows from one they gave (a
/// conversion report). Whatever stands at `path` is replaced by a regular file, a
/// symbolic link too (it is not followed: where it leads nobody asked to write), but
/// for a folder, which is refused first.
pub(crate) fn stage_exactly(
    path: &Path,
    action: &'static str,
    write: impl FnOnce(Out<'_>) -> Written,
) -> Result<Pending> {
    let error = |source| {
        Error::File(FileError {
            action,
            path: path.to_owned(),
            source,
        })
    };
    if cfg!(windows) {
        crate::file_name::check_file_name(path)?;
    }
    if std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir()) {
        return Err(error(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "a folder has that name",
        )));
    }
    let (file, bytes) = beside(path, write).map_err(|stop| stop.into_error(action, path))?;
    Ok(Pending {
        file,
        path: path.to_owned(),
        action,
        bytes,
    })
}

/// Puts `files` in place in their order, all or none ([`put_in_place_together`]):
/// the one that vouches for the others goes last.
pub(crate) fn put_in_place(files: Vec<Pending>) -> Result<()> {
    let mut named = Vec::with_capacity(files.len());
    let mut new = Vec::with_capacity(files.len());
    for pending in files {
        named.push((
            pending.file.target().to_owned(),
            pending.path,
            pending.action,
        ));
        new.push(pending.file);
    }
    put_in_place_together(new).map_err(|failed| {
        let (path, action) = named
            .into_iter()
            .find(|(target, ..)| *target == failed.target)
            .map_or((failed.target, "write"), |(_, path, action)| (path, action));
        Error::File(FileError {
            action,
            path,
            source: failed.source,
        })
    })
}

/// Where a path leads once its links are followed.
enum Target {
    /// A regular file, or nothing yet.
    Replace(PathBuf),
    /// A device, FIFO or socket.
    Through(PathBuf),
}

/// How many links are followed before the path counts as a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

impl Target {
    fn of(path: &Path) -> std::io::Result<Target> {
        let mut real = path.to_owned();
        for _ in 0..MAX_LINKS {
            let meta = match std::fs::symlink_metadata(&real) {
                Ok(meta) => meta,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(Target::Replace(real))
                }
                Err(e) => return Err(e),
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                // A relative target is relative to the link's folder (`join` keeps an
                // absolute one as it is).
                let to = std::fs::read_link(&real)?;
                real = match real.parent() {
                    Some(folder) => folder.join(to),
                    None => to,
                };
            } else if kind.is_dir() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    "it is a folder; give a file name in it",
                ));
            } else if kind.is_file() {
                return Ok(Target::Replace(real));
            } else {
                return Ok(Target::Through(real));
            }
        }
        Err(std::io::Error::other(format!(
            "more than {MAX_LINKS} symbolic links in a row (a loop?)"
        )))
    }
}

/// A new file beside `path` (see [`NewFile`]) with what `write` wrote, and its size.
fn beside(
    path: &Path,
    write: impl FnOnce(Out<'_>) -> Written,
) -> std::result::Result<(NewFile, u64), Stop> {
    if path.file_name().is_none() {
        return Err(Error::NotAFile(path.to_owned()).into());
    }
    let mut file = BufWriter::with_capacity(1 << 20, NewFile::beside(path, Access::Shared)?);
    write(Out::File(&mut file))?;
    let file = file
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)?;
    let size = file.as_file().metadata()?.len();
    Ok((file, size))
}

/// Writes straight into a device or FIFO: there is nothing to rename over, and a
/// pipe's reader is waiting for the bytes. Nothing is synced (pipes and most devices
/// refuse it); a device that is full (`/dev/full`) says so on the write.
fn through(path: &Path, write: impl FnOnce(Out<'_>) -> Written) -> std::result::Result<u64, Stop> {
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    let mut out = Counted {
        inner: BufWriter::with_capacity(1 << 20, file),
        bytes: 0,
    };
    write(Out::Stream(&mut out))?;
    out.flush()?;
    Ok(out.bytes)
}

/// A writer that counts what went through it (a device has no size to ask).
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.bytes += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A package around what `spec` writes into it as its environment.
pub(crate) fn package(
    out: Out<'_>,
    flavour: Flavour,
    spec: impl FnOnce(&mut dyn Write) -> Written,
) -> Written {
    match out {
        Out::File(file) => finish(Package::new(file, flavour, &[])?, spec),
        Out::Stream(stream) => finish(Package::streamed(stream, flavour)?, spec),
    }
}

fn finish<W: Write + std::io::Seek>(
    mut package: Package<W>,
    spec: impl FnOnce(&mut dyn Write) -> Written,
) -> Written {
    spec(&mut package)?;
    package.finish()?;
    Ok(())
}
