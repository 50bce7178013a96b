//! Reading a source's answers as the V2 gateway gives them: a list answer's items, the
//! shells the AAS lists name, the registry's descriptors as they stream.

use std::io::Read;
use std::time::SystemTime;

use aas_model::{AssetType, Identified};
use aas_source::{read_text, unreadable_body, NodeLevel, NodePath, Selection, Source};
use serde::Deserializer as _;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::output::Written;
use crate::{Error, Result};

/// A crawled answer that no longer reads as the list it was read as.
pub(crate) fn unreadable(e: impl std::fmt::Display) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: ".".into(),
        message: e.to_string(),
    })
}

pub(crate) fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// Calls `visit` with every answer at `level`, where a [`Stop`] (not only an [`Error`])
/// may end the walk.
pub(crate) fn each_answer(
    source: &dyn Source,
    level: NodeLevel,
    visit: impl FnMut(&NodePath, &str, &mut dyn Read) -> Written,
) -> Written {
    aas_source::each_answer(source, level, visit)
}

/// A shell as an AAS list names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedShell {
    /// V2's `identification.id` or V3's `id`.
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
pub fn listed_shells(answers: &dyn Source, asset_type: Option<&AssetType>) -> Result<Listed> {
    let selection = answers.coverage().selection;
    let mut listed = Listed::default();
    aas_source::each_answer(
        answers,
        NodeLevel::AasList,
        |path, url, body| -> Result<()> {
            let NodePath::AasList {
                asset_type: listed_type,
            } = path
            else {
                return Ok(());
            };
            if asset_type.is_some_and(|t| t != listed_type) {
                return Ok(());
            }
            let items: Vec<Identified> = match serde_json::from_str(&read_text(body, url)?) {
                Ok(items) => items,
                Err(e) => {
                    listed.unreadable.get_or_insert(unreadable(e));
                    return Ok(());
                }
            };
            for item in items {
                let Some(id) = item.id().map(str::to_owned) else {
                    continue;
                };
                if selection.wants_shell(&id) {
                    listed.shells.push(ListedShell {
                        id,
                        id_short: item.id_short.unwrap_or_default(),
                        asset_type: listed_type.clone(),
                    });
                }
            }
            Ok(())
        },
    )?;
    Ok(listed)
}

/// Whether `item` of the list answered at `path` (a shell or a submodel) was selected.
pub(crate) fn selected(selection: &Selection, path: &NodePath, item: &RawValue) -> bool {
    let Ok(ids) = serde_json::from_str::<Identified>(item.get()) else {
        return false;
    };
    wanted(selection, path, ids.id(), ids.id_short.as_deref())
}

/// Whether the item with identifier `id` and `idShort` `id_short`, of the list
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
            Some(_) => unreadable_body(url, e.into()).into(),
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
