//! Secrets in a real Secret Service (GNOME Keyring in a private D-Bus session):
//! `scripts/with-keyring.sh cargo test -p aas-app --test keychain -- --include-ignored`
//! (`make test` does this).

use aas_app::{Keychain, Profile, ProfileStore, SecretKind};
use aas_client::{ClientAuth, Secret};

const NEEDS: &str = "needs a Secret Service: run through scripts/with-keyring.sh (make test does)";

#[test]
#[ignore = "needs a Secret Service: run through scripts/with-keyring.sh (make test does)"]
fn secrets_round_trip_through_the_os_keychain_and_never_reach_the_settings_file() {
    let keychain = Keychain;
    let name = format!("Plant {}", std::process::id());
    let secret = Secret::new("canary-client-secret-7f3a");
    let token = Secret::new("canary-user-token-91bc");
    keychain
        .set(&name, SecretKind::ClientSecret, &secret)
        .expect(NEEDS);
    keychain
        .set(&name, SecretKind::UserToken, &token)
        .expect(NEEDS);
    assert_eq!(
        keychain.get(&name, SecretKind::ClientSecret).expect("get"),
        Some(secret)
    );

    let profile = Profile {
        name: name.clone(),
        registry_url: "https://registry.example".into(),
        gateway_url: "https://gateway.example".into(),
        auth_url: "https://auth.example".into(),
        realm: "plant".into(),
        client_id: "client".into(),
        client_auth: ClientAuth::Form,
        token_url: None,
        plants: vec!["P1".into()],
        asset_types: vec![],
        transport: Default::default(),
        ..Default::default()
    };
    let store = ProfileStore::app_default().expect("data dir");
    store.save(std::slice::from_ref(&profile)).expect("save");
    let conn = keychain
        .connection(&store.find(&name).expect("profile"))
        .expect("connection");
    assert_eq!(conn.user_token, token);
    let file = std::fs::read_to_string(store.path()).expect("settings file");
    assert!(
        !file.contains("canary"),
        "no secret in the settings file: {file}"
    );

    keychain
        .delete(&name, SecretKind::UserToken)
        .expect("delete");
    assert_eq!(
        keychain.get(&name, SecretKind::UserToken).expect("get"),
        None
    );
    let err = keychain
        .connection(&profile)
        .expect_err("no user token stored");
    assert!(err.to_string().contains("user_token"), "{err}");
    keychain
        .delete(&name, SecretKind::ClientSecret)
        .expect("delete");
}
