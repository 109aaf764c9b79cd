//! The seed's rules and every ruling (RULINGS.md, Reality Check), as scenarios named after the
//! rule they check.

use super::knowledge::Seen;
use super::*;
use crate::board::board39::{Bitboard39, Shape, Square39};
use crate::board::Color;
use crate::event::EventKind;
use crate::game::Game;
use crate::outcome::{EndReason, Outcome};
use crate::seat::Audience;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::BTreeSet;

/// The ruling's example setup for White, and its mirror for Black.
const WHITE_SETUP: &str = "setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN";
const BLACK_SETUP: &str = "setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN";

/// A game with these options: `name` for `name=true`, or `name=value`.
fn game_with(options: &[&str]) -> RealityCheck {
    let options: Options = options
        .iter()
        .map(|option| {
            let (name, value) = option.split_once('=').unwrap_or((option, "true"));
            (name.to_string(), value.to_string())
        })
        .collect();
    RealityCheck::new(&options).unwrap()
}

/// A game after both example setups: White to move.
fn started(options: &[&str]) -> RealityCheck {
    let mut game = game_with(options);
    play(&mut game, &format!("{WHITE_SETUP}, {BLACK_SETUP}"));
    game
}

fn play(game: &mut RealityCheck, actions: &str) {
    for text in actions.split(',') {
        game.apply_text(text.trim())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn refusal(game: &mut RealityCheck, text: &str) -> String {
    let before = game.clone();
    let err = game.apply_text(text).unwrap_err().to_string();
    assert_eq!(
        game.log.actions, before.log.actions,
        "a refusal changes nothing"
    );
    assert_eq!(game.log, before.log);
    err
}

fn texts(game: &RealityCheck) -> BTreeSet<String> {
    game.legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn sq(name: &str) -> Square39 {
    Square39::parse(name).unwrap()
}

fn kind(text: &str) -> Kind {
    Kind::parse(text).unwrap()
}

/// Replaces the board with these pieces (`d4=NB`: N up, B down), White's then Black's; hands and
/// turn are left as they are, and the side to move begins a turn.
fn arrange(game: &mut RealityCheck, white: &str, black: &str) {
    let board = game.rules.board;
    for &s in board.all() {
        if game.squares[s.index()].is_some() {
            game.take(s);
        }
    }
    for (color, list) in [(Color::White, white), (Color::Black, black)] {
        for word in list.split_whitespace() {
            let (square, faces) = word.split_once('=').unwrap();
            let faces: Vec<Face> = faces
                .chars()
                .map(|c| Face::from_letter(c).unwrap())
                .collect();
            let piece = Piece {
                color,
                kind: Kind::new(faces[0], faces[1]),
                up: faces[0],
            };
            game.place(board.parse_square(square).unwrap(), piece, false);
        }
    }
    game.exempt = Bitboard39::EMPTY;
    game.flipped = Bitboard39::EMPTY;
    game.positions.clear();
    game.position_hashes.clear();
    game.quiet = 0;
    game.phase = Phase::Turn;
}

fn set_hand(game: &mut RealityCheck, color: Color, kinds: &str) {
    let kinds: Vec<Kind> = kinds.split_whitespace().map(kind).collect();
    game.hands[color.index()] = kinds.iter().fold(0, |set, k| set | k.bit());
    game.remembered[color.index()] = vec![Seen::Nothing; kinds.len()];
}

fn moves_from(game: &RealityCheck, from: &str) -> BTreeSet<String> {
    texts(game)
        .into_iter()
        .filter(|t| t.len() == 4 && t.starts_with(from))
        .map(|t| t[2..].to_string())
        .collect()
}

fn set(names: &str) -> BTreeSet<String> {
    names.split_whitespace().map(String::from).collect()
}

/// Action texts, comma-separated.
fn actions(list: &str) -> BTreeSet<String> {
    list.split(',').map(|t| t.trim().to_string()).collect()
}

fn view_piece(game: &RealityCheck, seat: Seat, square: &str) -> Option<PieceView> {
    game.summary(seat, false)
        .board
        .into_iter()
        .find(|p| p.square == square)
}

// Rule 1: the board, the pieces and the hidden setup.

#[test]
fn rule_1_the_example_setups_are_valid_and_read_back_in_canonical_form() {
    let game = started(&[]);
    let white = game.setup_of(Color::White).unwrap();
    assert_eq!(
        white.to_string(),
        "setup d1=RR c2=NB d2=BB e2=NR b3=PP c3=PN d3=BR e3=PB f3=PR hand=NN"
    );
    assert_eq!(
        game.setup_of(Color::Black).unwrap().to_string(),
        "setup d9=RR c8=NB d8=BB e8=NR b7=PP c7=PN d7=BR e7=PB f7=PR hand=NN"
    );
    assert_eq!(
        game.parse_action(&white.to_string()),
        Ok(Action::Setup(white))
    );
    assert_eq!(game.to_act(), Some(Actor::White));
    assert_eq!(game.hand(Color::White), [kind("NN")]);
    let piece = game.piece_at(sq("d3")).unwrap();
    assert_eq!((piece.up, piece.down()), (Face::Bishop, Face::Rook));
}

#[test]
fn rule_1_a_setup_must_match_the_diagram_and_use_each_piece_once() {
    let mut game = game_with(&[]);
    assert!(game.setup_due());
    assert_eq!(game.legal_actions(), []);
    assert_eq!(game.setup_shortcuts(), ["setup random"]);
    let err = refusal(
        &mut game,
        "setup d1=RR c2=BN e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN",
    );
    assert!(err.contains("the piece on c2 must show N"), "{err}");
    let err = refusal(
        &mut game,
        "setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NB",
    );
    assert!(err.contains("missing NN"), "{err}");
    let err = refusal(
        &mut game,
        "setup d1=RR c2=NB e2=NR d2=BB d4=BR b3=PP c3=PN e3=PB f3=PR hand=NN",
    );
    assert!(err.contains("start on"), "{err}");
    let err = refusal(&mut game, BLACK_SETUP);
    assert!(err.contains("start on d1 c2 d2 e2 b3 c3 d3 e3 f3"), "{err}");
    let err = refusal(&mut game, "setup d1=RR hand=NN");
    assert!(err.contains("nine pieces"), "{err}");
    let err = refusal(&mut game, "setup random");
    assert!(err.contains("shortcut"), "{err}");
    let err = refusal(&mut game, "b3b4");
    assert!(err.contains("a setup is due"), "{err}");
}

#[test]
fn rule_1_random_setups_match_the_diagram() {
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..50 {
        let mut game = game_with(&[]);
        for _ in 0..2 {
            let setup = game.random_setup(&mut rng).unwrap();
            game.apply(&setup).unwrap();
        }
        for color in Color::ALL {
            for (square, face) in setup::diagram(color) {
                assert_eq!(game.piece_at(square).unwrap().up, face);
            }
            assert_eq!(game.hand(color).len(), 1);
        }
        // The four pawns are always the four pieces with a pawn face.
        let pawns: BTreeSet<Kind> = ["b3", "c3", "e3", "f3"]
            .iter()
            .map(|s| game.piece_at(sq(s)).unwrap().kind)
            .collect();
        assert_eq!(
            pawns,
            [kind("PP"), kind("PN"), kind("PB"), kind("PR")].into()
        );
    }
}

#[test]
fn rule_1_setups_are_sealed_and_shown_only_by_their_faces_up_once_both_are_made() {
    let mut game = game_with(&[]);
    play(&mut game, WHITE_SETUP);
    let black = game.view(Seat::Black);
    assert_eq!(black.events.len(), 1);
    assert_eq!(black.events[0].kind, EventKind::Sealed);
    assert_eq!(black.events[0].text, "setup");
    assert!(
        black.position.board.is_empty(),
        "White's arrangement is behind the screen"
    );
    assert_eq!(game.view(Seat::White).position.board.len(), 9);
    play(&mut game, BLACK_SETUP);
    let black = game.view(Seat::Black);
    let placed: Vec<&str> = black
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Info)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        placed,
        [
            "placed d1=R c2=N d2=B e2=N b3=P c3=P d3=B e3=P f3=P",
            "placed d9=R c8=N d8=B e8=N b7=P c7=P d7=B e7=P f7=P"
        ]
    );
    assert_eq!(black.position.board.len(), 18);
    let d3 = view_piece(&game, Seat::Black, "d3").unwrap();
    assert_eq!((d3.up, d3.down), ('B', None));
    let d3 = view_piece(&game, Seat::White, "d3").unwrap();
    assert_eq!((d3.up, d3.down), ('B', Some('R')));
}

// Rule 2: movement by the face up.

#[test]
fn rule_2_the_pawn_face_steps_orthogonally_and_captures_diagonally_without_double_step() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN d1=RR", "e5=NB d5=PB c3=BB d9=RR");
    // d5 is blocked by an enemy piece; the pawn face does not capture straight ahead.
    assert_eq!(moves_from(&game, "d4"), set("c4 e4 d3 e5 c3"));
    assert!(texts(&game).contains("rc d4e5"));
    assert!(!texts(&game).contains("d4d6"), "no double step");
    // The pawn face has no forward: Black's steps towards its own side too.
    play(&mut game, "d4e4, flip d1");
    assert_eq!(moves_from(&game, "d5"), set("d6 c5 d4 e4"));
}

