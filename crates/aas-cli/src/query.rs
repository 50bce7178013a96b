use std::io::Write;

use aas_app::{Overrides, SettingsFrom};
use aas_client::{Client, Connection, CrawlPlan, Request, Secret, Transport};

use crate::cli::{ConnectionArgs, Query};
use crate::error::CliError;
use aas_model::FileError;

/// Runs one data command and prints the server's JSON as it came, byte for byte.
pub async fn run(conn: &ConnectionArgs, query: Query) -> Result<(), CliError> {
    let source = source(conn);
    let client = client(conn, connection(conn, &source)?)?;
    let path: Vec<&str>;
    let request = match &query {
        Query::Registry => Request::Registry,
        Query::List { plant, asset_type } => Request::AasList {
            asset_type: asset_type.clone(),
            plant,
        },
        Query::Aas { aas_id } => Request::Aas { aas_id },
        Query::Submodels { aas_id } => Request::Submodels { aas_id },
        Query::Submodel { aas_id, submodel } => Request::Submodel { aas_id, submodel },
        Query::Elements { aas_id, submodel } => Request::Elements { aas_id, submodel },
        Query::Element {
            aas_id,
            submodel,
            path: idshorts,
        } => {
            path = idshorts.iter().map(String::as_str).collect();
            Request::Element {
                aas_id,
                submodel,
                path: &path,
            }
        }
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
                asset_types.clone()
            };
            let plan = CrawlPlan {
                concurrency: *concurrency,
                offline_wait: *offline_wait,
                max_nodes: *max_nodes,
                ..CrawlPlan::new(plant.clone(), asset_types)
            };
            return crate::crawl::run(client, plan, *format, out).await;
        }
    };
    // Passed through as it came (from a file when large): never held whole, however big.
    let body = client.as_sent(&request).await?;
    let mut answer = body.reader().map_err(|source| {
        aas_client::Error::File(FileError {
            action: "read the answer kept in",
            path: std::env::temp_dir(),
            source,
        })
    })?;
    let mut out = std::io::stdout().lock();
    std::io::copy(&mut answer, &mut out)?;
    writeln!(out)?;
    Ok(())
}

/// The client of `conn`, with the command line's transport settings.
pub(crate) fn client(args: &ConnectionArgs, conn: Connection) -> Result<Client, CliError> {
    Ok(Client::new(conn)?.with_idle_timeout(args.idle_timeout)?)
}

/// The command line's transport settings alone (for a V3 server, which has no profile).
pub(crate) fn transport(args: &ConnectionArgs) -> Result<Transport, CliError> {
    Ok(Transport {
        allow_plain_http: args.allow_plain_http,
        ca_file: args.ca_file.clone(),
        proxy: args.proxy.clone(),
        proxy_user: args.proxy_user.clone(),
        proxy_password: secret("AASMD_PROXY_PASSWORD")?,
    })
}

/// Where the connection's settings start: `--profile`, `--config`, or nothing.
pub(crate) fn source(args: &ConnectionArgs) -> SettingsFrom {
    match (&args.profile, &args.config) {
        (Some(name), _) => SettingsFrom::Profile(name.clone()),
        (None, Some(path)) => SettingsFrom::File(path.clone()),
        (None, None) => SettingsFrom::Nothing,
    }
}

/// The connection from `--profile` or `--config`, overridden field by field by the
/// flags and by the secrets in `AASMD_CLIENT_SECRET` / `AASMD_USER_TOKEN` /
/// `AASMD_PROXY_PASSWORD` (or the files their `…_FILE` variables name).
pub(crate) fn connection(
    args: &ConnectionArgs,
    source: &SettingsFrom,
) -> Result<Connection, CliError> {
    Ok(source.connection(Overrides {
        registry_url: args.registry_url.clone(),
        gateway_url: args.gateway_url.clone(),
        auth_url: args.auth_url.clone(),
        realm: args.realm.clone(),
        client_id: args.client_id.clone(),
        client_secret: secret("AASMD_CLIENT_SECRET")?,
        user_token: secret("AASMD_USER_TOKEN")?,
        client_auth: args.client_auth,
        token_url: args.token_url.clone(),
        allow_plain_http: args.allow_plain_http,
        ca_file: args.ca_file.clone(),
        proxy: args.proxy.clone(),
        proxy_user: args.proxy_user.clone(),
        proxy_password: secret("AASMD_PROXY_PASSWORD")?,
    })?)
}

/// The most a secret file may hold: a client secret, a token or a password is a few
/// KiB at most; more is a wrong file.
const MAX_SECRET_FILE_BYTES: u64 = 64 << 10;

/// The secret in the environment variable `name`, else in the file `name_FILE` names
/// (a systemd credential, `$CREDENTIALS_DIRECTORY/client_secret`), without the line
/// break that ends it. The file must be a regular file of at most 64 KiB: a FIFO would
/// hang the command, `/dev/zero` fill memory. Errors name the file, never what it holds.
pub(crate) fn secret(name: &str) -> Result<Option<Secret>, CliError> {
    if let Ok(given) = std::env::var(name) {
        return Ok(Some(Secret::new(given)));
    }
    let Some(file) = std::env::var_os(format!("{name}_FILE")) else {
        return Ok(None);
    };
    let path = std::path::Path::new(&file);
    let text = aas_model::read_small_text(path, MAX_SECRET_FILE_BYTES).map_err(|e| {
        CliError::Usage(format!("cannot read {name}_FILE ({}): {e}", path.display()))
    })?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    Ok(Some(Secret::new(text.strip_suffix('\r').unwrap_or(text))))
}
