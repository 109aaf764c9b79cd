//! Scenario tests: the seed's examples, every rule of its four rule lists, and every ruling, each
//! named after what it checks.

use super::*;
use crate::board::{Color, Piece, Role, Square};
use crate::event::EventKind;
use crate::game::Game;
use crate::outcome::{EndReason, Outcome};
use crate::seat::Audience;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn start() -> BluffMove {
    BluffMove::new(&Options::new()).unwrap()
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// A game from its real pieces (a FEN placement), the side to move, and bluffs `(bluff, real)`
/// of their real piece's type. Kings and rooks on their home squares have not moved.
fn position(placement: &str, turn: Color, bluffs: &[(&str, &str)]) -> BluffMove {
    let mut board = Board::empty(turn);
    for (row, text) in placement.split('/').enumerate() {
        let mut file = 0;
        for c in text.chars() {
            match c.to_digit(10) {
                Some(n) => file += n,
                None => {
                    let piece = Piece::from_char(c).unwrap();
                    let square = Square::new((7 - row as u32) * 8 + file);
                    board.put_real(piece.color, square, piece.role);
                    file += 1;
                }
            }
        }
    }
    for (bluff, real) in bluffs {
        let (bluff, real) = (sq(bluff), sq(real));
        let color = board.color(real).unwrap();
        board.put_bluff(color, bluff, board.role(real).unwrap(), real);
    }
    for (home, role) in [
        ("a1", Role::Rook),
        ("e1", Role::King),
        ("h1", Role::Rook),
        ("a8", Role::Rook),
        ("e8", Role::King),
        ("h8", Role::Rook),
    ] {
        if board.role(sq(home)) == Some(role)
            && board.real[0].contains(sq(home)) == (home.ends_with('1'))
        {
            board.unmoved |= sq(home);
        }
    }
    BluffMove::from_board(board)
}

fn play(game: &mut BluffMove, actions: &str) {
    for text in actions.split(',') {
        game.apply_text(text.trim())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn legal(game: &BluffMove) -> Vec<String> {
    game.legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The texts of the events `seat` may see of the last action.
fn last_events(game: &BluffMove, seat: Seat) -> Vec<(EventKind, String)> {
    let last = game.action_count() - 1;
    game.view(seat)
        .events
        .into_iter()
        .filter(|e| e.action == last)
        .map(|e| (e.kind, e.text))
        .collect()
}

fn fen(game: &BluffMove, seat: Seat) -> String {
    game.summary(seat, false).fen
}

fn sealed(text: &str) -> (EventKind, String) {
    (EventKind::Sealed, text.to_string())
}

fn info(text: &str) -> (EventKind, String) {
    (EventKind::Info, text.to_string())
}

// Movement rules.

#[test]
fn movement_pieces_move_as_in_chess_and_every_move_can_be_a_bluff() {
    let game = start();
    let actions = legal(&game);
    // 34 inputs (16 pawn steps, 14 diagonal steps, 4 knight moves), each real or bluffed.
    assert_eq!(actions.len(), 68);
    assert!(actions.contains(&"e2e4".to_string()));
    assert!(actions.contains(&"bluff e2e4".to_string()));
    assert!(actions.contains(&"bluff g1f3".to_string()));
    assert!(!actions.contains(&"e2e5".to_string()));
    assert!(!actions.contains(&"f1c4".to_string()));
}

#[test]
fn movement_enemy_pieces_are_not_considered_for_legal_input() {
    // The seed's example: the rook on d1 may be input to d8 through the black pawns.
    let game = position("7k/8/8/3p4/3p4/8/8/3RK3", Color::White, &[]);
    let actions = legal(&game);
    for to in ["d4", "d5", "d6", "d8"] {
        assert!(actions.contains(&format!("d1{to}")), "d1{to}");
    }
    // Own pieces still count.
    let game = position("7k/8/8/8/8/8/3P4/3RK3", Color::White, &[]);
    assert!(!legal(&game).contains(&"d1d8".to_string()));
    let err = game.clone().apply_text("d1d8").unwrap_err().to_string();
    assert!(err.contains("cannot move to d8"), "{err}");
}

#[test]
fn movement_a_valid_input_ends_where_the_real_pieces_decide() {
    // Both pawns real: the rook stops on d4, capturing the first one.
    let mut game = position("7k/8/8/3p4/3p4/8/8/3RK3", Color::White, &[]);
    play(&mut game, "d1d8");
    assert_eq!(game.real_pieces(Color::White), vec![sq("e1"), sq("d4")]);
    assert_eq!(
        last_events(&game, Seat::Black),
        vec![sealed("d1d4"), info("captured the real pawn on d4")]
    );
}

#[test]
fn movement_bluff_e4_from_e2_the_seed_example() {
    let mut game = start();
    play(&mut game, "bluff e2e4");
    assert_eq!(game.bluffs(Color::White), vec![(sq("e4"), sq("e2"))]);
    assert!(game.real_pieces(Color::White).contains(&sq("e2")));
    // Black sees the bluffed pawn on e4 and not the real one on e2.
    assert_eq!(
        fen(&game, Seat::Black),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
    );
    assert_eq!(fen(&game, Seat::Spectator), fen(&game, Seat::Black));
    // White sees both, and which is the bluff.
    assert_eq!(
        fen(&game, Seat::White),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b"
    );
    let white = game.summary(Seat::White, false);
    assert_eq!(
        white.bluffs,
        vec![BluffView {
            color: Color::White,
            square: sq("e4"),
            real: sq("e2")
        }]
    );
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("e2e4")]);
    assert_eq!(
        last_events(&game, Seat::White),
        vec![
            sealed("e2e4"),
            (EventKind::Action, "bluff e2e4".to_string())
        ]
    );
}

#[test]
fn movement_three_kinds_of_turn() {
    let mut game = start();
    // A bluff move, then the bluff moves, then the real piece moves.
    play(&mut game, "bluff g1f3, a7a6, f3e5, a6a5, g1h3");
    assert!(game.bluffs(Color::White).is_empty());
    assert!(game.real_pieces(Color::White).contains(&sq("h3")));
    assert!(!game.real_pieces(Color::White).contains(&sq("e5")));
}

// Capturing and collision rules.

/// The seed's example: Rd7, the bishop on d4 a bluff of the bishop on g7, the pawn on d5 a bluff
/// of the pawn on d7, the rook on d6 real.
fn seed_rook_example() -> BluffMove {
    position(
        "7k/3p2b1/3r4/8/8/8/8/3R2K1",
        Color::White,
        &[("d4", "g7"), ("d5", "d7")],
    )
}

#[test]
fn capture_real_pieces_capture_bluffs_and_real_pieces_the_seed_rook_example() {
    let mut game = seed_rook_example();
    play(&mut game, "d1d7");
    // The rook swept both bluffs and stopped on the real rook, capturing it.
    assert_eq!(game.real_pieces(Color::White), vec![sq("g1"), sq("d6")]);
    assert_eq!(
        game.real_pieces(Color::Black),
        vec![sq("d7"), sq("g7"), sq("h8")]
    );
    assert!(game.bluffs(Color::Black).is_empty());
    let expected = vec![
        sealed("d1d6"),
        info("captured the bluff on d4: the real bishop is on g7"),
        info("captured the bluff on d5: the real pawn is on d7"),
        info("captured the real rook on d6"),
    ];
    assert_eq!(last_events(&game, Seat::Black), expected);
    assert_eq!(last_events(&game, Seat::Spectator), expected);
}

#[test]
fn capture_a_captured_bluff_reveals_its_real_piece_the_seed_example() {
    let mut game = seed_rook_example();
    assert_eq!(fen(&game, Seat::White), "7k/8/3r4/3p4/3b4/8/8/3R2K1 w");
    play(&mut game, "d1d7");
    // White now sees the real bishop on g7 and the real pawn on d7, and knows them real.
    assert_eq!(fen(&game, Seat::White), "7k/3p2b1/3R4/8/8/8/8/6K1 b");
    let white = game.summary(Seat::White, false);
    for square in ["d7", "g7", "d6"] {
        assert!(white.real.contains(&sq(square)), "{square}");
    }
    let spectator = game.summary(Seat::Spectator, false);
    assert_eq!(spectator.real, vec![sq("d6"), sq("d7"), sq("g7")]);
}

#[test]
fn capture_only_real_pieces_stop_a_real_piece() {
    // A bluffed knight on d4 (its real knight on b8) does not stop the rook.
    let mut game = position("1n5k/8/8/8/8/8/8/3RK3", Color::White, &[("d4", "b8")]);
    play(&mut game, "d1d8");
    assert!(game.real_pieces(Color::White).contains(&sq("d8")));
    assert_eq!(
        last_events(&game, Seat::Black),
        vec![
            sealed("d1d8"),
            info("captured the bluff on d4: the real knight is on b8")
        ]
    );
}

#[test]
fn capture_a_captured_real_piece_takes_its_bluff_with_it() {
    // The black knight on f5 is hidden behind its bluff on h6; the pawn takes it.
    let mut game = position("7k/8/8/5n2/4P3/8/8/4K3", Color::White, &[("h6", "f5")]);
    assert_eq!(fen(&game, Seat::White), "7k/8/7n/8/4P3/8/8/4K3 w");
    play(&mut game, "e4f5");
    assert!(game.bluffs(Color::Black).is_empty());
    assert_eq!(game.real_pieces(Color::Black), vec![sq("h8")]);
    assert_eq!(
        last_events(&game, Seat::White)[2],
        info("captured the real knight on f5 and its bluff on h6")
    );
}

#[test]
fn capture_bluffs_capture_only_bluffs_and_survive_it() {
    // White's bluffed knight on f3 takes Black's bluffed pawn on e5 and stays a bluff there.
    let mut game = position(
        "4k3/4p3/8/8/8/8/8/4K1N1",
        Color::White,
        &[("f3", "g1"), ("e5", "e7")],
    );
    play(&mut game, "f3e5");
    assert_eq!(game.bluffs(Color::White), vec![(sq("e5"), sq("g1"))]);
    assert!(game.bluffs(Color::Black).is_empty());
    assert_eq!(
        last_events(&game, Seat::Black),
        vec![
            sealed("f3e5"),
            info("captured the bluff on e5: the real pawn is on e7")
        ]
    );
}

#[test]
fn capture_a_bluff_meeting_a_real_piece_is_destroyed_and_reveals_its_real_piece() {
    let mut game = position("4k3/8/8/4p3/8/8/8/4K1N1", Color::White, &[("f3", "g1")]);
    play(&mut game, "f3e5");
    assert!(game.bluffs(Color::White).is_empty());
    assert_eq!(game.real_pieces(Color::Black), vec![sq("e5"), sq("e8")]);
    let expected = vec![
        sealed("f3e5"),
        info("the bluff died on e5 against a real piece: the real knight is on g1"),
    ];
    assert_eq!(last_events(&game, Seat::Black), expected);
    assert_eq!(last_events(&game, Seat::Spectator), expected);
    // Both now know the knight on g1 and the pawn on e5 are real.
    assert_eq!(
        game.summary(Seat::Spectator, false).real,
        vec![sq("g1"), sq("e5")]
    );
}

// Binding rules.

#[test]
fn binding_moving_a_real_piece_destroys_its_bluff() {
    let mut game = start();
    play(&mut game, "bluff e2e4, a7a6, e2e3");
    assert!(game.bluffs(Color::White).is_empty());
    // Black sees the image go from e4 to e3: nothing tells it that e4 was a bluff but that.
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("e4e3")]);
}

