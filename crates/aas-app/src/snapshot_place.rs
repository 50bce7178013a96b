//! Where a snapshot lives: this computer's snapshot file, or the team's store (a
//! PostgreSQL database the preferences name, its password in the OS keychain), and which
//! snapshot a request means.

use std::sync::Arc;

use aas_client::Secret;

use crate::snapshot_ref::placed;
use crate::{
    lock, App, Error, Keychain, PlacedSnapshot, Result, SnapshotRef, SnapshotStore, StoreKind,
};

impl App {
    /// The store at `place`; the team's as the preferences name it, with its password
    /// from the keychain, opened again when either changed.
    pub(crate) fn store_at(&self, place: StoreKind) -> Result<Arc<SnapshotStore>> {
        match place {
            StoreKind::Here => Ok(Arc::clone(&self.stores.here)),
            StoreKind::Team => self.team_store()?.ok_or_else(|| {
                Error::NoSnapshot("no team store is set: name it in Snapshots… (Team store)".into())
            }),
        }
    }

    /// The team store, when the preferences name one.
    pub(crate) fn team_store(&self) -> Result<Option<Arc<SnapshotStore>>> {
        let Some(url) = self.preferences().team_store else {
            return Ok(None);
        };
        let mut kept = lock(&self.stores.team);
        if let Some(store) = kept.as_ref().filter(|s| s.path().to_str() == Some(&url)) {
            return Ok(Some(Arc::clone(store)));
        }
        let password = match Keychain.team_password(&url) {
            // Without a keychain, libpq's ways (PGPASSWORD, the password file) may serve.
            Err(Error::KeychainUnavailable(_)) => None,
            password => password?,
        };
        let store = Arc::new(SnapshotStore::team(&url, password));
        *kept = Some(Arc::clone(&store));
        Ok(Some(store))
    }

    /// After the team store's URL went from `before` to `now`: the old URL's password
    /// forgotten, `password` kept for the new one (an empty one forgotten), and the store
    /// opened again on its next use.
    pub(crate) fn keep_team_password(
        &self,
        before: Option<&str>,
        now: Option<&str>,
        password: Option<&Secret>,
    ) -> Result<()> {
        if let Some(old) = before.filter(|old| now != Some(*old)) {
            // Without a keychain this forgets nothing and fails not: the setting goes.
            Keychain.set_team_password(old, None)?;
        }
        if let (Some(url), Some(password)) = (now, password) {
            let password = Some(password).filter(|p| !p.expose().is_empty());
            Keychain.set_team_password(url, password)?;
        }
        lock(&self.stores.team).take();
        Ok(())
    }

    /// The snapshot `asked` names, in its store; `None`: the newest complete snapshot of
    /// `plant` the active profile took on this computer, else the team's newest.
    pub(crate) fn snapshot(
        &self,
        asked: Option<SnapshotRef>,
        plant: &str,
    ) -> Result<(Arc<SnapshotStore>, PlacedSnapshot)> {
        if let Some(at) = asked {
            let store = self.store_at(at.store)?;
            let info = store.chosen(Some(at.id), None, None)?;
            return Ok((store, placed(info, at.store)));
        }
        let source = self.session().snapshot_source().to_owned();
        match self.stores.here.chosen(None, Some(plant), Some(&source)) {
            Err(Error::NoSnapshot(words)) => match self.team_store()? {
                // The team's scheduled takes run under a profile of their own.
                Some(team) => match team.chosen(None, Some(plant), None) {
                    Ok(info) => Ok((team, placed(info, StoreKind::Team))),
                    Err(_) => Err(Error::NoSnapshot(words)),
                },
                None => Err(Error::NoSnapshot(words)),
            },
            chosen => Ok((
                Arc::clone(&self.stores.here),
                placed(chosen?, StoreKind::Here),
            )),
        }
    }
}
