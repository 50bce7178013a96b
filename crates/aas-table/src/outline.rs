//! Where each row's submodels lie in its submodels answer, as a census found them. A
//! table built after the census reads only the submodels its columns may want, where
//! reading past all the others was most of a build: the default columns want the
//! nameplate, an eighth of a machine's 19 KB answer.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use serde_json::value::RawValue;

use crate::submodels::SubmodelElements;

/// The outlines of a census's rows, by row (none for a row whose answer did not read).
#[derive(Debug)]
pub struct Outlines(Vec<Option<Outline>>);

impl Outlines {
    pub(crate) fn new(rows: usize) -> Self {
        Outlines((0..rows).map(|_| None).collect())
    }

    pub(crate) fn set(&mut self, row: usize, outline: Outline) {
        if let Some(slot) = self.0.get_mut(row) {
            *slot = Some(outline);
        }
    }

    pub(crate) fn of(&self, row: usize) -> Option<&Outline> {
        self.0.get(row)?.as_ref()
    }
}

/// A row's answer as the census read it: its length, and each submodel's idShort with
/// the span of its list of elements (`[…]`), in the answer's order. A submodel without
/// an idShort or elements is left out: no column finds anything in it.
#[derive(Debug)]
pub(crate) struct Outline {
    len: usize,
    submodels: Box<[(Arc<str>, Range<u32>)]>,
}

impl Outline {
    /// The outline of `json` as `submodels` read it (borrowed from it); the idShorts
    /// are shared through `names`. `None` when a list's span cannot be told.
    pub fn of(
        json: &str,
        submodels: &[SubmodelElements],
        names: &mut HashSet<Arc<str>>,
    ) -> Option<Outline> {
        let mut outlined = Vec::new();
        for submodel in submodels {
            let Some(id_short) = &submodel.id_short else {
                continue;
            };
            if submodel.elements.is_empty() {
                continue;
            }
            let span = list_span(json, &submodel.elements)?;
            let name = match names.get(&**id_short) {
                Some(name) => Arc::clone(name),
                None => {
                    let name: Arc<str> = Arc::from(&**id_short);
                    names.insert(Arc::clone(&name));
                    name
                }
            };
            outlined.push((name, span));
        }
        Some(Outline {
            len: json.len(),
            submodels: outlined.into(),
        })
    }

    /// Each submodel's idShort and the JSON of its list of elements, in `json`: `None`
    /// when `json` is not the answer this outline was made of.
    pub fn submodels<'a>(
        &'a self,
        json: &'a str,
    ) -> Option<impl Iterator<Item = (&'a str, &'a str)> + 'a> {
        if json.len() != self.len {
            return None;
        }
        Some((self.submodels.iter()).filter_map(|(name, span)| {
            let list = json.get(span.start as usize..span.end as usize)?;
            Some((&**name, list))
        }))
    }
}

/// The span in `json` of the list holding `elements` (borrowed from `json`), from its
/// `[` to its `]`.
fn list_span(json: &str, elements: &[&RawValue]) -> Option<Range<u32>> {
    let at = |raw: &RawValue| (raw.get().as_ptr() as usize).checked_sub(json.as_ptr() as usize);
    let (first, last) = (elements.first()?, elements.last()?);
    // Only JSON's whitespace can stand between the brackets and the elements.
    let start = json.get(..at(first)?)?.trim_end().len().checked_sub(1)?;
    let after_last = at(last)? + last.get().len();
    let rest = json.get(after_last..)?;
    let end = after_last + (rest.len() - rest.trim_start().len()) + 1;
    let list = json.get(start..end)?;
    if !(list.starts_with('[') && list.ends_with(']')) {
        return None;
    }
    Some(u32::try_from(start).ok()?..u32::try_from(end).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submodels;

    #[test]
    fn an_outline_finds_each_named_submodels_list_and_only_in_its_own_answer() {
        let json = r#"[
            {"idShort":"Nameplate","submodelElements": [ {"idShort":"A"} ,
              {"idShort":"B","value":[{"idShort":"C"}]}
            ] },
            {"submodelElements":[{"idShort":"Unnamed"}]},
            {"idShort":"Empty","submodelElements":[]},
            {"idShort":"Nameplate","submodelElements":[7]}
        ]"#;
        let read = submodels::read(json).expect("a list");
        let mut names = HashSet::new();
        let outline = Outline::of(json, &read, &mut names).expect("outlined");
        let found: Vec<(&str, &str)> = outline.submodels(json).expect("its answer").collect();
        assert_eq!(
            found,
            [
                (
                    "Nameplate",
                    "[ {\"idShort\":\"A\"} ,\n              {\"idShort\":\"B\",\"value\":[{\"idShort\":\"C\"}]}\n            ]"
                ),
                ("Nameplate", "[7]"),
            ]
        );
        // The two share one name.
        assert_eq!(names.len(), 1);
        assert!(outline.submodels(&format!("{json} ")).is_none());
    }
}
