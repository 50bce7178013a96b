// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

//! The desktop shell: starts the built-in demo service, then serves the web UI in
//! `ui/` and a few thin commands over `aas-app`.

mod preferences;

fn main() {
    // WebKit's drawing and heap, the log (at AAS_BROWSER_LOG, default warn; stderr and a
    // rotated file in the local data folder's logs/), before any other thread starts.
    let recent_errors = aas_browser::desktop_process::prepare("AAS_BROWSER_LOG");
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
            // An error returned from here is a panic in Tauri ("Failed to setup app"):
            // it is said, and the app ends, instead.
            if let Err(e) = start(app, demo, recent_errors) {
                cannot_start(app.handle(), e.as_ref());
            }
            Ok(())
        })
        .invoke_handler(aas_browser::handler())
        .build(tauri::generate_context!());
    match app {
        Err(e) => {
            aas_app::start_failed(&e);
            std::process::exit(1);
        }
        Ok(app) => app.run(|handle, event| {
            // The app ends without dropping its state: what it wrote for a viewer goes now.
            if let tauri::RunEvent::Exit = event {
                if let Some(state) = tauri::Manager::try_state::<aas_app::App>(handle) {
                    state.remove_viewed();
                }
            }
        }),
    }
}

type Started = Result<(), Box<dyn std::error::Error>>;

/// Makes the window, then the app's state. The window is not made from the config by
/// Tauri, which panics when it cannot be made (WebView2 missing, a failed webview).
fn start(
    app: &mut tauri::App,
    demo: tauri::async_runtime::JoinHandle<aas_app::Result<aas_app::App>>,
    recent_errors: aas_app::RecentErrors,
) -> Started {
    use tauri::Manager;
    let config = app.config().app.windows.first().cloned();
    let config = config.ok_or("tauri.conf.json names no window")?;
    let window = tauri::WebviewWindowBuilder::from_config(app.handle(), &config)?.build()?;
    let preferences = preferences::PluginStore::open(app.handle())?;
    let state = tauri::async_runtime::block_on(demo)??.with_preferences(preferences);
    // Where it fails the last profile is only not remembered: no reason not to start.
    let empty_web_storage = || Ok(window.clear_all_browsing_data()?);
    if let Err(e) = state.move_old_preferences(empty_web_storage) {
        tracing::warn!(error = %e, "preferences: what earlier versions kept was not moved");
    }
    // A file dropped on the window is opened as Open file… opens one.
    let handle = app.handle().clone();
    window.on_window_event(move |event| aas_browser::opened_files::on_window_event(&handle, event));
    app.manage(state);
    app.manage(recent_errors);
    app.manage(aas_browser::opened_files::StartFile::from_args(
        std::env::args_os(),
    ));
    app.manage(aas_browser::opened_files::DropChannel::default());
    app.manage(aas_browser::opened_files::ReadingChannel::default());
    Ok(())
}

/// Says why the app cannot start (the log, a message box), then ends it with exit code 1.
fn cannot_start(app: &tauri::AppHandle, e: &(dyn std::error::Error + 'static)) {
    use tauri_plugin_dialog::{DialogExt, MessageDialogKind};
    let words = aas_app::start_failed(e);
    // Tauri's Windows release build has just said what to install: no second box.
    let no_webview = matches!(
        e.downcast_ref::<tauri::Error>(),
        Some(tauri::Error::Runtime(
            tauri_runtime::Error::WebviewRuntimeNotInstalled
        ))
    );
    if cfg!(all(windows, not(debug_assertions))) && no_webview {
        std::process::exit(1);
    }
    app.dialog()
        .message(words)
        .title("AAS Master Data Browser")
        .kind(MessageDialogKind::Error)
        .show(|_| std::process::exit(1));
}
