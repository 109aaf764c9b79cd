//! Differential test against cozy-chess: random games from the perft suite's positions (and a few
//! extra en passant, castling and promotion positions), comparing at every position the set of
//! legal moves and the FEN.
//!
//! Two conventions differ and are translated here:
//! - cozy-chess writes castling as the king taking its own rook (`e1h1`); we write the king's
//!   two-square move (`e1g1`);
//! - cozy-chess records an en passant file after every double push; we record the square only when
//!   an en passant capture is legal. So our en passant field must be the square exactly when
//!   cozy-chess lists a legal en passant capture, and `-` otherwise.
//!
//! cozy-chess also caps its halfmove clock at 100, so a clock above 100 is compared as 100.
//!
//! `cargo test` plays a few thousand positions; `cargo test --release -- --ignored` plays hundreds
//! of thousands.

use bluffchess_rules::board::Role;
use bluffchess_rules::chess::{Move, Position};
use cozy_chess::{Board, File, Piece, Rank, Square};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The FENs of `data/perft.txt` (the start position and the 6 other classic perft positions).
fn perft_fens() -> Vec<String> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split(';').next().unwrap().trim().to_string())
        .collect()
}

/// A few more start points, for the corners the comparison is about.
const EXTRA_FENS: &[&str] = &[
    // En passant d3 would expose the black king on a4 to the queen on h4: not recorded by us.
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    // En passant that captures the checking pawn.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // A black pawn pinned on the long diagonal: exf3 stays on the pin line, exd3 leaves it.
    "k7/8/8/8/4p3/8/3P1P2/4K2B w - - 0 1",
    // Pawns ready to double-push past enemy pawns, kings on the fifth/fourth rank.
    "8/2p5/8/KP5r/5p1k/8/4P1P1/8 b - - 0 1",
    // Castling in every direction.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    // Promotions on both sides, with captures.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// How a move is special, for the statistics that keep the test from silently weakening.
#[derive(Default, Debug)]
struct Seen {
    positions: u64,
    games: u64,
    promotions: u64,
    under_promotions: u64,
    castles: u64,
    queen_side_castles: u64,
    en_passants: u64,
    /// Double pushes after which cozy-chess records a file but no capture is legal.
    ep_not_recorded: u64,
    /// Positions where we record an en passant square.
    ep_recorded: u64,
    checkmates: u64,
    stalemates: u64,
    clock_over_100: u64,
}

/// Our UCI text for a cozy-chess move: castling becomes the king's two-square move.
fn cozy_to_uci(board: &Board, mv: cozy_chess::Move) -> String {
    let us = board.side_to_move();
    if board.piece_on(mv.from) == Some(Piece::King) && board.colors(us).has(mv.to) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        let to = Square::new(file, mv.from.rank());
        return format!("{}{}", mv.from, to);
    }
    mv.to_string()
}

/// cozy-chess's legal moves, keyed by our UCI text.
fn cozy_moves(board: &Board) -> HashMap<String, cozy_chess::Move> {
    let mut moves = HashMap::new();
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            let previous = moves.insert(cozy_to_uci(board, mv), mv);
            assert!(previous.is_none(), "cozy-chess listed {mv} twice");
        }
        false
    });
    moves
}

/// The en passant square if cozy-chess has a legal en passant capture.
fn cozy_legal_ep(board: &Board, moves: &HashMap<String, cozy_chess::Move>) -> Option<Square> {
    let file = board.en_passant()?;
    let sq = Square::new(file, Rank::Third.relative_to(!board.side_to_move()));
    moves
        .values()
        .any(|mv| mv.to == sq && board.piece_on(mv.from) == Some(Piece::Pawn))
        .then_some(sq)
}

/// What cozy-chess's FEN should read in our conventions.
fn expected_fen(board: &Board, legal_ep: Option<Square>) -> String {
    let cozy = board.to_string();
    let fields: Vec<&str> = cozy.split(' ').collect();
    assert_eq!(fields.len(), 6, "cozy FEN {cozy}");
    let ep = legal_ep.map_or_else(|| "-".to_string(), |sq| sq.to_string());
    format!(
        "{} {} {} {ep} {} {}",
        fields[0], fields[1], fields[2], fields[4], fields[5]
    )
}

/// Our FEN with the halfmove clock capped at 100 as cozy-chess caps it.
fn our_fen_capped(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let clock: u32 = fields[4].parse().unwrap();
    fields[4] = clock.min(100).to_string();
    fields.join(" ")
}

