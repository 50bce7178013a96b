//! Tauri commands of the Quality view, a few lines each: the template audit of a
//! snapshot, the gaps of one group of findings, the findings saved as a file.

use std::path::PathBuf;

use aas_app::{App, AuditProgress, AuditRequest, AuditSummary, GroupPage};
use tauri::ipc::Channel;
use tauri::{AppHandle, State};

use crate::commands::Reply;
use crate::file_dialogs::ask_save_path;

#[tauri::command]
pub async fn audit_plant(
    app: State<'_, App>,
    request: AuditRequest,
    on_progress: Channel<AuditProgress>,
) -> Reply<AuditSummary> {
    // The window may be gone; the audit need not care.
    let progress = move |p: AuditProgress| drop(on_progress.send(p));
    Ok(app.audit(request, progress).await?)
}

#[tauri::command]
pub fn audit_group(
    app: State<'_, App>,
    group: usize,
    start: usize,
    count: usize,
) -> Reply<GroupPage> {
    Ok(app.audit_group(group, start, count)?)
}

#[tauri::command]
pub async fn export_audit(
    handle: AppHandle,
    app: State<'_, App>,
    format: String,
) -> Reply<Option<PathBuf>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.export_audit(&format, chosen).await?)
}
