//! A file read as every source is ([`aas_source::Source`]), in the shapes the platform's
//! gateway answers in: its shells in one AAS list per group (their asset type, else
//! asset kind, else "no asset type": [`Shell::group`]), each shell's submodels in one
//! list, each submodel's elements in one list. Each item is the file's JSON as read, XML
//! as the JSON the specification of its version writes for it. What reads a whole source (the
//! store's import, the table, the audit) reads a file through this, and a V3 server's
//! repository read whole ([`environment_answers`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::BufRead;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::SystemTime;

use aas_model::AssetType;
use aas_source::{
    Coverage, Failure, Fetched, NodeLevel, NodePath, Selection, Source, Unreadable, Visit,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value as Json;

use crate::contents::{Shell, Submodel, Version};
use crate::from_json::Texts;
use crate::json_items::{self, Met};
use crate::{from_json, payload, v1, xml_to_json, xml_tree, Error, Result};

/// An environment's answers (a file's, or a V3 server's read whole), held in memory.
#[derive(Debug)]
pub struct EnvironmentAnswers {
    /// The file's name, which stands where a platform's plant code stands.
    name: String,
    asset_types: Vec<AssetType>,
    selection: Selection,
    read_at: SystemTime,
    /// Level by level, each in its fixed order ([`NodePath::keys`]).
    answers: Vec<Fetched>,
    /// What of the file its answers cannot hold.
    unreadable: Vec<Unreadable>,
    /// What of a server could not be read (none of a file).
    failures: Vec<Failure>,
    complete: bool,
}

/// One identifiable of a file: what the model reads of it, and its JSON text (compact).
struct Item<T> {
    read: T,
    json: Box<RawValue>,
}

/// One spec part's lists, each item still JSON text: a whole environment is never held
/// as one JSON tree, which takes ten times its text (bench/RESULTS.md, "Bounded memory").
#[derive(Default)]
struct RawDoc {
    /// The part it is (named in errors).
    part: String,
    shells: Option<Vec<Box<RawValue>>>,
    submodels: Option<Vec<Box<RawValue>>>,
    /// V2's assets, which name the shells' asset kinds: small.
    assets: Option<Vec<Json>>,
}

/// An item of `part` as a JSON tree, for as long as it is read.
fn parsed(part: &str, item: &RawValue) -> Result<Json> {
    serde_json::from_str(item.get()).map_err(|e| Error::not_aas(part, e))
}

/// An item of `part` as compact text.
fn compact(part: &str, json: &Json) -> Result<Box<RawValue>> {
    serde_json::value::to_raw_value(json).map_err(|e| Error::not_aas(part, e))
}

/// Reads the AAS file at `path` as a source of answers, part by part as [`crate::read`]
/// reads it (XML as it comes, never held whole).
pub fn answers(path: &Path) -> Result<EnvironmentAnswers> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    answers_from(&name, |each| crate::each_part_named(path, &name, each))
}

/// Reads a file's bytes as a source of answers (`name` names it, as its plant and in
/// errors).
pub fn answers_of(name: &str, bytes: Vec<u8>) -> Result<EnvironmentAnswers> {
    answers_from(name, |each| {
        crate::each_payload(name, &bytes, &crate::Reading::default(), each)
    })
}

/// What a reader of a file's payloads hands each payload to.
type EachPayload<'a> = dyn FnMut(&str, &mut dyn BufRead) -> Result<()> + 'a;

