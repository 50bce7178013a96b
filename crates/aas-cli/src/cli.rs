use std::net::SocketAddr;
use std::path::PathBuf;

use aas_model::AssetType;
use clap::{Args, Parser, Subcommand};

const EXIT_CODES: &str = "\
Connection: --profile NAME (set up in the desktop app), --config FILE, or the URL flags
with --realm and --client-id; secrets are
never flags (they would show in the process list): set AASMD_CLIENT_SECRET and
AASMD_USER_TOKEN in the environment (they override the file's), and
AASMD_PROXY_PASSWORD for a proxy that wants one; or name files that hold them in
AASMD_CLIENT_SECRET_FILE, AASMD_USER_TOKEN_FILE, AASMD_PROXY_PASSWORD_FILE (a
systemd credential: see the book, scheduled-takes.md; a regular file of at most
64 KiB). A team store's password is never in a --store URL either: PGPASSWORD, or
the password file (~/.pgpass, or the file PGPASSFILE names); aasmd warns of one.

Exit codes:
  0  success
  1  the server failed or sent data that cannot be read; another snapshot is
     being taken
  2  bad command line, unusable connection settings, a damaged snapshot store
     (or a folder named as one), or several plants in it and no --plant
  3  credentials refused (client secret, access token or user token)
  4  not found, or not shared with this application (403/404); no snapshot (or
     no store: reading never creates one) to use
  5  the server cannot be reached
  6  crawl or snapshot take: finished, but some nodes could not be fetched
  7  cannot write the output (the --out file, stdout, or the snapshot store, also
     one on a read-only file system, which can still be read); a
     closed pipe (aasmd registry | head) ends quietly with 0
  1  audit: some finding is an error (a gap in the master data); 0 when all are
     warnings or there are none
  8  convert --strict: V3.0 cannot hold something as it is (the first such
     thing is named; nothing is written)
  130 crawl: interrupted (Ctrl-C); what was fetched is written; snapshot copy and
     audit: interrupted

Examples:
  aasmd demo-service --addr 127.0.0.1:0 > demo-service.json &   # prints one JSON line, then serves
  aasmd --config demo-service.json registry
  aasmd --config demo-service.json list --plant DEMO-01 --type machine
  aasmd --config demo-service.json element 'urn:demo-platform:acme:DEMO-01:aas:machine#M-0001' Nameplate Address CityTown
  aasmd --config demo-service.json crawl --plant DEMO-01 --format env --out plant.json
  aasmd --config demo-service.json snapshot take --plant DEMO-01   # into the local store
  aasmd search 'SN-M-0001'                                    # in the latest snapshot
  aasmd convert old-plant.aasx --to v3 --out plant-v3.aasx    # report: plant-v3.conversion.json
  aasmd audit --plant DEMO-01 --type machine                  # is the master data complete?
  aasmd --file pump.aasx table --format xlsx --out pump.xlsx  # an AAS file as the source
  aasmd --file pump-2025.aasx --file pump-2026.aasx diff      # what the vendor changed
  aasmd --v3 http://localhost:8081/api/v3.0 search Pressure   # an AAS V3 server as the source";

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
    /// Say what an AAS file holds: each part (its metamodel version, JSON or XML), the
    /// objects per model type, and the properties no AAS version has; for V2.0 files
    /// (JSON, XML or AASX) also what does not parse and what departs from V2.0.1. Reads
    /// V2.0, V3.0 and V3.1. Exit code 1 when something does not parse.
    Inspect {
        file: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Print what was read instead, as JSON lines: each shell, submodel and element
        /// (its path, kind, value type and value). Reads AAS V2.0, V3.0 and V3.1 files:
        /// JSON, XML, and AASX packages with JSON or XML spec parts.
        #[arg(long, conflicts_with = "json")]
        elements: bool,
    },
    /// Convert an AAS V2.0.1 or BaSyx V1 file (an environment as JSON or XML, an AASX of
    /// either, or a shell, submodel or registry answer as JSON) to AAS V3.0 or V3.1, or
    /// carry a V3 file (V3.0 or V3.1, JSON, XML or AASX) to the other version: JSON, XML
    /// when --out ends in .xml, AASX when it ends in .aasx (the package's files that
    /// File elements name are carried over). Everything the target cannot hold as it
    /// was is listed, with its JSON path in the source and its value, in a report beside
    /// --out (NAME.conversion.json); a summary line goes to stderr.
    Convert {
        file: PathBuf,
        /// The version to convert to: v3.0 (or v3) or v3.1.
        #[arg(long, value_parser = parse_target)]
        to: aas_export::Target,
        /// The file to write (atomically).
        #[arg(long)]
        out: PathBuf,
        /// Change nothing: stop at the first thing the target cannot hold as it is
        /// (exit code 8), and write nothing.
        #[arg(long)]
        strict: bool,
    },
    /// Run a local AAS Master Data service with a generated demo plant. Prints ONE JSON
    /// line (registry_url, gateway_url, auth_url, realm, client_id, client_secret,
    /// user_token, plants, v3_url) once it listens, then serves until killed. The same
    /// plants are served as an AAS V3 server at v3_url (the Part 2 API's read routes,
    /// no sign-in): `aasmd --v3 V3_URL …` reads it. The client secret is random unless
    /// AASMD_DEMO_SERVICE_CLIENT_SECRET is set.
    DemoService(DemoServiceArgs),
    /// Plant snapshots in the local store: take one (a whole crawl, kept by content
    /// hash), list them, remove one.
    #[command(subcommand)]
    Snapshot(SnapshotCommand),
    /// The team store (a PostgreSQL database named by --store postgres://…): make its
    /// tables or bring them up to date, as its writer role. The database and the roles
    /// come from its administrator (see the book, team-store.md).
    #[command(subcommand)]
    Store(StoreCommand),
    /// Search the elements of a snapshot (the plant's latest complete one unless
    /// --snapshot): idShort paths, values, language texts, semanticIds, descriptions.
    /// Every word must match; the last may be the start of a word.
    Search {
        query: String,
        #[arg(long)]
        snapshot: Option<i64>,
        /// The plant whose latest snapshot is searched (needed when the store holds
        /// several plants).
        #[arg(long)]
        plant: Option<String>,
        #[arg(long, default_value_t = 100)]
        limit: usize,
        /// Print an array of {aas_id, submodel, path, model_type, value}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArg,
    },
    /// What changed between two snapshots (default: the plant's latest two complete
    /// ones): shells, submodels and elements added, removed or changed, at the finest
    /// level that changed, old and new values. Nodes that failed in either snapshot are
    /// named on stderr, never reported removed.
    Diff {
        /// The older and the newer snapshot's ids.
        #[arg(num_args = 2, value_names = ["OLD", "NEW"])]
        ids: Vec<i64>,
        #[arg(long)]
        plant: Option<String>,
        /// Print an array of {change, aas_id, submodel, path, old, new}.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print CSV: change, aas_id, submodel, path (idShorts joined by /), old, new.
        #[arg(long)]
        csv: bool,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Export a snapshot as a crawl of the plant exports it: the same formats, the same
    /// content as `crawl --format …` of the plant when the snapshot was taken.
    Export {
        /// The snapshot to export (needed but with --file, which names the file's).
        #[arg(long)]
        snapshot: Option<i64>,
        /// raw, env, aasx, csv, or a V3 format: v3.0-json (v3-env), v3.0-aasx (v3-aasx),
        /// v3.0-xml, v3.0-aasx-xml, and the same four of v3.1 (see crawl).
        #[arg(long, value_parser = parse_format)]
        format: aas_export::Format,
        /// The file to write (atomically).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        store: StoreArg,
    },
    /// The plant as a table, from a snapshot (the plant's latest complete one unless
    /// --snapshot): one row per shell, the --column elements as columns, cells as the
    /// app shows them; filtered, sorted, and written as CSV (default), XLSX or JSON.
    Table(TableArgs),
    /// Is the master data complete? Every submodel of a snapshot (the plant's latest
    /// complete one unless --snapshot) judged against the IDTA submodel template its
    /// semanticId names: per template how many shells carry it and how many are
    /// complete, then the most frequent findings. --format csv|json|xlsx writes every
    /// finding instead. Exit code 1 when some finding is an error.
    Audit(AuditArgs),
    #[command(flatten)]
    Query(Query),
}

/// Where the snapshots are kept.
#[derive(Debug, Args)]
pub struct StoreArg {
    /// The snapshot store: a file, or a team store's postgres://ROLE@HOST/DATABASE URL
    /// (default: the file the desktop app uses, in its local data folder). Never put a
    /// password in a URL given here: every user of this computer can read a command
    /// line (ps). Give it in PGPASSWORD or in the password file (~/.pgpass, or the file
    /// PGPASSFILE names); AASMD_STORE is read by you and root only.
    // hide_env_values: the variable may name a team store with its password.
    #[arg(
        long = "store",
        env = "AASMD_STORE",
        value_name = "FILE",
        hide_env_values = true
    )]
    pub path: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum SnapshotCommand {
    /// Crawl the plant into a new snapshot. Progress goes to stderr; stdout gets one
    /// JSON line {"id", "source", "plant", "taken_at", "shells", "nodes", "complete"}.
    /// Exit code 6 when it ends partial (it is kept, marked "complete": false). With
    /// --v3 URL, the V3 server read shell by shell: its plant is its address, its source "v3".
    Take {
        /// The plant to crawl (needed but with --v3).
        #[arg(long)]
        plant: Option<String>,
        /// Asset types to crawl (repeatable); those the profile's application requested
        /// (all eight without a profile) when omitted.
        #[arg(long = "type", value_parser = parse_asset_type)]
        asset_types: Vec<AssetType>,
        /// Keep the newest N complete snapshots of this plant and source, removing older
        /// ones (partial ones older than those too); default: the app's preference (10).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        keep: Option<u16>,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Take an AAS file (an AASX package, or an environment as JSON or XML; AAS V2.0,
    /// V3.0 or V3.1) into a new snapshot, whose plant is the file's name and whose
    /// source is "file": search, diff, table and audit then read it as any snapshot
    /// (--plant NAME.aasx). stdout gets one JSON line as take prints it.
    Import {
        file: PathBuf,
        /// Keep the newest N complete snapshots of this file name, removing older ones;
        /// default: the app's preference (10).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        keep: Option<u16>,
        #[command(flatten)]
        store: StoreArg,
    },
    /// List the snapshots, oldest first.
    List {
        #[arg(long)]
        plant: Option<String>,
        /// Print a JSON array of the objects `take` prints.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Remove a snapshot, and every stored answer no other snapshot uses.
    Rm {
        id: i64,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Copy snapshots from one store into another (a file and a team store, either
    /// way), oldest first, each whole or not at all, with its source, plant, time,
    /// counts, failed nodes and unreadable parts: by default every snapshot of --from
    /// that --to does not hold yet (the same source, plant and taken_at). A line per
    /// snapshot (and a progress bar) on stderr; Ctrl-C leaves the snapshot under way
    /// out (exit 130), those copied before stay.
    Copy {
        /// The store to copy from: a snapshot file or a postgres:// URL (its password
        /// not in it, but in PGPASSWORD or ~/.pgpass / PGPASSFILE: every user of this
        /// computer can read a command line).
        #[arg(long, value_name = "STORE")]
        from: PathBuf,
        /// The store to copy into (a file is made when there is none); a URL as --from.
        #[arg(long, value_name = "STORE")]
        to: PathBuf,
        /// Only this snapshot of --from (repeatable).
        #[arg(long = "id", value_name = "N", conflicts_with = "plant")]
        ids: Vec<i64>,
        /// Only the snapshots of this plant.
        #[arg(long)]
        plant: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Make the snapshot tables in an empty database, and let each --reader role (the
    /// desktops') read them. Run again to add readers.
    Init {
        /// A role that may read the store, not write it (repeatable).
        #[arg(long = "reader", value_name = "ROLE")]
        readers: Vec<String>,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Bring the tables up to date with this version of aasmd. Desktops of an older
    /// version can no longer read the store: update them with it.
    Migrate {
        #[command(flatten)]
        store: StoreArg,
    },
}

#[derive(Debug, Args)]
pub struct DemoServiceArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub addr: SocketAddr,
    /// Size of the generated demo plant DEMO-01 (assets spread over the eight asset
    /// types). 0 serves no generated plant (use with --data).
    #[arg(long, value_name = "N", default_value_t = 24)]
    pub demo: usize,
    /// Seed of the generated values; the same N and seed give the same plant.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Serve the AAS of an AAS V2.0.1 environment: a JSON file or an AASX package
    /// (JSON inside). Repeatable. Each AAS becomes an asset of --plant / --asset-type.
    #[arg(long, value_name = "PATH")]
    pub data: Vec<PathBuf>,
    /// Plant code of the assets read with --data.
    #[arg(long, value_name = "CODE", default_value = "SAMPLES-01")]
    pub plant: String,
    /// Asset type of the assets read with --data.
    #[arg(long, value_name = "TYPE", default_value = "machine", value_parser = parse_asset_type)]
    pub asset_type: AssetType,
    /// Where the token server's realms are: /auth (the spec's layout, Keycloak up to
    /// 16) or "" (Keycloak 17 and later). Discovery documents are served there too; the
    /// start-up line's auth_url stays the bare http://HOST:PORT.
    #[arg(
        long,
        value_name = "PREFIX",
        default_value = "/auth",
        allow_hyphen_values = true
    )]
    pub auth_path_prefix: String,
    /// Lifetime of access tokens, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub token_ttl: u64,
    /// Inject faults, e.g. "latency=20ms,jitter=5ms,error=0.05,throttle=0.02,retry-after=1,drop=0.01,truncate=0.01,garbage=0.01,seed=7".
    /// Shares are per request; they apply to the registry, the gateway and the V3 server.
    #[arg(long, value_name = "SPEC", value_parser = parse_faults)]
    pub faults: Option<aas_demo::FaultSpec>,
    /// Keep the customers' grants in FILE across restarts (written atomically).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Add `admin_token` (for /demo-service/admin/...) to the start-up line.
    #[arg(long)]
    pub admin_token: bool,
    /// Serve no AAS V3 server (the Part 2 routes at /api/v3.0 need no sign-in: leave
    /// them out where others can reach the address).
    #[arg(long)]
    pub no_v3_server: bool,
    /// The V3 server wants an access token, as a secured one does: OAuth 2 client
    /// credentials (client_id, client_secret) at the token endpoint the start-up line
    /// names (v3_token_url).
    #[arg(long, conflicts_with = "no_v3_server")]
    pub v3_sign_in: bool,
    /// Serve https with this PEM certificate chain (needs --tls-key); the start-up
    /// line's URLs are then https ones.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
}

fn parse_faults(s: &str) -> Result<aas_demo::FaultSpec, String> {
    s.parse()
}

#[derive(Debug, Args)]
pub struct ConnectionArgs {
    /// An AAS file as the source (an AASX package, or an environment as JSON or XML; AAS
    /// V2.0 to V3.1), instead of a platform: search, diff, table, audit and export read
    /// it as a snapshot of its own, taken into a temporary store that is removed at the
    /// end. Twice, for diff: what changed from the first file to the second.
    #[arg(long = "file", global = true, value_name = "FILE", conflicts_with_all = ["config", "profile"])]
    pub files: Vec<PathBuf>,
    /// An AAS V3 server (the AAS Part 2 API, V3.0 or V3.1: Eclipse BaSyx, FA³ST, AASX
    /// Server) as the source, by the address its /shells and /submodels are under
    /// (https://HOST/api/v3.0, or whatever base path it has): its shells and the
    /// submodels they name are read, shell by shell, into a temporary store, then search, table,
    /// audit and export read it; `snapshot take` keeps it in the store as a snapshot.
    /// Credentials, never on the command line: a bearer token in AASMD_V3_TOKEN, an API
    /// key in AASMD_V3_API_KEY (sent in --api-key-header), or OAuth 2 client
    /// credentials (--token-url, --client-id, AASMD_CLIENT_SECRET); each also from the
    /// file its …_FILE variable names. A profile of kind "AAS V3 server" (--profile)
    /// names all of this itself.
    #[arg(long = "v3", global = true, value_name = "URL", conflicts_with_all = ["config", "profile", "files"])]
    pub v3: Option<String>,
    /// An AAS V3 registry as the source (the address its /shell-descriptors are under):
    /// each shell its descriptors describe is read at the endpoint they name, and its
    /// submodels at theirs; endpoints only at the registry's origin, or at --v3's when
    /// both are given (a repository beside the registry). Credentials as for --v3.
    #[arg(long = "v3-registry", global = true, value_name = "URL", conflicts_with_all = ["config", "profile", "files"])]
    pub v3_registry: Option<String>,
    /// The header --v3's API key (AASMD_V3_API_KEY) is sent in.
    #[arg(long, global = true, value_name = "NAME", default_value = "X-API-Key")]
    pub api_key_header: String,
    /// A JSON file with the fields of the demo service's start-up line (registry_url,
    /// gateway_url, auth_url, realm, client_id, client_secret, user_token). Flags
    /// below override its fields.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "profile")]
    pub config: Option<PathBuf>,
    /// A profile saved by the desktop app: its settings, and its secrets from the OS
    /// keychain. Flags below override its fields.
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Base URL of the registry (`.../api/v1/registry` is appended).
    #[arg(long, global = true, value_name = "URL")]
    pub registry_url: Option<String>,
    /// Base URL of the gateway (`.../aasList` is appended).
    #[arg(long, global = true, value_name = "URL")]
    pub gateway_url: Option<String>,
    /// Base URL of the token server: http://HOST:PORT, with or without /auth, or the
    /// realm's issuer URL (.../realms/REALM); the token endpoint is found by OpenID
    /// Connect discovery.
    #[arg(long, global = true, value_name = "URL")]
    pub auth_url: Option<String>,
    #[arg(long, global = true)]
    pub realm: Option<String>,
    #[arg(long, global = true)]
    pub client_id: Option<String>,
    /// The token endpoint itself, when discovery cannot find it (a token server behind
    /// a proxy that announces an internal address).
    #[arg(long, global = true, value_name = "URL")]
    pub token_url: Option<String>,
    /// How the client authenticates at the token endpoint: form (default) or basic.
    #[arg(long, global = true, value_name = "form|basic", value_parser = parse_client_auth)]
    pub client_auth: Option<aas_client::ClientAuth>,
    /// Allow plain http to hosts other than this machine: the tokens then cross the
    /// network unencrypted. Only for a network you trust.
    #[arg(long, global = true)]
    pub allow_plain_http: bool,
    /// A PEM file of CA certificates to trust besides the built-in ones (a company
    /// CA that signs the service's certificate).
    #[arg(long, global = true, value_name = "FILE")]
    pub ca_file: Option<PathBuf>,
    /// A proxy for every request instead of HTTPS_PROXY/HTTP_PROXY (this machine is
    /// always reached directly); its password, if it wants one, in AASMD_PROXY_PASSWORD.
    #[arg(long, global = true, value_name = "URL")]
    pub proxy: Option<String>,
    /// The user name the proxy wants.
    #[arg(long, global = true, value_name = "NAME")]
    pub proxy_user: Option<String>,
    /// How long an answer may go without a byte before its request counts as lost
    /// (e.g. 30s, 2m). An answer must also come at 4 KiB/s or more over each such
    /// period, so a server that trickles bytes is cut off; both failures are retried.
    #[arg(long, global = true, value_name = "DURATION", env = "AASMD_IDLE_TIMEOUT",
          default_value = "30s", value_parser = humantime::parse_duration)]
    pub idle_timeout: std::time::Duration,
}

fn parse_target(s: &str) -> Result<aas_export::Target, String> {
    match s {
        "v3" | "v3.0" => Ok(aas_export::Target::V3_0),
        "v3.1" => Ok(aas_export::Target::V3_1),
        _ => Err(format!("{s:?}: expected v3.0 (or v3) or v3.1")),
    }
}

fn parse_client_auth(s: &str) -> Result<aas_client::ClientAuth, String> {
    match s {
        "form" => Ok(aas_client::ClientAuth::Form),
        "basic" => Ok(aas_client::ClientAuth::Basic),
        _ => Err(format!("{s:?}: expected form or basic")),
    }
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
    /// Load a whole plant (registry, AAS of each asset type, submodels, elements) and
    /// export it. A progress bar goes to stderr; the exit code is 6 when some nodes
    /// failed or the node limit was reached (the file still holds everything else, and
    /// the raw format lists the failures). A URL that keeps failing while the service
    /// answers fails on its own; a service that answers nothing is waited for
    /// (--offline-wait), then what is left fails.
    ///
    /// Answers are held in memory up to 1 GiB (AASMD_CRAWL_MEMORY_MB); past that the
    /// crawl goes on through a temporary store in a folder beside --out (removed at the
    /// end), so memory stays bounded whatever the plant's size. The file is the same.
    Crawl {
        #[arg(long)]
        plant: String,
        /// Asset types to load (repeatable); all eight when omitted.
        #[arg(long = "type", value_parser = parse_asset_type)]
        asset_types: Vec<AssetType>,
        /// Requests in flight at most.
        #[arg(long, default_value_t = aas_client::DEFAULT_CONCURRENCY)]
        concurrency: usize,
        /// How long to wait for a service that stopped answering (e.g. 90s, 10m,
        /// 1h) before the nodes still to fetch are reported failed.
        #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
        offline_wait: std::time::Duration,
        /// Requests a crawl makes at most; past it the crawl ends partial (exit 6).
        #[arg(long, default_value_t = aas_client::DEFAULT_MAX_NODES)]
        max_nodes: u64,
        /// raw (the exact answers and a manifest), env (AAS V2.0.1 environment JSON),
        /// aasx (a package of it), csv (property-like elements), or AAS V3: v3.0-json
        /// (environment JSON; also named v3-env), v3.0-aasx (a package of it; v3-aasx),
        /// v3.0-xml (environment XML), v3.0-aasx-xml (a package of that), and the same
        /// four of V3.1 (v3.1-json, v3.1-aasx, v3.1-xml, v3.1-aasx-xml). A V3 export
        /// writes its conversion report beside --out (NAME.conversion.json).
        #[arg(long, value_parser = parse_format)]
        format: aas_export::Format,
        /// The file to write (atomically: an interrupted run leaves the old file).
        #[arg(long)]
        out: PathBuf,
    },
    /// Read one element; give the idShorts of enclosing collections first.
    Element {
        aas_id: String,
        submodel: String,
        #[arg(required = true, num_args = 1..)]
        path: Vec<String>,
    },
}

fn parse_format(s: &str) -> Result<aas_export::Format, String> {
    s.parse()
}

fn parse_asset_type(s: &str) -> Result<AssetType, String> {
    AssetType::platform(s).map_err(|e| e.to_string())
}

/// The snapshot and the shells `table` and `audit` read.
#[derive(Debug, Args)]
pub struct ShellsArg {
    /// The plant (needed when the store holds several).
    #[arg(long)]
    pub plant: Option<String>,
    /// The snapshot; default: the plant's newest complete one.
    #[arg(long)]
    pub snapshot: Option<i64>,
    /// Only shells of this asset type (machine, tool, product, material, component,
    /// user, company, site); default: all.
    #[arg(long = "type", value_name = "TYPE", value_parser = parse_asset_type)]
    pub asset_type: Option<AssetType>,
}

/// `aasmd table`.
#[derive(Debug, Args)]
#[command(after_help = "\
Columns (repeat --column; default: the shell's idShort and the nameplate's key properties):
  Nameplate/SerialNumber              a submodel's idShort, then the element's idShort path
  semanticId:0173-1#02-AAM556#002     the shell's first element with this semanticId
  shell:idShort  shell:id  shell:assetType

Filters (repeat --filter; a row must pass all), the column named as in --column or by its
header:  COL~TEXT contains   COL=TEXT equals   COL= empty or missing   COL!= has a value
         COL>=VALUE  COL<=VALUE  (numbers as numbers, dates as dates, text naturally)

Examples:
  aasmd table --plant DEMO-01 --type machine --list-columns
  aasmd table --plant DEMO-01 --type machine --column shell:idShort \\
      --column Nameplate/SerialNumber --column Nameplate/YearOfConstruction \\
      --filter 'Nameplate/YearOfConstruction>=2015' --sort Nameplate/SerialNumber:desc
  aasmd table --plant DEMO-01 --format xlsx --out plant.xlsx")]
pub struct TableArgs {
    #[command(flatten)]
    pub shells: ShellsArg,
    /// A column (see below); repeat for more.
    #[arg(long = "column", value_name = "COLUMN")]
    pub columns: Vec<aas_table::Column>,
    /// Keep only rows that pass (see below); repeat for more.
    #[arg(long = "filter", value_name = "FILTER")]
    pub filters: Vec<String>,
    /// Sort by this column; COLUMN:desc for descending. Empty and missing cells last.
    #[arg(long, value_name = "COLUMN")]
    pub sort: Option<String>,
    /// csv, xlsx or json ({about, columns, rows: [{aasId, idShort, assetType, cells}]},
    /// a missing cell null).
    #[arg(long, default_value = "csv")]
    pub format: aas_table::TableFormat,
    /// The languages of multi-language values, most wanted first (repeat).
    #[arg(long = "lang", value_name = "LANG", default_value = "en")]
    pub languages: Vec<String>,
    /// The file to write (atomically); default: stdout (not for xlsx).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Instead of the table, list the columns the shells offer: path, shells that have
    /// it, model type, value type, unit, semanticId (tab-separated).
    #[arg(long, conflicts_with_all = ["columns", "filters", "sort", "out"])]
    pub list_columns: bool,
    #[command(flatten)]
    pub store: StoreArg,
}

/// `aasmd audit`.
#[derive(Debug, Args)]
#[command(after_help = "\
Templates: the built-in ones (Digital Nameplate 1.0, 2.0, 3.0; Technical Data 1.2, 2.0;
Handover Documentation 1.2, 2.0; Contact Information 1.0), every *.json file in the
templates folder of the app's data folder (~/.local/share/org.aasbrowser.desktop/templates
on Linux), and --template-file FILE (the same format; one of the same name and version
replaces a built-in one). A template file is a regular file of at most 4 MiB. --template NAME judges by those of that name (every version) or
name and version only.

Findings: missing, too_many, wrong_model_type, value_not_of_type, empty_value, unreadable
(errors); wrong_value_type, missing_language, near_miss (warnings). A shell is complete
for a template when its submodels of it have no error.

Exit codes: 0 no finding is an error, 1 some finding is an error (the summary or file is
written first), 2 bad usage or an unknown template, 4 no snapshot, 130 Ctrl-C.

Examples:
  aasmd audit --plant DEMO-01                                  # the summary
  aasmd audit --plant DEMO-01 --type machine --template 'Digital Nameplate'
  aasmd audit --plant DEMO-01 --csv > findings.csv             # every finding
  aasmd audit --plant DEMO-01 --format xlsx --out findings.xlsx
  aasmd audit --plant DEMO-01 --template-file my-template.json --template 'My Template'
  aasmd audit --plant DEMO-01 --store postgres://db.example/plants --json")]
pub struct AuditArgs {
    #[command(flatten)]
    pub shells: ShellsArg,
    /// Judge by the templates of this name, or name and version (repeat for more);
    /// default: all.
    #[arg(long = "template", value_name = "NAME")]
    pub templates: Vec<String>,
    /// A template file of your own to judge by as well (repeat for more).
    #[arg(long = "template-file", value_name = "FILE")]
    pub template_files: Vec<PathBuf>,
    /// A language multi-language texts must carry (repeat); default: those at least
    /// half of the plant's texts carry.
    #[arg(long = "lang", value_name = "LANG")]
    pub languages: Vec<String>,
    /// text (a summary for people), csv (one row a finding), json (the verdict and
    /// every finding) or xlsx (needs --out).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "csv", "json", "xlsx"])]
    pub format: String,
    /// The same as --format json.
    #[arg(long, conflicts_with_all = ["format", "csv"])]
    pub json: bool,
    /// The same as --format csv.
    #[arg(long, conflicts_with = "format")]
    pub csv: bool,
    /// The file to write (atomically); default: stdout (not for xlsx).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How many groups of findings the summary lists.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
    #[command(flatten)]
    pub store: StoreArg,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The variables whose value `--help` may show: none of them can hold a secret.
    const NEVER_SECRET: [&str; 1] = ["AASMD_IDLE_TIMEOUT"];

    /// Every argument of every subcommand that reads a variable hides its value from
    /// `--help` (issue 43: AASMD_STORE's team store URL printed its password), unless
    /// the variable is one that can never be a secret.
    #[test]
    fn help_shows_no_variables_value_that_could_be_a_secret() {
        fn walk(command: &clap::Command, path: &str, found: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let Some(env) = arg.get_env() else { continue };
                let env = env.to_string_lossy().into_owned();
                found.push(env.clone());
                assert!(
                    arg.is_hide_env_values_set() || NEVER_SECRET.contains(&env.as_str()),
                    "{path} --{}: help would show the value of {env}",
                    arg.get_id()
                );
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), found);
            }
        }
        let mut found = Vec::new();
        walk(&Cli::command(), "aasmd", &mut found);
        assert!(found.iter().any(|env| env == "AASMD_STORE"), "{found:?}");
    }
}
