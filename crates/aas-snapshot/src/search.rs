//! Full-text search over one snapshot's elements. The index has a document per
//! elements answer, in which the store's database finds every word the user typed (the
//! last one may be the start of a word: search as you type); the answers found are read
//! again and their elements matched one by one ([`Words`]). Exact value matches come first, then by
//! shell, submodel and path. A word found in very many answers (the start of every
//! serial number) is looked for in the first [`ANSWERS_READ`] of them, in the order
//! they were first stored: ranking them all cost hundreds of milliseconds.

use std::collections::HashMap;

use serde::Serialize;

use crate::index::element_rows;
use crate::store::Store;
use crate::words::{Typed, Words};
use crate::Result;

/// Answers read at most for one search.
pub(crate) const ANSWERS_READ: usize = 400;
/// Answers read together, with their shells: a team store answers each read in one
/// round trip, where an answer at a time made a search wait on the network 800 times.
const READ_TOGETHER: usize = 100;

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

impl Store {
    /// The first `limit` elements of snapshot `id` that match `query`. A query past
    /// [`crate::MAX_SEARCH_WORDS`] words or with a word past
    /// [`crate::MAX_SEARCH_WORD_CHARS`] characters is refused ([`crate::Error::Query`]),
    /// by either store alike.
    pub fn search(&self, id: i64, query: &str, limit: usize) -> Result<Vec<Hit>> {
        let typed = Typed::checked(query)?;
        self.snapshot(id)?;
        let words = Words::new(query);
        let exact = query.trim().to_lowercase();
        let answers = self.db.search(id, typed, ANSWERS_READ)?;
        // (not an exact value, hit)
        let mut hits: Vec<(bool, Hit)> = Vec::new();
        'read: for together in answers.chunks(READ_TOGETHER) {
            let bodies = self.contents(together)?;
            let mut owners: HashMap<i64, Vec<(String, String)>> = HashMap::new();
            for (content, aas_id, submodel) in self.db.owners(together, id)? {
                owners.entry(content).or_default().push((aas_id, submodel));
            }
            for content in together {
                let raw = bodies.get(content).map_or("", String::as_str);
                let matching: Vec<_> = element_rows(raw)
                    .into_iter()
                    .filter(|row| words.match_in(&row.fields()))
                    .collect();
                for (aas_id, submodel) in owners.get(content).into_iter().flatten() {
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
                    break 'read;
                }
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
