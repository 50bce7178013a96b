//! The app's log file and "Copy diagnostics" hold no secret: canary secrets and the
//! demo service's real ones go through the app at trace level (a refused token
//! request, a whole plant loaded), then every log file is searched for them.

mod support;

use aas_app::{start_logging, App, Profile, ProfileForm, ProfileStore};
use aas_client::{ClientAuth, Secret};
use base64::Engine;
use tracing_subscriber::EnvFilter;

const CANARY_SECRET: &str = "canary-secret/+= ä&9f1c";
const CANARY_TOKEN: &str = "canary-user-token-5d2e";

/// How a secret could appear in text: as it is, form- or percent-encoded, in base64
/// at each of the three offsets.
fn forms(secret: &str) -> Vec<String> {
    let encoded = percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    let mut forms = vec![secret.to_owned(), encoded.replace("%20", "+"), encoded];
    for offset in 0..3 {
        let padded = format!("{}{secret}", "x".repeat(offset));
        let b64 = base64::engine::general_purpose::STANDARD.encode(padded);
        // The characters that do not depend on what came before the secret.
        let skip = (offset * 4).div_ceil(3) + 1;
        forms.push(b64[skip..b64.len().saturating_sub(4)].to_owned());
    }
    forms
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_file_and_the_diagnostics_hold_no_secret() {
    let home = std::env::temp_dir().join(format!("aas-log-test-{}", std::process::id()));
    std::env::set_var("XDG_DATA_HOME", home.join("data"));
    let logs = home.join("logs");
    let recent = start_logging(&logs, EnvFilter::new("trace")).expect("logging");

    let app = App::start_with_demo().await.expect("demo service");
    let demo = app.session().client.connection().clone();
    let profile = Profile {
        client_auth: ClientAuth::Basic,
        ..support::demo_profile(&app, "Canary")
    };
    ProfileStore::app_default()
        .expect("data dir")
        .save(std::slice::from_ref(&profile))
        .expect("saved");
    let steps = app
        .test_profile(ProfileForm {
            profile,
            client_secret: Secret::new(CANARY_SECRET),
            user_token: Secret::new(CANARY_TOKEN),
            proxy_password: None,
            bearer_token: None,
            api_key: None,
        })
        .await
        .expect("tried");
    assert!(format!("{steps:?}").contains("Failed"), "{steps:?}");
    let taken = app
        .take_snapshot("DEMO-01".into(), &["machine".into()], |_| {})
        .await
        .expect("taken");
    assert!(taken.loaded.failures.is_empty());
    let refused = app.use_profile("No such profile").expect_err("unknown");
    tracing::warn!("use profile: {refused}");

    let report = app.diagnostics(&recent);
    assert!(report.contains("No such profile"), "{report}");
    assert!(report.contains(&demo.gateway_url), "{report}");
    let mut text = report;
    for entry in std::fs::read_dir(&logs).expect("log folder").flatten() {
        text.push_str(&std::fs::read_to_string(entry.path()).expect("a log file"));
    }
    assert!(
        text.contains("GET"),
        "the requests were logged at trace level"
    );
    let secrets = [
        CANARY_SECRET,
        CANARY_TOKEN,
        demo.client_secret.expose(),
        demo.user_token.expose(),
    ];
    for secret in secrets {
        for form in forms(secret) {
            assert!(!text.contains(&form), "{form:?} ({secret:?}) is in the log");
        }
    }
    // No JWT of any kind: access tokens are never logged either.
    assert!(!text.contains("eyJ"), "a JWT-shaped text is in the log");
    std::fs::remove_dir_all(&home).expect("cleanup");
}
