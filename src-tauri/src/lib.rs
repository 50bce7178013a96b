//! The desktop shell's library part: the commands the page calls (`handler`), and how
//! the process is prepared for WebKit before its first thread (drawing, the page's heap,
//! freed memory given back). A library so that its tests run as test binaries of their
//! own: the page's calls against the commands (tests/commands.rs), the heap (tests/heap.rs).

pub mod commands;
pub mod desktop_process;
mod file_dialogs;
pub mod opened_files;
pub mod snapshot_commands;

use tauri::ipc::Invoke;
use tauri::Runtime;

/// Every command the page may call, in one list: the app registers it, and the test of
/// the page's calls (tests/commands.rs) asks it.
pub fn handler<R: Runtime>() -> impl Fn(Invoke<R>) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        commands::connection_info,
        commands::tree,
        commands::shell_endpoints,
        commands::refresh_registry,
        commands::curl_for,
        commands::save_blob,
        commands::open_file_address,
        commands::take_snapshot,
        commands::take_file_in,
        commands::cancel_job,
        commands::export_selection,
        commands::reveal_export,
        commands::convert_file,
        commands::open_aas_file,
        commands::open_v3_server,
        commands::open_v3_profile,
        commands::conversion_report,
        commands::demo_v3_server,
        commands::recent_files,
        commands::open_recent_file,
        commands::open_start_file,
        commands::watch_dropped_files,
        commands::watch_file_reading,
        commands::cancel_file_reading,
        commands::close_file,
        commands::save_file_content,
        commands::view_file_content,
        commands::concept_names,
        commands::check_connection,
        commands::profile,
        commands::test_connection,
        commands::status,
        commands::get_preferences,
        commands::set_preference,
        commands::copy_diagnostics,
        snapshot_commands::snapshots_ask,
        snapshot_commands::search_snapshot,
        snapshot_commands::snapshot_changes,
        snapshot_commands::export_changes,
        snapshot_commands::export_snapshot,
        snapshot_commands::table,
        snapshot_commands::export_table,
        snapshot_commands::audit_plant,
        snapshot_commands::audit_group,
        snapshot_commands::export_audit,
    ]
}
