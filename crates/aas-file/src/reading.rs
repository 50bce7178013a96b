//! A file's reading watched from another thread: how far it has come, for a progress
//! bar, its shells as soon as they are all read (to be shown before the rest), and a
//! Cancel that stops it at its next read.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::Shell;

/// How far the reading of a file has come, and whether it was asked to stop. Shared
/// between the thread that reads and whoever shows it.
#[derive(Debug, Default)]
pub struct Reading {
    read: AtomicU64,
    size: AtomicU64,
    cancelled: AtomicBool,
    /// Whether the shells are kept once read; whether they were; they, until taken.
    shells_first: bool,
    shells_told: AtomicBool,
    shells: Mutex<Option<Vec<Shell>>>,
}

impl Reading {
    /// A reading that keeps a copy of the shells as soon as all are read, while the rest
    /// is still to be read (writers list them first), for [`Reading::take_shells`].
    pub fn shells_first() -> Self {
        Reading {
            shells_first: true,
            ..Reading::default()
        }
    }

    /// The shells of the file's first payload that has any, once, if all were read
    /// before the rest of it (listed first; a package's later parts may add more).
    pub fn take_shells(&self) -> Option<Vec<Shell>> {
        self.shells.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Whether [`Reading::shells_read`] is wanted.
    pub(crate) fn wants_shells(&self) -> bool {
        self.shells_first
    }

    /// All shells of a payload are read, before the rest of it (kept only of the first
    /// payload that has shells: [`Reading::shells_passed`]).
    pub(crate) fn shells_read(&self, shells: Vec<Shell>) {
        if shells.is_empty() || self.shells_told.swap(true, Ordering::Relaxed) {
            return;
        }
        *self.shells.lock().unwrap_or_else(|e| e.into_inner()) = Some(shells);
    }

    /// A payload with shells was read, told or not: a later one's are not the file's.
    pub(crate) fn shells_passed(&self) {
        self.shells_told.store(true, Ordering::Relaxed);
    }

    /// Bytes read so far of the file and of its payloads as they inflate, and of how
    /// many (a package's spec parts as it declares them).
    pub fn progress(&self) -> (u64, u64) {
        let read = self.read.load(Ordering::Relaxed);
        (read, self.size.load(Ordering::Relaxed).max(read))
    }

    /// Asks the reading to stop: it ends at its next read with [`crate::Error::Cancelled`].
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// `size` more bytes are to be read (a file's, or its parts' as they inflate).
    pub(crate) fn begins(&self, size: u64) {
        self.size.fetch_add(size, Ordering::Relaxed);
    }

    /// `inner`, its reads counted here, failing once the reading was cancelled.
    pub(crate) fn watch<R: Read>(&self, inner: R) -> Watched<'_, R> {
        Watched {
            inner,
            reading: self,
        }
    }

    /// `result` of this reading, said to be cancelled if it was: whatever error the
    /// stopped read caused on its way up is only a consequence of the Cancel, and a
    /// Cancel after the last read (while the model is made of it) is one all the same.
    pub(crate) fn outcome<T>(&self, result: crate::Result<T>) -> crate::Result<T> {
        match self.is_cancelled() {
            true => Err(crate::Error::Cancelled),
            false => result,
        }
    }
}

/// A reader whose reads a [`Reading`] counts and can stop.
pub(crate) struct Watched<'r, R> {
    inner: R,
    reading: &'r Reading,
}

impl<R: Read> Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.reading.is_cancelled() {
            // Not `Interrupted`: readers retry that.
            return Err(std::io::Error::other("the reading was cancelled"));
        }
        let n = self.inner.read(buf)?;
        self.reading.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
