//! Counters of what clients really did, served at `GET /demo-service/stats`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use serde_json::{json, Value};

#[derive(Debug, Default)]
pub struct Stats {
    token_requests: AtomicU64,
    /// route ("GET /gateway/aasList/{aas_id}") -> status -> count
    requests: Mutex<BTreeMap<String, BTreeMap<u16, u64>>>,
    faults: Mutex<BTreeMap<&'static str, u64>>,
}

impl Stats {
    pub fn token_request(&self) {
        self.token_requests.fetch_add(1, Ordering::Relaxed);
    }

    pub fn request(&self, route: String, status: u16) {
        let mut requests = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        *requests
            .entry(route)
            .or_default()
            .entry(status)
            .or_default() += 1;
    }

    pub fn fault(&self, name: &'static str) {
        let mut faults = self.faults.lock().unwrap_or_else(|e| e.into_inner());
        *faults.entry(name).or_default() += 1;
    }

    pub fn snapshot(&self) -> Value {
        let requests = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        let faults = self.faults.lock().unwrap_or_else(|e| e.into_inner());
        let total: u64 = requests.values().flat_map(|by| by.values()).sum();
        json!({
            "token_requests": self.token_requests.load(Ordering::Relaxed),
            "requests_total": total,
            "requests": *requests,
            "faults": *faults,
        })
    }
}