#[test]
fn binding_a_new_bluff_replaces_the_old_one_silently() {
    let mut game = start();
    play(&mut game, "bluff e2e4, a7a6, bluff e2e3");
    assert_eq!(game.bluffs(Color::White), vec![(sq("e3"), sq("e2"))]);
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("e4e3")]);
}

#[test]
fn binding_a_piece_has_at_most_one_bluff() {
    let mut game = start();
    play(&mut game, "bluff g1f3, a7a6, bluff g1h3, a6a5");
    assert_eq!(game.bluffs(Color::White), vec![(sq("h3"), sq("g1"))]);
    // A bluff cannot itself bluff.
    let err = game.apply_text("bluff h3g5").unwrap_err().to_string();
    assert!(
        err.contains("only a real piece makes a bluff move"),
        "{err}"
    );
}

// Check and checkmate rules.

#[test]
fn check_there_is_no_check() {
    // The king may step onto an attacked square and may stay attacked.
    let game = position("4r2k/8/8/8/8/8/8/3K4", Color::White, &[]);
    let actions = legal(&game);
    assert!(actions.contains(&"d1e1".to_string()));
    assert!(actions.contains(&"d1e2".to_string()));
}

#[test]
fn check_capturing_the_real_king_wins() {
    let mut game = position("4r2k/8/8/8/8/8/8/4K3", Color::Black, &[]);
    play(&mut game, "e8e1");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::KingCaptured))
    );
    assert_eq!(game.to_act(), None);
    assert_eq!(game.apply_text("e1e2"), Err(ActionError::GameOver));
}

