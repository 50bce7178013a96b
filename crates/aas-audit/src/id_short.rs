//! Which idShorts a template element stands for. Templates write numbered elements
//! with a placeholder (`Document{00}`, `Document__00__`), meant as `Document01`,
//! `Document02`, …; an element of which the template allows many needs distinct
//! idShorts too, so `ContactInformation` also stands for `ContactInformation01`.
//! idShorts are compared ignoring case: a `ZipCode` for `Zipcode` is still that element.

use crate::cardinality::Cardinality;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IdShort {
    /// A list's item: its idShort is free.
    Any,
    /// The name, and with `numbered` also the name followed by digits.
    Named { name: String, numbered: bool },
}

/// How well an idShort fits: an exact name beats a numbered one beats any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fit {
    Any,
    Numbered,
    Exact,
}

impl IdShort {
    pub fn new(published: Option<&str>, cardinality: Cardinality) -> IdShort {
        let Some(published) = published.filter(|p| !p.is_empty()) else {
            return IdShort::Any;
        };
        match strip_placeholder(published) {
            Some(name) => IdShort::Named {
                name: name.to_owned(),
                numbered: true,
            },
            None => IdShort::Named {
                name: published.to_owned(),
                numbered: cardinality.max().is_none(),
            },
        }
    }

    pub fn fit(&self, id_short: &str) -> Option<Fit> {
        match self {
            IdShort::Any => Some(Fit::Any),
            IdShort::Named { name, numbered } => {
                if id_short.eq_ignore_ascii_case(name) {
                    return Some(Fit::Exact);
                }
                let digits = id_short
                    .get(..name.len())
                    .filter(|head| head.eq_ignore_ascii_case(name))
                    .map(|_| &id_short[name.len()..])?;
                (*numbered && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                    .then_some(Fit::Numbered)
            }
        }
    }
}

/// `Document` of `Document{00}` or `Document__00__`.
fn strip_placeholder(id: &str) -> Option<&str> {
    let (name, inner) = match id.strip_suffix('}') {
        Some(head) => head.rsplit_once('{')?,
        None => id.strip_suffix("__")?.rsplit_once("__")?,
    };
    let numbered = !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit());
    (numbered && !name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(published: &str, cardinality: Cardinality) -> IdShort {
        IdShort::new(Some(published), cardinality)
    }

    #[test]
    fn placeholders_stand_for_numbered_names() {
        for published in ["Document{00}", "Document__00__", "Document{0}"] {
            let id = named(published, Cardinality::ZeroToOne);
            assert_eq!(id.fit("Document01"), Some(Fit::Numbered), "{published}");
            assert_eq!(id.fit("document7"), Some(Fit::Numbered), "{published}");
            assert_eq!(id.fit("Document"), Some(Fit::Exact), "{published}");
            assert_eq!(id.fit("DocumentId01"), None, "{published}");
            assert_eq!(id.fit("Document_01"), None, "{published}");
        }
    }

    #[test]
    fn a_name_allowed_many_times_may_be_numbered_and_one_allowed_once_may_not() {
        let many = named("ContactInformation", Cardinality::OneToMany);
        assert_eq!(many.fit("ContactInformation02"), Some(Fit::Numbered));
        let once = named("Address", Cardinality::One);
        assert_eq!(once.fit("address"), Some(Fit::Exact));
        assert_eq!(once.fit("Address01"), None);
    }

    #[test]
    fn names_that_only_look_like_placeholders_are_names() {
        for published in ["ID___arbitrary1__", "Type_Of", "{00}", "__00__", "Doc__x__"] {
            assert_eq!(strip_placeholder(published), None, "{published}");
        }
        assert_eq!(
            strip_placeholder("IPCommunication__00__"),
            Some("IPCommunication")
        );
    }

    #[test]
    fn a_list_item_fits_any_id_short() {
        let item = IdShort::new(None, Cardinality::OneToMany);
        assert_eq!(item.fit("Marking01"), Some(Fit::Any));
        assert_eq!(IdShort::new(Some(""), Cardinality::One), IdShort::Any);
    }
}
