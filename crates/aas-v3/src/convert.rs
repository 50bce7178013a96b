//! The converter: its settings, where its changes go, and the parts every V2 object
//! shares (referable, identifiable, language strings, typed values, qualifiers).

use std::borrow::Cow;
use std::collections::HashSet;

use crate::change::{Change, Changes, Rule, Tally};
use crate::fields::{holds_nothing, model_type_name, At, Fields};
use crate::limits::{NAME_MAX, TEXT_MAX};
use serde_json::value::RawValue;

use crate::node::{member, Members, Node};
use crate::{xsd, Error, Result, Target};

/// Converts V2 objects one at a time, so a plant is never in memory whole; every change
/// goes to `changes` as it is found.
#[allow(missing_debug_implementations)] // it holds where its changes go, a trait object
pub struct Converter<'s> {
    strict: bool,
    held_concepts: HashSet<String>,
    changes: &'s mut dyn Changes,
    tally: Tally,
    /// Writing an AASX package: the parts it holds besides the environment.
    package_parts: Option<HashSet<String>>,
    target: Target,
}

impl<'s> Converter<'s> {
    pub fn new(changes: &'s mut dyn Changes) -> Self {
        Converter {
            strict: false,
            held_concepts: HashSet::new(),
            changes,
            tally: Tally::default(),
            package_parts: None,
            target: Target::V3_0,
        }
    }

    /// Writes `target` (V3.0 unless said).
    pub fn target(mut self, target: Target) -> Self {
        self.target = target;
        self
    }

    pub(crate) fn target_version(&self) -> Target {
        self.target
    }

    /// With `strict`, the first change fails the conversion ([`Error::Strict`]) instead.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The concept descriptions the V3 environment holds: a reference to one of them is
    /// a model reference, to any other an external one.
    pub fn holding_concepts(mut self, ids: impl IntoIterator<Item = String>) -> Self {
        self.hold_concepts(ids);
        self
    }

    pub(crate) fn hold_concepts(&mut self, ids: impl IntoIterator<Item = String>) {
        self.held_concepts.extend(ids);
    }

    /// The environment goes into an AASX package holding `parts` (part names, no
    /// leading `/`): a File naming any other part loses its value, said so.
    pub fn in_package(mut self, parts: HashSet<String>) -> Self {
        self.package_parts = Some(parts);
        self
    }

    /// Whether a File's value can stay: a URL, or a part the package holds.
    pub(crate) fn file_held(&self, value: &str) -> bool {
        match (&self.package_parts, package_part(value)) {
            (Some(parts), Some(part)) => parts.contains(&part),
            _ => true,
        }
    }

    pub(crate) fn holds_concept(&self, id: &str) -> bool {
        self.held_concepts.contains(id)
    }

