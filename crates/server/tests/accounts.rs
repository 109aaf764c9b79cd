//! Accounts through the API (SQLite, or Postgres with `BLUFFCHESS_TEST_DATABASE=postgres`):
//! sign-up, log-in, log-out, password changes, API tokens and their scopes, bot accounts, seats
//! that belong to accounts, guests' games claimed, cross-site requests, and limits that follow
//! the player behind a trusted proxy. Every refusal is a clear 4xx and changes nothing.

mod common;

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn me(ts: &TestServer, who: &mut Browser) -> (StatusCode, Value) {
    send(ts, who, Method::GET, "/api/account", None, None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_and_out() {
    let mut ts = TestServer::start("accounts-basics").await;
    let mut alice = signup(&ts, "Alice", "correct horse battery").await;
    let (status, account) = me(&ts, &mut alice).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        account,
        json!({"bot": false, "ratings": {}, "username": "Alice"})
    );

    // Refusals: each a clear 4xx, and no account made.
    let refused = [
        (
            "alice",
            "another good one",
            StatusCode::CONFLICT,
            "that username is taken",
        ),
        (
            "ALICE",
            "another good one",
            StatusCode::CONFLICT,
            "that username is taken",
        ),
        (
            "a",
            "another good one",
            StatusCode::BAD_REQUEST,
            "a username has 2 to 20 characters",
        ),
        (
            "al ice",
            "another good one",
            StatusCode::BAD_REQUEST,
            "a username has only letters, digits, _ and -",
        ),
        (
            "admin",
            "another good one",
            StatusCode::BAD_REQUEST,
            "that username is reserved",
        ),
        (
            "bob",
            "short",
            StatusCode::BAD_REQUEST,
            "a password has at least 8 characters",
        ),
        (
            "bobbybob",
            "BobbyBob",
            StatusCode::BAD_REQUEST,
            "the password may not be the username",
        ),
        (
            "bob",
            "password1",
            StatusCode::BAD_REQUEST,
            "that password is among the most common ones: choose another",
        ),
    ];
    for (name, password, expected, error) in refused {
        let mut who = Browser::default();
        let body = json!({"username": name, "password": password});
        let (status, answer) = send(
            &ts,
            &mut who,
            Method::POST,
            "/api/account/signup",
            Some(body),
            None,
        )
        .await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (expected, Some(error)),
            "{name}"
        );
        assert!(who.cookie.is_none(), "no session for a refused sign-up");
    }
    let (status, _) = send(
        &ts,
        &mut Browser::default(),
        Method::GET,
        "/api/user/bob",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no account was made");
    let (status, _) = send(
        &ts,
        &mut Browser::default(),
        Method::POST,
        "/api/account/signup",
        Some(json!(["alice"])),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // A wrong password and an unknown name get the same answer.
    let (status, wrong, who) = login(&ts, "alice", "incorrect horse").await;
    let (status2, unknown, _) = login(&ts, "nobody", "incorrect horse").await;
    assert_eq!(
        (status, status2),
        (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED)
    );
    assert_eq!(wrong, unknown);
    assert_eq!(wrong["error"], "wrong username or password");
    assert!(who.cookie.is_none());
    // The right password, in any case of the name: a new session, not the old one.
    let (status, answer, mut again) = login(&ts, "aLiCe", "correct horse battery").await;
    assert_eq!(
        (status, answer["username"].as_str()),
        (StatusCode::OK, Some("Alice"))
    );
    assert_ne!(again.cookie, alice.cookie);
    assert_eq!(me(&ts, &mut again).await.0, StatusCode::OK);

    // Logging out ends the session: its cookie is refused after.
    let old = alice.clone();
    let (status, _) = send(
        &ts,
        &mut alice,
        Method::POST,
        "/api/account/logout",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = me(&ts, &mut old.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{answer}");
    assert_eq!(
        me(&ts, &mut again).await.0,
        StatusCode::OK,
        "the other session lives"
    );
    let (status, _) = send(
        &ts,
        &mut Browser::default(),
        Method::POST,
        "/api/account/logout",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, user) = send(
        &ts,
        &mut Browser::default(),
        Method::GET,
        "/api/user/ALICE",
        None,
        None,
    )
    .await;
    assert_eq!(
        (status, &user["username"]),
        (StatusCode::OK, &json!("Alice"))
    );

    // Failed log-ins are limited per account (five, one of them above): then even the right
    // password waits.
    for _ in 0..4 {
        assert_eq!(
            login(&ts, "alice", "incorrect horse").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    let (status, answer, _) = login(&ts, "alice", "correct horse battery").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .starts_with("too many failed log-ins"));
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_ends_every_other_session() {
    let mut ts = TestServer::start("accounts-password").await;
    let mut here = signup(&ts, "carol", "first password ok").await;
    let (_, _, mut there) = login(&ts, "carol", "first password ok").await;
    let change = |current: &str, new: &str| json!({"current": current, "new": new});
    let (status, answer) = send(
        &ts,
        &mut here,
        Method::POST,
        "/api/account/password",
        Some(change("wrong one!", "second password ok")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    let (status, _) = send(
        &ts,
        &mut here,
        Method::POST,
        "/api/account/password",
        Some(change("first password ok", "iloveyou")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a weak new password");
    assert_eq!(
        me(&ts, &mut there).await.0,
        StatusCode::OK,
        "nothing changed yet"
    );
    let (status, _) = send(
        &ts,
        &mut here,
        Method::POST,
        "/api/account/password",
        Some(change("first password ok", "second password ok")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        me(&ts, &mut here).await.0,
        StatusCode::OK,
        "this session stays"
    );
    assert_eq!(
        me(&ts, &mut there).await.0,
        StatusCode::UNAUTHORIZED,
        "the other ended"
    );
    assert_eq!(
        login(&ts, "carol", "first password ok").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&ts, "carol", "second password ok").await.0,
        StatusCode::OK
    );
    let (status, sessions) = send(
        &ts,
        &mut here,
        Method::GET,
        "/api/account/sessions",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let sessions = sessions.as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    let other = sessions.iter().find(|s| s["current"] == false).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = send(
        &ts,
        &mut here,
        Method::DELETE,
        &format!("/api/account/sessions/{other}"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, sessions) = send(
        &ts,
        &mut here,
        Method::GET,
        "/api/account/sessions",
        None,
        None,
    )
    .await;
    assert_eq!(sessions.as_array().unwrap().len(), 1);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_have_scopes_and_can_be_revoked() {
    let mut ts = TestServer::start("accounts-tokens").await;
    let mut dave = signup(&ts, "dave", "dave's long password").await;
    for (scopes, error) in [
        (
            json!(["bot"]),
            "a token has the play scope, and may add bot",
        ),
        (
            json!(["play", "admin"]),
            "unknown scope \"admin\": the scopes are play and bot",
        ),
        (json!(["play", "play"]), "scope play given twice"),
    ] {
        let (status, answer) = send(
            &ts,
            &mut dave,
            Method::POST,
            "/api/account/tokens",
            Some(json!({"scopes": scopes})),
            None,
        )
        .await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(error))
        );
    }
    let (status, created) = send(
        &ts,
        &mut dave,
        Method::POST,
        "/api/account/tokens",
        Some(json!({"scopes": ["play"]})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let token = created["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("bc_") && token.len() == 67, "{token}");
    let (_, list) = send(
        &ts,
        &mut dave,
        Method::GET,
        "/api/account/tokens",
        None,
        None,
    )
    .await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["id"], created["id"]);
    assert_eq!(list[0]["scopes"], json!(["play"]));
    assert!(
        !list.to_string().contains(&token[3..]),
        "the token is shown once only"
    );
    // The token signs in, and plays its account's games.
    let mut bearer = Browser::with_token(&token);
    assert_eq!(me(&ts, &mut bearer).await.1["username"], "dave");
    let (status, game) = send(
        &ts,
        &mut bearer,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "chess", "color": "white", "opponent": "bot:random"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap();
    let (status, answer) = send(
        &ts,
        &mut bearer,
        Method::POST,
        &format!("/api/games/{id}/action"),
        Some(json!({"action": "e2e4"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // A token cannot make tokens or change the password: that is the owner's, signed in.
    let (status, _) = send(
        &ts,
        &mut bearer,
        Method::POST,
        "/api/account/tokens",
        Some(json!({"scopes": ["play"]})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Revoked, it is refused.
    let path = format!("/api/account/tokens/{}", created["id"].as_str().unwrap());
    assert_eq!(
        send(&ts, &mut dave, Method::DELETE, &path, None, None)
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        send(&ts, &mut dave, Method::DELETE, &path, None, None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, answer) = me(&ts, &mut bearer).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        answer["error"],
        "this API token is not valid: it may have been revoked"
    );
    let (status, _) = send(
        &ts,
        &mut bearer,
        Method::POST,
        &format!("/api/games/{id}/action"),
        Some(json!({"action": "d2d4"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_account_acts_by_token_only() {
    let mut ts = TestServer::start("accounts-bots").await;
    let mut owner = signup(&ts, "robo", "robo's long password").await;
    let (_, play_only) = send(
        &ts,
        &mut owner,
        Method::POST,
        "/api/account/tokens",
        Some(json!({"scopes": ["play"]})),
        None,
    )
    .await;
    let (_, bot_token) = send(
        &ts,
        &mut owner,
        Method::POST,
        "/api/account/tokens",
        Some(json!({"scopes": ["play", "bot"]})),
        None,
    )
    .await;
    let mut play_only = Browser::with_token(play_only["token"].as_str().unwrap());
    let mut bot = Browser::with_token(bot_token["token"].as_str().unwrap());
    let (status, _) = send(
        &ts,
        &mut play_only,
        Method::POST,
        "/api/bot/account/upgrade",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "the bot scope is needed");
    let (status, answer) = send(
        &ts,
        &mut bot,
        Method::POST,
        "/api/bot/account/upgrade",
        None,
        None,
    )
    .await;
    assert_eq!(
        (status, &answer["bot"]),
        (StatusCode::OK, &json!(true)),
        "{answer}"
    );
    let (status, _) = send(
        &ts,
        &mut bot,
        Method::POST,
        "/api/bot/account/upgrade",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Its session cannot take a seat; its token can.
    let (status, answer) = send(
        &ts,
        &mut owner,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "chess"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    let (status, game) = send(
        &ts,
        &mut bot,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "chess", "color": "black", "opponent": "open"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap();
    let mut human = signup(&ts, "hugh", "hugh's long password").await;
    let (status, joined) = send(
        &ts,
        &mut human,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(
        (status, &joined["seat"]),
        (StatusCode::OK, &json!("white")),
        "{joined}"
    );
    let (status, _) = send(
        &ts,
        &mut human,
        Method::POST,
        &format!("/api/games/{id}/action"),
        Some(json!({"action": "e2e4"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(
        &ts,
        &mut bot,
        Method::POST,
        &format!("/api/games/{id}/action"),
        Some(json!({"action": "e7e5"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "the bot plays by token");
    let (_, view) = send(
        &ts,
        &mut Browser::default(),
        Method::GET,
        &format!("/api/games/{id}/view"),
        None,
        None,
    )
    .await;
    assert_eq!(view["names"], json!({"black": "robo", "white": "hugh"}));
    // Having played, an account cannot become a bot.
    let (_, token) = send(
        &ts,
        &mut human,
        Method::POST,
        "/api/account/tokens",
        Some(json!({"scopes": ["play", "bot"]})),
        None,
    )
    .await;
    let mut human_bot = Browser::with_token(token["token"].as_str().unwrap());
    let (status, answer) = send(
        &ts,
        &mut human_bot,
        Method::POST,
        "/api/bot/account/upgrade",
        None,
        None,
    )
    .await;
    assert_eq!(
        (status, answer["kind"].as_str()),
        (StatusCode::CONFLICT, Some("has-played"))
    );
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_follow_the_account_and_guests_games_are_claimed() {
    let mut ts = TestServer::start("accounts-seats").await;
    // A guest (a browser without an account) plays as today, with a guest session.
    let mut guest = Browser::default();
    let (status, game) = send(
        &ts,
        &mut guest,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "chess", "color": "white", "opponent": "open"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(guest.cookie.is_some(), "a guest session");
    let id = game["id"].as_str().unwrap().to_string();
    let seat_view = |view: &Value| view["view"]["seat"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/view");
    assert_eq!(
        seat_view(
            &send(&ts, &mut guest, Method::GET, &path, None, None)
                .await
                .1
        ),
        "white"
    );
    // Signing up from the same browser claims the guest's games.
    let body = json!({"username": "erin", "password": "erin's long password"});
    let (status, _) = send(
        &ts,
        &mut guest,
        Method::POST,
        "/api/account/signup",
        Some(body),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, games) = send(
        &ts,
        &mut guest,
        Method::GET,
        "/api/account/games",
        None,
        None,
    )
    .await;
    assert_eq!(games[0]["id"], id.as_str(), "{games}");
    assert_eq!(games[0]["color"], "white");
    // Another device signed in as erin holds the seat without the token.
    let (_, _, mut phone) = login(&ts, "erin", "erin's long password").await;
    assert_eq!(
        seat_view(
            &send(&ts, &mut phone, Method::GET, &path, None, None)
                .await
                .1
        ),
        "white"
    );
    // Frank joins signed in; a player cannot join its own game.
    let mut frank = signup(&ts, "frank", "frank's long password").await;
    let (status, answer) = send(
        &ts,
        &mut phone,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (status, _) = send(
        &ts,
        &mut frank,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = send(
        &ts,
        &mut phone,
        Method::POST,
        &format!("/api/games/{id}/action"),
        Some(json!({"action": "e2e4"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = send(
        &ts,
        &mut phone,
        Method::POST,
        &format!("/api/games/{id}/action"),
        Some(json!({"action": "e7e5"})),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (_, lobby) = ts.get("/api/games", None).await;
    let listed = lobby["live"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap();
    assert_eq!(listed["names"], json!({"black": "frank", "white": "erin"}));
    // A stranger's session holds no seat: it watches.
    let mut stranger = signup(&ts, "gina", "gina's long password").await;
    assert_eq!(
        seat_view(
            &send(&ts, &mut stranger, Method::GET, &path, None, None)
                .await
                .1
        ),
        "spectator"
    );
    let (status, answer) = send(
        &ts,
        &mut stranger,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        None,
        None,
    )
    .await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (
            StatusCode::FORBIDDEN,
            Some(format!("gina holds no seat of game {id}").as_str())
        )
    );
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_site_requests_with_a_session_are_refused() {
    let mut ts = TestServer::start("accounts-csrf").await;
    let mut ivy = signup(&ts, "ivy", "ivy's long password").await;
    let evil = Some("https://evil.example");
    let (status, answer) = send(
        &ts,
        &mut ivy,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "chess"})),
        evil,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(
        answer["error"],
        "a request from another site may not use this site's session"
    );
    let (status, _) = send(
        &ts,
        &mut ivy,
        Method::POST,
        "/api/account/logout",
        None,
        evil,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(me(&ts, &mut ivy).await.0, StatusCode::OK, "nothing changed");
    let (_, games) = send(&ts, &mut ivy, Method::GET, "/api/account/games", None, None).await;
    assert_eq!(games, json!([]));
    // A socket opened by another site's page is refused before it opens.
    let (_, game) = send(
        &ts,
        &mut ivy,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "chess"})),
        None,
    )
    .await;
    let url = format!(
        "ws://{}/api/games/{}/ws",
        ts.addr,
        game["id"].as_str().unwrap()
    );
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
            url.as_str(),
        )
        .unwrap();
    request
        .headers_mut()
        .insert("origin", "https://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::FORBIDDEN)
        }
        other => panic!("a foreign socket opened: {other:?}"),
    }
    let mut own = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        url.as_str(),
    )
    .unwrap();
    own.headers_mut().insert("origin", ts.base.parse().unwrap());
    assert!(tokio_tungstenite::connect_async(own).await.is_ok());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_follow_the_player_behind_a_trusted_proxy() {
    let mut config = test_config();
    config.max_live_per_client = 1;
    config.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    let mut ts = TestServer::start_with("accounts-proxy", config).await;
    let create = json!({"variant": "chess", "opponent": "bot:random"});
    // Two accounts behind the one proxy address: each its own cap.
    let mut jack = signup(&ts, "jack", "jack's long password").await;
    let mut kate = signup(&ts, "kate", "kate's long password").await;
    assert_eq!(
        send(
            &ts,
            &mut jack,
            Method::POST,
            "/api/games",
            Some(create.clone()),
            None
        )
        .await
        .0,
        StatusCode::CREATED
    );
    let (status, answer) = send(
        &ts,
        &mut jack,
        Method::POST,
        "/api/games",
        Some(create.clone()),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert_eq!(
        send(
            &ts,
            &mut kate,
            Method::POST,
            "/api/games",
            Some(create.clone()),
            None
        )
        .await
        .0,
        StatusCode::CREATED
    );
    // Scripts without accounts: the forwarded address counts, from the trusted proxy.
    let script = |address: &str| Browser {
        forwarded: Some(address.to_string()),
        ..Browser::default()
    };
    let no_origin = |ts: &TestServer, who: Browser, body: Value| {
        let mut who = who;
        let base = ts.base.clone();
        let http = ts.http.clone();
        async move {
            let mut request = http.post(format!("{base}/api/games")).json(&body);
            if let Some(address) = who.forwarded.take() {
                request = request.header("x-forwarded-for", address);
            }
            request.send().await.unwrap().status()
        }
    };
    assert_eq!(
        no_origin(&ts, script("198.51.100.1"), create.clone()).await,
        StatusCode::CREATED
    );
    assert_eq!(
        no_origin(&ts, script("198.51.100.1"), create.clone()).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        no_origin(&ts, script("198.51.100.2"), create.clone()).await,
        StatusCode::CREATED
    );
    ts.stop().await;
    // From an untrusted peer the header is ignored: one address, one cap.
    let mut config = test_config();
    config.max_live_per_client = 1;
    let mut ts = TestServer::start_with("accounts-no-proxy", config).await;
    assert_eq!(
        no_origin(&ts, script("198.51.100.1"), create.clone()).await,
        StatusCode::CREATED
    );
    assert_eq!(
        no_origin(&ts, script("198.51.100.2"), create.clone()).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    ts.stop().await;
}
