//! A file read as every source is ([`aas_source::Source`]), in the shapes the platform's
//! gateway answers in: its shells in one AAS list per group (their asset type, else
//! asset kind, else "no asset type": [`Shell::group`]), each shell's submodels in one
//! list, each submodel's elements in one list. Each item is the file's JSON as read, XML
//! as the JSON the specification of its version writes for it. What reads a whole source (the
//! store's import, the table, the audit) reads a file through this.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::SystemTime;

use aas_model::AssetType;
use aas_source::{Coverage, Fetched, NodeLevel, NodePath, Selection, Source, Visit};
use serde_json::Value as Json;

use crate::contents::{Shell, Submodel, Version};
use crate::kept_text::KeptText;
use crate::{from_json, payload, Error, Result};

/// A file's answers, held in memory.
#[derive(Debug)]
pub struct FileAnswers {
    /// The file's name, which stands where a platform's plant code stands.
    name: String,
    asset_types: Vec<AssetType>,
    selection: Selection,
    read_at: SystemTime,
    /// Level by level, each in its fixed order ([`NodePath::keys`]).
    answers: Vec<Fetched>,
}

/// One identifiable of a file: what the model reads of it, and its JSON.
struct Item<T> {
    read: T,
    json: Json,
}

/// Reads the AAS file at `path` as a source of answers.
pub fn answers(path: &Path) -> Result<FileAnswers> {
    let bytes = aas_model::aasx::read_file(path).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    answers_of(&name, bytes)
}

/// Reads a file's bytes as a source of answers (`name` names it, as its plant and in
/// errors).
pub fn answers_of(name: &str, bytes: Vec<u8>) -> Result<FileAnswers> {
    let (mut shells, mut submodels) = (Vec::new(), Vec::new());
    let (mut shell_ids, mut submodel_ids) = (HashSet::new(), HashSet::new());
    for (part, bytes) in crate::payloads(name, bytes)? {
        let mut doc = part_json(&part, &bytes)?;
        let version = match from_json::is_v2(&doc) {
            true => Version::V2,
            false => Version::V3,
        };
        // The model reads each list item by item, so its reading and the items pair up.
        let read = from_json::contents(&doc, version, &KeptText::none());
        let mut take = |key: &str| match doc.get_mut(key).map(Json::take) {
            Some(Json::Array(items)) => items,
            _ => Vec::new(),
        };
        // An identifiable met before (in an earlier part, or earlier in this one) is
        // kept as first met.
        for (read, json) in read
            .shells
            .into_iter()
            .zip(take("assetAdministrationShells"))
        {
            if shell_ids.insert(read.id.clone()) {
                shells.push(Item { read, json });
            }
        }
        for (read, json) in read.submodels.into_iter().zip(take("submodels")) {
            if submodel_ids.insert(read.id.clone()) {
                submodels.push(Item { read, json });
            }
        }
    }
    Ok(FileAnswers::of(name.to_owned(), &shells, &submodels))
}

/// The JSON of one payload: JSON as read, XML converted.
fn part_json(part: &str, bytes: &[u8]) -> Result<Json> {
    let start = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if start == Some(&b'<') {
        return payload::xml_as_json(part, bytes).map(|(_, json)| json);
    }
    aas_model::check_depth(bytes).map_err(|e| payload::not_aas(part, e))?;
    serde_json::from_slice(bytes).map_err(|e| payload::not_aas(part, e))
}

impl FileAnswers {
    fn of(name: String, shells: &[Item<Shell>], submodels: &[Item<Submodel>]) -> Self {
        let by_id: HashMap<&str, &Item<Submodel>> = (submodels.iter())
            .map(|s| (s.read.id.as_str(), s))
            .collect();
        let mut groups: BTreeMap<AssetType, Vec<&Json>> = BTreeMap::new();
        let mut below = Vec::new();
        for shell in shells {
            groups
                .entry(shell.read.group())
                .or_default()
                .push(&shell.json);
            // A reference to a submodel the file does not hold names nothing here.
            let its: Vec<&Item<Submodel>> = (shell.read.submodels.iter())
                .filter_map(|id| by_id.get(id.as_str()).copied())
                .collect();
            let aas_id = &shell.read.id;
            below.push(answer(
                NodePath::Submodels {
                    aas_id: aas_id.clone(),
                },
                format!("{name}#shell {aas_id}: submodels"),
                its.iter().map(|s| &s.json),
            ));
            for sm in its {
                // V3 may leave a submodel's idShort out: its id names it then.
                let submodel = sm.read.id_short.clone().unwrap_or(sm.read.id.clone());
                let elements = sm.json.get("submodelElements").and_then(Json::as_array);
                below.push(answer(
                    NodePath::Elements {
                        aas_id: aas_id.clone(),
                        submodel: submodel.clone(),
                    },
                    format!("{name}#shell {aas_id}: submodel {submodel}: elements"),
                    elements.into_iter().flatten(),
                ));
            }
        }
        let lists = groups.iter().map(|(asset_type, shells)| {
            let path = NodePath::AasList {
                asset_type: asset_type.clone(),
            };
            let url = format!("{name}#shells of {asset_type}");
            answer(path, url, shells.iter().copied())
        });
        let mut answers: Vec<Fetched> = lists.chain(below).collect();
        answers
            .sort_by(|a, b| (a.path.level(), a.path.keys()).cmp(&(b.path.level(), b.path.keys())));
        // A shell listed twice (one id, in two groups) has its answers once.
        answers.dedup_by(|a, b| a.path == b.path);
        FileAnswers {
            name,
            asset_types: groups.into_keys().collect(),
            selection: Selection::everything(),
            read_at: SystemTime::now(),
            answers,
        }
    }
}

/// An answer listing `items`, labelled `url`.
fn answer<'a>(path: NodePath, url: String, items: impl Iterator<Item = &'a Json>) -> Fetched {
    let list: Vec<&Json> = items.collect();
    Fetched {
        path,
        url,
        raw: serde_json::to_string(&list).unwrap_or_default().into(),
    }
}

impl Source for FileAnswers {
    fn coverage(&self) -> Coverage<'_> {
        Coverage {
            plant: &self.name,
            asset_types: &self.asset_types,
            selection: &self.selection,
            read_at: self.read_at,
            failures: &[],
            unreadable: &[],
            complete: true,
        }
    }

    fn count(&self) -> usize {
        self.answers.len()
    }

    fn each(&self, level: NodeLevel, visit: &mut Visit<'_>) -> aas_source::Result<ControlFlow<()>> {
        for answer in self.answers.iter().filter(|a| a.path.level() == level) {
            let mut body =
                (answer.raw.reader()).map_err(|e| aas_source::unreadable_body(&answer.url, e))?;
            if visit(&answer.path, &answer.url, &mut body).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}