struct Game<'a> {
    start: &'a str,
    played: Vec<String>,
}

impl Game<'_> {
    fn context(&self) -> String {
        let mut text = format!("from {:?} after", self.start);
        if self.played.is_empty() {
            text.push_str(" no moves");
        }
        for mv in &self.played {
            let _ = write!(text, " {mv}");
        }
        text
    }
}

/// Compares the position and its legal moves; returns cozy-chess's moves by our UCI text.
fn compare(
    pos: &Position,
    board: &Board,
    game: &Game,
    seen: &mut Seen,
) -> HashMap<String, cozy_chess::Move> {
    seen.positions += 1;
    let theirs = cozy_moves(board);
    let legal_ep = cozy_legal_ep(board, &theirs);

    assert_eq!(
        our_fen_capped(pos),
        expected_fen(board, legal_ep),
        "FEN differs (cozy-chess: {board}) {}",
        game.context()
    );
    assert_eq!(
        pos.ep_square().map(|sq| sq.to_string()),
        legal_ep.map(|sq| sq.to_string()),
        "en passant square differs {}",
        game.context()
    );
    if board.en_passant().is_some() && legal_ep.is_none() {
        seen.ep_not_recorded += 1;
    }
    if legal_ep.is_some() {
        seen.ep_recorded += 1;
    }
    if pos.halfmove_clock() > 100 {
        seen.clock_over_100 += 1;
    }
    assert_eq!(pos.hash(), pos.compute_hash(), "hash {}", game.context());
    assert_eq!(
        pos.is_check(),
        !board.checkers().is_empty(),
        "check differs at {} {}",
        pos.fen(),
        game.context()
    );

    let ours = pos.legal_moves();
    let mut ours_text: Vec<String> = ours.iter().map(|mv| mv.to_string()).collect();
    ours_text.sort();
    let mut theirs_text: Vec<String> = theirs.keys().cloned().collect();
    theirs_text.sort();
    if ours_text != theirs_text {
        let missing: Vec<&String> = theirs_text
            .iter()
            .filter(|m| !ours_text.contains(m))
            .collect();
        let extra: Vec<&String> = ours_text
            .iter()
            .filter(|m| !theirs_text.contains(m))
            .collect();
        panic!(
            "legal moves differ at {}: missing {missing:?}, extra {extra:?} {}",
            pos.fen(),
            game.context()
        );
    }
    assert_eq!(ours.len(), ours_text.len());
    theirs
}

/// Notes what kind of move `mv` is in `pos`.
fn classify(pos: &Position, mv: Move, seen: &mut Seen) {
    let role = pos.role_at(mv.from).unwrap();
    if let Some(promotion) = mv.promotion {
        seen.promotions += 1;
        if promotion != Role::Queen {
            seen.under_promotions += 1;
        }
    }
    if role == Role::King && mv.from.index().abs_diff(mv.to.index()) == 2 {
        seen.castles += 1;
        if mv.to.file().index() == 2 {
            seen.queen_side_castles += 1;
        }
    }
    if role == Role::Pawn && mv.from.file() != mv.to.file() && pos.piece_at(mv.to).is_none() {
        seen.en_passants += 1;
    }
}

/// Whether `mv` castles, captures en passant or promotes in `pos`.
fn is_special(pos: &Position, mv: Move) -> bool {
    let role = pos.role_at(mv.from).unwrap();
    mv.promotion.is_some()
        || (role == Role::King && mv.from.index().abs_diff(mv.to.index()) == 2)
        || (role == Role::Pawn && mv.from.file() != mv.to.file() && pos.piece_at(mv.to).is_none())
}

/// How a random game picks its moves.
#[derive(Clone, Copy, Debug)]
enum Pick {
    /// Uniformly from our legal moves.
    Ours,
    /// Uniformly from cozy-chess's legal moves.
    Cozy,
    /// From our legal moves, but castling, en passant and promotions whenever there are any.
    OursSpecialFirst,
}

