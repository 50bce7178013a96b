//! Full-text search over one snapshot's elements. The user's words are quoted for FTS5
//! (an unquoted `urn:…` would be a column filter, `SN-M-0001` a syntax error), all must
//! match, and the last one may be the start of a word (search as you type). Exact value
//! matches come first, then FTS5's bm25 rank; ties by shell and path.

use rusqlite::params;
use serde::Serialize;

use crate::store::Store;
use crate::Result;

/// One element found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hit {
    pub aas_id: String,
    pub submodel: Option<String>,
    /// idShorts from the submodel down to the element.
    pub path: Vec<String>,
    pub model_type: String,
    pub value: Option<String>,
}

/// The FTS5 query for what the user typed; `None` when there is no word in it.
pub(crate) fn fts_query(typed: &str) -> Option<String> {
    let words: Vec<String> = typed
        .split_whitespace()
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    let last = words.len().checked_sub(1)?;
    Some(
        words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i == last {
                    format!("{w}*")
                } else {
                    w.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
    )
}

impl Store {
    /// The first `limit` elements of snapshot `id` that match `query`.
    pub fn search(&self, id: i64, query: &str, limit: usize) -> Result<Vec<Hit>> {
        self.snapshot(id)?;
        let Some(fts) = fts_query(query) else {
            return Ok(Vec::new());
        };
        let mut statement = self
            .conn
            .prepare(
                "SELECT a.aas_id, a.submodel, e.path, e.model_type, e.value
                 FROM element_text
                 JOIN elements e ON e.id = element_text.rowid
                 JOIN answers a ON a.hash = e.hash AND a.snapshot = ?1
                 WHERE element_text MATCH ?2
                 ORDER BY lower(coalesce(e.value, '')) = lower(?3) DESC,
                          bm25(element_text), a.aas_id, e.path
                 LIMIT ?4",
            )
            .map_err(self.sql())?;
        let rows = statement
            .query_map(params![id, fts, query.trim(), limit as i64], |row| {
                let path: String = row.get(2)?;
                Ok(Hit {
                    aas_id: row.get(0)?,
                    submodel: row.get(1)?,
                    path: serde_json::from_str(&path).unwrap_or_default(),
                    model_type: row.get(3)?,
                    value: row.get(4)?,
                })
            })
            .map_err(self.sql())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.sql())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_and_the_last_is_a_prefix() {
        assert_eq!(fts_query("SN-M-0001").as_deref(), Some("\"SN-M-0001\"*"));
        assert_eq!(
            fts_query(" urn:x:1  pump\"s ").as_deref(),
            Some("\"urn:x:1\" \"pump\"\"s\"*")
        );
        assert_eq!(fts_query("   "), None);
    }
}