#[test]
fn check_capturing_a_bluffed_king_does_not_win() {
    // The white king on e1 shows itself on d3; the rook takes the bluff and reveals it.
    let mut game = position("3r3k/8/8/8/8/8/8/4K3", Color::Black, &[("d3", "e1")]);
    play(&mut game, "d8d1");
    assert_eq!(game.outcome(), None);
    assert_eq!(
        last_events(&game, Seat::White)[1],
        info("captured the bluff on d3: the real king is on e1")
    );
}

#[test]
fn check_a_bluff_cannot_capture_the_king() {
    // A bluffed rook meeting the real king dies: only a real piece captures a real piece.
    let mut game = position("7k/r7/8/8/8/8/8/4K3", Color::Black, &[("e8", "a7")]);
    play(&mut game, "e8e1");
    assert_eq!(game.outcome(), None);
    assert!(game.bluffs(Color::Black).is_empty());
}

#[test]
fn check_enemy_pieces_cannot_restrict_castling() {
    // Castling is legal input through squares an enemy rook attacks or an enemy piece occupies.
    let game = position("5r1k/8/8/8/8/8/8/4K1nR", Color::White, &[]);
    assert!(legal(&game).contains(&"e1g1".to_string()));
}

// Rulings.

#[test]
fn ruling_4_castling_captures_enemy_bluffs_between_king_and_rook() {
    // Black's bluffed knight on g1 (its real knight on b8) is captured by the castling.
    let mut game = position("1n5k/8/8/8/8/8/8/4K2R", Color::White, &[("g1", "b8")]);
    play(&mut game, "e1g1");
    assert_eq!(game.real_pieces(Color::White), vec![sq("f1"), sq("g1")]);
    assert_eq!(
        last_events(&game, Seat::Black),
        vec![
            (EventKind::Action, "e1g1".to_string()),
            info("captured the bluff on g1: the real knight is on b8")
        ]
    );
}

