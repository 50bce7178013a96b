//! The application layer under both front ends (the desktop app and `aasmd`): the
//! session (the built-in demo one way to make one), connection profiles and the
//! keychain, the connection from a profile with command-line overrides, the source of
//! answers the tree reads (live or a snapshot), the snapshot store and its rules, the
//! crawl written to a file in bounded memory, the plant table and the template audit,
//! jobs (one at a time), the preferences and a Blob's or File's content. No Tauri here:
//! the desktop shell's commands are a few lines over this crate, and everything is
//! tested over loopback.

mod app;
mod concept_names;
mod connect;
mod content;
mod convert;
mod crawl_summary;
mod crawl_to_file;
mod diagnostics;
mod error;
mod export_job;
mod file_content;
mod folders;
mod ipc_error;
mod jobs;
mod logging;
mod open_table;
mod opened_file;
mod plant_audit;
mod plant_table;
mod preference_bounds;
mod preferences;
mod profile_form;
mod profile_kind;
mod profiles;
mod quality;
mod save_export;
mod service;
mod session;
mod snapshot_copy;
mod snapshot_place;
mod snapshot_ref;
mod snapshot_store;
mod snapshots;
mod source;
mod stores;
mod table_preferences;
mod v3_profile;
mod view_content;
mod viewed_folder;

use std::sync::{Mutex, MutexGuard};

pub use aas_audit::ConceptName;
pub use aas_export::ConversionReport;
pub use app::{App, StatusView, Waited, SILENCE_WORTH_SAYING};
pub use connect::{Overrides, SettingsFrom};
pub use content::SaveAs;
pub use convert::{convert_file, ConvertTo, ConvertedKind, SavedFile};
pub use crawl_summary::{CrawlSummary, UNREADABLE_NAMED};
pub use crawl_to_file::{crawl_to_file, ToFile, Written, DEFAULT_HELD_BYTES};
pub use error::{Cause, Error, Result};
pub use export_job::{ExportRequest, ExportSummary};
pub use folders::{app_data_dir, app_local_data_dir, snapshot_store_path, APP_IDENTIFIER};
pub use ipc_error::IpcError;
pub use logging::{start_app_logging, start_failed, start_logging, RecentErrors};
pub use open_table::KnownRows;
pub use opened_file::{
    AssetTypeCount, FileOpened, FilePart, FileProgress, OpenedKind, RecentFile, ServerProgress,
};
pub use plant_audit::{
    audit_templates, user_templates_dir, AuditProgress, AuditRequest, AuditSummary, Gap, GroupLine,
    GroupPage, PlantAudit, TemplateLine,
};
pub use plant_table::{
    ColumnChoice, ElementPlace, ShownRows, TableAsk, TableReply, TableRequest, TableShape,
};
pub use preferences::{
    PreferenceChange, PreferenceStore, Preferences, Theme, View, PREFERENCES_FILE,
};
pub use profile_form::{ProfileAsk, ProfileForm, ProfileList, ProfileReply};
pub use profile_kind::{ProfileKind, V3AuthKind, V3Settings};
pub use profiles::{Keychain, Profile, ProfileStore, SecretKind, SecretStore};
pub use session::{ProfileView, Session, DEMO_PROFILE};
pub use snapshot_ref::{PlacedSnapshot, SnapshotRef, StoreKind};
pub use snapshot_store::{
    about_snapshot, ChangesView, Imported, MovedAside, PlantHit, SearchReply, SnapshotStore, Taken,
    TakenV3, DEFAULT_KEEP, FILE_SOURCE, V3_SOURCE,
};
pub use snapshots::{
    changes_csv, PlacedChanges, SnapshotList, SnapshotTaken, SnapshotsAsk, SnapshotsReply,
    StoreView, TeamView,
};
pub use source::{SourceRef, TreeAnswer, TreeAsk, TreeReply};
pub use table_preferences::{ColumnSets, TableChange, TableView, TableViews};

/// A poisoned lock only means another command panicked; the data is still usable.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
