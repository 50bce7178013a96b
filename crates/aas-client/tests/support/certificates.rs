//! Certificates made at test time (rcgen): a CA and a server certificate it signs.
//! Shared by the test suites that talk TLS (aas-client's, aas-snapshot's team store).

use std::path::{Path, PathBuf};

/// A CA and a server certificate for `names` signed by it (valid in 2020 only when
/// `expired`), as PEM files in `dir`: (ca, server cert, server key).
pub fn make_certificates(dir: &Path, names: &[&str], expired: bool) -> (PathBuf, PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().expect("CA key");
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "AAS test CA");
    let ca_cert = ca.self_signed(&ca_key).expect("CA certificate");
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().expect("server key");
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    let mut params = CertificateParams::new(names).expect("server params");
    if expired {
        params.not_before = rcgen::date_time_ymd(2020, 1, 1);
        params.not_after = rcgen::date_time_ymd(2020, 12, 31);
    }
    let server = params.signed_by(&key, &issuer).expect("server certificate");
    std::fs::create_dir_all(dir).expect("dir");
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    (
        write("ca.pem", ca_cert.pem()),
        write("server.pem", server.pem()),
        write("server.key", key.serialize_pem()),
    )
}
