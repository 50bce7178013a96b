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

use aas_model::{put_in_place_together, Access, FileError, NewFile};

use crate::{Error, Result};

/// Why a writer handed to [`write_with`] stopped: its file could not be written (made
/// from the `std::io::Error`), or a reason of the caller's own (an answer that cannot
/// be read), which the caller's error type holds beside this crate's.
pub trait WriteStop: From<std::io::Error> {
    /// The caller's error.
    type Error: From<Error>;

    /// The caller's error for this stop, met while doing `action` (`write`) on `path`.
    fn at(self, action: &'static str, path: &Path) -> Self::Error;
}

/// A writer that can only fail to write: this crate's error names the file.
impl WriteStop for std::io::Error {
    type Error = Error;

    fn at(self, action: &'static str, path: &Path) -> Error {
        Error::File(FileError {
            action,
            path: path.to_owned(),
            source: self,
        })
    }
}

/// What a writer is handed: a file it may seek in (a zip's headers are written back
/// once its sizes are known), or a stream that cannot take that (a pipe).
#[allow(missing_debug_implementations)] // the stream is a trait object
pub enum Out<'f> {
    File(&'f mut BufWriter<NewFile>),
    Stream(&'f mut dyn Write),
}

impl Out<'_> {
    pub fn writer(&mut self) -> &mut dyn Write {
        match self {
            Out::File(file) => *file,
            Out::Stream(stream) => *stream,
        }
    }
}

/// Writes `bytes` to `path` as [`write_with`] does.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with(path, |mut out| out.writer().write_all(bytes)).map(drop)
}

/// Writes what `write` writes to `path`: atomically to a regular file (or a new one),
/// through to a device or FIFO; returns the bytes written. On Windows a file name it
/// refuses (`aux.json`, `a:b.csv`) is refused first, with words.
pub fn write_with<S: WriteStop>(
    path: &Path,
    write: impl FnOnce(Out<'_>) -> std::result::Result<(), S>,
) -> std::result::Result<u64, S::Error> {
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
#[derive(Debug)]
pub enum Staged {
    Beside(Pending),
    Through(u64),
}

/// A file written beside its target, not yet put in place (removed if dropped).
#[derive(Debug)]
pub struct Pending {
    file: NewFile,
    /// The path as the caller gave it, for errors.
    path: PathBuf,
    action: &'static str,
    pub bytes: u64,
}

/// Like [`write_with`], but a regular file is left beside its target for
/// [`put_in_place`] to put there (with others that belong with it).
pub fn stage_with<S: WriteStop>(
    path: &Path,
    write: impl FnOnce(Out<'_>) -> std::result::Result<(), S>,
) -> std::result::Result<Staged, S::Error> {
    // Only Windows refuses these names; elsewhere `plant:2024.json` is a user's right.
    if cfg!(windows) {
        crate::file_name::check_file_name(path)?;
    }
    let target = Target::of(path).map_err(|e| e.at("write", path))?;
    match target {
        Target::Replace(real) => {
            names_a_file(&real)?;
            let (file, bytes) = beside(&real, write).map_err(|stop| stop.at("write", path))?;
            Ok(Staged::Beside(Pending {
                file,
                path: path.to_owned(),
                action: "write",
                bytes,
            }))
        }
        Target::Through(real) => through(&real, write)
            .map(Staged::Through)
            .map_err(|stop| stop.at("write", path)),
    }
}

/// Writes what `write` writes beside `path` itself, for [`put_in_place`]: for a file
/// whose name the user did not give but which follows from one they gave (a
/// conversion report). Whatever stands at `path` is replaced by a regular file, a
/// symbolic link too (it is not followed: where it leads nobody asked to write), but
/// for a folder, which is refused first.
pub fn stage_exactly<S: WriteStop>(
    path: &Path,
    action: &'static str,
    write: impl FnOnce(Out<'_>) -> std::result::Result<(), S>,
) -> std::result::Result<Pending, S::Error> {
    if cfg!(windows) {
        crate::file_name::check_file_name(path)?;
    }
    if std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir()) {
        let folder =
            std::io::Error::new(std::io::ErrorKind::IsADirectory, "a folder has that name");
        return Err(folder.at(action, path).into());
    }
    names_a_file(path)?;
    let (file, bytes) = beside(path, write).map_err(|stop| stop.at(action, path))?;
    Ok(Pending {
        file,
        path: path.to_owned(),
        action,
        bytes,
    })
}

/// Puts `files` in place in their order, all or none ([`put_in_place_together`]):
/// the one that vouches for the others goes last.
pub fn put_in_place(files: Vec<Pending>) -> Result<()> {
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

/// Refuses a path that names no file (a root, `..`) before anything is written.
fn names_a_file(path: &Path) -> Result<()> {
    match path.file_name() {
        Some(_) => Ok(()),
        None => Err(Error::NotAFile(path.to_owned())),
    }
}

/// A new file beside `path` (see [`NewFile`]) with what `write` wrote, and its size.
fn beside<S: WriteStop>(
    path: &Path,
    write: impl FnOnce(Out<'_>) -> std::result::Result<(), S>,
) -> std::result::Result<(NewFile, u64), S> {
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
fn through<S: WriteStop>(
    path: &Path,
    write: impl FnOnce(Out<'_>) -> std::result::Result<(), S>,
) -> std::result::Result<u64, S> {
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
