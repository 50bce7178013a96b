//! The plants as an AAS V3 server: the read routes of the AAS Part 2 API V3.0 (profiles
//! AAS Repository, Submodel Repository and AAS Registry, SSP-002) under [`V3_PREFIX`], without sign-in
//! so that a V3 source can be tried with no account (or, asked to, with an access token
//! of its token endpoint: [`signed_in`]). They serve what the customers
//! share with the first application, as the gateway does; each shell and submodel is
//! converted from the V2 JSON the gateway serves when asked for (aas-v3), so an admin's
//! change shows on both and the plant is not held twice.

mod content;
mod items;
mod query;
mod registry;

use std::sync::Arc;

use axum::extract::rejection::RawPathParamsRejection;
use axum::extract::{RawPathParams, RawQuery, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::AppState;
use content::Step;
use items::Items;
use query::Params;

/// Where the Part 2 routes are: the base path BaSyx and FA³ST servers use for V3.0.
pub(crate) const V3_PREFIX: &str = "/api/v3.0";

/// The most shells and submodels one `/serialization` answer holds.
const SERIALIZED_MAX: usize = 20_000;

/// The service profiles [`description`] names.
const PROFILES: [&str; 3] = [
    "https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRepositoryServiceSpecification/SSP-002",
    "https://admin-shell.io/aas/API/3/0/SubmodelRepositoryServiceSpecification/SSP-002",
    "https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRegistryServiceSpecification/SSP-002",
];

type Shared = State<Arc<AppState>>;
type Path = Result<RawPathParams, RawPathParamsRejection>;
type Answer = Result<Response, V3Error>;

/// With sign-in (`Config::v3_sign_in`): an access token of the application served,
/// from the token endpoint; refusals in the API's `Result` shape.
pub(super) async fn signed_in(State(s): Shared, req: Request, next: Next) -> Answer {
    let unauthorized = |text: String| {
        let mut refused = V3Error::new(StatusCode::UNAUTHORIZED, text).into_response();
        (refused.headers_mut())
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        refused
    };
    let Some(token) = super::middleware::bearer(req.headers(), header::AUTHORIZATION) else {
        return Ok(unauthorized(
            "this server wants an access token (Authorization: Bearer) from its token endpoint"
                .into(),
        ));
    };
    match s.issuer.verify_access(token) {
        Err(e) => Ok(unauthorized(format!(
            "the access token was refused: {}",
            e.0
        ))),
        Ok(claims) if s.v3_client.as_deref() != Some(claims.azp.as_str()) => Err(V3Error::new(
            StatusCode::FORBIDDEN,
            "this server serves another application's shares",
        )),
        Ok(_) => Ok(next.run(req).await),
    }
}

/// A content modifier: the object, or only its `$metadata`, `$value`, `$reference` or
/// `$path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    Normal,
    Metadata,
    Value,
    Reference,
    Path,
}

impl Content {
    const MODIFIED: [(Content, &'static str); 4] = [
        (Content::Metadata, "/$metadata"),
        (Content::Value, "/$value"),
        (Content::Reference, "/$reference"),
        (Content::Path, "/$path"),
    ];
}

pub(super) fn routes() -> Router<Arc<AppState>> {
    let mut router = Router::new()
        .route("/description", get(description))
        .route("/serialization", get(serialization))
        .route("/shells", get(|s, q| shells(s, q, Content::Normal)))
        .route(
            "/shells/$reference",
            get(|s, q| shells(s, q, Content::Reference)),
        )
        .route("/shells/{aas}", get(|s, p| shell(s, p, Content::Normal)))
        .route(
            "/shells/{aas}/$reference",
            get(|s, p| shell(s, p, Content::Reference)),
        )
        .route("/shells/{aas}/asset-information", get(asset_information))
        .route(
            "/shells/{aas}/asset-information/thumbnail",
            get(|| async { V3Error::not_found("the shell has no thumbnail") }),
        )
        .route("/shells/{aas}/submodel-refs", get(submodel_refs))
        .route("/shell-descriptors", get(registry::descriptors))
        .route("/shell-descriptors/{aas}", get(registry::shell_descriptor))
        .route(
            "/shell-descriptors/{aas}/submodel-descriptors",
            get(registry::submodel_descriptors),
        )
        .route(
            "/shell-descriptors/{aas}/submodel-descriptors/{sm}",
            get(registry::submodel_descriptor),
        )
        .route("/submodels", get(|s, q| submodels(s, q, Content::Normal)));
    for (content, suffix) in Content::MODIFIED {
        router = router.route(
            &format!("/submodels{suffix}"),
            get(move |s, q| submodels(s, q, content)),
        );
    }
    // A shell's submodel answers as the submodel does, once the shell names it.
    for base in ["/submodels/{sm}", "/shells/{aas}/submodels/{sm}"] {
        let elements = format!("{base}/submodel-elements");
        let element = format!("{elements}/{{path}}");
        router = router
            .route(base, get(|s, p, q| submodel(s, p, q, Content::Normal)))
            .route(
                &elements,
                get(|s, p, q| elements_of(s, p, q, Content::Normal)),
            )
            .route(
                &element,
                get(|s, p, q| element_at(s, p, q, Content::Normal)),
            )
            .route(
                &format!("{element}/attachment"),
                get(|| async { V3Error::not_found("the demo plant holds no attachments") }),
            );
        for (content, suffix) in Content::MODIFIED {
            router = router
                .route(
                    &format!("{base}{suffix}"),
                    get(move |s, p, q| submodel(s, p, q, content)),
                )
                .route(
                    &format!("{elements}{suffix}"),
                    get(move |s, p, q| elements_of(s, p, q, content)),
                )
                .route(
                    &format!("{element}{suffix}"),
                    get(move |s, p, q| element_at(s, p, q, content)),
                );
        }
    }
    router.fallback(|| async { V3Error::not_found("this server offers no such route") })
}

/// An error answer in the Part 2 API's `Result` shape.
#[derive(Debug)]
pub(crate) struct V3Error {
    status: StatusCode,
    text: String,
}

impl V3Error {
    fn new(status: StatusCode, text: impl Into<String>) -> Self {
        V3Error {
            status,
            text: text.into(),
        }
    }

