//! What the database holds of a game: its settings, its log's entries, and the writes that
//! change them.

use crate::wire::Status;
use bluffchess_rules::board::Color;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::Seat;

/// A game's settings as stored.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    /// The rules options as JSON.
    pub options: String,
    pub seed: u64,
    pub salt_seed: u64,
    pub clock: Option<(i64, i64)>,
    /// `player`, `open` or `bot:NAME`, for White and Black.
    pub players: [String; 2],
    /// SHA-256 of each seat's token (hex).
    pub tokens: [Option<String>; 2],
    /// Where the game is.
    pub status: Status,
    pub rematch_of: Option<String>,
    pub created_ms: i64,
    /// Never listed in the lobby.
    pub private: bool,
    /// Rated: its end changes both players' ratings.
    pub rated: bool,
    /// SHA-256 of the invitation that takes a private game's open seat (hex).
    pub invite: Option<String>,
    /// The account that holds each seat, if one does.
    pub accounts: [Option<i64>; 2],
    /// SHA-256 of the guest session that holds each seat, if a guest does (hex).
    pub guests: [Option<String>; 2],
}

/// What one entry of a game's log records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Logged {
    /// A seat's action: as given (`setup random`), and in the canonical text the arbiter
    /// recorded.
    Play {
        seat: Color,
        input: String,
        text: String,
    },
    /// Chance's outcome, as the arbiter recorded it.
    Roll { text: String },
    /// A resignation, draw offer, acceptance or claim.
    Meta { seat: Color, kind: MetaKind },
    /// A seat's flag fell.
    Flag { seat: Color },
    /// A seat stayed away past the grace period and its opponent claimed the win.
    Abandon { seat: Color },
    /// A seat called the game off.
    Abort { seat: Color },
    /// A seat was taken.
    Join { seat: Color },
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What it records.
    pub what: Logged,
    /// Server time in milliseconds since the Unix epoch.
    pub at_ms: i64,
}

impl Entry {
    /// An entry made now.
    pub fn now(what: Logged, at_ms: i64) -> Entry {
        Entry { what, at_ms }
    }

    /// Its columns: kind, seat, input, text (the form every database written so far holds).
    pub(super) fn columns(&self) -> (&'static str, Option<&'static str>, String, String) {
        let name = |c: &Color| Some(Seat::from(*c).name());
        match &self.what {
            Logged::Play { seat, input, text } => ("play", name(seat), input.clone(), text.clone()),
            Logged::Roll { text } => ("roll", None, "roll".into(), text.clone()),
            Logged::Meta { seat, kind } => {
                ("meta", name(seat), kind.name().into(), kind.name().into())
            }
            Logged::Flag { seat } => ("flag", name(seat), "flag".into(), "flag".into()),
            Logged::Abandon { seat } => ("abandon", name(seat), "abandon".into(), "abandon".into()),
            Logged::Abort { seat } => ("abort", name(seat), "abort".into(), "abort".into()),
            Logged::Join { seat } => ("join", name(seat), "join".into(), "join".into()),
        }
    }

    /// Reads its columns back; `None` when they are not an entry this server writes.
    pub(super) fn from_columns(
        kind: &str,
        seat: Option<&str>,
        input: String,
        text: String,
        at_ms: i64,
    ) -> Option<Entry> {
        let seat = seat.and_then(Seat::parse).and_then(Seat::color);
        let what = match kind {
            "play" => Logged::Play {
                seat: seat?,
                input,
                text,
            },
            "roll" => Logged::Roll { text },
            "meta" => Logged::Meta {
                seat: seat?,
                kind: MetaKind::parse(&input)?,
            },
            "flag" => Logged::Flag { seat: seat? },
            "abandon" => Logged::Abandon { seat: seat? },
            "abort" => Logged::Abort { seat: seat? },
            "join" => Logged::Join { seat: seat? },
            _ => return None,
        };
        Some(Entry { what, at_ms })
    }
}

/// One write.
#[derive(Clone, Debug)]
pub enum Write {
    /// A new game.
    Game(Box<GameRow>),
    /// An entry appended to a game's log at `seq` (0-based).
    Entry {
        game: String,
        seq: i64,
        entry: Entry,
    },
    /// A seat taken: its token hash; the game goes live.
    Join {
        game: String,
        seat: usize,
        token: String,
        /// The account or guest session that took it.
        account: Option<i64>,
        guest: Option<String>,
    },
    /// A new status, with the result of a game that ended with one (`1-0`, `0-1`, `1/2-1/2`).
    Status {
        game: String,
        status: Status,
        result: Option<&'static str>,
    },
    /// The rematch of a game.
    Rematch { game: String, rematch: String },
    /// A rated game's end changes both players' ratings (computed in the transaction from the
    /// ratings stored, once per game).
    Rate(Box<RatedEnd>),
    /// The writes of this transaction are refused unless `node` still holds `game`'s lease at
    /// `epoch` (a cluster's fencing, Postgres only; the lease row is locked until the commit).
    Fence {
        game: String,
        node: String,
        epoch: i64,
    },
}

/// A rated game that ended: who played it and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedEnd {
    pub game: String,
    pub variant: String,
    /// White's and Black's accounts.
    pub accounts: [i64; 2],
    /// White's score: 1 a win, 0.5 a draw, 0 a loss.
    pub white_score: f64,
    pub at_ms: i64,
}
