//! Tauri commands: a few lines each over `aas-app`; the UI calls them through
//! `ui/lib/api.js` only. Paths come from the native file dialogs only (`file_dialogs`): the
//! webview never names one.

use std::path::PathBuf;

use aas_app::{
    App, ConceptName, ConversionReport, ConvertTo, ExportRequest, ExportSummary, FileOpened,
    FileProgress, IpcError, PlacedSnapshot, PreferenceChange, Preferences, ProfileAsk, ProfileForm,
    ProfileReply, ProfileView, RecentErrors, RecentFile, SavedFile, ServerProgress, SnapshotTaken,
    StatusView, TreeAsk, TreeReply,
};
use aas_client::{CheckStep, ElementAddress, NamedEndpoint, Progress, Secret};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::file_dialogs::{ask_open_path, ask_save_path};
use crate::opened_files::{
    file_progress, open_file, DropChannel, Dropped, ReadingChannel, StartFile,
};

/// The app's state comes last in every command: Tauri reads a command's arguments in
/// order, so the test of the page's calls, run without an app, sees every argument read.
pub type Reply<T> = Result<T, IpcError>;

#[tauri::command]
pub fn connection_info(app: State<'_, App>) -> ProfileView {
    app.session().profile
}

/// The tree's questions (`aas_app::TreeAsk`: a node's children, an asset type's count,
/// a shell's JSON) of the source on screen: live or a snapshot.
#[tauri::command]
pub async fn tree(ask: TreeAsk, app: State<'_, App>) -> Reply<TreeReply> {
    Ok(app.tree(ask).await?)
}

#[tauri::command]
pub async fn shell_endpoints(aas_id: String, app: State<'_, App>) -> Reply<Vec<NamedEndpoint>> {
    Ok(app.shell_endpoints(&aas_id).await?)
}

#[tauri::command]
pub async fn refresh_registry(app: State<'_, App>) -> Reply<()> {
    app.refresh_registry().await;
    Ok(())
}

/// The node's request as a curl command, tokens as placeholders (`id_shorts` outermost first).
#[tauri::command]
pub fn curl_for(
    aas_id: String,
    submodel: Option<String>,
    id_shorts: Vec<String>,
    app: State<'_, App>,
) -> String {
    app.curl_for(&aas_id, submodel.as_deref(), &id_shorts)
}

/// Whether the service answers at all (one small request, no token): the UI leaves offline.
#[tauri::command]
pub async fn check_connection(app: State<'_, App>) -> Reply<()> {
    Ok(app.check_connection().await?)
}

#[tauri::command]
pub async fn status(app: State<'_, App>) -> Reply<StatusView> {
    Ok(app.status().await)
}

#[tauri::command]
pub async fn save_blob<R: Runtime>(
    handle: AppHandle<R>,
    at: ElementAddress,
    app: State<'_, App>,
) -> Reply<Option<PathBuf>> {
    Ok(app.save_blob(&at, |s| ask_save_path(&handle, s)).await?)
}

/// Save to disk… on an element of a file opened: a File's part of the package, a Blob's
/// content, written where the user chooses; `None` when the dialog was cancelled.
#[tauri::command]
pub async fn save_file_content<R: Runtime>(
    handle: AppHandle<R>,
    file: u32,
    at: ElementAddress,
    app: State<'_, App>,
) -> Reply<Option<PathBuf>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.save_file_content(file, &at, chosen).await?)
}

/// What the submodel templates call each of `semantic_ids` (the details pane's note).
#[tauri::command]
pub fn concept_names(semantic_ids: Vec<String>, app: State<'_, App>) -> Vec<Option<ConceptName>> {
    app.concept_names(&semantic_ids)
}

/// Open on a File or Blob of a file opened: its content in the system's viewer (a
/// document or picture only; see `App::view_file_content`).
#[tauri::command]
pub async fn view_file_content(file: u32, at: ElementAddress, app: State<'_, App>) -> Reply<()> {
    let path = app.view_file_content(file, &at).await?;
    // An end-to-end build opens it with the program its starter names instead.
    let viewer = crate::file_dialogs::preset("AAS_BROWSER_VIEWER");
    let viewer = viewer.as_deref().and_then(std::path::Path::to_str);
    tauri_plugin_opener::open_path(&path, viewer)
        .map_err(|e| IpcError::local(format!("no viewer opened {}: {e}", path.display())))
}

