//! Copying snapshots from one store into another (`aasmd snapshot copy`): aas-snapshot's
//! copy, each snapshot whole or not at all, run off the async workers and stopped by a
//! cancellation token between two answers.

use std::ops::ControlFlow;

use aas_snapshot::{Access, Copied, CopyEvent, Pick, Store};
use tokio_util::sync::CancellationToken;

use crate::{Error, Result, SnapshotStore};

impl SnapshotStore {
    /// Copies the snapshots of this store that `pick` names into `to` (a file is made
    /// when there is none), oldest first, leaving out those `to` holds already;
    /// `on_event` hears of each as it goes (on the copy's thread). Cancelled, the
    /// snapshot under way is left out whole and the copy ends with an interrupted
    /// error; those copied before stay.
    pub async fn copy_to(
        &self,
        to: &SnapshotStore,
        pick: Pick,
        cancel: &CancellationToken,
        mut on_event: impl FnMut(CopyEvent<'_>) + Send + 'static,
    ) -> Result<Vec<Copied>> {
        let (from, to, cancel) = (self.address(), to.address(), cancel.clone());
        tokio::task::spawn_blocking(move || {
            let source = Store::open(&from, Access::Read)?;
            let mut target = Store::open(&to, Access::Create)?;
            Ok(target.copy_from(&source, &pick, &mut |event| {
                on_event(event);
                match cancel.is_cancelled() {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                }
            })?)
        })
        .await
        .map_err(Error::stopped)?
    }
}
