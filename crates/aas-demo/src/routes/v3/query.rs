//! A Part 2 request's query parameters, read by hand: a refusal must be the API's error
//! body, which axum's own extractors do not give.

use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;
use serde_json::Value;

use super::content::{Extent, Level};
use super::V3Error;

/// Identifiers are base64url without padding; a padded one is read too.
const ID: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The identifier a path or query parameter names (base64url of its UTF-8).
pub(super) fn decode_id(text: &str) -> Result<String, V3Error> {
    ID.decode(text)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| V3Error::bad_request(format!("{text:?} is not an identifier in base64url")))
}

/// `id` as a path names it: base64url of its UTF-8, without padding.
pub(super) fn encode_id(id: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id)
}

#[derive(Debug)]
pub(super) struct Params(Vec<(String, String)>);

impl Params {
    pub fn parse(query: Option<&str>) -> Result<Self, V3Error> {
        let query = query.unwrap_or_default();
        Ok(Params(
            form_urlencoded::parse(query.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        ))
    }

    pub fn one(&self, name: &str) -> Option<&str> {
        (self.0.iter())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn all<'p>(&'p self, name: &'p str) -> impl Iterator<Item = &'p str> + 'p {
        (self.0.iter())
            .filter(move |(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `limit`: how many items a page holds at most (at least one).
    pub fn limit(&self) -> Result<Option<usize>, V3Error> {
        self.one("limit")
            .map(|text| match text.parse::<i64>() {
                Ok(n) if n >= 1 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
                _ => Err(V3Error::bad_request(format!(
                    "limit {text:?} is not a positive whole number"
                ))),
            })
            .transpose()
    }

    /// `cursor`: where the page starts, as the previous page's `paging_metadata` said.
    pub fn cursor(&self) -> Result<usize, V3Error> {
        self.one("cursor").map_or(Ok(0), |text| {
            text.parse().map_err(|_| {
                V3Error::bad_request(format!("cursor {text:?} is not one this server gave"))
            })
        })
    }

    pub fn level(&self) -> Result<Level, V3Error> {
        match self.one("level") {
            None | Some("deep") => Ok(Level::Deep),
            Some("core") => Ok(Level::Core),
            Some(other) => Err(V3Error::bad_request(format!(
                "level {other:?} is neither deep nor core"
            ))),
        }
    }

    pub fn extent(&self) -> Result<Extent, V3Error> {
        match self.one("extent") {
            None | Some("withoutBlobValue") => Ok(Extent::WithoutBlobValue),
            Some("withBlobValue") => Ok(Extent::WithBlobValue),
            Some(other) => Err(V3Error::bad_request(format!(
                "extent {other:?} is neither withBlobValue nor withoutBlobValue"
            ))),
        }
    }

    /// A yes-or-no parameter (`true`/`false`, in any case).
    pub fn flag(&self, name: &str) -> Result<Option<bool>, V3Error> {
        self.one(name)
            .map(|text| match text.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(V3Error::bad_request(format!(
                    "{name} {text:?} is neither true nor false"
                ))),
            })
            .transpose()
    }

    /// The identifiers a list parameter names: repeated, or separated by commas.
    pub fn ids(&self, name: &str) -> Result<Vec<String>, V3Error> {
        (self.all(name))
            .flat_map(|v| v.split(','))
            .filter(|v| !v.is_empty())
            .map(decode_id)
            .collect()
    }

    /// `assetIds`: each a SpecificAssetId's JSON in base64url; `(name, value)` pairs.
    pub fn asset_ids(&self) -> Result<Vec<(String, String)>, V3Error> {
        (self.all("assetIds"))
            .map(|text| {
                let json = decode_id(text)?;
                let id: Value = serde_json::from_str(&json).ok().unwrap_or_default();
                match (id["name"].as_str(), id["value"].as_str()) {
                    (Some(name), Some(value)) => Ok((name.to_owned(), value.to_owned())),
                    _ => Err(V3Error::bad_request(
                        "assetIds holds a SpecificAssetId's JSON {name, value} in base64url",
                    )),
                }
            })
            .collect()
    }

    /// `semanticId`: a Reference's JSON in base64url.
    pub fn semantic_id(&self) -> Result<Option<Value>, V3Error> {
        self.one("semanticId")
            .map(|text| {
                serde_json::from_str(&decode_id(text)?).map_err(|_| {
                    V3Error::bad_request("semanticId holds a Reference's JSON in base64url")
                })
            })
            .transpose()
    }
}
