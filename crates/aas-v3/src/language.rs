//! BCP 47 language tags (RFC 5646's grammar), which V3.0 wants for every language
//! string.

use std::sync::LazyLock;

use regex::Regex;

static TAG: LazyLock<Regex> = LazyLock::new(|| {
    let alnum = "[a-zA-Z0-9]";
    let extlang = "[a-zA-Z]{3}(-[a-zA-Z]{3}){0,2}";
    let language = format!("([a-zA-Z]{{2,3}}(-{extlang})?|[a-zA-Z]{{4}}|[a-zA-Z]{{5,8}})");
    let script = "[a-zA-Z]{4}";
    let region = "([a-zA-Z]{2}|[0-9]{3})";
    let variant = format!("({alnum}{{5,8}}|[0-9]{alnum}{{3}})");
    let extension = format!("[0-9A-WY-Za-wy-z](-{alnum}{{2,8}})+");
    let private = format!("[xX](-{alnum}{{1,8}})+");
    let grandfathered = "en-GB-oed|i-ami|i-bnn|i-default|i-enochian|i-hak|i-klingon|i-lux|i-mingo|i-navajo|i-pwn|i-tao|i-tay|i-tsu|sgn-BE-FR|sgn-BE-NL|sgn-CH-DE|art-lojban|cel-gaulish|no-bok|no-nyn|zh-guoyu|zh-hakka|zh-min|zh-min-nan|zh-xiang";
    let tag =
        format!("{language}(-{script})?(-{region})?(-{variant})*(-{extension})*(-{private})?");
    Regex::new(&format!("^({tag}|{private}|{grandfathered})$")).expect("a fixed pattern")
});

pub(crate) fn is_bcp47(tag: &str) -> bool {
    TAG.is_match(tag)
}

/// Three-letter codes (ISO 639-2) of languages common in plant data, and their
/// two-letter ones.
const TWO_LETTER: [(&str, &str); 14] = [
    ("eng", "en"),
    ("deu", "de"),
    ("ger", "de"),
    ("fra", "fr"),
    ("fre", "fr"),
    ("spa", "es"),
    ("ita", "it"),
    ("zho", "zh"),
    ("chi", "zh"),
    ("jpn", "ja"),
    ("por", "pt"),
    ("rus", "ru"),
    ("nld", "nl"),
    ("pol", "pl"),
];

/// `given` as a BCP 47 tag whose language is two lower-case letters, and whether that
/// is `given` but for letter case (which BCP 47 ignores).
pub(crate) fn readable(given: &str) -> (String, bool) {
    let tag = given.trim().replace('_', "-");
    let (language, rest) = tag
        .split_once('-')
        .map_or((tag.as_str(), ""), |(l, r)| (l, r));
    let mut language = language.to_ascii_lowercase();
    if let Some((_, two)) = TWO_LETTER.iter().find(|(three, _)| *three == language) {
        language = (*two).to_owned();
    }
    let tag = if rest.is_empty() {
        language.clone()
    } else {
        format!("{language}-{rest}")
    };
    let two_letters = language.len() == 2 && language.bytes().all(|b| b.is_ascii_lowercase());
    if two_letters && is_bcp47(&tag) {
        let exact = tag.eq_ignore_ascii_case(given);
        (tag, exact)
    } else {
        ("en".to_owned(), false)
    }
}

/// Whether `tag` names English (`en`, `en-US`), as V3.0's IEC 61360 names must include.
pub(crate) fn is_english(tag: &str) -> bool {
    let lower = tag.to_ascii_lowercase();
    lower == "en" || lower.starts_with("en-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_read_by_the_grammar() {
        for tag in [
            "en",
            "de-DE",
            "en-us",
            "zh-Hant-TW",
            "und",
            "x-private",
            "i-klingon",
        ] {
            assert!(is_bcp47(tag), "{tag}");
        }
        for tag in ["", "en_US", "e", "english language", "de-", "-de"] {
            assert!(!is_bcp47(tag), "{tag}");
        }
        assert!(is_english("EN-gb") && !is_english("eng") && !is_english("de"));
        for (given, tag, exact) in [
            ("EN", "en", true),
            ("de-DE", "de-DE", true),
            ("en_US", "en-US", false),
            ("deu", "de", false),
            ("", "en", false),
            ("und", "en", false),
            ("english", "en", false),
        ] {
            assert_eq!(readable(given), (tag.to_owned(), exact), "{given}");
        }
    }
}
