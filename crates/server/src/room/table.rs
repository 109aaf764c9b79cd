//! The game at the table: the arbiter (the truth), the clocks, whose seats are taken, and the
//! log's length; and the one way an entry of the game's log changes them, live and when a
//! restarted server replays the log.

use super::clock::Clock;
use super::feed::Moment;
use super::seat::index;
use crate::error::ApiError;
use crate::store::{Entry, GameRow, Logged, RatingChange};
use crate::wire::{BySeat, LobbyGame, RatingDiff, Status};
use bluffchess_rules::any::AnyGame;
use bluffchess_rules::board::Color;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::event::Event;
use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::{EndReason, Outcome};
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::Actor;

/// The state of one game.
#[derive(Clone)]
pub struct Table {
    /// Its stored settings (the players as they stand now).
    pub row: GameRow,
    /// The arbiter: the truth. Never for a seat.
    pub game: AnyGame,
    pub status: Status,
    /// How the game ended: the arbiter's outcome, or the server's for an aborted game.
    pub outcome: Option<Outcome>,
    /// The length of the log.
    pub entries: i64,
    pub clock: Option<Clock>,
    /// Whether each side has acted: the clocks start, and aborting ends, once both have.
    pub acted: [bool; 2],
    /// The names of the accounts that hold the seats.
    pub names: [Option<String>; 2],
    /// A rated game's end: each player's rating change.
    pub ratings: Option<BySeat<RatingDiff>>,
}

/// Makes the arbiter of a stored game (before any action).
pub fn new_arbiter(row: &GameRow) -> Result<AnyGame, ApiError> {
    let options: Options = serde_json::from_str(&row.options)
        .map_err(|e| ApiError::Internal(format!("stored options unreadable: {e}")))?;
    AnyGame::new(
        &row.variant,
        &options,
        row.seed,
        SaltSource::Seeded(row.salt_seed),
    )
    .map_err(|e| ApiError::bad(e.to_string()))
}

impl Table {
    /// A stored game before the entries of `log` (the seats they take are open again).
    pub fn new(
        mut row: GameRow,
        names: [Option<String>; 2],
        ratings: Option<BySeat<RatingDiff>>,
        log: &[Entry],
    ) -> Result<Table, ApiError> {
        let game = new_arbiter(&row)?;
        for entry in log {
            if let Logged::Join { seat } = entry.what {
                row.players[index(seat)] = "open".into();
            }
        }
        let status = if row.players.iter().any(|p| p == "open") {
            Status::Open
        } else {
            Status::Live
        };
        Ok(Table {
            clock: row.clock.map(Clock::new),
            row,
            game,
            status,
            outcome: None,
            entries: 0,
            acted: [false; 2],
            names,
            ratings,
        })
    }