/// The answers of the payloads `payloads` hands on one by one, named `name`.
fn answers_from(
    name: &str,
    payloads: impl FnOnce(&mut EachPayload<'_>) -> Result<()>,
) -> Result<EnvironmentAnswers> {
    let mut docs = Vec::new();
    payloads(&mut |part, payload| {
        docs.push(part_doc(part, payload)?);
        Ok(())
    })?;
    environments(name, docs)
}

/// A file's bytes as one environment in JSON, and its version (V2 when a spec part is;
/// V1 when one is V1.0 XML, which is written as V2 JSON): its spec parts' lists
/// together, XML as the JSON its specification writes for it.
pub fn environment_json(name: &str, bytes: Vec<u8>) -> Result<(Version, Json)> {
    let mut environment = serde_json::Map::new();
    let mut version = Version::V3;
    for (part, bytes) in crate::payloads(name, bytes)? {
        let (written, doc) = part_json(&part, &bytes)?;
        if written == Some(Version::V1) {
            version = Version::V1;
        } else if version != Version::V1 && from_json::is_v2(&doc) {
            version = Version::V2;
        }
        let Json::Object(lists) = doc else { continue };
        for (key, list) in lists {
            if let (Some(Json::Array(into)), Json::Array(items)) =
                (environment.get_mut(&key), &list)
            {
                into.extend(items.iter().cloned());
            } else {
                environment.entry(key).or_insert(list);
            }
        }
    }
    Ok((version, Json::Object(environment)))
}

/// An AAS environment held as JSON text (a V3 server's repository read whole) as a
/// source of answers: `name` names it (its address), `read_at` is when it was read,
/// `failures` are what could not be read of it (its answers are then not complete, as
/// `complete` may also say).
pub fn environment_answers(
    name: &str,
    environment: &[u8],
    read_at: SystemTime,
    failures: Vec<Failure>,
    complete: bool,
) -> Result<EnvironmentAnswers> {
    let doc = json_doc(name, environment)?;
    read_answers(name, doc, read_at, failures, complete)
}

fn read_answers(
    name: &str,
    doc: RawDoc,
    read_at: SystemTime,
    failures: Vec<Failure>,
    complete: bool,
) -> Result<EnvironmentAnswers> {
    let mut answers = environments(name, vec![doc])?;
    answers.read_at = read_at;
    answers.complete = complete && failures.is_empty();
    answers.failures = failures;
    Ok(answers)
}

/// The answers of one or more environments (a package's spec parts), each identifiable
/// as first met; each item read on its own, as text between.
fn environments(name: &str, docs: Vec<RawDoc>) -> Result<EnvironmentAnswers> {
    let (mut shells, mut submodels) = (Vec::new(), Vec::new());
    let (mut shell_ids, mut submodel_ids) = (HashSet::new(), HashSet::new());
    for doc in docs {
        // V2 by its assets, else by each shell itself (as the tree tells V2 by its marks).
        let has_assets = doc.assets.as_ref().is_some_and(|a| !a.is_empty());
        let kinds = from_json::kinds(doc.assets.iter().flatten());
        // An identifiable met before (in an earlier part, or earlier in this one) is
        // kept as first met.
        let part = doc.part;
        for item in doc.shells.into_iter().flatten() {
            let json = parsed(&part, &item)?;
            let version = match has_assets || from_json::is_v2(&json) {
                true => Version::V2,
                false => Version::V3,
            };
            let read = from_json::shell(&json, version, &kinds, &Texts::None);
            if shell_ids.insert(read.id.clone()) {
                let json = compact(&part, &json)?;
                shells.push(Item { read, json });
            }
        }
        for item in doc.submodels.into_iter().flatten() {
            let json = parsed(&part, &item)?;
            let read = from_json::submodel(&json, &Texts::None);
            if submodel_ids.insert(read.id.clone()) {
                let json = compact(&part, &json)?;
                submodels.push(Item { read, json });
            }
        }
    }
    EnvironmentAnswers::of(name.to_owned(), &shells, &submodels)
}

/// The lists of one payload, item by item: JSON as read, XML converted.
fn part_doc(part: &str, mut payload: &mut dyn BufRead) -> Result<RawDoc> {
    if payload::first_byte(part, &mut payload)? == Some(b'<') {
        return xml_doc(part, payload);
    }
    json_doc(part, payload)
}

/// The lists of JSON payload `part`, each item as its text, read as it comes.
fn json_doc(part: &str, payload: impl std::io::Read) -> Result<RawDoc> {
    let mut doc = RawDoc {
        part: part.to_owned(),
        ..RawDoc::default()
    };
    // Read as leniently as the tree reads it: of a list given twice the last, and a list
    // that is not one holds nothing.
    json_items::each_item(part, payload, &mut |met| {
        match met {
            Met::List("assetAdministrationShells") => doc.shells = Some(Vec::new()),
            Met::List("submodels") => doc.submodels = Some(Vec::new()),
            Met::List("assets") => doc.assets = Some(Vec::new()),
            Met::NoList("assetAdministrationShells") => doc.shells = None,
            Met::NoList("submodels") => doc.submodels = None,
            Met::NoList("assets") => doc.assets = None,
            Met::Item("assetAdministrationShells", item) => doc
                .shells
                .get_or_insert_default()
                .push(compact(part, &item)?),
            Met::Item("submodels", item) => doc
                .submodels
                .get_or_insert_default()
                .push(compact(part, &item)?),
            Met::Item("assets", item) => doc.assets.get_or_insert_default().push(item),
            Met::List(_) | Met::Other(_) | Met::NoList(_) | Met::Item(..) => {}
        }
        Ok(())
    })?;
    Ok(doc)
}

/// The lists of XML payload `part`, each item converted as soon as it is parsed: the
/// payload is never one tree (a large one took ten times its size as one).
fn xml_doc(part: &str, payload: impl BufRead) -> Result<RawDoc> {
    let mut doc = RawDoc {
        part: part.to_owned(),
        ..RawDoc::default()
    };
    // The lists answers hold; concept descriptions are passed over unread.
    const LISTS: [&str; 3] = ["assetAdministrationShells", "submodels", "assets"];
    let skipped = ["conceptDescriptions"];
    let root = xml_tree::parse_items(part, payload, &skipped, &mut |root, list, item, _| {
        if !LISTS.contains(&list) {
            return Ok(());
        }
        let (version, item) = v1::read_as(payload::xml_version(part, root)?, item);
        let json = xml_to_json::item(version, &item);
        let into = match list {
            "assets" => {
                doc.assets.get_or_insert_default().push(json);
                return Ok(());
            }
            "submodels" => &mut doc.submodels,
            _ => &mut doc.shells,
        };
        // XML nests as deep as its own limit allows; what the store keeps must be within
        // JSON's.
        let text = compact(part, &json)?;
        aas_model::check_depth(text.get().as_bytes()).map_err(|e| Error::not_aas(part, e))?;
        into.get_or_insert_default().push(text);
        Ok(())
    })?;
    // A root in no AAS namespace (or V1.0's) is refused even where it lists nothing.
    payload::xml_version(part, &root)?;
    Ok(doc)
}

fn is_xml(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

/// The JSON of one payload: JSON as read, XML converted (with the version its namespace
/// names).
fn part_json(part: &str, bytes: &[u8]) -> Result<(Option<Version>, Json)> {
    if is_xml(bytes) {
        // XML nests as deep as its own limit allows; what the store keeps must be within
        // JSON's.
        let (version, json) = payload::xml_as_json(part, bytes)?;
        let text = serde_json::to_vec(&json).expect("JSON values write as JSON");
        aas_model::check_depth(&text).map_err(|e| Error::not_aas(part, e))?;
        return Ok((Some(version), json));
    }
    aas_model::check_depth(bytes).map_err(|e| Error::not_aas(part, e))?;
    let json = serde_json::from_slice(bytes).map_err(|e| Error::not_aas(part, e))?;
    Ok((None, json))
}

/// The most a file's answers may hold together: a submodel that many shells name is in
/// each one's answers, so a small hostile file could otherwise ask for any memory.
const ANSWERS_MAX: usize = 1 << 30;

impl EnvironmentAnswers {
    fn of(name: String, shells: &[Item<Shell>], submodels: &[Item<Submodel>]) -> Result<Self> {
        let by_id: HashMap<&str, &Item<Submodel>> = (submodels.iter())
            .map(|s| (s.read.id.as_str(), s))
            .collect();
        let mut lists = ShellLists::default();
        let mut below = Vec::new();
        let mut unreadable = Vec::new();
        for shell in shells {
            lists.add(shell);
            let its = submodels_of(shell, &by_id);
            below_shell(&name, &shell.read.id, &its, &mut below, &mut unreadable);
            let made: u64 = below.iter().map(|a| a.raw.size()).sum();
            if made > ANSWERS_MAX as u64 {
                return Err(Error::TooLarge {
                    file: name,
                    why: format!(
                        "its shells name its submodels so often that its answers pass {} MiB",
                        ANSWERS_MAX >> 20
                    ),
                });
            }
        }
        let (lists, asset_types) = lists.answers(&name);
        let mut answers: Vec<Fetched> = lists.into_iter().chain(below).collect();
        answers
            .sort_by(|a, b| (a.path.level(), a.path.keys()).cmp(&(b.path.level(), b.path.keys())));
        Ok(EnvironmentAnswers {
            name,
            asset_types,
            selection: Selection::everything(),
            read_at: SystemTime::now(),
            answers,
            unreadable,
            failures: Vec::new(),
            complete: true,
        })
    }
}

/// The shells' AAS lists, one per group, each written as its shells are added (in the
/// order listed): a list answer's text, not yet closed.
#[derive(Debug, Default)]
struct ShellLists {
    groups: BTreeMap<AssetType, String>,
}

impl ShellLists {
    fn add(&mut self, shell: &Item<Shell>) {
        let list = self.groups.entry(shell.read.group()).or_default();
        list.push(if list.is_empty() { '[' } else { ',' });
        list.push_str(shell.json.get());
    }

    /// Each group's AAS list, and the groups.
    fn answers(self, name: &str) -> (Vec<Fetched>, Vec<AssetType>) {
        let asset_types = self.groups.keys().cloned().collect();
        let lists = (self.groups.into_iter())
            .map(|(asset_type, mut text)| {
                text.push(']');
                let url = format!("{name}#shells of {asset_type}");
                Fetched {
                    path: NodePath::AasList { asset_type },
                    url,
                    raw: text.into(),
                }
            })
            .collect();
        (lists, asset_types)
    }
}

/// The shell's submodels that the source holds (`by_id`), each once, in the order the
/// shell names them.
fn submodels_of<'s>(
    shell: &Item<Shell>,
    by_id: &HashMap<&str, &'s Item<Submodel>>,
) -> Vec<&'s Item<Submodel>> {
    // A reference to a submodel the source does not hold names nothing here; one
    // named twice is listed once.
    let mut named = HashSet::new();
    (shell.read.submodels.iter())
        .filter(|id| named.insert(id.as_str()))
        .filter_map(|id| by_id.get(id.as_str()).copied())
        .collect()
}

