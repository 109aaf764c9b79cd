//! SAN round trips: the SAN written for every legal move of an arbitrary reachable position reads
//! back to that move, and the chess variants take it as an action.

use bluffchess_rules::chess::fen::START;
use bluffchess_rules::chess::{san, Position};
use bluffchess_rules::{AlterEgo, Chess, Game, Options};
use proptest::prelude::*;
use proptest::sample::Index;

/// Positions with promotions, castling both ways, en passant and rival pieces to disambiguate.
const STARTS: [&str; 4] = [
    START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "k7/8/8/2Q1Q3/8/2Q1Q3/8/7K w - - 0 1",
];

fn reached(start: &str, choices: &[Index]) -> Position {
    let mut pos = Position::from_fen(start).unwrap();
    for choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[choice.index(moves.len())]);
    }
    pos
}

proptest! {
    #[test]
    fn san_of_every_legal_move_reads_back(
        start in prop::sample::select(&STARTS[..]),
        choices in prop::collection::vec(any::<Index>(), 0..80),
    ) {
        let pos = reached(start, &choices);
        let legal = pos.legal_moves();
        for &mv in &legal {
            let text = san::write(&pos, mv);
            prop_assert_eq!(san::parse(&pos, &legal, &text), Ok(mv), "{} in {}", text, pos.fen());
        }
    }
}

#[test]
fn the_chess_variants_take_san_and_uci_in_any_case() {
    let mut chess = Chess::new(&Options::new()).unwrap();
    for text in ["e4", "E7E5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"] {
        chess.apply_text(text).unwrap();
    }
    assert_eq!(chess.history().last().unwrap().to_string(), "e1g1");
    let mut ego = AlterEgo::new(&Options::new()).unwrap();
    for text in ["e4", "d5", "stay", "exd5"] {
        ego.apply_text(text).unwrap();
    }
    assert_eq!(ego.history()[3].to_string(), "e4d5");
    let err = chess.parse_action("Qh9").unwrap_err().to_string();
    assert!(err.contains("not a move in SAN or UCI"), "{err}");
}
