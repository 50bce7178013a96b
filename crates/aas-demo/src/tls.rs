//! The demo service over https (`aasmd demo-service --tls-cert --tls-key`): for the client's
//! certificate checks in tests, and for demos behind a company CA.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum_server::tls_rustls::RustlsConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::{Error, Result};

/// PEM files: the server's certificate chain (leaf first) and its private key.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Reads the files into a server configuration on the ring provider (the one the
/// client uses; no second crypto library to build).
pub(crate) fn server_config(files: &TlsFiles) -> Result<RustlsConfig> {
    let bad = |path: &Path, reason: String| Error::Tls {
        path: path.to_owned(),
        reason,
    };
    let chain = CertificateDer::pem_file_iter(&files.cert)
        .and_then(|certs| certs.collect::<std::result::Result<Vec<_>, _>>())
        .map_err(|e| bad(&files.cert, e.to_string()))?;
    let key =
        PrivateKeyDer::from_pem_file(&files.key).map_err(|e| bad(&files.key, e.to_string()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(chain, key))
        .map_err(|e| bad(&files.cert, e.to_string()))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(RustlsConfig::from_config(Arc::new(config)))
}
