//! Properties of the orthodox chess position over arbitrary reachable positions: a random
//! sequence of legal-move choices played from the start position or from Kiwipete.

use bluffchess_rules::board::{Role, Square};
use bluffchess_rules::chess::fen::START;
use bluffchess_rules::chess::perft::perft;
use bluffchess_rules::chess::{Move, Position};
use proptest::prelude::*;
use proptest::sample::Index;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A game: the start, the moves and every position along the way (`positions[0]` is the start,
/// `positions[i + 1]` follows `moves[i]`).
#[derive(Debug)]
struct Line {
    start: &'static str,
    moves: Vec<Move>,
    positions: Vec<Position>,
}

/// Plays the chosen moves (each index picks among the legal moves) until they run out or the
/// game has no legal move.
fn play_line(start: &'static str, choices: &[Index]) -> Line {
    let mut pos = Position::from_fen(start).unwrap();
    let mut line = Line {
        start,
        moves: Vec::new(),
        positions: vec![pos],
    };
    for choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice.index(moves.len())];
        pos.play_unchecked(mv);
        line.moves.push(mv);
        line.positions.push(pos);
    }
    line
}

fn line() -> impl Strategy<Value = Line> {
    (
        prop_oneof![Just(START), Just(KIWIPETE)],
        prop::collection::vec(any::<Index>(), 0..160),
    )
        .prop_map(|(start, choices)| play_line(start, &choices))
}

/// Every move that names a square pair and an optional promotion letter. (Promotions to a king or
/// pawn, which no UCI text names, are the subject of a test in `chess_rules.rs`.)
fn all_candidate_moves(from_squares: impl IntoIterator<Item = Square>) -> Vec<Move> {
    let promotions = [
        None,
        Some(Role::Queen),
        Some(Role::Rook),
        Some(Role::Bishop),
        Some(Role::Knight),
    ];
    let mut moves = Vec::new();
    for from in from_squares {
        for to in Square::ALL {
            for promotion in promotions {
                moves.push(Move {
                    from,
                    to,
                    promotion,
                });
            }
        }
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fen_round_trips(line in line()) {
        for pos in &line.positions {
            let fen = pos.fen();
            let read = Position::from_fen(&fen);
            prop_assert_eq!(&read, &Ok(*pos), "{}", fen);
            let read = read.unwrap();
            prop_assert_eq!(read.hash(), pos.hash(), "{}", fen);
            prop_assert_eq!(read.fen(), fen);
        }
    }

    #[test]
    fn incremental_hash_equals_computed_hash(line in line()) {
        for pos in &line.positions {
            prop_assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
        }
    }

    #[test]
    fn copy_make_leaves_the_original_alone(line in line()) {
        for (i, &mv) in line.moves.iter().enumerate() {
            let original = line.positions[i];
            let fen = original.fen();
            let mut copy = original;
            copy.play_unchecked(mv);
            prop_assert_eq!(original, line.positions[i]);
            prop_assert_eq!(original.fen(), fen);
            prop_assert_eq!(original.hash(), line.positions[i].hash());
            prop_assert_eq!(copy, line.positions[i + 1]);
        }

        // The same moves again give the same positions, hashes included.
        let mut again = Position::from_fen(line.start).unwrap();
        for (i, &mv) in line.moves.iter().enumerate() {
            prop_assert!(again.is_legal(mv));
            again.play_unchecked(mv);
            prop_assert_eq!(again, line.positions[i + 1]);
            prop_assert_eq!(again.hash(), line.positions[i + 1].hash());
        }
    }

    #[test]
    fn continuing_from_the_fen_gives_the_same_game(line in line(), cut in any::<Index>()) {
        // Reading the FEN of a position half way loses nothing the rest of the game needs.
        let k = cut.index(line.positions.len());
        let mut pos = Position::from_fen(&line.positions[k].fen()).unwrap();
        for (i, &mv) in line.moves.iter().enumerate().skip(k) {
            prop_assert!(pos.is_legal(mv), "{} in {}", mv, pos.fen());
            pos.play_unchecked(mv);
            prop_assert_eq!(pos, line.positions[i + 1]);
        }
    }

    #[test]
    fn legal_moves_agree_with_is_legal_and_counts(line in line()) {
        for pos in &line.positions {
            let moves = pos.legal_moves();
            for &mv in &moves {
                prop_assert!(pos.is_legal(mv), "{} listed but not legal in {}", mv, pos.fen());
            }
            let mut distinct: Vec<Move> = moves.to_vec();
            distinct.sort_by_key(|mv| (mv.from, mv.to, mv.promotion));
            distinct.dedup();
            prop_assert_eq!(distinct.len(), moves.len(), "duplicate moves in {}", pos.fen());
            prop_assert_eq!(perft(pos, 1), moves.len() as u64, "{}", pos.fen());
            prop_assert_eq!(pos.has_legal_moves(), !moves.is_empty());
            prop_assert_eq!(pos.is_checkmate(), moves.is_empty() && pos.is_check());
            prop_assert_eq!(pos.is_stalemate(), moves.is_empty() && !pos.is_check());
        }

        // Every from-to-promotion combination of the final position: legal exactly when listed.
        let pos = line.positions.last().unwrap();
        let moves = pos.legal_moves();
        for mv in all_candidate_moves(Square::ALL) {
            prop_assert_eq!(
                pos.is_legal(mv),
                moves.contains(&mv),
                "{} in {}",
                mv,
                pos.fen()
            );
        }
    }

    #[test]
    fn uci_text_round_trips(line in line()) {
        for pos in &line.positions {
            for mv in pos.legal_moves() {
                let text = mv.to_string();
                prop_assert_eq!(text.parse::<Move>(), Ok(mv), "{}", text);
            }
        }
    }

    #[test]
    fn any_move_value_round_trips_through_uci(
        from in 0u32..64,
        to in 0u32..64,
        promotion in prop::option::of(prop::sample::select(vec![
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ])),
    ) {
        let mv = Move { from: Square::new(from), to: Square::new(to), promotion };
        prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }
}

proptest! {
    // Some 5,000 `is_legal` calls a position: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn is_legal_only_for_listed_moves_along_the_game(line in line()) {
        // For every position of the game, every move of the side to move's pieces.
        for pos in &line.positions {
            let moves = pos.legal_moves();
            for mv in all_candidate_moves(pos.by_color(pos.turn())) {
                prop_assert_eq!(
                    pos.is_legal(mv),
                    moves.contains(&mv),
                    "{} in {}",
                    mv,
                    pos.fen()
                );
            }
        }
    }
}
