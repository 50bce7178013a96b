//! A saved profile used by the app, against its own demo service over loopback: the
//! asset types its application requested are the only ones offered, and what the
//! profile form cannot edit is kept when the form saves. One test in its own binary:
//! it points the process's data folder at a temporary one.

mod support;

use aas_app::{App, Profile, ProfileForm, ProfileStore};
use aas_client::Secret;
use aas_model::AssetType;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_offers_only_the_asset_types_its_application_requested() {
    let home = std::env::temp_dir().join(format!("aas-profiles-test-{}", std::process::id()));
    std::env::set_var("XDG_DATA_HOME", &home);
    let app = App::start_with_demo().await.expect("demo service");
    let demo = app.session().client.connection().clone();
    let profile = Profile {
        asset_types: vec![AssetType::MACHINE, AssetType::TOOL],
        ..support::demo_profile(&app, "Two types")
    };
    // Written as an administrator would, in the settings file.
    let store = ProfileStore::app_default().expect("data dir");
    store.save(std::slice::from_ref(&profile)).expect("saved");
    // The form sends the profile without asset types, and the secrets.
    let form = ProfileForm {
        profile: Profile {
            asset_types: Vec::new(),
            ..profile.clone()
        },
        client_secret: Secret::new(demo.client_secret.expose()),
        user_token: Secret::new(demo.user_token.expose()),
        proxy_password: None,
        bearer_token: None,
        api_key: None,
    };
    app.save_profile(form, true).expect("saved from the form");
    assert_eq!(
        store.find("Two types").expect("kept").asset_types,
        profile.asset_types,
        "the form does not clear what it cannot edit"
    );

    let view = app.use_profile("Two types").expect("connected");
    assert_eq!(view.asset_types, ["machine", "tool"]);
    let taken = app
        .take_snapshot("DEMO-01".into(), &["machine".into()], |_| {})
        .await
        .expect("taken with the profile's secrets, kept for this session");
    assert!(
        taken.loaded.failures.is_empty(),
        "{:?}",
        taken.loaded.failures
    );
    assert_eq!(
        taken.snapshot.source, "Two types",
        "the profile names the snapshot"
    );
    std::fs::remove_dir_all(&home).expect("cleanup");
}