/// The 39 squares, written out by hand.
const NAMES: [&str; 39] = [
    "d1", "c2", "d2", "e2", "b3", "c3", "d3", "e3", "f3", "a4", "b4", "c4", "d4", "e4", "f4", "g4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "b7", "c7",
    "d7", "e7", "f7", "c8", "d8", "e8", "d9",
];

/// The Advanced board's 39 squares, written out by hand from the ruling's diagram (rule 8): the
/// 7x7 grid without d6 c5 e5 b4 c4 e4 f4 c3 e3 d2.
const ADVANCED_NAMES: [&str; 39] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2", "b2", "c2", "e2", "f2", "g2", "a3", "b3", "d3",
    "f3", "g3", "a4", "d4", "g4", "a5", "b5", "d5", "f5", "g5", "a6", "b6", "c6", "e6", "f6", "g6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7",
];

/// The names of the squares of a board.
fn names_of(board: Shape) -> &'static [&'static str; 39] {
    match board {
        Shape::Basic => &NAMES,
        Shape::Advanced => &ADVANCED_NAMES,
    }
}

fn name_at(names: &[&'static str], file: i32, rank: i32) -> Option<&'static str> {
    let name = format!(
        "{}{}",
        (b'a' as i32 + file) as u8 as char,
        (b'1' as i32 + rank) as u8 as char
    );
    names.iter().copied().find(|&n| n == name)
}

/// Where a piece showing `face` on `from` moves and captures, walking the board square by square
/// through the list of names: a table that shares nothing with the attack tables.
fn walk(
    names: &[&'static str],
    face: Face,
    from: &str,
    own: &BTreeSet<&str>,
    enemy: &BTreeSet<&str>,
) -> BTreeSet<String> {
    let b = from.as_bytes();
    let (f0, r0) = (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'));
    let rook = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut targets = BTreeSet::new();
    let free = |n: &str| !own.contains(n) && !enemy.contains(n);
    match face {
        Face::Pawn => {
            for (df, dr) in rook {
                if let Some(n) = name_at(names, f0 + df, r0 + dr).filter(|n| free(n)) {
                    targets.insert(n.to_string());
                }
            }
            for (df, dr) in bishop {
                if let Some(n) = name_at(names, f0 + df, r0 + dr).filter(|n| enemy.contains(n)) {
                    targets.insert(n.to_string());
                }
            }
        }
        Face::Knight => {
            for (df, dr) in knight {
                if let Some(n) = name_at(names, f0 + df, r0 + dr).filter(|n| !own.contains(n)) {
                    targets.insert(n.to_string());
                }
            }
        }
        Face::Bishop | Face::Rook => {
            let lines = if face == Face::Rook { rook } else { bishop };
            for (df, dr) in lines {
                let (mut f, mut r) = (f0 + df, r0 + dr);
                while let Some(n) = name_at(names, f, r) {
                    if own.contains(n) {
                        break;
                    }
                    targets.insert(n.to_string());
                    if enemy.contains(n) {
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
    }
    targets
}

#[test]
fn rule_2_knight_and_slider_moves_at_the_edges_match_an_independent_table() {
    // Spot checks by hand first: the knight in the corners of the diamond, the long lines.
    let empty = BTreeSet::new();
    assert_eq!(
        walk(&NAMES, Face::Knight, "d1", &empty, &empty),
        set("c3 e3")
    );
    assert_eq!(
        walk(&NAMES, Face::Knight, "a5", &empty, &empty),
        set("b3 c4 c6 b7")
    );
    assert_eq!(
        walk(&NAMES, Face::Bishop, "a4", &empty, &empty),
        set("b5 c6 d7 e8 b3 c2 d1")
    );
    assert_eq!(
        walk(&NAMES, Face::Rook, "g5", &empty, &empty),
        set("a5 b5 c5 d5 e5 f5 g4 g6")
    );
    assert_eq!(moves_match_an_independent_table(&[]), 39 * 4 * 6);
}

/// Every face on every square of the board of `options`, alone and among random crowds: the
/// moves listed are the independent walk's. Returns the positions checked.
fn moves_match_an_independent_table(options: &[&str]) -> usize {
    let mut game = game_with(options);
    let names = names_of(game.rules.board);
    let mut rng = StdRng::seed_from_u64(9);
    let mut checked = 0;
    for &from in names {
        for face in Face::ALL {
            for crowd in 0..6 {
                // A lone piece first, then random crowds of own and enemy pieces.
                let others: Vec<&str> = names
                    .iter()
                    .copied()
                    .filter(|&n| n != from && crowd > 0 && rand::Rng::random_ratio(&mut rng, 1, 3))
                    .collect();
                let (own, enemy): (Vec<&str>, Vec<&str>) = others
                    .into_iter()
                    .partition(|_| rand::Rng::random_bool(&mut rng, 0.5));
                let own: BTreeSet<&str> = own.into_iter().collect();
                let enemy: BTreeSet<&str> = enemy.into_iter().collect();
                let up = face.letter();
                let white: Vec<String> = std::iter::once(format!("{from}={up}{up}"))
                    .chain(own.iter().map(|n| format!("{n}=PP")))
                    .collect();
                let black: Vec<String> = enemy.iter().map(|n| format!("{n}=PP")).collect();
                arrange(&mut game, &white.join(" "), &black.join(" "));
                set_hand(&mut game, Color::White, "");
                game.turns = 1;
                assert_eq!(
                    moves_from(&game, from),
                    walk(names, face, from, &own, &enemy),
                    "{face:?} on {from} among {own:?} / {enemy:?}"
                );
                checked += 1;
            }
        }
    }
    checked
}

// Rule 3a: a non-capturing move, then a mandatory flip.

#[test]
fn rule_3a_a_non_capturing_move_is_followed_by_a_flip_of_any_piece() {
    let mut game = started(&[]);
    play(&mut game, "b3b4");
    assert_eq!(game.to_act(), Some(Actor::White), "the mover flips");
    assert_eq!(game.summary(Seat::Black, false).step, "flip");
    let flips = texts(&game);
    assert_eq!(
        flips.len(),
        18,
        "any piece on the board, own or enemy, the moved one included"
    );
    assert!(flips.contains("flip b4") && flips.contains("flip d9"));
    let err = refusal(&mut game, "c3c4");
    assert!(err.contains("flip"), "{err}");
    play(&mut game, "flip e8");
    // Black's e8 is NR: both seats now see both faces.
    for seat in Seat::ALL {
        let e8 = view_piece(&game, seat, "e8").unwrap();
        assert_eq!((e8.up, e8.down), ('R', Some('N')), "{seat}");
    }
    let last = game.events().last().unwrap();
    assert_eq!(last.text, "e8 now shows R: it is NR");
    assert_eq!(game.to_act(), Some(Actor::Black));
    // It now moves as a rook, hemmed in where the knight could jump to d6 and f6.
    assert!(moves_from(&game, "e8").is_empty());
}

#[test]
fn rule_3a_the_piece_the_opponent_flipped_or_dropped_may_not_be_flipped_next_turn() {
    let mut game = started(&[]);
    play(&mut game, "b3b4, flip c7");
    assert_eq!(game.summary(Seat::Black, false).exempt, ["c7"]);
    play(&mut game, "b7b6");
    assert!(!texts(&game).contains("flip c7"));
    let err = refusal(&mut game, "flip c7");
    assert!(err.contains("flipped or dropped the piece on c7"), "{err}");
    // The exemption lasts one turn: White may flip c7 again.
    play(&mut game, "flip b6, c3c4");
    assert!(texts(&game).contains("flip c7"));
    assert!(!texts(&game).contains("flip b6"));
}

#[test]
fn rule_3a_the_exemption_follows_a_flipped_piece_that_moves() {
    let mut game = started(&[]);
    // c7 (PN) is flipped to N; Black moves it away and still may not flip it.
    play(&mut game, "b3b4, flip c7, c7b5");
    assert!(!texts(&game).contains("flip b5"));
    assert_eq!(texts(&game).len(), 17);
}

#[test]
fn rule_3a_the_capturing_piece_of_a_reality_check_counts_as_flipped() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN d1=RR", "e5=NB d9=RR c8=BB");
    play(&mut game, "rc d4e5, c8b7");
    assert!(!texts(&game).contains("flip e5"), "turned back or not");
    assert!(texts(&game).contains("flip d1"));
}

#[test]
fn rule_3a_a_dropped_piece_may_not_be_flipped_next_turn() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN", "d9=RR c8=BB");
    set_hand(&mut game, Color::White, "NN");
    play(&mut game, "drop NN@c2, c8b7");
    assert!(!texts(&game).contains("flip c2"));
}

#[test]
fn rule_3a_no_flip_when_no_piece_is_eligible() {
    // Only a memory flips two pieces: after it, Black's two pieces are all the board holds.
    let mut game = started(&["memory"]);
    arrange(&mut game, "d1=RR", "d9=PN e8=PB");
    set_hand(&mut game, Color::White, "NN BB");
    play(&mut game, "memory d9 e8, remove d1");
    play(&mut game, "e8d7");
    assert_eq!(game.to_act(), Some(Actor::White));
    assert_eq!(
        game.events().last().unwrap().text,
        "no piece may be flipped: the turn ends"
    );
}

// Rule 3b: a drop.

#[test]
fn rule_3b_a_drop_goes_on_an_empty_own_starting_square_face_of_choice_seen_by_its_face_up() {
    let mut game = started(&[]);
    play(&mut game, "c2b4, flip b4, c8b6, flip d1");
    let drops: BTreeSet<String> = texts(&game)
        .into_iter()
        .filter(|t| t.starts_with("drop"))
        .collect();
    assert_eq!(
        drops,
        actions("drop NN@c2"),
        "only the empty starting square"
    );
    let err = refusal(&mut game, "drop NN@d4");
    assert!(err.contains("not one of your starting squares"), "{err}");
    let err = refusal(&mut game, "drop NN@d1");
    assert!(err.contains("occupied"), "{err}");
    let err = refusal(&mut game, "drop PN@c2");
    assert!(err.contains("PN is not in your hand"), "{err}");
    play(&mut game, "drop NN@c2");
    assert_eq!(
        game.to_act(),
        Some(Actor::Black),
        "a drop is the whole turn"
    );
    let black = game.view(Seat::Black);
    let last = black.events.last().unwrap();
    assert_eq!(
        (last.kind.clone(), last.text.as_str()),
        (EventKind::Sealed, "drop N@c2")
    );
    let white = game.view(Seat::White);
    assert_eq!(white.events.last().unwrap().text, "drop NN@c2");
    assert_eq!(view_piece(&game, Seat::Black, "c2").unwrap().down, None);
    assert_eq!(
        game.view(Seat::Spectator).events.last().unwrap().text,
        "drop N@c2"
    );
}

#[test]
fn rule_3b_a_two_faced_piece_may_be_dropped_either_face_up() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN", "d9=RR");
    set_hand(&mut game, Color::White, "NB");
    let drops = texts(&game)
        .into_iter()
        .filter(|t| t.starts_with("drop") && t.ends_with("@c2"))
        .collect::<BTreeSet<_>>();
    assert_eq!(drops, actions("drop BN@c2, drop NB@c2"));
    play(&mut game, "drop BN@c2");
    assert_eq!(game.piece_at(sq("c2")).unwrap().up, Face::Bishop);
}

#[test]
fn rule_3b_a_dropped_piece_once_flipped_opens_the_drop() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN", "d9=RR c8=BB");
    set_hand(&mut game, Color::White, "NB");
    play(
        &mut game,
        "drop BN@c2, c8b7, flip d9, d4d5, flip b7, b7c6, flip c2",
    );
    let reveal = game
        .events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::Reveal { .. }))
        .unwrap();
    assert_eq!(reveal.kind, EventKind::Reveal { action: 2 });
    assert_eq!(reveal.text, "drop BN@c2");
    assert_eq!(reveal.seats, Audience::All);
}

// Rule 3c and 3d: captures and Reality Checks.

#[test]
fn rule_3c_a_capture_sends_the_piece_to_its_owners_hand() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN", "e5=NB d9=RR");
    play(&mut game, "d4e5");
    assert_eq!(game.to_act(), Some(Actor::Black), "no flip after a capture");
    assert_eq!(game.hand(Color::Black), [kind("NN"), kind("NB")]);
    assert_eq!(game.piece_at(sq("e5")).unwrap().color, Color::White);
    let white = game.summary(Seat::White, false);
    assert_eq!(
        white.black.hand,
        ["N?", "??"],
        "the capture showed only the face up"
    );
    assert_eq!(game.summary(Seat::Black, false).black.hand, ["NN", "NB"]);
}

#[test]
fn rule_3d_a_reality_check_between_true_pieces_takes_the_captured_piece_out_of_the_game() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=BB", "e5=RR d9=NB");
    play(&mut game, "rc d4e5");
    assert_eq!(game.gone(Color::Black), [kind("RR")]);
    assert_eq!(game.hand(Color::Black), [kind("NN")]);
    assert_eq!(game.true_in_game(Color::Black), 3);
    assert_eq!(game.hand_limit(Color::Black), 2);
    assert!(game.is_shown(sq("e5")), "the capturer's faces are public");
    let infos: Vec<&str> = game
        .events()
        .iter()
        .filter(|e| e.kind == EventKind::Info)
        .map(|e| e.text.as_str())
        .collect();
    assert!(infos.contains(&"reality check: d4 is BB; e5 is RR"));
    assert!(infos.contains(&"both are true: black's RR leaves the game"));
    assert_eq!(game.summary(Seat::Spectator, false).black.gone, ["RR"]);
}

