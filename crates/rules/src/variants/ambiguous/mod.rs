//! Ambiguous Chess (`ambiguous`): the player to move names a destination square; the opponent
//! picks which of the player's pieces goes there (and, for a promotion, what it becomes). No check:
//! capturing the king wins. Perfect information.
//!
//! ```
//! use bluffchess_rules::{Ambiguous, Game, Options};
//! let mut game = Ambiguous::new(&Options::new())?;
//! game.apply_text("e4")?; // White names e4: only the e-pawn can go there, so it does.
//! game.apply_text("c6")?; // Black names c6: the b8 knight or the c-pawn...
//! game.apply_text("c7c6")?; // ...and White picks the pawn.
//! assert_eq!(game.history().len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod candidates;
mod mate;
#[cfg(test)]
mod tests;
mod view;

pub use actions::Action;
pub use belief::AmbiguousBelief;
pub use candidates::candidates;
pub use view::AmbiguousSummary;

use crate::board::attacks::pawn_attacks;
use crate::board::{Bitboard, Color, Role, Square};
use crate::chess::{Move, MoveList, Position};
use crate::game::{
    ActionError, Actor, Audience, EndReason, EventKind, Fact, Game, OptionError, Options, Outcome,
    Seat,
};
use crate::log::Log;
use crate::registry::{ActionForm, OptionKind, OptionSpec, OptionValues, VariantSpec};
use rand::RngCore;
use std::fmt::Display;

/// The rules options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// Note 1's checkmate: a side that cannot keep its king safe loses at once.
    pub checkmate: bool,
    /// With `checkmate`: the same trap out of check is a draw instead of a loss.
    pub stalemate_draw: bool,
}

impl Rules {
    fn from_values(values: &OptionValues) -> Result<Rules, OptionError> {
        let rules = Rules {
            checkmate: values.flag("checkmate"),
            stalemate_draw: values.value("stalemate") == "draw",
        };
        if rules.stalemate_draw && !rules.checkmate {
            return Err(OptionError {
                name: "stalemate".into(),
                reason: "stalemate=draw needs checkmate=true".into(),
            });
        }
        Ok(rules)
    }

    fn options(self) -> Options {
        Options::from([
            ("checkmate".to_string(), self.checkmate.to_string()),
            (
                "stalemate".to_string(),
                if self.stalemate_draw { "draw" } else { "loss" }.to_string(),
            ),
        ])
    }
}

/// Where in a turn the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// The side to move names a square.
    Name,
    /// Its opponent picks one of these moves to the named square.
    Pick(Vec<Move>),
}

/// A game of Ambiguous Chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguous {
    rules: Rules,
    position: Position,
    /// The square a pawn passed with a double step on the last move.
    passed: Option<Square>,
    phase: Phase,
    last_move: Option<Move>,
    /// Keys of the positions where a square was to be named, since the last capture or pawn move.
    repetitions: Vec<u64>,
    /// The side to move's candidate moves (see `candidates.rs`).
    candidates: MoveList,
    log: Log<Action>,
}

impl Ambiguous {
    /// The board.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules options in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The last move played (a pick, or a named square's only move).
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// The side to move's candidate moves, generated once per move.
    fn candidates(&self) -> &[Move] {
        &self.candidates
    }

    fn destinations(&self) -> Bitboard {
        candidates::destinations(self.candidates())
    }

    fn refresh_candidates(&mut self) {
        candidates::fill_candidates(&self.position, self.passed, &mut self.candidates);
    }

    /// The key of the current position for the repetition rule: the board, the side to move and
    /// a possible en passant capture.
    fn key(&self) -> u64 {
        let ep = self.passed.filter(|&sq| {
            let capturers = pawn_attacks(!self.position.turn(), sq);
            (capturers & self.position.pieces(self.position.turn(), Role::Pawn)).any()
        });
        self.position.hash()
            ^ ep.map_or(0, |sq| {
                0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(sq.index() as u64 + 1)
            })
    }

