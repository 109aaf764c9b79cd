//! Drawing a seat's typed view in the terminal: one file per board family, this one for what all
//! variants share (events, status lines).

mod bluff_move;
mod bs;
mod chess;
pub mod reality_check;
pub mod turn;

pub use bs::silly;

use bluffchess_rules::board::Color;
use bluffchess_rules::event::{Event, EventKind};
use bluffchess_rules::fact::Fact;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::seat::Actor;
use bluffchess_rules::variants::{AlterEgo, Ambiguous, BluffMove, Bs, Chess, RealityCheck};
use bluffchess_rules::AnyView;
use chess::{alter_ego_board, ambiguous_board, chess_board};
use turn::{check_note, claim_note, Turn};

/// How the terminal draws a variant's position as one seat sees it: one impl for every variant
/// of the rules crate's list (a missing one is a compile error in the dispatch below).
trait Draw: Game {
    /// The board, the seat's own side at the bottom (a game's `options` may choose its board).
    fn board(position: &Self::Summary, options: &Options, seat: Color) -> String;

    /// What is worth saying about the position, one line each.
    fn status(
        _position: &Self::Summary,
        _options: &Options,
        _turn: Turn,
        _notes: &mut Vec<String>,
    ) {
    }

    /// Whether the side to move is in check (for the variants with check).
    fn in_check(_position: &Self::Summary) -> bool {
        false
    }
}

impl Draw for Chess {
    fn board(position: &Self::Summary, _options: &Options, seat: Color) -> String {
        chess_board(&position.fen, seat, &[])
    }

    fn status(position: &Self::Summary, _: &Options, turn: Turn, notes: &mut Vec<String>) {
        check_note(notes, position.check, position.turn);
        claim_note(notes, position.claimable_draw, turn);
    }

    fn in_check(position: &Self::Summary) -> bool {
        position.check
    }
}

impl Draw for AlterEgo {
    fn board(position: &Self::Summary, _options: &Options, seat: Color) -> String {
        alter_ego_board(position, seat)
    }

    fn status(position: &Self::Summary, _: &Options, turn: Turn, notes: &mut Vec<String>) {
        chess::alter_ego_status(notes, position, turn);
    }

    fn in_check(position: &Self::Summary) -> bool {
        position.check
    }
}

impl Draw for Ambiguous {
    fn board(position: &Self::Summary, _options: &Options, seat: Color) -> String {
        ambiguous_board(position, seat)
    }

    fn status(position: &Self::Summary, _: &Options, turn: Turn, notes: &mut Vec<String>) {
        chess::ambiguous_status(notes, position, turn);
    }

    fn in_check(position: &Self::Summary) -> bool {
        position.check
    }
}

impl Draw for BluffMove {
    fn board(position: &Self::Summary, _options: &Options, seat: Color) -> String {
        bluff_move::board(position, seat)
    }
}

impl Draw for RealityCheck {
    fn board(position: &Self::Summary, options: &Options, seat: Color) -> String {
        reality_check::board(position, reality_check::shape(options), seat)
    }

    fn status(position: &Self::Summary, options: &Options, turn: Turn, notes: &mut Vec<String>) {
        let shape = reality_check::shape(options);
        notes.extend(reality_check::due(position, shape, turn));
    }
}

impl Draw for Bs {
    fn board(position: &Self::Summary, _options: &Options, seat: Color) -> String {
        bs::board(position, seat)
    }

    fn status(position: &Self::Summary, _: &Options, turn: Turn, notes: &mut Vec<String>) {
        notes.extend(bs::due(position, turn));
    }
}

/// The drawing of any view, over the rules crate's one list of variants.
macro_rules! draw_any {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
        /// The board as the seat sees it, its own side at the bottom.
        pub fn board(view: &AnyView, seat: Color) -> String {
            match view {
                $(AnyView::$arm(v) => <$game as Draw>::board(&v.position, &v.options, seat),)*
            }
        }

        /// What is worth saying about the position (check, what is due), one line each. A
        /// prompt for a choice goes only to the seat that makes it; the other seat is told who
        /// is choosing.
        pub fn status(view: &AnyView, turn: Turn) -> Vec<String> {
            let mut notes = Vec::new();
            match view {
                $(AnyView::$arm(v) => {
                    <$game as Draw>::status(&v.position, &v.options, turn, &mut notes)
                })*
            }
            notes
        }

        /// Whether the position's side to move is in check (for the variants with check).
        pub fn in_check(view: &AnyView) -> bool {
            match view {
                $(AnyView::$arm(v) => <$game as Draw>::in_check(&v.position),)*
            }
        }
    };
}
bluffchess_rules::for_each_variant!(draw_any);

/// One event as a line: actions numbered from 1, captures and (with `check`) checks marked.
pub fn event(event: &Event, check: bool) -> String {
    let number = event.action + 1;
    let actor = event.actor;
    let text = &event.text;
    match event.kind {
        EventKind::Action => format!("{number:>4}. {actor}: {text}{}", marks(event, check)),
        EventKind::Sealed => format!("{number:>4}. {actor}: {text} (sealed)"),
        EventKind::Reveal { action } => {
            format!("      {actor} reveals action {}: {text}", action + 1)
        }
        EventKind::Info => format!("      {text}"),
        EventKind::Meta => format!("      {}", meta(actor, text)),
        EventKind::End => format!("game over: {text}"),
    }
}

/// `, takes d5` and `, check` after a move.
fn marks(event: &Event, check: bool) -> String {
    let mut marks = String::new();
    if let Some(Fact::Move {
        capture: Some(square),
        ..
    }) = event.fact
    {
        marks.push_str(&format!(", takes {square}"));
    }
    if check {
        marks.push_str(", check");
    }
    marks
}

fn meta(actor: Actor, name: &str) -> String {
    let what = match name {
        "resign" => "resigns",
        "offer_draw" => "offers a draw",
        "accept_draw" => "accepts the draw",
        "decline_draw" => "declines the draw",
        "claim_draw" => "claims a draw",
        other => other,
    };
    format!("{actor} {what}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::seat::Audience;
    use bluffchess_rules::Square;

    #[test]
    fn moves_are_numbered_and_marked() {
        let mut e = Event::new(2, Actor::White, Audience::All, EventKind::Action, "e4d5");
        e.fact = Some(Fact::Move {
            from: Square::E4,
            to: Square::D5,
            promotion: None,
            capture: Some(Square::D5),
        });
        assert_eq!(event(&e, true), "   3. white: e4d5, takes d5, check");
        let m = Event::new(
            3,
            Actor::Black,
            Audience::All,
            EventKind::Meta,
            "offer_draw",
        );
        assert_eq!(event(&m, false), "      black offers a draw");
    }
}