#[test]
fn ruling_4_castling_is_stopped_by_an_enemy_real_piece_and_the_turn_is_spent() {
    let mut game = position("7k/8/8/8/8/8/8/4K1nR", Color::White, &[]);
    let before = game.board;
    play(&mut game, "e1g1");
    assert_eq!(game.board.real, before.real);
    assert_eq!(game.turn(), Color::Black);
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("pass")]);
    assert_eq!(
        last_events(&game, Seat::White)[2],
        info("castling did not happen: an enemy real piece stands between king and rook")
    );
}

#[test]
fn ruling_4_castling_destroys_the_king_and_rook_bluffs_which_do_not_block() {
    // The king's bluff stands on f1 and the rook's on g1, both between them.
    let mut game = position(
        "7k/8/8/8/8/8/8/4K2R",
        Color::White,
        &[("f1", "e1"), ("g1", "h1")],
    );
    assert!(legal(&game).contains(&"e1g1".to_string()));
    play(&mut game, "e1g1");
    assert!(game.bluffs(Color::White).is_empty());
    assert_eq!(game.real_pieces(Color::White), vec![sq("f1"), sq("g1")]);
    // Another own piece between them blocks castling.
    let game = position("7k/8/8/8/8/8/8/4KB1R", Color::White, &[]);
    assert!(!legal(&game).contains(&"e1g1".to_string()));
}

#[test]
fn ruling_4_castling_needs_an_unmoved_real_king_and_rook() {
    let mut game = position("4k3/8/8/8/8/8/8/R3K2R", Color::White, &[]);
    assert!(legal(&game).contains(&"e1c1".to_string()));
    // Bluff moves leave the real king unmoved.
    play(&mut game, "bluff e1e2, e8e7");
    assert!(legal(&game).contains(&"e1c1".to_string()));
    play(&mut game, "e1d1, e7e8, d1e1, e8e7");
    assert!(!legal(&game).contains(&"e1c1".to_string()));
    assert!(!legal(&game).contains(&"e1g1".to_string()));
    assert!(!legal(&game).contains(&"bluff e1g1".to_string()));
}

