//! The user's words matched against one element, as FTS5 matched them against the
//! element's answer: the index has a document per answer, so an answer found holds at
//! least one element that matches, and this tells which. Words are split and folded as
//! the index's `unicode61` tokenizer does (letters and digits make words, case does not
//! count, accents do: the index keeps them); each typed word is a phrase of such words,
//! all must be in one of the element's fields, and the last may be the start of a word.

use std::borrow::Cow;

use crate::{Error, Result};

/// The most words one search looks for (words are what was typed between spaces): a
/// question that long already names one element. Both stores refuse more, in the same
/// words: the team store's query parser ran out of stack at about 20,000, while SQLite
/// answered.
pub const MAX_SEARCH_WORDS: usize = 32;
/// The longest word one search looks for, in characters: longer than any identifier or
/// serial number (a value longer than this is found by its start). Both stores refuse
/// longer ones, in the same words; the team store's index refuses words over 2,047 bytes.
pub const MAX_SEARCH_WORD_CHARS: usize = 128;
/// How many characters of what was typed an error about it quotes.
const QUOTED: usize = 40;

/// What the user typed, checked to be within [`MAX_SEARCH_WORDS`] and
/// [`MAX_SEARCH_WORD_CHARS`]: the only text a store's search is given.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Typed<'t>(&'t str);

impl<'t> Typed<'t> {
    /// `typed`, or the error that says which limit it passes, quoting no more than its
    /// start.
    pub(crate) fn checked(typed: &'t str) -> Result<Typed<'t>> {
        let words = typed.split_whitespace().count();
        if words > MAX_SEARCH_WORDS {
            return Err(Error::Query(format!(
                "the search has {words} words; a search looks for at most {MAX_SEARCH_WORDS} (it begins \"{}\")",
                quoted(typed.trim_start())
            )));
        }
        if let Some(word) =
            (typed.split_whitespace()).find(|w| w.chars().nth(MAX_SEARCH_WORD_CHARS).is_some())
        {
            return Err(Error::Query(format!(
                "the word \"{}\" is {} characters long; a search looks for words of at most {MAX_SEARCH_WORD_CHARS} (a longer value is found by its start)",
                quoted(word),
                word.chars().count()
            )));
        }
        Ok(Typed(typed))
    }

    pub(crate) fn as_str(&self) -> &'t str {
        self.0
    }
}

/// The first [`QUOTED`] characters of `text`, with "…" when there is more: an error
/// never echoes what was typed whole.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

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

    #[test]
    fn a_search_is_bounded_in_words_and_in_a_word_s_length_and_says_so_briefly() {
        let at_most = vec!["w".repeat(MAX_SEARCH_WORD_CHARS); MAX_SEARCH_WORDS].join(" ");
        assert_eq!(Typed::checked(&at_most).expect("within").as_str(), at_most);
        // Letters count, not bytes.
        Typed::checked(&"é".repeat(MAX_SEARCH_WORD_CHARS)).expect("within");
        let many = "word ".repeat(20_000);
        let message = Typed::checked(&many).expect_err("too many").to_string();
        assert!(
            message.starts_with("the search has 20000 words"),
            "{message}"
        );
        let long = format!("SN-1 {}", "x".repeat(131_000));
        let message = Typed::checked(&long).expect_err("too long").to_string();
        assert!(message.contains("is 131000 characters long"), "{message}");
        for message in [
            Typed::checked(&many).expect_err("many").to_string(),
            Typed::checked(&long).expect_err("long").to_string(),
        ] {
            assert!(message.len() < 200, "a short prefix only: {message}");
        }
    }

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
