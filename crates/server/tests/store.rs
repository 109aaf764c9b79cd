//! The storage layer on both databases: every test runs on SQLite and on Postgres (the cluster
//! of `BLUFFCHESS_TEST_POSTGRES`, which `.ci/postgres` starts; under `CI=true` a missing cluster
//! fails the Postgres tests).

mod common;

use bluffchess_rules::board::Color;
use bluffchess_rules::record::MetaKind;
use bluffchess_server::store::{Entry, GameRow, Logged, Store, StoreError, Write};
use bluffchess_server::wire::Status;
use common::{fresh_postgres, postgres_cluster, temp_db, test_config, TestServer};
use reqwest::StatusCode;
use serde_json::json;
use std::time::Duration;

/// Runs each check on a fresh SQLite file (`sqlite::NAME`) and a fresh Postgres schema
/// (`postgres::NAME`).
macro_rules! on_both_databases {
    ($($check:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $check() {
                    let db = super::temp_db(stringify!($check));
                    super::$check(format!("sqlite:{}", db.display())).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $check() {
                    let name = stringify!($check);
                    if let Some(cluster) = super::postgres_cluster(name) {
                        super::$check(super::fresh_postgres(&cluster, name).await).await;
                    }
                }
            )*
        }
    };
}

on_both_databases!(
    every_write_reads_back_exactly,
    a_refused_write_fails_alone_and_nothing_is_doubled,
    concurrent_writers_are_each_acknowledged_once,
    reopening_keeps_everything_and_migrates_nothing_twice,
    a_restarted_server_reloads_unfinished_games_with_their_clocks,
);

fn game(id: &str, status: &str, created_ms: i64) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "bs".into(),
        options: r#"{"flavour":"ünïcödé ♞"}"#.into(),
        // Seeds use all 64 bits: the top bit must survive a signed column.
        seed: u64::MAX - 6,
        salt_seed: 1 << 63,
        clock: Some((300_000, 2_000)),
        players: ["player".into(), "open".into()],
        tokens: [Some("ab".repeat(32)), None],
        status: Status::parse(status).unwrap(),
        rematch_of: None,
        created_ms,
        private: true,
        rated: false,
        invite: Some("cd".repeat(32)),
        accounts: [Some(7), None],
        guests: [None, Some("ef".repeat(32))],
    }
}

fn entry(n: i64) -> Entry {
    let play = |seat| Logged::Play {
        seat,
        input: format!("input {n} ♛'\"; --"),
        text: format!("text {n}"),
    };
    // Every third entry has no seat (a roll), inside runs of entries too; every seventh is a
    // meta command.
    let what = match n % 3 {
        _ if n % 7 == 6 => Logged::Meta {
            seat: Color::Black,
            kind: MetaKind::OfferDraw,
        },
        0 => play(Color::White),
        1 => play(Color::Black),
        _ => Logged::Roll {
            text: format!("die {n}"),
        },
    };
    Entry {
        what,
        at_ms: 1_700_000_000_000 + n,
    }
}

fn append(game: &str, seq: i64) -> Write {
    Write::Entry {
        game: game.into(),
        seq,
        entry: entry(seq),
    }
}

async fn every_write_reads_back_exactly(url: String) {
    let store = Store::open(&url).await.unwrap();
    assert!(store.load("g1").await.unwrap().is_none());
    let mut over = game("g0", "live", 5);
    over.clock = None;
    over.private = false;
    over.invite = None;
    over.rematch_of = Some("g-1".into());
    store
        .write(vec![
            Write::Game(Box::new(game("g1", "open", 10))),
            Write::Game(Box::new(over.clone())),
            Write::Game(Box::new(game("g2", "live", 1))),
        ])
        .await
        .unwrap();
    store
        .write((0..5).map(|seq| append("g1", seq)).collect())
        .await
        .unwrap();
    let seatless = Entry {
        what: Logged::Abort { seat: Color::Black },
        at_ms: 42,
    };
    store
        .write(vec![
            Write::Join {
                game: "g1".into(),
                seat: 1,
                token: "cd".repeat(32),
                account: Some(9),
                guest: None,
            },
            Write::Entry {
                game: "g0".into(),
                seq: 0,
                entry: seatless.clone(),
            },
            Write::Status {
                game: "g0".into(),
                status: Status::Over,
                result: Some("1-0"),
            },
            Write::Rematch {
                game: "g0".into(),
                rematch: "g1".into(),
            },
        ])
        .await
        .unwrap();

    let (row, rematch, log) = store.load("g1").await.unwrap().unwrap();
    let mut joined = game("g1", "live", 10);
    joined.players[1] = "player".into();
    joined.tokens[1] = Some("cd".repeat(32));
    joined.accounts[1] = Some(9);
    joined.guests[1] = None;
    assert_eq!(format!("{row:?}"), format!("{joined:?}"));
    assert_eq!(rematch, None);
    assert_eq!(log, (0..5).map(entry).collect::<Vec<_>>());

    let (row, rematch, log) = store.load("g0").await.unwrap().unwrap();
    over.status = Status::Over;
    assert_eq!(format!("{row:?}"), format!("{over:?}"));
    assert_eq!(rematch.as_deref(), Some("g1"));
    assert_eq!(log, vec![seatless]);

    // Only games not over, oldest first.
    assert_eq!(store.unfinished().await.unwrap(), ["g2", "g1"]);
    store.close().await;
}

