//! Sources of answers ([`Answers`]: a crawl held in memory, a snapshot in the store)
//! and reading them: each answer at a level in a fixed order, a list answer's items,
//! the registry's descriptors as they stream.

use std::collections::HashSet;
use std::io::Read;
use std::time::SystemTime;

use aas_client::{Crawl, Fetched, NodeLevel, NodePath, Selection};
use aas_model::{AssetType, FileError};
use serde::Deserializer as _;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::output::{Stop, Written};
use crate::{Error, Result};

/// Where an export reads its answers: a crawl held in memory, or a snapshot in the
/// store. Each level comes in a fixed order, by [`NodePath::keys`] compared byte by
/// byte, so every source of the same answers exports the same file.
pub trait Answers {
    /// What was crawled and what failed; its `fetched` is not read.
    fn crawl(&self) -> &Crawl;
    /// The answers held, all levels together.
    fn count(&self) -> usize;
    /// Hands `visit` each answer at `level` in the fixed order, its body as a reader:
    /// a large answer need not be in memory whole.
    fn each(&self, level: NodeLevel, visit: &mut Visit<'_>) -> Result<()>;
    /// As [`Answers::each`], but only the answers of the shells `shells` names (by id;
    /// the submodels and elements levels): a store reads no other.
    fn each_of_shells(
        &self,
        level: NodeLevel,
        shells: &HashSet<&str>,
        visit: &mut Visit<'_>,
    ) -> Result<()> {
        self.each(level, &mut |path, url, body| match path
            .keys()
            .get(1)
            .is_some_and(|id| shells.contains(id))
        {
            true => visit(path, url, body),
            false => Ok(()),
        })
    }
}

/// What [`Answers::each`] calls with each answer: its place, its URL and its body.
pub type Visit<'v> = dyn FnMut(&NodePath, &str, &mut dyn Read) -> Result<()> + 'v;

impl Answers for Crawl {
    fn crawl(&self) -> &Crawl {
        self
    }

    fn count(&self) -> usize {
        self.fetched.len()
    }

    fn each(&self, level: NodeLevel, visit: &mut Visit<'_>) -> Result<()> {
        let mut at: Vec<&Fetched> = self
            .fetched
            .iter()
            .filter(|f| f.path.level() == level)
            .collect();
        at.sort_by(|a, b| a.path.keys().cmp(&b.path.keys()));
        for f in at {
            let mut body = f.raw.reader().map_err(|e| unreadable_body(&f.url, e))?;
            visit(&f.path, &f.url, &mut body)?;
        }
        Ok(())
    }
}

/// A crawled answer that no longer reads as the list it was read as.
pub(crate) fn unreadable(e: serde_json::Error) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: ".".into(),
        message: e.to_string(),
    })
}

pub(crate) fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// Reading a stored answer failed: the store's fault, not the export file's.
pub(crate) fn unreadable_body(url: &str, source: std::io::Error) -> Error {
    Error::File(FileError {
        action: "read the stored answer of",
        path: url.into(),
        source,
    })
}

/// An answer's body as text; a body that cannot be read is the store's fault, named by
/// its URL.
pub fn text(body: &mut dyn Read, url: &str) -> Result<String> {
    let mut raw = String::new();
    text_into(body, url, &mut raw)?;
    Ok(raw)
}

/// An answer's body as text, in `raw` (emptied first): a reader that reads many reuses
/// one string's memory instead of having new pages zeroed for each body.
pub fn text_into(body: &mut dyn Read, url: &str, raw: &mut String) -> Result<()> {
    raw.clear();
    body.read_to_string(raw)
        .map_err(|e| unreadable_body(url, e))?;
    Ok(())
}

/// Calls `visit` with every answer at `level`, where a [`Stop`] (not only an [`Error`])
/// may end the walk.
pub(crate) fn each_answer(
    answers: &dyn Answers,
    level: NodeLevel,
    mut visit: impl FnMut(&NodePath, &str, &mut dyn Read) -> Written,
) -> Written {
    let mut stopped = None;
    answers
        .each(level, &mut |path, url, body| {
            visit(path, url, body).map_err(|stop| {
                stopped = Some(stop);
                // Only ends the walk: the reason waits in `stopped`.
                Error::Stopped
            })
        })
        .map_err(|e| stopped.take().unwrap_or(Stop::Other(e)))
}

/// A shell as an AAS list names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedShell {
    /// `identification.id`.
    pub id: String,
    /// `""` when it has none.
    pub id_short: String,
    /// The list it came in.
    pub asset_type: AssetType,
}

/// The shells of [`listed_shells`], and why a list could not be read.
#[derive(Debug, Default)]
pub struct Listed {
    pub shells: Vec<ListedShell>,
    /// The first AAS list that no longer reads as a list (its shells are not in
    /// `shells`): the caller says whether that ends its work.
    pub unreadable: Option<Error>,
}

