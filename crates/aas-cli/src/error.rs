use std::process::ExitCode;

use aas_client::ErrorKind;

/// Everything that ends `aasmd` with an error, and the exit code it maps to.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Client(#[from] aas_client::Error),
    #[error(transparent)]
    Sandbox(#[from] aas_sandbox::Error),
    #[error("{0}")]
    Usage(String),
    #[error("cannot write to stdout: {0}")]
    Output(#[from] std::io::Error),
    #[error("the crawl is incomplete ({0}); the export holds everything else")]
    Partial(String),
    #[error("interrupted; what was fetched so far is written")]
    Interrupted,
    #[error(transparent)]
    Model(#[from] aas_model::Error),
    #[error("{0} objects could not be read")]
    Unreadable(usize),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(match self {
            CliError::Client(e) => match e.kind() {
                ErrorKind::Auth => 3,
                ErrorKind::NotFound | ErrorKind::NotAllowed => 4,
                ErrorKind::Offline => 5,
                ErrorKind::Config | ErrorKind::BadRequest => 2,
                _ => 1,
            },
            CliError::Usage(_) => 2,
            CliError::Partial(_) => 6,
            CliError::Interrupted => 130,
            CliError::Sandbox(_)
            | CliError::Output(_)
            | CliError::Model(_)
            | CliError::Unreadable(_) => 1,
        })
    }

    /// What the user can do about it, when there is something to say.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            CliError::Client(e) => match e.kind() {
                ErrorKind::Auth => Some("check client_id, client_secret and user_token in the connection settings"),
                ErrorKind::NotFound => Some("the id may be wrong, or the customer has not allowed this asset to the application"),
                ErrorKind::Offline => Some("is the service running, and are the URLs right?"),
                _ => None,
            },
            _ => None,
        }
    }
}
