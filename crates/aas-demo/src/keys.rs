//! Signed tokens: RS256 JWTs for access tokens (what the token endpoint hands out) and
//! user tokens (what the platform's web page gives the user), and the key set that
//! verifies them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey};
use rsa::traits::PublicKeyParts;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Clock skew tolerated when checking `exp`.
const LEEWAY_SECS: u64 = 5;
const ACCESS: &str = "Bearer";
const USER: &str = "User";

/// The signing key of an issuer. By default one per process: generating a 2048-bit
/// key takes a noticeable moment, and every demo service has its own issuer URL, so sharing
/// the key does not let a token of one demo service pass another. A demo service with a state file
/// keeps its key there, so its tokens outlive a restart.
pub struct KeyPair {
    /// PKCS#1 DER of the private key, for the state file.
    der: Vec<u8>,
    encoding: EncodingKey,
    decoding: DecodingKey,
    jwk: Value,
}

impl KeyPair {
    /// The key pair of a PKCS#1 DER private key.
    pub fn from_der(der: &[u8]) -> Result<KeyPair, String> {
        let private = rsa::RsaPrivateKey::from_pkcs1_der(der).map_err(|e| e.to_string())?;
        let n = URL_SAFE_NO_PAD.encode(private.n().to_bytes_be());
        let e = URL_SAFE_NO_PAD.encode(private.e().to_bytes_be());
        let decoding = DecodingKey::from_rsa_components(&n, &e).map_err(|e| e.to_string())?;
        Ok(KeyPair {
            der: der.to_vec(),
            encoding: EncodingKey::from_rsa_der(der),
            decoding,
            jwk: json!({"kty": "RSA", "use": "sig", "alg": "RS256", "kid": "demo-service-1", "n": n, "e": e}),
        })
    }

    pub fn der(&self) -> &[u8] {
        &self.der
    }
}

/// This process's key pair.
pub fn key_pair() -> Arc<KeyPair> {
    static KEYS: OnceLock<Arc<KeyPair>> = OnceLock::new();
    Arc::clone(KEYS.get_or_init(|| {
        let private = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048)
            .unwrap_or_else(|e| panic!("cannot generate the demo service's RSA key: {e}"));
        let der = private
            .to_pkcs1_der()
            .unwrap_or_else(|e| panic!("cannot encode the demo service's RSA key: {e}"));
        Arc::new(
            KeyPair::from_der(der.as_bytes())
                .unwrap_or_else(|e| panic!("cannot use the demo service's RSA key: {e}")),
        )
    }))
}

/// Claims of an access token (Keycloak's names).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AccessClaims {
    pub iss: String,
    pub azp: String,
    pub iat: u64,
    pub exp: u64,
    pub scope: String,
    pub jti: String,
    pub typ: String,
}

/// Claims of a user token: the customer (tenant), the user, the plants they may see.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UserClaims {
    pub iss: String,
    pub sub: String,
    pub tenant: String,
    pub plants: Vec<String>,
    pub iat: u64,
    pub exp: u64,
    pub jti: String,
    pub typ: String,
}

/// Mints and verifies the tokens of one demo service (its issuer URLs, its lifetimes).
/// Verified tokens are remembered, so a busy client does not pay an RSA check per request.
pub struct Issuer {
    keys: Arc<KeyPair>,
    access_iss: String,
    user_iss: String,
    access_ttl: Duration,
    verified_access: Mutex<HashMap<String, AccessClaims>>,
    verified_user: Mutex<HashMap<String, UserClaims>>,
}

impl std::fmt::Debug for Issuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Issuer")
            .field("access_iss", &self.access_iss)
            .field("access_ttl", &self.access_ttl)
            .finish_non_exhaustive()
    }
}

