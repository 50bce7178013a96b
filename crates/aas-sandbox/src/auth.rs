//! Who may call: the one demo application (client id and secret), the demo user's
//! token, and the access tokens handed out by the token endpoint.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The secrets of one sandbox run, made fresh at every start.
#[derive(Clone)]
pub struct Credentials {
    pub realm: String,
    pub client_id: String,
    pub client_secret: String,
    pub user_token: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("realm", &self.realm)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

impl Credentials {
    pub fn generate() -> Self {
        Credentials {
            realm: "demo".into(),
            client_id: "aas-browser-demo".into(),
            client_secret: random_text(),
            user_token: random_text(),
        }
    }
}

/// Access tokens issued so far and when each expires.
#[derive(Debug)]
pub struct Tokens {
    ttl: Duration,
    issued: Mutex<HashMap<String, Instant>>,
}

impl Tokens {
    pub fn new(ttl: Duration) -> Self {
        Tokens {
            ttl,
            issued: Mutex::new(HashMap::new()),
        }
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    pub fn issue(&self) -> String {
        let token = random_text();
        let now = Instant::now();
        let mut issued = self.issued.lock().unwrap_or_else(|e| e.into_inner());
        issued.retain(|_, expiry| *expiry > now);
        issued.insert(token.clone(), now + self.ttl);
        token
    }

    pub fn is_valid(&self, token: &str) -> bool {
        let issued = self.issued.lock().unwrap_or_else(|e| e.into_inner());
        issued
            .get(token)
            .is_some_and(|expiry| *expiry > Instant::now())
    }
}

fn random_text() -> String {
    rand::random::<[u8; 24]>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