#[test]
fn rule_3d_a_reality_check_on_a_false_piece_sends_it_to_the_hand() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=BB", "e5=NB d9=RR");
    play(&mut game, "rc d4e5");
    assert_eq!(game.gone(Color::Black), []);
    assert_eq!(game.hand(Color::Black), [kind("NN"), kind("NB")]);
    assert_eq!(
        game.summary(Seat::White, false).black.hand,
        ["NB", "??"],
        "the flip showed the captured piece"
    );
}

#[test]
fn rule_3d_a_capturing_piece_that_is_not_true_is_turned_back() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=BN", "e5=RR d9=NB");
    play(&mut game, "rc d4e5");
    let capturer = game.piece_at(sq("e5")).unwrap();
    assert_eq!((capturer.up, capturer.kind), (Face::Bishop, kind("NB")));
    assert_eq!(
        game.gone(Color::Black),
        [],
        "only two true pieces remove one"
    );
    assert_eq!(game.hand(Color::Black), [kind("NN"), kind("RR")]);
    let e5 = view_piece(&game, Seat::Black, "e5").unwrap();
    assert_eq!((e5.up, e5.down), ('B', Some('N')));
    let err = refusal(&mut game, "rc d9d8");
    assert!(
        err.contains("a reality check is a capture, and d8 is empty"),
        "{err}"
    );
}

