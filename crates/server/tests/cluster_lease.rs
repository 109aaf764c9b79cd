//! A cluster's ownership of games against a real Postgres (`BLUFFCHESS_TEST_POSTGRES`, started
//! by `scripts/test` with `.ci/postgres`): a lease is held by one node at a time, and a node
//! that lost its lease can never append to the game's log again, however its writes race the
//! takeover.

mod common;

use bluffchess_server::cluster::lease::{Held, Leases};
use bluffchess_server::store::{Entry, Logged, Store, StoreError, Write};
use common::fresh_postgres;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The test cluster: these tests have no SQLite form, so without one they fail.
fn postgres() -> String {
    std::env::var("BLUFFCHESS_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!(
            "BLUFFCHESS_TEST_POSTGRES is not set: start one with .ci/postgres (scripts/test does)"
        )
    })
}

async fn store(name: &str) -> Store {
    Store::open(&fresh_postgres(&postgres(), name).await)
        .await
        .unwrap()
}

fn leases(store: &Store, node: &str, ttl_ms: u64) -> Leases {
    Leases::new(
        store.postgres().unwrap().clone(),
        node,
        Duration::from_millis(ttl_ms),
    )
}

/// An append of entry `seq` to `game`, fenced with `node`'s `epoch`.
fn append(game: &str, node: &str, epoch: i64, seq: i64) -> Vec<Write> {
    let entry = Entry::now(
        Logged::Roll {
            text: String::new(),
        },
        seq,
    );
    vec![
        Write::Fence {
            game: game.into(),
            node: node.into(),
            epoch,
        },
        Write::Entry {
            game: game.into(),
            seq,
            entry,
        },
    ]
}

async fn log_length(store: &Store, game: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM log WHERE game = $1")
        .bind(game)
        .fetch_one(store.postgres().unwrap())
        .await
        .unwrap()
}

#[tokio::test]
async fn a_node_that_lost_its_lease_appends_nothing_after_the_takeover() {
    let store = store("lost_lease").await;
    let a = leases(&store, "a", 300);
    let b = leases(&store, "b", 300);
    let held = a.take("g").await.unwrap().expect("a free game is taken");
    assert_eq!(held.epoch, 1);
    assert_eq!(
        b.take("g").await.unwrap(),
        None,
        "a held lease is not taken"
    );
    assert_eq!(b.owner("g").await.unwrap().as_deref(), Some("a"));
    store.write(append("g", "a", 1, 0)).await.unwrap();

    // a is paused past its lease; b takes the game over.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        a.owner("g").await.unwrap(),
        None,
        "an expired lease holds nothing"
    );
    let taken = b
        .take("g")
        .await
        .unwrap()
        .expect("an expired lease is taken");
    assert_eq!(taken.epoch, 2, "a takeover is a new epoch");

    // a wakes up: its append is refused, b's goes in.
    let refused = store.write(append("g", "a", 1, 1)).await;
    assert_eq!(refused, Err(StoreError::Fenced("g".into())));
    store.write(append("g", "b", 2, 1)).await.unwrap();
    assert_eq!(log_length(&store, "g").await, 2);
    assert_eq!(
        a.renew(std::slice::from_ref(&held)).await.unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        b.renew(std::slice::from_ref(&taken)).await.unwrap(),
        vec!["g".to_string()]
    );

    // b lets the game go: a may take it at once, at a new epoch (never an old one again).
    b.release(&[taken]).await.unwrap();
    let again = a
        .take("g")
        .await
        .unwrap()
        .expect("a released lease is taken");
    assert_eq!(again.epoch, 3);
    let refused = store.write(append("g", "b", 2, 2)).await;
    assert_eq!(refused, Err(StoreError::Fenced("g".into())));
}

#[tokio::test]
async fn a_fenced_write_in_a_batch_fails_alone() {
    let store = store("fenced_batch").await;
    let a = leases(&store, "a", 10_000);
    let b = leases(&store, "b", 10_000);
    a.take("mine").await.unwrap().unwrap();
    b.take("theirs").await.unwrap().unwrap();
    // Both writes queue together (the writer batches them); only the stale one is refused.
    let (mine, theirs) = tokio::join!(
        store.write(append("mine", "a", 1, 0)),
        store.write(append("theirs", "a", 1, 0)),
    );
    assert_eq!(mine, Ok(()));
    assert_eq!(theirs, Err(StoreError::Fenced("theirs".into())));
    assert_eq!(log_length(&store, "theirs").await, 0);
}

/// Two nodes race: the stale one appends as fast as it can while the other takes the game over
/// and reads the log. Every append the stale node saw acknowledged is in what the new owner
/// read, and nothing is appended after: the lease row's lock orders the two.
#[tokio::test]
async fn appends_racing_a_takeover_are_all_seen_by_the_new_owner() {
    let store = store("race").await;
    for round in 0..20 {
        let game = format!("g{round}");
        let a = leases(&store, "a", 30);
        let b = leases(&store, "b", 30);
        let held = a.take(&game).await.unwrap().unwrap();
        let taken = Arc::new(AtomicBool::new(false));
        let appender = {
            let (store, game, taken) = (store.clone(), game.clone(), taken.clone());
            tokio::spawn(async move {
                let mut acknowledged = 0;
                loop {
                    match store
                        .write(append(&game, "a", held.epoch, acknowledged))
                        .await
                    {
                        Ok(()) => acknowledged += 1,
                        Err(StoreError::Fenced(_)) => return acknowledged,
                        Err(e) => panic!("{e}"),
                    }
                    assert!(acknowledged < 100_000);
                    if taken.load(Ordering::Relaxed) && acknowledged > 0 {
                        // Keep trying a while after the takeover: all refused.
                        tokio::task::yield_now().await;
                    }
                }
            })
        };
        let took = loop {
            if let Some(took) = b.take(&game).await.unwrap() {
                break took;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let seen = log_length(&store, &game).await;
        taken.store(true, Ordering::Relaxed);
        let acknowledged = appender.await.unwrap();
        assert_eq!(took.epoch, 2);
        assert_eq!(
            acknowledged, seen,
            "round {round}: the stale node's acknowledged appends are exactly those the new \
             owner read"
        );
        assert_eq!(log_length(&store, &game).await, seen, "round {round}");
        let stale = Held {
            game: game.clone(),
            epoch: 1,
        };
        assert!(a.renew(&[stale]).await.unwrap().is_empty());
    }
}
