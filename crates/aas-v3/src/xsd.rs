//! XSD value types as AAS V3.0 names them (`xs:anyURI`, …): the V2.0.1 name each maps
//! to, and whether a value is in a type's lexical space, as V3.0's constraint AASd-020
//! (a value consistent with its valueType) wants. Where a check here is stricter than
//! XSD, a value only falls back to `xs:string` with a line in the report; it is never
//! let through wrongly.

use std::sync::LazyLock;

use regex::Regex;

/// The value types of AAS V3.0 (`DataTypeDefXsd`).
const V3_TYPES: [&str; 30] = [
    "xs:anyURI",
    "xs:base64Binary",
    "xs:boolean",
    "xs:byte",
    "xs:date",
    "xs:dateTime",
    "xs:decimal",
    "xs:double",
    "xs:duration",
    "xs:float",
    "xs:gDay",
    "xs:gMonth",
    "xs:gMonthDay",
    "xs:gYear",
    "xs:gYearMonth",
    "xs:hexBinary",
    "xs:int",
    "xs:integer",
    "xs:long",
    "xs:negativeInteger",
    "xs:nonNegativeInteger",
    "xs:nonPositiveInteger",
    "xs:positiveInteger",
    "xs:short",
    "xs:string",
    "xs:time",
    "xs:unsignedByte",
    "xs:unsignedInt",
    "xs:unsignedLong",
    "xs:unsignedShort",
];

/// V2.0.1 types with no V3.0 type of their own that one V3.0 type holds entirely.
const MERGED: [(&str, &str); 3] = [
    ("dateTimeStamp", "xs:dateTime"),
    ("dayTimeDuration", "xs:duration"),
    ("yearMonthDuration", "xs:duration"),
];

/// The V3.0 name (`xs:…`) of a V2 value type, read case-insensitively with or without
/// a prefix (`int`, `Int`, `xsd:int`); `None` when V3.0 has none (`langString`,
/// `token`, `anyType`, a typo).
pub fn v3_name(v2: &str) -> Option<&'static str> {
    let bare = v2.rsplit_once(':').map_or(v2, |(_, name)| name).trim();
    let same = |name: &str| name.eq_ignore_ascii_case(bare);
    V3_TYPES
        .into_iter()
        .find(|name| name.strip_prefix("xs:").is_some_and(same))
        .or_else(|| {
            MERGED
                .into_iter()
                .find(|(from, _)| same(from))
                .map(|(_, to)| to)
        })
}

/// The string type every value fits (but for characters XML cannot carry).
pub const STRING: &str = "xs:string";

/// Whether `value` is in the lexical space of `v3` (an `xs:` name from [`v3_name`]).
pub fn fits(v3: &str, value: &str) -> bool {
    let name = v3.strip_prefix("xs:").unwrap_or(v3);
    match name {
        "string" => true,
        "boolean" => matches!(value, "true" | "false" | "1" | "0"),
        "decimal" => matches(&DECIMAL, value),
        "double" => real(value, f64::MAX),
        "float" => real(value, f32::MAX as f64),
        "integer" => matches(&INTEGER, value),
        "long" => integer_within(value, i64::MIN as i128, i64::MAX as i128),
        "int" => integer_within(value, i32::MIN as i128, i32::MAX as i128),
        "short" => integer_within(value, i16::MIN as i128, i16::MAX as i128),
        "byte" => integer_within(value, i8::MIN as i128, i8::MAX as i128),
        "unsignedLong" => integer_within(value, 0, u64::MAX as i128),
        "unsignedInt" => integer_within(value, 0, u32::MAX as i128),
        "unsignedShort" => integer_within(value, 0, u16::MAX as i128),
        "unsignedByte" => integer_within(value, 0, u8::MAX as i128),
        "nonNegativeInteger" => sign_fits(value, |d| d.starts_with('-') && !zero(d)),
        "positiveInteger" => sign_fits(value, |d| d.starts_with('-') || zero(d)),
        "nonPositiveInteger" => sign_fits(value, |d| !d.starts_with('-') && !zero(d)),
        "negativeInteger" => sign_fits(value, |d| !d.starts_with('-') || zero(d)),
        "date" => date_of(value, &DATE).is_some_and(real_date),
        "dateTime" => date_of(value, &DATE_TIME).is_some_and(real_date),
        "time" => matches(&TIME, value),
        "gYear" => matches(&G_YEAR, value),
        "gYearMonth" => matches(&G_YEAR_MONTH, value),
        "gMonth" => matches(&G_MONTH, value),
        "gMonthDay" => {
            matches(&G_MONTH_DAY, value) && {
                let (month, day) = (&value[2..4], &value[5..7]);
                day.parse::<u32>()
                    .is_ok_and(|d| d <= days_in(month.parse().unwrap_or(0), true))
            }
        }
        "gDay" => matches(&G_DAY, value),
        "duration" => matches(&DURATION, value),
        "hexBinary" => {
            value.len().is_multiple_of(2) && value.bytes().all(|b| b.is_ascii_hexdigit())
        }
        "base64Binary" => matches(&BASE64, value),
        "anyURI" => matches(&ANY_URI, value),
        _ => false,
    }
}

