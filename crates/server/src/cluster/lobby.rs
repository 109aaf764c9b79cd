//! A cluster's lobby: the public games of every node, read from the database (each node holds
//! only its own games and relays in memory).

use crate::store::{read_error, StoreError};
use crate::wire::{BySeat, ClockTerms, LobbyGame, Status};
use sqlx::PgPool;

/// The newest public games of one status, at most 500, with the names of the accounts seated.
const GAMES: &str = "SELECT g.id, g.variant, g.options, g.clock_initial_ms, g.clock_increment_ms,
        g.white, g.black, g.rematch_of, g.created_ms, g.rated, w.username, b.username
     FROM games g
     LEFT JOIN accounts w ON w.id = g.white_account
     LEFT JOIN accounts b ON b.id = g.black_account
     WHERE g.status = $1 AND g.private = 0
     ORDER BY g.created_ms DESC, g.id LIMIT 500";

type Row = (
    String,
    String,
    String,
    Option<i64>,
    Option<i64>,
    String,
    String,
    Option<String>,
    i64,
    i64,
    Option<String>,
    Option<String>,
);

/// The open and the live public games of the whole cluster, newest first.
pub async fn lobby(pool: &PgPool) -> Result<(Vec<LobbyGame>, Vec<LobbyGame>), StoreError> {
    let mut both = Vec::new();
    for status in [Status::Open, Status::Live] {
        let rows: Vec<Row> = sqlx::query_as(GAMES)
            .bind(status.name())
            .fetch_all(pool)
            .await
            .map_err(read_error)?;
        both.push(rows.into_iter().map(|r| entry(r, status)).collect());
    }
    let live = both.pop().unwrap_or_default();
    let open = both.pop().unwrap_or_default();
    Ok((open, live))
}

fn entry(row: Row, status: Status) -> LobbyGame {
    let (id, variant, options, initial, increment, white, black, rematch_of, created_ms, rated) = (
        row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9,
    );
    LobbyGame {
        clock: initial
            .zip(increment)
            .map(|(initial_ms, increment_ms)| ClockTerms {
                increment_ms,
                initial_ms,
            }),
        created_ms,
        id,
        names: BySeat {
            black: row.11,
            white: row.10,
        },
        options: serde_json::from_str(&options).unwrap_or_default(),
        players: BySeat { black, white },
        rated: rated != 0,
        rematch_of,
        status,
        variant,
    }
}
