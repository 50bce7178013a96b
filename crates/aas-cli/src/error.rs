use std::process::ExitCode;

use aas_source::ErrorKind;

/// Everything that ends `aasmd` with an error, and the exit code it maps to.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Client(#[from] aas_client::Error),
    #[error(transparent)]
    App(#[from] aas_app::Error),
    #[error(transparent)]
    DemoService(#[from] aas_demo::Error),
    #[error(transparent)]
    Export(#[from] aas_export::Error),
    #[error(transparent)]
    Output(#[from] aas_output::Error),
    #[error("{0}")]
    Usage(String),
    #[error("cannot write to stdout: {0}")]
    Stdout(#[from] std::io::Error),
    #[error("cannot encode the output as JSON: {0}")]
    Encode(#[source] serde_json::Error),
    #[error("cannot wait for Ctrl-C: {0}")]
    Signal(#[source] std::io::Error),
    #[error("the crawl is incomplete ({0}); everything else was kept")]
    Partial(String),
    #[error(transparent)]
    Snapshot(#[from] aas_snapshot::Error),
    #[error("interrupted; what was fetched so far is written")]
    Interrupted,
    #[error(transparent)]
    Model(#[from] aas_model::Error),
    /// An AAS file that could not be read (not the file system's refusal: that is Usage).
    #[error(transparent)]
    File(#[from] aas_file::Error),
    #[error("{0} objects could not be read")]
    Unreadable(usize),
    #[error("{errors} findings are errors, in {shells} shells")]
    Findings { errors: usize, shells: usize },
}

/// Exit code for "cannot write the output" (an `--out` file, or stdout).
const OUTPUT_FAILED: u8 = 7;

impl From<serde_json::Error> for CliError {
    /// Writing JSON to stdout fails either in the writing (an I/O error, a closed
    /// pipe) or in the encoding; each gets its own words.
    fn from(e: serde_json::Error) -> Self {
        match e.io_error_kind() {
            Some(_) => CliError::Stdout(e.into()),
            None => CliError::Encode(e),
        }
    }
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        if self.is_strict_refusal() {
            return ExitCode::from(8);
        }
        ExitCode::from(match self.kind() {
            Some(ErrorKind::Auth | ErrorKind::UserToken) => 3,
            Some(ErrorKind::NotFound | ErrorKind::NotAllowed | ErrorKind::NoSnapshot) => 4,
            Some(ErrorKind::Offline) => 5,
            Some(ErrorKind::Io | ErrorKind::DiskFull) => OUTPUT_FAILED,
            Some(
                ErrorKind::StoreDamaged
                | ErrorKind::Config
                | ErrorKind::BadRequest
                | ErrorKind::Keychain
                | ErrorKind::KeychainUnavailable,
            ) => 2,
            Some(ErrorKind::Interrupted) => 130,
            Some(_) => 1,
            None => match self {
                CliError::Usage(_) => 2,
                CliError::Stdout(_) => OUTPUT_FAILED,
                CliError::Partial(_) => 6,
                CliError::Interrupted => 130,
                _ => 1,
            },
        })
    }

    /// The kind of a client, store or application error; `None` for the command
    /// line's own.
    fn kind(&self) -> Option<ErrorKind> {
        match self {
            CliError::Client(e) => Some(e.kind()),
            CliError::App(e) => Some(e.kind()),
            CliError::Export(e) => Some(e.kind()),
            CliError::Output(e) => Some(e.kind()),
            CliError::Snapshot(e) => Some(e.kind()),
            _ => None,
        }
    }

    /// The snapshot store's error this is, or carries (an export or a table that was
    /// reading a snapshot when the store failed).
    fn store_error(&self) -> Option<&aas_snapshot::Error> {
        match self {
            CliError::Snapshot(e) | CliError::App(aas_app::Error::Snapshot(e)) => Some(e),
            other => aas_snapshot::Error::found_in(other),
        }
    }

    /// `convert --strict` met something V3.0 cannot hold as it is.
    fn is_strict_refusal(&self) -> bool {
        match self {
            CliError::App(aas_app::Error::Export(e)) | CliError::Export(e) => e.is_strict_refusal(),
            _ => false,
        }
    }

    /// A reader that went away (`aasmd registry | head`): Unix tools end quietly then.
    pub fn is_closed_pipe(&self) -> bool {
        matches!(self, CliError::Stdout(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// What the user can do about it, when there is something to say.
    pub fn hint(&self) -> Option<&'static str> {
        if self.is_strict_refusal() {
            return Some("without --strict the conversion goes on, and lists each change in the report beside --out");
        }
        if self
            .store_error()
            .is_some_and(|e| e.is_team_store_unreachable())
        {
            return Some("the team store's connection failed or was lost: check that its PostgreSQL server is running and reachable from this computer (the host and port of --store or AASMD_STORE), then run the command again; a read changes nothing, and a take that stopped is marked partial by the next one");
        }
        match self.kind()? {
            ErrorKind::Auth => Some("check client_id, client_secret and user_token in the connection settings"),
            ErrorKind::UserToken => Some("get a new user token from the platform and give it as AASMD_USER_TOKEN or in the profile"),
            ErrorKind::NotFound => Some("the id may be wrong, or the customer has not allowed this asset to the application"),
            ErrorKind::Offline => Some("is the service running, and are the URLs right?"),
            ErrorKind::Io => Some("check that the folder exists, is writable and has space"),
            ErrorKind::DiskFull => Some("the disk is full: free some space and try again (nothing more was written: earlier snapshots are whole, and `aasmd snapshot rm` removes old ones)"),
            _ => None,
        }
    }
}
