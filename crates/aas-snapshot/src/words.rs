//! The user's words matched against one element, as FTS5 matched them against the
//! element's answer: the index has a document per answer, so an answer found holds at
//! least one element that matches, and this tells which. Words are split and folded as
//! the index's `unicode61` tokenizer does (letters and digits make words, case does not
//! count, accents do: the index keeps them); each typed word is a phrase of such words,
//! all must be in one of the element's fields, and the last may be the start of a word.

use std::borrow::Cow;

/// What the user typed, as phrases of folded words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Words {
    phrases: Vec<Vec<String>>,
}

impl Words {
    pub(crate) fn new(typed: &str) -> Self {
        Words {
            phrases: typed
                .split_whitespace()
                .map(|w| tokens(w).collect::<Vec<_>>())
                .filter(|phrase| !phrase.is_empty())
                .collect(),
        }
    }

    /// Whether every phrase is in one of `fields`.
    pub(crate) fn match_in(&self, fields: &[Cow<'_, str>]) -> bool {
        let fields: Vec<Vec<String>> = fields.iter().map(|f| tokens(f).collect()).collect();
        let last = self.phrases.len().saturating_sub(1);
        self.phrases
            .iter()
            .enumerate()
            .all(|(i, phrase)| fields.iter().any(|field| holds(field, phrase, i == last)))
    }
}

pub(crate) fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

/// Whether `field` has `phrase`'s words one after the other (the last one only begun,
/// when `prefix`).
fn holds(field: &[String], phrase: &[String], prefix: bool) -> bool {
    field.windows(phrase.len()).any(|window| {
        window
            .iter()
            .zip(phrase)
            .enumerate()
            .all(|(j, (word, wanted))| {
                if prefix && j + 1 == phrase.len() {
                    word.starts_with(wanted.as_str())
                } else {
                    word == wanted
                }
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(texts: &[&'static str]) -> Vec<Cow<'static, str>> {
        texts.iter().map(|t| Cow::Borrowed(*t)).collect()
    }

    #[test]
    fn phrases_match_within_one_field_and_the_last_word_may_be_begun() {
        let serial = fields(&["SerialNumber", "SN-M-0001", "", "0173-1#02-AAM556#002", ""]);
        assert!(Words::new("sn-m-0001").match_in(&serial));
        assert!(Words::new("SN-M-00").match_in(&serial));
        assert!(Words::new("0173-1#02 serial").match_in(&serial));
        assert!(
            !Words::new("SN-M-00 serial").match_in(&serial),
            "only the last word is begun"
        );
        assert!(
            !Words::new("M-0001-SN").match_in(&serial),
            "order counts within a phrase"
        );
        assert!(!Words::new("SN-0001").match_in(&serial));
        let split = fields(&["Name", "Acme", "", "", "Tools"]);
        assert!(
            Words::new("acme tools").match_in(&split),
            "words in different fields"
        );
        assert!(
            !Words::new("\"acme-tools\"").match_in(&split),
            "a phrase in one"
        );
    }
}
