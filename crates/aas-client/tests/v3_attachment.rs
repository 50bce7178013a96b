//! A File element's content from a V3 server (`…/submodel-elements/{idShortPath}/attachment`):
//! the submodel id in base64url and the idShort path encoded once, the bytes as sent (not
//! text), a refusal in the API's meaning, and a server that sends more than it may is cut
//! off rather than held.

use aas_client::{Error, Transport, V3Auth, V3Server};
use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

mod support;

const PICTURE: &[u8] = b"\x89PNG\r\n\x1a\n\xff\xfe not text";

#[tokio::test]
async fn an_attachment_comes_as_its_bytes_at_the_path_encoded_once() {
    let submodel = URL_SAFE_NO_PAD.encode("urn:sm#1");
    let app = Router::new().route(
        "/submodels/{sm}/submodel-elements/{path}/attachment",
        get(move |Path((sm, path)): Path<(String, String)>| {
            let submodel = submodel.clone();
            async move {
                match (sm == submodel, path.as_str()) {
                    (true, "Markings.Marking00[1].File") => Ok(PICTURE.to_vec()),
                    _ => Err((StatusCode::NOT_FOUND, format!("no {sm} {path}"))),
                }
            }
        }),
    );
    let (address, _) = support::serve_counting(app).await;
    let server = V3Server::new(&address, V3Auth::None, &Transport::default()).expect("server");
    let path = |p: &[&str]| p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let bytes = server
        .attachment(
            "urn:sm#1",
            None,
            &path(&["Markings", "Marking00[1]", "File"]),
        )
        .await
        .expect("the content");
    assert_eq!(bytes, PICTURE);
    let missing = server
        .attachment("urn:sm#1", None, &path(&["Nothing"]))
        .await
        .expect_err("not there");
    assert!(
        missing.to_string().contains("the server does not hold it"),
        "{missing}"
    );
}

#[tokio::test]
async fn an_attachment_larger_than_the_bound_is_cut_off() {
    let huge = Router::new().route(
        "/submodels/{sm}/submodel-elements/{path}/attachment",
        get(|| async { vec![0u8; aas_client::DEFAULT_MAX_BODY + 1] }),
    );
    let (address, _) = support::serve_counting(huge).await;
    let server = V3Server::new(&address, V3Auth::None, &Transport::default()).expect("server");
    let refused = server
        .attachment("urn:sm", None, &["File".to_owned()])
        .await
        .expect_err("too large");
    assert!(matches!(refused, Error::TooLarge { .. }), "{refused:?}");
}