#[test]
fn rule_3d_a_reality_check_is_a_capture_of_an_enemy_piece() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=BB c3=PP", "d9=RR");
    let err = refusal(&mut game, "rc d4e5");
    assert!(err.contains("e5 is empty"), "{err}");
    let err = refusal(&mut game, "rc d4c3");
    assert!(err.contains("your own piece"), "{err}");
}

// Rule 4: the hand limit and the forced drop.

#[test]
fn rule_4_a_hand_over_the_limit_forces_a_drop() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN f3=PR", "d9=RR");
    set_hand(&mut game, Color::White, "NN NB BB RR");
    assert_eq!(game.hand_limit(Color::White), 3);
    assert!(game.must_drop(Color::White));
    assert!(texts(&game).iter().all(|t| t.starts_with("drop")));
    assert!(game.summary(Seat::Black, false).must_drop);
    let err = refusal(&mut game, "d4d5");
    assert!(err.contains("you must drop"), "{err}");
    play(&mut game, "drop RR@d1");
    assert!(!game.must_drop(Color::White));
}

#[test]
fn rule_4_the_limit_falls_with_each_true_piece_that_leaves_the_game() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=PN", "d9=RR");
    set_hand(&mut game, Color::White, "NN NB");
    assert!(!game.must_drop(Color::White));
    game.gone[Color::White.index()] = kind("BB").bit() | kind("RR").bit();
    assert_eq!(game.hand_limit(Color::White), 1);
    assert!(game.must_drop(Color::White));
}

#[test]
fn rule_4_a_forced_drop_that_cannot_be_made_loses() {
    let mut game = started(&[]);
    // Every White starting square is taken; White's hand is over the limit after the capture.
    arrange(
        &mut game,
        "d4=PN",
        "d1=NN c2=NB d2=BB e2=NR b3=PP c3=PN d3=BR e3=PB f3=PR e5=BB",
    );
    set_hand(&mut game, Color::White, "NN NB BB");
    game.turn = Color::Black;
    play(&mut game, "e5d4");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::ImpossibleDrop))
    );
    assert_eq!(game.to_act(), None);
}

// Rule 5: winning.

#[test]
fn rule_5_removing_all_four_enemy_true_pieces_wins() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=BB", "e5=PP d9=NB");
    game.gone[Color::Black.index()] = kind("NN").bit() | kind("BB").bit() | kind("RR").bit();
    set_hand(&mut game, Color::Black, "");
    play(&mut game, "rc d4e5");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::TruePiecesRemoved))
    );
    assert_eq!(game.legal_actions(), []);
    assert_eq!(game.apply_text("d9d8"), Err(ActionError::GameOver));
}

#[test]
fn rule_5_a_side_with_no_legal_turn_loses() {
    let mut game = started(&[]);
    // White's only piece, a pawn face on d1, is blocked and has nothing to capture; its hand is
    // empty.
    arrange(&mut game, "d1=PP", "d2=NB d9=RR");
    set_hand(&mut game, Color::White, "");
    game.turn = Color::Black;
    play(&mut game, "d9d8, flip d8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::NoLegalMove))
    );
}

// Rule 6: knowledge and action text.