#[test]
fn ruling_4_a_pawns_diagonal_step_is_input_onto_any_square_without_an_own_piece() {
    let game = start();
    assert!(legal(&game).contains(&"e2d3".to_string()));
    assert!(legal(&game).contains(&"bluff e2f3".to_string()));
    let game = position("7k/8/8/8/8/3N4/4P3/4K3", Color::White, &[]);
    assert!(!legal(&game).contains(&"e2d3".to_string()));
}

#[test]
fn rule_5_a_pawns_diagonal_step_captures_whatever_enemy_piece_is_there() {
    // A bluff on d5 (of the pawn on d7) and a hidden real knight on f5 (its bluff on h6).
    let start = position(
        "7k/3p4/8/5n2/4P3/8/8/4K3",
        Color::White,
        &[("d5", "d7"), ("h6", "f5")],
    );
    let mut game = start.clone();
    play(&mut game, "e4d5");
    assert!(game.real_pieces(Color::White).contains(&sq("d5")));
    let mut game = start.clone();
    play(&mut game, "e4f5");
    assert!(game.real_pieces(Color::White).contains(&sq("f5")));
    // A bluffed pawn's diagonal step takes the bluff too.
    let mut game = position(
        "7k/3p4/8/8/8/8/4P3/4K3",
        Color::White,
        &[("e4", "e2"), ("d5", "d7")],
    );
    play(&mut game, "e4d5");
    assert_eq!(game.bluffs(Color::White), vec![(sq("d5"), sq("e2"))]);
}

#[test]
fn rule_5_a_diagonal_step_onto_no_enemy_piece_does_not_happen() {
    let mut game = start();
    play(&mut game, "bluff e2e4, a7a6");
    let before = game.board;
    // The real pawn's diagonal step and a new bluff's: nothing changes, the bluff on e4 stays.
    for action in ["e2d3", "bluff e2f3"] {
        let mut tried = game.clone();
        play(&mut tried, action);
        assert_eq!(tried.board.real, before.real);
        assert_eq!(tried.board.bluffs, before.bluffs);
        assert_eq!(last_events(&tried, Seat::Black), vec![sealed("pass")]);
        assert_eq!(last_events(&tried, Seat::Spectator), vec![sealed("pass")]);
        let white = last_events(&tried, Seat::White);
        assert_eq!(
            white[2],
            info(&format!(
                "the move did not happen: no enemy piece on {}",
                &action[action.len() - 2..]
            ))
        );
    }
}

#[test]
fn rule_5_a_real_pawns_straight_step_stops_short_of_an_enemy_real_piece() {
    // A hidden black knight on e4 (its bluff on c6).
    let mut game = position("7k/8/8/8/4n3/8/4P3/4K3", Color::White, &[("c6", "e4")]);
    play(&mut game, "e2e4");
    assert!(game.real_pieces(Color::White).contains(&sq("e3")));
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("e2e3")]);
    assert_eq!(
        last_events(&game, Seat::White)[2],
        info("the pawn stopped short: an enemy real piece stands on e4")
    );
}

#[test]
fn rule_5_a_real_pawn_blocked_at_once_does_not_move_and_keeps_its_bluff() {
    let mut game = position(
        "7k/8/8/8/8/4n3/4P3/4K3",
        Color::White,
        &[("d3", "e2"), ("c6", "e3")],
    );
    play(&mut game, "e2e4");
    assert_eq!(game.bluffs(Color::White), vec![(sq("d3"), sq("e2"))]);
    assert!(game.real_pieces(Color::White).contains(&sq("e2")));
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("pass")]);
}

#[test]
fn rule_5_a_bluffed_pawns_straight_step_into_a_real_piece_dies_there() {
    let mut game = position("7k/8/8/4p3/8/8/4P3/4K3", Color::White, &[("e4", "e2")]);
    play(&mut game, "e4e5");
    assert!(game.bluffs(Color::White).is_empty());
    assert_eq!(
        last_events(&game, Seat::Black),
        vec![
            sealed("e4e5"),
            info("the bluff died on e5 against a real piece: the real pawn is on e2")
        ]
    );
}

#[test]
fn rule_5_a_bluff_dying_on_a_hidden_real_piece_shows_only_that_a_real_piece_stands_there() {
    // Black's knight on e5 hides behind its bluff on c6: White's view keeps the bluff on c6.
    let mut game = position(
        "7k/8/8/4n3/8/8/8/4K1N1",
        Color::White,
        &[("f3", "g1"), ("c6", "e5")],
    );
    play(&mut game, "f3e5");
    assert_eq!(fen(&game, Seat::White), "7k/8/2n5/8/8/8/8/4K1N1 b");
    assert_eq!(
        last_events(&game, Seat::White)[2],
        info("the bluff died on e5 against a real piece: the real knight is on g1")
    );
    assert!(!game.summary(Seat::White, false).real.contains(&sq("c6")));
}

