//! Full-text search over one snapshot's elements. The index has a document per
//! elements answer; the answers found are read again and their elements matched one by
//! one ([`Words`]). The user's words are quoted for FTS5 (an unquoted `urn:…` would be a
//! column filter, `SN-M-0001` a syntax error), all must match, and the last one may be
//! the start of a word (search as you type). Exact value matches come first, then by
//! shell, submodel and path. A word found in very many answers (the start of every
//! serial number) is looked for in the first [`ANSWERS_READ`] of them, in the order
//! they were first stored: ranking them all cost hundreds of milliseconds.

use rusqlite::params;
use serde::Serialize;

use crate::index::element_rows;
use crate::store::Store;
use crate::words::Words;
use crate::Result;

/// Answers read at most for one search.
pub(crate) const ANSWERS_READ: usize = 400;

/// One element found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hit {
    pub aas_id: String,
    pub submodel: Option<String>,
    /// idShorts from the submodel down to the element.
    pub path: Vec<String>,
    pub model_type: String,
    /// The value, or its first 64 KiB when longer (then `value_length` is set).
    pub value: Option<String>,
    /// The whole value's length in bytes as sent, when `value` holds only its start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_length: Option<u64>,
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
        let words = Words::new(query);
        let exact = query.trim().to_lowercase();
        let mut found = self
            .conn
            .prepare(
                "SELECT t.rowid FROM answer_text t WHERE answer_text MATCH ?2
                 AND EXISTS (SELECT 1 FROM answers a WHERE a.content = t.rowid AND a.snapshot = ?1)
                 LIMIT ?3",
            )
            .map_err(self.sql())?;
        let answers: Vec<i64> = found
            .query_map(params![id, fts, ANSWERS_READ as i64], |row| row.get(0))
            .map_err(self.sql())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.sql())?;
        let mut owners = self
            .conn
            .prepare_cached(
                "SELECT k.aas_id, k.submodel FROM answers a JOIN nodes k ON k.id = a.node
                 WHERE a.content = ?1 AND a.snapshot = ?2",
            )
            .map_err(self.sql())?;
        // (not an exact value, hit)
        let mut hits: Vec<(bool, Hit)> = Vec::new();
        for content in answers {
            let raw = self.content(content)?.unwrap_or_default();
            let matching: Vec<_> = element_rows(&raw)
                .into_iter()
                .filter(|row| words.match_in(&row.fields()))
                .collect();
            if matching.is_empty() {
                continue;
            }
            let shells: Vec<(String, String)> = owners
                .query_map(params![content, id], |row| Ok((row.get(0)?, row.get(1)?)))
                .map_err(self.sql())?
                .collect::<rusqlite::Result<_>>()
                .map_err(self.sql())?;
            for (aas_id, submodel) in &shells {
                for row in &matching {
                    let is_exact = row
                        .value
                        .as_deref()
                        .is_some_and(|v| v.to_lowercase() == exact);
                    hits.push((
                        !is_exact,
                        Hit {
                            aas_id: aas_id.clone(),
                            submodel: Some(submodel.clone()).filter(|s| !s.is_empty()),
                            path: row.path.clone(),
                            model_type: row.model_type.clone(),
                            value: row.value.clone(),
                            value_length: row.cut.as_ref().map(|cut| cut.length),
                        },
                    ));
                }
            }
            // Nothing found later can come before `limit` exact values.
            if hits.iter().filter(|(inexact, _)| !inexact).count() >= limit {
                break;
            }
        }
        hits.sort_by(|(a_inexact, a), (b_inexact, b)| {
            (a_inexact, &a.aas_id, &a.submodel, &a.path).cmp(&(
                b_inexact,
                &b.aas_id,
                &b.submodel,
                &b.path,
            ))
        });
        Ok(hits.into_iter().take(limit).map(|(_, hit)| hit).collect())
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