async fn a_refused_write_fails_alone_and_nothing_is_doubled(url: String) {
    let store = Store::open(&url).await.unwrap();
    store
        .write(vec![Write::Game(Box::new(game("g", "live", 1)))])
        .await
        .unwrap();
    store.write(vec![append("g", 0)]).await.unwrap();
    // Sent together, so they likely share a batch: the duplicate fails, the others commit.
    let writes = (1..40).map(|seq| {
        let store = store.clone();
        let write = if seq == 20 {
            vec![append("g", 0)]
        } else {
            vec![append("g", seq)]
        };
        tokio::spawn(async move { (seq, store.write(write).await) })
    });
    for task in writes.collect::<Vec<_>>() {
        let (seq, result) = task.await.unwrap();
        if seq == 20 {
            let error = result.expect_err("a second entry 0 is refused");
            assert!(matches!(error, StoreError::Write(_)), "{error}");
        } else {
            result.unwrap();
        }
    }
    // A transaction that fails part-way leaves nothing of itself.
    let error = store
        .write(vec![append("g", 20), append("g", 1)])
        .await
        .expect_err("entry 1 exists");
    assert!(matches!(error, StoreError::Write(_)), "{error}");
    let (_, _, log) = store.load("g").await.unwrap().unwrap();
    let expected: Vec<Entry> = (0..40).filter(|&s| s != 20).map(entry).collect();
    assert_eq!(log, expected);
    store.close().await;
}

