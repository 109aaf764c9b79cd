//! Both 39-square boards checked against a slow reference written from the square names.

use super::square::NAMED;
use super::*;

/// The basic board, written out by hand rank by rank, in index order.
const NAMES: [&str; 39] = [
    "d1", //
    "c2", "d2", "e2", //
    "b3", "c3", "d3", "e3", "f3", //
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", //
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", //
    "a6", "b6", "c6", "d6", "e6", "f6", "g6", //
    "b7", "c7", "d7", "e7", "f7", //
    "c8", "d8", "e8", //
    "d9",
];

/// The Advanced board as the ruling draws it (RULINGS.md, Reality Check rule 8), rank 7 on top:
/// `-` is a hole, anything else a square.
const ADVANCED_DIAGRAM: [&str; 7] = [
    "x x x x . . .",
    "x x x - . . .",
    "x x - . - . .",
    "x - - . - - X",
    ". . - . - X X",
    ". . . - X X X",
    ". . . X X X X",
];

/// The Advanced board's square names read off the diagram, in index order.
fn advanced_names() -> Vec<String> {
    let mut names = Vec::new();
    for (row, line) in ADVANCED_DIAGRAM.iter().rev().enumerate() {
        for (file, mark) in line.split(' ').enumerate() {
            if mark != "-" {
                names.push(format!("{}{}", (b'a' + file as u8) as char, row + 1));
            }
        }
    }
    names
}

// The slow reference: coordinates from the names, membership by searching the list.

fn coords(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
}

fn exists(file: i32, rank: i32) -> bool {
    exists_in(&NAMES, file, rank)
}

fn exists_in<S: AsRef<str>>(names: &[S], file: i32, rank: i32) -> bool {
    names.iter().any(|n| coords(n.as_ref()) == (file, rank))
}

fn in_grid(file: i32, rank: i32) -> bool {
    (0..7).contains(&file) && (0..9).contains(&rank)
}

fn bit(file: i32, rank: i32) -> u64 {
    1 << (rank * 7 + file)
}

fn slow_leaper<S: AsRef<str>>(names: &[S], name: &str, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = coords(name);
    steps
        .iter()
        .filter(|&&(df, dr)| exists_in(names, f + df, r + dr))
        .map(|&(df, dr)| bit(f + df, r + dr))
        .fold(0, |a, b| a | b)
}

