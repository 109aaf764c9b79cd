//! Scenario tests of the orthodox chess rules: FEN errors, the ways a game ends, the draw claims,
//! en passant and castling.

use bluffchess_rules::board::{Color, Role, Square};
use bluffchess_rules::chess::{castling, DrawClaim, Ending, FenError, History, Move, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Plays UCI moves, checking that each is legal.
fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m = mv(text);
        assert!(pos.is_legal(m), "{text} is not legal in {}", pos.fen());
        pos.play_unchecked(m);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

/// Plays UCI moves in a history, checking that each is legal.
fn play_history(history: &mut History, moves: &str) {
    for text in moves.split_whitespace() {
        let m = mv(text);
        assert!(
            history.position().is_legal(m),
            "{text} is not legal in {}",
            history.position().fen()
        );
        history.play_unchecked(m);
    }
}

fn legal_uci(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

// --- FEN errors -------------------------------------------------------------------------------

/// Reads a FEN that must fail, checks the field at fault and that the message mentions each of
/// `words`.
fn fen_error(fen: &str, field: &str, words: &[&str]) -> FenError {
    let error = Position::from_fen(fen).expect_err(fen);
    assert_eq!(error.field, field, "{fen}: {error}");
    for word in words {
        assert!(
            error.problem.contains(word),
            "{fen}: the problem {:?} does not mention {word:?}",
            error.problem
        );
    }
    let message = error.to_string();
    assert!(message.contains(field), "{message}");
    assert!(message.contains(&error.problem), "{message}");
    error
}

#[test]
fn fen_with_the_wrong_number_of_fields() {
    fen_error(
        "8/8/8/8/8/8/8/8 w",
        "fields",
        &["found 2 fields", "expected 6"],
    );
    fen_error("", "fields", &["found 0 fields"]);
    fen_error(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "fields",
        &["found 5 fields"],
    );
    fen_error(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "fields",
        &["found 7 fields"],
    );
    // The clocks may be left out.
    let short = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(short, Position::default());
}

#[test]
fn fen_with_a_bad_rank() {
    fen_error(
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        &["rank 7", "7 squares", "expected 8"],
    );
    fen_error(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1",
        "piece placement",
        &["rank 1", "9 squares"],
    );
    fen_error(
        "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1",
        "piece placement",
        &["rank 1"],
    );
    fen_error(
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        &["7 ranks", "expected 8"],
    );
}

#[test]
fn fen_with_a_bad_piece_letter() {
    fen_error(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "piece placement",
        &["'X'", "rank 1", "not a piece letter"],
    );
    fen_error(
        "rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        &["'9'", "rank 4"],
    );
    fen_error(
        "rnbqkbnr/pppppppp/8/8/0/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        &["'0'"],
    );
}

#[test]
fn fen_with_the_wrong_number_of_kings() {
    fen_error(
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        "position",
        &["white", "2 kings"],
    );
    fen_error(
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        "position",
        &["black", "0 kings"],
    );
    fen_error(
        "2k1k3/8/8/8/8/8/8/4K3 b - - 0 1",
        "position",
        &["black", "2 kings"],
    );
}

#[test]
fn fen_with_more_than_sixteen_pieces_a_side() {
    // Seventeen white pieces: no game reaches this, and move generation keeps sixteen groups.
    fen_error(
        "4k3/8/8/8/8/NNNNNNNN/PPPPPPPP/4K3 w - - 0 1",
        "position",
        &["white", "17 pieces", "at most 16"],
    );
}

#[test]
fn fen_with_a_pawn_on_a_back_rank() {
    fen_error(
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "position",
        &["pawn", "first or last rank"],
    );
    fen_error("4k3/8/8/8/8/8/8/4K2p b - - 0 1", "position", &["pawn"]);
}

#[test]
fn fen_with_the_side_not_to_move_in_check() {
    // The rook on e1 checks the black king, and it is White's move.
    fen_error(
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        "position",
        &["black is in check", "not black's move"],
    );
    fen_error(
        "4k3/8/8/8/8/5n2/8/4K3 b - - 0 1",
        "position",
        &["white is in check"],
    );
    // The side to move may be in check.
    let checked = pos("4k3/8/8/8/8/8/8/4RK2 b - - 0 1");
    assert!(checked.is_check());
}

#[test]
fn fen_with_a_castling_right_but_no_rook() {
    fen_error(
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "castling",
        &["white", "king on e1", "rook on h1"],
    );
    fen_error(
        "4k3/8/8/8/8/8/8/4K3 w q - 0 1",
        "castling",
        &["black", "rook on a8"],
    );
    // The king away from its square.
    fen_error(
        "4k3/8/8/8/8/8/8/R2K4 w Q - 0 1",
        "castling",
        &["king on e1"],
    );
    // A rook of the other colour does not do.
    fen_error(
        "4k3/8/8/8/8/8/8/4K2r w K - 0 1",
        "castling",
        &["rook on h1"],
    );
    fen_error(
        "4k3/8/8/8/8/8/8/4K2R w X - 0 1",
        "castling",
        &["'X'", "not one of"],
    );
    fen_error(
        "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
        "castling",
        &["'K'", "twice"],
    );
}

#[test]
fn fen_with_a_bad_side_to_move() {
    fen_error(
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "side to move",
        &["\"x\"", "w or b"],
    );
    fen_error("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move", &["\"W\""]);
}

#[test]
fn fen_with_a_bad_en_passant_square() {
    fen_error(
        "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
        "en passant",
        &["\"z9\"", "not a square"],
    );
    // The wrong rank for the side to move.
    fen_error(
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 2",
        "en passant",
        &["e3", "double step"],
    );
    // No black pawn in front of e6.
    fen_error(
        "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
        "en passant",
        &["e6", "black pawn"],
    );
    // The pawn cannot have come from e7: another piece stands there.
    fen_error(
        "rnbqkb1r/ppppnppp/8/4p3/8/8/PPPPPPPP/RNBQKB1R w KQkq e6 0 2",
        "en passant",
        &["e6"],
    );
    // The square passed is occupied.
    fen_error(
        "rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKB1R w KQkq e6 0 2",
        "en passant",
        &["e6"],
    );
}

#[test]
fn fen_with_bad_clocks() {
    let base = "4k3/8/8/8/8/8/8/4K3 w - -";
    fen_error(&format!("{base} x 1"), "halfmove clock", &["\"x\""]);
    fen_error(&format!("{base} -1 1"), "halfmove clock", &["\"-1\""]);
    fen_error(
        &format!("{base} 0 0"),
        "fullmove number",
        &["\"0\"", "from 1"],
    );
    fen_error(&format!("{base} 0 one"), "fullmove number", &["\"one\""]);
    fen_error(&format!("{base} 100000 1"), "halfmove clock", &["99999"]);
    let read = pos(&format!("{base} 99999 99999"));
    assert_eq!(read.halfmove_clock(), 99999);
    assert_eq!(read.fullmove_number(), 99999);
}

#[test]
fn fen_round_trips_and_default_is_the_start() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(Position::default().fen(), start);
    assert_eq!(start.parse::<Position>().unwrap(), Position::default());
    assert_eq!(Position::default().to_string(), start);
    // Castling letters in any order, written in the usual order.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R b qkQK - 3 40");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 40");
    assert_eq!(p.castling_rights(), castling::ALL);
    // Digits that add up to 8 in pieces are read; the output is canonical.
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(pos("4k3/8/8/44/8/8/8/4K2R w K - 0 1"), p);
}

// --- How games end ------------------------------------------------------------------------------

#[test]
fn fools_mate() {
    let mut game = History::new(Position::default());
    play_history(&mut game, "f2f3 e7e5 g2g4");
    assert_eq!(game.ending(), None);
    play_history(&mut game, "d8h4");
    let ending = game.ending();
    assert_eq!(
        ending,
        Some(Ending::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(ending.unwrap().winner(), Some(Color::Black));
    assert_eq!(ending.unwrap().reason(), "checkmate");
    let p = game.position();
    assert!(p.is_checkmate());
    assert!(!p.is_stalemate());
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.fen(),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
}

#[test]
fn stalemate() {
    let mut game = History::new(pos("7k/3Q4/8/6K1/8/8/8/8 w - - 0 1"));
    assert_eq!(game.ending(), None);
    play_history(&mut game, "d7f7");
    let p = game.position();
    assert!(p.is_stalemate());
    assert!(!p.is_check());
    assert_eq!(game.ending(), Some(Ending::Stalemate));
    assert_eq!(Ending::Stalemate.winner(), None);
    assert_eq!(Ending::Stalemate.reason(), "stalemate");
}

#[test]
fn insufficient_material() {
    // Dead by the documented rule: K v K, K and one minor v K, only bishops all on one colour.
    let dead = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",        // K v K
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",       // KN v K
        "4k3/8/8/8/8/8/8/2B1K3 b - - 0 1",      // KB v K
        "4kn2/8/8/8/8/8/8/4K3 w - - 0 1",       // K v KN
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",     // KB v KB, c1 and f8 both dark
        "4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1",    // KBB v K, c1 and e3 both dark
        "4kb2/8/8/8/3b4/4B3/8/2B1K3 w - - 0 1", // four bishops, all dark
        "2b1k3/8/8/8/8/8/8/1B2K3 w - - 0 1",    // KB v KB, b1 and c8 both light
    ];
    for fen in dead {
        let p = pos(fen);
        assert!(p.is_insufficient_material(), "{fen} is dead");
        assert_eq!(
            History::new(p).ending(),
            Some(Ending::InsufficientMaterial),
            "{fen}"
        );
    }
    let alive = [
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", // KB v KB, c1 dark and c8 light
        "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1",  // KNN v K: not by this rule
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",   // KN v KN
        "4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1",  // KB v KN
        "4k3/8/8/8/8/8/8/2BBK3 w - - 0 1",   // KBB v K, both colours
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",   // a pawn
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",    // a rook
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",    // a queen
    ];
    for fen in alive {
        let p = pos(fen);
        assert!(!p.is_insufficient_material(), "{fen} is not dead");
        assert_eq!(History::new(p).ending(), None, "{fen}");
    }
}

#[test]
fn capturing_the_last_piece_ends_the_game() {
    let mut game = History::new(pos("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"));
    assert_eq!(game.ending(), None);
    play_history(&mut game, "e1d2");
    assert_eq!(game.ending(), Some(Ending::InsufficientMaterial));
}

#[test]
fn seventy_five_move_rule() {
    let mut game = History::new(pos("4k3/8/8/8/8/8/8/R3K3 w - - 149 120"));
    assert_eq!(game.ending(), None);
    assert_eq!(game.claimable_draw(), Some(DrawClaim::FiftyMoves));
    play_history(&mut game, "a1a2");
    assert_eq!(game.position().halfmove_clock(), 150);
    assert_eq!(game.ending(), Some(Ending::SeventyFiveMoves));
    assert_eq!(Ending::SeventyFiveMoves.winner(), None);

    // A capture or pawn move on the 150th half-move resets the clock instead.
    let mut game = History::new(pos("4k3/8/8/8/8/8/p7/R3K3 w - - 149 120"));
    play_history(&mut game, "a1a2");
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.ending(), None);
    let mut game = History::new(pos("4k3/8/8/8/8/8/P7/R3K3 w - - 149 120"));
    play_history(&mut game, "a2a4");
    assert_eq!(game.ending(), None);

    // A move that mates on the 150th half-move wins.
    let mut game = History::new(pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120"));
    play_history(&mut game, "a1a8");
    assert_eq!(game.position().halfmove_clock(), 150);
    assert_eq!(
        game.ending(),
        Some(Ending::Checkmate {
            winner: Color::White
        })
    );
}

/// The knight shuffle that brings back the start position every four half-moves.
const SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

#[test]
fn fivefold_repetition_by_knight_shuffles() {
    let mut game = History::new(Position::default());
    assert_eq!(game.repetitions(), 1);
    for ply in 1..=16 {
        play_history(&mut game, SHUFFLE[(ply - 1) % 4]);
        if ply < 16 {
            assert_eq!(game.ending(), None, "after {ply} half-moves");
        }
        if ply % 4 == 0 {
            assert!(game
                .position()
                .fen()
                .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - "));
            assert_eq!(game.position().hash(), Position::default().hash());
            assert_eq!(game.repetitions(), 1 + ply / 4, "after {ply} half-moves");
        }
    }
    assert_eq!(game.ending(), Some(Ending::FivefoldRepetition));
    assert_eq!(Ending::FivefoldRepetition.reason(), "fivefold repetition");
}

#[test]
fn threefold_repetition_claims() {
    let mut game = History::new(Position::default());
    for ply in 1..=8 {
        assert_eq!(
            game.claimable_draw(),
            None,
            "before half-move {ply}: {}",
            game.position().fen()
        );
        if ply == 8 {
            // Black announces f6g8, which brings the start position for the third time.
            assert_eq!(
                game.claimable_draw_with(mv("f6g8")),
                Some(DrawClaim::ThreefoldRepetition)
            );
            assert_eq!(game.claimable_draw_with(mv("f6h5")), None);
            assert_eq!(game.claimable_draw_with(mv("e7e5")), None);
        } else {
            let next = mv(SHUFFLE[(ply - 1) % 4]);
            assert_eq!(game.claimable_draw_with(next), None, "half-move {ply}");
        }
        play_history(&mut game, SHUFFLE[(ply - 1) % 4]);
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable_draw(), Some(DrawClaim::ThreefoldRepetition));
    assert_eq!(
        DrawClaim::ThreefoldRepetition.reason(),
        "threefold repetition"
    );
    // Claimable is not an ending.
    assert_eq!(game.ending(), None);
}

#[test]
fn repetition_needs_the_same_castling_rights() {
    // The rooks go out and back: the same placement, but the queen-side rights are gone.
    let mut game = History::new(pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    play_history(&mut game, "a1b1 a8b8 b1a1 b8a8");
    assert_eq!(game.repetitions(), 1);
    assert_eq!(game.position().fen(), "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 4 3");
    play_history(&mut game, "a1b1 a8b8 b1a1 b8a8");
    assert_eq!(game.repetitions(), 2);
}

#[test]
fn repetition_ignores_an_en_passant_square_that_cannot_be_used() {
    // After 1. e4 no black pawn can capture en passant: the position repeats after the knights
    // go out and back.
    let mut game = History::new(Position::default());
    play_history(&mut game, "e2e4");
    assert_eq!(game.position().ep_square(), None);
    let after_e4 = *game.position();
    play_history(&mut game, "b8c6 g1f3 c6b8 f3g1");
    assert_eq!(game.position().hash(), after_e4.hash());
    assert_eq!(game.repetitions(), 2);

    // With a black pawn on d4, e2-e4 allows d4xe3: that position does not come back.
    let mut game = History::new(pos("4k1n1/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1"));
    play_history(&mut game, "e2e4");
    assert_eq!(game.position().ep_square(), Some(Square::E3));
    assert_eq!(
        game.position().fen(),
        "4k1n1/8/8/8/3pP3/8/8/4K1N1 b - e3 0 1"
    );
    play_history(&mut game, "g8f6 g1f3 f6g8 f3g1");
    assert_eq!(game.position().ep_square(), None);
    assert_eq!(game.repetitions(), 1);
    play_history(&mut game, "g8f6 g1f3 f6g8 f3g1");
    assert_eq!(game.repetitions(), 2);
}

#[test]
fn fifty_move_claims() {
    let mut game = History::new(pos("4k3/8/8/8/8/8/p7/R3K3 w - - 99 80"));
    assert_eq!(game.claimable_draw(), None);
    // Announcing a quiet move that completes 50 moves.
    assert_eq!(
        game.claimable_draw_with(mv("a1b1")),
        Some(DrawClaim::FiftyMoves)
    );
    assert_eq!(
        game.claimable_draw_with(mv("e1d2")),
        Some(DrawClaim::FiftyMoves)
    );
    // A capture resets the clock.
    assert_eq!(game.claimable_draw_with(mv("a1a2")), None);
    assert_eq!(DrawClaim::FiftyMoves.reason(), "50-move rule");

    play_history(&mut game, "a1b1");
    assert_eq!(game.claimable_draw(), Some(DrawClaim::FiftyMoves));
    assert_eq!(game.ending(), None);

    let game = History::new(pos("4k3/8/8/8/8/8/p7/1R2K3 b - - 100 80"));
    assert_eq!(game.claimable_draw(), Some(DrawClaim::FiftyMoves));
    // The pawn move resets the clock.
    assert_eq!(game.claimable_draw_with(mv("a2a1q")), None);
    assert_eq!(game.ending(), None);
}

// --- En passant ---------------------------------------------------------------------------------

#[test]
fn en_passant_only_recorded_when_legal() {
    // No pawn beside e4: nothing recorded.
    let mut p = Position::default();
    play(&mut p, "e2e4");
    assert_eq!(p.ep_square(), None);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );

    // The black pawn on e4 is pinned on the long diagonal by the bishop on h1: after d2-d4 the
    // capture e4xd3 would leave the diagonal, after f2-f4 the capture e4xf3 stays on it.
    let start = pos("k7/8/8/8/4p3/8/3P1P2/4K2B w - - 0 1");
    let mut p = start;
    play(&mut p, "d2d4");
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "k7/8/8/8/3Pp3/8/5P2/4K2B b - - 0 1");
    assert!(!legal_uci(&p).contains(&"e4d3".to_string()));
    let mut p = start;
    play(&mut p, "f2f4");
    assert_eq!(p.ep_square(), Some(Square::F3));
    assert_eq!(p.fen(), "k7/8/8/8/4pP2/8/3P4/4K2B b - f3 0 1");
    assert!(legal_uci(&p).contains(&"e4f3".to_string()));

    // Pinned along the rank: e4xd3 would clear the fourth rank between a4 and the queen.
    let mut p = pos("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1");
    play(&mut p, "d2d4");
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");

    // A FEN naming an en passant square that cannot be used reads as if it named none.
    let with = pos("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    let without = pos("8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
    assert_eq!(with.ep_square(), None);
    assert_eq!(with, without);
    assert_eq!(with.hash(), without.hash());
    assert_eq!(with.fen(), "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
}

#[test]
fn en_passant_capture() {
    // The double-pushed pawn gives check; taking it en passant is one way out.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.is_check());
    assert_eq!(p.ep_square(), Some(Square::D3));
    assert!(legal_uci(&p).contains(&"e4d3".to_string()));
    let mut after = p;
    play(&mut after, "e4d3");
    assert_eq!(after.fen(), "8/8/8/2k5/8/3p4/8/4K3 w - - 0 2");
    assert_eq!(after.role_at(Square::D4), None);

    // An en passant square differs in the hash.
    let with = pos("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
    let without = pos("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1");
    assert_eq!(with.ep_square(), Some(Square::D3));
    assert_ne!(with.hash(), without.hash());
    assert_ne!(with, without);

    // The right lasts one move only.
    let mut later = with;
    play(&mut later, "e8e7 e1e2");
    assert_eq!(later.ep_square(), None);
    assert!(!legal_uci(&later).contains(&"e4d3".to_string()));
}

// --- Castling -----------------------------------------------------------------------------------

#[test]
fn castling_moves_the_rook() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let moves = legal_uci(&p);
    assert!(moves.contains(&"e1g1".to_string()));
    assert!(moves.contains(&"e1c1".to_string()));
    assert!(!moves.contains(&"e1h1".to_string()));
    play(&mut p, "e1g1");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    play(&mut p, "e8c8");
    assert_eq!(p.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    assert_eq!(p.castling_rights(), 0);
}

#[test]
fn castling_through_into_or_out_of_check_is_forbidden() {
    // The rook on f2 attacks f1: no king-side castling; the queen side is free.
    let p = pos("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    let moves = legal_uci(&p);
    assert!(!moves.contains(&"e1g1".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1c1".to_string()), "{moves:?}");
    assert!(!p.is_legal(mv("e1g1")));

    // The rook on g8 attacks g1: castling into check.
    let p = pos("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!p.is_legal(mv("e1g1")));
    assert!(p.is_legal(mv("e1c1")));

    // The rook on d8 attacks d1, which the king crosses to c1.
    let p = pos("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!p.is_legal(mv("e1c1")));
    assert!(p.is_legal(mv("e1g1")));

    // The rook on b8 attacks b1, which only the rook crosses: allowed.
    let p = pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.is_legal(mv("e1c1")));

    // In check: no castling at all.
    let p = pos("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.is_check());
    assert!(!p.is_legal(mv("e1g1")));
    assert!(!p.is_legal(mv("e1c1")));

    // A piece between king and rook, even on b1.
    let p = pos("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    assert!(!p.is_legal(mv("e1c1")));
    assert!(!p.is_legal(mv("e1g1")));

    // Black: the bishop on a3 attacks f8.
    let p = pos("r3k2r/8/8/8/8/B7/8/4K3 b kq - 0 1");
    assert!(!p.is_legal(mv("e8g8")));
    assert!(p.is_legal(mv("e8c8")));
}

#[test]
fn castling_rights_lost_after_a_rook_is_captured() {
    // The a1 rook takes the a8 rook: White loses the queen side (the rook left a1), Black too
    // (its rook is gone).
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "a1a8");
    assert_eq!(
        p.castling_rights(),
        castling::WHITE_KING_SIDE | castling::BLACK_KING_SIDE
    );
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");

    // A knight takes the h8 rook; a rook coming back to h8 brings no right with it.
    let mut p = pos("r3k2r/8/6N1/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "g6h8");
    assert_eq!(p.fen(), "r3k2N/8/8/8/8/8/8/R3K2R b KQq - 0 1");
    assert!(!p.is_legal(mv("e8g8")));
    play(&mut p, "a8b8 h8g6 b8b7 g6e5 b7h7 e5f3 h7h8");
    assert_eq!(p.castling_rights() & castling::BLACK_KING_SIDE, 0);
    assert_eq!(p.castling_rights() & castling::BLACK_QUEEN_SIDE, 0);

    // Moving the king loses both rights; moving a rook loses its own.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "h1h2");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1");
    play(&mut p, "e8d8");
    assert_eq!(p.fen(), "r2k3r/8/8/8/8/8/7R/R3K3 w Q - 2 2");
}

// --- Moves ---------------------------------------------------------------------------------------

#[test]
fn promotions() {
    let mut p = pos("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let moves = legal_uci(&p);
    for text in [
        "b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7a8q", "b7a8r", "b7a8b", "b7a8n",
    ] {
        assert!(moves.contains(&text.to_string()), "{text} in {moves:?}");
    }
    assert!(
        !p.is_legal(mv("b7b8")),
        "a move to the last rank must name a type"
    );
    assert!(!moves.contains(&"b7b8".to_string()));
    play(&mut p, "b7a8n");
    assert_eq!(p.fen(), "N3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(p.role_at(Square::A8), Some(Role::Knight));
}

#[test]
fn is_legal_rejects_a_promotion_to_a_king_or_pawn() {
    // Only q, r, b and n are promotion types; `Move`'s fields are public, so other values can be
    // built and must be refused.
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let moves = p.legal_moves();
    let mut accepted = Vec::new();
    for role in [Role::King, Role::Pawn] {
        let m = Move {
            from: Square::A7,
            to: Square::A8,
            promotion: Some(role),
        };
        assert!(!moves.contains(&m));
        if p.is_legal(m) {
            accepted.push(role);
        }
    }
    assert!(
        accepted.is_empty(),
        "is_legal accepts a7a8 promoting to {accepted:?} in {}, which legal_moves does not list",
        p.fen()
    );
}

#[test]
fn promotion_on_a_non_promoting_move_is_illegal() {
    let p = Position::default();
    assert!(!p.is_legal(mv("e2e4q")));
    assert!(!p.is_legal(mv("g1f3n")));
    assert!(p.is_legal(mv("e2e4")));
}

#[test]
fn move_text() {
    assert_eq!(mv("e2e4"), Move::new(Square::E2, Square::E4));
    assert_eq!(
        mv("a7a8n"),
        Move {
            from: Square::A7,
            to: Square::A8,
            promotion: Some(Role::Knight)
        }
    );
    assert_eq!(mv("e1g1").to_string(), "e1g1");
    // UCI is read in any case; the canonical text is lower case.
    assert_eq!(mv("E7E8Q"), mv("e7e8q"));
    for bad in [
        "", "e2", "e2e", "e2e4e5", "i2e4", "e9e4", "e2e4k", "e2e4p", "é2e4",
    ] {
        let error = bad.parse::<Move>().expect_err(bad);
        assert!(!error.reason.is_empty());
        assert!(error.to_string().contains("invalid move"), "{error}");
    }
}

#[test]
fn mating_material_is_judged_from_the_position() {
    let cases = [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Color::White, false),
        ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", Color::White, false),
        ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", Color::White, false),
        ("4k3/7p/8/8/8/8/8/3NK3 w - - 0 1", Color::White, true),
        ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", Color::White, true),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", Color::White, true),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Color::White, true),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Color::Black, false),
        ("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", Color::White, false),
        ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White, true),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Color::Black,
            true,
        ),
    ];
    for (fen, color, can) in cases {
        let position = Position::from_fen(fen).unwrap();
        assert_eq!(position.can_mate(color), can, "{fen} {color}");
    }
}