#[test]
fn rule_5_a_real_piece_capturing_a_hidden_piece_learns_its_type() {
    let mut game = position(
        "7k/8/8/4n3/8/8/8/4K1N1",
        Color::White,
        &[("c6", "e5"), ("f3", "g1")],
    );
    play(&mut game, "bluff g1f3, h8g8, f3e5");
    assert_eq!(
        last_events(&game, Seat::White)[2],
        info("the bluff died on e5 against a real piece: the real knight is on g1")
    );
    let mut game = position("7k/8/8/4n3/8/8/8/4K1N1", Color::White, &[("c6", "e5")]);
    play(&mut game, "g1f3, h8g8, f3e5");
    assert_eq!(
        last_events(&game, Seat::White)[2],
        info("captured the real knight on e5 and its bluff on c6")
    );
}

#[test]
fn rule_6_a_real_pawn_promotes_by_its_owners_choice() {
    let mut game = position("7k/P7/8/8/8/8/8/4K3", Color::White, &[]);
    let promotions: Vec<String> = legal(&game)
        .into_iter()
        .filter(|a| a.starts_with("a7a8"))
        .collect();
    assert_eq!(promotions, vec!["a7a8q", "a7a8r", "a7a8b", "a7a8n"]);
    assert!(game.clone().apply_text("a7a8").is_err());
    play(&mut game, "a7a8r");
    assert_eq!(game.board.role(sq("a8")), Some(Role::Rook));
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("a7a8r")]);
}

#[test]
fn rule_6_a_bluffed_pawns_image_promotes_the_same_way() {
    let mut game = position("7k/P7/8/8/8/8/8/4K3", Color::White, &[]);
    play(&mut game, "bluff a7a8n");
    assert_eq!(game.board.role(sq("a7")), Some(Role::Pawn));
    assert_eq!(game.board.role(sq("a8")), Some(Role::Knight));
    assert_eq!(fen(&game, Seat::Black), "N6k/8/8/8/8/8/8/4K3 b");
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("a7a8n")]);
    // The promoted bluff moves as a knight; its real pawn, moving, shows a pawn again.
    play(&mut game, "h8g8, a7a8q");
    assert_eq!(last_events(&game, Seat::Black), vec![sealed("a8a8q")]);
}

#[test]
fn rule_1_no_en_passant() {
    let mut game = position("7k/8/8/8/3p4/8/4P3/4K3", Color::White, &[]);
    play(&mut game, "e2e4, d4e3");
    assert!(game.real_pieces(Color::White).contains(&sq("e4")));
    assert_eq!(last_events(&game, Seat::White), vec![sealed("pass")]);
}

/// The views `seat` has of three games that differ only in how the bishop got to f4.
fn three_ways(seat: Seat) -> Vec<crate::view::View<BluffMoveSummary>> {
    let mut game = start();
    play(&mut game, "d2d3, a7a6, bluff c1e3, a6a5");
    ["e3f4", "c1f4", "bluff c1f4"]
        .into_iter()
        .map(|action| {
            let mut way = game.clone();
            play(&mut way, action);
            way.view(seat)
        })
        .collect()
}

#[test]
fn rule_7_a_bluff_a_hidden_real_piece_and_a_new_bluff_look_exactly_alike() {
    for seat in [Seat::Black, Seat::Spectator] {
        let views = three_ways(seat);
        assert_eq!(views[0], views[1], "{seat}");
        assert_eq!(views[0], views[2], "{seat}");
        assert_eq!(views[0].events.last().unwrap().text, "e3f4");
    }
    assert_ne!(three_ways(Seat::White)[0], three_ways(Seat::White)[1]);
}