/// The shells the AAS lists of `asset_type` (every type: `None`) name and the crawl's
/// selection wants, in the lists' order; an item without an id is passed over.
pub fn listed_shells(answers: &dyn Answers, asset_type: Option<AssetType>) -> Result<Listed> {
    #[derive(serde::Deserialize)]
    struct Item {
        #[serde(rename = "idShort", default)]
        id_short: Option<String>,
        identification: Option<Identification>,
    }
    #[derive(serde::Deserialize)]
    struct Identification {
        id: Option<String>,
    }
    let selection = &answers.crawl().selection;
    let mut listed = Listed::default();
    answers.each(NodeLevel::AasList, &mut |path, url, body| {
        let NodePath::AasList {
            asset_type: listed_type,
        } = path
        else {
            return Ok(());
        };
        if asset_type.is_some_and(|t| t != *listed_type) {
            return Ok(());
        }
        let items: Vec<Item> = match serde_json::from_str(&text(body, url)?) {
            Ok(items) => items,
            Err(e) => {
                listed.unreadable.get_or_insert(unreadable(e));
                return Ok(());
            }
        };
        for item in items {
            let Some(id) = item.identification.and_then(|i| i.id) else {
                continue;
            };
            if selection.wants_shell(&id) {
                listed.shells.push(ListedShell {
                    id,
                    id_short: item.id_short.unwrap_or_default(),
                    asset_type: *listed_type,
                });
            }
        }
        Ok(())
    })?;
    Ok(listed)
}

/// Whether `item` of the list answered at `path` (a shell or a submodel) was selected.
pub(crate) fn selected(selection: &Selection, path: &NodePath, item: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Ids {
        #[serde(rename = "idShort")]
        id_short: Option<String>,
        identification: Option<Identification>,
    }
    #[derive(serde::Deserialize)]
    struct Identification {
        id: Option<String>,
    }
    let Ok(ids) = serde_json::from_str::<Ids>(item.get()) else {
        return false;
    };
    let id = ids.identification.and_then(|i| i.id);
    wanted(selection, path, id.as_deref(), ids.id_short.as_deref())
}

/// Whether the item with `identification.id` `id` and `idShort` `id_short`, of the list
/// answered at `path`, was selected.
pub(crate) fn wanted(
    selection: &Selection,
    path: &NodePath,
    id: Option<&str>,
    id_short: Option<&str>,
) -> bool {
    match path {
        NodePath::AasList { .. } => id.is_some_and(|id| selection.wants_shell(id)),
        NodePath::Submodels { aas_id } => {
            id_short.is_some_and(|s| selection.wants_submodel(aas_id, s))
        }
        NodePath::Registry | NodePath::Elements { .. } => true,
    }
}

/// Hands `visit` the shell id and Asset of each registry descriptor that has an Asset,
/// until it says stop (then the rest is not read). The registry is read as it streams: at 100,000 assets it is
/// hundreds of megabytes.
pub(crate) fn each_descriptor(
    registry: &mut dyn Read,
    url: &str,
    mut visit: impl FnMut(&str, Box<RawValue>) -> bool,
) -> Written {
    #[derive(serde::Deserialize)]
    struct Descriptor {
        identification: Value,
        asset: Option<Box<RawValue>>,
    }
    let reader = std::io::BufReader::with_capacity(1 << 16, registry);
    let mut de = serde_json::Deserializer::from_reader(reader);
    let mut stopped = false;
    let read = de.deserialize_seq(EachItem(
        |d: Descriptor| {
            let go = match d.asset {
                Some(asset) => visit(d.identification["id"].as_str().unwrap_or_default(), asset),
                None => true,
            };
            stopped = !go;
            go
        },
        std::marker::PhantomData,
    ));
    if stopped {
        // The visitor's reason is its own; the rest of the registry is not read.
        return Ok(());
    }
    read.and_then(|()| de.end())
        .map_err(|e| match e.io_error_kind() {
            Some(_) => unreadable_body(url, e.into()),
            None => unreadable(e),
        })?;
    Ok(())
}

/// Reads a JSON array item by item, handing each to the closure, which says whether to
/// go on.
struct EachItem<T, F>(F, std::marker::PhantomData<fn(T)>);

impl<'de, T: serde::Deserialize<'de>, F: FnMut(T) -> bool> serde::de::Visitor<'de>
    for EachItem<T, F>
{
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        mut self,
        mut items: A,
    ) -> std::result::Result<(), A::Error> {
        while let Some(item) = items.next_element()? {
            if !(self.0)(item) {
                return Ok(());
            }
        }
        Ok(())
    }
}