    fn bad_request(text: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, text)
    }

    fn not_found(text: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, text)
    }
}

impl IntoResponse for V3Error {
    fn into_response(self) -> Response {
        let message = json!({
            "code": self.status.as_u16().to_string(),
            "messageType": "Error",
            "text": self.text,
        });
        (self.status, Json(json!({ "messages": [message] }))).into_response()
    }
}

fn answer(value: Value) -> Answer {
    Ok(Json(value).into_response())
}

/// A page of `items` as the paging parameters ask, in the Part 2 API's paged shape.
fn paged(items: impl IntoIterator<Item = Value>, params: &Params) -> Answer {
    paged_lazily(items.into_iter(), params, Ok)
}

/// A page of `items`, each made into its answer by `make` once it is on the page: the
/// items before the cursor and after the page are never made.
fn paged_lazily<T>(
    items: impl Iterator<Item = T>,
    params: &Params,
    make: impl Fn(T) -> Result<Value, V3Error>,
) -> Answer {
    let (start, limit) = (params.cursor()?, params.limit()?);
    let mut items = items.skip(start);
    let page: Vec<T> = items.by_ref().take(limit.unwrap_or(usize::MAX)).collect();
    let mut metadata = serde_json::Map::new();
    // The cursor is the position of the next item: given only when there is one.
    if items.next().is_some() {
        let next = start + page.len();
        metadata.insert("cursor".into(), Value::String(next.to_string()));
    }
    let result = page.into_iter().map(make).collect::<Result<Vec<_>, _>>()?;
    answer(json!({"paging_metadata": metadata, "result": result}))
}

/// The named path parameter, decoded once (axum decoded it from the URL).
fn param<'p>(path: &'p Path, name: &str) -> Result<Option<&'p str>, V3Error> {
    let path = path
        .as_ref()
        .map_err(|e| V3Error::bad_request(format!("the path cannot be read: {e}")))?;
    Ok(path.iter().find(|(n, _)| *n == name).map(|(_, v)| v))
}

async fn description() -> Answer {
    answer(json!({ "profiles": PROFILES }))
}

async fn shells(State(s): Shared, RawQuery(q): RawQuery, content: Content) -> Answer {
    let params = Params::parse(q.as_deref())?;
    let id_short = params.one("idShort");
    let asset_ids = params.asset_ids()?;
    let items = Items::new(&s);
    let shown = |shell: Value| match content {
        Content::Reference => content::reference(
            "AssetAdministrationShell",
            shell["id"].as_str().unwrap_or_default(),
        ),
        _ => shell,
    };
    if id_short.is_none() && asset_ids.is_empty() {
        return paged_lazily(items.shell_sources(), &params, |source| {
            source.v3().map(shown)
        });
    }
    let mut wanted = Vec::new();
    for shell in items.shells() {
        let shell = shell?;
        let named = id_short.is_none_or(|want| shell["idShort"] == want);
        if named
            && asset_ids
                .iter()
                .all(|(name, value)| items::has_asset_id(&shell, name, value))
        {
            wanted.push(shown(shell));
        }
    }
    paged(wanted, &params)
}

