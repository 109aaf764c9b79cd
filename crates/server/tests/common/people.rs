//! People on the site: a browser's or a script's credentials, and requests sent as them.

use super::{typed, TestServer};
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// A browser's credentials: its session cookie, if any.
#[derive(Clone, Default)]
pub struct Browser {
    pub cookie: Option<String>,
    /// A personal API token instead.
    pub token: Option<String>,
    /// The address a trusted proxy says it forwards for.
    pub forwarded: Option<String>,
}

impl Browser {
    pub fn with_token(token: &str) -> Browser {
        Browser {
            token: Some(token.to_string()),
            ..Browser::default()
        }
    }
}

/// Sends a request as `who`, from this site's own pages (`Origin` is the server) unless
/// `origin` says otherwise; keeps a session cookie the answer sets.
pub async fn send(
    ts: &TestServer,
    who: &mut Browser,
    method: Method,
    path: &str,
    body: Option<Value>,
    origin: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = ts.http.request(method, format!("{}{path}", ts.base));
    let origin = origin.map_or_else(|| ts.base.clone(), String::from);
    request = request.header("origin", origin);
    if let Some(cookie) = &who.cookie {
        request = request.header("cookie", format!("bc_session={cookie}"));
    }
    if let Some(token) = &who.token {
        request = request.bearer_auth(token);
    }
    if let Some(address) = &who.forwarded {
        request = request.header("x-forwarded-for", address.as_str());
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    if let Some(cookie) = session_cookie(response.headers()) {
        who.cookie = (!cookie.is_empty()).then_some(cookie);
    }
    let text = response.text().await.unwrap();
    let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if !status.is_success() {
        typed::<bluffchess_server::wire::Refusal>(&value);
    }
    (status, value)
}

/// The value of the `bc_session` cookie an answer sets (empty when it removes it), checking its
/// attributes.
pub fn session_cookie(headers: &HeaderMap<HeaderValue>) -> Option<String> {
    let set = headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("bc_session="))?;
    assert!(set.contains("HttpOnly"), "{set}");
    assert!(set.contains("SameSite=Lax"), "{set}");
    assert!(set.contains("Path=/"), "{set}");
    let value = set["bc_session=".len()..].split(';').next().unwrap();
    Some(value.to_string())
}

pub async fn signup(ts: &TestServer, name: &str, password: &str) -> Browser {
    let mut who = Browser::default();
    let body = json!({"username": name, "password": password});
    let (status, answer) = send(
        ts,
        &mut who,
        Method::POST,
        "/api/account/signup",
        Some(body),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert_eq!(answer["username"], name);
    assert!(who.cookie.as_ref().is_some_and(|c| c.len() == 64));
    who
}

pub async fn login(ts: &TestServer, name: &str, password: &str) -> (StatusCode, Value, Browser) {
    let mut who = Browser::default();
    let body = json!({"username": name, "password": password});
    let (status, answer) = send(
        ts,
        &mut who,
        Method::POST,
        "/api/account/login",
        Some(body),
        None,
    )
    .await;
    (status, answer, who)
}

/// Opens `who`'s event stream (`GET /api/stream/event`).
pub async fn event_stream(ts: &TestServer, who: &Browser) -> super::Lines {
    let mut request = reqwest::Client::new().get(format!("{}/api/stream/event", ts.base));
    if let Some(cookie) = &who.cookie {
        request = request.header("cookie", format!("bc_session={cookie}"));
    }
    if let Some(token) = &who.token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "application/x-ndjson"
    );
    super::Lines {
        stream: Box::pin(response.bytes_stream()),
        buffer: Vec::new(),
        keepalives: 0,
    }
}

/// Plays game `id` to its end as `players` (White's, Black's), by random legal actions, the
/// side to move resigning after `max` actions; answers the last view of each.
pub async fn play_out_as(
    ts: &TestServer,
    id: &str,
    players: &mut [Browser; 2],
    max: usize,
) -> [Value; 2] {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut played = 0;
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "game {id} did not end in time"
        );
        let mut acted = false;
        for who in players.iter_mut() {
            let path = format!("/api/games/{id}/view");
            let (status, view) = send(ts, who, Method::GET, &path, None, None).await;
            assert_eq!(status, StatusCode::OK, "{view}");
            if view["status"] != "live" {
                continue;
            }
            let (route, body) = match super::choose(&view) {
                _ if played >= max => ("resign", None),
                Some(action) => ("action", Some(json!({ "action": action }))),
                None => continue,
            };
            let path = format!("/api/games/{id}/{route}");
            let (status, answer) = send(ts, who, Method::POST, &path, body, None).await;
            assert_eq!(status, StatusCode::OK, "{route}: {answer}");
            played += 1;
            acted = true;
        }
        let mut views = Vec::new();
        for who in players.iter_mut() {
            let path = format!("/api/games/{id}/view");
            views.push(send(ts, who, Method::GET, &path, None, None).await.1);
        }
        if views.iter().all(|v| v["status"] != "live") {
            return [views.remove(0), views.remove(0)];
        }
        if !acted {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
}