/// The answers below the shell `aas_id`: its submodels' list, and each submodel's
/// elements, of `its` submodels; and what of them cannot be kept.
fn below_shell(
    name: &str,
    aas_id: &str,
    its: &[&Item<Submodel>],
    below: &mut Vec<Fetched>,
    unreadable: &mut Vec<Unreadable>,
) {
    let url = format!("{name}#shell {aas_id}: submodels");
    let path = NodePath::Submodels {
        aas_id: aas_id.to_owned(),
    };
    below.push(answer(
        path.clone(),
        url.clone(),
        its.iter().map(|s| &*s.json),
    ));
    let mut names = HashSet::new();
    for (i, sm) in its.iter().enumerate() {
        // V3 may leave a submodel's idShort out: its id names it then.
        let submodel = sm.read.id_short.clone().unwrap_or(sm.read.id.clone());
        if !names.insert(submodel.clone()) {
            unreadable.push(Unreadable {
                path: path.clone(),
                url: url.clone(),
                at: format!("$[{i}]"),
                reason: format!(
                    "a second submodel named {submodel}: its elements are not kept \
                     (a shell's submodels go by their idShort)"
                ),
            });
            continue;
        }
        let elements = submodel_elements(&sm.json);
        below.push(answer(
            NodePath::Elements {
                aas_id: aas_id.to_owned(),
                submodel: submodel.clone(),
            },
            format!("{name}#shell {aas_id}: submodel {submodel}: elements"),
            elements.into_iter(),
        ));
    }
}

