//! Which text of a MultiLanguageProperty a cell shows: the same choice as the details
//! pane's language switch (ui/details/details-model.js `orderByLanguage`): the first preference
//! matched exactly, else one of the same primary language (`de` for `de-AT`), else the
//! first text as the server gave it.

/// The index of the text in `languages` (each text's language tag) the preferences
/// choose; `None` for an empty list.
pub(crate) fn chosen<'a>(
    languages: impl IntoIterator<Item = &'a str>,
    preferences: &[String],
) -> Option<usize> {
    let rank = |tag: &str| {
        let tag = tag.to_ascii_lowercase();
        let primary = |t: &str| t.split('-').next().unwrap_or_default().to_owned();
        let exact = preferences
            .iter()
            .position(|p| p.eq_ignore_ascii_case(&tag));
        let near = || {
            preferences
                .iter()
                .position(|p| primary(&p.to_ascii_lowercase()) == primary(&tag))
        };
        match (exact, near()) {
            (Some(i), _) => 2 * i,
            (None, Some(j)) => 2 * j + 1,
            (None, None) => 2 * preferences.len(),
        }
    };
    languages
        .into_iter()
        .enumerate()
        .min_by_key(|(i, tag)| (rank(tag), *i))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn exact_before_primary_before_the_first_given() {
        let texts = ["en", "de", "de-AT"];
        assert_eq!(chosen(texts, &prefs(&["de-AT"])), Some(2));
        assert_eq!(chosen(texts, &prefs(&["de-CH"])), Some(1));
        assert_eq!(chosen(texts, &prefs(&["fr", "DE"])), Some(1));
        assert_eq!(chosen(texts, &prefs(&["fr"])), Some(0));
        assert_eq!(chosen(texts, &[]), Some(0));
        assert_eq!(chosen([], &prefs(&["en"])), None);
    }
}