/// Why a token was refused; the text is safe to send back (it holds no token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected(pub String);

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn jti() -> String {
    let bytes: [u8; 12] = rand::random();
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Tokens remembered at most this many at a time; the cache is simply emptied when full.
const CACHE_LIMIT: usize = 10_000;

impl Issuer {
    /// An issuer signing with this process's key; see [`Issuer::with_keys`].
    /// `base` is `http://HOST:PORT`; the realms are under `auth_prefix` there: `/auth`
    /// (Keycloak up to 16) or `` (17 and later).
    pub fn new(base: &str, auth_prefix: &str, realm: &str, access_ttl: Duration) -> Self {
        Issuer {
            keys: key_pair(),
            access_iss: format!("{base}{auth_prefix}/realms/{realm}"),
            user_iss: format!("{base}/platform/user-data"),
            access_ttl,
            verified_access: Mutex::new(HashMap::new()),
            verified_user: Mutex::new(HashMap::new()),
        }
    }

    /// The access tokens' issuer: the realm's address, under which the OpenID
    /// Connect discovery document and the token endpoint are.
    pub fn access_issuer(&self) -> &str {
        &self.access_iss
    }

    /// Signs and verifies with `keys` instead of this process's key.
    pub fn with_keys(mut self, keys: Arc<KeyPair>) -> Self {
        self.keys = keys;
        self
    }

    pub fn access_ttl(&self) -> Duration {
        self.access_ttl
    }

    /// The JSON Web Key Set served at `.../protocol/openid-connect/certs`.
    pub fn jwks(&self) -> Value {
        json!({"keys": [self.keys.jwk]})
    }

    pub fn mint_access(&self, client_id: &str) -> String {
        let iat = now();
        self.sign(&AccessClaims {
            iss: self.access_iss.clone(),
            azp: client_id.to_owned(),
            iat,
            exp: iat.saturating_add(self.access_ttl.as_secs()),
            scope: "profile email".into(),
            jti: jti(),
            typ: ACCESS.into(),
        })
    }

    pub fn mint_user(&self, tenant: &str, user: &str, plants: &[String], ttl: Duration) -> String {
        let iat = now();
        self.sign(&UserClaims {
            iss: self.user_iss.clone(),
            sub: user.to_owned(),
            tenant: tenant.to_owned(),
            plants: plants.to_vec(),
            iat,
            // `ttl_secs` of the admin surface may be anything (found by fuzzing).
            exp: iat.saturating_add(ttl.as_secs()),
            jti: jti(),
            typ: USER.into(),
        })
    }

    pub fn verify_access(&self, token: &str) -> Result<AccessClaims, Rejected> {
        let claims = cached_verify(
            &self.verified_access,
            &self.keys.decoding,
            token,
            &self.access_iss,
            |c: &AccessClaims| c.exp,
        )?;
        if claims.typ != ACCESS {
            return Err(Rejected("not an access token".into()));
        }
        Ok(claims)
    }

    pub fn verify_user(&self, token: &str) -> Result<UserClaims, Rejected> {
        let claims = cached_verify(
            &self.verified_user,
            &self.keys.decoding,
            token,
            &self.user_iss,
            |c: &UserClaims| c.exp,
        )?;
        if claims.typ != USER {
            return Err(Rejected("not a user token".into()));
        }
        Ok(claims)
    }

    fn sign<T: Serialize>(&self, claims: &T) -> String {
        jsonwebtoken::encode(&Header::new(Algorithm::RS256), claims, &self.keys.encoding)
            .unwrap_or_else(|e| panic!("cannot sign a token: {e}"))
    }
}

/// Verifies signature (RS256 only: `none` and HS256 are refused), issuer and expiry;
/// a token verified before is only checked for expiry again.
fn cached_verify<C: Clone + for<'de> Deserialize<'de>>(
    cache: &Mutex<HashMap<String, C>>,
    key: &DecodingKey,
    token: &str,
    issuer: &str,
    exp: impl Fn(&C) -> u64,
) -> Result<C, Rejected> {
    // Saturating: a token whose `exp` is near u64::MAX must not overflow here.
    let expired = |c: &C| exp(c).saturating_add(LEEWAY_SECS) < now();
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = cache.get(token) {
        return if expired(c) {
            Err(Rejected("the token has expired".into()))
        } else {
            Ok(c.clone())
        };
    }
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_issuer(&[issuer]);
    validation.leeway = LEEWAY_SECS;
    validation.validate_aud = false;
    validation.set_required_spec_claims(&["exp", "iss"]);
    let data = jsonwebtoken::decode::<C>(token, key, &validation)
        .map_err(|e| Rejected(format!("the token is not valid: {e}")))?;
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    cache.insert(token.to_owned(), data.claims.clone());
    Ok(data.claims)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issuer() -> Issuer {
        Issuer::new(
            "http://127.0.0.1:1",
            "/auth",
            "demo",
            Duration::from_secs(300),
        )
    }

    #[test]
    fn access_tokens_verify_and_carry_the_client() {
        let i = issuer();
        let claims = i.verify_access(&i.mint_access("app")).expect("valid");
        assert_eq!(claims.azp, "app");
        assert_eq!(claims.exp - claims.iat, 300);
    }

    #[test]
    fn an_issuer_with_a_saved_key_accepts_the_tokens_of_the_first() {
        let first = issuer();
        let user = first.mint_user("acme", "u", &["P".into()], Duration::from_secs(60));
        let saved = KeyPair::from_der(key_pair().der()).expect("key");
        let restarted = Issuer::new(
            "http://127.0.0.1:1",
            "/auth",
            "demo",
            Duration::from_secs(300),
        )
        .with_keys(Arc::new(saved));
        assert!(restarted.verify_user(&user).is_ok());
        assert_eq!(restarted.jwks(), first.jwks());
        assert!(KeyPair::from_der(b"not a key").is_err());
    }

    #[test]
    fn a_huge_lifetime_ends_at_the_last_second_instead_of_overflowing() {
        let i = issuer();
        let user = i.mint_user("acme", "u", &[], Duration::from_secs(u64::MAX));
        assert_eq!(i.verify_user(&user).expect("valid").exp, u64::MAX);
        // The second use is answered from the cache of verified tokens: its expiry
        // check must not overflow either.
        assert_eq!(i.verify_user(&user).expect("still valid").exp, u64::MAX);
    }

    #[test]
    fn a_token_of_another_issuer_or_kind_is_refused() {
        let other = Issuer::new(
            "http://127.0.0.1:2",
            "/auth",
            "demo",
            Duration::from_secs(300),
        );
        assert!(issuer().verify_access(&other.mint_access("app")).is_err());
        let i = issuer();
        let user = i.mint_user("acme", "u", &["P".into()], Duration::from_secs(60));
        assert!(i.verify_access(&user).is_err());
        assert!(i.verify_user(&user).is_ok());
    }

    #[test]
    fn unsigned_and_hmac_tokens_are_refused() {
        let i = issuer();
        let good = i.mint_access("app");
        let payload = good.split('.').nth(1).expect("payload");
        let none = format!(
            "{}.{payload}.",
            URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#)
        );
        assert!(i.verify_access(&none).is_err());
        // HS256 signed with the public key's bytes: the classic RS/HS confusion.
        let n = key_pair().jwk["n"].as_str().expect("n").to_owned();
        let forged = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &i.verify_access(&good).expect("claims"),
            &EncodingKey::from_secret(n.as_bytes()),
        )
        .expect("hs256");
        assert!(i.verify_access(&forged).is_err());
    }
}
