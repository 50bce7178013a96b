//! A file's reading watched from another thread: how far it has come, for a progress
//! bar, and a Cancel that stops it at its next read.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How far the reading of a file has come, and whether it was asked to stop. Shared
/// between the thread that reads and whoever shows it.
#[derive(Debug, Default)]
pub struct Reading {
    read: AtomicU64,
    size: AtomicU64,
    cancelled: AtomicBool,
}

impl Reading {
    /// Bytes of the file's payloads read so far, and their size as far as known (a
    /// package's spec parts as it declares them, each added as its reading begins).
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

    /// A payload of `size` bytes begins.
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
    /// stopped read caused on its way up is only a consequence of the Cancel.
    pub(crate) fn outcome<T>(&self, result: crate::Result<T>) -> crate::Result<T> {
        match result {
            Err(_) if self.is_cancelled() => Err(crate::Error::Cancelled),
            result => result,
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
