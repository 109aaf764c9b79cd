//! The routes of the browser client: its embedded files with their ETags, the rules pages, the
//! table of variants and finished games' replays.

mod common;

use bluffchess_rules::registry::VARIANTS;
use common::*;
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variants_table_is_the_registry() {
    let mut ts = TestServer::start("web-variants").await;
    let (status, answer) = ts.get("/api/variants", None).await;
    assert_eq!(status, StatusCode::OK);
    let list = answer["variants"].as_array().unwrap();
    assert_eq!(list.len(), VARIANTS.len());
    for (got, spec) in list.iter().zip(VARIANTS) {
        assert_eq!(got["id"], spec.id);
        assert_eq!(got["name"], spec.name);
        assert_eq!(got["summary"], spec.summary);
        assert_eq!(got["hidden"], spec.hidden);
        assert_eq!(got["chance"], spec.chance);
        assert_eq!(got["premove"], spec.premove);
        let options = got["options"].as_array().unwrap();
        assert_eq!(options.len(), spec.options.len());
        for (o, s) in options.iter().zip(spec.options) {
            assert_eq!(o["name"], s.name);
            assert_eq!(o["default"], s.default);
            assert_eq!(o["description"], s.description);
            assert_eq!(o["values"].as_array().unwrap().len(), s.values.len());
            assert!(o["kind"] == "bool" || o["kind"] == "choice");
        }
    }
    let reality = list.iter().find(|v| v["id"] == "reality-check").unwrap();
    assert!(reality["options"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["name"] == "memory"));
    // The board is a choice, the basic board first and by default.
    let board = reality["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "board")
        .unwrap();
    assert_eq!(board["kind"], "choice");
    assert_eq!(board["values"], serde_json::json!(["basic", "advanced"]));
    assert_eq!(board["default"], "basic");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_is_served_with_etags_and_stays_small() {
    let mut ts = TestServer::start("web-files").await;
    let total: usize = bluffchess_server::web::FILES
        .iter()
        .map(|(_, b)| b.len())
        .sum();
    assert!(total < 300 * 1024, "the client weighs {total} bytes");
    for page in ["/", "/game/abc", "/rules/bs", "/replay/abc"] {
        let (status, html) = ts.get_text(page, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(html.contains("/static/app.js"), "{page} is the client");
    }
    for (name, bytes) in bluffchess_server::web::FILES {
        let url = format!("{}/static/{name}", ts.base);
        let response = ts.http.get(&url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{name}");
        let etag = response.headers()["etag"].to_str().unwrap().to_string();
        assert_eq!(response.headers()["cache-control"], "no-cache");
        assert_eq!(&response.bytes().await.unwrap()[..], *bytes);
        let again = ts
            .http
            .get(&url)
            .header("If-None-Match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{name}");
        assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    }
    let js = ts
        .http
        .get(format!("{}/static/app.js", ts.base))
        .send()
        .await
        .unwrap();
    assert!(js.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    // Each variant's rules, as its VariantSpec embeds them, with an ETag that revalidates.
    for variant in VARIANTS {
        let url = format!("{}/docs/rules/{}.md", ts.base, variant.id);
        let response = ts.http.get(&url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{}", variant.id);
        let etag = response.headers()["etag"].to_str().unwrap().to_string();
        let text = response.text().await.unwrap();
        assert_eq!(text, variant.rules, "{}", variant.id);
        assert!(text.starts_with("# "), "{}", variant.id);
        let again = ts
            .http
            .get(&url)
            .header("If-None-Match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{}", variant.id);
    }
    let (status, body) = ts.get("/static/nothing.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].is_string());
    let (status, _) = ts.get("/docs/rules/api.md", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_replays_with_everything_revealed() {
    let mut ts = TestServer::start("web-replay").await;
    for variant in VARIANTS {
        let (id, tokens) = ts.open_and_join(variant.id, Value::Null).await;
        let (status, early) = ts.get(&format!("/api/games/{id}/replay"), None).await;
        assert_eq!(status, StatusCode::CONFLICT, "{early}");
        ts.play_out(&id, &tokens, 60).await;
        let (status, record2) = ts.record(&id).await;
        assert_eq!(status, StatusCode::OK, "{record2}");
        let (status, replay) = ts.get(&format!("/api/games/{id}/replay"), None).await;
        assert_eq!(status, StatusCode::OK, "{replay}");
        assert_eq!(replay["record"], record2);
        let positions = replay["positions"].as_array().unwrap();
        assert_eq!(
            positions.len(),
            record2["actions"].as_array().unwrap().len() + 1,
            "{}",
            variant.id
        );
        // Each seat's positions as it saw them, the last one its own end view.
        for (seat, token) in ["white", "black"].iter().zip(&tokens) {
            let seen = replay["seen"][seat].as_array().unwrap();
            assert_eq!(seen.len(), positions.len(), "{} {seat}", variant.id);
            let end = ts.view(&id, Some(token)).await;
            assert_eq!(
                seen.last(),
                Some(&end["view"]["position"]),
                "{} {seat}",
                variant.id
            );
            if variant.id == "bs" {
                // during the game a seat did not see the other's identities
                assert_ne!(seen[3], positions[3], "{seat}");
            }
        }
        // The last position is the end view's.
        let end = ts.view(&id, None).await;
        assert_eq!(
            positions.last().unwrap(),
            &end["view"]["position"],
            "{}",
            variant.id
        );
    }
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_dice_replays() {
    let mut ts = TestServer::start("web-replay-dice").await;
    let (id, tokens) = ts
        .open_and_join_with(
            "reality-check",
            serde_json::json!({"dice": "true"}),
            Value::Null,
        )
        .await;
    ts.play_out(&id, &tokens, 40).await;
    let (_, record) = ts.record(&id).await;
    let rolls = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["actor"] == "chance")
        .count();
    assert!(rolls > 0, "no die was rolled: {record}");
    let (status, replay) = ts.get(&format!("/api/games/{id}/replay"), None).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(
        replay["positions"].as_array().unwrap().len(),
        record["actions"].as_array().unwrap().len() + 1
    );
    ts.stop().await;
}

/// The page names every module the client imports as a `modulepreload`, so the browser fetches
/// them all at once instead of one import level after another.
#[test]
fn every_imported_module_is_preloaded() {
    let text = |name: &str| {
        let (_, bytes) = bluffchess_server::web::FILES
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    };
    let index = text("index.html");
    let mut imported = 0;
    for (name, _) in bluffchess_server::web::FILES {
        if !name.ends_with(".js") {
            continue;
        }
        for line in text(name).lines().filter(|l| l.starts_with("import ")) {
            let module = line.rsplit("'./").next().unwrap().trim_end_matches("';");
            let preload = format!("<link rel=\"modulepreload\" href=\"/static/{module}\">");
            assert!(
                index.contains(&preload),
                "{name} imports {module}: {preload} is missing"
            );
            imported += 1;
        }
    }
    assert!(imported >= 6, "only {imported} imports found");
}