#[tauri::command]
pub async fn open_file_address(at: ElementAddress, app: State<'_, App>) -> Reply<()> {
    let address = app.file_address(&at).await?;
    tauri_plugin_opener::open_url(&address, None::<&str>)
        .map_err(|e| IpcError::local(format!("cannot open {address}: {e}")))
}

#[tauri::command]
pub async fn take_file_in(file: u32, app: State<'_, App>) -> Reply<PlacedSnapshot> {
    Ok(app.take_file_in(file).await?)
}

#[tauri::command]
pub async fn take_snapshot(
    plant: String,
    asset_types: Vec<String>,
    on_progress: Channel<Progress>,
    app: State<'_, App>,
) -> Reply<SnapshotTaken> {
    // The window may be gone; the crawl need not care.
    let progress = |p: &Progress| drop(on_progress.send(*p));
    Ok(app.take_snapshot(plant, &asset_types, progress).await?)
}

/// Cancels the snapshot or export running.
#[tauri::command]
pub fn cancel_job(app: State<'_, App>) {
    app.cancel_job();
}

#[tauri::command]
pub async fn export_selection<R: Runtime>(
    handle: AppHandle<R>,
    request: ExportRequest,
    on_progress: Channel<Progress>,
    app: State<'_, App>,
) -> Reply<ExportSummary> {
    let progress = |p: &Progress| drop(on_progress.send(*p));
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.export_selection(request, chosen, progress).await?)
}

#[tauri::command]
pub fn reveal_export(app: State<'_, App>) -> Reply<()> {
    let path = app.last_export()?;
    tauri_plugin_opener::reveal_item_in_dir(&path)
        .map_err(|e| IpcError::local(format!("cannot show {}: {e}", path.display())))
}

/// Convert a file…: asks for the AAS file (V2 or V3; JSON, XML or AASX), then where to
/// save its conversion `to` a version and kind; `None` when either dialog was cancelled.
#[tauri::command]
pub async fn convert_file<R: Runtime>(
    to: ConvertTo,
    handle: AppHandle<R>,
    app: State<'_, App>,
) -> Reply<Option<SavedFile>> {
    let kinds = ["aasx", "json", "xml"];
    let pick = || ask_open_path(&handle, "AAS files (AASX, JSON, XML)", &kinds);
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.convert_file(to, pick, chosen).await?)
}

/// Show report: the conversion report beside the file the last export or conversion
/// wrote, rule by rule with the first changes of each.
#[tauri::command]
pub async fn conversion_report(app: State<'_, App>) -> Reply<ConversionReport> {
    Ok(app.conversion_report().await?)
}

/// Open file…: asks for an AAS file (AASX, or an environment as JSON or XML, V2 to
/// V3.1) and reads it for the tree; `None` when the dialog was cancelled.
#[tauri::command]
pub async fn open_aas_file<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, App>,
) -> Reply<Option<FileOpened>> {
    let kinds = ["aasx", "json", "xml"];
    match ask_open_path(&handle, "AAS files (AASX, JSON, XML)", &kinds).await? {
        Some(path) => Ok(Some(open_file(&handle, &app, path).await?)),
        None => Ok(None),
    }
}

/// Open V3 server…: reads the AAS V3 server at `address` whole (with the bearer
/// `token`, if it wants one: used for this reading, never kept) for the tree, as a file
/// is read; `on_progress` hears of each step, Cancel is `cancel_job`.
#[tauri::command]
pub async fn open_v3_server(
    address: String,
    token: Option<String>,
    on_progress: Channel<ServerProgress>,
    app: State<'_, App>,
) -> Reply<FileOpened> {
    let token = token.filter(|t| !t.trim().is_empty()).map(Secret::new);
    // The window may be gone; the reading need not care.
    let progress = move |p: ServerProgress| drop(on_progress.send(p));
    Ok(app.open_v3_server(&address, token, progress).await?)
}

