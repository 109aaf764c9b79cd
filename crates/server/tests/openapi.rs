//! The OpenAPI document lists every route the router serves, and only those, and the server
//! serves it at `/api/openapi.json`; schemathesis (`.ci/schemathesis`) checks the answers.

mod common;

use common::TestServer;
use reqwest::StatusCode;
use serde_json::Value;
use std::collections::BTreeSet;

/// Every (method, path) the document describes.
fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let paths = doc["paths"].as_object().expect("the document has paths");
    paths
        .iter()
        .flat_map(|(path, item)| {
            let methods = item.as_object().expect("a path item is an object");
            methods
                .keys()
                .filter(|m| m.as_str() != "parameters")
                .map(move |m| (m.to_uppercase(), path.clone()))
        })
        .collect()
}

#[test]
fn the_document_lists_every_route_the_router_serves_and_no_other() {
    let doc = bluffchess_server::openapi::document();
    let documented = documented(&doc);
    let served: BTreeSet<(String, String)> = bluffchess_server::served_routes()
        .into_iter()
        .map(|(method, path)| (method.to_string(), path.to_string()))
        .collect();
    let undocumented: Vec<_> = served.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "served, not documented: {undocumented:?}"
    );
    let unserved: Vec<_> = documented.difference(&served).collect();
    assert!(unserved.is_empty(), "documented, not served: {unserved:?}");
}

#[test]
fn every_operation_documents_its_refusals_and_each_path_parameter() {
    let doc = bluffchess_server::openapi::document();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let refusals = &operation["responses"]["4XX"]["content"]["application/json"];
            assert!(refusals.is_object(), "{method} {path}: no 4XX refusal");
            let names: Vec<&str> = operation["parameters"]
                .as_array()
                .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
                .unwrap_or_default();
            for segment in path.split('/').filter(|s| s.starts_with('{')) {
                let name = segment.trim_matches(|c| c == '{' || c == '}');
                assert!(
                    names.contains(&name),
                    "{method} {path}: {name} undocumented"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_server_serves_its_document() {
    let mut ts = TestServer::start("openapi").await;
    let (status, served) = ts.get("/api/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(served, bluffchess_server::openapi::document());
    assert!(served["openapi"].as_str().unwrap().starts_with("3."));
    ts.stop().await;
}
