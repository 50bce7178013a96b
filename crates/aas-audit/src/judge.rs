//! One submodel judged against its template, container by container: each element of
//! the data is matched to a template element (by semanticId first, then by idShort),
//! then each template element is counted against its cardinality and each matched
//! element judged (model type, value, value type, languages) and descended into. A
//! child is only looked for when its parent is there: the tree says what is required.

use std::cmp::Reverse;
use std::sync::Arc;

use aas_model::{ElementBody, ElementKind, Parsed, Reference, SubmodelElement};

use crate::finding::{Finding, Strings};
use crate::languages::LanguageCheck;
use crate::semantic::normalise;
use crate::template::Node;
use crate::value;
use crate::Kind;

/// What a judged submodel's findings share, and where they go.
pub(crate) struct Judge<'a> {
    pub shell: u32,
    pub template: u16,
    pub submodel: Arc<str>,
    pub strings: &'a mut Strings,
    pub languages: &'a mut LanguageCheck,
    pub findings: &'a mut Vec<Finding>,
    /// Whether an error was found in this submodel.
    pub errors: bool,
}

/// A place in the data and in the template, as `/`-joined idShorts.
#[derive(Clone, Copy)]
struct At<'p> {
    path: &'p str,
    template_path: &'p str,
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}/{name}")
    }
}

/// Cut long values short in a finding.
fn shown(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

impl Judge<'_> {
    pub fn submodel(&mut self, rules: &[Node], elements: &[Parsed<SubmodelElement>]) {
        let root = At {
            path: "",
            template_path: "",
        };
        self.container(rules, elements, root, 1);
    }

    fn report(&mut self, kind: Kind, path: &str, template_path: &str, rule: &str, seen: String) {
        self.errors |= kind.severity() == crate::Severity::Error;
        let finding = Finding {
            shell: self.shell,
            template: self.template,
            submodel: self.submodel.clone(),
            path: self.strings.get(path),
            template_path: self.strings.get(template_path),
            kind,
            rule: self.strings.get(rule),
            seen: seen.into(),
        };
        self.findings.push(finding);
    }

    fn container(
        &mut self,
        rules: &[Node],
        elements: &[Parsed<SubmodelElement>],
        at: At,
        depth: usize,
    ) {
        // Answers are depth-checked on arrival; a store written before may hold deeper.
        if depth > aas_model::MAX_ELEMENT_DEPTH {
            return;
        }
        let mut matched: Vec<Vec<&SubmodelElement>> = vec![Vec::new(); rules.len()];
        for element in elements {
            match element.view() {
                Ok(el) => {
                    if let Some(i) = assign(rules, el) {
                        matched[i].push(el);
                    }
                }
                Err(e) => {
                    let (path, template_path) = (at.path, at.template_path);
                    let seen = format!("an element that cannot be read: {e}");
                    self.report(
                        Kind::Unreadable,
                        path,
                        template_path,
                        "a submodel element",
                        seen,
                    );
                }
            }
        }
        for (rule, found) in rules.iter().zip(matched) {
            if rule.arbitrary {
                continue;
            }
            self.count(rule, &found, at);
            for el in found {
                let path = join(at.path, &el.id_short);
                let template_path = join(at.template_path, &rule.label);
                let here = At {
                    path: &path,
                    template_path: &template_path,
                };
                self.element(rule, el, here, depth);
            }
        }
    }

    /// Too few or too many elements for the rule's cardinality.
    fn count(&mut self, rule: &Node, found: &[&SubmodelElement], at: At) {
        let cardinality = rule.cardinality;
        let template_path = join(at.template_path, &rule.label);
        let rule_text = format!("cardinality {}", cardinality.name());
        if found.len() < cardinality.min() {
            let path = join(at.path, &rule.label);
            self.report(
                Kind::Missing,
                &path,
                &template_path,
                &rule_text,
                "missing".into(),
            );
        }
        if cardinality.max().is_some_and(|max| found.len() > max) {
            let names: Vec<&str> = found.iter().map(|el| el.id_short.as_str()).collect();
            let seen = format!("{} elements: {}", found.len(), names.join(", "));
            let path = join(at.path, &rule.label);
            self.report(Kind::TooMany, &path, &template_path, &rule_text, seen);
        }
    }

    fn element(&mut self, rule: &Node, el: &SubmodelElement, at: At, depth: usize) {
        if !same_model_type(&rule.model_type, el) {
            let rule_text = format!("expected {}", rule.model_type);
            let seen = el.model_type.name.clone();
            self.report(
                Kind::WrongModelType,
                at.path,
                at.template_path,
                &rule_text,
                seen,
            );
            return;
        }
        let required = rule.cardinality.min() > 0;
        // A collection's required children say what it lacks; an empty one with none
        // to say it is itself the gap.
        let empty = value::is_empty(el)
            && !(is_container(el) && rule.elements.iter().any(|c| c.cardinality.min() > 0));
        if empty {
            if required {
                let rule_text = format!("cardinality {}, with a value", rule.cardinality.name());
                self.report(
                    Kind::EmptyValue,
                    at.path,
                    at.template_path,
                    &rule_text,
                    "empty".into(),
                );
            }
            return;
        }
        self.value(rule, el, at);
        if let ElementBody::MultiLanguageProperty(m) = &el.body {
            self.languages_of(&m.value, at);
        }
        if !rule.elements.is_empty() {
            let children = el.children().unwrap_or_default();
            self.container(&rule.elements, &children, at, depth + 1);
        }
    }

    /// A value not of the template's value type nor of the element's own (an error), a
    /// declared type other than the template's (a warning).
    fn value(&mut self, rule: &Node, el: &SubmodelElement, at: At) {
        let Some(wanted) = rule.value_type else {
            return;
        };
        let declared = value::declared_type(el);
        let types: Vec<&str> = std::iter::once(wanted).chain(declared).collect();
        for text in value::values(el) {
            if let Some(misfit) = value::misfit(&text, &types) {
                let rule_text = format!("value type {misfit}");
                let seen = shown(&text);
                self.report(
                    Kind::ValueNotOfType,
                    at.path,
                    at.template_path,
                    &rule_text,
                    seen,
                );
                break;
            }
        }
        match (el.value_type(), declared) {
            (Some(_), Some(declared)) if declared == wanted => {}
            (Some(named), _) => {
                let rule_text = format!("value type {wanted}");
                let seen = format!("value type {named}");
                self.report(
                    Kind::WrongValueType,
                    at.path,
                    at.template_path,
                    &rule_text,
                    seen,
                );
            }
            // No type declared: the value alone was judged.
            (None, _) => {}
        }
    }

    fn languages_of(&mut self, texts: &[aas_model::LangString], at: At) {
        let (shell, template, submodel) = (self.shell, self.template, self.submodel.clone());
        let path = self.strings.get(at.path);
        let template_path = self.strings.get(at.template_path);
        let finding = |rule, seen| Finding {
            shell,
            template,
            submodel,
            path,
            template_path,
            kind: Kind::MissingLanguage,
            rule,
            seen,
        };
        if let Some(found) = self.languages.check(texts, self.strings, finding) {
            self.findings.push(found);
        }
    }
}

