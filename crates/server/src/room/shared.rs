//! What the rest of the server holds of a room: its mailbox, token hashes, feeds, presence and
//! public facts. Never the truth.

use super::clock::now_ms;
use super::feed::Feed;
use super::seat::{index, Holder};
use crate::error::ApiError;
use crate::wire::{Answer, LobbyGame};
use bluffchess_rules::board::Color;
use bluffchess_rules::record::{MetaKind, Record};
use bluffchess_rules::seat::Seat;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::{mpsc, oneshot};

/// Whether a seat is connected: open streams and sockets, and when it was last heard from.
#[derive(Default)]
pub struct Presence {
    /// Open streams and sockets.
    pub connections: AtomicUsize,
    /// Last request or disconnection, in ms since the epoch.
    pub last_seen: AtomicI64,
}

impl Presence {
    /// Notes a request now.
    pub fn seen(&self) {
        self.last_seen.store(now_ms(), Ordering::Relaxed);
    }
}

/// Holds a connection open in [`Presence`] until dropped.
pub struct Connected(Arc<Shared>, usize);

impl Connected {
    /// Counts a connection of `seat`.
    pub fn new(shared: Arc<Shared>, seat: Color) -> Connected {
        let i = index(seat);
        shared.presence[i]
            .connections
            .fetch_add(1, Ordering::Relaxed);
        shared.presence[i].seen();
        Connected(shared, i)
    }
}

impl Drop for Connected {
    fn drop(&mut self) {
        let presence = &self.0.presence[self.1];
        presence.seen();
        presence.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What the rest of the server holds of a room. Never the truth.
pub struct Shared {
    /// The game id.
    pub id: String,
    /// The room's mailbox.
    pub tx: mpsc::Sender<Command>,
    /// SHA-256 of each seat's token.
    pub tokens: RwLock<[Option<[u8; 32]>; 2]>,
    /// White's, Black's and the spectators' feeds.
    pub feeds: [Arc<Feed>; 3],
    /// White's and Black's presence.
    pub presence: [Presence; 2],
    /// The lobby entry: public facts only.
    pub public: Mutex<Option<LobbyGame>>,
    /// Never listed in the lobby.
    pub private: bool,
    /// The account that holds each seat, if one does.
    pub accounts: RwLock<[Option<i64>; 2]>,
    /// The guest session that holds each seat, if one does (SHA-256, hex).
    pub guests: RwLock<[Option<String>; 2]>,
    /// In a cluster: the game is owned by another node, and this is its relay here.
    pub relayed: bool,
}

/// What a seat may ask of its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatCommand {
    /// An action's text.
    Act(String),
    /// A resignation, draw offer, acceptance or claim.
    Meta(MetaKind),
    /// Calls the game off.
    Abort,
    /// Asks for a rematch.
    Rematch,
    /// Claims the win from an opponent who stayed away past the grace period.
    ClaimVictory,
}

impl SeatCommand {
    /// The command a socket names (`resign`, `offer_draw`, ...).
    pub fn parse(name: &str) -> Option<SeatCommand> {
        Some(match name {
            "abort" => SeatCommand::Abort,
            "rematch" => SeatCommand::Rematch,
            "claim_victory" => SeatCommand::ClaimVictory,
            "resign" => SeatCommand::Meta(MetaKind::Resign),
            "offer_draw" => SeatCommand::Meta(MetaKind::OfferDraw),
            "accept_draw" => SeatCommand::Meta(MetaKind::AcceptDraw),
            "decline_draw" => SeatCommand::Meta(MetaKind::DeclineDraw),
            "claim_draw" => SeatCommand::Meta(MetaKind::ClaimDraw),
            // A flag fall and an abandonment are the server's to declare, never a seat's.
            _ => return None,
        })
    }
}

/// A request to the room.
pub enum Command {
    /// A seat's command.
    Seat {
        seat: Color,
        command: SeatCommand,
        reply: oneshot::Sender<Result<Answer, ApiError>>,
    },
    /// Takes the open seat (a private game's with its invitation): answers the seat and its
    /// token.
    Join {
        holder: Holder,
        invite: Option<String>,
        reply: oneshot::Sender<Result<(Color, String), ApiError>>,
    },
    /// The seats a guest session held are `account`'s now (in [`Shared`] already): its name
    /// is shown.
    Claimed { account: i64, name: String },
    /// The seat's whole view now, as a `view` message.
    View {
        seat: Seat,
        reply: oneshot::Sender<Result<crate::wire::Message, ApiError>>,
    },
    /// The position after each action the seat saw, as it saw it then.
    Positions {
        seat: Seat,
        reply: oneshot::Sender<Result<crate::wire::Positions, ApiError>>,
    },
    /// The record, once the game is over.
    Record {
        reply: oneshot::Sender<Result<Record, ApiError>>,
    },
}

impl Shared {
    /// The seat `account` holds, if any.
    pub fn seat_of_account(&self, account: i64) -> Option<Color> {
        let accounts = self.accounts.read().expect("seat lock");
        let i = accounts.iter().position(|a| *a == Some(account))?;
        Some([Color::White, Color::Black][i])
    }

    /// The seat the guest session `hash` holds, if any.
    pub fn seat_of_guest(&self, hash: &str) -> Option<Color> {
        let guests = self.guests.read().expect("seat lock");
        let i = guests.iter().position(|g| g.as_deref() == Some(hash))?;
        Some([Color::White, Color::Black][i])
    }

    /// Asks the room; answers its reply, or 503 when the room has stopped.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| ApiError::unavailable("the game is shutting down"))?;
        answer
            .await
            .map_err(|_| ApiError::unavailable("the game is shutting down"))
    }

    /// A seat's command.
    pub async fn command(&self, seat: Color, command: SeatCommand) -> Result<Answer, ApiError> {
        self.ask(|reply| Command::Seat {
            seat,
            command,
            reply,
        })
        .await?
    }
}