#[test]
fn rule_6_a_seat_knows_its_own_faces_and_every_face_it_was_shown() {
    let game = started(&[]);
    let white = game.summary(Seat::White, false);
    let spectator = game.summary(Seat::Spectator, false);
    for piece in &white.board {
        let own = piece.color == Color::White;
        assert_eq!(piece.down.is_some(), own, "{}", piece.square);
    }
    assert!(spectator.board.iter().all(|p| p.down.is_none()));
    assert_eq!(white.white.hand, ["NN"]);
    assert_eq!(white.black.hand, ["??"]);
    assert_eq!(white.black.hand_count, 1);
}

#[test]
fn rule_6_the_opponent_remembers_pieces_that_went_to_the_hand_until_a_drop_blurs_them() {
    let mut game = started(&[]);
    arrange(&mut game, "d4=BB d1=RR", "e5=NR c5=PP d9=RR");
    set_hand(&mut game, Color::Black, "");
    // White shows e5 (NR), then takes it; then takes the pawn face on c5 unseen.
    play(&mut game, "d1d2, flip e5, d9d8, flip d8, d4e5");
    assert_eq!(game.summary(Seat::White, false).black.hand, ["NR"]);
    play(
        &mut game,
        "d8d7, flip d7, e5d4, flip d4, d7d6, flip d6, d4c5",
    );
    assert_eq!(game.summary(Seat::White, false).black.hand, ["NR", "P?"]);
    // A drop with P up cannot be the NR: the NR stays remembered.
    play(&mut game, "drop PP@d9");
    assert_eq!(game.summary(Seat::Spectator, false).black.hand, ["NR"]);
    assert_eq!(game.summary(Seat::Black, false).black.hand, ["NR"]);
}

#[test]
fn rule_6_action_texts_read_back() {
    let game = started(&[]);
    for text in [
        "b3b4",
        "flip d2",
        "drop NB@c2",
        "c3d4",
        "rc c3d4",
        "memory c7 e8",
        "remove d3",
        "remove RR",
        "die 3",
        WHITE_SETUP,
    ] {
        let action = game.parse_action(text).unwrap();
        let canonical = action.to_string();
        assert_eq!(game.parse_action(&canonical), Ok(action), "{text}");
        if !text.starts_with("setup") {
            assert_eq!(canonical, text);
        }
    }
    assert_eq!(
        game.parse_action("memory e8 c7").unwrap().to_string(),
        "memory c7 e8"
    );
    assert_eq!(game.parse_action("B3B4"), game.parse_action("b3b4"));
    for bad in ["flip", "drop NB c2", "drop nb@c2", "die 7", "a1a2", "rc c3"] {
        assert!(game.parse_action(bad).is_err(), "{bad}");
    }
    assert_eq!(
        Action::Drop {
            up: Face::Knight,
            down: Face::Bishop,
            to: sq("c2")
        }
        .public_text(),
        "drop N@c2"
    );
}

// Options.

#[test]
fn options_are_checked_by_name_and_value() {
    let bad = |name: &str, value: &str| {
        let options = Options::from([(name.to_string(), value.to_string())]);
        RealityCheck::new(&options).unwrap_err()
    };
    let err = bad("checkmate", "true");
    assert_eq!(err.name, "checkmate");
    assert!(err.reason.contains("strategic-retreat"), "{}", err.reason);
    let err = bad("dice", "yes");
    assert_eq!(err.name, "dice");
    assert!(err.reason.contains("true, false"), "{}", err.reason);
    let game = game_with(&["memory"]);
    assert_eq!(game.options()["memory"], "true");
    assert_eq!(game.options()["dice"], "false");
    assert_eq!(game.options()["board"], "basic");
    assert_eq!(game.options().len(), 5);
    let err = bad("board", "hexagonal");
    assert_eq!(err.name, "board");
    assert!(err.reason.contains("basic, advanced"), "{}", err.reason);
}

#[test]
fn option_strategic_retreat_captures_own_pieces_within_the_hand_limit() {
    let mut game = started(&[]);
    let err = refusal(&mut game, "d1d2");
    assert!(err.contains("strategic-retreat"), "{err}");
    let mut game = started(&["strategic-retreat"]);
    assert!(texts(&game).contains("d1d2") && !texts(&game).contains("rc d1d2"));
    play(&mut game, "d1d2");
    assert_eq!(game.hand(Color::White), [kind("NN"), kind("BB")]);
    assert_eq!(game.piece_at(sq("d2")).unwrap().kind, kind("RR"));
    assert_eq!(game.to_act(), Some(Actor::Black), "a capture: no flip");
    // With two in hand and a limit of three, one more; then no more.
    play(&mut game, "b7b6, flip b6, d2d3");
    assert_eq!(game.hand(Color::White).len(), 3);
    play(&mut game, "b6b5, flip b5");
    assert!(!texts(&game).contains("d3c3"));
    let err = refusal(&mut game, "d3c3");
    assert!(err.contains("over its limit of 3"), "{err}");
}

#[test]
fn option_memory_matching_hidden_faces_send_both_pieces_to_the_hand() {
    let mut game = started(&["memory"]);
    assert_eq!(
        texts(&game).len(),
        14 + 36,
        "moves and every pair of enemy pieces"
    );
    // e7 is PB and c8 is NB: both hide a bishop.
    play(&mut game, "memory c8 e7");
    assert_eq!(
        game.hand(Color::Black),
        [kind("PB"), kind("NN"), kind("NB")]
    );
    assert_eq!(game.to_act(), Some(Actor::Black));
    assert_eq!(
        game.summary(Seat::White, false).black.hand,
        ["PB", "NB", "??"]
    );
}

#[test]
fn option_memory_different_hidden_faces_cost_the_flipper_a_true_piece() {
    let mut game = started(&["memory"]);
    // c7 (PN) hides a knight, e7 (PB) a bishop.
    play(&mut game, "memory c7 e7");
    assert_eq!(game.to_act(), Some(Actor::White));
    assert_eq!(game.summary(Seat::Black, false).step, "remove");
    assert_eq!(
        texts(&game),
        actions("remove d1, remove d2, remove b3, remove NN"),
        "White's true pieces: RR d1, BB d2, PP b3 and NN in hand"
    );
    let err = refusal(&mut game, "remove c2");
    assert!(err.contains("no true piece of yours"), "{err}");
    play(&mut game, "remove d2");
    assert_eq!(game.gone(Color::White), [kind("BB")]);
    assert_eq!(
        game.piece_at(sq("c7")).unwrap().up,
        Face::Knight,
        "both stay flipped"
    );
    assert_eq!(game.piece_at(sq("e7")).unwrap().up, Face::Bishop);
    // The flipped pieces are exempt from Black's flip.
    play(&mut game, "b7b6");
    assert!(!texts(&game).contains("flip c7") && !texts(&game).contains("flip e7"));
}

