//! Identifiers in the paths of the Part 2 API: base64url of their UTF-8 bytes, without
//! padding (the specification's rule, made explicit in V3.1).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// `id` as a path segment of the Part 2 API. Its alphabet (`A–Z a–z 0–9 - _`) needs no
/// further percent-encoding, and no id becomes `.` or `..`.
pub(crate) fn encode_id(id: &str) -> String {
    URL_SAFE_NO_PAD.encode(id.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_base64url_without_padding() {
        // Ids whose bytes need `-`, `_` and padding.
        let id = "https://example.com/ids/aas/1?x=ä/~";
        let segment = encode_id(id);
        assert!(!segment.contains(['=', '+', '/']), "{segment}");
        assert_eq!(
            URL_SAFE_NO_PAD.decode(&segment).expect("base64url"),
            id.as_bytes()
        );
        assert_eq!(encode_id("a"), "YQ");
        assert_eq!(encode_id(".."), "Li4");
    }
}