/// Plays one random game from `start`, comparing every position.
fn play_game(start: &str, seed: u64, max_plies: usize, pick: Pick, seen: &mut Seen) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::from_fen(start).unwrap();
    let mut board: Board = start.parse().unwrap();
    let mut game = Game {
        start,
        played: Vec::new(),
    };
    // Our hash must be a function of the FEN without the clocks (and the other way round).
    let mut hashes: HashMap<u64, String> = HashMap::new();
    let mut keys: HashMap<String, u64> = HashMap::new();
    seen.games += 1;
    for _ in 0..max_plies {
        let theirs = compare(&pos, &board, &game, seen);
        let fen = pos.fen();
        let key = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        let known = hashes.entry(pos.hash()).or_insert_with(|| key.clone());
        assert_eq!(*known, key, "two positions share a hash {}", game.context());
        let known = keys.entry(key).or_insert(pos.hash());
        assert_eq!(
            *known,
            pos.hash(),
            "one position, two hashes {}",
            game.context()
        );
        if theirs.is_empty() {
            if pos.is_check() {
                seen.checkmates += 1;
            } else {
                seen.stalemates += 1;
            }
            return;
        }
        if pos.is_insufficient_material() || pos.halfmove_clock() >= 150 {
            return;
        }
        let mv = match pick {
            Pick::Ours => {
                let moves = pos.legal_moves();
                moves[rng.random_range(0..moves.len())]
            }
            Pick::Cozy => {
                let mut keys: Vec<&String> = theirs.keys().collect();
                keys.sort();
                keys[rng.random_range(0..keys.len())].parse().unwrap()
            }
            Pick::OursSpecialFirst => {
                let moves = pos.legal_moves();
                let special: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&mv| is_special(&pos, mv))
                    .collect();
                if special.is_empty() {
                    moves[rng.random_range(0..moves.len())]
                } else {
                    special[rng.random_range(0..special.len())]
                }
            }
        };
        let text = mv.to_string();
        let cozy_mv = theirs[&text];
        classify(&pos, mv, seen);
        game.played.push(text);

        let before = pos;
        pos.play_unchecked(mv);
        assert_ne!(pos, before);
        board.play_unchecked(cozy_mv);
    }
    compare(&pos, &board, &game, seen);
}

fn run(games_per_start: u64, max_plies: usize, seed: u64) -> Seen {
    let mut seen = Seen::default();
    let perft = perft_fens();
    assert_eq!(
        perft.len(),
        7,
        "the start position and the 6 perft positions"
    );
    let starts: Vec<&str> = perft
        .iter()
        .map(String::as_str)
        .chain(EXTRA_FENS.iter().copied())
        .collect();
    for (i, start) in starts.iter().enumerate() {
        for game in 0..games_per_start {
            let game_seed = seed ^ ((i as u64) << 32) ^ game;
            let pick = [Pick::Ours, Pick::Cozy, Pick::OursSpecialFirst][game as usize % 3];
            play_game(start, game_seed, max_plies, pick, &mut seen);
        }
    }
    // The random games must have reached every special move, or the test has weakened.
    assert!(seen.promotions > 0, "no promotion played: {seen:?}");
    assert!(
        seen.under_promotions > 0,
        "no under-promotion played: {seen:?}"
    );
    assert!(seen.castles > 0, "no castling played: {seen:?}");
    assert!(
        seen.queen_side_castles > 0,
        "no queen-side castling: {seen:?}"
    );
    assert!(seen.en_passants > 0, "no en passant played: {seen:?}");
    assert!(seen.ep_recorded > 0, "no legal en passant seen: {seen:?}");
    assert!(
        seen.ep_not_recorded > 0,
        "no double push without a legal capture seen: {seen:?}"
    );
    assert!(seen.checkmates > 0, "no checkmate reached: {seen:?}");
    seen
}

#[test]
fn random_games_agree_with_cozy_chess() {
    let seen = run(24, 300, 0x00c0_ffee);
    eprintln!("{seen:?}");
    assert!(seen.positions >= 20_000, "{seen:?}");
}

#[test]
fn start_position_games_reach_special_moves() {
    // From the start position alone, random games still reach promotions and en passant.
    let mut seen = Seen::default();
    let start = &perft_fens()[0];
    for game in 0..40 {
        let pick = if game % 2 == 0 {
            Pick::Cozy
        } else {
            Pick::Ours
        };
        play_game(start, 0xbeef + game, 400, pick, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.promotions > 0, "{seen:?}");
    assert!(seen.en_passants > 0, "{seen:?}");
    assert!(seen.castles > 0, "{seen:?}");
}

#[test]
#[ignore = "hundreds of thousands of positions: run with --release"]
fn many_random_games_agree_with_cozy_chess() {
    let seen = run(300, 400, 0x5eed_1234);
    eprintln!("{seen:?}");
    assert!(seen.positions >= 300_000, "{seen:?}");
}
