//! A profile of kind "AAS V3 server", saved from the form as the Profiles dialog sends
//! it, against a V3 server that wants OAuth 2 client credentials (the demo service's,
//! with sign-in: a real token endpoint): Test connection says each step, the profile is
//! read whole with the secret kept for it, a wrong secret is named without being shown,
//! and the platform's "connect" refuses it in words. One test in its own binary: it
//! points the process's data folder at a temporary one.

use aas_app::{App, ProfileForm, ProfileKind, ProfileStore, V3AuthKind};
use aas_client::Outcome;
use aas_demo::{Config, DemoService};

fn form(json: serde_json::Value) -> ProfileForm {
    serde_json::from_value(json).expect("the form as api.js sends it")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v3_servers_profile_is_tested_saved_and_read_with_its_oauth_secret() {
    let home = tempfile::tempdir().expect("temporary folder");
    std::env::set_var("XDG_DATA_HOME", home.path());
    let app = App::start_with_demo().await.expect("demo service");
    let server = DemoService::start(Config {
        v3_sign_in: true,
        ..Config::default()
    })
    .await
    .expect("a signed-in V3 server");
    let info = server.info();
    let sent = |secret: &str| {
        form(serde_json::json!({
            "profile": {"name": "Line 3 server", "kind": "v3_server",
                "client_id": info.client_id, "client_auth": "form",
                "v3": {"address": info.v3_url, "auth": "oauth", "token_url": info.v3_token_url}},
            "client_secret": secret, "user_token": ""}))
    };
    assert_eq!(sent("s").profile.kind, ProfileKind::V3Server);
    assert_eq!(
        sent("s").profile.v3.as_ref().map(|v3| v3.auth),
        Some(V3AuthKind::Oauth)
    );

    let steps = app
        .test_profile(sent(&info.client_secret))
        .await
        .expect("tested");
    let names: Vec<_> = steps.iter().map(|s| s.step).collect();
    assert_eq!(names, ["token", "description", "shells"], "{steps:?}");
    assert!(
        steps
            .iter()
            .all(|s| matches!(s.outcome, Outcome::Passed(_))),
        "{steps:?}"
    );

    let wrong = "a-wrong-secret-of-some-length";
    let steps = app.test_profile(sent(wrong)).await.expect("tested");
    assert!(
        matches!(&steps[0].outcome, Outcome::Failed(why) if why.contains("refused the client id or secret")),
        "{steps:?}"
    );
    assert!(!format!("{steps:?}").contains(wrong));

    // Kept for this session (the test has no keychain to rely on), then read whole.
    app.save_profile(sent(&info.client_secret), true)
        .expect("saved");
    let settings = ProfileStore::app_default().expect("data dir");
    let saved = std::fs::read_to_string(settings.path()).expect("settings");
    assert!(
        saved.contains("\"v3_server\"") && !saved.contains(&info.client_secret),
        "{saved}"
    );

    let opened = app
        .open_v3_profile("Line 3 server", |_| {})
        .await
        .expect("read whole");
    assert_eq!(Some(opened.name.as_str()), info.v3_url.as_deref());
    assert!(opened.complete && opened.shells > 0, "{opened:?}");
    assert_eq!(
        app.preferences().last_v3_profile.as_deref(),
        Some("Line 3 server")
    );

    let why = app
        .use_profile("Line 3 server")
        .expect_err("not a platform")
        .to_string();
    assert!(why.contains("is a V3 server's profile"), "{why}");
}
