//! Tauri commands over the snapshot stores, a few lines each: this computer's file
//! (offline too), the team's, and what is built from a snapshot: the plant table and
//! the template audit (the Quality view).

use std::path::PathBuf;

use aas_app::{
    App, AuditProgress, AuditRequest, AuditSummary, GroupPage, PlacedChanges, SavedFile,
    SearchReply, SnapshotRef, SnapshotsAsk, SnapshotsReply, TableAsk, TableReply,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::commands::Reply;
use crate::file_dialogs::ask_save_path;

/// The Snapshots dialog: list, delete, move a damaged store aside (`aas_app::SnapshotsAsk`).
#[tauri::command]
pub async fn snapshots_ask(ask: SnapshotsAsk, app: State<'_, App>) -> Reply<SnapshotsReply> {
    Ok(app.snapshots_ask(ask)?)
}

#[tauri::command]
pub async fn search_snapshot(
    plant: String,
    query: String,
    snapshot: Option<SnapshotRef>,
    limit: usize,
    app: State<'_, App>,
) -> Reply<SearchReply> {
    Ok(app.search(&plant, &query, snapshot, limit.min(1000))?)
}

#[tauri::command]
pub async fn snapshot_changes(
    plant: String,
    old: Option<SnapshotRef>,
    new: Option<SnapshotRef>,
    app: State<'_, App>,
) -> Reply<PlacedChanges> {
    Ok(app.changes(&plant, old, new)?)
}

#[tauri::command]
pub async fn export_changes<R: Runtime>(
    handle: AppHandle<R>,
    old: SnapshotRef,
    new: SnapshotRef,
    format: String,
    app: State<'_, App>,
) -> Reply<Option<PathBuf>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.export_changes(old, new, &format, chosen).await?)
}

#[tauri::command]
pub async fn export_snapshot<R: Runtime>(
    handle: AppHandle<R>,
    plant: String,
    snapshot: Option<SnapshotRef>,
    format: String,
    app: State<'_, App>,
) -> Reply<Option<SavedFile>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app
        .export_snapshot(&plant, snapshot, &format, chosen)
        .await?)
}

#[tauri::command]
pub async fn table(ask: TableAsk, app: State<'_, App>) -> Reply<TableReply> {
    Ok(app.table(ask).await?)
}

#[tauri::command]
pub async fn export_table<R: Runtime>(
    handle: AppHandle<R>,
    format: String,
    app: State<'_, App>,
) -> Reply<Option<PathBuf>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.export_table(&format, chosen).await?)
}

#[tauri::command]
pub async fn audit_plant(
    request: AuditRequest,
    on_progress: Channel<AuditProgress>,
    app: State<'_, App>,
) -> Reply<AuditSummary> {
    // The window may be gone; the audit need not care.
    let progress = move |p: AuditProgress| drop(on_progress.send(p));
    Ok(app.audit(request, progress).await?)
}

#[tauri::command]
pub fn audit_group(
    group: usize,
    start: usize,
    count: usize,
    app: State<'_, App>,
) -> Reply<GroupPage> {
    Ok(app.audit_group(group, start, count)?)
}

#[tauri::command]
pub async fn export_audit<R: Runtime>(
    handle: AppHandle<R>,
    format: String,
    app: State<'_, App>,
) -> Reply<Option<PathBuf>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.export_audit(&format, chosen).await?)
}
