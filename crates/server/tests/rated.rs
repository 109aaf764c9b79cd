//! Rated play through the API (SQLite, or Postgres with `BLUFFCHESS_TEST_DATABASE=postgres`):
//! quick pairing, rated games and their rating changes checked against a computation of the
//! test's own, the event stream, challenges accepted, declined, cancelled and expired, games
//! against the server's bots, players' pages, exports that `verify` accepts, leaderboards, and
//! every bad request refused with a clear 4xx that changes nothing.

mod common;

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

/// Glicko-2 computed here, independently of the server's: Glickman's steps with step 5 solved by
/// plain bisection, and lichess's deviation growth of 0.21436 rating periods a day.
mod glicko {
    const SCALE: f64 = 173.7178;
    const TAU: f64 = 0.75;

    #[derive(Clone, Copy, Debug)]
    pub struct Rating {
        pub r: f64,
        pub rd: f64,
        pub vol: f64,
        /// When its last rated game ended, ms.
        pub last: Option<i64>,
    }

    impl Rating {
        pub fn new() -> Rating {
            Rating {
                r: 1500.0,
                rd: 500.0,
                vol: 0.09,
                last: None,
            }
        }
    }

    /// Both players' ratings after one game between them that White scored `score` in.
    pub fn game(white: Rating, black: Rating, score: f64, at: i64) -> (Rating, Rating) {
        (
            one(white, black, score, at),
            one(black, white, 1.0 - score, at),
        )
    }

    fn one(me: Rating, them: Rating, score: f64, at: i64) -> Rating {
        let (mu, phi) = ((me.r - 1500.0) / SCALE, me.rd / SCALE);
        let (mu_j, phi_j) = ((them.r - 1500.0) / SCALE, them.rd / SCALE);
        let g = 1.0 / (1.0 + 3.0 * phi_j.powi(2) / std::f64::consts::PI.powi(2)).sqrt();
        let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        let v = 1.0 / (g * g * e * (1.0 - e));
        let delta = v * g * (score - e);
        let a = (me.vol * me.vol).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta.powi(2) - phi.powi(2) - v - ex) / (2.0 * (phi.powi(2) + v + ex).powi(2))
                - (x - a) / (TAU * TAU)
        };
        // f falls from positive to negative: bisect a wide bracket around a.
        let (mut low, mut high) = (a - 20.0, a + 20.0);
        for _ in 0..200 {
            let mid = (low + high) / 2.0;
            if f(mid) > 0.0 {
                low = mid;
            } else {
                high = mid;
            }
        }
        let vol = ((low + high) / 4.0).exp();
        let periods = me
            .last
            .map_or(0.0, |last| (at - last) as f64 / 86_400_000.0 * 0.21436);
        let phi_star = (phi * phi + periods * vol * vol).sqrt();
        let phi_new = 1.0 / (1.0 / phi_star.powi(2) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new.powi(2) * g * (score - e);
        Rating {
            r: mu_new * SCALE + 1500.0,
            rd: (phi_new * SCALE).min(500.0),
            vol,
            last: Some(at),
        }
    }
}

async fn api(
    ts: &TestServer,
    who: &mut Browser,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    send(ts, who, method, path, body, None).await
}

/// The next event of a stream (skipping keepalives), as JSON, checked against the wire type.
async fn next_event(lines: &mut Lines) -> Value {
    let line = lines.next_message(WAIT).await.expect("an event");
    let event: Value = serde_json::from_str(&line).unwrap();
    typed::<bluffchess_server::wire::AccountEvent>(&event);
    event
}

fn seek_terms(rated: bool) -> Value {
    json!({"variant": "chess", "clock": {"initial_s": 300, "increment_s": 0}, "rated": rated})
}

