//! A game's record: every action with its public text, commitment and opening, the players'
//! resignations, offers and claims, the seed and its commitment, and the outcome: everything
//! needed to replay a game and check it (`crate::verification`).

use crate::board::Color;
use crate::options::Options;
use crate::outcome::Outcome;
use crate::seat::Actor;
use serde::{Deserialize, Serialize};

/// A resignation, draw offer, acceptance or claim: allowed to either seat at any time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetaKind {
    /// The seat gives up: the other seat wins.
    Resign,
    /// The seat offers a draw; it stands until the other seat accepts or acts.
    OfferDraw,
    /// The seat accepts the other seat's standing draw offer.
    AcceptDraw,
    /// The seat declines the other seat's standing draw offer: it no longer stands.
    DeclineDraw,
    /// The seat claims a draw the rules allow now (threefold repetition, 50-move rule).
    ClaimDraw,
    /// The seat's clock ran out (declared by whoever keeps the clocks): the other seat wins,
    /// or draws when the rules say it cannot win ([`Game::can_win`](crate::game::Game::can_win)).
    Timeout,
    /// The seat left the game and its opponent claimed the win after a grace period (declared
    /// by whoever watches the connections): the other seat wins.
    Abandon,
}

impl MetaKind {
    /// The protocol's name for it.
    pub fn name(self) -> &'static str {
        match self {
            MetaKind::Resign => "resign",
            MetaKind::OfferDraw => "offer_draw",
            MetaKind::AcceptDraw => "accept_draw",
            MetaKind::DeclineDraw => "decline_draw",
            MetaKind::ClaimDraw => "claim_draw",
            MetaKind::Timeout => "timeout",
            MetaKind::Abandon => "abandon",
        }
    }

    /// Reads a protocol name.
    pub fn parse(text: &str) -> Option<MetaKind> {
        [
            MetaKind::Resign,
            MetaKind::OfferDraw,
            MetaKind::AcceptDraw,
            MetaKind::DeclineDraw,
            MetaKind::ClaimDraw,
            MetaKind::Timeout,
            MetaKind::Abandon,
        ]
        .into_iter()
        .find(|k| k.name() == text)
    }
}

/// One action in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    /// Its index, from 0.
    pub index: usize,
    /// Who took it.
    pub actor: Actor,
    /// The canonical text.
    pub text: String,
    /// What the opponent and spectators were shown (equal to `text` unless the action is hidden).
    pub public: String,
    /// For a hidden action: the commitment to `text`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub commitment: Option<String>,
    /// For a hidden action that has been opened: the salt (hex).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub salt: Option<String>,
    /// The running digest of the public record up to this action (see
    /// [`crate::commitment::chain`]).
    pub digest: String,
}

/// A resignation, offer, acceptance or claim in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMeta {
    /// How many actions had been played before it.
    pub after: usize,
    /// Whose it was.
    pub seat: Color,
    /// What it was.
    pub kind: MetaKind,
}

/// Everything needed to replay and check a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The variant id.
    pub variant: String,
    /// The rules options.
    pub options: Options,
    /// The game id that every commitment includes.
    pub game_id: String,
    /// The seed of the game's generator (Chance, random setups).
    pub seed: u64,
    /// The commitment to the seed, public from the start (absent in records made before seeds
    /// were committed).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub seed_commitment: Option<String>,
    /// The salt that opens the seed's commitment, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub seed_salt: Option<String>,
    /// Whether Chance's outcomes were chosen by the players (a scripted game) instead of drawn
    /// from the seed.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub scripted: bool,
    /// Every action, in order.
    pub actions: Vec<RecordedAction>,
    /// Resignations, offers, acceptances and claims.
    #[serde(default)]
    pub meta: Vec<RecordedMeta>,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
}
