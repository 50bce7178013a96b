use std::io::Write;

use aas_client::{Client, Connection, CrawlPlan, Keychain, ProfileStore, SecretKind};
use aas_model::Parsed;
use serde_json::Value;

use crate::cli::{ConnectionArgs, Query};
use crate::error::CliError;

/// Runs one data command and prints the server's JSON as it came.
pub async fn run(conn: &ConnectionArgs, query: Query) -> Result<(), CliError> {
    let client = Client::new(connection(conn)?)?;
    let json = match query {
        Query::Registry => list(client.registry().await?),
        Query::List { plant, asset_type } => list(client.aas_list(asset_type, &plant).await?),
        Query::Aas { aas_id } => client.aas(&aas_id).await?.raw().to_owned(),
        Query::Submodels { aas_id } => list(client.submodels(&aas_id).await?),
        Query::Submodel { aas_id, submodel } => {
            client.submodel(&aas_id, &submodel).await?.raw().to_owned()
        }
        Query::Elements { aas_id, submodel } => list(client.elements(&aas_id, &submodel).await?),
        Query::Crawl {
            plant,
            asset_types,
            concurrency,
            offline_wait,
            max_nodes,
            format,
            out,
        } => {
            let plan = CrawlPlan {
                concurrency,
                offline_wait,
                max_nodes,
                ..CrawlPlan::new(plant, crate::crawl::types_or_all(asset_types))
            };
            return crate::crawl::run(client, plan, format, &out).await;
        }
        Query::Element {
            aas_id,
            submodel,
            path,
        } => {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            client
                .element(&aas_id, &submodel, &path)
                .await?
                .raw()
                .to_owned()
        }
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{json}")?;
    Ok(())
}

/// The connection from `--profile` or `--config`, overridden field by field by the
/// flags and by the secrets in `AASMD_CLIENT_SECRET` / `AASMD_USER_TOKEN`.
fn connection(args: &ConnectionArgs) -> Result<Connection, CliError> {
    let mut fields = match (&args.profile, &args.config) {
        (Some(name), _) => profile_fields(name)?,
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
            serde_json::from_str::<serde_json::Map<String, Value>>(&text).map_err(|e| {
                CliError::Usage(format!("{} is not a connection file: {e}", path.display()))
            })?
        }
        (None, None) => serde_json::Map::new(),
    };
    let overrides = [
        ("registry_url", args.registry_url.clone()),
        ("gateway_url", args.gateway_url.clone()),
        ("auth_url", args.auth_url.clone()),
        ("realm", args.realm.clone()),
        ("client_id", args.client_id.clone()),
        ("client_secret", std::env::var("AASMD_CLIENT_SECRET").ok()),
        ("user_token", std::env::var("AASMD_USER_TOKEN").ok()),
    ];
    for (name, value) in overrides {
        if let Some(v) = value {
            fields.insert(name.into(), Value::String(v));
        }
    }
    if args.allow_plain_http {
        fields.insert("allow_plain_http".into(), Value::Bool(true));
    }
    if let Some(path) = &args.ca_file {
        let path = serde_json::to_value(path).map_err(std::io::Error::other)?;
        fields.insert("ca_file".into(), path);
    }
    if let Some(auth) = args.client_auth {
        fields.insert(
            "client_auth".into(),
            serde_json::to_value(auth).map_err(std::io::Error::other)?,
        );
    }
    serde_json::from_value(Value::Object(fields)).map_err(|e| {
        CliError::Usage(format!(
            "incomplete connection ({e}); give --config FILE, or the URL flags, --realm, --client-id and AASMD_CLIENT_SECRET / AASMD_USER_TOKEN"
        ))
    })
}

/// A saved profile's fields, with the secrets the keychain holds for it.
fn profile_fields(name: &str) -> Result<serde_json::Map<String, Value>, CliError> {
    let profile = ProfileStore::app_default()?.find(name)?;
    let mut fields = match serde_json::to_value(&profile).map_err(std::io::Error::other)? {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    for (field, kind) in [
        ("client_secret", SecretKind::ClientSecret),
        ("user_token", SecretKind::UserToken),
    ] {
        if let Some(secret) = Keychain.get(name, kind)? {
            fields.insert(field.into(), Value::String(secret.expose().to_owned()));
        }
    }
    Ok(fields)
}

/// A list as a JSON array of the items' exact texts.
fn list<T>(items: Vec<Parsed<T>>) -> String {
    let raws: Vec<&str> = items.iter().map(Parsed::raw).collect();
    format!("[{}]", raws.join(","))
}