    fn push_fact(&mut self, actor: Color, kind: EventKind, text: impl Display, fact: Fact) {
        self.log.push_fact(actor, Audience::All, kind, text, fact);
    }

    fn name(&mut self, square: Square) -> Result<(), ActionError> {
        let moves: Vec<Move> = self
            .candidates()
            .iter()
            .copied()
            .filter(|m| m.to == square)
            .collect();
        if moves.is_empty() {
            return Err(ActionError::illegal(
                square,
                format!("none of your pieces can move to {square}"),
            ));
        }
        let mover = self.position.turn();
        self.push_fact(mover, EventKind::Action, square, Fact::Name { square });
        if let [only] = moves.as_slice() {
            let fact = self.position.move_fact(*only);
            self.push_fact(mover, EventKind::Info, only, fact);
            if self.log.keeps_events() {
                self.log
                    .note(crate::chess::san::long(&self.position, *only));
            }
            self.play(*only);
        } else {
            self.phase = Phase::Pick(moves);
        }
        Ok(())
    }

    fn pick(&mut self, mv: Move, moves: &[Move]) -> Result<(), ActionError> {
        if !moves.contains(&mv) {
            let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
            return Err(ActionError::illegal(
                mv,
                format!("pick one of {}", list.join(", ")),
            ));
        }
        let fact = self.position.move_fact(mv);
        self.push_fact(!self.position.turn(), EventKind::Action, mv, fact);
        if self.log.keeps_events() {
            self.log.note(crate::chess::san::long(&self.position, mv));
        }
        self.play(mv);
        Ok(())
    }

    /// Plays the chosen move and judges the position it reaches.
    fn play(&mut self, mv: Move) {
        let mover = self.position.turn();
        let king_taken = self.position.pieces(!mover, Role::King).contains(mv.to);
        let irreversible = self.position.occupied().contains(mv.to)
            || self.position.pieces(mover, Role::Pawn).contains(mv.from);
        self.position.play_unchecked(mv);
        self.last_move = Some(mv);
        let double_step = self.position.pieces(mover, Role::Pawn).contains(mv.to)
            && mv.from.index().abs_diff(mv.to.index()) == 16;
        self.passed =
            double_step.then(|| Square::new(((mv.from.index() + mv.to.index()) / 2) as u32));
        self.phase = Phase::Name;
        self.refresh_candidates();
        if king_taken {
            return self.end(Outcome::win(mover, EndReason::KingCaptured), mover);
        }
        if irreversible {
            self.repetitions.clear();
        }
        self.repetitions.push(self.key());
        if let Some(outcome) = self.ending() {
            self.end(outcome, mover);
        }
    }

    fn end(&mut self, outcome: Outcome, actor: Color) {
        self.log.end(outcome, actor.into());
    }

    /// How the rules end the game when a square is to be named.
    fn ending(&self) -> Option<Outcome> {
        let side = self.position.turn();
        if self.candidates().is_empty() {
            return Some(Outcome::win(!side, EndReason::NoDestination));
        }
        if self.rules.checkmate && mate::is_trapped(&self.position, self.passed) {
            return Some(if self.position.is_check() {
                Outcome::win(!side, EndReason::Checkmate)
            } else if self.rules.stalemate_draw {
                Outcome::draw(EndReason::Stalemate)
            } else {
                Outcome::win(!side, EndReason::Stalemate)
            });
        }
        if self.position.halfmove_clock() >= 150 {
            Some(Outcome::draw(EndReason::SeventyFiveMoveRule))
        } else if self.repetition_count() >= 5 {
            Some(Outcome::draw(EndReason::FivefoldRepetition))
        } else {
            None
        }
    }

    fn repetition_count(&self) -> usize {
        crate::game::times_last_stood(&self.repetitions)
    }
}