/// Whether `text` holds only characters XML 1.0 can carry (V3.0 wants every string so).
pub fn xml_safe(text: &str) -> bool {
    text.chars().all(xml_char)
}

/// Whether XML 1.0 can carry `c`.
pub fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether `text` is a media type (`type/subtype; name=value`, RFC 9110), as V3.0
/// wants a content type.
pub fn mime_type(text: &str) -> bool {
    matches(&MIME_TYPE, text)
}

fn matches(pattern: &Regex, value: &str) -> bool {
    pattern.is_match(value)
}

fn zero(digits: &str) -> bool {
    digits
        .trim_start_matches(['+', '-'])
        .bytes()
        .all(|b| b == b'0')
}

/// An integer whose sign `wrong` does not reject.
fn sign_fits(value: &str, wrong: impl Fn(&str) -> bool) -> bool {
    matches(&INTEGER, value) && !wrong(value)
}

fn integer_within(value: &str, min: i128, max: i128) -> bool {
    matches(&INTEGER, value)
        && value
            .parse::<i128>()
            .is_ok_and(|n| (min..=max).contains(&n))
}

/// `INF`, `-INF`, `NaN`, or a number that does not overflow the type.
fn real(value: &str, max: f64) -> bool {
    matches!(value, "INF" | "-INF" | "NaN")
        || (matches(&REAL, value) && value.parse::<f64>().is_ok_and(|x| x.abs() <= max))
}

/// The year, month and day of a date (or date and time) of the form `pattern` matches.
fn date_of(value: &str, pattern: &Regex) -> Option<(i64, u32, u32)> {
    let found = pattern.captures(value)?;
    let number = |name| found.name(name)?.as_str().parse::<i64>().ok();
    let small = |name| u32::try_from(number(name)?).ok();
    Some((number("year")?, small("month")?, small("day")?))
}

/// A day that exists (no 30 February), in a year other than 0, which XSD 1.0 lacks.
fn real_date((year, month, day): (i64, u32, u32)) -> bool {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    year != 0 && day >= 1 && day <= days_in(month, leap)
}

fn days_in(month: u32, leap: bool) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    }
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a fixed pattern")
}

// The lexical forms of XSD 1.1 part 2, written as regular expressions.
const TZ: &str = r"(Z|[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00))?";
const YEAR: &str = r"(?P<year>-?([1-9][0-9]{3,}|0[0-9]{3}))";
const MONTH_DAY: &str = r"(?P<month>0[1-9]|1[0-2])-(?P<day>0[1-9]|[12][0-9]|3[01])";
const CLOCK: &str = r"(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?|24:00:00(\.0+)?)";

static DECIMAL: LazyLock<Regex> = LazyLock::new(|| regex(r"^[+-]?([0-9]+(\.[0-9]+)?|\.[0-9]+)$"));
static INTEGER: LazyLock<Regex> = LazyLock::new(|| regex(r"^[+-]?[0-9]+$"));
static REAL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([Ee][+-]?[0-9]+)?$"));
static DATE: LazyLock<Regex> = LazyLock::new(|| regex(&format!("^{YEAR}-{MONTH_DAY}{TZ}$")));
static DATE_TIME: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!("^{YEAR}-{MONTH_DAY}T{CLOCK}{TZ}$")));
static TIME: LazyLock<Regex> = LazyLock::new(|| regex(&format!("^{CLOCK}{TZ}$")));
static G_YEAR: LazyLock<Regex> = LazyLock::new(|| regex(&format!("^{YEAR}{TZ}$")));
static G_YEAR_MONTH: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!("^{YEAR}-(0[1-9]|1[0-2]){TZ}$")));
static G_MONTH: LazyLock<Regex> = LazyLock::new(|| regex(&format!("^--(0[1-9]|1[0-2]){TZ}$")));
static G_MONTH_DAY: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!("^--(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]){TZ}$")));
static G_DAY: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!("^---(0[1-9]|[12][0-9]|3[01]){TZ}$")));
static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    let time = r"T(([0-9]+H)([0-9]+M)?([0-9]+(\.[0-9]+)?S)?|([0-9]+M)([0-9]+(\.[0-9]+)?S)?|([0-9]+(\.[0-9]+)?S))";
    let date = r"([0-9]+Y([0-9]+M)?([0-9]+D)?|([0-9]+M)([0-9]+D)?|([0-9]+D))";
    regex(&format!("^-?P(({date}({time})?)|({time}))$"))
});
/// Canonical base64 without line breaks (stricter than XSD, which allows spaces).
static BASE64: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=|[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{4}))?$",
    )
});
/// An absolute URI of RFC 3986's unreserved, reserved and percent-encoded characters;
/// relative references and IRIs fall back to `xs:string`.
static ANY_URI: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"^[A-Za-z][A-Za-z0-9+.-]*:([A-Za-z0-9\-._~:/?#@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
});

