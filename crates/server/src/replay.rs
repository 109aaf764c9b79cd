//! Finished games replayed for people: the position after each action with everything revealed,
//! and as each seat saw it; cached, since a finished game never changes and a replay costs a
//! replay of the whole game.

use crate::error::ApiError;
use crate::wire::{BySeat, Positions, Replay, SeenPosition};
use axum::body::Bytes;
use bluffchess_rules::any::AnyGame;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::record::Record;
use bluffchess_rules::seat::Seat;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Mutex;

/// The replays of the finished games asked for last, as JSON.
#[derive(Default)]
pub struct ReplayCache(Mutex<VecDeque<(String, Bytes)>>);

impl ReplayCache {
    /// How many replays it keeps.
    const SIZE: usize = 64;

    /// The replay of game `id`, if it is kept.
    pub fn get(&self, id: &str) -> Option<Bytes> {
        let cache = self.0.lock().expect("replay cache lock");
        cache.iter().find(|(k, _)| k == id).map(|(_, v)| v.clone())
    }

    /// Keeps the replay of game `id`, forgetting the oldest kept past the size.
    pub fn put(&self, id: &str, replay: Bytes) {
        let mut cache = self.0.lock().expect("replay cache lock");
        if cache.iter().any(|(k, _)| k == id) {
            return;
        }
        if cache.len() == Self::SIZE {
            cache.pop_front();
        }
        cache.push_back((id.to_string(), replay));
    }
}

/// A game to replay a record in: scripted, so Chance's outcomes are played as the record's
/// texts (the record is the server's own, rolled from the seed).
fn replayer(record: &Record) -> Result<AnyGame, ApiError> {
    AnyGame::new(
        &record.variant,
        &record.options,
        record.seed,
        SaltSource::Seeded(0),
    )
    .map(AnyGame::scripted)
    .map_err(|e| ApiError::Internal(e.to_string()))
}

/// The position after each action of `seen` (the actions whose events a seat has: never a
/// count of those it did not see), as `seat` saw it then, and at the start; from the game's
/// record (the truth, held by the room: only the seat's views leave it).
pub fn seen_positions(
    record: Record,
    seat: Seat,
    seen: &BTreeSet<usize>,
) -> Result<Positions, ApiError> {
    let bad = |e: String| ApiError::Internal(e);
    let mut game = replayer(&record)?;
    let mut positions = vec![SeenPosition {
        after: 0,
        position: game.view(seat)["position"].clone(),
    }];
    for (i, action) in record.actions.iter().enumerate() {
        game.play(&action.text).map_err(|e| bad(e.to_string()))?;
        if seen.contains(&i) {
            positions.push(SeenPosition {
                after: i + 1,
                position: game.view(seat)["position"].clone(),
            });
        }
    }
    Ok(Positions { positions })
}

/// Replays a finished game's record.
pub fn replay_of(record: Record) -> Result<Replay, ApiError> {
    let bad = |e: String| ApiError::Internal(e);
    let mut game = replayer(&record)?;
    let seats = [Seat::White, Seat::Black];
    let seen_now = |game: &AnyGame| seats.map(|seat| game.view(seat)["position"].clone());
    let mut positions = vec![game.revealed_position()];
    let mut seen = vec![seen_now(&game)];
    let mut metas = record.meta.iter().peekable();
    for (i, action) in record.actions.iter().enumerate() {
        // Draw offers and the like change no position; the last (a resignation, say) reveals.
        while let Some(meta) = metas.next_if(|m| m.after <= i) {
            game.meta(meta.seat, meta.kind)
                .map_err(|e| bad(e.to_string()))?;
        }
        game.play(&action.text).map_err(|e| bad(e.to_string()))?;
        positions.push(game.revealed_position());
        seen.push(seen_now(&game));
    }
    for meta in metas {
        game.meta(meta.seat, meta.kind)
            .map_err(|e| bad(e.to_string()))?;
    }
    *seen.last_mut().expect("the start is seen") = seen_now(&game);
    let seen_by = |n: usize| seen.iter().map(|s| s[n].clone()).collect::<Vec<_>>();
    Ok(Replay {
        positions,
        record,
        seen: BySeat {
            black: seen_by(1),
            white: seen_by(0),
        },
    })
}
