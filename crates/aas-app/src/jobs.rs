//! Long jobs (a snapshot, an export, moving the store aside) run one at a time: a
//! second one gets a `busy` error instead of silently taking the first one's Cancel.

use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use crate::{lock, Error, Result};

/// The job running, if any: what it is and how to cancel it.
#[derive(Debug, Default)]
pub(crate) struct Jobs {
    running: Mutex<Option<(&'static str, CancellationToken)>>,
}

/// Holds the one job slot until dropped, however the job ends.
pub(crate) struct Running<'j> {
    jobs: &'j Jobs,
    pub(crate) cancel: CancellationToken,
}

impl Jobs {
    pub(crate) fn start(&self, what: &'static str) -> Result<Running<'_>> {
        let mut running = lock(&self.running);
        if let Some((other, _)) = running.as_ref() {
            return Err(Error::Busy(other));
        }
        let cancel = CancellationToken::new();
        *running = Some((what, cancel.clone()));
        Ok(Running { jobs: self, cancel })
    }

    /// Cancels the job running, if one is.
    pub(crate) fn cancel(&self) {
        if let Some((_, cancel)) = lock(&self.running).as_ref() {
            cancel.cancel();
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        lock(&self.jobs.running).take();
    }
}

/// The file being opened, if one is: one at a time, with a Cancel of its own (opening
/// a file neither waits for a snapshot nor stops one).
#[derive(Debug, Default)]
pub(crate) struct FileReadings {
    reading: Mutex<Option<Arc<aas_file::Reading>>>,
}

/// Holds the file reading's slot until dropped, however the reading ends.
pub(crate) struct ReadingFile<'j> {
    readings: &'j FileReadings,
    pub(crate) reading: Arc<aas_file::Reading>,
}

impl FileReadings {
    pub(crate) fn start(&self) -> Result<ReadingFile<'_>> {
        let mut slot = lock(&self.reading);
        if slot.is_some() {
            return Err(Error::Busy("Opening a file"));
        }
        let reading = Arc::new(aas_file::Reading::shells_first());
        *slot = Some(Arc::clone(&reading));
        Ok(ReadingFile {
            readings: self,
            reading,
        })
    }

    /// Cancels the file's reading, if one is under way.
    pub(crate) fn cancel(&self) {
        if let Some(reading) = lock(&self.reading).as_ref() {
            reading.cancel();
        }
    }
}

impl Drop for ReadingFile<'_> {
    fn drop(&mut self) {
        // An opening given up (its caller gone) stops its reading too.
        self.reading.cancel();
        lock(&self.readings.reading).take();
    }
}
