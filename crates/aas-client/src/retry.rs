use std::time::Duration;

use crate::Error;

/// How idempotent GETs are retried: a bounded number of attempts, exponential backoff
/// with jitter (so many clients do not retry in step), and the server's `Retry-After`
/// when it gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; 1 means no retry.
    pub attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `retry` (1 for the first retry): the server's
    /// `Retry-After` if it sent one (capped), else `base · 2^(retry-1)` capped, with
    /// half of it random.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let exp = self
            .base_delay
            .saturating_mul(1u32 << retry.saturating_sub(1).min(16))
            .min(self.max_delay);
        exp / 2 + exp.mul_f64(rand::random::<f64>() / 2.0)
    }

    /// Runs `attempt` until it succeeds, fails for good, or the attempts run out,
    /// waiting between attempts as [`RetryPolicy::delay`] says; with the retries made.
    pub(crate) async fn run<T, F: std::future::Future<Output = crate::Result<T>>>(
        &self,
        url: &str,
        mut attempt: impl FnMut() -> F,
    ) -> (crate::Result<T>, u32) {
        let mut retry = 0;
        loop {
            match attempt().await {
                Err(e) if Self::is_transient(&e) && retry + 1 < self.attempts => {
                    retry += 1;
                    let retry_after = match &e {
                        Error::Api { retry_after, .. } => *retry_after,
                        _ => None,
                    };
                    let wait = self.delay(retry, retry_after);
                    tracing::debug!(%url, retry, wait_ms = wait.as_millis() as u64, error = %e, "retrying");
                    tokio::time::sleep(wait).await;
                }
                other => return (other, retry),
            }
        }
    }

    /// Whether another attempt may succeed: the server was unreachable, overloaded or
    /// cut the answer short. Auth, not-found and malformed-but-complete data are final.
    pub fn is_transient(error: &Error) -> bool {
        match error {
            Error::Offline { .. } | Error::Incomplete { .. } => true,
            // 500 too: for an idempotent GET a server error is often a passing fault.
            Error::Api { status, .. } => matches!(status, 429 | 500 | 502 | 503 | 504),
            Error::BadData(_)
            | Error::TooLarge { .. }
            | Error::DotSegment { .. }
            | Error::TokenAnswer { .. }
            | Error::Settings(_)
            | Error::Refused { .. }
            | Error::File(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_bounds_and_honours_retry_after() {
        let p = RetryPolicy::default();
        for retry in 1..=10 {
            let cap = (p.base_delay * (1 << (retry - 1))).min(p.max_delay);
            let d = p.delay(retry, None);
            assert!(
                d >= cap / 2 && d <= cap,
                "retry {retry}: {d:?} not in [{:?}, {cap:?}]",
                cap / 2
            );
        }
        assert_eq!(
            p.delay(1, Some(Duration::from_secs(3))),
            Duration::from_secs(3)
        );
        assert_eq!(p.delay(1, Some(Duration::from_secs(3600))), p.max_delay);
    }

    #[test]
    fn only_transient_failures_are_retried() {
        let api = |status| Error::Api {
            status,
            v3: false,
            error: None,
            description: None,
            retry_after: None,
            body: String::new(),
        };
        for status in [429, 500, 502, 503, 504] {
            assert!(RetryPolicy::is_transient(&api(status)), "{status}");
        }
        for status in [400, 401, 403, 404, 501] {
            assert!(!RetryPolicy::is_transient(&api(status)), "{status}");
        }
    }
}
