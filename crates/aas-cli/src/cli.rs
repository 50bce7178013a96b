use std::net::SocketAddr;
use std::path::PathBuf;

use aas_model::AssetType;
use clap::{Args, Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  the server failed or sent data that cannot be read
  2  bad command line, or unusable connection settings
  3  credentials refused (client secret, access token or user token)
  4  not found, or not shared with this application (403/404)
  5  the server cannot be reached

Examples:
  aasmd sandbox --addr 127.0.0.1:0 > sandbox.json &   # prints one JSON line, then serves
  aasmd --config sandbox.json registry
  aasmd --config sandbox.json list --plant DEMO-01 --type machine
  aasmd --config sandbox.json element 'urn:demo-platform:acme:DEMO-01:aas:machine#M-0001' Nameplate Address CityTown";

/// Browse the master data a manufacturing platform exposes as Asset Administration
/// Shells: registry, AAS lists per plant and asset type, submodels and elements.
/// Every data command prints the server's JSON, unchanged, on stdout.
#[derive(Debug, Parser)]
#[command(name = "aasmd", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a local AAS Master Data service with a generated demo plant. Prints ONE JSON
    /// line (registry_url, gateway_url, auth_url, realm, client_id, client_secret,
    /// user_token, plants) once it listens, then serves until killed.
    Sandbox(SandboxArgs),
    #[command(flatten)]
    Query(Query),
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub addr: SocketAddr,
    /// Number of generated assets, spread over the eight asset types.
    #[arg(long, default_value_t = 24)]
    pub assets: usize,
    /// Lifetime of access tokens, in seconds.
    #[arg(long, default_value_t = 300)]
    pub token_ttl: u64,
}

#[derive(Debug, Args)]
pub struct ConnectionArgs {
    /// A JSON file with the fields of the sandbox's start-up line (registry_url,
    /// gateway_url, auth_url, realm, client_id, client_secret, user_token).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Query {
    /// List the AAS descriptors of the registry.
    Registry,
    /// List the AAS of one asset type in one plant.
    List {
        #[arg(long)]
        plant: String,
        #[arg(long = "type", value_parser = parse_asset_type)]
        asset_type: AssetType,
    },
    /// Read one AAS.
    Aas { aas_id: String },
    /// List the submodels of an AAS.
    Submodels { aas_id: String },
    /// Read one submodel.
    Submodel { aas_id: String, submodel: String },
    /// List the elements of a submodel.
    Elements { aas_id: String, submodel: String },
    /// Read one element; give the idShorts of enclosing collections first.
    Element {
        aas_id: String,
        submodel: String,
        #[arg(required = true, num_args = 1..)]
        path: Vec<String>,
    },
}

fn parse_asset_type(s: &str) -> Result<AssetType, String> {
    s.parse()
        .map_err(|e: aas_model::UnknownAssetType| e.to_string())
}
