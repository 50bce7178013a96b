//! The application layer under both front ends (the desktop app and `aasmd`): the
//! session with the built-in demo service, connection profiles and the keychain, the
//! connection from a profile with command-line overrides, snapshot and export jobs
//! (one at a time), the snapshot store's other uses, and a Blob's or File's content. No Tauri here: the desktop shell's
//! commands are a few lines over this crate, and everything is tested over loopback.

mod browse;
mod connect;
mod content;
mod diagnostics;
mod error;
mod heap;
mod jobs;
mod logging;
mod preferences;
mod profile_form;
mod profiles;
pub mod rendering;
mod session;
mod snapshots;

pub use browse::ShellOf;
pub use connect::{ConnectionSource, Overrides};
pub use content::SaveAs;
pub use error::{export_kind, Error, Result};
pub use heap::{return_freed_memory_in_background, FreedMemory};
pub use jobs::{ExportRequest, ExportSummary, LoadSummary};
pub use logging::{start_app_logging, start_logging, RecentErrors};
pub use preferences::{PreferenceChange, Preferences, Theme, View, PREFERENCES_FILE};
pub use profile_form::{ProfileForm, ProfileList};
pub use profiles::{
    app_data_dir, snapshot_store_path, Keychain, Profile, ProfileStore, SecretKind, SecretStore,
    APP_IDENTIFIER,
};
pub use session::{App, ProfileView, Session, StatusView, DEMO_PROFILE};
pub use snapshots::{
    changes_csv, take_snapshot, ChangesView, MovedAside, PlantHit, SearchAnswer, SnapshotShelf,
    SnapshotTaken, StoreView, Taken, DEFAULT_KEEP,
};