#[test]
fn option_memory_the_true_piece_may_come_from_the_hand() {
    let mut game = game_with(&["memory"]);
    play(
        &mut game,
        &format!(
            "setup d1=RN c2=NB e2=NN d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=RR, {BLACK_SETUP}"
        ),
    );
    play(&mut game, "memory c7 e7");
    assert!(texts(&game).contains("remove RR"));
    play(&mut game, "remove RR");
    assert_eq!(game.hand(Color::White), []);
    assert_eq!(game.summary(Seat::Black, false).white.hand_count, 0);
    assert_eq!(game.summary(Seat::Black, false).white.gone, ["RR"]);
}

#[test]
fn option_memory_a_hand_pushed_over_the_limit_drops_one_piece_a_turn() {
    let mut game = started(&["memory"]);
    set_hand(&mut game, Color::Black, "NN PP");
    // Black's hand of two plus two matched pieces is four, over the limit of three.
    play(&mut game, "memory c8 e7");
    assert_eq!(game.hand(Color::Black).len(), 4);
    assert!(game.must_drop(Color::Black));
    play(&mut game, "drop NB@c8");
    assert!(!game.must_drop(Color::Black));
}

#[test]
fn option_flexible_setup_places_nine_pieces_anywhere_in_the_own_half() {
    let mut game = game_with(&["flexible-setup"]);
    let err = refusal(
        &mut game,
        "setup a4=RR b4=NB c4=NR d4=BB e4=BR f4=PP g4=PN d1=PB e5=PR hand=NN",
    );
    assert!(
        err.contains("e5 is outside white's half (ranks 1-4)"),
        "{err}"
    );
    play(
        &mut game,
        "setup a4=RR b4=BN c4=NR d4=BB e4=RB f4=PP g4=PN d1=BP d2=PR hand=NN",
    );
    play(
        &mut game,
        "setup a6=RR b6=NB c6=NR d6=BB e6=BR f6=PP g6=PN d9=PB d8=PR hand=NN",
    );
    assert_eq!(game.piece_at(sq("b4")).unwrap().up, Face::Bishop);
    // The rook on a4 sees Black's rook on a6, but White may not capture on the first move.
    assert!(!texts(&game).iter().any(|t| t.contains("a4a6")));
    let err = refusal(&mut game, "a4a6");
    assert!(err.contains("may not capture on the first move"), "{err}");
    play(&mut game, "a4a5, flip a5");
    // Black may capture, and White's drop squares are the nine it chose.
    assert!(texts(&game).contains("a6a5"));
    play(&mut game, "a6a5");
    let drops: BTreeSet<String> = texts(&game)
        .into_iter()
        .filter(|t| t.starts_with("drop RR@"))
        .collect();
    assert_eq!(drops, actions("drop RR@a4"));
    assert_eq!(game.summary(Seat::Black, false).white.drop_squares.len(), 9);
}

#[test]
fn option_flexible_setup_hides_white_arrangement_until_black_has_set_up() {
    let mut game = game_with(&["flexible-setup"]);
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..20 {
        let Action::Setup(setup) = game.random_setup(&mut rng).unwrap() else {
            unreachable!()
        };
        assert!(setup
            .check(&Action::Setup(setup), Color::White, setup::Placement::Half)
            .is_ok());
    }
    let setup = game.random_setup(&mut rng).unwrap();
    game.apply(&setup).unwrap();
    let black = game.summary(Seat::Black, false);
    assert!(black.board.is_empty() && black.white.drop_squares.is_empty());
}

#[test]
fn option_dice_a_roll_after_the_move_names_what_may_be_flipped() {
    let mut game = started(&["dice"]);
    play(&mut game, "b3b4");
    assert_eq!(game.to_act(), Some(Actor::Chance));
    let outcomes = game.chance_outcomes();
    assert_eq!(outcomes.len(), 6);
    assert!(outcomes.iter().all(|(_, p)| (p - 1.0 / 6.0).abs() < 1e-12));
    let mut pawn = game.clone();
    play(&mut pawn, "die 1");
    assert_eq!(pawn.to_act(), Some(Actor::White));
    assert_eq!(pawn.summary(Seat::Black, false).die, Some(1));
    assert_eq!(
        texts(&pawn),
        actions("flip b4, flip c3, flip e3, flip f3, flip b7, flip c7, flip e7, flip f7")
    );
    let err = refusal(&mut pawn, "flip d1");
    assert!(
        err.contains("the die shows 1: flip a piece showing P"),
        "{err}"
    );
    let mut own = game.clone();
    play(&mut own, "die 5");
    assert!(texts(&own).iter().all(|t| {
        let square = sq(&t[5..]);
        own.piece_at(square).unwrap().color == Color::White
    }));
    assert_eq!(texts(&own).len(), 9);
    let mut enemy = game.clone();
    play(&mut enemy, "die 6, flip d9");
    assert_eq!(enemy.to_act(), Some(Actor::Black));
}

#[test]
fn option_dice_no_flip_when_no_piece_fits_and_the_exemption_still_applies() {
    let mut game = started(&["dice"]);
    arrange(&mut game, "d4=PN", "d9=RR b7=PP");
    play(&mut game, "d4d5, die 4, flip d9, b7b6, die 4");
    // The only rook face is exempt: Black's turn ends after the roll.
    assert_eq!(game.to_act(), Some(Actor::White));
    assert!(game
        .events()
        .last()
        .unwrap()
        .text
        .starts_with("no piece fits the die"));
}

// The draws of the conventions.

#[test]
fn convention_200_turns_without_a_piece_leaving_the_game_draw() {
    let mut game = started(&[]);
    game.quiet = 199;
    play(&mut game, "b3b4, flip b4");
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    // A capture into the hand does not reset the count; a true piece leaving the game does.
    let mut game = started(&[]);
    arrange(&mut game, "d4=BB c4=PP", "e5=RR b5=NB d9=PP");
    play(&mut game, "c4b5");
    assert_eq!(game.quiet, 1);
    play(&mut game, "d9d8, flip d8, rc d4e5");
    assert_eq!(game.quiet, 0);
}

#[test]
fn convention_the_fifth_repetition_of_the_public_position_draws() {
    let mut game = started(&[]);
    let cycle = "c2b4, flip d1, c8b6, flip d9, b4c2, flip d1, b6c8, flip d9";
    for round in 0..4 {
        play(&mut game, cycle);
        assert_eq!(game.outcome(), None, "round {round}");
    }
    // Black to move after White's first move of the cycle, with d1 exempt: the fifth time.
    play(&mut game, "c2b4, flip d1");
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::FivefoldRepetition))
    );
}

#[test]
fn option_memory_may_turn_pieces_the_flip_exemption_protects() {
    let mut game = started(&["memory"]);
    play(&mut game, "b3b4, flip d1");
    assert_eq!(game.summary(Seat::White, false).exempt, ["d1"]);
    assert!(texts(&game).contains("memory d1 d2"));
}