/// A source's answers made shell by shell, as a V3 server's reading tells each shell as
/// listed and again with its submodels: the AAS lists (which hold every shell) as the
/// shells are listed, the answers below a shell once its submodels are in.
#[derive(Debug)]
pub struct ShellByShell {
    name: String,
    lists: ShellLists,
}

/// The answers below one shell, and what of them cannot be kept.
#[derive(Debug)]
pub struct ShellAnswers {
    pub answers: Vec<Fetched>,
    pub unreadable: Vec<Unreadable>,
}

impl ShellByShell {
    /// Nothing read yet of the source `name` (its address, which stands where a
    /// platform's plant code stands).
    pub fn new(name: &str) -> Self {
        ShellByShell {
            name: name.to_owned(),
            lists: ShellLists::default(),
        }
    }

    /// Adds `shell`, the next listed, to its AAS list.
    pub fn listed(&mut self, shell: &RawValue) -> Result<()> {
        let name = &self.name;
        let json = parsed(name, shell)?;
        let version = match from_json::is_v2(&json) {
            true => Version::V2,
            false => Version::V3,
        };
        let shell = Item {
            read: from_json::shell(&json, version, &[], &Texts::None),
            json: compact(name, &json)?,
        };
        self.lists.add(&shell);
        Ok(())
    }

