use std::io::Write;

use aas_app::{ConnectionSource, Overrides};
use aas_client::{Client, Connection, CrawlPlan, Secret};
use aas_model::Parsed;

use crate::cli::{ConnectionArgs, Query};
use crate::error::CliError;

/// Runs one data command and prints the server's JSON as it came.
pub async fn run(conn: &ConnectionArgs, query: Query) -> Result<(), CliError> {
    let source = source(conn);
    let client = client(conn, connection(conn, &source)?)?;
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
            // None named: those the profile's application requested (all without one).
            let asset_types = if asset_types.is_empty() {
                source.requested_types()?
            } else {
                asset_types
            };
            let plan = CrawlPlan {
                concurrency,
                offline_wait,
                max_nodes,
                ..CrawlPlan::new(plant, asset_types)
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

/// The client of `conn`, with the command line's transport settings.
pub(crate) fn client(args: &ConnectionArgs, conn: Connection) -> Result<Client, CliError> {
    Ok(Client::new(conn)?.with_idle_timeout(args.idle_timeout)?)
}

/// Where the connection's settings start: `--profile`, `--config`, or nothing.
pub(crate) fn source(args: &ConnectionArgs) -> ConnectionSource {
    match (&args.profile, &args.config) {
        (Some(name), _) => ConnectionSource::Profile(name.clone()),
        (None, Some(path)) => ConnectionSource::File(path.clone()),
        (None, None) => ConnectionSource::Nothing,
    }
}

/// The connection from `--profile` or `--config`, overridden field by field by the
/// flags and by the secrets in `AASMD_CLIENT_SECRET` / `AASMD_USER_TOKEN` /
/// `AASMD_PROXY_PASSWORD`.
pub(crate) fn connection(
    args: &ConnectionArgs,
    source: &ConnectionSource,
) -> Result<Connection, CliError> {
    let secret = |name| std::env::var(name).ok().map(Secret::new);
    Ok(source.connection(Overrides {
        registry_url: args.registry_url.clone(),
        gateway_url: args.gateway_url.clone(),
        auth_url: args.auth_url.clone(),
        realm: args.realm.clone(),
        client_id: args.client_id.clone(),
        client_secret: secret("AASMD_CLIENT_SECRET"),
        user_token: secret("AASMD_USER_TOKEN"),
        client_auth: args.client_auth,
        token_url: args.token_url.clone(),
        allow_plain_http: args.allow_plain_http,
        ca_file: args.ca_file.clone(),
        proxy: args.proxy.clone(),
        proxy_user: args.proxy_user.clone(),
        proxy_password: secret("AASMD_PROXY_PASSWORD"),
    })?)
}

/// A list as a JSON array of the items' exact texts.
fn list<T>(items: Vec<Parsed<T>>) -> String {
    let raws: Vec<&str> = items.iter().map(Parsed::raw).collect();
    format!("[{}]", raws.join(","))
}