/// A slider's squares: it walks square by square and stops at the first piece, at the edge, or
/// at a hole (a cell that is not in `names`).
fn slow_slider<S: AsRef<str>>(names: &[S], name: &str, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = coords(name);
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while exists_in(names, f, r) {
            attacks |= bit(f, r);
            if occupied & bit(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn sq(name: &str) -> Square39 {
    Square39::parse(name).unwrap()
}

fn set(names: &[&str]) -> Bitboard39 {
    names.iter().map(|n| sq(n)).collect()
}

/// Pseudo-random occupancies from a fixed generator, sparse and dense, with stray bits outside
/// the diamond left in on purpose.
fn occupancies() -> impl Iterator<Item = Bitboard39> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    [0, !0]
        .into_iter()
        .map(Bitboard39)
        .chain((0..300).map(move |i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            Bitboard39(if i % 2 == 0 { x & x.rotate_left(17) } else { x })
        }))
}

#[test]
fn all_lists_the_39_squares_in_index_order() {
    assert_eq!(Square39::ALL.len(), 39);
    let names: Vec<String> = Square39::ALL.iter().map(|s| s.to_string()).collect();
    assert_eq!(names, NAMES);
    assert!(Square39::ALL.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(
        Square39::ALL.into_iter().collect::<Bitboard39>(),
        Bitboard39::BOARD
    );
    assert_eq!(Bitboard39::BOARD.count(), 39);
    for i in 0..63 {
        let cell = Square39::new(i);
        let (f, r) = (i32::from(cell.file()), i32::from(cell.rank()));
        assert_eq!(cell.is_on_board(), exists(f, r), "{cell}");
        assert_eq!(
            Square39::from_coords(cell.file(), cell.rank()).is_some(),
            exists(f, r)
        );
    }
}

#[test]
fn named_constants_match_their_names() {
    assert_eq!(NAMED.len(), 39);
    for &(sq, name) in NAMED {
        assert_eq!(sq.to_string(), name.to_lowercase());
        assert!(sq.is_on_board());
    }
}

#[test]
fn shape_has_no_gaps_along_any_line() {
    // From every square, walk each way across the whole grid: once outside the diamond, the
    // walk never comes back in. So a ray that leaves the board is over.
    for name in NAMES {
        for &(df, dr) in ROOK.iter().chain(&BISHOP) {
            let (mut f, mut r) = coords(name);
            let mut left = false;
            while in_grid(f, r) {
                if !exists(f, r) {
                    left = true;
                } else {
                    assert!(!left, "line from {name} by ({df}, {dr}) re-enters");
                }
                f += df;
                r += dr;
            }
        }
    }
}

#[test]
fn leapers_match_slow_walk() {
    let king: Vec<_> = ROOK.iter().chain(&BISHOP).copied().collect();
    for name in NAMES {
        let s = sq(name);
        assert_eq!(
            knight_attacks(s).0,
            slow_leaper(&NAMES, name, &KNIGHT),
            "knight {name}"
        );
        assert_eq!(
            king_attacks(s).0,
            slow_leaper(&NAMES, name, &king),
            "king {name}"
        );
        assert_eq!(
            orthogonal_neighbours(s).0,
            slow_leaper(&NAMES, name, &ROOK),
            "orthogonal step {name}"
        );
        assert_eq!(
            diagonal_neighbours(s).0,
            slow_leaper(&NAMES, name, &BISHOP),
            "diagonal step {name}"
        );
    }
    // Nothing stands outside the diamond, so nothing attacks from there.
    for off in (0..63).map(Square39::new).filter(|s| !s.is_on_board()) {
        assert!(knight_attacks(off).is_empty() && king_attacks(off).is_empty());
        assert!(queen_attacks(off, Bitboard39::EMPTY).is_empty());
    }
}

#[test]
fn sliders_match_slow_walk() {
    for name in NAMES {
        let s = sq(name);
        for occ in occupancies() {
            let rook = slow_slider(&NAMES, name, occ.0, &ROOK);
            let bishop = slow_slider(&NAMES, name, occ.0, &BISHOP);
            assert_eq!(rook_attacks(s, occ).0, rook, "rook {name} {occ:?}");
            assert_eq!(bishop_attacks(s, occ).0, bishop, "bishop {name} {occ:?}");
            assert_eq!(
                queen_attacks(s, occ).0,
                rook | bishop,
                "queen {name} {occ:?}"
            );
        }
    }
}

#[test]
fn moves_from_edge_squares_by_hand() {
    let empty = Bitboard39::EMPTY;
    // b2 and f2 are outside the diamond.
    assert_eq!(knight_attacks(Square39::D1), set(&["c3", "e3"]));
    assert_eq!(knight_attacks(Square39::A5), set(&["b3", "c4", "c6", "b7"]));
    assert_eq!(knight_attacks(Square39::D5).count(), 8);
    assert_eq!(king_attacks(Square39::D9), set(&["c8", "d8", "e8"]));
    assert_eq!(orthogonal_neighbours(Square39::D1), set(&["d2"]));
    assert_eq!(diagonal_neighbours(Square39::D1), set(&["c2", "e2"]));
    assert_eq!(orthogonal_neighbours(Square39::A4), set(&["a5", "b4"]));
    assert_eq!(diagonal_neighbours(Square39::A4), set(&["b3", "b5"]));
    assert_eq!(
        rook_attacks(Square39::A4, empty),
        set(&["b4", "c4", "d4", "e4", "f4", "g4", "a5", "a6"])
    );
    assert_eq!(
        rook_attacks(Square39::D1, empty),
        set(&["d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"])
    );
    assert_eq!(
        bishop_attacks(Square39::D1, empty),
        set(&["c2", "b3", "a4", "e2", "f3", "g4"])
    );
    // f9 is outside: the long diagonal from a4 ends on e8.
    assert_eq!(
        bishop_attacks(Square39::A4, empty),
        set(&["b5", "c6", "d7", "e8", "b3", "c2", "d1"])
    );
    let blockers = set(&["d7", "b5", "d2", "f5"]);
    assert_eq!(
        rook_attacks(Square39::D5, blockers),
        set(&["d6", "d7", "c5", "b5", "e5", "f5", "d4", "d3", "d2"])
    );
}

#[test]
fn parse_display_and_errors() {
    for name in NAMES {
        let s: Square39 = name.parse().unwrap();
        assert_eq!(s.to_string(), name);
        assert_eq!(format!("{s:?}"), name);
    }
    for bad in ["a1", "g9", "h1", "d10", "d0", "D1", "", "d", "é1"] {
        let err = bad.parse::<Square39>().unwrap_err();
        assert_eq!(err.text(), bad);
        let message = err.to_string();
        let quoted = format!("invalid square {bad:?} for the basic board: ");
        assert!(message.starts_with(&quoted), "{message}");
    }
    assert!(matches!(
        Square39::parse("a1"),
        Err(ParseSquare39Error::OffBoard(_, Shape::Basic))
    ));
    assert!(matches!(
        Square39::parse("h1"),
        Err(ParseSquare39Error::Malformed(_, Shape::Basic))
    ));
}

#[test]
fn coordinates_offsets_and_flips() {
    assert_eq!(Square39::from_coords(3, 0), Some(Square39::D1));
    assert_eq!(Square39::from_coords(0, 0), None);
    assert_eq!(Square39::from_coords(7, 4), None);
    assert_eq!(Square39::D1.offset(0, 8), Some(Square39::D9));
    assert_eq!(Square39::D1.offset(-1, 0), None);
    assert_eq!(Square39::G5.offset(1, 0), None); // would wrap onto a6 by index
    assert_eq!(Square39::D5.offset(i32::MAX, i32::MIN), None);
    assert_eq!(Square39::try_new(63), None);
    let g9 = Square39::new(62);
    assert_eq!(
        (g9.to_string(), g9.is_on_board()),
        ("g9".to_string(), false)
    );
    assert_eq!(Square39::D1.flip_vertical(), Square39::D9);
    assert_eq!(Square39::A4.flip_vertical(), Square39::A6);
    assert_eq!(Square39::A5.flip_vertical(), Square39::A5);
    for s in Square39::ALL {
        assert!(s.flip_vertical().is_on_board());
        assert_eq!(s.flip_vertical().flip_vertical(), s);
    }
}

#[test]
fn set_operations() {
    let a = set(&["d1", "a4", "g6"]);
    assert_eq!((a & Square39::A4).single(), Some(Square39::A4));
    assert_eq!((a | Square39::D9).count(), 4);
    assert_eq!(a ^ Square39::D1, set(&["a4", "g6"]));
    assert_eq!(a - Square39::D1, a.without(Square39::D1));
    assert_eq!(a.first(), Some(Square39::D1));
    assert_eq!(a.single(), None);
    assert!(a.more_than_one() && a.any() && !a.is_empty());
    assert_eq!(a.len(), 3);
    assert_eq!(
        a.collect::<Vec<_>>(),
        [Square39::D1, Square39::A4, Square39::G6]
    );
    let mut b = Bitboard39::EMPTY;
    b |= Square39::C2;
    b ^= a;
    b = b.without(Square39::G6);
    assert_eq!(b, set(&["c2", "d1", "a4"]));
    assert_eq!(
        Bitboard39::BOARD - Bitboard39::EMPTY,
        Shape::Basic.squares()
    );
}

#[test]
fn debug_draws_the_diamond() {
    let text = format!("{:?}", set(&["d1", "a5", "d9"]));
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(
        rows[0],
        format!("Bitboard39({:#018x})", (1u64 << 3) | (1 << 28) | (1 << 59))
    );
    assert_eq!(
        rows[1..],
        [
            "       X",
            "     . . .",
            "   . . . . .",
            " . . . . . . .",
            " X . . . . . .",
            " . . . . . . .",
            "   . . . . .",
            "     . . .",
            "       X",
        ]
    );
}

// The Advanced board (RULINGS.md, Reality Check rule 8).

fn adv(name: &str) -> Square39 {
    Shape::Advanced.parse_square(name).unwrap()
}

fn adv_set(names: &[&str]) -> Bitboard39 {
    names.iter().map(|n| adv(n)).collect()
}

#[test]
fn advanced_board_has_39_squares_and_the_ruling_s_ten_holes() {
    let names = advanced_names();
    assert_eq!(names.len(), 39);
    let listed: Vec<String> = Shape::Advanced
        .all()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(listed, names);
    assert_eq!(Shape::Advanced.squares().count(), 39);
    let holes: Vec<String> = Shape::Advanced.holes().map(|s| s.to_string()).collect();
    assert_eq!(
        holes,
        ["d2", "c3", "e3", "b4", "c4", "e4", "f4", "c5", "e5", "d6"]
    );
    // Every cell of the 7x7 frame is a square or a hole; nothing above rank 7 is either.
    assert_eq!(
        (Shape::Advanced.squares() | Shape::Advanced.holes()).0,
        (1 << 49) - 1
    );
    for i in 0..63 {
        let cell = Square39::new(i);
        let (f, r) = (i32::from(cell.file()), i32::from(cell.rank()));
        assert_eq!(
            Shape::Advanced.contains(cell),
            exists_in(&names, f, r),
            "{cell}"
        );
        assert_eq!(Shape::Advanced.has(f, r), exists_in(&names, f, r), "{cell}");
    }
    // Symmetric under a half turn, as the ruling reads it.
    for name in &names {
        let (f, r) = coords(name);
        assert!(exists_in(&names, 6 - f, 6 - r), "{name}");
    }
    // The basic board's 24 cells outside the diamond.
    assert_eq!(Shape::Basic.holes().count(), 63 - 39);
    assert_eq!(Shape::Basic.all(), &Square39::ALL);
}

#[test]
fn advanced_board_leapers_and_sliders_match_slow_walk() {
    let names = advanced_names();
    let king: Vec<_> = ROOK.iter().chain(&BISHOP).copied().collect();
    let shape = Shape::Advanced;
    for name in &names {
        let s = adv(name);
        assert_eq!(
            shape.knight_attacks(s).0,
            slow_leaper(&names, name, &KNIGHT),
            "knight {name}"
        );
        assert_eq!(shape.king_attacks(s).0, slow_leaper(&names, name, &king));
        assert_eq!(
            shape.orthogonal_neighbours(s).0,
            slow_leaper(&names, name, &ROOK)
        );
        assert_eq!(
            shape.diagonal_neighbours(s).0,
            slow_leaper(&names, name, &BISHOP)
        );
        for occ in occupancies() {
            let rook = slow_slider(&names, name, occ.0, &ROOK);
            let bishop = slow_slider(&names, name, occ.0, &BISHOP);
            assert_eq!(shape.rook_attacks(s, occ).0, rook, "rook {name} {occ:?}");
            assert_eq!(shape.bishop_attacks(s, occ).0, bishop, "bishop {name}");
            assert_eq!(shape.queen_attacks(s, occ).0, rook | bishop);
        }
    }
    // Nothing stands on a hole or outside the frame, so nothing attacks from there.
    for off in (0..63).map(Square39::new).filter(|&s| !shape.contains(s)) {
        assert!(shape.knight_attacks(off).is_empty() && shape.king_attacks(off).is_empty());
        assert!(shape.queen_attacks(off, Bitboard39::EMPTY).is_empty());
    }
}

#[test]
fn advanced_board_holes_stop_sliders_and_knights_jump_them_by_hand() {
    let shape = Shape::Advanced;
    let empty = Bitboard39::EMPTY;
    // d2 is a hole: the rook on d1 has only its rank.
    assert_eq!(
        shape.rook_attacks(adv("d1"), empty),
        adv_set(&["a1", "b1", "c1", "e1", "f1", "g1"])
    );
    // d4 stands alone on its rank between four holes; up and down the d-file it meets d6 and d2.
    assert_eq!(shape.rook_attacks(adv("d4"), empty), adv_set(&["d3", "d5"]));
    // The bishop on d3 is walled in above by c4 and e4.
    assert_eq!(
        shape.bishop_attacks(adv("d3"), empty),
        adv_set(&["c2", "b1", "e2", "f1"])
    );
    // A diagonal passes between two holes at their corner: c2 to d3 (c3 and d2 are holes).
    assert!(shape.bishop_attacks(adv("c2"), empty).contains(adv("d3")));
    // The long diagonal a7-g1 is cut by c5 and e3.
    assert_eq!(shape.bishop_attacks(adv("a7"), empty), adv_set(&["b6"]));
    // The knight on d4 jumps the six holes around it onto all eight of its squares.
    assert_eq!(
        shape.knight_attacks(adv("d4")),
        adv_set(&["c6", "e6", "b5", "f5", "b3", "f3", "c2", "e2"])
    );
    // A pawn steps only onto squares: from d3 its only orthogonal step is d4.
    assert_eq!(shape.orthogonal_neighbours(adv("d3")), adv_set(&["d4"]));
    assert_eq!(shape.diagonal_neighbours(adv("d3")), adv_set(&["c2", "e2"]));
}

#[test]
fn advanced_board_square_names_and_errors() {
    let shape = Shape::Advanced;
    for name in advanced_names() {
        let s = shape.parse_square(&name).unwrap();
        assert_eq!(s.to_string(), name);
        assert_eq!(Square39::parse_any(&name), Ok(s));
    }
    for hole in ["d6", "c5", "e5", "b4", "c4", "e4", "f4", "c3", "e3", "d2"] {
        let err = shape.parse_square(hole).unwrap_err();
        assert!(matches!(
            err,
            ParseSquare39Error::OffBoard(_, Shape::Advanced)
        ));
        assert_eq!(
            err.to_string(),
            format!(
                "invalid square {hole:?} for the Advanced board: it is one of the ten holes \
                 (d6 c5 e5 b4 c4 e4 f4 c3 e3 d2), which are not squares"
            )
        );
    }
    for bad in ["d8", "d9", "h1", "a0", "", "D4"] {
        let err = shape.parse_square(bad).unwrap_err();
        assert!(
            matches!(err, ParseSquare39Error::Malformed(_, Shape::Advanced)),
            "{bad}"
        );
        assert!(err.to_string().contains("a rank 1-7"), "{err}");
    }
    // Data holds squares of either board: a1 is the Advanced board's, d9 the basic board's.
    assert_eq!(
        serde_json::from_str::<Square39>("\"a1\"").unwrap(),
        adv("a1")
    );
    assert_eq!(
        serde_json::from_str::<Square39>("\"d9\"").unwrap(),
        Square39::D9
    );
    let err = serde_json::from_str::<Square39>("\"a9\"").unwrap_err();
    assert!(err.to_string().contains("outside the diamond"), "{err}");
    assert_eq!(Shape::from_name("advanced"), Some(Shape::Advanced));
    assert_eq!(Shape::from_name("basic"), Some(Shape::Basic));
    assert_eq!(Shape::from_name("diamond"), None);
}

#[test]
fn advanced_board_offsets_stay_on_the_board() {
    let shape = Shape::Advanced;
    assert_eq!(shape.offset(adv("d1"), 0, 1), None, "d2 is a hole");
    assert_eq!(shape.offset(adv("d1"), 0, 2), Some(adv("d3")));
    assert_eq!(shape.offset(adv("g7"), 1, 0), None);
    assert_eq!(shape.offset(adv("g7"), 0, 1), None, "no rank 8");
    assert_eq!(shape.offset(adv("a1"), i32::MIN, i32::MAX), None);
    assert_eq!(shape.square(3, 5), None);
    assert_eq!(shape.square(0, 6), Some(adv("a7")));
}