#[test]
fn rule_7_a_move_that_shows_no_change_looks_like_a_move_that_did_not_happen() {
    // The real pawn moving onto its own bluff's square changes nothing Black can see.
    let mut game = start();
    play(&mut game, "bluff e2e4, a7a6");
    let mut onto_bluff = game.clone();
    play(&mut onto_bluff, "e2e4");
    let mut spent = game.clone();
    play(&mut spent, "e2d3");
    assert_eq!(onto_bluff.view(Seat::Black), spent.view(Seat::Black));
    assert_eq!(
        onto_bluff.view(Seat::Spectator),
        spent.view(Seat::Spectator)
    );
    assert!(onto_bluff.bluffs(Color::White).is_empty());
    assert_eq!(spent.bluffs(Color::White).len(), 1);
}

#[test]
fn rule_7_a_side_with_no_legal_move_loses() {
    // Black's pieces on its first two ranks block each other completely.
    let mut game = position("7K/8/8/8/8/8/pppppppp/krbqbrbr", Color::White, &[]);
    play(&mut game, "h8g8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::NoLegalMove))
    );
}

#[test]
fn rule_8_action_text() {
    let game = start();
    for text in ["e2e4", "bluff e2e4", "e7e8q", "bluff e7e8n", "e1g1"] {
        assert_eq!(game.parse_action(text).unwrap().to_string(), text);
    }
    for text in [
        "bluff",
        "bluff  e2e4",
        "Bluff e2e4",
        "e2e4 bluff",
        "bluff e2",
        "e7e8k",
    ] {
        assert!(game.parse_action(text).is_err(), "{text}");
    }
}

#[test]
fn rule_8_castling_is_open_and_every_other_move_is_sealed_with_the_movers_text() {
    let mut game = position("4k3/8/8/8/8/8/8/4K2R", Color::White, &[]);
    play(&mut game, "e1g1");
    let all = game.events().iter().filter(|e| e.action == 0).count();
    assert_eq!(all, 1);
    assert_eq!(game.events()[0].kind, EventKind::Action);
    assert_eq!(game.events()[0].seats, Audience::All);
    play(&mut game, "e8e7");
    let kinds: Vec<(EventKind, Audience)> = game.events()[1..]
        .iter()
        .map(|e| (e.kind.clone(), e.seats))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (EventKind::Sealed, Audience::All),
            (EventKind::Action, Audience::Black)
        ]
    );
}

#[test]
fn conventions_the_no_progress_draw_after_200_moves_without_a_real_piece_leaving() {
    let mut game = start();
    game.quiet = 198;
    play(&mut game, "g1f3");
    assert_eq!(game.outcome(), None);
    play(&mut game, "g8f6");
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::NoRealCapture))
    );
    // A captured bluff does not count; a captured real piece does.
    let mut game = seed_rook_example();
    game.quiet = 150;
    play(&mut game, "d1d7");
    assert_eq!(game.quiet_moves(), 0);
    let mut game = position("1n5k/8/8/8/8/8/8/3RK3", Color::White, &[("d4", "b8")]);
    game.quiet = 150;
    play(&mut game, "d1d8");
    assert_eq!(game.quiet_moves(), 151);
}

#[test]
fn conventions_the_fifth_repetition_of_the_public_position_draws() {
    let mut game = start();
    for _ in 0..3 {
        play(&mut game, "g1f3, g8f6, f3g1, f6g8");
    }
    assert_eq!(game.outcome(), None);
    // A bluff shows the same public position, and moves that did not happen repeat it.
    play(&mut game, "bluff g1f3, g8f6, e2d3");
    assert_eq!(game.outcome(), None);
    play(&mut game, "e7d6");
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::FivefoldRepetition))
    );
}

#[test]
fn views_after_the_end_everything_is_revealed() {
    let mut game = position("4r2k/8/8/8/8/8/8/4K3", Color::Black, &[("h3", "e1")]);
    assert_eq!(fen(&game, Seat::Black), "4r2k/8/8/8/8/7K/8/8 b");
    play(&mut game, "e8e1");
    assert_eq!(game.outcome().unwrap().winner, Some(Color::Black));
    let view = game.view(Seat::Black);
    assert!(view.events.iter().any(|e| e.text == "e8e1"));
    assert_eq!(view.position.fen, "7k/8/8/8/8/8/8/4r3 w");
    // The resampled state of a finished game is the game (views start from the standard setup).
    let mut rng = StdRng::seed_from_u64(1);
    let mut game = start();
    crate::playout::random_playout(&mut game, &mut rng, 2000);
    assert!(game.outcome().is_some());
    for seat in Seat::ALL {
        assert_eq!(game.resample(seat, &mut rng), game);
    }
}

