//! What the application layer's tests share.

use aas_app::{App, Profile};
use aas_client::ClientAuth;

/// A profile named `name` for the app's own demo service (its secrets are the caller's
/// to give), offering plant DEMO-01.
pub fn demo_profile(app: &App, name: &str) -> Profile {
    let demo = app.session().client.connection().clone();
    Profile {
        name: name.into(),
        registry_url: demo.registry_url,
        gateway_url: demo.gateway_url,
        auth_url: demo.auth_url,
        realm: demo.realm,
        client_id: demo.client_id,
        client_auth: ClientAuth::Form,
        token_url: None,
        plants: vec!["DEMO-01".into()],
        asset_types: vec![],
        transport: Default::default(),
        ..Default::default()
    }
}
