//! What the nodes of a cluster say to each other on NATS: the subjects, a live game's requests
//! forwarded to its owner and their answers (request-reply), and each audience's feed news.
//! Everything here is already split per audience by the owner: a relay node never holds
//! anything it would have to split.

use crate::error::ApiError;
use crate::room::{FeedCopy, Holder, SeatCommand};
use crate::wire::{Answer, LobbyGame, Message, Positions};
use bluffchess_rules::board::Color;
use bluffchess_rules::record::{MetaKind, Record};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// The audiences of a game, in the order of its feeds.
pub const AUDIENCES: [&str; 3] = ["white", "black", "spectator"];

/// Where a game's owner takes its forwarded requests.
pub fn command_subject(game: &str) -> String {
    format!("bluffchess.game.{game}.command")
}

/// Where a game's owner publishes one audience's news.
pub fn feed_subject(game: &str, audience: usize) -> String {
    format!("bluffchess.game.{game}.feed.{}", AUDIENCES[audience])
}

/// Every audience's news of a game (a relay serves all three, each to its own readers).
pub fn feeds_subject(game: &str) -> String {
    format!("bluffchess.game.{game}.feed.*")
}

/// Where a game's owner publishes who holds its seats, when that changes.
pub fn seats_subject(game: &str) -> String {
    format!("bluffchess.game.{game}.seats")
}

/// Where a game's owner says it is handing the game over (its node drains): relays hold their
/// requests until the next owner speaks (see `owner::serve`).
pub fn moving_subject(game: &str) -> String {
    format!("bluffchess.game.{game}.moving")
}

/// Where a draining node says which games it let go, so that another takes them at once.
pub const RELEASED: &str = "bluffchess.released";

/// Where a game's start or end is told to the event streams on every node.
pub const ANNOUNCED: &str = "bluffchess.announced";

/// A game id fit for a subject (ids are hex; anything else is no game of ours).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A seat's command as it travels: an action's text, or a command's name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatForm {
    Act(String),
    Named(String),
}

impl SeatForm {
    pub fn of(command: &SeatCommand) -> SeatForm {
        match command {
            SeatCommand::Act(text) => SeatForm::Act(text.clone()),
            SeatCommand::Abort => SeatForm::Named("abort".into()),
            SeatCommand::Rematch => SeatForm::Named("rematch".into()),
            SeatCommand::ClaimVictory => SeatForm::Named("claim_victory".into()),
            SeatCommand::Meta(kind) => SeatForm::Named(
                match kind {
                    MetaKind::Resign => "resign",
                    MetaKind::OfferDraw => "offer_draw",
                    MetaKind::AcceptDraw => "accept_draw",
                    MetaKind::DeclineDraw => "decline_draw",
                    MetaKind::ClaimDraw => "claim_draw",
                    // Never a seat's (SeatCommand::parse refuses them): refused by the owner.
                    _ => "server-only",
                }
                .into(),
            ),
        }
    }

    pub fn command(self) -> Result<SeatCommand, ApiError> {
        match self {
            SeatForm::Act(text) => Ok(SeatCommand::Act(text)),
            SeatForm::Named(name) => SeatCommand::parse(&name)
                .ok_or_else(|| ApiError::bad(format!("no seat command is named {name:?}"))),
        }
    }
}

/// A request forwarded to a game's owner.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    Seat {
        seat: Color,
        command: SeatForm,
    },
    Join {
        key: Option<String>,
        account: Option<(i64, String)>,
        guest: Option<String>,
        invite: Option<String>,
    },
    Claimed {
        account: i64,
        name: String,
    },
    /// An audience's whole view now (0 White, 1 Black, 2 spectators).
    View {
        audience: usize,
    },
    Positions {
        audience: usize,
    },
    Record,
    /// Who holds the seats, for a relay starting or catching up.
    Seats,
    /// An audience's feed from message `from` on, in parts that fit NATS's payloads.
    Feed {
        audience: usize,
        from: usize,
    },
    /// A seat's streams and sockets open on a relay node (`delta` more or fewer).
    Presence {
        seat: Color,
        delta: i64,
    },
}