    /// The table at server time `t`, for the seats' messages.
    pub fn moment(&self, t: i64) -> Moment<'_> {
        Moment {
            id: &self.row.id,
            game: &self.game,
            status: self.status,
            outcome: self.outcome,
            clock: self.clock.as_ref().map(|c| c.state(t)),
            names: &self.names,
            players: &self.row.players,
            ratings: &self.ratings,
            t,
        }
    }

    /// When the running clock's flag falls, in a live game.
    pub fn flag_deadline(&self) -> Option<i64> {
        if self.status != Status::Live {
            return None;
        }
        self.clock.as_ref()?.deadline()
    }

    /// Whether `color`'s seat is a server bot.
    pub fn is_bot(&self, color: Color) -> bool {
        self.row.players[index(color)].starts_with("bot:")
    }

    /// The lobby entry: public facts only.
    pub fn lobby_entry(&self) -> LobbyGame {
        LobbyGame {
            clock: self.clock.as_ref().map(Clock::terms),
            created_ms: self.row.created_ms,
            id: self.row.id.clone(),
            names: BySeat {
                black: self.names[1].clone(),
                white: self.names[0].clone(),
            },
            options: serde_json::from_str(&self.row.options).unwrap_or_default(),
            players: BySeat {
                black: self.row.players[1].clone(),
                white: self.row.players[0].clone(),
            },
            rated: self.row.rated,
            rematch_of: self.row.rematch_of.clone(),
            status: self.status,
            variant: self.row.variant.clone(),
        }
    }

    /// Applies one entry of the log; answers the events its actor may see. A play or a roll
    /// records its canonical text in the entry. A refused entry changes nothing.
    pub fn apply(&mut self, entry: &mut Entry) -> Result<Vec<Event>, ApiError> {
        let t = entry.at_ms;
        let mut events = Vec::new();
        match &mut entry.what {
            Logged::Play { seat, input, text } => {
                if self.game.to_act() != Some(Actor::from(*seat)) {
                    return Err(ApiError::conflict("not-your-turn", "it is not your turn"));
                }
                let played = self.game.play(input)?;
                (events, *text) = (played.events, played.text);
                let seat = *seat;
                self.after_action(Some(seat), t);
            }
            Logged::Roll { text } => {
                let played = self.game.roll()?;
                (events, *text) = (played.events, played.text);
                self.after_action(None, t);
            }
            Logged::Meta { seat, kind } => {
                self.game.meta(*seat, *kind)?;
                self.charge(t);
            }
            Logged::Flag { seat } => {
                self.game.meta(*seat, MetaKind::Timeout)?;
                self.charge(t);
                if let Some(clock) = &mut self.clock {
                    clock.flagged(*seat);
                }
            }
            Logged::Abandon { seat } => {
                self.game.meta(*seat, MetaKind::Abandon)?;
                self.charge(t);
            }
            Logged::Abort { .. } => {
                self.status = Status::Aborted;
                self.outcome = Some(Outcome::draw(EndReason::Aborted));
            }
            Logged::Join { seat } => {
                self.row.players[index(*seat)] = "player".into();
                if !self.row.players.iter().any(|p| p == "open") {
                    self.status = Status::Live;
                }
            }
        }
        if self.status == Status::Live {
            if let Some(outcome) = self.game.outcome() {
                self.status = Status::Over;
                self.outcome = Some(outcome);
            }
        }
        if self.status.ended() {
            if let Some(clock) = &mut self.clock {
                clock.stop(t);
            }
        }
        self.entries += 1;
        Ok(events)
    }

    fn charge(&mut self, t: i64) {
        if let Some(clock) = &mut self.clock {
            clock.charge(t);
        }
    }

    /// After an action: the actor has acted, and once both sides have, the clock of the side
    /// to act runs (a side whose turn ends gains the increment).
    fn after_action(&mut self, actor: Option<Color>, t: i64) {
        let started = self.acted[0] && self.acted[1];
        if let Some(c) = actor {
            self.acted[index(c)] = true;
        }
        let next = self.game.to_act().and_then(Actor::color);
        let both = self.acted[0] && self.acted[1];
        if let Some(clock) = &mut self.clock {
            clock.charge(t);
            if let Some(c) = actor {
                if started && next != Some(c) {
                    clock.increment(c);
                }
            }
            clock.run(next.filter(|_| both), t);
        }
    }
}

/// Each seat's rating change, from a rated game's stored changes (none when it changed none).
pub fn rating_diffs(
    changes: &[RatingChange],
    accounts: [Option<i64>; 2],
) -> Option<BySeat<RatingDiff>> {
    let diff = |account: Option<i64>| {
        let change = changes.iter().find(|c| Some(c.account) == account)?;
        Some(RatingDiff {
            after: change.after,
            before: change.before,
            diff: (change.after.round() - change.before.round()) as i64,
            provisional: change.rd > crate::rating::PROVISIONAL_RD,
        })
    };
    Some(BySeat {
        black: diff(accounts[1])?,
        white: diff(accounts[0])?,
    })
}
