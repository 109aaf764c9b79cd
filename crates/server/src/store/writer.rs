//! The one writer task: it takes whatever writes are waiting (up to [`MAX_BATCH`]) into one
//! transaction, so many games' actions share one `fsync` (group commit), and answers each
//! writer only after the transaction has committed.

use super::error::{fail, StoreError};
use super::pool::Pool;
use super::ratings::rate_in;
use super::rows::{RatedEnd, Write};
use sqlx::Connection;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The most writes committed in one transaction.
pub const MAX_BATCH: usize = 512;

/// How long a Postgres commit may take before it counts as unconfirmed: a database that hangs
/// (rather than refusing) must not hold every game's writes.
pub const COMMIT_WITHIN: Duration = Duration::from_secs(5);

/// A batch of writes and who waits for them.
pub struct Job {
    pub writes: Vec<Write>,
    pub done: oneshot::Sender<Result<(), StoreError>>,
}

pub async fn write_loop(pool: Pool, mut jobs: mpsc::Receiver<Job>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let all: Vec<&Write> = batch.iter().flat_map(|j| &j.writes).collect();
        match bounded_commit(&pool, &all).await {
            Ok(()) => {
                for job in batch {
                    let _ = job.done.send(Ok(()));
                }
            }
            // An unreachable database fails them all; a refusal may be one job's.
            Err(e) if batch.len() > 1 && !matches!(e, StoreError::Unconfirmed(_)) => {
                // One bad job must not fail the others: commit each alone.
                for job in batch {
                    let writes: Vec<&Write> = job.writes.iter().collect();
                    let result = bounded_commit(&pool, &writes).await;
                    let _ = job.done.send(result);
                }
            }
            Err(e) => {
                for job in batch {
                    let _ = job.done.send(Err(e.clone()));
                }
            }
        }
    }
}

/// A value bound to a statement's parameter.
enum Param<'a> {
    Text(&'a str),
    MaybeText(Option<&'a str>),
    Static(&'static str),
    MaybeStatic(Option<&'static str>),
    Owned(String),
    Int(i64),
    MaybeInt(Option<i64>),
}

/// The statement that makes `write`, and its parameters in order.
fn statement(write: &Write) -> (&'static str, Vec<Param<'_>>) {
    use Param::*;
    match write {
        Write::Game(g) => (
            "INSERT INTO games (id, variant, options, seed, salt_seed, clock_initial_ms,
                clock_increment_ms, white, black, white_token, black_token, status,
                rematch_of, created_ms, private, invite, white_account, black_account,
                white_guest, black_guest, rated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                $17, $18, $19, $20, $21)",
            vec![
                Text(&g.id),
                Text(&g.variant),
                Text(&g.options),
                Int(g.seed as i64),
                Int(g.salt_seed as i64),
                MaybeInt(g.clock.map(|c| c.0)),
                MaybeInt(g.clock.map(|c| c.1)),
                Text(&g.players[0]),
                Text(&g.players[1]),
                MaybeText(g.tokens[0].as_deref()),
                MaybeText(g.tokens[1].as_deref()),
                Static(g.status.name()),
                MaybeText(g.rematch_of.as_deref()),
                Int(g.created_ms),
                Int(i64::from(g.private)),
                MaybeText(g.invite.as_deref()),
                MaybeInt(g.accounts[0]),
                MaybeInt(g.accounts[1]),
                MaybeText(g.guests[0].as_deref()),
                MaybeText(g.guests[1].as_deref()),
                Int(i64::from(g.rated)),
            ],
        ),
        Write::Entry { game, seq, entry } => {
            let (kind, seat, input, text) = entry.columns();
            (
                "INSERT INTO log (game, seq, kind, seat, input, text, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                vec![
                    Text(game),
                    Int(*seq),
                    Static(kind),
                    MaybeStatic(seat),
                    Owned(input),
                    Owned(text),
                    Int(entry.at_ms),
                ],
            )
        }
        Write::Join {
            game,
            seat,
            token,
            account,
            guest,
        } => (
            if *seat == 0 {
                "UPDATE games SET white = 'player', white_token = $1, white_account = $2,
                    white_guest = $3, status = 'live' WHERE id = $4"
            } else {
                "UPDATE games SET black = 'player', black_token = $1, black_account = $2,
                    black_guest = $3, status = 'live' WHERE id = $4"
            },
            vec![
                Text(token),
                MaybeInt(*account),
                MaybeText(guest.as_deref()),
                Text(game),
            ],
        ),
        Write::Status {
            game,
            status,
            result,
        } => (
            "UPDATE games SET status = $1, result = $2 WHERE id = $3",
            vec![Static(status.name()), MaybeStatic(*result), Text(game)],
        ),
        Write::Rate(_) => unreachable!("a rated end is applied by rate_in!, not one statement"),
        Write::Fence { .. } => unreachable!("a fence is checked by fence(), not one statement"),
        Write::Rematch { game, rematch } => (
            "UPDATE games SET rematch = $1 WHERE id = $2",
            vec![Text(rematch), Text(game)],
        ),
    }
}

/// A statement's text with its parameters bound.
macro_rules! bound {
    ($sql:expr, $params:expr) => {{
        let mut query = sqlx::query($sql);
        for param in $params {
            query = match param {
                Param::Text(v) => query.bind(v),
                Param::MaybeText(v) => query.bind(v),
                Param::Static(v) => query.bind(v),
                Param::MaybeStatic(v) => query.bind(v),
                Param::Owned(v) => query.bind(v),
                Param::Int(v) => query.bind(v),
                Param::MaybeInt(v) => query.bind(v),
            };
        }
        query
    }};
}

/// Appends many log entries in one statement: one round trip to Postgres instead of one each.
const POSTGRES_ENTRIES: &str = "INSERT INTO log (game, seq, kind, seat, input, text, at_ms)
     SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[],
                          $6::text[], $7::bigint[])";