#[test]
fn option_memory_removing_the_last_true_piece_loses() {
    let mut game = started(&["memory"]);
    // White's NN, BB and PP have left the game; its RR on d1 is its last true piece.
    arrange(&mut game, "d1=RR c2=NB e2=NR c3=PN", "c7=PN e7=PB d9=RR");
    game.gone[Color::White.index()] = kind("NN").bit() | kind("BB").bit() | kind("PP").bit();
    set_hand(&mut game, Color::White, "");
    game.quiet = 7;
    play(&mut game, "memory c7 e7");
    assert_eq!(texts(&game), actions("remove d1"));
    play(&mut game, "remove d1");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::TruePiecesRemoved))
    );
    assert_eq!(game.quiet, 0, "a piece left the game");
}

#[test]
fn option_flexible_setup_forbids_every_capture_on_whites_first_turn() {
    let mut game = game_with(&["flexible-setup", "strategic-retreat"]);
    play(
        &mut game,
        "setup a4=RR b4=BN c4=NR d4=BB e4=RB f4=PP g4=PN d1=BP d2=PR hand=NN",
    );
    play(
        &mut game,
        "setup a6=RR b6=NB c6=NR d6=BB e6=BR f6=PP g6=PN d9=PB d8=PR hand=NN",
    );
    // The rook on a4 could take its own bishop face on b4, or Black's rook on a6.
    for text in ["a4b4", "a4a6", "rc a4a6"] {
        assert!(!texts(&game).contains(text), "{text}");
        let err = refusal(&mut game, text);
        assert!(err.contains("may not capture on the first move"), "{err}");
    }
    play(&mut game, "a4a5, flip a5, g6g5, flip g5");
    assert!(texts(&game).contains("b4a5"), "from the second turn on");
}

// Rule 8: the Advanced board.

/// A White setup on nine of its ten region squares (g4 left empty), and its half turn for Black
/// (a4 left empty).
const ADVANCED_WHITE: &str = "setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g3=PR hand=NN";
const ADVANCED_BLACK: &str = "setup d7=RR c7=NB b7=NR a7=BB c6=BR b6=PP a6=PN b5=PB a5=PR hand=NN";

/// A game on the Advanced board after both example setups: White to move.
fn advanced(options: &[&str]) -> RealityCheck {
    let mut options = options.to_vec();
    options.push("board=advanced");
    let mut game = game_with(&options);
    play(&mut game, &format!("{ADVANCED_WHITE}, {ADVANCED_BLACK}"));
    game
}

fn adv(name: &str) -> Square39 {
    Shape::Advanced.parse_square(name).unwrap()
}

#[test]
fn rule_8_the_advanced_board_has_39_squares_and_ten_holes() {
    let game = game_with(&["board=advanced"]);
    assert_eq!(game.options()["board"], "advanced");
    let squares: BTreeSet<String> = Shape::Advanced
        .all()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        squares,
        ADVANCED_NAMES.iter().map(|n| n.to_string()).collect()
    );
    // Every cell of the 7x7 frame is a square or one of the ten holes.
    for file in 'a'..='g' {
        for rank in 1..=7 {
            let name = format!("{file}{rank}");
            let hole = ["d6", "c5", "e5", "b4", "c4", "e4", "f4", "c3", "e3", "d2"]
                .contains(&name.as_str());
            assert_eq!(squares.contains(&name), !hole, "{name}");
        }
    }
    // Names off the board are refused by name: a hole, and a rank of the basic board only.
    let err = game.parse_action("d5d6").unwrap_err().to_string();
    assert!(
        err.contains("\"d6\" for the Advanced board: it is one of the ten holes"),
        "{err}"
    );
    let err = game.parse_action("flip d9").unwrap_err().to_string();
    assert!(err.contains("a rank 1-7"), "{err}");
    // a1 is a square here, not on the basic board.
    assert!(game.parse_action("a1a2").is_ok());
    assert!(game_with(&[]).parse_action("a1a2").is_err());
}

#[test]
fn rule_8_setups_go_on_nine_of_the_ten_region_squares_with_any_faces_up() {
    let mut game = game_with(&["board=advanced"]);
    assert_eq!(game.setup_shortcuts(), ["setup random"]);
    // The basic board's diagram is no setup here: c2 lies outside White's region.
    let err = refusal(
        &mut game,
        "setup d1=RR c2=NB e2=NR e1=BB f1=BR f2=PP g2=PN f3=PB g3=PR hand=NN",
    );
    assert!(
        err.contains(
            "c2 is outside white's setup region (d1 e1 f1 g1 e2 f2 g2 f3 g3 g4): on the \
             Advanced board each side sets up on nine of its ten corner squares"
        ),
        "{err}"
    );
    // Black's region is Black's; a hole is no square at all.
    let err = refusal(&mut game, ADVANCED_BLACK);
    assert!(err.contains("outside white's setup region"), "{err}");
    let err = refusal(
        &mut game,
        "setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB d2=PR hand=NN",
    );
    assert!(
        err.contains("\"d2\" for the Advanced board: it is one of the ten holes"),
        "{err}"
    );
    let err = refusal(
        &mut game,
        "setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g3=PR g4=NN",
    );
    assert!(err.contains("hand"), "all ten placed, none in hand: {err}");
    // Any faces up, any nine of the ten: g4 is left empty, the bishop face of BR is up.
    play(&mut game, ADVANCED_WHITE);
    let setup = game.setup_of(Color::White).unwrap();
    assert_eq!(
        setup.to_string(),
        "setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g3=PR hand=NN"
    );
    // Hidden until Black has set up: Black sees no White piece and no drop square.
    let black = game.summary(Seat::Black, false);
    assert!(black.board.is_empty() && black.white.drop_squares.is_empty());
    let err = refusal(
        &mut game,
        "setup d1=RR c7=NB b7=NR a7=BB c6=BR b6=PP a6=PN b5=PB a5=PR hand=NN",
    );
    assert!(
        err.contains("d1 is outside black's setup region (a4 a5 b5 a6 b6 c6 a7 b7 c7 d7)"),
        "{err}"
    );
    play(&mut game, ADVANCED_BLACK);
    // Black's canonical text reads from its own back rank, rank 7.
    assert_eq!(
        game.setup_of(Color::Black).unwrap().to_string(),
        "setup a7=BB b7=NR c7=NB d7=RR a6=PN b6=PP c6=BR a5=PR b5=PB hand=NN"
    );
    assert_eq!(
        game.parse_action(ADVANCED_BLACK),
        Ok(Action::Setup(game.setup_of(Color::Black).unwrap()))
    );
    let white = game.summary(Seat::Black, false).white;
    let drops: BTreeSet<String> = white.drop_squares.into_iter().collect();
    assert_eq!(drops, set("d1 e1 f1 g1 e2 f2 g2 f3 g3"));
}

