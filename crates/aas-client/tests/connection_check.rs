//! "Test connection" and the status bar's figures, against a real demo service over loopback.

use std::time::Duration;

use aas_client::{Activity, CheckStep, Client, Outcome, Secret};
use aas_demo::DEMO_PLANT;

mod support;

use support::{connection, demo_service};

fn statuses(steps: &[CheckStep]) -> Vec<(&str, &str)> {
    steps
        .iter()
        .map(|s| {
            let status = match s.outcome {
                Outcome::Passed(_) => "passed",
                Outcome::Failed(_) => "failed",
                Outcome::Skipped(_) => "skipped",
            };
            (s.step, status)
        })
        .collect()
}

fn text(step: &CheckStep) -> &str {
    match &step.outcome {
        Outcome::Passed(t) | Outcome::Failed(t) | Outcome::Skipped(t) => t,
    }
}

const ALL_PASSED: [(&str, &str); 3] = [
    ("token", "passed"),
    ("registry", "passed"),
    ("gateway", "passed"),
];

#[tokio::test]
async fn every_step_passes_with_a_plant_or_with_the_registrys_first_aas() {
    let sb = demo_service().await;
    let client = Client::new(connection(&sb)).expect("client");
    let steps = client.check(Some(DEMO_PLANT)).await;
    assert_eq!(statuses(&steps), ALL_PASSED, "{steps:?}");
    assert!(text(&steps[1]).contains("21 AAS descriptors"), "{steps:?}");
    assert!(text(&steps[2]).contains(DEMO_PLANT), "{steps:?}");

    let steps = client.check(None).await;
    assert_eq!(statuses(&steps), ALL_PASSED, "{steps:?}");
    assert!(text(&steps[2]).starts_with("read AAS urn:"), "{steps:?}");
}

#[tokio::test]
async fn a_wrong_user_token_fails_the_gateway_step_in_the_servers_words() {
    let sb = demo_service().await;
    let mut conn = connection(&sb);
    conn.user_token = Secret::new("not-a-user-token");
    let steps = Client::new(conn)
        .expect("client")
        .check(Some(DEMO_PLANT))
        .await;
    assert_eq!(
        statuses(&steps),
        [
            ("token", "passed"),
            ("registry", "passed"),
            ("gateway", "failed")
        ],
        "{steps:?}"
    );
    assert!(text(&steps[2]).contains("invalid_user_token"), "{steps:?}");
    // What the UI receives: one flat object per step.
    let json = serde_json::to_value(&steps[2]).expect("json");
    assert_eq!(json["step"], "gateway");
    assert_eq!(json["status"], "failed");
    assert!(
        json["text"]
            .as_str()
            .is_some_and(|t| t.contains("HTTP 401")),
        "{json}"
    );
}

#[tokio::test]
async fn a_wrong_client_secret_fails_the_token_step_and_skips_the_rest() {
    let sb = demo_service().await;
    let mut conn = connection(&sb);
    conn.client_secret = Secret::new("wrong-secret-5d1e");
    let steps = Client::new(conn)
        .expect("client")
        .check(Some(DEMO_PLANT))
        .await;
    assert_eq!(
        statuses(&steps),
        [
            ("token", "failed"),
            ("registry", "skipped"),
            ("gateway", "skipped")
        ],
        "{steps:?}"
    );
    assert!(text(&steps[0]).contains("unauthorized_client"), "{steps:?}");
    let shown = format!("{steps:?}");
    assert!(!shown.contains("wrong-secret-5d1e"), "{shown}");
}

#[tokio::test]
async fn the_client_counts_requests_and_failures_and_knows_its_token_lifetime() {
    let sb = demo_service().await;
    let client = Client::new(connection(&sb)).expect("client");
    assert_eq!(client.activity(), Activity::default());
    assert_eq!(
        client.token_expires_in().await,
        None,
        "no token before a request"
    );

    client.registry().await.expect("registry");
    assert_eq!(
        client.activity(),
        Activity {
            requests: 1,
            errors: 0
        }
    );
    let left = client.token_expires_in().await.expect("a token now");
    // The demo service's tokens live 300 s by default.
    assert!(
        left <= Duration::from_secs(300) && left > Duration::ZERO,
        "{left:?}"
    );

    client.aas("urn:nothing:here").await.expect_err("not found");
    assert_eq!(
        client.activity(),
        Activity {
            requests: 2,
            errors: 1
        }
    );

    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let user_exp = client
        .user_token_expiry()
        .expect("the demo user token is a JWT");
    assert!(user_exp > now, "{user_exp} vs {now}");
}
