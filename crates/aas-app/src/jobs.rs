//! Long jobs (a snapshot, an export, moving the store aside) run one at a time: a
//! second one gets a `busy` error instead of silently taking the first one's Cancel.

use std::sync::Mutex;

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
