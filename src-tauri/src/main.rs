// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

//! The desktop shell: starts the built-in demo service, then serves the web UI in
//! `ui/` and a few thin commands over `aas-client`.

mod attachments;
mod commands;
mod error;
mod loading;
mod profiles;
mod rendering;
mod save_dialog;
mod state;
mod status;

fn main() {
    let software_drawing = rendering::choose_for_this_machine();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("AAS_BROWSER_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    if software_drawing {
        tracing::info!("no GPU render node: WebKit draws without compositing");
    }
    // The demo service (an RSA key to generate, a plant to build) starts while GTK and
    // WebKit start, not after them: it was most of the time to the first paint.
    let demo = tauri::async_runtime::spawn(state::AppState::demo());
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        // Remembers the window's size and place between runs.
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .setup(|app| {
            use tauri::Manager;
            let state = tauri::async_runtime::block_on(demo)??;
            app.manage(state);
            app.manage(aas_client::SecretStore::default());
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::connection_info,
            commands::list_aas,
            commands::list_submodels,
            commands::list_elements,
            commands::curl_for,
            attachments::save_blob,
            attachments::open_file_address,
            loading::load_everything,
            loading::cancel_loading,
            loading::export_loaded,
            loading::export_selection,
            loading::reveal_export,
            commands::check_connection,
            profiles::list_profiles,
            profiles::save_profile,
            profiles::delete_profile,
            profiles::use_profile,
            profiles::duplicate_profile,
            profiles::test_connection,
            status::status,
        ])
        .run(tauri::generate_context!());
    if let Err(e) = app {
        eprintln!("aas-browser: {e}");
        std::process::exit(1);
    }
}
