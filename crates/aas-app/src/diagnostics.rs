//! "Copy diagnostics": what a bug report needs, and nothing secret.

use std::fmt::Write as _;

use crate::logging::RecentErrors;
use crate::{App, ProfileStore};

impl App {
    /// The app's version and platform, the active and saved profiles' addresses (no
    /// secret: those never leave the keychain) and the last warnings and errors.
    pub fn diagnostics(&self, recent: &RecentErrors) -> String {
        let mut report = format!(
            "AAS Master Data Browser {}\nplatform: {} {}\n",
            env!("CARGO_PKG_VERSION"),
            std::env::consts::OS,
            std::env::consts::ARCH
        );
        let active = self.session().profile;
        let _ = writeln!(
            report,
            "active profile: {} (gateway {})",
            active.name, active.gateway_url
        );
        let saved = ProfileStore::app_default().and_then(|store| store.load());
        match saved {
            Ok(profiles) => {
                for p in profiles {
                    let _ = writeln!(
                        report,
                        "profile {:?}: registry {}, gateway {}, token server {} (realm {}, client {}), plants {:?}",
                        p.name, p.registry_url, p.gateway_url, p.auth_url, p.realm, p.client_id, p.plants
                    );
                }
            }
            Err(e) => {
                let _ = writeln!(report, "profiles: {e}");
            }
        }
        let errors = recent.lines();
        let _ = writeln!(report, "last warnings and errors ({}):", errors.len());
        for line in errors {
            let _ = writeln!(report, "  {line}");
        }
        report
    }
}