/// Reads the V3 server of the saved profile `name` whole (asked as the profile says,
/// its secrets from the keychain) for the tree; progress and Cancel as `open_v3_server`.
#[tauri::command]
pub async fn open_v3_profile(
    name: String,
    on_progress: Channel<ServerProgress>,
    app: State<'_, App>,
) -> Reply<FileOpened> {
    let progress = move |p: ServerProgress| drop(on_progress.send(p));
    Ok(app.open_v3_profile(&name, progress).await?)
}

/// Recent files: the AAS files opened last, the newest first.
#[tauri::command]
pub fn recent_files(app: State<'_, App>) -> Vec<RecentFile> {
    app.recent_files()
}

/// Opens the recent file listed `index`th, shown as `name` (by its place in
/// `recent_files`, never by a path from the page; a list changed since is refused).
#[tauri::command]
pub async fn open_recent_file<R: Runtime>(
    index: usize,
    name: String,
    handle: AppHandle<R>,
    app: State<'_, App>,
) -> Reply<FileOpened> {
    Ok(app
        .open_recent_file(index, &name, file_progress(&handle))
        .await?)
}

/// The page's channel for the progress of a file's reading, whichever way it was
/// opened (Open file…, Recent files, dropped, started with).
#[tauri::command]
pub fn watch_file_reading(on_reading: Channel<FileProgress>, readings: State<'_, ReadingChannel>) {
    readings.set(on_reading);
}

/// Cancels the reading of the file being opened: it is not opened (its shells, if
/// shown already, go).
#[tauri::command]
pub fn cancel_file_reading(app: State<'_, App>) {
    app.cancel_file_reading();
}

/// Close file (or Close server): the app lets the file numbered `file` go, with all it
/// holds.
#[tauri::command]
pub fn close_file(file: u32, app: State<'_, App>) {
    app.close_file(file);
}

/// The address of the built-in demo's AAS V3 server, which Open server… offers; `None`
/// when the app did not start with the demo.
#[tauri::command]
pub fn demo_v3_server(app: State<'_, App>) -> Option<String> {
    app.demo_v3_server().map(str::to_owned)
}

/// The page's channel for files dropped on the window: each is read by the app, and
/// the page hears what it holds, or why it was not read.
#[tauri::command]
pub fn watch_dropped_files(on_dropped: Channel<Dropped>, drops: State<'_, DropChannel>) {
    drops.set(on_dropped);
}

/// The file the app was started with (a double-click on an `.aasx`), read for the
/// tree; `None` when it was started with none, or the page took it already.
#[tauri::command]
pub async fn open_start_file<R: Runtime>(
    handle: AppHandle<R>,
    start: State<'_, StartFile>,
    app: State<'_, App>,
) -> Reply<Option<FileOpened>> {
    match start.take() {
        Some(path) => Ok(Some(open_file(&handle, &app, path).await?)),
        None => Ok(None),
    }
}

/// The Profiles dialog: list, save, delete, duplicate, use (`aas_app::ProfileAsk`).
#[tauri::command]
pub fn profile(ask: ProfileAsk, app: State<'_, App>) -> Reply<ProfileReply> {
    Ok(app.profile(ask)?)
}

#[tauri::command]
pub fn get_preferences(app: State<'_, App>) -> Preferences {
    app.preferences()
}

#[tauri::command]
pub fn set_preference(change: PreferenceChange, app: State<'_, App>) -> Reply<()> {
    Ok(app.set_preference(change)?)
}

#[tauri::command]
pub async fn test_connection(form: ProfileForm, app: State<'_, App>) -> Reply<Vec<CheckStep>> {
    Ok(app.test_profile(form).await?)
}

/// Copy diagnostics to the clipboard, from here (the webview's clipboard needs a gesture).
#[tauri::command]
pub fn copy_diagnostics<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, App>,
    recent: State<'_, RecentErrors>,
) -> Reply<()> {
    use tauri_plugin_clipboard_manager::ClipboardExt;
    let report = app.diagnostics(&recent);
    handle
        .clipboard()
        .write_text(report)
        .map_err(|e| IpcError::local(format!("cannot reach the clipboard: {e}")))
}