async fn concurrent_writers_are_each_acknowledged_once(url: String) {
    let store = Store::open(&url).await.unwrap();
    let games: Vec<String> = (0..20).map(|g| format!("game-{g}")).collect();
    let rows = games
        .iter()
        .map(|id| Write::Game(Box::new(game(id, "live", 0))));
    store.write(rows.collect()).await.unwrap();
    let mut tasks = Vec::new();
    for id in &games {
        let (store, id) = (store.clone(), id.clone());
        // Each game appends in order, as a game's task does; the games race each other.
        tasks.push(tokio::spawn(async move {
            for seq in 0..15 {
                store.write(vec![append(&id, seq)]).await.unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    for id in &games {
        let (_, _, log) = store.load(id).await.unwrap().unwrap();
        assert_eq!(log, (0..15).map(entry).collect::<Vec<_>>(), "{id}");
    }
    store.close().await;
}

async fn reopening_keeps_everything_and_migrates_nothing_twice(url: String) {
    let store = Store::open(&url).await.unwrap();
    store
        .write(vec![
            Write::Game(Box::new(game("kept", "open", 3))),
            append("kept", 0),
        ])
        .await
        .unwrap();
    store.close().await;
    for _ in 0..2 {
        let store = Store::open(&url).await.unwrap();
        let (row, _, log) = store.load("kept").await.unwrap().unwrap();
        assert_eq!(row.seed, u64::MAX - 6);
        assert_eq!(log, vec![entry(0)]);
        assert_eq!(store.unfinished().await.unwrap(), ["kept"]);
        store.close().await;
    }
}

/// The clocks of a live game, stopped while Black's runs: White's is as it was, and Black's
/// goes on from where it was, the downtime charged to nobody (as `GameTask::restore` rules).
async fn a_restarted_server_reloads_unfinished_games_with_their_clocks(url: String) {
    let ts = TestServer::start_at(
        url,
        temp_db("clocks"),
        test_config(),
        bluffchess_server::bot::builtin(),
    )
    .await;
    let mut ts = ts;
    let (id, tokens) = ts
        .open_and_join("chess", json!({"initial_s": 60, "increment_s": 1}))
        .await;
    for (seat, action) in [(0, "e2e4"), (1, "e7e5"), (0, "g1f3")] {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let (status, answer) = ts
            .post(
                &id,
                "action",
                Some(&tokens[seat]),
                Some(json!({"action": action})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action}: {answer}");
    }
    let before = ts.view(&id, Some(&tokens[1])).await["clock"].clone();
    ts.stop().await;
    let downtime = Duration::from_millis(1000);
    tokio::time::sleep(downtime).await;
    let mut ts = ts.restart(test_config()).await;
    let after = ts.view(&id, Some(&tokens[1])).await["clock"].clone();
    assert_eq!(before["running"], "black", "{before}");
    assert_eq!(after["running"], "black", "{after}");
    assert_eq!(
        after["white_ms"], before["white_ms"],
        "{before} then {after}"
    );
    let (b0, b1) = (
        before["black_ms"].as_i64().unwrap(),
        after["black_ms"].as_i64().unwrap(),
    );
    // At most the initial time (Black has not moved since the clocks started), and not charged
    // the downtime.
    assert!(
        b1 <= 60_000 && b1 > b0 - downtime.as_millis() as i64 / 2,
        "Black's clock went from {b0} to {b1} ms over a downtime of {downtime:?}"
    );
    // The game goes on where it stopped.
    let (status, answer) = ts
        .post(
            &id,
            "action",
            Some(&tokens[1]),
            Some(json!({"action": "b8c6"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(ts.view(&id, None).await["clock"]["running"], "white");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_made_before_migrations_is_adopted() {
    use sqlx::{Connection, SqliteConnection};
    let db = temp_db("premigration");
    let url = format!("sqlite:{}", db.display());
    // The schema as the server made it before versioned migrations, with one game in it.
    let mut old = SqliteConnection::connect(&format!("{url}?mode=rwc"))
        .await
        .unwrap();
    for statement in include_str!("../migrations/sqlite/0001_games_and_log.sql")
        .split(';')
        .filter(|s| !s.trim().is_empty())
    {
        sqlx::query(statement).execute(&mut old).await.unwrap();
    }
    sqlx::query(
        "INSERT INTO games VALUES ('old', 'chess', '{}', -1, 7, NULL, NULL, 'player', 'open',
         'aa', NULL, 'open', NULL, NULL, 1)",
    )
    .execute(&mut old)
    .await
    .unwrap();
    old.close().await.unwrap();
    let store = Store::open(&url).await.unwrap();
    let (row, _, log) = store.load("old").await.unwrap().unwrap();
    assert_eq!((row.seed, row.salt_seed), (u64::MAX, 7));
    assert!(
        !row.private && row.invite.is_none(),
        "an old game is public"
    );
    assert!(log.is_empty());
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_database_urls_are_refused_without_their_password() {
    let refused = |url: &'static str| async move {
        match Store::open(url).await {
            Ok(_) => panic!("{url} was accepted"),
            Err(e) => e.to_string(),
        }
    };
    let error = refused("mysql://user:hunter2@localhost/games").await;
    assert!(error.contains("unsupported database URL"), "{error}");
    assert!(error.contains("sqlite:PATH or postgres://"), "{error}");
    assert!(!error.contains("hunter2"), "the password leaked: {error}");
    // Something that hangs up at once (a refused connection would be retried for 10 s).
    let hangs_up = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = hangs_up.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((socket, _)) = hangs_up.accept().await {
            drop(socket);
        }
    });
    let url = format!("postgres://user:hunter2@127.0.0.1:{port}/games");
    let error = match Store::open(&url).await {
        Ok(_) => panic!("{url} was accepted"),
        Err(e) => e.to_string(),
    };
    assert!(error.contains("cannot open the database"), "{error}");
    assert!(
        error.contains(&format!("user:***@127.0.0.1:{port}")),
        "{error}"
    );
    assert!(!error.contains("hunter2"), "the password leaked: {error}");
    let error = refused("postgres://user:hunter2@127.0.0.1:5432/games?sslmode=sometimes").await;
    assert!(error.contains("bad database URL"), "{error}");
    assert!(!error.contains("hunter2"), "the password leaked: {error}");
}
