//! The findings of the attack on the server (issue 24), each a test that failed before its fix:
//! predictable bots, searches never cancelled, a flag that did not fall, private games in the
//! lobby, rematches past the live-game cap, array bodies, and the headers, file mode, seed
//! commitment and replays.

mod common;

use bluffchess_rules::record::Record;
use bluffchess_server::bot::{fallback, Bot, Turn};
use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(20);

/// Plays a BS game as White against `opponent`, resigns once both setups are in, and answers
/// the record: the bot's hidden setup is in it.
async fn bs_against(ts: &TestServer, opponent: &str) -> Record {
    let created = ts
        .create(json!({"variant": "bs", "color": "white", "opponent": opponent}))
        .await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let (status, answer) = ts
        .post(
            id,
            "action",
            Some(token),
            Some(json!({"action": "setup standard"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let deadline = Instant::now() + WAIT;
    while ts.view(id, Some(token)).await["legal"] == json!([]) {
        assert!(Instant::now() < deadline, "the bot never set up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, answer) = ts.post(id, "resign", Some(token), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, record) = ts.record(id).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    serde_json::from_value(record).unwrap()
}

/// Finding 1: a client named the bot's seed, so its hidden setup repeated from game to game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_bots_secrets_cannot_be_fixed_by_a_client() {
    let mut ts = TestServer::start("bot-seed").await;
    for opponent in [
        "bot:greedy:seed=5",
        "bot:random:seed=5",
        "bot:ismcts:seed=3,iterations=200",
    ] {
        let (status, answer) = ts
            .post_raw(
                "/api/games",
                None,
                Some(json!({"variant": "bs", "opponent": opponent})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{opponent}: {answer}");
        assert_eq!(
            answer["error"],
            "the server's bots take no seed: their random choices stay the server's secret"
        );
    }
    // Twin games against the same bot: its hidden setups differ.
    let first = bs_against(&ts, "bot:greedy").await.actions[1].text.clone();
    let second = bs_against(&ts, "bot:greedy").await.actions[1].text.clone();
    assert!(first.starts_with("setup "), "{first}");
    assert_ne!(first, second, "the bot's secret setup repeated");
    ts.stop().await;
}

/// A bot that thinks until it is told to stop, and notes when it was.
struct Stubborn(Mutex<Vec<Duration>>);

impl Bot for Stubborn {
    fn act(&self, turn: &Turn) -> String {
        let started = Instant::now();
        while !turn.stop.raised() {
            assert!(started.elapsed() < Duration::from_secs(60), "never stopped");
            std::thread::sleep(Duration::from_millis(2));
        }
        self.0.lock().unwrap().push(started.elapsed());
        fallback(turn.decision.legal(), turn.decision.setup())
    }
}

/// Finding 2: a search was never cancelled. Every search is told to stop when its answer is
/// too late, when the game ends, and when the server stops; budgets over the caps are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_search_is_capped_and_stopped_once_its_answer_is_not_wanted() {
    let stubborn = Arc::new(Stubborn(Mutex::new(Vec::new())));
    let mut bots: HashMap<String, Arc<dyn Bot>> = bluffchess_server::bot::builtin();
    bots.insert("stubborn".into(), stubborn.clone());
    let mut config = test_config();
    config.bot_time = Duration::from_millis(300);
    let mut ts = TestServer::start_full(temp_db("bot-stop"), config, bots).await;
    for (opponent, error) in [
        (
            "bot:ismcts:iterations=18446744073709551615",
            "bot parameter iterations may be at most 100000 on this server",
        ),
        (
            "bot:default:ms=301",
            "bot parameter ms may be at most 300 on this server",
        ),
        (
            "bot:alphabeta:samples=4096",
            "bot parameter samples may be at most 64 on this server",
        ),
    ] {
        let (status, answer) = ts
            .post_raw(
                "/api/games",
                None,
                Some(json!({"variant": "chess", "opponent": opponent})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{opponent}: {answer}");
        assert_eq!(answer["error"], error);
    }
    let stops = || stubborn.0.lock().unwrap().len();
    let wait_for = |n: usize| async move {
        let deadline = Instant::now() + WAIT;
        while stops() < n {
            assert!(Instant::now() < deadline, "the search was never stopped");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };

    // Too late: the server plays a random action and stops the search.
    let created = ts
        .create(json!({"variant": "chess", "color": "black", "opponent": "bot:stubborn"}))
        .await;
    wait_for(1).await;
    // Stopped at the server's deadline (the thread starts a little after the clock does).
    let late = stubborn.0.lock().unwrap()[0];
    assert!(late >= Duration::from_millis(200), "{late:?}");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let deadline = Instant::now() + WAIT;
    while ts.view(id, Some(token)).await["legal"] == json!([]) {
        assert!(
            Instant::now() < deadline,
            "no random move replaced the late bot"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // The game ends while the bot thinks: its search is stopped at once.
    let mut config = test_config();
    config.bot_time = Duration::from_secs(30);
    ts.stop().await;
    let mut bots = bluffchess_server::bot::builtin();
    bots.insert("stubborn".into(), stubborn.clone() as Arc<dyn Bot>);
    let mut ts = TestServer::start_full(temp_db("bot-stop-2"), config, bots).await;
    let created = ts
        .create(json!({"variant": "chess", "color": "black", "opponent": "bot:stubborn"}))
        .await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, answer) = ts.post(id, "abort", Some(token), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    wait_for(2).await;
    assert!(stubborn.0.lock().unwrap()[1] < Duration::from_secs(10));

    // The server stops while the bot thinks: its search is stopped too.
    ts.create(json!({"variant": "chess", "color": "black", "opponent": "bot:stubborn"}))
        .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    ts.stop().await;
    wait_for(3).await;
    assert!(stubborn.0.lock().unwrap()[2] < Duration::from_secs(10));
}

/// White takes every black piece but the king, then Black moves: White is to move.
const BARE_BLACK_KING: &str = "a2a4 b7b5 a4b5 a7a5 a1a5 a8a7 a5a7 c8b7 a7b7 b8c6 b5c6 d8b8 b7c7 \
    b8b3 c7d7 b3g3 h2g3 h7h5 h1h5 g7g5 h5g5 h8h4 g3h4 f8g7 g5g7 g8f6 g7f7 f6h7 f7h7 e8f8 h7e7 f8g8";

/// Finding 3: with its own draw offer standing, a flagged side against a bare king was never
/// flagged (the server's draw went through an offer that could not be made) and went on to win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_while_the_flagged_sides_own_draw_offer_stands() {
    let mut ts = TestServer::start("flag-offer").await;
    let (id, tokens) = ts
        .open_and_join("chess", json!({"initial_s": 2, "increment_s": 0}))
        .await;
    for (n, mv) in BARE_BLACK_KING.split_whitespace().enumerate() {
        let (status, answer) = ts
            .post(
                &id,
                "action",
                Some(&tokens[n % 2]),
                Some(json!({"action": mv})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{mv}: {answer}");
    }
    let (status, answer) = ts.post(&id, "draw/offer", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let mut stream = ts.stream(&id, Some(&tokens[1]), None).await;
    let end = loop {
        let message: Value =
            serde_json::from_str(&stream.next_message(WAIT).await.unwrap()).unwrap();
        if message["type"] == "end" {
            break message;
        }
    };
    assert_eq!(end["outcome"]["reason"], "timeout-insufficient-material");
    assert_eq!(end["outcome"]["winner"], Value::Null);
    let record: Record = serde_json::from_value(end["record"].clone()).unwrap();
    assert_eq!(
        record.meta.last().unwrap().kind,
        bluffchess_rules::record::MetaKind::Timeout
    );
    assert_eq!(
        bluffchess_rules::verify(&record).unwrap(),
        record.outcome,
        "the record verifies as a draw on time"
    );
    // The flagged side cannot play on.
    let (status, answer) = ts
        .post(
            &id,
            "action",
            Some(&tokens[0]),
            Some(json!({"action": "e7e8"})),
        )
        .await;
    assert_eq!(status, StatusCode::GONE, "{answer}");
    // A seat cannot declare a flag fall or an abandonment itself.
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let mut socket = Socket::open(&ts, &id, Some(&tokens[0]), None).await;
    socket.next(WAIT).await.unwrap();
    for command in ["timeout", "abandon"] {
        socket.send(json!({ "command": command })).await;
        let refusal: Value = serde_json::from_str(&socket.next(WAIT).await.unwrap()).unwrap();
        assert_eq!(refusal["type"], "error", "{command}");
        assert!(refusal["error"]
            .as_str()
            .unwrap()
            .starts_with("unknown command"));
    }
    assert_eq!(ts.view(&id, None).await["status"], "live");
    ts.stop().await;
}

/// Finding 4: a game made for a friend by link was listed in the lobby and a stranger took it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_game_is_never_listed_and_its_seat_needs_the_invitation() {
    let mut ts = TestServer::start("private").await;
    let created = ts
        .create(json!({"variant": "chess", "color": "white", "opponent": "open", "private": true}))
        .await;
    let id = created["id"].as_str().unwrap();
    let invite = created["invite"].as_str().unwrap();
    assert_eq!(invite.len(), 32);
    assert_eq!(
        created["invite_url"],
        format!("/game/{id}#invite={invite}").as_str()
    );
    assert_ne!(invite, created["token"].as_str().unwrap());
    let listed = |lobby: &Value| {
        ["open", "live"].iter().any(|list| {
            lobby[list]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["id"] == id)
        })
    };
    let (_, lobby) = ts.get("/api/games", None).await;
    assert!(!listed(&lobby), "{lobby}");
    for body in [
        None,
        Some(json!({})),
        Some(json!({"invite": "0".repeat(32)})),
        Some(json!({"invite": created["token"]})),
    ] {
        let (status, answer) = ts.post(id, "join", None, body.clone()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body:?}: {answer}");
        assert_eq!(
            answer["error"],
            "this game is private: its seat is taken only with the invitation link"
        );
    }
    assert_eq!(ts.view(id, None).await["status"], "open", "nothing changed");
    let (status, answer) = ts
        .post(id, "join", None, Some(json!({"invite": invite})))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["seat"], "black");
    let (_, lobby) = ts.get("/api/games", None).await;
    assert!(
        !listed(&lobby),
        "a live private game is not listed: {lobby}"
    );
    // A private game against a bot is not listed either; a public one is.
    let private_bot = ts
        .create(json!({"variant": "chess", "opponent": "bot:random", "private": true}))
        .await;
    let public_open = ts.create(json!({"variant": "chess"})).await;
    assert!(private_bot.get("invite").is_none());
    let (_, lobby) = ts.get("/api/games", None).await;
    let ids = |list: &str| -> Vec<Value> {
        lobby[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].clone())
            .collect()
    };
    assert!(!ids("live").contains(&private_bot["id"]));
    assert!(ids("open").contains(&public_open["id"]));
    // A public game's seat needs no invitation.
    let public = public_open["id"].as_str().unwrap();
    let (status, answer) = ts.post(public, "join", None, None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    ts.stop().await;
}

/// Finding 7: rematches were not counted against a client's live games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematches_count_against_the_live_game_cap() {
    let mut config = test_config();
    config.max_live_per_client = 2;
    let mut ts = TestServer::start_with("rematch-cap", config).await;
    let mut finished = Vec::new();
    for _ in 0..2 {
        let created = ts
            .create(json!({"variant": "chess", "color": "white", "opponent": "bot:random"}))
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["token"].as_str().unwrap().to_string();
        let (status, answer) = ts.post(&id, "resign", Some(&token), None).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        finished.push((id, token));
    }
    // Two live games: the cap.
    for _ in 0..2 {
        ts.create(json!({"variant": "chess", "opponent": "bot:random"}))
            .await;
    }
    let (status, answer) = ts
        .post(&finished[0].0, "rematch", Some(&finished[0].1), None)
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert_eq!(
        answer["error"],
        "too many live games: each client may have 2 at once"
    );
    ts.stop().await;
}

/// Finding 8: a JSON array was read as a body (`["e2e4"]` played the move).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_and_socket_messages_must_be_objects() {
    let mut ts = TestServer::start("array-bodies").await;
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let before = ts.view(&id, Some(&tokens[0])).await;
    for (path, body) in [
        (format!("/api/games/{id}/action"), json!(["e2e4"])),
        ("/api/games".to_string(), json!(["chess"])),
        (format!("/api/games/{id}/join"), json!(["x"])),
        (format!("/api/games/{id}/action"), json!("e2e4")),
    ] {
        let (status, answer) = ts.post_raw(&path, Some(&tokens[0]), Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {answer}");
        assert_eq!(answer["error"], "the body must be a JSON object");
    }
    let mut socket = Socket::open(&ts, &id, Some(&tokens[0]), None).await;
    socket.next(WAIT).await.unwrap();
    socket.send(json!(["e2e4"])).await;
    let refusal: Value = serde_json::from_str(&socket.next(WAIT).await.unwrap()).unwrap();
    assert_eq!(refusal["type"], "error");
    assert!(
        refusal["error"]
            .as_str()
            .unwrap()
            .starts_with("a message must be a JSON object"),
        "{refusal}"
    );
    let after = ts.view(&id, Some(&tokens[0])).await;
    assert_eq!(strip(&before), strip(&after), "nothing was played");
    ts.stop().await;
}

/// Finding 6 and the small ones of 9: the seed's commitment is sent during the game and opened
/// by the record; private answers are not cached; pages may not be framed and load nothing
/// from elsewhere; the SQLite file is its owner's alone; replays are cached and limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_file_mode_seed_commitment_and_replays() {
    let mut config = test_config();
    config.create_burst = 4;
    config.create_period = Duration::from_secs(3600);
    let mut ts = TestServer::start_with("headers", config).await;
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let view = ts.view(&id, Some(&tokens[0])).await;
    let commitment = view["seed"]["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert_eq!(
        ts.view(&id, None).await["seed"]["commitment"],
        commitment.as_str()
    );
    let response = ts
        .http
        .get(format!("{}/api/games/{id}/view", ts.base))
        .bearer_auth(&tokens[0])
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["cache-control"], "no-store");
    let page = ts.http.get(format!("{}/", ts.base)).send().await.unwrap();
    let policy = page.headers()["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let html = page.text().await.unwrap();
    assert!(
        !html.contains("<script>"),
        "no inline script under the policy"
    );
    #[cfg(unix)]
    if !postgres_pass() {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&ts.db).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    // The record opens the seed's commitment.
    let (status, answer) = ts.post(&id, "resign", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, record) = ts.record(&id).await;
    assert_eq!(record["seed_commitment"], commitment.as_str());
    let record: Record = serde_json::from_value(record).unwrap();
    assert!(bluffchess_rules::verify(&record).is_ok());
    // Replays: the same answer from the cache, then the limit (4 in a burst).
    let path = format!("/api/games/{id}/replay");
    let (status, first) = ts.get_text(&path, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, second) = ts.get_text(&path, None).await;
    assert_eq!((status, &second), (StatusCode::OK, &first));
    let mut limited = false;
    for _ in 0..4 {
        limited |= ts.get_text(&path, None).await.0 == StatusCode::TOO_MANY_REQUESTS;
    }
    assert!(limited, "replays are rate-limited");
    ts.stop().await;
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_existing_sqlite_file_is_made_private() {
    use std::os::unix::fs::PermissionsExt;
    let db = temp_db("file-mode");
    std::fs::write(&db, b"").unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut ts = TestServer::start_on(db.clone(), test_config()).await;
    let mode = std::fs::metadata(&db).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    ts.stop().await;
}