async fn shell(State(s): Shared, path: Path, content: Content) -> Answer {
    let shell = Items::new(&s).shell(param(&path, "aas")?.unwrap_or_default())?;
    answer(match content {
        Content::Reference => content::reference(
            "AssetAdministrationShell",
            shell["id"].as_str().unwrap_or_default(),
        ),
        _ => shell,
    })
}

async fn asset_information(State(s): Shared, path: Path) -> Answer {
    let shell = Items::new(&s).shell(param(&path, "aas")?.unwrap_or_default())?;
    answer(shell["assetInformation"].clone())
}

async fn submodel_refs(State(s): Shared, path: Path, RawQuery(q): RawQuery) -> Answer {
    let params = Params::parse(q.as_deref())?;
    let shell = Items::new(&s).shell(param(&path, "aas")?.unwrap_or_default())?;
    let refs = shell["submodels"].as_array().cloned().unwrap_or_default();
    paged(refs, &params)
}

async fn submodels(State(s): Shared, RawQuery(q): RawQuery, content: Content) -> Answer {
    let params = Params::parse(q.as_deref())?;
    let (level, extent) = (params.level()?, params.extent()?);
    let id_short = params.one("idShort");
    let semantic_id = params.semantic_id()?;
    let items = Items::new(&s);
    // One answer a submodel: paged over the submodels, each converted once on its page.
    let one = |submodel: Value| match content {
        Content::Metadata => content::metadata(&submodel).unwrap_or_default(),
        Content::Value => content::submodel_value(&content::shaped(&submodel, level, extent)),
        Content::Reference => submodel_reference(&submodel),
        _ => content::shaped(&submodel, level, extent),
    };
    if id_short.is_none() && semantic_id.is_none() && content != Content::Path {
        return paged_lazily(items.submodel_sources(), &params, |source| {
            source.v3().map(one)
        });
    }
    let mut wanted = Vec::new();
    for submodel in items.submodels() {
        let submodel = submodel?;
        if id_short.is_some_and(|want| submodel["idShort"] != want)
            || semantic_id
                .as_ref()
                .is_some_and(|want| &submodel["semanticId"] != want)
        {
            continue;
        }
        match content {
            // `$path` pages over the paths, not the submodels.
            Content::Path => wanted.extend(
                content::paths(elements(&submodel), None, false, level)
                    .into_iter()
                    .map(Value::String),
            ),
            _ => wanted.push(one(submodel)),
        }
    }
    paged(wanted, &params)
}

/// The submodel's elements as `level` and `extent` ask (with `Core`, without their
/// children).
fn shaped_elements(submodel: &Value, level: content::Level, extent: content::Extent) -> Vec<Value> {
    let shaped = content::shaped(submodel, level, extent);
    elements(&shaped).to_vec()
}

fn submodel_reference(submodel: &Value) -> Value {
    content::reference("Submodel", submodel["id"].as_str().unwrap_or_default())
}

fn elements(submodel: &Value) -> &[Value] {
    submodel["submodelElements"]
        .as_array()
        .map_or(&[], Vec::as_slice)
}

/// What a route of a submodel is asked: its parameters, `level` and `extent`, and the
/// submodel the path names.
struct Asked {
    params: Params,
    level: content::Level,
    extent: content::Extent,
    submodel: Value,
}

fn asked(s: &AppState, path: &Path, query: Option<&str>) -> Result<Asked, V3Error> {
    let params = Params::parse(query)?;
    Ok(Asked {
        level: params.level()?,
        extent: params.extent()?,
        submodel: submodel_of(s, path)?,
        params,
    })
}

/// The submodel the path names, directly or as one the shell it names refers to.
fn submodel_of(s: &AppState, path: &Path) -> Result<Value, V3Error> {
    let items = Items::new(s);
    let id = param(path, "sm")?.unwrap_or_default();
    match param(path, "aas")? {
        Some(aas) => items.shells_submodel(aas, id),
        None => items.submodel(id),
    }
}

async fn submodel(State(s): Shared, path: Path, RawQuery(q): RawQuery, content: Content) -> Answer {
    let Asked {
        level,
        extent,
        submodel,
        ..
    } = asked(&s, &path, q.as_deref())?;
    answer(match content {
        Content::Normal => content::shaped(&submodel, level, extent),
        Content::Metadata => content::metadata(&submodel).unwrap_or_default(),
        Content::Value => content::submodel_value(&content::shaped(&submodel, level, extent)),
        Content::Reference => submodel_reference(&submodel),
        Content::Path => json!(content::paths(elements(&submodel), None, false, level)),
    })
}

