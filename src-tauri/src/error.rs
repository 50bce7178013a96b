use serde::Serialize;

/// An error as the web UI receives it: a kind it can react to ("auth", "not_allowed",
/// "not_found", "offline", "server", "bad_data", ...) and words for the user.
#[derive(Debug, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct IpcError {
    kind: aas_client::ErrorKind,
    message: String,
}

impl From<aas_client::Error> for IpcError {
    fn from(e: aas_client::Error) -> Self {
        IpcError {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

impl IpcError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        IpcError {
            kind: aas_client::ErrorKind::BadRequest,
            message: message.into(),
        }
    }

    pub fn bad_data(message: impl Into<String>) -> Self {
        IpcError {
            kind: aas_client::ErrorKind::BadData,
            message: message.into(),
        }
    }
}

impl From<aas_model::UnknownAssetType> for IpcError {
    fn from(e: aas_model::UnknownAssetType) -> Self {
        IpcError {
            kind: aas_client::ErrorKind::BadRequest,
            message: e.to_string(),
        }
    }
}

/// Why the app could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the built-in demo service did not start: {0}")]
    Sandbox(#[from] aas_sandbox::Error),
    #[error("cannot connect to the built-in demo service: {0}")]
    Client(#[from] aas_client::Error),
}
