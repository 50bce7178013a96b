//! TLS to a team store as libpq does it, from the URL's `sslmode` and `sslrootcert`
//! (which the driver's own URL parser does not know): `disable`; `allow` and `prefer`
//! (the default) try TLS and take plain when the server has none; `require` wants TLS
//! and checks the certificate only against a root certificate that is there (libpq's
//! rule); `verify-ca` checks that it chains to the root; `verify-full`, that it also
//! names the host. The root certificate is `sslrootcert` (a PEM file, or `system` for
//! the built-in roots), else `~/.postgresql/root.crt`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use postgres::config::SslMode;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore};
use tokio_postgres_rustls::MakeRustlsConnect;

/// What the URL asks of TLS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Wanted {
    mode: Mode,
    root: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

/// Takes `sslmode` and `sslrootcert` out of `url`: what they ask, and the URL left
/// for the driver. An unknown `sslmode` is refused with libpq's values.
pub(super) fn split(url: &str) -> Result<(Wanted, String), String> {
    let mut wanted = Wanted {
        mode: Mode::Prefer,
        root: None,
    };
    let Some((base, query)) = url.split_once('?') else {
        return Ok((wanted, url.to_owned()));
    };
    let mut kept = Vec::new();
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
        match key {
            "sslmode" => {
                wanted.mode = match value.as_ref() {
                    "disable" => Mode::Disable,
                    "allow" | "prefer" => Mode::Prefer,
                    "require" => Mode::Require,
                    "verify-ca" => Mode::VerifyCa,
                    "verify-full" => Mode::VerifyFull,
                    other => return Err(format!(
                        "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
                    )),
                }
            }
            "sslrootcert" => wanted.root = Some(value.into_owned()),
            _ => kept.push(pair),
        }
    }
    let url = match kept.is_empty() {
        true => base.to_owned(),
        false => format!("{base}?{}", kept.join("&")),
    };
    Ok((wanted, url))
}

impl Wanted {
    /// The driver's mode: it knows whether TLS is tried or required, not what is checked.
    pub(super) fn ssl_mode(&self) -> SslMode {
        match self.mode {
            Mode::Disable => SslMode::Disable,
            Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        }
    }

    /// The TLS connector for what is wanted; an error in words when a root certificate
    /// that must be read cannot be.
    pub(super) fn connector(&self) -> Result<MakeRustlsConnect, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let root = match (&self.root, self.mode) {
            (Some(root), _) => Some(PathBuf::from(root)),
            (None, Mode::Disable | Mode::Prefer) => None,
            (None, _) => std::env::home_dir()
                .map(|home| home.join(".postgresql/root.crt"))
                .filter(|default| default.exists() || self.mode != Mode::Require),
        };
        let chain = match (root, self.mode) {
            (None, Mode::VerifyCa | Mode::VerifyFull) => {
                return Err(format!(
                    "sslmode={} needs the root certificate that signed the server's: give it as sslrootcert=FILE in the URL (or put it in ~/.postgresql/root.crt)",
                    self.mode.name()
                ))
            }
            (None, _) | (Some(_), Mode::Disable | Mode::Prefer) => None,
            (Some(root), _) => Some(
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots(&root)?), provider.clone())
                    .build()
                    .map_err(|e| format!("the root certificate {}: {e}", root.display()))?,
            ),
        };
        let verifier = Arc::new(Checks {
            chain,
            name: self.mode == Mode::VerifyFull,
            provider: provider.clone(),
        });
        let config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Disable => "disable",
            Mode::Prefer => "prefer",
            Mode::Require => "require",
            Mode::VerifyCa => "verify-ca",
            Mode::VerifyFull => "verify-full",
        }
    }
}

/// The certificates of a PEM file, or the built-in roots for `system`.
fn roots(file: &Path) -> Result<RootCertStore, String> {
    if file == Path::new("system") {
        return Ok(RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        });
    }
    let cannot = |e: &dyn std::fmt::Display| {
        format!(
            "the root certificate {} (sslrootcert) cannot be read: {e}",
            file.display()
        )
    };
    let pem = std::fs::read(file).map_err(|e| cannot(&e))?;
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&pem) {
        roots
            .add(cert.map_err(|e| cannot(&e))?)
            .map_err(|e| cannot(&e))?;
    }
    if roots.is_empty() {
        return Err(cannot(&"it holds no PEM certificate"));
    }
    Ok(roots)
}

/// What is checked of the server's certificate: that it chains to a root (`chain`:
/// none for `prefer` and `require` without a root certificate, TLS against
/// eavesdropping only, as libpq), and that it names the host (`name`: `verify-full`).
/// The handshake's signatures are always checked.
#[derive(Debug)]
struct Checks {
    chain: Option<Arc<WebPkiServerVerifier>>,
    name: bool,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Checks {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        // The chain is checked before the name: a wrong name means a good chain.
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.name => Ok(ServerCertVerified::assertion()),
            checked => checked,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_and_sslrootcert_are_taken_out_of_the_url() {
        let (wanted, url) =
            split("postgres://u@db/plants?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5")
                .expect("read");
        assert_eq!(url, "postgres://u@db/plants?connect_timeout=5");
        assert_eq!(wanted.mode, Mode::VerifyFull);
        assert_eq!(wanted.root.as_deref(), Some("/etc/ca.pem"));
        let (wanted, url) = split("postgres://u@db/plants").expect("read");
        assert_eq!(
            (wanted.mode, url.as_str()),
            (Mode::Prefer, "postgres://u@db/plants")
        );
        assert!(split("postgres://db/x?sslmode=verify").is_err());
    }
}