    /// The AAS lists of the shells listed since they were last taken: taken once the
    /// shells are listed, their text is not held while their submodels are read.
    pub fn take_lists(&mut self) -> Vec<Fetched> {
        std::mem::take(&mut self.lists).answers(&self.name).0
    }

    /// The answers below the shell `aas_id`, of its `submodels`: those the reading
    /// gathered for it, each once, in the order named (a reference names the id of its
    /// last key of type Submodel, as a server's reading follows it; a file's references
    /// are read by their first key, which is the same for a reference as the metamodel
    /// writes it).
    pub fn shell(&self, aas_id: &str, submodels: &[&RawValue]) -> Result<ShellAnswers> {
        let name = &self.name;
        let mut read = Vec::new();
        for submodel in submodels {
            let json = parsed(name, submodel)?;
            read.push(Item {
                read: from_json::submodel(&json, &Texts::None),
                json: compact(name, &json)?,
            });
        }
        let its: Vec<&Item<Submodel>> = read.iter().collect();
        let mut shell_answers = ShellAnswers {
            answers: Vec::new(),
            unreadable: Vec::new(),
        };
        below_shell(
            name,
            aas_id,
            &its,
            &mut shell_answers.answers,
            &mut shell_answers.unreadable,
        );
        Ok(shell_answers)
    }
}

/// A submodel's elements, each as its text.
fn submodel_elements(submodel: &RawValue) -> Vec<&RawValue> {
    #[derive(Deserialize)]
    struct Elements<'a> {
        #[serde(borrow, rename = "submodelElements", default)]
        elements: Option<Vec<&'a RawValue>>,
    }
    // Anything but a list of elements holds none, as the model reads it.
    (serde_json::from_str::<Elements>(submodel.get()).ok())
        .and_then(|e| e.elements)
        .unwrap_or_default()
}

/// An answer listing `items`, labelled `url`.
fn answer<'a>(path: NodePath, url: String, items: impl Iterator<Item = &'a RawValue>) -> Fetched {
    let list: Vec<&RawValue> = items.collect();
    let text = serde_json::to_string(&list).expect("JSON values write as JSON");
    Fetched {
        path,
        url,
        raw: text.into(),
    }
}

