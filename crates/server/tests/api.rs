//! The API over real HTTP on 127.0.0.1.

mod common;

use bluffchess_rules::registry::VARIANTS;
use bluffchess_rules::seat::Seat;
use bluffchess_server::wire::{Message as FeedMessage, WsReply};
use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// A line the server sent: a feed message or a socket's reply, checked against its type in
/// `bluffchess_server::wire` (it reads back, and writes out again, as exactly this JSON).
fn parse(line: &str) -> Value {
    let value: Value = serde_json::from_str(line).unwrap();
    match value["type"].as_str() {
        Some("ack" | "error") => typed::<WsReply>(&value),
        _ => typed::<FeedMessage>(&value),
    }
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_between_two_api_seats_matches_the_arbiter() {
    let mut ts = TestServer::start("variants").await;
    // Every variant with its default options, then options that add Chance and other hidden
    // choices.
    let with_options = [
        (
            "reality-check",
            json!({"dice": "true", "strategic-retreat": "true"}),
        ),
        (
            "reality-check",
            json!({"board": "advanced", "memory": "true"}),
        ),
        ("bs", json!({"spy": "true"})),
    ];
    // (The option games stop sooner: White resigns after 200 actions.)
    let games = VARIANTS
        .iter()
        .map(|v| (v.id, json!({}), 1500))
        .chain(with_options.map(|(v, o)| (v, o, 200)));
    for (variant_id, options, max) in games {
        let variant = VARIANTS.iter().find(|v| v.id == variant_id).unwrap();
        let (id, tokens) = ts
            .open_and_join_with(variant.id, options, Value::Null)
            .await;
        let mut streams = [
            ts.stream(&id, Some(&tokens[0]), Some(0)).await,
            ts.stream(&id, Some(&tokens[1]), Some(0)).await,
            ts.stream(&id, None, Some(0)).await,
        ];
        let played = ts.play_out(&id, &tokens, max).await;
        assert!(played > 0, "{}: no action played", variant.id);
        let (status, record) = ts.record(&id).await;
        assert_eq!(status, StatusCode::OK, "{}: record: {record}", variant.id);
        for (stream, seat) in streams
            .iter_mut()
            .zip([Seat::White, Seat::Black, Seat::Spectator])
        {
            let messages = stream.rest(WAIT).await;
            let last = parse(messages.last().unwrap());
            assert_eq!(
                last["type"], "end",
                "{}: the stream ends with the end",
                variant.id
            );
            assert_eq!(last["record"], record, "the end message carries the record");
            assert!(!last["outcome"].is_null());
            check_differential(&record, seat, &messages);
        }
        // The whole view of a finished game is the revealed view; its stream closes at once.
        let mut again = ts.stream(&id, Some(&tokens[1]), None).await;
        let messages = again.rest(WAIT).await;
        assert_eq!(messages.len(), 1);
        assert_eq!(parse(&messages[0])["type"], "end");
    }
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_against_the_random_bot_over_websockets() {
    let mut ts = TestServer::start("bots").await;
    for (n, variant) in VARIANTS.iter().enumerate() {
        let color = if n % 2 == 0 { "white" } else { "black" };
        let created = ts
            .create(json!({"variant": variant.id, "color": color, "opponent": "bot:random"}))
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["token"].as_str().unwrap().to_string();
        assert_eq!(created["seat"], color);
        let mut spectator = Socket::open(&ts, &id, None, Some(0)).await;
        let mut socket = Socket::open(&ts, &id, Some(&token), None).await;
        let mut seen = Vec::new();
        let mut actions = 0;
        let end = loop {
            assert!(actions < 3000, "{}: the game does not end", variant.id);
            let text = socket
                .next(WAIT)
                .await
                .expect("the socket stays open until the end");
            let message = parse(&text);
            match message["type"].as_str().unwrap() {
                "ack" => continue,
                "error" => panic!("{}: refused: {message}", variant.id),
                "end" => break message,
                _ => {}
            }
            seen.push(text);
            if let Some(action) = choose(&message) {
                socket.send(json!({"action": action})).await;
                actions += 1;
            }
        };
        assert!(
            socket.next(WAIT).await.is_none(),
            "the socket closes after the end"
        );
        let record = &end["record"];
        assert_eq!(record["variant"], variant.id);
        let (status, fetched) = ts.record(&id).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(&fetched, record);
        let mut watched = Vec::new();
        while let Some(text) = spectator.next(WAIT).await {
            watched.push(text);
        }
        check_differential(record, Seat::Spectator, &watched);
    }
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_draws_abort_and_rematch() {
    let mut ts = TestServer::start("meta").await;
    // Abort before either side has acted; then nothing more is allowed.
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let (status, answer) = ts.post(&id, "abort", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["status"], "aborted");
    let (status, answer) = ts
        .post(
            &id,
            "action",
            Some(&tokens[0]),
            Some(json!({"action": "e2e4"})),
        )
        .await;
    assert_eq!(status, StatusCode::GONE, "{answer}");
    let (status, _) = ts.record(&id).await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Abort after one side acted is still allowed; after both, not.
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let act = |t: usize, a: &'static str| {
        let ts = &ts;
        let id = id.clone();
        let token = tokens[t].clone();
        async move {
            ts.post(&id, "action", Some(&token), Some(json!({"action": a})))
                .await
        }
    };
    assert_eq!(act(0, "e2e4").await.0, StatusCode::OK);
    assert_eq!(act(1, "e7e5").await.0, StatusCode::OK);
    let (status, answer) = ts.post(&id, "abort", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("too late to abort"));
    // No draw to claim in the opening; no offer to accept.
    let (status, answer) = ts.post(&id, "draw/claim", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (status, _) = ts.post(&id, "draw/accept", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // A rematch only once the game is over.
    let (status, _) = ts.post(&id, "rematch", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Offer and accept a draw.
    let (status, _) = ts.post(&id, "draw/offer", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = ts.post(&id, "draw/accept", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["status"], "over");
    assert_eq!(answer["outcome"]["winner"], Value::Null);
    let (status, _) = ts.post(&id, "resign", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::GONE);
    let (status, record) = ts.record(&id).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["meta"].as_array().unwrap().len(), 2);

    // Rematch: both must ask; colours swap and each keeps its token.
    let (status, answer) = ts.post(&id, "rematch", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["rematch"], Value::Null);
    let view = ts.view(&id, Some(&tokens[1])).await;
    assert_eq!(view["rematch"]["asked"]["white"], true);
    let (status, answer) = ts.post(&id, "rematch", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let rematch = answer["rematch"].as_str().unwrap().to_string();
    assert_eq!(answer["seat"], "white", "the old Black plays White");
    let view = ts.view(&id, Some(&tokens[0])).await;
    assert_eq!(view["rematch"]["id"], rematch);
    let new_white = ts.view(&rematch, Some(&tokens[1])).await;
    assert_eq!(new_white["view"]["seat"], "white");
    assert!(!new_white["legal"].as_array().unwrap().is_empty());
    // Each legal action comes with its structure beside its text.
    let e4 = new_white["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["text"] == "e2e4")
        .unwrap();
    assert_eq!(
        *e4,
        json!({"text": "e2e4", "kind": "move", "from": "e2", "to": "e4"})
    );
    let new_black = ts.view(&rematch, Some(&tokens[0])).await;
    assert_eq!(new_black["view"]["seat"], "black");
    // Resign the rematch: the other side wins.
    let (status, answer) = ts.post(&rematch, "resign", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["outcome"]["winner"], "white");

    // Against a bot, asking once is enough.
    let created = ts
        .create(json!({"variant": "chess", "color": "white", "opponent": "bot:random"}))
        .await;
    let bot_game = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let (status, _) = ts.post(bot_game, "resign", Some(token), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = ts.post(bot_game, "rematch", Some(token), None).await;
    assert_eq!(status, StatusCode::OK);
    let rematch = answer["rematch"].as_str().unwrap();
    assert_eq!(ts.view(rematch, Some(token)).await["view"]["seat"], "black");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_threefold_repetition_is_claimed() {
    let mut ts = TestServer::start("claim").await;
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (n, action) in shuffle.iter().chain(&shuffle).enumerate() {
        // Twice is not yet enough.
        if n == 4 {
            let (status, answer) = ts.post(&id, "draw/claim", Some(&tokens[0]), None).await;
            assert_eq!(status, StatusCode::CONFLICT, "{answer}");
        }
        let (status, answer) = ts
            .post(
                &id,
                "action",
                Some(&tokens[n % 2]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action}: {answer}");
    }
    // The start position stands for the third time.
    let (status, answer) = ts.post(&id, "draw/claim", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["status"], "over");
    assert_eq!(answer["outcome"]["winner"], Value::Null);
    let reason = answer["outcome"]["reason"].as_str().unwrap();
    assert!(reason.contains("repetition"), "{answer}");
    let (_, record) = ts.record(&id).await;
    let record: bluffchess_rules::record::Record = serde_json::from_value(record).unwrap();
    bluffchess_rules::any::verify(&record).unwrap();
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_and_a_vanished_seat_loses_by_claim() {
    let mut ts = TestServer::start("clock").await;
    let clock = json!({"initial_s": 0.4, "increment_s": 0});
    let (id, tokens) = ts.open_and_join("chess", clock.clone()).await;
    let mut stream = ts.stream(&id, None, None).await;
    let first = parse(&stream.next_message(WAIT).await.unwrap());
    assert_eq!(first["clock"]["white_ms"], 400);
    assert_eq!(first["clock"]["running"], Value::Null);
    for (t, action) in [(0, "e2e4"), (1, "e7e5")] {
        let (status, _) = ts
            .post(
                &id,
                "action",
                Some(&tokens[t]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    // White's clock now runs; White never moves.
    let messages = stream.rest(Duration::from_secs(5)).await;
    let end = parse(messages.last().unwrap());
    assert_eq!(end["type"], "end");
    assert_eq!(
        end["outcome"],
        json!({"winner": "black", "reason": "timeout", "text": "black wins by time forfeit"})
    );
    assert_eq!(end["clock"]["white_ms"], 0);
    assert_eq!(end["clock"]["black_ms"], 400);
    assert!(end["server_time"].as_i64().unwrap() > 0);
    let (status, answer) = ts
        .post(
            &id,
            "action",
            Some(&tokens[0]),
            Some(json!({"action": "d2d4"})),
        )
        .await;
    assert_eq!(status, StatusCode::GONE, "{answer}");
    let (_, record) = ts.record(&id).await;
    let record: bluffchess_rules::record::Record = serde_json::from_value(record).unwrap();
    bluffchess_rules::any::verify(&record).unwrap();

    // Black closes its stream and stays away: after the grace period White claims the win.
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let black_stream = ts.stream(&id, Some(&tokens[1]), None).await;
    let (status, answer) = ts.post(&id, "claim-victory", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("connected"));
    drop(black_stream);
    let (status, answer) = ts.post(&id, "claim-victory", Some(&tokens[0]), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "too early: {answer}");
    // The server notices the closed stream at its next write (a keepalive), then the grace
    // period runs.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let answer = loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the claim never succeeded"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (status, answer) = ts.post(&id, "claim-victory", Some(&tokens[0]), None).await;
        if status == StatusCode::OK {
            break answer;
        }
        assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    };
    assert_eq!(
        answer["outcome"],
        json!({"winner": "white", "reason": "abandonment", "text": "white wins by abandonment"})
    );
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_resumes_after_a_reconnect_and_sends_keepalives() {
    let mut ts = TestServer::start("resume").await;
    let (id, tokens) = ts.open_and_join("alter-ego", Value::Null).await;
    let mut steady = ts.stream(&id, Some(&tokens[1]), Some(0)).await;
    let mut first = ts.stream(&id, Some(&tokens[1]), Some(0)).await;
    let mut got = Vec::new();
    for (t, action) in [(0, "e2e4"), (1, "e7e5"), (0, "g1f3")] {
        let (status, _) = ts
            .post(
                &id,
                "action",
                Some(&tokens[t]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    for _ in 0..3 {
        got.push(first.next_message(WAIT).await.unwrap());
    }
    drop(first);
    for (t, action) in [(1, "b8c6"), (0, "f1b5")] {
        let (status, _) = ts
            .post(
                &id,
                "action",
                Some(&tokens[t]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let last_seq = parse(got.last().unwrap())["seq"].as_u64().unwrap() as usize;
    let mut resumed = ts.stream(&id, Some(&tokens[1]), Some(last_seq)).await;
    let total = ts.view(&id, Some(&tokens[1])).await["seq"]
        .as_u64()
        .unwrap() as usize;
    assert!(total > last_seq + 1);
    let mut reference = Vec::new();
    while reference.len() < total {
        reference.push(steady.next_message(WAIT).await.unwrap());
    }
    while got.len() < total {
        got.push(resumed.next_message(WAIT).await.unwrap());
    }
    // Each message is stamped with the time (and clocks) of its sending: the rest is the same.
    let unstamped = |lines: &[String]| {
        lines
            .iter()
            .map(|l| {
                let mut m = parse(l);
                m.as_object_mut().unwrap().remove("server_time");
                m
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        unstamped(&got),
        unstamped(&reference),
        "resuming with since loses and repeats nothing"
    );
    // Silence brings keepalives (empty lines) and nothing else.
    let line = resumed.next_line(Duration::from_secs(2)).await.unwrap();
    assert_eq!(line, "");
    // Without since, the whole view comes first, numbered as the last message.
    let mut fresh = ts.stream(&id, Some(&tokens[1]), None).await;
    let whole = parse(&fresh.next_message(WAIT).await.unwrap());
    assert_eq!(whole["type"], "view");
    assert_eq!(whole["seq"], parse(reference.last().unwrap())["seq"]);
    let mut view = Value::Null;
    for m in &reference {
        apply(&mut view, &parse(m));
    }
    assert_eq!(whole["view"], view);
    ts.stop().await;
}

/// Plays the same script in two BS games that differ only in White's hidden setup, and returns
/// everything Black and the spectators received, over every channel.
async fn bs_channels(ts: &TestServer, white_setup: &str) -> (Vec<String>, String) {
    let (id, tokens) = ts.open_and_join("bs", Value::Null).await;
    let mut streams = [
        ts.stream(&id, Some(&tokens[1]), Some(0)).await,
        ts.stream(&id, None, Some(0)).await,
    ];
    let mut sockets = [
        Socket::open(ts, &id, Some(&tokens[1]), Some(0)).await,
        Socket::open(ts, &id, None, Some(0)).await,
    ];
    let mut out = Vec::new();
    let white = |action: String| {
        let id = id.clone();
        let token = tokens[0].clone();
        async move {
            let (status, answer) = ts
                .post(&id, "action", Some(&token), Some(json!({"action": action})))
                .await;
            assert_eq!(status, StatusCode::OK, "{answer}");
        }
    };
    white(white_setup.to_string()).await;
    let (status, answer) = ts
        .post(
            &id,
            "action",
            Some(&tokens[1]),
            Some(json!({"action": "setup standard"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "black's setup: {answer}");
    out.push(stripped(&ts.view(&id, Some(&tokens[1])).await.to_string()));
    out.push(stripped(&ts.view(&id, None).await.to_string()));
    // Then both sides follow Black's view: White plays the first legal action both setups allow
    // (pawn moves), Black the first of its list.
    for step in 0..8 {
        let black_view = ts.view(&id, Some(&tokens[1])).await;
        let black_legal: Vec<&str> = black_view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        if !black_legal.is_empty() {
            let action = if black_legal.contains(&"accept") {
                "accept"
            } else {
                black_legal[0]
            };
            let (status, answer) = ts
                .post(
                    &id,
                    "action",
                    Some(&tokens[1]),
                    Some(json!({"action": action})),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "black {action}: {answer}");
        } else {
            let pawn_moves = [
                "e2e4", "d2d4", "a2a3", "h2h3", "c2c3", "f2f3", "b2b3", "g2g3",
            ];
            let white_view = ts.view(&id, Some(&tokens[0])).await;
            let legal: Vec<&str> = white_view["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            let action = ["accept"]
                .iter()
                .chain(pawn_moves.iter())
                .find(|a| legal.contains(a))
                .or_else(|| legal.iter().find(|a| a.starts_with("remove")))
                .unwrap_or_else(|| panic!("step {step}: none of the script is legal: {legal:?}"));
            white(action.to_string()).await;
        }
        for (status, body) in [
            ts.post(
                &id,
                "action",
                Some(&tokens[1]),
                Some(json!({"action": "zz9"})),
            )
            .await,
            ts.post(
                &id,
                "action",
                Some(&tokens[1]),
                Some(json!({"action": "a7a1"})),
            )
            .await,
            ts.post(&id, "draw/claim", Some(&tokens[1]), None).await,
        ] {
            assert!(status.is_client_error());
            out.push(format!("{status} {}", stripped(&body.to_string())));
        }
        out.push(stripped(&ts.view(&id, Some(&tokens[1])).await.to_string()));
        out.push(stripped(&ts.view(&id, None).await.to_string()));
    }
    // Stop short of the end (the end reveals everything), and collect the channels.
    let black_seq = ts.view(&id, Some(&tokens[1])).await["seq"]
        .as_u64()
        .unwrap() as usize;
    let spectator_seq = ts.view(&id, None).await["seq"].as_u64().unwrap() as usize;
    for (stream, count) in streams.iter_mut().zip([black_seq, spectator_seq]) {
        for _ in 0..count {
            out.push(stripped(&stream.next_message(WAIT).await.unwrap()));
        }
    }
    for (socket, count) in sockets.iter_mut().zip([black_seq, spectator_seq]) {
        for _ in 0..count {
            out.push(stripped(&socket.next(WAIT).await.unwrap()));
        }
    }
    // Whatever Black and the spectators see never holds White's token.
    let everything = out.join("\n");
    assert!(!everything.contains(tokens[0].as_str()));
    let (_, lobby) = ts.get_text("/api/games", None).await;
    assert!(!lobby.contains(tokens[0].as_str()) && !lobby.contains(tokens[1].as_str()));
    (out, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_choice_changes_nothing_the_other_seat_or_spectators_receive() {
    let mut ts = TestServer::start("leak").await;
    let (a, id_a) = bs_channels(&ts, "setup RNBQKBNR/PPPPPPPP").await;
    let (b, id_b) = bs_channels(&ts, "setup RBNKQNBR/PPPPPPPP").await;
    assert_ne!(id_a, id_b);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            x, y,
            "the other seat or a spectator can tell the setups apart"
        );
    }
    // The check can fail: White's own view does differ.
    let (id, tokens) = ts.open_and_join("bs", Value::Null).await;
    let (id2, tokens2) = ts.open_and_join("bs", Value::Null).await;
    for (id, tokens, setup) in [
        (&id, &tokens, "setup RNBQKBNR/PPPPPPPP"),
        (&id2, &tokens2, "setup RBNKQNBR/PPPPPPPP"),
    ] {
        let (status, _) = ts
            .post(
                id,
                "action",
                Some(&tokens[0]),
                Some(json!({"action": setup})),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let white_a = stripped(&ts.view(&id, Some(&tokens[0])).await.to_string());
    let white_b = stripped(&ts.view(&id2, Some(&tokens2[0])).await.to_string());
    assert_ne!(white_a, white_b);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_request_is_refused_with_json_and_changes_nothing() {
    let mut ts = TestServer::start("bad").await;
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    let (status, _) = ts
        .post(
            &id,
            "action",
            Some(&tokens[0]),
            Some(json!({"action": "e2e4"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let before = [
        stripped(&ts.view(&id, Some(&tokens[0])).await.to_string()),
        stripped(&ts.view(&id, Some(&tokens[1])).await.to_string()),
    ];
    let base = ts.base.clone();
    let http = ts.http.clone();
    let action_url = format!("{base}/api/games/{id}/action");
    let black = tokens[1].clone();
    let white = tokens[0].clone();
    let big = "x".repeat(10_000);
    let cases: Vec<(StatusCode, &str, reqwest::RequestBuilder)> = vec![
        (
            StatusCode::BAD_REQUEST,
            "malformed JSON",
            http.post(&action_url)
                .bearer_auth(&black)
                .header("content-type", "application/json")
                .body("{\"action\":"),
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "missing field",
            http.post(&action_url).bearer_auth(&black).json(&json!({})),
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown field",
            http.post(&action_url)
                .bearer_auth(&black)
                .json(&json!({"action": "e7e5", "extra": 1})),
        ),
        (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "not JSON",
            http.post(&action_url)
                .bearer_auth(&black)
                .body("{\"action\":\"e7e5\"}"),
        ),
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            "too large",
            http.post(&action_url)
                .bearer_auth(&black)
                .json(&json!({"action": big})),
        ),
        (
            StatusCode::NOT_FOUND,
            "unknown game",
            http.post(format!("{base}/api/games/nosuchgame/action"))
                .bearer_auth(&black)
                .json(&json!({"action": "e7e5"})),
        ),
        (
            StatusCode::UNAUTHORIZED,
            "no token",
            http.post(&action_url).json(&json!({"action": "e7e5"})),
        ),
        (
            StatusCode::UNAUTHORIZED,
            "not Bearer",
            http.post(&action_url)
                .header("authorization", format!("Basic {black}"))
                .json(&json!({"action": "e7e5"})),
        ),
        (
            StatusCode::FORBIDDEN,
            "wrong token",
            http.post(&action_url)
                .bearer_auth("0123456789abcdef0123456789abcdef")
                .json(&json!({"action": "e7e5"})),
        ),
        (
            StatusCode::FORBIDDEN,
            "another game's token",
            http.post(&action_url)
                .bearer_auth(format!("{white}0"))
                .json(&json!({"action": "e7e5"})),
        ),
        (
            StatusCode::CONFLICT,
            "the other seat's token: not its turn",
            http.post(&action_url)
                .bearer_auth(&white)
                .json(&json!({"action": "d2d4"})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "illegal action",
            http.post(&action_url)
                .bearer_auth(&black)
                .json(&json!({"action": "e7e4"})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "unreadable action",
            http.post(&action_url)
                .bearer_auth(&black)
                .json(&json!({"action": "hello"})),
        ),
        (
            StatusCode::CONFLICT,
            "no open seat",
            http.post(format!("{base}/api/games/{id}/join")),
        ),
        (
            StatusCode::CONFLICT,
            "record before the end",
            http.get(format!("{base}/api/games/{id}/record")),
        ),
        (
            StatusCode::UNAUTHORIZED,
            "resign without token",
            http.post(format!("{base}/api/games/{id}/resign")),
        ),
        (
            StatusCode::BAD_REQUEST,
            "bad since",
            http.get(format!("{base}/api/games/{id}/stream?since=-1")),
        ),
        (
            StatusCode::BAD_REQUEST,
            "unknown query",
            http.get(format!("{base}/api/games/{id}/stream?token={black}")),
        ),
        (
            StatusCode::NOT_FOUND,
            "unknown route",
            http.get(format!("{base}/api/nothing")),
        ),
        (
            StatusCode::METHOD_NOT_ALLOWED,
            "wrong method",
            http.delete(format!("{base}/api/games/{id}/view")),
        ),
        (
            StatusCode::BAD_REQUEST,
            "unknown variant",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "checkers"})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "unknown option",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "bs", "options": {"nope": true}})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "unknown bot",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "chess", "opponent": "bot:deep"})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "bad opponent",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "chess", "opponent": "me"})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "bad colour",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "chess", "color": "red"})),
        ),
        (
            StatusCode::BAD_REQUEST,
            "bad clock",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "chess", "clock": {"initial_s": -1, "increment_s": 0}})),
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "clock missing a field",
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "chess", "clock": {"initial_s": 60}})),
        ),
    ];
    for (expected, what, request) in cases {
        let response = request.send().await.unwrap();
        let status = response.status();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string());
        let text = response.text().await.unwrap();
        assert_eq!(status, expected, "{what}: {text}");
        assert_eq!(content_type.as_deref(), Some("application/json"), "{what}");
        let body: Value = serde_json::from_str(&text).unwrap();
        let error = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {text}"));
        assert!(!error.is_empty());
        assert!(
            !error.contains(&white) && !error.contains(&black),
            "{what}: a token in an error"
        );
    }
    let after = [
        stripped(&ts.view(&id, Some(&tokens[0])).await.to_string()),
        stripped(&ts.view(&id, Some(&tokens[1])).await.to_string()),
    ];
    assert_eq!(before, after, "a refused request changed the game");
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(
        lobby["open"].as_array().unwrap().len(),
        0,
        "refused creations left games"
    );
    // A finished game refuses actions with 410.
    let (status, _) = ts.post(&id, "resign", Some(&tokens[1]), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = ts
        .post(
            &id,
            "action",
            Some(&tokens[1]),
            Some(json!({"action": "e7e5"})),
        )
        .await;
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(body["error"], "the game is over");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_on_live_games_and_request_rates() {
    let mut config = test_config();
    config.max_live_per_client = 2;
    config.max_streams_per_client = 2;
    config.create_burst = 3;
    config.create_period = Duration::from_secs(60);
    let mut ts = TestServer::start_with("limits", config).await;
    let game = json!({"variant": "chess", "opponent": "open", "color": "white"});
    let first = ts.create(game.clone()).await;
    // Nobody may act before the open seat is taken.
    let id = first["id"].as_str().unwrap();
    let waiting = ts.view(id, first["token"].as_str()).await;
    assert_eq!(waiting["status"], "open");
    assert_eq!(waiting["legal"], json!([]));
    let (status, body) = ts
        .post(
            id,
            "action",
            first["token"].as_str(),
            Some(json!({"action": "e2e4"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let second = ts.create(game.clone()).await;
    let (status, body) = ts.post_raw("/api/games", None, Some(game.clone())).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body["error"].as_str().unwrap().contains("live games"));
    // Ending one frees a place, but the creation rate is spent.
    let id = first["id"].as_str().unwrap();
    let (status, _) = ts.post(id, "abort", first["token"].as_str(), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = ts.post_raw("/api/games", None, Some(game.clone())).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("too many requests"));
    // Two open streams or sockets per client here: a third is refused until one closes.
    let id = second["id"].as_str().unwrap();
    let one = ts.stream(id, None, None).await;
    let _two = Socket::open(&ts, id, None, None).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let response = reqwest::get(format!("{}/api/games/{id}/stream", ts.base))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("open streams"));
    drop(one);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (status, _) = ts.get_text(&format!("/api/games/{id}/view"), None).await;
        assert_eq!(status, StatusCode::OK);
        let response = reqwest::get(format!("{}/api/games/{id}/stream", ts.base))
            .await
            .unwrap();
        if response.status() == StatusCode::OK {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the closed stream was never uncounted"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The lobby is not rate limited.
    let (status, lobby) = ts.get("/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(lobby["open"].as_array().unwrap().len(), 1);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_replays_every_game() {
    let mut ts = TestServer::start("restart").await;
    let mut games = Vec::new();
    for variant in VARIANTS {
        let (id, tokens) = ts
            .open_and_join(variant.id, json!({"initial_s": 600, "increment_s": 2}))
            .await;
        ts.play_out(&id, &tokens, 12).await;
        games.push((id, tokens));
    }
    let (open_id, open_token) = {
        let created = ts.create(json!({"variant": "chess"})).await;
        (
            created["id"].as_str().unwrap().to_string(),
            created["token"].as_str().unwrap().to_string(),
        )
    };
    let (live_id, live_tokens) = ts
        .open_and_join("alter-ego", json!({"initial_s": 600, "increment_s": 2}))
        .await;
    for (t, action) in [(0, "e2e4"), (1, "d7d5"), (1, "transfer c7")] {
        let (status, answer) = ts
            .post(
                &live_id,
                "action",
                Some(&live_tokens[t]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action}: {answer}");
    }
    let before: Vec<[Value; 3]> = {
        let mut all = Vec::new();
        for (id, tokens) in games
            .iter()
            .chain([(live_id.clone(), live_tokens.clone())].iter())
        {
            let mut three = Vec::new();
            for token in [Some(tokens[0].as_str()), Some(tokens[1].as_str()), None] {
                let mut stream = ts.stream(id, token, Some(0)).await;
                let seq = ts.view(id, token).await["seq"].as_u64().unwrap();
                let mut messages = Vec::new();
                for _ in 0..seq {
                    messages.push(strip(&parse(&stream.next_message(WAIT).await.unwrap())));
                }
                three.push(Value::Array(messages));
            }
            all.push(three.try_into().unwrap());
        }
        all
    };
    ts.stop().await;
    let mut ts = ts.restart(test_config()).await;
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(lobby["open"][0]["id"], open_id.as_str());
    assert!(lobby["live"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == live_id.as_str()));
    for (n, (id, tokens)) in games
        .iter()
        .chain([(live_id.clone(), live_tokens.clone())].iter())
        .enumerate()
    {
        for (k, token) in [Some(tokens[0].as_str()), Some(tokens[1].as_str()), None]
            .into_iter()
            .enumerate()
        {
            let mut stream = ts.stream(id, token, Some(0)).await;
            let seq = ts.view(id, token).await["seq"].as_u64().unwrap();
            let mut messages = Vec::new();
            for _ in 0..seq {
                messages.push(strip(&parse(&stream.next_message(WAIT).await.unwrap())));
            }
            assert_eq!(
                Value::Array(messages),
                before[n][k],
                "game {id}: the replay differs"
            );
        }
    }
    // The open seat can still be taken, and the live game goes on.
    let (status, joined) = ts.post(&open_id, "join", None, None).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let _ = open_token;
    let (status, answer) = ts
        .post(
            &live_id,
            "action",
            Some(&live_tokens[0]),
            Some(json!({"action": "e4d5"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    ts.play_out(&live_id, &live_tokens, 2000).await;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_docs_and_the_python_bot() {
    let mut ts = TestServer::start("python").await;
    let (status, home) = ts.get_text("/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(home.contains("/docs/api.md"));
    let (status, doc) = ts.get_text("/docs/api.md", None).await;
    assert_eq!(status, StatusCode::OK);
    let section = doc
        .find("## A bot in Python")
        .expect("docs/api.md has a Python bot");
    let start = section + doc[section..].find("```python\n").unwrap() + 10;
    let end = start + doc[start..].find("```").unwrap();
    let script = &doc[start..end];
    assert!(script.lines().count() <= 40, "the bot is short");
    let path = temp_db("bot").with_extension("py");
    std::fs::write(&path, script).unwrap();
    let base = ts.base.clone();
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        tokio::process::Command::new("python3")
            .arg(&path)
            .arg(&base)
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the Python bot finishes in time")
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "python bot failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("game over: "), "{stdout}");
    let id = last.split_whitespace().last().unwrap();
    let (status, record) = ts.record(id).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!record["actions"].as_array().unwrap().is_empty());
    let _ = std::fs::remove_file(path);
    ts.stop().await;
}

/// Plays `script` ((seat, action) pairs) in a new game of `variant` and returns everything
/// `observer` (a seat index) and the spectators received over every channel, errors included.
async fn scripted_channels(
    ts: &TestServer,
    variant: &str,
    script: &[(usize, &str)],
    observer: usize,
) -> Vec<String> {
    let (id, tokens) = ts.open_and_join(variant, Value::Null).await;
    let watcher = Some(tokens[observer].as_str());
    let mut streams = [
        ts.stream(&id, watcher, Some(0)).await,
        ts.stream(&id, None, Some(0)).await,
    ];
    let mut sockets = [
        Socket::open(ts, &id, watcher, Some(0)).await,
        Socket::open(ts, &id, None, Some(0)).await,
    ];
    let mut out = Vec::new();
    for (seat, action) in script {
        let (status, answer) = ts
            .post(
                &id,
                "action",
                Some(&tokens[*seat]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action}: {answer}");
        // The observer's refusals, over HTTP and over its socket.
        for (status, body) in [
            ts.post(&id, "action", watcher, Some(json!({"action": "zz9"})))
                .await,
            ts.post(&id, "action", watcher, Some(json!({"action": "a1a8"})))
                .await,
            ts.post(&id, "draw/claim", watcher, None).await,
            ts.post(&id, "rematch", watcher, None).await,
        ] {
            assert!(status.is_client_error(), "{body}");
            out.push(format!("{status} {}", stripped(&body.to_string())));
        }
        out.push(stripped(&ts.view(&id, watcher).await.to_string()));
        out.push(stripped(&ts.view(&id, None).await.to_string()));
    }
    let counts = [
        ts.view(&id, watcher).await["seq"].as_u64().unwrap(),
        ts.view(&id, None).await["seq"].as_u64().unwrap(),
    ];
    for (stream, count) in streams.iter_mut().zip(counts) {
        for _ in 0..count {
            out.push(stripped(&stream.next_message(WAIT).await.unwrap()));
        }
    }
    for (socket, count) in sockets.iter_mut().zip(counts) {
        for _ in 0..count {
            out.push(stripped(&socket.next(WAIT).await.unwrap()));
        }
    }
    let socket = &mut sockets[0];
    for message in [json!({"action": "zz9"}), json!({"command": "claim_draw"})] {
        socket.send(message).await;
        out.push(stripped(&socket.next(WAIT).await.unwrap()));
    }
    let spectator = &mut sockets[1];
    spectator.send(json!({"action": "e2e4"})).await;
    out.push(stripped(&spectator.next(WAIT).await.unwrap()));
    let everything = out.join("\n");
    assert!(!everything.contains(tokens[1 - observer].as_str()));
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_alter_ego_decision_changes_nothing_white_or_spectators_receive() {
    let mut ts = TestServer::start("leak-ae").await;
    // The rules reveal the decision with White's next move: compare up to then.
    let script = |decision: &'static str| vec![(0, "e2e4"), (1, "d7d5"), (1, decision)];
    let (stay, transfer) = (script("stay"), script("transfer b8"));
    assert_hidden(&ts, "alter-ego", [&stay, &transfer], 0).await;
    ts.stop().await;
}

/// Checks that two scripts differing only in one seat's hidden choice send the other seat
/// (`observer`) and the spectators byte-identical messages, and that the chooser can tell them
/// apart (so the comparison is not blind).
async fn assert_hidden(
    ts: &TestServer,
    variant: &str,
    scripts: [&[(usize, &str)]; 2],
    observer: usize,
) {
    let a = scripted_channels(ts, variant, scripts[0], observer).await;
    let b = scripted_channels(ts, variant, scripts[1], observer).await;
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            x, y,
            "{variant}: the other seat or a spectator can tell the games apart"
        );
    }
    let chooser_a = scripted_channels(ts, variant, scripts[0], 1 - observer).await;
    let chooser_b = scripted_channels(ts, variant, scripts[1], 1 - observer).await;
    assert_ne!(
        chooser_a, chooser_b,
        "{variant}: the chooser's own channels differ"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reality_check_setup_changes_nothing_black_or_spectators_receive() {
    let mut ts = TestServer::start("leak-rc").await;
    // Same faces up, different hidden faces on c2 and in the hand.
    let setups = [
        "setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN",
        "setup d1=RR c2=NN e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NB",
    ];
    let script = |setup| {
        vec![
            (0, setup),
            (
                1,
                "setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN",
            ),
            (0, "b3b4"),
            (0, "flip c8"),
            (1, "f7f6"),
            (1, "flip d2"),
            (0, "c2d4"),
            (0, "flip e8"),
        ]
    };
    let (a, b) = (script(setups[0]), script(setups[1]));
    assert_hidden(&ts, "reality-check", [&a, &b], 1).await;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bluff_and_a_real_move_change_nothing_black_or_spectators_receive() {
    let mut ts = TestServer::start("leak-bluff").await;
    let script = |first| vec![(0, first), (1, "e7e5"), (0, "g1f3"), (1, "b8c6")];
    let (a, b) = (script("bluff e2e4"), script("e2e4"));
    assert_hidden(&ts, "bluff-move", [&a, &b], 1).await;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_leaves_memory_and_comes_back_from_the_database() {
    let mut config = test_config();
    config.evict_after = Duration::from_millis(200);
    let mut ts = TestServer::start_with("evict", config).await;
    let (id, tokens) = ts.open_and_join("bs", Value::Null).await;
    ts.play_out(&id, &tokens, 30).await;
    let before = ts.view(&id, Some(&tokens[1])).await;
    let (_, record) = ts.record(&id).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let after = ts.view(&id, Some(&tokens[1])).await;
    assert_eq!(strip(&before), strip(&after));
    let (status, again) = ts.record(&id).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, record);
    let mut stream = ts.stream(&id, None, None).await;
    let end = parse(&stream.next_message(WAIT).await.unwrap());
    assert_eq!(end["type"], "end");
    assert!(stream.next_message(WAIT).await.is_none());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_refuse_bad_hellos_and_shutdown_closes_every_stream() {
    let mut ts = TestServer::start("shutdown").await;
    let (id, tokens) = ts.open_and_join("chess", Value::Null).await;
    // A socket whose first message names no seat of the game is refused and closed.
    let mut socket = Socket::open(&ts, &id, Some("00112233445566778899aabbccddeeff"), None).await;
    let refusal = parse(&socket.next(WAIT).await.unwrap());
    assert_eq!(refusal["type"], "error");
    assert_eq!(refusal["status"], 403);
    assert!(socket.next(WAIT).await.is_none());
    let url = format!("ws://{}/api/games/{id}/ws", ts.addr);
    let (mut raw, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    raw.send(tokio_tungstenite::tungstenite::Message::Text(
        "hello".into(),
    ))
    .await
    .unwrap();
    let Some(Ok(tokio_tungstenite::tungstenite::Message::Text(text))) = raw.next().await else {
        panic!("no refusal");
    };
    assert_eq!(parse(&text)["status"], 400);
    // Open streams and sockets end when the server stops, within the drain time.
    let mut stream = ts.stream(&id, Some(&tokens[0]), None).await;
    let mut spectator = ts.stream(&id, None, None).await;
    let mut socket = Socket::open(&ts, &id, Some(&tokens[1]), None).await;
    assert!(stream.next_message(WAIT).await.is_some());
    assert!(spectator.next_message(WAIT).await.is_some());
    assert!(socket.next(WAIT).await.is_some());
    let stopped = std::time::Instant::now();
    ts.stop().await;
    assert!(
        stopped.elapsed() < Duration::from_secs(2),
        "shutdown waited on streams"
    );
    assert!(stream.rest(WAIT).await.is_empty());
    assert!(spectator.rest(WAIT).await.is_empty());
    assert!(socket.next(WAIT).await.is_none());
}

mod bots {
    use super::*;
    use bluffchess_rules::record::Record;
    use bluffchess_server::bot::{random_choice, Bot, Turn};
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};

    /// Keeps every view it is handed.
    struct Recorder(Mutex<Vec<Value>>);

    impl Bot for Recorder {
        fn act(&self, turn: &Turn) -> String {
            let view = serde_json::to_value(turn.decision.view()).unwrap();
            self.0.lock().unwrap().push(view);
            random_choice(turn.decision, turn.seed)
        }
    }

    struct Slow;

    impl Bot for Slow {
        fn act(&self, _turn: &Turn) -> String {
            std::thread::sleep(Duration::from_millis(600));
            "never played".into()
        }
    }

    struct Nonsense;

    impl Bot for Nonsense {
        fn act(&self, _turn: &Turn) -> String {
            "nonsense".into()
        }
    }

    struct Panics;

    impl Bot for Panics {
        fn act(&self, _turn: &Turn) -> String {
            panic!("a bot bug")
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_bot_sees_only_its_view_and_a_failing_bot_is_replaced() {
        let recorder = Arc::new(Recorder(Mutex::new(Vec::new())));
        let mut bots: HashMap<String, Arc<dyn Bot>> = HashMap::new();
        bots.insert("recorder".into(), recorder.clone());
        bots.insert("slow".into(), Arc::new(Slow));
        bots.insert("nonsense".into(), Arc::new(Nonsense));
        bots.insert("panics".into(), Arc::new(Panics));
        let mut config = test_config();
        config.bot_time = Duration::from_millis(150);
        let mut ts = TestServer::start_full(temp_db("custom-bots"), config, bots).await;

        // The recorder plays Black in BS (hidden setups): every view it was handed is the
        // arbiter's view of Black at some point of the game, in order.
        let created = ts
            .create(json!({"variant": "bs", "color": "white", "opponent": "bot:recorder"}))
            .await;
        let id = created["id"].as_str().unwrap();
        let token = created["token"].as_str().unwrap();
        let mut socket = Socket::open(&ts, id, Some(token), None).await;
        let mut record = Value::Null;
        for _ in 0..3000 {
            let message = parse(&socket.next(WAIT).await.unwrap());
            if message["type"] == "end" {
                record = message["record"].clone();
                break;
            }
            if let Some(action) = choose(&message) {
                socket.send(json!({"action": action})).await;
            }
        }
        let record: Record = serde_json::from_value(record).expect("the game ended");
        let views = arbiter_views(&record, Seat::Black);
        let seen = recorder.0.lock().unwrap().clone();
        assert!(seen.len() > 1);
        let mut at = 0;
        for view in &seen {
            assert_eq!(view["seat"], "black");
            while at < views.len() && views[at] != *view {
                at += 1;
            }
            assert!(
                at < views.len(),
                "the bot was handed something else: {view}"
            );
        }

        // A late, illegal or panicking bot is replaced by a random legal action.
        for name in ["slow", "nonsense", "panics"] {
            let created = ts
                .create(json!({"variant": "chess", "color": "white", "opponent": format!("bot:{name}")}))
                .await;
            let id = created["id"].as_str().unwrap();
            let token = created["token"].as_str().unwrap();
            for action in ["e2e3", "d1e2", "e2d1"] {
                let deadline = std::time::Instant::now() + Duration::from_secs(10);
                while ts.view(id, Some(token)).await["legal"] == json!([]) {
                    assert!(
                        std::time::Instant::now() < deadline,
                        "bot:{name} never moved"
                    );
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                let (status, answer) = ts
                    .post(id, "action", Some(token), Some(json!({"action": action})))
                    .await;
                assert_eq!(status, StatusCode::OK, "bot:{name}, {action}: {answer}");
            }
        }
        ts.stop().await;
    }
}
