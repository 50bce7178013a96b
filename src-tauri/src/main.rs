// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

//! The desktop shell: starts the built-in demo service, then serves the web UI in
//! `ui/` and a few thin commands over `aas-app`.

mod commands;
mod file_dialogs;
mod preferences;
mod snapshot_commands;

fn main() {
    let software_drawing = aas_app::rendering::choose_for_this_machine();
    // stderr and a rotated file in the data folder's logs/, at AAS_BROWSER_LOG (default warn).
    let recent_errors = aas_app::start_app_logging("AAS_BROWSER_LOG");
    if software_drawing {
        tracing::info!("no GPU render node: WebKit draws without compositing");
    }
    aas_app::return_freed_memory_in_background();
    // The demo service starts beside GTK and WebKit, not after: it was most of the first paint.
    let demo = tauri::async_runtime::spawn(aas_app::App::start_with_demo());
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        // The Rust side writes the clipboard (Copy diagnostics); the page has no permission.
        .plugin(tauri_plugin_clipboard_manager::init())
        .plugin(tauri_plugin_store::Builder::default().build())
        // Remembers the window's size and place between runs.
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .setup(|app| {
            use tauri::Manager;
            let preferences = preferences::PluginStore::open(app.handle())?;
            let state = tauri::async_runtime::block_on(demo)??.with_preferences(preferences);
            // Where it fails the last profile is only not remembered: no reason not to start.
            let window = app.get_webview_window("main");
            let empty_web_storage = || {
                let emptied = window.map(|w| w.clear_all_browsing_data()).transpose();
                emptied.map(|w| w.is_some()).map_err(|e| {
                    aas_app::Error::Internal(format!("cannot empty the webview's storage: {e}"))
                })
            };
            if let Err(e) = state.move_old_preferences(empty_web_storage) {
                tracing::warn!(error = %e, "preferences: what earlier versions kept was not moved");
            }
            app.manage(state);
            app.manage(recent_errors);
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::connection_info,
            commands::tree_children,
            commands::shell_json,
            commands::shell_endpoints,
            commands::refresh_registry,
            commands::curl_for,
            commands::save_blob,
            commands::open_file_address,
            commands::take_snapshot,
            commands::cancel_job,
            commands::export_selection,
            commands::reveal_export,
            commands::convert_file,
            commands::check_connection,
            commands::list_profiles,
            commands::save_profile,
            commands::delete_profile,
            commands::use_profile,
            commands::duplicate_profile,
            commands::test_connection,
            commands::status,
            commands::get_preferences,
            commands::set_preference,
            commands::copy_diagnostics,
            snapshot_commands::list_snapshots,
            snapshot_commands::delete_snapshot,
            snapshot_commands::move_store_aside,
            snapshot_commands::search_snapshot,
            snapshot_commands::snapshot_changes,
            snapshot_commands::export_changes,
            snapshot_commands::export_snapshot,
            snapshot_commands::table,
            snapshot_commands::export_table,
            snapshot_commands::audit_plant,
            snapshot_commands::audit_group,
            snapshot_commands::export_audit,
        ])
        .run(tauri::generate_context!());
    if let Err(e) = app {
        // Also in the log file: a Windows release build has no console to show stderr.
        tracing::error!(error = %e, "the app could not start or stopped with an error");
        eprintln!("aas-browser: {e}");
        std::process::exit(1);
    }
}