/// Which rule an element is: of the rules whose semanticId it carries, else of all,
/// the one its idShort fits best (the first of equals). An element no rule fits is
/// not the template's concern.
fn assign(rules: &[Node], el: &SubmodelElement) -> Option<usize> {
    let fit = |i: usize| rules[i].id_short.fit(&el.id_short);
    let semantic = el.semantic_id.as_ref().and_then(semantic_id);
    let best_of = |candidates: &mut dyn Iterator<Item = usize>| {
        candidates.max_by_key(|&i| (fit(i), Reverse(i)))
    };
    let named = |i: &usize| semantic.is_some() && rules[*i].semantic_id == semantic;
    best_of(&mut (0..rules.len()).filter(named))
        .or_else(|| best_of(&mut (0..rules.len()).filter(|&i| fit(i).is_some())))
}

/// An empty semanticId names nothing.
fn semantic_id(reference: &Reference) -> Option<String> {
    reference.target().map(normalise).filter(|s| !s.is_empty())
}

fn is_container(el: &SubmodelElement) -> bool {
    matches!(
        el.kind(),
        ElementKind::SubmodelElementCollection | ElementKind::Entity
    )
}

/// V2.0.1 has no SubmodelElementList: a V3 template's list is a collection in V2 data.
fn same_model_type(template: &str, el: &SubmodelElement) -> bool {
    let data = el.model_type.name.as_str();
    data == template
        || (template == "SubmodelElementList"
            && el.kind() == ElementKind::SubmodelElementCollection)
}
