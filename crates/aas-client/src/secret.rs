use std::fmt;

use serde::Deserialize;

/// A secret (client secret, access or user token). Debug and Display print
/// `[redacted]`, so it cannot reach a log line or an error message by accident; only
/// [`Secret::expose`] gives the text, at the one place it is put on the wire. It is
/// read from settings and forms but never written by serde: no export, settings file or
/// IPC answer can carry one.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(text: impl Into<String>) -> Self {
        Secret(text.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Secrets shorter than this are not looked for: a one-letter test secret would cut
/// every word of a message apart, and no real secret or token is that short.
const MIN_REDACTED: usize = 6;

/// What stands where a secret was.
const REDACTED: &str = "[redacted]";

/// `text`, which a server sent, without any of `secrets` in it: as they are, and in each
/// form a request carries them (percent-encoded in a URL, form-encoded in a token
/// request's body, base64, escaped in JSON). A server that echoes the request in its
/// error (the body, or the headers) would otherwise put them on stderr, in the log or in
/// the window.
pub(crate) fn redact(text: &str, secrets: &[impl AsRef<str>]) -> String {
    let mut forms: Vec<String> = secrets
        .iter()
        .map(AsRef::as_ref)
        .filter(|s| s.chars().count() >= MIN_REDACTED)
        .flat_map(forms)
        .collect();
    // The longest first, so that no part of a longer form is left behind.
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    let mut text = text.to_owned();
    for form in forms {
        if text.contains(&form) {
            text = text.replace(&form, REDACTED);
        }
    }
    text
}

/// A secret as it may come back: plain, encoded for a URL or a form, base64, JSON.
fn forms(secret: &str) -> Vec<String> {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE, URL_SAFE_NO_PAD};
    use base64::Engine;
    use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
    const FORM: &percent_encoding::AsciiSet = &NON_ALPHANUMERIC
        .remove(b'*')
        .remove(b'-')
        .remove(b'.')
        .remove(b'_');
    let percent = utf8_percent_encode(secret, NON_ALPHANUMERIC).to_string();
    let form = utf8_percent_encode(secret, FORM)
        .to_string()
        .replace("%20", "+");
    let json = serde_json::to_string(secret).unwrap_or_default();
    let json = json.trim_matches('"').to_owned();
    let mut forms = vec![
        secret.to_owned(),
        aas_model::encode_segment(secret),
        lower_hex(&percent),
        percent,
        lower_hex(&form),
        form,
        json.replace('/', "\\/"),
        json,
    ];
    for engine in [&STANDARD, &URL_SAFE, &URL_SAFE_NO_PAD] {
        forms.push(engine.encode(secret));
    }
    forms
}

/// `encoded` with the hex digits of its `%XX` escapes in lower case, as some servers
/// write them back.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut digits = 0;
    for c in encoded.chars() {
        if digits > 0 {
            out.push(c.to_ascii_lowercase());
            digits -= 1;
        } else {
            digits = if c == '%' { 2 } else { 0 };
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_taken_out_of_server_text_in_every_form_it_travels_in() {
        let secret = "Canary/+= ä&x";
        let echoed = [
            format!("client_secret={}", "Canary%2F%2B%3D+%C3%A4%26x"),
            "grant: Canary%2f%2b%3d+%c3%a4%26x".to_owned(),
            "url Canary%2F%2B%3D%20%C3%A4%26x".to_owned(),
            format!("plain {secret}!"),
            r#"{"echo":"Canary\/+= ä&x"}"#.to_owned(),
            "b64 Q2FuYXJ5Lys9IMOkJng=".to_owned(),
        ];
        for text in echoed {
            let clean = redact(&text, &[secret]);
            assert!(clean.contains(REDACTED), "{text} -> {clean}");
            assert!(!clean.contains("Canary"), "{text} -> {clean}");
        }
        // Short secrets are left alone; other text is kept as it was.
        assert_eq!(redact("a short s", &["s"]), "a short s");
        assert_eq!(
            redact("Bearer eyJhbGci.x.y refused", &["eyJhbGci.x.y"]),
            "Bearer [redacted] refused"
        );
    }

    #[test]
    fn debug_and_display_never_show_the_text() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "[redacted] [redacted]");
        assert_eq!(s.expose(), "hunter2");
    }
}
