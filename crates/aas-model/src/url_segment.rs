use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Everything but RFC 3986's unreserved characters is encoded, so `#`, `/`, `:`, `?`,
/// `+`, `%`, spaces and non-ASCII all survive a trip through any server's router.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes an identifier (aasId, idShort) for use as ONE URL path segment.
/// Call it once, on the raw identifier: encoding an encoded id would double-encode `%`.
/// `.` and `..` travel as `%2E` and `%2E%2E`, so that a parser that reads only a plain
/// dot as a step in the path (RFC 3986's) leaves them alone; WHATWG's parsers read the
/// encoded form as a dot too, which the client checks before it sends.
pub fn encode_segment(id: &str) -> String {
    match id {
        "." => "%2E".to_owned(),
        ".." => "%2E%2E".to_owned(),
        _ => utf8_percent_encode(id, SEGMENT).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awkward_characters_are_encoded_once() {
        assert_eq!(
            encode_segment("urn:x:DEMO-01:aas:machine#M-0001"),
            "urn%3Ax%3ADEMO-01%3Aaas%3Amachine%23M-0001"
        );
        assert_eq!(
            encode_segment("a/b c+d%e?f&g=h"),
            "a%2Fb%20c%2Bd%25e%3Ff%26g%3Dh"
        );
        assert_eq!(encode_segment("Größe"), "Gr%C3%B6%C3%9Fe");
        assert_eq!(encode_segment("plain_id-1.2~3"), "plain_id-1.2~3");
        assert_eq!(encode_segment("."), "%2E");
        assert_eq!(encode_segment(".."), "%2E%2E");
        assert_eq!(encode_segment("..."), "...");
    }
}
