//! Whether multi-language texts carry the plant's languages. The languages are given,
//! or read from the data: those at least half of the judged texts carry. Read from the
//! data, they are known only at the end, so each text's languages wait as a bit set.

use std::sync::Arc;

use aas_model::LangString;

use crate::finding::{Finding, Strings};

/// Which languages every multi-language text should carry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Languages {
    /// These (`en`, `de`; a region such as `en-US` counts as its language).
    Given(Vec<String>),
    /// Those at least half of the plant's judged texts carry.
    #[default]
    FromData,
}

/// At most this many distinct languages are told apart when read from the data.
const MAX_SEEN: usize = 64;

#[derive(Debug)]
pub(crate) struct LanguageCheck {
    given: Option<Vec<String>>,
    seen: Vec<String>,
    counts: Vec<usize>,
    texts: usize,
    /// Findings whose `seen` and `rule` wait for the plant's languages.
    waiting: Vec<(Finding, u64)>,
}

impl LanguageCheck {
    pub fn new(languages: &Languages) -> Self {
        let given = match languages {
            Languages::Given(list) => {
                let mut list: Vec<String> = list.iter().map(|l| primary(l)).collect();
                list.sort();
                list.dedup();
                Some(list)
            }
            Languages::FromData => None,
        };
        LanguageCheck {
            given,
            seen: Vec::new(),
            counts: Vec::new(),
            texts: 0,
            waiting: Vec::new(),
        }
    }

    /// Judges one non-empty text; `finding` is its finding, should it lack a language.
    pub fn check(
        &mut self,
        texts: &[LangString],
        strings: &mut Strings,
        finding: impl FnOnce(Arc<str>, Box<str>) -> Finding,
    ) -> Option<Finding> {
        let has: Vec<String> = texts
            .iter()
            .filter(|t| !t.text.trim().is_empty())
            .map(|t| primary(&t.language))
            .collect();
        if let Some(plant) = &self.given {
            let (rule, seen) = lacking(plant, &has)?;
            return Some(finding(strings.get(&rule), seen.into()));
        }
        self.texts += 1;
        let mut mask = 0u64;
        for language in has {
            let at = match self.seen.iter().position(|l| *l == language) {
                Some(at) => at,
                None if self.seen.len() < MAX_SEEN => {
                    self.seen.push(language);
                    self.counts.push(0);
                    self.seen.len() - 1
                }
                None => continue,
            };
            if mask & (1 << at) == 0 {
                mask |= 1 << at;
                self.counts[at] += 1;
            }
        }
        let waiting = finding(strings.get(""), "".into());
        self.waiting.push((waiting, mask));
        None
    }

    /// The plant's languages, and the findings of the texts that lack some.
    pub fn finish(self, strings: &mut Strings) -> (Vec<String>, Vec<Finding>) {
        if let Some(plant) = self.given {
            return (plant, Vec::new());
        }
        let mut plant: Vec<String> = (self.seen.iter().zip(&self.counts))
            .filter(|(_, &n)| n * 2 >= self.texts)
            .map(|(l, _)| l.clone())
            .collect();
        plant.sort();
        let mut findings = Vec::new();
        for (mut finding, mask) in self.waiting {
            let has: Vec<String> = (self.seen.iter().enumerate())
                .filter(|(at, _)| mask & (1 << at) != 0)
                .map(|(_, l)| l.clone())
                .collect();
            if let Some((rule, seen)) = lacking(&plant, &has) {
                finding.rule = strings.get(&rule);
                finding.seen = seen.into();
                findings.push(finding);
            }
        }
        (plant, findings)
    }
}

/// `en` of `en-US`, in lower case.
fn primary(tag: &str) -> String {
    tag.trim()
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// The rule and what was seen, when `has` lacks some of `plant`.
fn lacking(plant: &[String], has: &[String]) -> Option<(String, String)> {
    let missing: Vec<&str> = (plant.iter())
        .filter(|l| !has.contains(l))
        .map(String::as_str)
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut has: Vec<&str> = has.iter().map(String::as_str).collect();
    has.sort();
    has.dedup();
    let rule = format!("languages {}", plant.join(", "));
    let seen = match has.is_empty() {
        true => format!("lacks {}", missing.join(", ")),
        false => format!("has {}; lacks {}", has.join(", "), missing.join(", ")),
    };
    Some((rule, seen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;

    fn texts(languages: &[&str]) -> Vec<LangString> {
        languages
            .iter()
            .map(|l| LangString {
                language: (*l).into(),
                text: "x".into(),
                extra: Default::default(),
            })
            .collect()
    }

    fn finding(rule: Arc<str>, seen: Box<str>) -> Finding {
        Finding {
            shell: 0,
            template: 0,
            submodel: "S".into(),
            path: "P".into(),
            template_path: "P".into(),
            kind: Kind::MissingLanguage,
            rule,
            seen,
        }
    }

    #[test]
    fn given_languages_are_checked_at_once_and_regions_count_as_their_language() {
        let mut strings = Strings::default();
        let mut check = LanguageCheck::new(&Languages::Given(vec!["en".into(), "DE".into()]));
        let found = check
            .check(&texts(&["en-US"]), &mut strings, finding)
            .expect("lacks de");
        assert_eq!(&*found.rule, "languages de, en");
        assert_eq!(&*found.seen, "has en; lacks de");
        assert!(check
            .check(&texts(&["de", "en"]), &mut strings, finding)
            .is_none());
        assert_eq!(check.finish(&mut strings).0, ["de", "en"]);
    }

    #[test]
    fn languages_from_the_data_are_those_half_of_the_texts_carry() {
        let mut strings = Strings::default();
        let mut check = LanguageCheck::new(&Languages::FromData);
        for languages in [&["en", "de"][..], &["en", "de"], &["en", "fr"], &["en"]] {
            assert!(check
                .check(&texts(languages), &mut strings, finding)
                .is_none());
        }
        let (plant, findings) = check.finish(&mut strings);
        assert_eq!(plant, ["de", "en"]);
        let seen: Vec<&str> = findings.iter().map(|f| &*f.seen).collect();
        assert_eq!(seen, ["has en, fr; lacks de", "has en; lacks de"]);
    }
}