static MIME_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    let token = r"[!#$%&'*+\-.^_`|~0-9a-zA-Z]+";
    let quoted = r#""([\t !#-\[\]-~]|\\[\t !-~])*""#;
    regex(&format!(
        r"^{token}/{token}([ \t]*;[ \t]*{token}=({token}|{quoted}))*$"
    ))
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v2_names_map_to_the_exact_v3_spelling() {
        for (v2, v3) in [
            ("anyUri", Some("xs:anyURI")),
            ("dateTimeStamp", Some("xs:dateTime")),
            ("dayTimeDuration", Some("xs:duration")),
            ("String", Some("xs:string")),
            ("xsd:int", Some("xs:int")),
            ("unsignedlong", Some("xs:unsignedLong")),
            ("langString", None),
            ("token", None),
            ("", None),
        ] {
            assert_eq!(v3_name(v2), v3, "{v2}");
        }
    }

    #[test]
    fn values_are_judged_by_their_type() {
        let yes = [
            ("xs:int", "2023"),
            ("xs:int", "-2147483648"),
            ("xs:byte", "+007"),
            ("xs:unsignedLong", "18446744073709551615"),
            ("xs:integer", "123456789012345678901234567890"),
            ("xs:nonNegativeInteger", "-0"),
            ("xs:double", "1.5E3"),
            ("xs:double", "-INF"),
            ("xs:float", "3.4e38"),
            ("xs:decimal", ".5"),
            ("xs:boolean", "1"),
            ("xs:date", "2024-02-29"),
            ("xs:dateTime", "2023-05-01T12:00:00.5+02:00"),
            ("xs:dateTime", "2023-05-01T24:00:00Z"),
            ("xs:time", "08:30:00"),
            ("xs:gYear", "2023"),
            ("xs:gMonthDay", "--02-29"),
            ("xs:duration", "P1Y2MT3.5S"),
            (
                "xs:anyURI",
                "https://admin-shell.io/zvei/nameplate/1/0/Nameplate",
            ),
            ("xs:anyURI", "urn:demo:a%20b#frag"),
            ("xs:hexBinary", "0aFF"),
            ("xs:base64Binary", "aGVsbG8="),
        ];
        let no = [
            ("xs:int", "2147483648"),
            ("xs:int", "12.0"),
            ("xs:int", ""),
            ("xs:unsignedByte", "-1"),
            ("xs:positiveInteger", "0"),
            ("xs:negativeInteger", "+5"),
            ("xs:double", "1,5"),
            ("xs:double", "1e999"),
            ("xs:float", "1e39"),
            ("xs:double", "inf"),
            ("xs:boolean", "TRUE"),
            ("xs:date", "2023-02-29"),
            ("xs:date", "0000-01-01"),
            ("xs:date", "23.05.2023"),
            ("xs:dateTime", "2023-05-01 12:00:00"),
            ("xs:gMonthDay", "--02-30"),
            ("xs:duration", "P"),
            ("xs:duration", "PT"),
            ("xs:anyURI", "not a uri"),
            ("xs:anyURI", "relative/path"),
            ("xs:hexBinary", "abc"),
            ("xs:base64Binary", "a"),
        ];
        for (t, v) in yes {
            assert!(fits(t, v), "{v:?} is a {t}");
        }
        for (t, v) in no {
            assert!(!fits(t, v), "{v:?} is not a {t}");
        }
    }

    #[test]
    fn control_characters_are_not_xml() {
        assert!(xml_safe("tab\tand newline\n, ü, 😀"));
        assert!(!xml_safe("bell\u{7}"));
        assert!(!xml_safe("\u{FFFE}"));
    }
}
