//! A snapshot read back as the crawl that made it: its answers in the order they
//! arrived and its failed nodes, so that every export format writes a snapshot exactly
//! as it writes a fresh crawl of the same plant.

use std::path::Path;
use std::time::SystemTime;

use aas_client::{Crawl, CrawlPlan, ErrorKind, Failure, Fetched, Format, NodePath, Selection};

use crate::store::Store;
use crate::Result;

impl Store {
    /// Writes snapshot `id` to `out` in `format`, with the same content as an export of
    /// a fresh crawl of the plant (the raw bundle's manifest names the snapshot's
    /// source); returns the bytes written.
    pub fn export(&self, id: i64, format: Format, out: &Path) -> Result<u64> {
        let info = self.snapshot(id)?;
        let crawl = self.crawl_of(id)?;
        Ok(aas_client::export(&crawl, format, &info.source, out)?)
    }

    /// Snapshot `id` as a [`Crawl`] of everything it holds. Its answers are read into
    /// memory, as an export of a fresh crawl holds them.
    pub fn crawl_of(&self, id: i64) -> Result<Crawl> {
        let info = self.snapshot(id)?;
        let mut statement = self
            .conn
            .prepare(
                "SELECT a.path, a.url, b.bytes FROM answers a JOIN bodies b ON b.hash = a.hash
                 WHERE a.snapshot = ?1 ORDER BY a.seq",
            )
            .map_err(self.sql())?;
        let rows = statement
            .query_map([id], |row| {
                let bytes: Vec<u8> = row.get(2)?;
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, bytes))
            })
            .map_err(self.sql())?;
        let mut fetched = Vec::new();
        for row in rows {
            let (path, url, bytes) = row.map_err(self.sql())?;
            if let Ok(path) = serde_json::from_str::<NodePath>(&path) {
                let raw = String::from_utf8_lossy(&bytes).into_owned();
                fetched.push(Fetched { path, url, raw });
            }
        }
        let failures = self.failures_of(id)?;
        // The asset types crawled are those whose lists were asked.
        let mut asset_types = Vec::new();
        let lists = fetched
            .iter()
            .map(|f| &f.path)
            .chain(failures.iter().map(|f| &f.path));
        for path in lists {
            if let NodePath::AasList { asset_type } = path {
                if !asset_types.contains(asset_type) {
                    asset_types.push(*asset_type);
                }
            }
        }
        let taken_at = humantime::parse_rfc3339(&info.taken_at).unwrap_or(SystemTime::UNIX_EPOCH);
        Ok(Crawl {
            plan: CrawlPlan::new(info.plant, asset_types),
            selection: Selection::everything(),
            started: taken_at,
            finished: taken_at,
            fetched,
            failures,
            cancelled: false,
            node_limit_reached: false,
            retries: 0,
            probes: 0,
        })
    }

    /// The failed nodes of snapshot `id`, with their reasons.
    pub(crate) fn failures_of(&self, id: i64) -> Result<Vec<Failure>> {
        let mut statement = self
            .conn
            .prepare("SELECT path, url, kind, message FROM failures WHERE snapshot = ?1")
            .map_err(self.sql())?;
        let rows = statement
            .query_map([id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            })
            .map_err(self.sql())?;
        let mut failures = Vec::new();
        for row in rows {
            let (path, url, kind, message) = row.map_err(self.sql())?;
            let Ok(path) = serde_json::from_str(&path) else {
                continue;
            };
            let kind = serde_json::from_value(serde_json::Value::String(kind))
                .unwrap_or(ErrorKind::Server);
            failures.push(Failure {
                path,
                url,
                kind,
                message,
            });
        }
        Ok(failures)
    }
}