/// [`commit`], given up on a Postgres that does not answer within [`COMMIT_WITHIN`].
async fn bounded_commit(pool: &Pool, writes: &[&Write]) -> Result<(), StoreError> {
    if matches!(pool, Pool::Sqlite(_)) {
        return commit(pool, writes).await;
    }
    tokio::time::timeout(COMMIT_WITHIN, commit(pool, writes))
        .await
        .unwrap_or_else(|_| {
            tracing::error!("database write unconfirmed: no answer within {COMMIT_WITHIN:?}");
            Err(StoreError::Unconfirmed(format!(
                "no answer within {} s",
                COMMIT_WITHIN.as_secs()
            )))
        })
}

/// Commits `writes` in one transaction.
async fn commit(pool: &Pool, writes: &[&Write]) -> Result<(), StoreError> {
    match pool {
        // In-process: a statement costs no round trip.
        Pool::Sqlite(p) => {
            let mut conn = p.acquire().await.map_err(fail)?;
            let result = async {
                let mut tx = conn.begin().await?;
                for write in writes {
                    match write {
                        Write::Rate(end) => rate_in!(tx, end, ""),
                        // Fencing is a cluster's, and a cluster runs on Postgres.
                        Write::Fence { .. } => {}
                        _ => {
                            let (sql, params) = statement(write);
                            bound!(sql, params).execute(&mut *tx).await?;
                        }
                    }
                }
                tx.commit().await
            }
            .await;
            if result.is_err() {
                // A failed write (a full disk) can leave SQLite's transaction and the driver's
                // view of it apart, so that later commits only release a savepoint of a
                // transaction that never commits (tests/faults.rs, disk full): a fresh
                // connection starts clean.
                let _ = conn.close().await;
            }
            result.map_err(fail)
        }
        Pool::Postgres(p) => {
            let mut tx = p.begin().await.map_err(fail)?;
            fence(&mut tx, writes).await?;
            let mut rest = writes;
            while let Some(write) = rest.first() {
                let entries = rest.iter().take_while(|w| matches!(w, Write::Entry { .. }));
                let run = entries.count();
                if let Write::Rate(end) = write {
                    let rated: Result<(), sqlx::Error> = async {
                        rate_in!(tx, end, " FOR UPDATE");
                        Ok(())
                    }
                    .await;
                    rated.map_err(fail)?;
                    rest = &rest[1..];
                } else if matches!(write, Write::Fence { .. }) {
                    rest = &rest[1..];
                } else if run > 1 {
                    entries_query(&rest[..run])
                        .execute(&mut *tx)
                        .await
                        .map_err(fail)?;
                    rest = &rest[run..];
                } else {
                    let (sql, params) = statement(write);
                    bound!(sql, params).execute(&mut *tx).await.map_err(fail)?;
                    rest = &rest[1..];
                }
            }
            tx.commit().await.map_err(fail)
        }
    }
}

