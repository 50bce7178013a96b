use std::time::Duration;

use aas_model::{
    encode_segment, parse, parse_list, AasDescriptor, AssetAdministrationShell, AssetType, Parsed,
    Submodel, SubmodelElement,
};
use reqwest::header::AUTHORIZATION;
use reqwest::StatusCode;
use serde_json::value::RawValue;

use crate::{Connection, Error, Result, Secret, TokenSource};

/// One connection to the service: a pooled HTTP client, the token cache and the
/// addresses. Cheap to share behind an `Arc`; every method may run concurrently.
#[derive(Debug)]
pub struct Client {
    http: reqwest::Client,
    conn: Connection,
    tokens: TokenSource,
}

/// Whether a request goes to the gateway, which also wants the user's token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Service {
    Registry,
    Gateway,
}

impl Client {
    pub fn new(conn: Connection) -> Result<Self> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .build()
            .map_err(|e| Error::Config(format!("cannot set up HTTP: {e}")))?;
        let tokens = TokenSource::new(http.clone(), &conn);
        Ok(Client { http, conn, tokens })
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// `GET {registry}/api/v1/registry`
    pub async fn registry(&self) -> Result<Vec<Parsed<AasDescriptor>>> {
        let url = self.conn.registry_list_url();
        Ok(parse_list(&self.get(&url, Service::Registry).await?)?)
    }

    /// `GET {gateway}/aasList?AssetType=..&PlantCode=..`
    pub async fn aas_list(
        &self,
        asset_type: AssetType,
        plant: &str,
    ) -> Result<Vec<Parsed<AssetAdministrationShell>>> {
        let mut url = reqwest::Url::parse(&self.conn.gateway(&[]))
            .map_err(|e| Error::Config(format!("gateway URL: {e}")))?;
        url.query_pairs_mut()
            .append_pair("AssetType", asset_type.code())
            .append_pair("PlantCode", plant);
        Ok(parse_list(
            &self.get(url.as_str(), Service::Gateway).await?,
        )?)
    }

    pub async fn aas(&self, aas_id: &str) -> Result<Parsed<AssetAdministrationShell>> {
        self.gateway_one(&[&encode_segment(aas_id)]).await
    }

    pub async fn submodels(&self, aas_id: &str) -> Result<Vec<Parsed<Submodel>>> {
        self.gateway_list(&[&encode_segment(aas_id), "aas", "submodels"])
            .await
    }

    pub async fn submodel(&self, aas_id: &str, submodel: &str) -> Result<Parsed<Submodel>> {
        let (aas, sm) = (encode_segment(aas_id), encode_segment(submodel));
        self.gateway_one(&[&aas, "aas", "submodels", &sm]).await
    }

    pub async fn elements(
        &self,
        aas_id: &str,
        submodel: &str,
    ) -> Result<Vec<Parsed<SubmodelElement>>> {
        let (aas, sm) = (encode_segment(aas_id), encode_segment(submodel));
        let path = [
            &*aas,
            "aas",
            "submodels",
            &sm,
            "submodel",
            "submodelElements",
        ];
        self.gateway_list(&path).await
    }

    /// One element; `path` is its idShort, or the idShorts from the outermost
    /// collection down for a nested one.
    pub async fn element(
        &self,
        aas_id: &str,
        submodel: &str,
        path: &[&str],
    ) -> Result<Parsed<SubmodelElement>> {
        let (aas, sm) = (encode_segment(aas_id), encode_segment(submodel));
        let nested: Vec<String> = path.iter().map(|p| encode_segment(p)).collect();
        let mut segments = vec![
            &*aas,
            "aas",
            "submodels",
            &sm,
            "submodel",
            "submodelElements",
        ];
        segments.extend(nested.iter().map(String::as_str));
        self.gateway_one(&segments).await
    }

    async fn gateway_one<T: serde::de::DeserializeOwned>(
        &self,
        segments: &[&str],
    ) -> Result<Parsed<T>> {
        let body = self
            .get(&self.conn.gateway(segments), Service::Gateway)
            .await?;
        let raw: Box<RawValue> = parse(&body)?;
        Ok(Parsed::new(raw))
    }

    async fn gateway_list<T: serde::de::DeserializeOwned>(
        &self,
        segments: &[&str],
    ) -> Result<Vec<Parsed<T>>> {
        let body = self
            .get(&self.conn.gateway(segments), Service::Gateway)
            .await?;
        Ok(parse_list(&body)?)
    }

    /// GETs `url` with the tokens; a 401 is retried once with a fresh access token,
    /// since the cached one may have been revoked or outlived on the server's clock.
    async fn get(&self, url: &str, service: Service) -> Result<String> {
        let token = self.tokens.token().await?;
        match self.get_once(url, service, &token).await {
            Err(Error::Api { status: 401, .. }) => {
                self.tokens.invalidate(&token).await;
                let fresh = self.tokens.token().await?;
                self.get_once(url, service, &fresh).await
            }
            other => other,
        }
    }

    async fn get_once(&self, url: &str, service: Service, token: &Secret) -> Result<String> {
        let mut request = self
            .http
            .get(url)
            .header(AUTHORIZATION, format!("Bearer {}", token.expose()));
        if service == Service::Gateway {
            request = request.header(
                "UserToken",
                format!("Bearer {}", self.conn.user_token.expose()),
            );
        }
        let response = request.send().await.map_err(|e| offline(url, e))?;
        let status = response.status();
        let body = response.text().await.map_err(|e| offline(url, e))?;
        tracing::debug!(%url, status = status.as_u16(), bytes = body.len(), "GET");
        if status == StatusCode::OK {
            Ok(body)
        } else {
            Err(Error::from_response(status.as_u16(), &body))
        }
    }
}

/// A transport failure, described without the request's headers.
pub(crate) fn offline(url: &str, e: reqwest::Error) -> Error {
    let reason = if e.is_timeout() {
        "no answer in time".to_owned()
    } else if e.is_connect() {
        "connection refused or unreachable".to_owned()
    } else {
        e.without_url().to_string()
    };
    Error::Offline {
        url: url.to_owned(),
        reason,
    }
}
