//! Faults on demand, for tests and demos of a client's resilience: added latency, server
//! errors, throttling, dropped connections, truncated bodies and invalid JSON, drawn
//! from a seeded generator so a run can be repeated.

use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What `--faults` sets; every share is a probability per request (0.0–1.0).
///
/// Format: comma-separated `key=value`, e.g.
/// `latency=20ms,jitter=10ms,error=0.05,throttle=0.02,retry-after=1,drop=0.01,truncate=0.01,garbage=0.01,seed=7`.
/// - `latency`, `jitter`: added delay, fixed plus uniform 0..jitter (`ms` or `s`)
/// - `error`: share answered 500, 502 or 503
/// - `throttle`: share answered 429 with `Retry-After: <retry-after>` seconds
/// - `drop`: share whose connection is cut before the body
/// - `truncate`: share whose body stops halfway and the connection is cut
/// - `garbage`: share answered 200 with a body that is not JSON
/// - `seed`: seed of the generator (default 1)
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultSpec {
    pub latency: Duration,
    pub jitter: Duration,
    pub error: f64,
    pub throttle: f64,
    pub retry_after: u64,
    pub drop: f64,
    pub truncate: f64,
    pub garbage: f64,
    pub seed: u64,
}

/// One fault chosen for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Error(u16),
    Throttle,
    Drop,
    Truncate,
    Garbage,
}

impl Fault {
    pub fn name(self) -> &'static str {
        match self {
            Fault::Error(_) => "error",
            Fault::Throttle => "throttle",
            Fault::Drop => "drop",
            Fault::Truncate => "truncate",
            Fault::Garbage => "garbage",
        }
    }
}

impl FromStr for FaultSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut spec = FaultSpec {
            retry_after: 1,
            seed: 1,
            ..FaultSpec::default()
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?}: expected key=value"))?;
            let share = || -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| (0.0..=1.0).contains(v))
                    .ok_or_else(|| {
                        format!("{key}: expected a share between 0 and 1, got {value:?}")
                    })
            };
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{key}: expected a whole number, got {value:?}"))
            };
            match key {
                "latency" => spec.latency = duration(value)?,
                "jitter" => spec.jitter = duration(value)?,
                "error" => spec.error = share()?,
                "throttle" => spec.throttle = share()?,
                "drop" => spec.drop = share()?,
                "truncate" => spec.truncate = share()?,
                "garbage" => spec.garbage = share()?,
                "retry-after" => spec.retry_after = number()?,
                "seed" => spec.seed = number()?,
                _ => return Err(format!("unknown fault {key:?}; known: latency, jitter, error, throttle, retry-after, drop, truncate, garbage, seed")),
            }
        }
        Ok(spec)
    }
}

fn duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("expected a duration like 20ms or 1s, got {text:?}");
    if let Some(ms) = text.strip_suffix("ms") {
        ms.parse().map(Duration::from_millis).map_err(|_| bad())
    } else if let Some(s) = text.strip_suffix('s') {
        s.parse().map(Duration::from_secs).map_err(|_| bad())
    } else {
        Err(bad())
    }
}

/// The spec and its generator.
#[derive(Debug)]
pub struct Faults {
    spec: FaultSpec,
    rng: Mutex<StdRng>,
}

impl Faults {
    pub fn new(spec: FaultSpec) -> Self {
        let rng = Mutex::new(StdRng::seed_from_u64(spec.seed));
        Faults { spec, rng }
    }

    pub fn retry_after(&self) -> u64 {
        self.spec.retry_after
    }

    /// The delay and the fault (if any) for the next request.
    pub fn draw(&self) -> (Duration, Option<Fault>) {
        let s = &self.spec;
        let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        let jitter = if s.jitter.is_zero() {
            Duration::ZERO
        } else {
            s.jitter.mul_f64(rng.random::<f64>())
        };
        let roll: f64 = rng.random();
        let mut edge = 0.0;
        let mut hit = |share: f64| {
            edge += share;
            roll < edge
        };
        let fault = if hit(s.error) {
            Some(Fault::Error([500, 502, 503][rng.random_range(0..3)]))
        } else if hit(s.throttle) {
            Some(Fault::Throttle)
        } else if hit(s.drop) {
            Some(Fault::Drop)
        } else if hit(s.truncate) {
            Some(Fault::Truncate)
        } else if hit(s.garbage) {
            Some(Fault::Garbage)
        } else {
            None
        };
        (s.latency + jitter, fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_parses_and_rejects_nonsense() {
        let spec: FaultSpec = "latency=20ms,jitter=1s,error=0.1,retry-after=3,seed=9"
            .parse()
            .expect("valid");
        assert_eq!(spec.latency, Duration::from_millis(20));
        assert_eq!(spec.jitter, Duration::from_secs(1));
        assert_eq!((spec.error, spec.retry_after, spec.seed), (0.1, 3, 9));
        assert!("error=2".parse::<FaultSpec>().is_err());
        assert!("latency=20".parse::<FaultSpec>().is_err());
        assert!("boom=1".parse::<FaultSpec>().is_err());
    }

    #[test]
    fn shares_are_honoured_and_a_seed_repeats_the_run() {
        let spec: FaultSpec = "error=0.2,garbage=0.1,seed=5".parse().expect("valid");
        let run = || {
            let f = Faults::new(spec.clone());
            (0..10_000).map(|_| f.draw().1).collect::<Vec<_>>()
        };
        let a = run();
        assert_eq!(a, run());
        let errors = a
            .iter()
            .filter(|f| matches!(f, Some(Fault::Error(_))))
            .count();
        let garbage = a.iter().filter(|f| **f == Some(Fault::Garbage)).count();
        assert!((1700..2300).contains(&errors), "{errors}");
        assert!((800..1200).contains(&garbage), "{garbage}");
    }
}