impl Source for EnvironmentAnswers {
    fn coverage(&self) -> Coverage<'_> {
        Coverage {
            plant: &self.name,
            asset_types: &self.asset_types,
            selection: &self.selection,
            read_at: self.read_at,
            failures: &self.failures,
            unreadable: &self.unreadable,
            complete: self.complete,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_items_converted_one_by_one_are_the_whole_trees_lists() {
        // Every shared file's XML parts: what the item-by-item reading makes of each
        // list is what the whole tree's JSON (the conversion `environment_json` makes)
        // lists.
        let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/aas-files");
        let mut dirs = vec![shared];
        let mut xml_parts = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("the shared files") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let Ok(payloads) = crate::payloads("f", std::fs::read(&path).expect("read")) else {
                    continue;
                };
                for (part, bytes) in payloads.iter().filter(|(_, b)| is_xml(b)) {
                    let doc = xml_doc(part, &bytes[..]).expect("read item by item");
                    let (_, whole) = part_json(part, bytes).expect("read whole");
                    for (key, items) in [
                        ("assetAdministrationShells", &doc.shells),
                        ("submodels", &doc.submodels),
                    ] {
                        let items: Vec<Json> = (items.iter().flatten())
                            .map(|i| serde_json::from_str(i.get()).expect("JSON"))
                            .collect();
                        let listed = whole[key].as_array().cloned().unwrap_or_default();
                        assert_eq!(items, listed, "{}: {part} {key}", path.display());
                    }
                    let assets = whole["assets"].as_array().cloned().unwrap_or_default();
                    assert_eq!(doc.assets.unwrap_or_default(), assets, "{}", path.display());
                    xml_parts += 1;
                }
            }
        }
        assert!(xml_parts >= 8, "{xml_parts} XML parts");
    }

    #[test]
    fn lists_are_read_as_leniently_as_the_tree_reads_them() {
        // The last of a key given twice; a list that is not one holds nothing.
        let json = r#"{"submodels": {}, "assetAdministrationShells": [],
          "assetAdministrationShells": [{"modelType": "AssetAdministrationShell", "id": "urn:s",
            "assetInformation": {"assetKind": "Instance"}}]}"#;
        let answers = answers_of("x.json", json.as_bytes().to_vec()).expect("read");
        assert_eq!(answers.asset_types.len(), 1, "its one shell");
        // Not an environment at all, as the tree says too.
        let list = answers_of("y.json", b"[1, 2]".to_vec()).expect_err("no object");
        assert!(
            list.to_string().contains("expected an AAS environment"),
            "{list}"
        );
        assert!(
            answers_of("z.json", b"{".to_vec()).is_err(),
            "not JSON at all"
        );
    }

    const FILE: &str = r#"{
      "assetAdministrationShells": [{"modelType": "AssetAdministrationShell", "id": "urn:s",
        "assetInformation": {"assetKind": "Instance"},
        "submodels": [
          {"type": "ModelReference", "keys": [{"type": "Submodel", "value": "urn:a"}]},
          {"type": "ModelReference", "keys": [{"type": "Submodel", "value": "urn:a"}]},
          {"type": "ModelReference", "keys": [{"type": "Submodel", "value": "urn:b"}]},
          {"type": "ModelReference", "keys": [{"type": "Submodel", "value": "urn:gone"}]}]}],
      "submodels": [
        {"modelType": "Submodel", "id": "urn:a", "idShort": "Nameplate", "submodelElements": []},
        {"modelType": "Submodel", "id": "urn:b", "idShort": "Nameplate", "submodelElements": []}]
    }"#;

    fn paths(answers: &EnvironmentAnswers, level: NodeLevel) -> Vec<(NodePath, String)> {
        let mut found = Vec::new();
        let _ = answers.each(level, &mut |path, _, body| {
            let text = std::io::read_to_string(body).expect("text");
            found.push((path.clone(), text));
            ControlFlow::Continue(())
        });
        found
    }

    #[test]
    fn a_submodel_named_twice_is_listed_once_and_a_second_of_one_idshort_is_said() {
        let answers = answers_of("pump.json", FILE.as_bytes().to_vec()).expect("read");
        let submodels = paths(&answers, NodeLevel::Submodels);
        let listed: Vec<Json> = serde_json::from_str(&submodels[0].1).expect("a list");
        // urn:a once, urn:b; the reference to a submodel the file lacks names nothing.
        assert_eq!(listed.len(), 2, "{listed:?}");
        let elements = paths(&answers, NodeLevel::Elements);
        assert_eq!(elements.len(), 1, "one Nameplate's elements: {elements:?}");
        let unreadable = answers.coverage().unreadable;
        assert_eq!(unreadable.len(), 1);
        assert!(unreadable[0]
            .reason
            .contains("a second submodel named Nameplate"));
        assert_eq!(answers.coverage().plant, "pump.json");
        assert_eq!(
            answers.coverage().asset_types,
            [AssetType::named("Instance")]
        );
    }
}
