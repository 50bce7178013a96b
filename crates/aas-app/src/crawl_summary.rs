//! What a crawl did, in the words both front ends show: the page's summary line and
//! `aasmd`'s lines on stderr and exit code come from the same [`CrawlSummary`].

use aas_client::Crawl;
use serde::Serialize;

/// What a crawl did, for the front ends.
#[derive(Debug, Serialize)]
pub struct CrawlSummary {
    pub requests: usize,
    /// Each failed node (`URL: reason`), and the node limit when the plant passed it.
    pub failures: Vec<String>,
    /// How many parts of answers could not be read (kept as sent), and the first
    /// [`UNREADABLE_NAMED`] of them named: `URL at $[3].value: reason`.
    pub unreadable_count: usize,
    pub unreadable: Vec<String>,
    pub cancelled: bool,
    #[serde(skip)]
    pub node_limit_reached: bool,
}

/// Unreadable parts a summary names; the count says how many more there are.
pub const UNREADABLE_NAMED: usize = 20;

impl CrawlSummary {
    pub fn of(crawl: &Crawl) -> Self {
        let mut failures: Vec<String> = crawl
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.url, f.message))
            .collect();
        if crawl.node_limit_reached {
            failures.push(format!(
                "the plant has more than {} nodes (--max-nodes); those past them were not fetched",
                crawl.plan.max_nodes
            ));
        }
        CrawlSummary {
            requests: crawl.answers + crawl.failures.len(),
            failures,
            unreadable_count: crawl.unreadable.len(),
            unreadable: crawl
                .unreadable
                .iter()
                .take(UNREADABLE_NAMED)
                .map(ToString::to_string)
                .collect(),
            cancelled: crawl.cancelled,
            node_limit_reached: crawl.node_limit_reached,
        }
    }

    /// A crawl that never started: the user cancelled before it did.
    pub fn not_started() -> Self {
        CrawlSummary {
            requests: 0,
            failures: Vec::new(),
            unreadable_count: 0,
            unreadable: Vec::new(),
            cancelled: true,
            node_limit_reached: false,
        }
    }

    /// Some nodes failed or were never reached.
    pub fn is_partial(&self) -> bool {
        !self.failures.is_empty()
    }

    /// How many nodes failed (the node limit, also in `failures`, is not one).
    pub fn failed_nodes(&self) -> usize {
        self.failures.len() - usize::from(self.node_limit_reached)
    }
}