/// The leases of a cluster's node, checked in the transaction of its appends: every fence's
/// lease row must still hold the node and its epoch, and stays locked (`FOR SHARE`) until the
/// commit, so a takeover (which updates the row) waits for this transaction or refuses it.
const FENCES: &str = "SELECT l.game FROM leases l
     JOIN UNNEST($1::text[], $2::text[], $3::bigint[]) AS f(game, node, epoch)
       ON l.game = f.game AND l.node = f.node AND l.epoch = f.epoch
     FOR SHARE OF l";

async fn fence(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    writes: &[&Write],
) -> Result<(), StoreError> {
    let mut fences: Vec<(&str, &str, i64)> = writes
        .iter()
        .filter_map(|w| match w {
            Write::Fence { game, node, epoch } => Some((game.as_str(), node.as_str(), *epoch)),
            _ => None,
        })
        .collect();
    if fences.is_empty() {
        return Ok(());
    }
    fences.sort_unstable();
    fences.dedup();
    let held: Vec<String> = sqlx::query_scalar(FENCES)
        .bind(fences.iter().map(|f| f.0).collect::<Vec<_>>())
        .bind(fences.iter().map(|f| f.1).collect::<Vec<_>>())
        .bind(fences.iter().map(|f| f.2).collect::<Vec<_>>())
        .fetch_all(&mut **tx)
        .await
        .map_err(fail)?;
    match fences.iter().find(|f| !held.iter().any(|h| h == f.0)) {
        Some((game, ..)) => Err(StoreError::Fenced(game.to_string())),
        None => Ok(()),
    }
}

/// The insert of a run of log entries into Postgres, in their order.
fn entries_query(
    writes: &[&Write],
) -> sqlx::query::Query<'static, sqlx::Postgres, sqlx::postgres::PgArguments> {
    let mut columns = EntryColumnsOf::default();
    for write in writes {
        if let Write::Entry { game, seq, entry } = write {
            let (kind, seat, input, text) = entry.columns();
            columns.game.push(game.clone());
            columns.seq.push(*seq);
            columns.kind.push(kind.to_string());
            columns.seat.push(seat.map(String::from));
            columns.input.push(input);
            columns.text.push(text);
            columns.at_ms.push(entry.at_ms);
        }
    }
    sqlx::query(POSTGRES_ENTRIES)
        .bind(columns.game)
        .bind(columns.seq)
        .bind(columns.kind)
        .bind(columns.seat)
        .bind(columns.input)
        .bind(columns.text)
        .bind(columns.at_ms)
}

/// Log entries as columns, for [`POSTGRES_ENTRIES`].
#[derive(Default)]
struct EntryColumnsOf {
    game: Vec<String>,
    seq: Vec<i64>,
    kind: Vec<String>,
    seat: Vec<Option<String>>,
    input: Vec<String>,
    text: Vec<String>,
    at_ms: Vec<i64>,
}