impl Request {
    pub fn join(holder: Holder, invite: Option<String>) -> Request {
        Request::Join {
            key: holder.key,
            account: holder.account,
            guest: holder.guest,
            invite,
        }
    }
}

/// Who holds a game's seats: hashes of the seats' tokens (hex), accounts and guest sessions,
/// and the lobby entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Seats {
    pub tokens: [Option<String>; 2],
    pub accounts: [Option<i64>; 2],
    pub guests: [Option<String>; 2],
    pub public: Option<LobbyGame>,
    pub private: bool,
}

/// Part of an audience's feed: messages from `from` on (not always all of them: a part stays
/// well under NATS's largest payload), and how many the feed holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FeedPart {
    pub copy: FeedCopy,
    pub from: usize,
    pub total: usize,
}

/// The most bytes of messages in one part of a feed (NATS refuses payloads past 1 MiB by
/// default; the snapshot and the JSON come on top).
pub const PART_BYTES: usize = 256 * 1024;

/// Every audience's feed and the seats, as a relay copies them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sync {
    pub feeds: [FeedCopy; 3],
    pub seats: Seats,
}

/// The owner's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Reply {
    Answer(Answer),
    Joined { seat: Color, token: String },
    View(Box<Message>),
    Positions(Positions),
    Record(Box<Record>),
    Seats(Box<Seats>),
    Feed(Box<FeedPart>),
    Done,
}

/// A refusal as it travels: status, kind and words.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Refusal {
    pub status: u16,
    pub kind: String,
    pub message: String,
}

/// The kind of a request's refusal by a node that no longer owns the game, before doing it.
pub const MOVED: &str = "moved";

impl Refusal {
    /// The request was not done: the game is moving to another node.
    pub fn moved() -> Refusal {
        Refusal {
            status: 503,
            kind: MOVED.into(),
            message: "the game is moving to another node: ask again".into(),
        }
    }

    pub fn of(e: &ApiError) -> Refusal {
        Refusal {
            status: e.status().as_u16(),
            kind: e.kind().to_string(),
            message: e.to_string(),
        }
    }

    /// The refusal as the owner made it, kind included.
    pub fn error(self) -> ApiError {
        let status = axum::http::StatusCode::from_u16(self.status)
            .unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        match self.status {
            400 if self.kind != "malformed" => ApiError::Refused {
                kind: interned(&self.kind),
                message: self.message,
            },
            409 => ApiError::conflict(interned(&self.kind), self.message),
            _ => ApiError::from_status(status, self.message),
        }
    }
}

/// The owner's answer as it travels.
pub type Answered = Result<Reply, Refusal>;

/// A refusal's kind as the `&'static str` errors carry: the kinds are the server's own few,
/// each kept once.
fn interned(kind: &str) -> &'static str {
    static KINDS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut kinds = KINDS
        .get_or_init(Default::default)
        .lock()
        .expect("kinds lock");
    if let Some(known) = kinds.get(kind) {
        return known;
    }
    // Bounded: a kind comes from another node of this cluster, never from a client.
    if kinds.len() >= 256 {
        return "refused";
    }
    let leaked: &'static str = Box::leak(kind.to_string().into_boxed_str());
    kinds.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_travels_with_its_status_and_kind() {
        for e in [
            ApiError::conflict("not-your-turn", "it is not your turn"),
            ApiError::Refused {
                kind: "illegal-action",
                message: "no".into(),
            },
            ApiError::bad("bad"),
            ApiError::gone("over"),
            ApiError::unavailable("down"),
        ] {
            let back = Refusal::of(&e).error();
            assert_eq!(back, e);
        }
    }

    #[test]
    fn every_seat_command_travels() {
        for name in [
            "abort",
            "rematch",
            "claim_victory",
            "resign",
            "offer_draw",
            "accept_draw",
            "decline_draw",
            "claim_draw",
        ] {
            let command = SeatCommand::parse(name).unwrap();
            assert_eq!(SeatForm::of(&command).command().unwrap(), command);
        }
        let act = SeatCommand::Act("e2e4".into());
        assert_eq!(SeatForm::of(&act).command().unwrap(), act);
    }
}