impl Game for Ambiguous {
    /// Positions stand only where a square is to be named.
    fn repetitions(&self) -> usize {
        match self.phase {
            Phase::Name => self.repetition_count(),
            Phase::Pick(_) => 1,
        }
    }

    type Action = Action;
    type Summary = AmbiguousSummary;

    const SPEC: VariantSpec = VariantSpec {
        id: "ambiguous",
        name: "Ambiguous Chess",
        summary: "You name the square; your opponent picks which of your pieces goes there.",
        rules: include_str!("../../../../../docs/rules/ambiguous.md"),
        options: &[
            OptionSpec::flag(
                "checkmate",
                "Note 1's checkmate: a side that cannot keep its king safe, whatever square it names, loses at once.",
            ),
            OptionSpec {
                name: "stalemate",
                kind: OptionKind::Choice,
                values: &["loss", "draw"],
                default: "loss",
                description: "With checkmate=true: whether the same trap out of check loses (loss) or is a draw (draw).",
            },
        ],
        actions: &[
            ActionForm::new("e4", "name a square one of your pieces can reach: your opponent picks the move"),
            ActionForm::new("d2e4", "pick which of the opponent's pieces goes to the named square, in UCI"),
            ActionForm::new("e7e8n", "pick a promotion, with the new piece's letter (q, r, b, n)"),
        ],
    };

    fn new(options: &Options) -> Result<Ambiguous, OptionError> {
        let position = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
            .expect("the start position without castling is valid");
        let mut game = Ambiguous {
            rules: Rules::from_values(&Self::SPEC.read_options(options)?)?,
            position,
            passed: None,
            last_move: None,
            phase: Phase::Name,
            repetitions: Vec::new(),
            candidates: MoveList::new(),
            log: Log::new(),
        };
        game.repetitions.push(game.key());
        game.refresh_candidates();
        Ok(game)
    }

    fn options(&self) -> Options {
        self.rules.options()
    }

    fn to_act(&self) -> Option<Actor> {
        if self.log.outcome.is_some() {
            return None;
        }
        Some(match self.phase {
            Phase::Name => self.position.turn().into(),
            Phase::Pick(_) => (!self.position.turn()).into(),
        })
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        if self.log.outcome.is_some() {
            return;
        }
        match &self.phase {
            Phase::Name => actions.extend(self.destinations().into_iter().map(Action::Name)),
            Phase::Pick(moves) => actions.extend(moves.iter().copied().map(Action::Pick)),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        actions::parse(text)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if self.log.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        match (&self.phase, *action) {
            (Phase::Name, Action::Name(square)) => self.name(square)?,
            (Phase::Pick(moves), Action::Pick(mv)) => {
                let moves = moves.clone();
                self.pick(mv, &moves)?
            }
            (Phase::Name, Action::Pick(_)) => {
                return Err(ActionError::illegal(
                    action,
                    "name a destination square (such as e4); your opponent picks the move",
                ))
            }
            (Phase::Pick(_), Action::Name(_)) => {
                return Err(ActionError::illegal(
                    action,
                    "a square has been named: pick the move to it (such as d2e4)",
                ))
            }
        }
        self.log.push_action(*action);
        Ok(())
    }

    crate::log::log_accessors!();

    fn summary(&self, _seat: Seat, _revealed: bool) -> AmbiguousSummary {
        AmbiguousSummary::of(self)
    }

    fn claimable_draw(&self, _color: Color) -> Option<EndReason> {
        if !matches!(self.phase, Phase::Name) {
            None
        } else if self.repetition_count() >= 3 {
            Some(EndReason::ThreefoldRepetition)
        } else if self.position.halfmove_clock() >= 100 {
            Some(EndReason::FiftyMoveRule)
        } else {
            None
        }
    }

    fn resample(&self, seat: Seat, rng: &mut dyn RngCore) -> Ambiguous {
        crate::belief::resample_via_view::<AmbiguousBelief>(self, seat, rng)
    }
}