    /// How many changes of each kind so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    pub(crate) fn change(
        &mut self,
        at: At<'_>,
        rule: Rule,
        was: Node<'_>,
        now: Option<Node<'_>>,
    ) -> Result<()> {
        let change = Change {
            path: at.to_string(),
            rule,
            was: was.to_json(),
            now: now.as_ref().map(Node::to_json),
        };
        self.record(change)
    }

    /// A key the source gives twice in one object, found where the source is read
    /// (the tree holds the last value, as JSON readers do): `path` is the key's JSON
    /// path (`submodels[0].submodelElements[3].idShort`), `was` the JSON text of a value
    /// before the last, `kept` the last one's.
    pub fn duplicate_key(&mut self, path: &str, was: &str, kept: &str) -> Result<()> {
        let json = |text: &str| {
            RawValue::from_string(crate::node::compact(text).into_owned())
                .unwrap_or_else(|_| Node::text(text).to_json())
        };
        self.record(Change {
            path: path.to_owned(),
            rule: Rule::DuplicateKey,
            was: json(was),
            now: Some(json(kept)),
        })
    }

    fn record(&mut self, change: Change) -> Result<()> {
        let rule = change.rule;
        if self.strict {
            return Err(Error::Strict(Box::new(change)));
        }
        self.tally.add(rule);
        self.changes.record(change).map_err(Error::Report)
    }

    /// Reports every field of `fields` the conversion did not take, but for `mapped`
    /// (bookkeeping the mapping replaces, such as `modelType` or `idType`).
    pub(crate) fn leftovers(&mut self, fields: Fields<'_, '_>, mapped: &[&str]) -> Result<()> {
        for (path, value) in fields.rest(mapped) {
            self.change(At::Root(&path), Rule::NotInV3, value, None)?;
        }
        Ok(())
    }

    /// `text` as V3.0 can hold it: without characters XML cannot carry, and at most
    /// `max` characters; each cut reported.
    pub(crate) fn text<'a>(
        &mut self,
        text: Cow<'a, str>,
        at: At<'_>,
        max: usize,
    ) -> Result<Cow<'a, str>> {
        let mut text = text;
        if !xsd::xml_safe(&text) {
            let kept: String = text.chars().filter(|c| xsd::xml_char(*c)).collect();
            self.change(
                at,
                Rule::Characters,
                Node::Text(text),
                Some(Node::text(&kept)),
            )?;
            text = Cow::Owned(kept);
        }
        if let Some((cut, _)) = text.char_indices().nth(max) {
            let kept = text[..cut].to_owned();
            self.change(at, Rule::TooLong, Node::Text(text), Some(Node::text(&kept)))?;
            text = Cow::Owned(kept);
        }
        Ok(text)
    }

    /// `category`, `description` (or BaSyx's `descriptions`) of any referable, into
    /// `out`. A data element's category must be one V3.0 allows for data elements.
    pub(crate) fn referable<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        out: &mut Members<'a>,
        data_element: bool,
    ) -> Result<()> {
        if let Some(category) = f.text("category") {
            let allowed = ["CONSTANT", "PARAMETER", "VARIABLE"];
            if data_element && !allowed.contains(&category.as_ref()) {
                self.change(
                    f.path("category"),
                    Rule::Category,
                    Node::Text(category),
                    None,
                )?;
            } else {
                let category = self.text(category, f.path("category"), NAME_MAX)?;
                out.push(("category".into(), Node::Text(category)));
            }
        }
        let (name, description) = match f.take("description") {
            Some(d) => ("description", Some(d)),
            None => ("descriptions", f.take("descriptions")),
        };
        if let Some(description) = description {
            if let Some(texts) = self.lang_strings(description, f.path(name), TEXT_MAX)? {
                out.push(("description".into(), texts));
            }
        }
        Ok(())
    }

    /// `identification.id` as `id`, and `administration`; `None` when the object has
    /// no id, which V3.0 cannot hold.
    pub(crate) fn identifiable<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        out: &mut Members<'a>,
    ) -> Result<Option<Cow<'a, str>>> {
        let id = match f.take("identification") {
            Some(identification) => {
                let mut ident = Fields::of(identification, f.path("identification"))
                    .unwrap_or_else(|v| {
                        Fields::of(Node::object([("id", v)]), At::Root("")).expect("an object")
                    });
                let id = ident.text("id");
                if id.is_some() {
                    self.leftovers(ident, &["idType"])?;
                }
                id
            }
            None => f.text("id"),
        };
        let Some(id) = id else { return Ok(None) };
        if let Some(administration) = f.take("administration") {
            if let Some(a) = self.administration(administration, f.path("administration"))? {
                out.push(("administration".into(), a));
            }
        }
        out.push(("id".into(), Node::Text(id.clone())));
        Ok(Some(id))
    }

    /// V3.0 wants version and revision as plain numbers: `1.0` with no revision is
    /// version 1, revision 0; anything else that is not a number is left out.
    fn administration<'a>(&mut self, value: Node<'a>, at: At<'_>) -> Result<Option<Node<'a>>> {
        let Ok(mut f) = Fields::of(value, at) else {
            return Ok(None);
        };
        let number = |s: &str| {
            s.len() <= 4
                && (s == "0"
                    || (s.starts_with(|c: char| ('1'..='9').contains(&c))
                        && s.bytes().all(|b| b.is_ascii_digit())))
        };
        let mut version = f.text("version");
        let mut revision = f.text("revision");
        if let (Some(v), None) = (&version, &revision) {
            if let Some((major, minor)) = v.split_once('.') {
                if number(major) && number(minor) {
                    let now = Node::object([
                        ("version", Node::text(major)),
                        ("revision", Node::text(minor)),
                    ]);
                    self.change(
                        f.path("version"),
                        Rule::Version,
                        Node::text(&**v),
                        Some(now),
                    )?;
                    (version, revision) = (
                        Some(Cow::Owned(major.to_owned())),
                        Some(Cow::Owned(minor.to_owned())),
                    );
                }
            }
        }
        let mut out = Members::new();
        if let Some(v) = version {
            if number(&v) {
                out.push(("version".into(), Node::Text(v)));
            } else {
                self.change(f.path("version"), Rule::Version, Node::Text(v), None)?;
            }
        }
        if let Some(r) = revision {
            if number(&r) && member(&out, "version").is_some() {
                out.push(("revision".into(), Node::Text(r)));
            } else {
                self.change(f.path("revision"), Rule::Version, Node::Text(r), None)?;
            }
        }
        self.data_specifications(&mut f, &mut out)?;
        self.leftovers(f, &[])?;
        Ok((!out.is_empty()).then_some(Node::Object(out)))
    }

    /// A V2 language string set (a list, or BaSyx's `{"langString": [...]}`) as V3.0's:
    /// each text non-empty and at most `max` characters, each language a BCP 47 tag
    /// and given once. `None` when nothing is left.
    pub(crate) fn lang_strings<'a>(
        &mut self,
        value: Node<'a>,
        at: At<'_>,
        max: usize,
    ) -> Result<Option<Node<'a>>> {
        let items = match value.read() {
            Node::List(items) => items,
            Node::Object(mut members) if members.len() == 1 && members[0].0 == "langString" => {
                match members.pop().map(|(_, texts)| texts.read()) {
                    Some(Node::List(items)) => items,
                    _ => Vec::new(),
                }
            }
            other if holds_nothing(&other) => return Ok(None),
            other => {
                self.change(at, Rule::NotInV3, other, None)?;
                return Ok(None);
            }
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            let here = at.item(i);
            let mut f = match Fields::of(item, here) {
                Ok(f) => f,
                Err(other) => {
                    if !holds_nothing(&other) {
                        self.change(here, Rule::NotInV3, other, None)?;
                    }
                    continue;
                }
            };
            let language = f.text_or_empty("language");
            let Some(text) = f.text("text") else {
                if let Some(language) = language {
                    self.change(
                        f.path("text"),
                        Rule::Empty,
                        Node::object([
                            ("language", Node::Text(language)),
                            ("text", Node::text("")),
                        ]),
                        None,
                    )?;
                }
                self.leftovers(f, &[])?;
                continue;
            };
            let language = self.language(language, f.path("language"))?;
            if !seen.insert(language.to_ascii_lowercase()) {
                self.change(
                    here,
                    Rule::Duplicate,
                    Node::object([
                        ("language", Node::text(language)),
                        ("text", Node::Text(text)),
                    ]),
                    None,
                )?;
                self.leftovers(f, &[])?;
                continue;
            }
            let text = self.text(text, f.path("text"), max)?;
            out.push(Node::object([
                ("language", Node::text(language)),
                ("text", Node::Text(text)),
            ]));
            self.leftovers(f, &[])?;
        }
        Ok((!out.is_empty()).then_some(Node::List(out)))
    }

    /// A language tag both V3.0 and its readers accept: BCP 47, its language a
    /// two-letter code in lower case (tags are case-insensitive; BaSyx reads only that
    /// form). `en_US` becomes `en-US`, a common three-letter code its two-letter one;
    /// a missing or unreadable tag becomes `en`, said so.
    fn language(&mut self, given: Option<Cow<'_, str>>, at: At<'_>) -> Result<String> {
        let given = given.unwrap_or_default();
        let (tag, exact) = crate::language::readable(&given);
        if !exact {
            self.change(
                at,
                Rule::Language,
                Node::Text(given),
                Some(Node::text(&tag)),
            )?;
        }
        Ok(tag)
    }

    /// The V3.0 value type of a V2 one (a name or BaSyx's `{"dataObjectType": …}`) and
    /// `values` (field name and text) as V3.0 can hold them: an empty value of a type
    /// other than string is no value; a value not of its type keeps its text and makes
    /// the type `xs:string`. Writes `valueType` and the values into `out`.
    pub(crate) fn typed_values<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        names: &[&'static str],
        out: &mut Members<'a>,
    ) -> Result<()> {
        let given = f.take("valueType");
        let v2_name = given.as_ref().and_then(|t| match t {
            Node::Text(s) => Some(s.as_ref()),
            Node::Object(_) => t
                .get("dataObjectType")
                .and_then(|d| d.get("name"))
                .and_then(Node::as_str),
            _ => None,
        });
        let mut value_type = match v2_name.and_then(xsd::v3_name) {
            Some(t) => t,
            None => {
                let rule = if given.is_some() {
                    Rule::ValueType
                } else {
                    Rule::Required
                };
                let was = given.clone().unwrap_or(Node::Null);
                self.change(
                    f.path("valueType"),
                    rule,
                    was,
                    Some(Node::text(xsd::STRING)),
                )?;
                xsd::STRING
            }
        };
        let mut values = Vec::new();
        for name in names {
            let Some(text) = f.text_or_empty(name) else {
                continue;
            };
            if text.is_empty() && value_type != xsd::STRING {
                self.change(f.path(name), Rule::Empty, Node::text(""), None)?;
                continue;
            }
            let text = self.text(text, f.path(name), usize::MAX)?;
            values.push((*name, text));
        }
        if let Some((name, text)) = values.iter().find(|(_, text)| !xsd::fits(value_type, text)) {
            let was = Node::Object(vec![
                ("valueType".into(), given.unwrap_or(Node::Null)),
                (Cow::Borrowed(*name), Node::Text(text.clone())),
            ]);
            self.change(
                f.path(name),
                Rule::ValueType,
                was,
                Some(Node::text(xsd::STRING)),
            )?;
            value_type = xsd::STRING;
        }
        out.push(("valueType".into(), Node::text(value_type)));
        for (name, text) in values {
            out.push((name.into(), Node::Text(text)));
        }
        Ok(())
    }

    /// `qualifiers` (BaSyx V1: `constraints`) as V3.0 qualifiers: each Qualifier with
    /// its valueType, each type once; Formulas have no V3.0 counterpart.
    pub(crate) fn qualifiers<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        out: &mut Members<'a>,
    ) -> Result<()> {
        let mut converted = Vec::new();
        let mut types = HashSet::new();
        for name in ["qualifiers", "constraints"] {
            let items = f.list(name);
            let at = f.path(name);
            for (i, item) in items.into_iter().enumerate() {
                let here = at.item(i);
                let model_type = model_type_name(&item);
                let mut q = match Fields::of(item, here) {
                    Ok(q) if model_type.as_deref().is_none_or(|t| t == "Qualifier") => q,
                    Ok(other) => {
                        self.leftovers(other, &[])?;
                        continue;
                    }
                    Err(other) => {
                        self.change(here, Rule::NotInV3, other, None)?;
                        continue;
                    }
                };
                let Some(kind) = q.text("type") else {
                    self.leftovers(q, &[])?;
                    continue;
                };
                if !types.insert(kind.clone()) {
                    self.leftovers(q, &[])?;
                    self.change(here.field("type"), Rule::Duplicate, Node::Text(kind), None)?;
                    continue;
                }
                let mut qualifier = Members::new();
                if let Some(semantic_id) = q.take("semanticId") {
                    if let Some(r) = self.reference(semantic_id, q.path("semanticId"))? {
                        qualifier.push(("semanticId".into(), r));
                    }
                }
                let kind = self.text(kind, q.path("type"), NAME_MAX)?;
                qualifier.push(("type".into(), Node::Text(kind)));
                self.typed_values(&mut q, &["value"], &mut qualifier)?;
                if let Some(value_id) = q.take("valueId") {
                    if let Some(r) = self.reference(value_id, q.path("valueId"))? {
                        qualifier.push(("valueId".into(), r));
                    }
                }
                self.leftovers(q, &["modelType"])?;
                converted.push(Node::Object(qualifier));
            }
        }
        if !converted.is_empty() {
            out.push(("qualifiers".into(), Node::List(converted)));
        }
        Ok(())
    }

    /// `semanticId` into `out`.
    pub(crate) fn semantic_id<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        out: &mut Members<'a>,
    ) -> Result<()> {
        if let Some(semantic_id) = f.take("semanticId") {
            if let Some(r) = self.reference(semantic_id, f.path("semanticId"))? {
                out.push(("semanticId".into(), r));
            }
        }
        Ok(())
    }
}

/// The package part a File's value names (`/aasx/manual.pdf`, `file:///aasx/manual.pdf`
/// → `aasx/manual.pdf`); `None` for a URL elsewhere.
pub fn package_part(value: &str) -> Option<String> {
    let path = value.strip_prefix("file://").unwrap_or(value);
    let scheme = path.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    (!scheme && !path.is_empty()).then(|| path.trim_start_matches('/').to_owned())
}
