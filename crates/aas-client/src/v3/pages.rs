//! Paged answers (`{"result": […], "paging_metadata": {"cursor": "…"}}`) followed to
//! their end, however the server's cursors go. Real servers break the rule that the last
//! page has no cursor: BaSyx Python 1.2 returns a cursor past the end forever, BaSyx
//! Java returned one on its last page. So a walk stops on an empty page, a missing
//! cursor, or a cursor it has seen before, and never takes more than its items' bound.

use std::collections::HashSet;
use std::ops::ControlFlow;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value as Json;

use super::V3Server;
use crate::{Error, Result};

/// Items asked for per page: few requests, pages of a few megabytes at most.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How a paged walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PageEnd {
    /// A page without a cursor: the end as the specification says it.
    NoCursor,
    /// A page with no items (BaSyx Python's end).
    EmptyPage,
    /// A cursor the walk had already followed: the server would loop.
    CursorRepeated,
    /// The walk's bound on items was reached: the rest was not read.
    Bounded,
    /// What took the pages wanted no more.
    Enough,
}

/// A page of the Part 2 API (a bare list is read too: a server without paging sends
/// everything at once). Not an untagged enum: its items may be kept as text, which
/// serde cannot buffer.
#[derive(Deserialize)]
struct Page<T> {
    result: Vec<T>,
    #[serde(default)]
    paging_metadata: Option<PagingMetadata>,
}

#[derive(Deserialize)]
struct PagingMetadata {
    /// A string as the specification says; a number from some servers.
    #[serde(default)]
    cursor: Option<Json>,
}

/// The items of a page's text and the cursor it gives, if any.
fn page_of<T: DeserializeOwned>(url: &str, text: &str) -> Result<(Vec<T>, Option<Json>)> {
    if text.trim_start().starts_with('[') {
        let items = serde_json::from_str(text).map_err(|e| not_a_page(url, e))?;
        return Ok((items, None));
    }
    let page: Page<T> = serde_json::from_str(text).map_err(|e| not_a_page(url, e))?;
    Ok((page.result, page.paging_metadata.and_then(|m| m.cursor)))
}

impl V3Server {
    /// Follows the paged list at `route` to its end, `page_size` items asked per page,
    /// handing each page's items to `take` until it breaks; at most `max_items` are
    /// taken. Says how the walk ended. An error on a later page comes with what the
    /// pages before it gave (taken already).
    pub(crate) async fn each_page<T: DeserializeOwned>(
        &self,
        route: &str,
        page_size: usize,
        max_items: usize,
        mut take: impl FnMut(Vec<T>) -> ControlFlow<()>,
    ) -> Result<PageEnd> {
        let limit = page_size.to_string();
        let mut followed = HashSet::new();
        let mut cursor: Option<String> = None;
        let mut taken = 0;
        loop {
            let mut query = vec![("limit", limit.as_str())];
            if let Some(cursor) = &cursor {
                query.push(("cursor", cursor.as_str()));
            }
            let url = self.url(route, &query)?;
            let text = self.get(&url).await?;
            let (mut items, next) = page_of::<T>(&url, &text)?;
            if items.is_empty() {
                return Ok(PageEnd::EmptyPage);
            }
            // A page larger than asked is read, but never past the bound.
            let room = max_items - taken;
            let bounded = items.len() > room;
            items.truncate(room);
            taken += items.len();
            if take(items).is_break() {
                return Ok(PageEnd::Enough);
            }
            if bounded || taken == max_items {
                return Ok(PageEnd::Bounded);
            }
            let next = match next {
                Some(Json::String(s)) if !s.is_empty() => s,
                Some(Json::Number(n)) => n.to_string(),
                _ => return Ok(PageEnd::NoCursor),
            };
            if !followed.insert(next.clone()) {
                return Ok(PageEnd::CursorRepeated);
            }
            cursor = Some(next);
        }
    }
}

/// A 200 answer that is not a page of a list.
fn not_a_page(url: &str, e: serde_json::Error) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: url.to_owned(),
        message: format!("not a page of a list ({{\"result\": [...]}}): {e}"),
    })
}
