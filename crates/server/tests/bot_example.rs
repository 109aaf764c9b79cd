//! The Bot API's documented example (`docs/examples/bot.py`, shown in `docs/api.md`), run as
//! its readers run it: a bot account's token, a challenge it accepts from its event stream, and
//! a rated game it plays to the end against a person.

mod common;

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::json;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn example() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join("docs/examples/bot.py")).unwrap()
}

#[test]
fn the_api_document_shows_the_example_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/api.md")).unwrap();
    assert!(
        doc.contains(&format!("```python\n{}```", example())),
        "docs/api.md must show docs/examples/bot.py exactly"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_documented_bot_accepts_a_challenge_and_plays_a_rated_game() {
    let mut ts = TestServer::start("bot-example").await;
    // A bot account and its token, made as docs/api.md says.
    let mut robot = signup(&ts, "robot", "correct horse battery").await;
    let scopes = json!({"scopes": ["play", "bot"]});
    let (status, token) = send(
        &ts,
        &mut robot,
        Method::POST,
        "/api/account/tokens",
        Some(scopes),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{token}");
    let token = token["token"].as_str().unwrap().to_string();
    let mut by_token = Browser::with_token(&token);
    let (status, upgraded) = send(
        &ts,
        &mut by_token,
        Method::POST,
        "/api/bot/account/upgrade",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{upgraded}");

    let script = std::env::temp_dir().join(format!("bluffchess-bot-{}.py", std::process::id()));
    std::fs::write(&script, example()).unwrap();
    let mut bot = Command::new("python3")
        .arg(&script)
        .arg(&ts.base)
        .arg("--once")
        .env("BLUFFCHESS_TOKEN", &token)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs the example (Debian's python3)");

    // A person challenges it once it listens, and plays its side to the end.
    let mut henry = signup(&ts, "henry", "another good password").await;
    let mut henry_events = event_stream(&ts, &henry).await;
    let terms = json!({"variant": "chess", "rated": true, "color": "white"});
    // Made before the bot listens or after: its stream opens with the challenges waiting.
    let (status, challenge) = send(
        &ts,
        &mut henry,
        Method::POST,
        "/api/challenge/robot",
        Some(terms),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    let game = loop {
        let line = henry_events
            .next_message(Duration::from_secs(30))
            .await
            .expect("the bot accepts");
        let event: serde_json::Value = serde_json::from_str(&line).unwrap();
        if event["type"] == "gameStart" {
            break event["game"]["gameId"].as_str().unwrap().to_string();
        }
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let view_path = format!("/api/games/{game}/view");
    let mut moves = 0;
    let end = loop {
        if Instant::now() > deadline + Duration::from_secs(60) {
            let _ = bot.kill();
            let output = bot.wait_with_output().unwrap();
            panic!(
                "the game never ended; the bot said:\n{}\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let (_, view) = send(&ts, &mut henry, Method::GET, &view_path, None, None).await;
        if view["status"] != "live" {
            break view;
        }
        let (route, body) = match choose(&view) {
            _ if moves >= 20 => ("resign", None),
            Some(action) => ("action", Some(json!({ "action": action }))),
            None => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let path = format!("/api/games/{game}/{route}");
        let (status, answer) = send(&ts, &mut henry, Method::POST, &path, body, None).await;
        assert_eq!(status, StatusCode::OK, "{route}: {answer}");
        moves += 1;
    };
    assert_eq!(end["status"], "over", "{end}");
    assert_eq!(end["names"]["black"], "robot");
    assert!(
        end["ratings"]["black"]["diff"].is_i64(),
        "a rated end: {end}"
    );

    let output = bot.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the bot failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(&format!("game over: {game}")), "{stdout}");
    let (_, robot_page) = ts.get("/api/user/robot", None).await;
    assert_eq!(robot_page["bot"], true);
    assert_eq!(robot_page["ratings"]["chess"]["games"], 1);
    let _ = std::fs::remove_file(script);
    ts.stop().await;
}
