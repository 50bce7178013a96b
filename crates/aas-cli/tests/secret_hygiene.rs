//! Secret hygiene: a whole `aasmd` session with canary secrets (crawl in every export
//! format, forced errors, trace logging on), then every file it wrote and everything
//! it printed is searched for the canaries, plain, percent-encoded and base64, and
//! for anything shaped like a JWT: none may appear.

use std::io::Read;
use std::path::Path;
use std::process::Command;

use aas_app::{Profile, ProfileStore};
use aas_client::Transport;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::Value;

mod support;

use support::{Sandbox, AASMD};

/// Characters that change under percent-encoding and base64, so each form differs.
const CLIENT_SECRET: &str = "canary-Client/Secret+1=ä&x";

/// `aasmd sandbox` with the canary client secret.
fn sandbox() -> Sandbox {
    Sandbox::start_with_env(
        &["--addr", "127.0.0.1:0"],
        &[("AASMD_SANDBOX_CLIENT_SECRET", CLIENT_SECRET)],
    )
}

fn text(line: &Value, field: &str) -> String {
    line[field].as_str().expect("string field").to_owned()
}

/// An access token as the sandbox issues them to this application.
fn access_token(line: &Value) -> String {
    let url = format!(
        "{}/auth/realms/{}/protocol/openid-connect/token",
        text(line, "auth_url"),
        text(line, "realm")
    );
    let out = Command::new("curl")
        .args([
            "-sf",
            &url,
            "--data-urlencode",
            "grant_type=client_credentials",
        ])
        .args([
            "--data-urlencode",
            &format!("client_id={}", text(line, "client_id")),
        ])
        .args([
            "--data-urlencode",
            &format!("client_secret={CLIENT_SECRET}"),
        ])
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "token request failed");
    let body: Value = serde_json::from_slice(&out.stdout).expect("token JSON");
    body["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

/// The forms a secret could leak in.
fn forms(secret: &str) -> Vec<String> {
    let encoded = percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    vec![
        secret.to_owned(),
        encoded.clone(),
        encoded.replace("%20", "+"),
        STANDARD.encode(secret),
        URL_SAFE_NO_PAD.encode(secret),
    ]
}

/// Every file under `dir`, with the entries of zip files (AASX) read out.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            found.extend(contents(&path));
            continue;
        }
        let bytes = std::fs::read(&path).expect("read");
        if let Ok(mut zip) = zip::ZipArchive::new(std::io::Cursor::new(&bytes)) {
            for i in 0..zip.len() {
                let mut file = zip.by_index(i).expect("zip entry");
                let mut inner = Vec::new();
                file.read_to_end(&mut inner).expect("unzip");
                found.push((format!("{}!{}", path.display(), file.name()), inner));
            }
        }
        found.push((path.display().to_string(), bytes));
    }
    found
}

/// Anything shaped like a JWT (`eyJ…` header and payload): any token of the sandbox.
fn holds_jwt(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("eyJ").any(|(at, _)| {
        let rest = &text[at..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .unwrap_or(rest.len());
        rest[..end].split('.').filter(|p| !p.is_empty()).count() >= 2
    })
}

#[test]
fn no_secret_reaches_a_file_a_log_or_the_terminal() {
    let sandbox = sandbox();
    let line = sandbox.line.clone();
    assert_eq!(text(&line, "client_secret"), CLIENT_SECRET);
    let user_token = text(&line, "user_token");
    let access = access_token(&line);

    let home = std::env::temp_dir().join(format!("aasmd-hygiene-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let data = home.join("data");
    let out = home.join("out");
    std::fs::create_dir_all(&out).expect("dirs");

    // A profile saved as the app saves it (settings only; secrets go to the keychain).
    let store = ProfileStore::at(data.join("org.aasbrowser.desktop/settings.json"));
    let profile = Profile {
        name: "canary".into(),
        registry_url: text(&line, "registry_url"),
        gateway_url: text(&line, "gateway_url"),
        auth_url: text(&line, "auth_url"),
        realm: text(&line, "realm"),
        client_id: text(&line, "client_id"),
        client_auth: Default::default(),
        token_url: None,
        plants: vec!["DEMO-01".into()],
        asset_types: vec![],
        transport: Transport::default(),
    };
    store.save(&[profile]).expect("profile saved");
    // The connection without its secrets, which come from the environment.
    let config = home.join("connection.json");
    let mut settings = line.clone();
    for secret in ["client_secret", "user_token"] {
        settings.as_object_mut().expect("object").remove(secret);
    }
    std::fs::write(&config, settings.to_string()).expect("config");

    let machine = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";
    let config_arg = config.display().to_string();
    let file = |name: &str| out.join(name).display().to_string();
    let runs: Vec<Vec<String>> = [
        vec!["registry"],
        vec!["list", "--plant", "DEMO-01", "--type", "machine"],
        vec!["element", machine, "Nameplate", "ManufacturerName"],
        // Forced errors: 404, a refused client (401), a server that is not there.
        vec!["aas", "urn:no-such-aas"],
        vec!["--client-id", "someone-else", "registry"],
        vec!["--registry-url", "http://127.0.0.1:9", "registry"],
        vec!["--auth-url", "http://127.0.0.1:9", "registry"],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_owned).collect())
    .chain(["raw", "env", "aasx", "csv"].map(|format| {
        let target = file(&format!("plant.{format}"));
        [
            "crawl", "--plant", "DEMO-01", "--format", format, "--out", &target,
        ]
        .map(str::to_owned)
        .to_vec()
    }))
    .collect();
    let mut printed = Vec::new();
    let mut failures = 0;
    for args in &runs {
        let output = Command::new(AASMD)
            .arg("--config")
            .arg(&config_arg)
            .args(args)
            .env("AASMD_CLIENT_SECRET", CLIENT_SECRET)
            .env("AASMD_USER_TOKEN", &user_token)
            .env("AASMD_LOG", "trace")
            .env("RUST_LOG", "trace")
            .env("HOME", &home)
            .env("XDG_DATA_HOME", &data)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .output()
            .expect("aasmd runs");
        failures += usize::from(!output.status.success());
        let name = |stream: &str| format!("aasmd {} ({stream})", args.join(" "));
        printed.push((name("stdout"), output.stdout));
        printed.push((name("stderr"), output.stderr));
    }
    assert_eq!(failures, 4, "exactly the forced errors fail");

    let written = contents(&home);
    assert!(
        written.iter().any(|(n, _)| n.ends_with("settings.json"))
            && written.iter().any(|(n, _)| n.contains("plant.aasx!")),
        "the store file and the AASX entries are searched"
    );
    let logged: usize = printed.iter().map(|(_, b)| b.len()).sum();
    assert!(logged > 10_000, "trace logging was on ({logged} bytes)");
    let canaries: Vec<(&str, String)> = [
        ("client secret", CLIENT_SECRET),
        ("access token", access.as_str()),
        ("user token", user_token.as_str()),
    ]
    .into_iter()
    .flat_map(|(what, secret)| forms(secret).into_iter().map(move |f| (what, f)))
    .collect();
    for (name, bytes) in written.iter().chain(&printed) {
        for (what, form) in &canaries {
            assert!(
                !bytes.windows(form.len()).any(|w| w == form.as_bytes()),
                "the {what} ({form:?}) is in {name}"
            );
        }
        assert!(!holds_jwt(bytes), "a token is in {name}");
    }
    std::fs::remove_dir_all(&home).expect("cleanup");
}
