//! The desktop shell's security settings, read from the configuration the app is built
//! with: a strict CSP, no remote content, and capabilities limited to what the UI needs.

use serde_json::Value;

fn json(path: &str) -> Value {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn the_content_security_policy_is_present_and_strict() {
    let conf = json("tauri.conf.json");
    let csp = conf["app"]["security"]["csp"]
        .as_str()
        .expect("a CSP is set");
    let directive = |name: &str| {
        csp.split(';')
            .map(str::trim)
            .find(|d| d.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {csp}"))
            .to_owned()
    };
    assert_eq!(directive("default-src"), "default-src 'self'");
    assert_eq!(directive("script-src"), "script-src 'self'");
    assert_eq!(directive("object-src"), "object-src 'none'");
    // Every source is this app's own: no remote origin of any form (a host, a scheme,
    // a wildcard), no inline or eval'd script. Tauri's IPC is the one address.
    let own = ["'self'", "'none'", "data:", "ipc:", "http://ipc.localhost"];
    for d in csp.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        for source in d.split_whitespace().skip(1) {
            assert!(own.contains(&source), "{source} in {d:?}");
        }
    }
    // No remote page: the UI is the bundled ui/ folder.
    assert_eq!(conf["build"]["frontendDist"], "../ui");
    assert!(conf["build"].get("devUrl").is_none());
}

#[test]
fn capabilities_allow_only_core_events_and_the_save_dialog() {
    let caps = json("capabilities/default.json");
    assert_eq!(caps["windows"], serde_json::json!(["main"]));
    // A permission is a string or an object naming one (with scopes): both count.
    let permissions: Vec<&str> = caps["permissions"]
        .as_array()
        .expect("permissions")
        .iter()
        .map(|p| {
            p.as_str()
                .or_else(|| p["identifier"].as_str())
                .unwrap_or_else(|| panic!("a permission without identifier: {p}"))
        })
        .collect();
    assert_eq!(permissions, ["core:event:default", "dialog:allow-save"]);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities");
    let files = std::fs::read_dir(dir).expect("capabilities folder").count();
    assert_eq!(files, 1, "one capability file, the one checked here");
    // Capabilities can also be written inline in tauri.conf.json: only by name here.
    let conf = json("tauri.conf.json");
    for inline in conf["app"]["security"]["capabilities"]
        .as_array()
        .into_iter()
        .flatten()
    {
        assert_eq!(inline, "main-window", "an inline capability: {inline}");
    }
}

#[test]
fn no_command_takes_a_file_path_from_the_webview() {
    // Paths reach the app only through the native dialogs the Rust side shows
    // (file_dialogs.rs); a command may answer with one (where it wrote), never take one.
    let mut folders = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    let mut files = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).expect("src").flatten() {
            match entry.path() {
                path if path.is_dir() => folders.push(path),
                path => files.push(path),
            }
        }
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source");
        for command in text.split("#[tauri::command]").skip(1) {
            let signature = command.split('{').next().unwrap_or_default();
            let signature = signature.split("->").next().unwrap_or_default();
            for typ in ["PathBuf", "&Path", "path:"] {
                assert!(
                    !signature.contains(typ),
                    "{}: a command takes {typ}: {signature}",
                    file.display()
                );
            }
        }
    }
}