#[test]
fn rule_8_random_setups_fill_nine_of_the_ten_region_squares() {
    let mut rng = StdRng::seed_from_u64(8);
    let mut left_empty = BTreeSet::new();
    for _ in 0..200 {
        let mut game = game_with(&["board=advanced"]);
        for color in Color::ALL {
            let Some(Action::Setup(setup)) = game.random_setup(&mut rng) else {
                unreachable!("a setup is due")
            };
            assert_eq!(
                setup.check(&Action::Setup(setup), color, setup::Placement::Region),
                Ok(())
            );
            let region = setup::region(color);
            assert_eq!(region.count(), 10);
            assert_eq!(region & Shape::Advanced.squares(), region);
            assert_eq!((setup.squares() & region).count(), 9);
            if color == Color::White {
                left_empty.extend((region - setup.squares()).map(|s| s.to_string()));
            }
            game.apply(&Action::Setup(setup)).unwrap();
        }
        assert_eq!(game.to_act(), Some(Actor::White));
    }
    assert_eq!(left_empty, set("d1 e1 f1 g1 e2 f2 g2 f3 g3 g4"));
}

#[test]
fn rule_8_rooks_and_bishops_stop_at_holes_and_knights_jump_them() {
    let mut game = advanced(&[]);
    arrange(&mut game, "d1=RR d3=BB d4=NN", "g7=RR");
    game.turns = 1;
    // The rook on d1: d2 above it is a hole.
    assert_eq!(moves_from(&game, "d1"), set("a1 b1 c1 e1 f1 g1"));
    // The bishop on d3: c4 and e4 are holes.
    assert_eq!(moves_from(&game, "d3"), set("c2 b1 e2 f1"));
    // The knight on d4 jumps the holes around it.
    assert_eq!(moves_from(&game, "d4"), set("c6 e6 b5 f5 b3 f3 c2 e2"));
    // A rook on g4 stops at f4; a pawn face on d4 has only d3 and d5 to step to.
    arrange(&mut game, "g4=RR d4=PP", "a7=RR");
    assert_eq!(moves_from(&game, "g4"), set("g1 g2 g3 g5 g6 g7"));
    assert_eq!(moves_from(&game, "d4"), set("d3 d5"));
    assert_eq!(
        moves_match_an_independent_table(&["board=advanced"]),
        39 * 4 * 6
    );
}

#[test]
fn rule_8_drops_go_only_on_the_nine_chosen_squares() {
    let mut game = advanced(&[]);
    // White's knight on d4 takes the pawn face on b5, which goes to Black's hand; Black drops.
    arrange(
        &mut game,
        "d1=RR e2=BR d4=NN",
        "d7=RR c7=NB b7=NR a7=BB b6=PP a6=PN b5=PB a5=PR",
    );
    set_hand(&mut game, Color::Black, "NN");
    game.turns = 1;
    play(&mut game, "d4b5");
    let drops: BTreeSet<String> = texts(&game)
        .into_iter()
        .filter(|t| t.starts_with("drop NN@"))
        .collect();
    // c6 and b5 are Black's empty chosen squares; a4, the tenth region square, is not one.
    assert_eq!(drops, actions("drop NN@c6"));
    for text in ["drop NN@a4", "drop NN@d5"] {
        let err = refusal(&mut game, text);
        assert!(
            err.contains("is not one of your starting squares (a5 b5 a6 b6 c6 a7 b7 c7 d7)"),
            "{err}"
        );
    }
    let err = refusal(&mut game, "drop NN@c5");
    assert!(err.contains("it is one of the ten holes"), "{err}");
    play(&mut game, "drop NN@c6");
    assert_eq!(game.piece_at(adv("c6")).unwrap().kind, kind("NN"));
}

#[test]
fn rule_8_white_may_not_capture_on_its_first_move() {
    let mut game = game_with(&["board=advanced", "strategic-retreat"]);
    play(
        &mut game,
        "setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g4=PR hand=NN",
    );
    play(
        &mut game,
        "setup d7=RR c7=NB b7=NR a7=BB c6=BR b6=PP a6=PN b5=PB a4=PR hand=NN",
    );
    // With Strategic Retreat the bishop face on e2 (BR) could take its own f1, and the rook on
    // d1 its own e1: not on White's first turn.
    for text in ["d1e1", "e2f1"] {
        assert!(!texts(&game).contains(text), "{text}");
        let err = refusal(&mut game, text);
        assert!(
            err.contains("on the Advanced board (with its free setup) White may not capture"),
            "{err}"
        );
    }
    play(&mut game, "g4g5, flip g5, a4a3, flip a3");
    assert!(texts(&game).contains("d1e1"), "from the second turn on");
}

#[test]
fn belief_samples_are_uniform_over_the_setups_that_fit_the_view() {
    use crate::game::Belief;
    use std::collections::HashMap;
    let mut game = started(&[]);
    // White shows its own d2 (BB), Black shows White's c2 (NB).
    play(&mut game, "b3b4, flip d2, b7b6, flip c2");
    let belief = RealityCheckBelief::from_view(&game.view(Seat::Black)).unwrap();
    // Every White setup that fits, by brute force: the faces up of the diagram, d2 BB, c2 NB.
    let Action::Setup(truth) = game.log.actions[0] else {
        unreachable!("the first action is White's setup")
    };
    let mut fitting = Vec::new();
    let mut kinds = Kind::ALL;
    permute(&mut kinds, 0, &mut |kinds: &[Kind; 10]| {
        let fits = truth.placed.iter().enumerate().all(|(i, &(sq, up, _))| {
            let shown = match sq.to_string().as_str() {
                "d2" => Some(kind("BB")),
                "c2" => Some(kind("NB")),
                _ => None,
            };
            kinds[i].has(up) && shown.is_none_or(|k| k == kinds[i])
        });
        if fits {
            let placed = core::array::from_fn(|i| {
                let (sq, up, _) = truth.placed[i];
                (sq, up, kinds[i].other(up))
            });
            fitting.push(Setup::new(placed, kinds[9]));
        }
    });
    assert!((20..=2000).contains(&fitting.len()), "{}", fitting.len());
    let per = 100;
    let mut rng = StdRng::seed_from_u64(9);
    let mut seen: HashMap<Setup, usize> = HashMap::new();
    for _ in 0..per * fitting.len() {
        let sample = belief.sample(&mut rng);
        let Action::Setup(setup) = sample.log.actions[0] else {
            unreachable!("the first action is White's setup")
        };
        assert!(fitting.contains(&setup), "{setup} does not fit");
        *seen.entry(setup).or_default() += 1;
    }
    assert_eq!(seen.len(), fitting.len(), "every fitting setup is drawn");
    // 100 expected each: a standard deviation of 10.
    for (setup, n) in seen {
        assert!((50..=150).contains(&n), "{setup} drawn {n} times");
    }
}

fn permute(kinds: &mut [Kind; 10], k: usize, visit: &mut impl FnMut(&[Kind; 10])) {
    if k == kinds.len() {
        return visit(kinds);
    }
    for i in k..kinds.len() {
        kinds.swap(k, i);
        permute(kinds, k + 1, visit);
        kinds.swap(k, i);
    }
}
