//! The requests a client waits on for an answer's head, so that the status bar can name
//! a silent server within seconds: an address that drops packets answers nothing until
//! the connect timeout (10 s) and the retries after it have run out.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The requests in flight: each one's URL and since when. Shared by a client and its
/// token provider (and so by every task using the client).
#[derive(Debug, Clone, Default)]
pub(crate) struct Waiting(Arc<Mutex<InFlight>>);

#[derive(Debug, Default)]
struct InFlight {
    next: u64,
    requests: Vec<(u64, String, Instant)>,
}

/// One request waited on, until it is dropped (answered, failed or given up).
#[derive(Debug)]
pub(crate) struct Wait {
    waiting: Waiting,
    id: u64,
}

impl Waiting {
    /// Notes a request to `url` as waited on from now.
    pub(crate) fn start(&self, url: &str) -> Wait {
        let mut flight = self.lock();
        let id = flight.next;
        flight.next += 1;
        // The URL as it is: its origin is taken only when asked, once a second at most.
        flight.requests.push((id, url.to_owned(), Instant::now()));
        Wait {
            waiting: self.clone(),
            id,
        }
    }

    /// The origin waited on longest, and for how long; `None` when nothing waits.
    pub(crate) fn longest(&self) -> Option<(String, Duration)> {
        let flight = self.lock();
        (flight.requests.iter())
            .min_by_key(|(_, _, since)| *since)
            .map(|(_, url, since)| (origin(url), since.elapsed()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, InFlight> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Wait {
    fn drop(&mut self) {
        self.waiting
            .lock()
            .requests
            .retain(|(id, _, _)| *id != self.id);
    }
}

/// `scheme://host:port` of a URL (its path, which may name an asset, left out).
pub(crate) fn origin(url: &str) -> String {
    reqwest::Url::parse(url).map_or_else(|_| url.to_owned(), |u| u.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_request_in_flight_is_named_by_its_origin_until_it_ends() {
        let waiting = Waiting::default();
        assert_eq!(waiting.longest(), None);
        let first = waiting.start("http://10.1.2.3:8443/auth/realms/x/token?secret=no");
        std::thread::sleep(Duration::from_millis(5));
        let second = waiting.start("https://gateway.example/aasList");
        let (origin, since) = waiting.longest().expect("waiting");
        assert_eq!(origin, "http://10.1.2.3:8443");
        assert!(since >= Duration::from_millis(5));
        drop(first);
        assert_eq!(
            waiting.longest().expect("one left").0,
            "https://gateway.example"
        );
        drop(second);
        assert_eq!(waiting.longest(), None);
    }
}