#[test]
fn refusals_name_the_problem_from_own_knowledge_and_change_nothing() {
    let mut game = start();
    play(&mut game, "bluff e2e4, a7a6");
    let before = game.clone();
    for (text, expected) in [
        ("e2e5", "cannot move to e5"),
        ("bluff e4e5", "only a real piece makes a bluff move"),
        ("e5e6", "you have no piece on e5"),
        ("a6a5", "you have no piece on a6"),
        ("e1g1", "castling needs"),
    ] {
        let err = game.apply_text(text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}: {err}");
        assert_eq!(game, before);
    }
}

#[test]
fn resampling_keeps_the_seats_view_and_draws_the_hidden_choices() {
    let mut game = start();
    play(&mut game, "bluff e2e4, d7d5, g1f3, bluff b8c6");
    let mut rng = StdRng::seed_from_u64(3);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..2000 {
        let sampled = game.resample(Seat::White, &mut rng);
        assert_eq!(sampled.view(Seat::White), game.view(Seat::White));
        *seen.entry(sampled.log.actions.clone()).or_insert(0) += 1;
        let (sampled, weight) = game.resample_weighted(Seat::Black, &mut rng);
        assert_eq!(sampled.view(Seat::Black), game.view(Seat::Black));
        // Each White move has two explanations, a real move and a bluff.
        assert!((weight - 4f64.ln()).abs() < 1e-9, "{weight}");
    }
    // Each Black move was a real move or a bluff: four histories, drawn alike (each has
    // probability 1/4; 400 to 600 of 2000 is over six standard deviations wide).
    assert_eq!(seen.len(), 4);
    assert!(seen.values().all(|&n| (400..600).contains(&n)), "{seen:?}");
}

/// The legal actions as listed piece by piece, each real piece's moves then its bluff moves, each
/// bluff's moves, then castling: the order random draws depend on.
fn listed_piece_by_piece(board: &Board) -> Vec<Action> {
    let color = board.turn;
    let mut actions = Vec::new();
    for from in board.real[color.index()] {
        let targets = board.piece_targets(from);
        board::push_moves(&mut actions, board, from, targets, Action::Move);
        board::push_moves(&mut actions, board, from, targets, Action::Bluff);
    }
    for from in board.bluffs[color.index()] {
        let targets = board.piece_targets(from);
        board::push_moves(&mut actions, board, from, targets, Action::Move);
    }
    actions.extend(board.castlings().into_iter().map(Action::Move));
    actions
}

#[test]
fn kept_input_draws_the_listed_actions_in_order_and_stays_fresh_as_do_the_keys_and_type_sets() {
    let mut rng = StdRng::seed_from_u64(12);
    for _ in 0..30 {
        let mut game = start();
        while let Some(action) = crate::playout::random_action(&game, &mut rng) {
            let board = &game.board;
            let listed = listed_piece_by_piece(board);
            assert_eq!(game.legal_actions(), listed);
            let castlings = board.castlings();
            let drawn: Vec<_> = (0..listed.len())
                .filter_map(|i| game.kept.get(board, &castlings, i))
                .collect();
            assert_eq!(drawn, listed);
            assert_eq!(game.kept.get(board, &castlings, listed.len()), None);
            game.apply(&action).unwrap();
            assert_eq!(game.kept, kept::Kept::new(&game.board));
            assert_eq!(game.board.public_key(), game.board.public_key_afresh());
            for role in Role::ALL {
                let showing = Square::ALL
                    .into_iter()
                    .filter(|&sq| game.board.role(sq) == Some(role));
                assert_eq!(game.board.showing(role), showing.collect(), "{role:?}");
            }
        }
    }
}

#[test]
fn a_new_bluff_on_its_old_bluffs_square_is_counted_as_its_own_type() {
    let mut board = Board::empty(Color::White);
    board.put_real(Color::White, sq("e1"), Role::King);
    board.put_real(Color::Black, sq("e8"), Role::King);
    board.put_real(Color::White, sq("a2"), Role::Pawn);
    // The pawn's bluff promoted on a8 and came back to a3 as a queen.
    board.put_bluff(Color::White, sq("a3"), Role::Queen, sq("a2"));
    let mut game = BluffMove::from_board(board);
    game.apply_text("bluff a2a3").unwrap();
    assert_eq!(game.board.role(sq("a3")), Some(Role::Pawn));
    assert_eq!(game.kept, kept::Kept::new(&game.board));
}