/// Pairs `a` (named `a_name`) and `b` through the quick-pairing pool: `a` waits, `b` is paired
/// with it at once. Answers the game and `a`'s seat (0 White, 1 Black).
async fn pool_pair(
    ts: &TestServer,
    (a, a_name): (&mut Browser, &str),
    b: &mut Browser,
) -> (String, usize) {
    let (status, waiting) = api(ts, a, Method::POST, "/api/seek", Some(seek_terms(true))).await;
    assert_eq!(status, StatusCode::CREATED, "{waiting}");
    typed::<bluffchess_server::wire::SeekAnswer>(&waiting);
    assert!(waiting["game"].is_null());
    let (status, lobby) = ts.get("/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    typed::<bluffchess_server::wire::Lobby>(&lobby);
    assert!(lobby["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["id"] == waiting["id"]));
    let (status, matched) = api(ts, b, Method::POST, "/api/seek", Some(seek_terms(true))).await;
    assert_eq!(status, StatusCode::CREATED, "{matched}");
    let game = matched["game"]
        .as_str()
        .expect("paired at once")
        .to_string();
    let (_, view) = api(ts, a, Method::GET, &format!("/api/games/{game}/view"), None).await;
    let a_white = view["names"]["white"] == a_name;
    (game, if a_white { 0 } else { 1 })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_rates_both_players_as_glicko_2_says() {
    let mut ts = TestServer::start("rated-pool").await;
    let mut alice = signup(&ts, "alice", "correct horse battery").await;
    let mut bob = signup(&ts, "bob", "another good password").await;
    let mut alice_events = event_stream(&ts, &alice).await;
    let mut bob_events = event_stream(&ts, &bob).await;

    let mut expected = [glicko::Rating::new(), glicko::Rating::new()];
    for round in 0..3 {
        let (game, alice_seat) = pool_pair(&ts, (&mut alice, "alice"), &mut bob).await;
        for events in [&mut alice_events, &mut bob_events] {
            let start = next_event(events).await;
            assert_eq!(start["type"], "gameStart", "{start}");
            assert_eq!(start["game"]["gameId"], game.as_str());
            assert_eq!(start["game"]["rated"], true);
        }
        let mut players = if alice_seat == 0 {
            [alice.clone(), bob.clone()]
        } else {
            [bob.clone(), alice.clone()]
        };
        let ends = play_out_as(&ts, &game, &mut players, 6 + round).await;
        for end in &ends {
            typed::<bluffchess_server::wire::Message>(end);
            assert_eq!(end["status"], "over", "{end}");
        }
        let winner = ends[0]["outcome"]["winner"].as_str();
        let white_score = match winner {
            Some("white") => 1.0,
            Some("black") => 0.0,
            _ => 0.5,
        };
        let finish = next_event(&mut alice_events).await;
        assert_eq!(finish["type"], "gameFinish", "{finish}");
        let _ = next_event(&mut bob_events).await;
        // The rating changes in the end message, against this test's own Glicko-2.
        let (_, history) = ts.get("/api/user/alice/rating-history", None).await;
        let at = history["chess"].as_array().unwrap().last().unwrap()["at_ms"]
            .as_i64()
            .unwrap();
        let (white, black) = (expected[alice_seat], expected[1 - alice_seat]);
        let (white, black) = glicko::game(white, black, white_score, at);
        expected[alice_seat] = white;
        expected[1 - alice_seat] = black;
        let ratings = &ends[0]["ratings"];
        for (seat, rating) in [("white", white), ("black", black)] {
            let after = ratings[seat]["after"].as_f64().unwrap();
            assert!(
                (after - rating.r).abs() < 0.01,
                "round {round} {seat}: {after} vs {rating:?}; {ratings} {winner:?} {expected:?}"
            );
            let diff = ratings[seat]["diff"].as_i64().unwrap();
            let before = ratings[seat]["before"].as_f64().unwrap();
            assert_eq!(diff, (after.round() - before.round()) as i64);
        }
        assert_eq!(ends[0]["ratings"], ends[1]["ratings"]);
        if finish["game"]["color"] == "white" {
            assert_eq!(finish["game"]["ratingDiff"], ratings["white"]["diff"]);
        }
    }

    // The players' ratings and pages.
    for (name, rating) in [("alice", expected[0]), ("bob", expected[1])] {
        let (status, user) = ts.get(&format!("/api/user/{name}"), None).await;
        assert_eq!(status, StatusCode::OK);
        typed::<bluffchess_server::wire::User>(&user);
        let chess = &user["ratings"]["chess"];
        assert!((chess["rating"].as_f64().unwrap() - rating.r).abs() < 0.01);
        assert!((chess["rd"].as_f64().unwrap() - rating.rd).abs() < 0.01);
        assert!((chess["volatility"].as_f64().unwrap() - rating.vol).abs() < 1e-6);
        assert_eq!(chess["games"], 3);
        assert_eq!(chess["provisional"], rating.rd > 110.0);
        let (status, page) = ts.get(&format!("/api/user/{name}/played"), None).await;
        assert_eq!(status, StatusCode::OK);
        typed::<bluffchess_server::wire::PlayedGames>(&page);
        let games = page["games"].as_array().unwrap();
        assert_eq!(games.len(), 3);
        assert!(games
            .iter()
            .all(|g| g["rated"] == true && g["rating_diff"].is_i64() && g["result"].is_string()));
    }

    // The export: every finished game, each a record `verify` accepts, with the players' names.
    let (status, text) = ts.get_text("/api/user/alice/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in lines {
        let value: Value = serde_json::from_str(line).unwrap();
        typed::<bluffchess_server::wire::NamedRecord>(&value);
        let names = [&value["players"]["white"], &value["players"]["black"]];
        assert!(names.contains(&&json!("alice")) && names.contains(&&json!("bob")));
        let record: bluffchess_rules::record::Record = serde_json::from_value(value).unwrap();
        bluffchess_rules::any::verify(&record).expect("the record verifies");
    }
    let (_, filtered) = ts.get_text("/api/user/alice/games?variant=bs", None).await;
    assert!(filtered.is_empty());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_accepted_declined_cancelled_and_expire() {
    let mut ts = TestServer::start("rated-challenges").await;
    let mut carol = signup(&ts, "carol", "correct horse battery").await;
    let mut dave = signup(&ts, "dave", "another good password").await;
    let mut dave_events = event_stream(&ts, &dave).await;
    let mut carol_events = event_stream(&ts, &carol).await;
    let terms = json!({"variant": "bs", "rated": true, "color": "white"});

    // Accepted: both hear of the challenge, then of the game; the challenger plays White.
    let (status, challenge) = api(
        &ts,
        &mut carol,
        Method::POST,
        "/api/challenge/Dave",
        Some(terms.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    typed::<bluffchess_server::wire::Challenge>(&challenge);
    assert_eq!(challenge["destUser"]["name"], "dave");
    let id = challenge["id"].as_str().unwrap().to_string();
    let heard = next_event(&mut dave_events).await;
    assert_eq!(heard["type"], "challenge");
    assert_eq!(heard["challenge"]["id"], id.as_str());
    assert_eq!(next_event(&mut carol_events).await["type"], "challenge");
    let (_, listed) = api(&ts, &mut dave, Method::GET, "/api/challenge", None).await;
    typed::<bluffchess_server::wire::Challenges>(&listed);
    assert_eq!(listed["in"][0]["id"], id.as_str());
    // Only the challenged may answer it.
    let (status, refusal) = api(
        &ts,
        &mut carol,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refusal}");
    let (status, accepted) = api(
        &ts,
        &mut dave,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    typed::<bluffchess_server::wire::Paired>(&accepted);
    assert_eq!(accepted["seat"], "black");
    let game = accepted["game"].as_str().unwrap();
    for events in [&mut dave_events, &mut carol_events] {
        let start = next_event(events).await;
        assert_eq!(start["type"], "gameStart", "{start}");
        assert_eq!(start["game"]["gameId"], game);
    }
    // Accepting it again: it is gone.
    let (status, again) = api(
        &ts,
        &mut dave,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{again}");
    let mut players = [carol.clone(), dave.clone()];
    play_out_as(&ts, game, &mut players, 4).await;
    assert_eq!(next_event(&mut dave_events).await["type"], "gameFinish");
    assert_eq!(next_event(&mut carol_events).await["type"], "gameFinish");

    // Declined with a reason.
    let (_, challenge) = api(
        &ts,
        &mut carol,
        Method::POST,
        "/api/challenge/dave",
        Some(terms.clone()),
    )
    .await;
    let id = challenge["id"].as_str().unwrap().to_string();
    let _ = next_event(&mut dave_events).await;
    let _ = next_event(&mut carol_events).await;
    let (status, bad) = api(
        &ts,
        &mut dave,
        Method::POST,
        &format!("/api/challenge/{id}/decline"),
        Some(json!({"reason": "bored"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    assert!(bad["error"].as_str().unwrap().contains("tooFast"), "{bad}");
    let (status, declined) = api(
        &ts,
        &mut dave,
        Method::POST,
        &format!("/api/challenge/{id}/decline"),
        Some(json!({"reason": "later"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    let told = next_event(&mut carol_events).await;
    assert_eq!(told["type"], "challengeDeclined");
    assert_eq!(told["challenge"]["declineReasonKey"], "later");
    let _ = next_event(&mut dave_events).await;

    // Cancelled by the challenger, then accepted too late.
    let (_, challenge) = api(
        &ts,
        &mut carol,
        Method::POST,
        "/api/challenge/dave",
        Some(terms.clone()),
    )
    .await;
    let id = challenge["id"].as_str().unwrap().to_string();
    let _ = next_event(&mut dave_events).await;
    let (status, _) = api(
        &ts,
        &mut carol,
        Method::POST,
        &format!("/api/challenge/{id}/cancel"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        next_event(&mut dave_events).await["type"],
        "challengeCanceled"
    );
    let (status, late) = api(
        &ts,
        &mut dave,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{late}");
    assert!(
        late["error"]
            .as_str()
            .unwrap()
            .contains("no such challenge"),
        "{late}"
    );

    // Expired (the test server's challenges wait 3 s).
    let (_, challenge) = api(
        &ts,
        &mut carol,
        Method::POST,
        "/api/challenge/dave",
        Some(terms.clone()),
    )
    .await;
    let _ = next_event(&mut dave_events).await;
    let expired = loop {
        let event = next_event(&mut dave_events).await;
        if event["type"] == "challengeCanceled" {
            break event;
        }
    };
    assert_eq!(expired["challenge"]["id"], challenge["id"]);
    assert_eq!(expired["challenge"]["status"], "expired");

    // Bad challenges: each a clear 4xx, no challenge made.
    let refused = [
        (
            "/api/challenge/nobody",
            terms.clone(),
            StatusCode::NOT_FOUND,
            "no player named",
        ),
        (
            "/api/challenge/carol",
            terms.clone(),
            StatusCode::BAD_REQUEST,
            "itself",
        ),
        (
            "/api/challenge/dave",
            json!({"variant": "xiangqi"}),
            StatusCode::BAD_REQUEST,
            "unknown variant",
        ),
        (
            "/api/challenge/dave",
            json!({"variant": "chess", "ratingRange": "1-2"}),
            StatusCode::BAD_REQUEST,
            "ratingRange",
        ),
        (
            "/api/challenge/dave",
            json!({"variant": "chess", "color": "green"}),
            StatusCode::BAD_REQUEST,
            "color",
        ),
    ];
    for (path, body, status, says) in refused {
        let (got, answer) = api(&ts, &mut carol, Method::POST, path, Some(body)).await;
        assert_eq!(got, status, "{path}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{path}: {answer}"
        );
    }
    let (_, listed) = api(&ts, &mut carol, Method::GET, "/api/challenge", None).await;
    assert_eq!(listed, json!({"in": [], "out": []}));
    // A guest cannot challenge.
    let mut guest = Browser::default();
    let (status, _) = api(
        &ts,
        &mut guest,
        Method::POST,
        "/api/challenge/dave",
        Some(terms),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_bots_play_rated_games_under_their_own_names() {
    let mut ts = TestServer::start("rated-bots").await;
    let mut erin = signup(&ts, "erin", "correct horse battery").await;
    let (status, bot) = ts.get("/api/user/random", None).await;
    assert_eq!(status, StatusCode::OK, "{bot}");
    assert_eq!(bot["bot"], true);
    // Challenged by name, a server bot accepts at once.
    let terms = json!({"variant": "alter-ego", "rated": true});
    let (status, challenge) = api(
        &ts,
        &mut erin,
        Method::POST,
        "/api/challenge/random",
        Some(terms),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    assert_eq!(challenge["status"], "accepted");
    let game = challenge["gameId"].as_str().unwrap().to_string();
    let mut players = [erin.clone(), erin.clone()];
    let ends = play_out_as(&ts, &game, &mut players, 30).await;
    assert_eq!(ends[0]["status"], "over", "{}", ends[0]);
    assert!(ends[0]["ratings"]["white"]["diff"].is_i64(), "{}", ends[0]);
    let (_, bot) = ts.get("/api/user/random", None).await;
    assert_eq!(bot["ratings"]["alter-ego"]["games"], 1);
    // A rated game from the lobby against a bot by name, not against one with parameters, and
    // never for a guest.
    let rated = |opponent: &str| json!({"variant": "chess", "opponent": opponent, "rated": true});
    let (status, created) = api(
        &ts,
        &mut erin,
        Method::POST,
        "/api/games",
        Some(rated("bot:greedy")),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, refused) = api(
        &ts,
        &mut erin,
        Method::POST,
        "/api/games",
        Some(rated("bot:ismcts:iterations=50")),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, refused) = api(
        &ts,
        &mut erin,
        Method::POST,
        "/api/games",
        Some(rated("open")),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("seek"),
        "{refused}"
    );
    let mut guest = Browser::default();
    let (status, refused) = api(
        &ts,
        &mut guest,
        Method::POST,
        "/api/games",
        Some(rated("bot:greedy")),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bot_level_has_its_own_name_account_and_rating() {
    let mut ts = TestServer::start("rated-levels").await;
    let (status, levels) = ts.get("/api/bots", None).await;
    assert_eq!(status, StatusCode::OK, "{levels}");
    let levels = levels["bots"].as_array().unwrap().clone();
    assert_eq!(levels.len(), 6, "{levels:?}");
    let mut names = std::collections::HashSet::new();
    for level in &levels {
        let name = level["opponent"]
            .as_str()
            .unwrap()
            .strip_prefix("bot:")
            .unwrap();
        assert!(names.insert(name.to_string()), "two levels named {name}");
        assert!(
            !name.contains([':', '=']),
            "level {name} is a bot with parameters"
        );
        let (status, account) = ts.get(&format!("/api/user/{name}"), None).await;
        assert_eq!(status, StatusCode::OK, "{name}: {account}");
        assert_eq!(account["bot"], true, "{name}");
        assert_eq!(
            level["ratings"],
            json!({}),
            "{name} has played no rated game"
        );
    }
    // A rated game against level 3 rates that level, and no other.
    let level = levels[2]["opponent"].as_str().unwrap().to_string();
    let mut frank = signup(&ts, "frank", "correct horse battery").await;
    let terms = json!({"variant": "chess", "opponent": level, "rated": true, "color": "white"});
    let (status, created) = api(&ts, &mut frank, Method::POST, "/api/games", Some(terms)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let game = created["id"].as_str().unwrap().to_string();
    let mut players = [frank.clone(), frank.clone()];
    let ends = play_out_as(&ts, &game, &mut players, 6).await;
    assert_eq!(ends[0]["status"], "over", "{}", ends[0]);
    let (_, after) = ts.get("/api/bots", None).await;
    let after = after["bots"].as_array().unwrap();
    let rating = &after[2]["ratings"]["chess"];
    assert_eq!(rating["games"], 1, "{}", after[2]);
    assert!(
        rating["rating"].as_f64().unwrap() > 1500.0,
        "the bot won: {rating}"
    );
    assert_eq!(rating["provisional"], true, "{rating}");
    for (n, other) in after.iter().enumerate().filter(|(n, _)| *n != 2) {
        assert_eq!(other["ratings"], json!({}), "level {}", n + 1);
    }
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_seeks_are_refused_and_change_nothing() {
    let mut ts = TestServer::start("rated-seeks").await;
    let mut frank = signup(&ts, "frank", "correct horse battery").await;
    let mut guest = Browser::default();
    let refused = [
        (
            json!({"variant": "xiangqi"}),
            StatusCode::BAD_REQUEST,
            "unknown variant",
        ),
        (
            json!({"variant": "chess", "ratingRange": "1800-1400"}),
            StatusCode::BAD_REQUEST,
            "ratingRange",
        ),
        (
            json!({"variant": "chess", "ratingRange": "lots"}),
            StatusCode::BAD_REQUEST,
            "ratingRange",
        ),
        (
            json!({"variant": "chess", "clock": {"initial_s": -1, "increment_s": 0}}),
            StatusCode::BAD_REQUEST,
            "clock",
        ),
        (
            json!({"variant": "chess", "speed": "fast"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "speed",
        ),
    ];
    for (body, status, says) in refused {
        let (got, answer) = api(
            &ts,
            &mut frank,
            Method::POST,
            "/api/seek",
            Some(body.clone()),
        )
        .await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    // A guest seeks casual games only.
    let (status, answer) = api(
        &ts,
        &mut guest,
        Method::POST,
        "/api/seek",
        Some(seek_terms(true)),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(lobby["seeks"], json!([]));

    // One player cannot pair with itself: its second seek waits beside the first.
    let (_, first) = api(
        &ts,
        &mut frank,
        Method::POST,
        "/api/seek",
        Some(seek_terms(true)),
    )
    .await;
    let (_, second) = api(
        &ts,
        &mut frank,
        Method::POST,
        "/api/seek",
        Some(seek_terms(true)),
    )
    .await;
    assert!(first["game"].is_null() && second["game"].is_null());
    let id = first["id"].as_str().unwrap();
    let (status, own) = api(
        &ts,
        &mut frank,
        Method::POST,
        &format!("/api/seek/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{own}");
    assert!(own["error"].as_str().unwrap().contains("itself"), "{own}");
    // Another's seek cannot be cancelled; a guest cannot take a rated one.
    let (status, _) = api(
        &ts,
        &mut guest,
        Method::DELETE,
        &format!("/api/seek/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = api(
        &ts,
        &mut guest,
        Method::POST,
        &format!("/api/seek/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 2);
    // Out of range: a seek for 1800-2200 is not for a new player.
    let (status, ranged) = api(
        &ts,
        &mut frank,
        Method::POST,
        "/api/seek",
        Some(json!({"variant": "bs", "ratingRange": "1800-2200"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let ranged = ranged["id"].as_str().unwrap();
    let mut grace = signup(&ts, "grace", "another good password").await;
    let (status, out) = api(
        &ts,
        &mut grace,
        Method::POST,
        &format!("/api/seek/{ranged}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{out}");
    // A fourth seek is one too many.
    let (status, _) = api(
        &ts,
        &mut frank,
        Method::POST,
        "/api/seek",
        Some(json!({"variant": "ambiguous"})),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Cancelled seeks leave the lobby; a casual seek is taken by a guest.
    for seek in [
        first["id"].as_str().unwrap(),
        second["id"].as_str().unwrap(),
        ranged,
    ] {
        let (status, _) = api(
            &ts,
            &mut frank,
            Method::DELETE,
            &format!("/api/seek/{seek}"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, casual) = api(
        &ts,
        &mut frank,
        Method::POST,
        "/api/seek",
        Some(seek_terms(false)),
    )
    .await;
    let casual = casual["id"].as_str().unwrap();
    let (status, taken) = api(
        &ts,
        &mut guest,
        Method::POST,
        &format!("/api/seek/{casual}/accept"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    typed::<bluffchess_server::wire::Paired>(&taken);
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(lobby["seeks"], json!([]));
    // A seeker who leaves (its last event stream closes) takes its seeks with it.
    let events = event_stream(&ts, &frank).await;
    let (_, left) = api(
        &ts,
        &mut frank,
        Method::POST,
        "/api/seek",
        Some(seek_terms(true)),
    )
    .await;
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(lobby["seeks"][0]["id"], left["id"]);
    drop(events);
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let (_, lobby) = ts.get("/api/games", None).await;
        if lobby["seeks"] == json!([]) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the seek outlived its seeker's stream"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The leaderboard: nobody has played a rated game yet.
    let (status, top) = ts.get("/api/player/top/50/chess", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(top, json!([]));
    let (status, _) = ts.get("/api/player/top/0/chess", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = ts.get("/api/player/top/10/xiangqi", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    ts.stop().await;
}