async fn elements_of(
    State(s): Shared,
    path: Path,
    RawQuery(q): RawQuery,
    content: Content,
) -> Answer {
    let Asked {
        params,
        level,
        extent,
        submodel,
    } = asked(&s, &path, q.as_deref())?;
    let id = submodel["id"].as_str().unwrap_or_default();
    let elements = elements(&submodel);
    let wanted: Vec<Value> = match content {
        // The submodel's direct children, as the submodel itself answers them.
        Content::Normal => shaped_elements(&submodel, level, extent),
        Content::Metadata => elements.iter().filter_map(content::metadata).collect(),
        Content::Value => (shaped_elements(&submodel, level, extent).iter())
            .filter_map(content::element_value)
            .collect(),
        Content::Reference => (elements.iter())
            .map(|e| {
                let name = e["idShort"].as_str().unwrap_or_default();
                content::element_reference(id, &[e], &[Step::Name(name.to_owned())])
            })
            .collect(),
        Content::Path => (content::paths(elements, None, false, level).into_iter())
            .map(Value::String)
            .collect(),
    };
    paged(wanted, &params)
}

async fn element_at(
    State(s): Shared,
    path: Path,
    RawQuery(q): RawQuery,
    content: Content,
) -> Answer {
    let Asked {
        level,
        extent,
        submodel,
        ..
    } = asked(&s, &path, q.as_deref())?;
    let text = param(&path, "path")?.unwrap_or_default();
    let steps = content::id_short_path(text)
        .ok_or_else(|| V3Error::bad_request(format!("{text:?} is not an idShort path")))?;
    let trail = content::find(&submodel, &steps)
        .ok_or_else(|| V3Error::not_found(format!("the submodel has no element {text}")))?;
    let element = *trail.last().expect("a path has a step");
    let kind = element["modelType"].as_str().unwrap_or("element");
    answer(match content {
        Content::Normal => content::shaped(element, level, extent),
        Content::Metadata => content::metadata(element).ok_or_else(|| {
            V3Error::bad_request(format!("a {kind} has no metadata apart from itself"))
        })?,
        Content::Value => content::element_value(&content::shaped(element, level, extent))
            .ok_or_else(|| V3Error::bad_request(format!("a {kind} holds no value")))?,
        Content::Reference => {
            content::element_reference(submodel["id"].as_str().unwrap_or_default(), &trail, &steps)
        }
        Content::Path if content::has_paths(element) => {
            let list = kind == "SubmodelElementList";
            let children = content::children(element);
            let mut paths = vec![text.to_owned()];
            paths.extend(content::paths(children, Some(text), list, level));
            json!(paths)
        }
        Content::Path => {
            return Err(V3Error::bad_request(format!(
                "a {kind} holds no elements, so it has no paths"
            )))
        }
    })
}

async fn serialization(State(s): Shared, RawQuery(q): RawQuery) -> Answer {
    let params = Params::parse(q.as_deref())?;
    let aas_ids = params.ids("aasIds")?;
    let submodel_ids = params.ids("submodelIds")?;
    // The demo plant holds no concept descriptions: the parameter is read, not used.
    params.flag("includeConceptDescriptions")?;
    let items = Items::new(&s);
    let everything = aas_ids.is_empty() && submodel_ids.is_empty();
    // The whole server in one answer is built in memory: bounded, the rest by ids.
    let served = if everything {
        items.shell_sources().count() + items.submodel_sources().count()
    } else {
        aas_ids.len() + submodel_ids.len()
    };
    if served > SERIALIZED_MAX {
        return Err(V3Error::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{served} shells and submodels are more than one answer holds here ({SERIALIZED_MAX}): name them with aasIds and submodelIds"),
        ));
    }
    let shells: Vec<Value> = if everything {
        items.shells().collect::<Result<_, _>>()?
    } else {
        (aas_ids.iter())
            .map(|id| items.shell_by_id(id))
            .collect::<Result<_, _>>()?
    };
    let submodels: Vec<Value> = if everything {
        items.submodels().collect::<Result<_, _>>()?
    } else {
        (submodel_ids.iter())
            .map(|id| items.submodel_by_id(id))
            .collect::<Result<_, _>>()?
    };
    // Empty lists are left out: the schema wants a list to hold something.
    let mut environment = serde_json::Map::new();
    for (name, list) in [
        ("assetAdministrationShells", shells),
        ("submodels", submodels),
    ] {
        if !list.is_empty() {
            environment.insert(name.into(), Value::Array(list));
        }
    }
    answer(Value::Object(environment))
}
