//! `aasmd --v3 URL` and a V3 server's profile against a V3 server that wants OAuth 2
//! client credentials (`aasmd demo-service --v3-sign-in`: a real token endpoint, tokens
//! it verifies): refused without them in the server's words, read with them; a profile
//! of kind "AAS V3 server" in the app's settings file names the server and how to ask
//! it, its secret from the environment here (the keychain's is tried in profiles.rs's
//! keychain test); the platform's commands refuse it in words.

use std::path::Path;
use std::process::{Command, Output};

mod support;

use support::{ok, temp_dir, DemoService, AASMD};

fn signed_in() -> DemoService {
    DemoService::start(&["--addr", "127.0.0.1:0", "--v3-sign-in"])
}

fn text<'a>(service: &'a DemoService, field: &str) -> &'a str {
    service.line[field].as_str().expect(field)
}

fn aasmd(data: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(AASMD)
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env_remove("AASMD_CLIENT_SECRET")
        .envs(env.iter().copied())
        .output()
        .expect("aasmd runs")
}

#[test]
fn a_signed_in_v3_server_is_read_with_client_credentials_and_refused_without() {
    let service = signed_in();
    let data = temp_dir("v3-credentials");
    let url = text(&service, "v3_url");
    let refused = aasmd(&data, &[], &["--v3", url, "search", "Machine"]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("did not accept our credentials"), "{said}");

    let secret = text(&service, "client_secret");
    let oauth = [
        "--v3",
        url,
        "--token-url",
        text(&service, "v3_token_url"),
        "--client-id",
        text(&service, "client_id"),
    ];
    let found = aasmd(
        &data,
        &[("AASMD_CLIENT_SECRET", secret)],
        &[&oauth[..], &["search", "M-0001"]].concat(),
    );
    assert!(ok(&found).contains("machine#M-0001\t"));

    let wrong = aasmd(
        &data,
        &[("AASMD_CLIENT_SECRET", "a-wrong-secret-of-length")],
        &[&oauth[..], &["search", "x"]].concat(),
    );
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(said.contains("refused the client id or secret"), "{said}");
    assert!(!said.contains("a-wrong-secret-of-length"), "{said}");

    let both = aasmd(
        &data,
        &[("AASMD_V3_TOKEN", "t"), ("AASMD_V3_API_KEY", "k")],
        &["--v3", url, "search", "x"],
    );
    assert_eq!(both.status.code(), Some(2), "a usage error");
}

#[test]
fn a_v3_servers_profile_names_the_server_and_how_to_ask_it() {
    let service = signed_in();
    let data = temp_dir("v3-profile");
    let profile = serde_json::json!({"profiles": [{
        "name": "Line 3", "kind": "v3_server", "client_id": text(&service, "client_id"),
        "v3": {"address": text(&service, "v3_url"), "auth": "oauth",
               "token_url": text(&service, "v3_token_url")}}]});
    let settings = data.join("org.aasbrowser.desktop/settings.json");
    std::fs::create_dir_all(settings.parent().expect("folder")).expect("folder");
    std::fs::write(&settings, profile.to_string()).expect("settings");
    let secret = [("AASMD_CLIENT_SECRET", text(&service, "client_secret"))];

    let table = ok(&aasmd(
        &data,
        &secret,
        &["--profile", "Line 3", "table", "--format", "csv"],
    ));
    assert!(table.lines().count() > 20, "a row per shell: {table}");

    let store = data.join("kept.sqlite3");
    let store = store.to_str().expect("UTF-8");
    ok(&aasmd(
        &data,
        &secret,
        &["--profile", "Line 3", "snapshot", "take", "--store", store],
    ));
    let listed = ok(&aasmd(&data, &[], &["snapshot", "list", "--store", store]));
    assert!(listed.contains(text(&service, "v3_url")), "{listed}");

    let platform = aasmd(&data, &secret, &["--profile", "Line 3", "registry"]);
    let said = String::from_utf8_lossy(&platform.stderr);
    assert!(
        said.contains("the other commands read a platform"),
        "{said}"
    );
    assert_eq!(platform.status.code(), Some(2), "a usage error");
}

#[test]
fn a_registry_leads_to_the_shells_and_submodels_it_describes() {
    let service = DemoService::start(&["--addr", "127.0.0.1:0"]);
    let data = temp_dir("v3-registry");
    let url = text(&service, "v3_url");
    let through = ok(&aasmd(
        &data,
        &[],
        &["--v3-registry", url, "table", "--format", "csv"],
    ));
    let direct = ok(&aasmd(
        &data,
        &[],
        &["--v3", url, "table", "--format", "csv"],
    ));
    assert!(through.lines().count() > 20, "{through}");
    assert_eq!(
        through, direct,
        "the same shells and submodels, the same table"
    );
}
