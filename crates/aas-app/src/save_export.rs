//! The one shape of every export of what the app holds (a snapshot, the Changes, the
//! open table, the audit's findings): the job slot, where to save (the dialog, with a
//! name offered), the file written, and remembered for "Show in folder".

use std::future::Future;
use std::path::{Path, PathBuf};

use crate::{App, Result, SaveAs};

impl App {
    /// Holds the job slot while `prepare` gathers what is written and the name to
    /// offer (once the slot is held, and before any dialog: a busy app or a wrong
    /// request says so first), `choose` asks where to save it, and `write` writes it
    /// there; `None` when the user cancelled.
    pub(crate) async fn save_export<P, T, F, Fut, W, WFut>(
        &self,
        prepare: impl FnOnce() -> Result<(SaveAs, P)>,
        choose: F,
        write: W,
    ) -> Result<Option<(PathBuf, T)>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
        W: FnOnce(PathBuf, P) -> WFut,
        WFut: Future<Output = Result<T>>,
    {
        let _job = self.jobs.start("An export")?;
        let (offer, prepared) = prepare()?;
        let Some(path) = self.ask_where(offer, choose).await? else {
            return Ok(None);
        };
        let written = write(path.clone(), prepared).await?;
        self.exported(path.clone());
        Ok(Some((path, written)))
    }
}

/// Writes `bytes` made in memory (a table, the findings, the Changes) in one piece.
pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    Ok(aas_output::write_atomically(path, bytes)?)
}
