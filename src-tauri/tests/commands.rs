//! The page's calls against the commands the app registers. `tests/ui/command-calls.json`
//! holds every call `ui/lib/api.js` makes (tests/ui/api.test.mjs keeps it so); each is sent
//! here through Tauri's own command dispatch, as the page's would be. No app is made, so
//! no command runs: Tauri reads a command's arguments in order and the app's state is the
//! last of them, so "state not managed" is the answer of a call whose command exists and
//! whose every argument was read into its parameter's type.

use serde_json::Value;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, mock_context, noop_assets, INVOKE_KEY};
use tauri::webview::InvokeRequest;

fn page_calls() -> Vec<(String, Value)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/ui/command-calls.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/ui/command-calls.json");
    serde_json::from_str(&text).expect("a list of [command, arguments]")
}

/// A mock app with every command the page may call, and no app state.
fn app_without_state() -> (
    tauri::App<tauri::test::MockRuntime>,
    tauri::WebviewWindow<tauri::test::MockRuntime>,
) {
    let app = mock_builder()
        .invoke_handler(aas_browser::handler())
        .build(mock_context(noop_assets()))
        .expect("the mock app");
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("the mock window");
    (app, webview)
}

fn answer(
    webview: &tauri::WebviewWindow<tauri::test::MockRuntime>,
    command: &str,
    args: Value,
) -> Value {
    let request = InvokeRequest {
        cmd: command.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().expect("an address"),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    match get_ipc_response(webview, request) {
        Ok(_) => panic!("{command} ran without the app"),
        Err(e) => e,
    }
}

#[test]
fn every_call_of_the_page_names_a_command_and_arguments_it_reads() {
    let (_app, webview) = app_without_state();
    let calls = page_calls();
    assert!(calls.len() > 30, "{} calls", calls.len());
    for (command, args) in calls {
        let error = answer(&webview, &command, args.clone());
        let words = error.as_str().unwrap_or_default();
        assert!(
            words.starts_with("state not managed"),
            "{command} {args}: {error}"
        );
    }
}

#[test]
fn the_check_fails_for_a_wrong_call() {
    let (_app, webview) = app_without_state();
    let unknown = answer(&webview, "no_such_command", Value::Null);
    let renamed = answer(&webview, "table", serde_json::json!({ "question": {} }));
    let mistyped = answer(
        &webview,
        "audit_group",
        serde_json::json!({ "group": "first", "start": 0, "count": 1 }),
    );
    for error in [unknown, renamed, mistyped] {
        assert!(
            !error
                .as_str()
                .unwrap_or_default()
                .starts_with("state not managed"),
            "{error}"
        );
    }
}
