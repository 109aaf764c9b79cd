//! Forsyth-Edwards Notation: reading with errors that name the field and the problem, and writing.

use super::position::Position;
use super::position::{castling, CASTLING_MOVES};
use crate::board::{Bitboard, Color, Piece, Role, Square};
use core::fmt::{self, Write as _};
use core::str::FromStr;

/// The FEN piece placement field of the pieces `piece_at` gives, from rank 8 down.
pub fn placement(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut out = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match piece_at(Square::new(rank * 8 + file)) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(piece.char());
                }
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// FEN text that does not describe a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN: {field}: {problem}")]
pub struct FenError {
    /// The part of the FEN at fault (`piece placement`, `side to move`, ...; `position` for
    /// problems of the whole).
    pub field: &'static str,
    /// What is wrong.
    pub problem: String,
}

fn fail<T>(field: &'static str, problem: impl Into<String>) -> Result<T, FenError> {
    Err(FenError {
        field,
        problem: problem.into(),
    })
}

const CASTLING_LETTERS: [(char, u8); 4] = [
    ('K', castling::WHITE_KING_SIDE),
    ('Q', castling::WHITE_QUEEN_SIDE),
    ('k', castling::BLACK_KING_SIDE),
    ('q', castling::BLACK_QUEEN_SIDE),
];

impl Default for Position {
    /// The start position.
    fn default() -> Position {
        Position::from_fen(START).expect("the start FEN is valid")
    }
}

impl Position {
    /// Reads a FEN. The clocks may be left out (they then read `0 1`). An en passant square is
    /// kept only when an en passant capture is legal, as the repetition rule counts it.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(fields.len() == 4 || fields.len() == 6) {
            return fail(
                "fields",
                format!(
                    "found {} fields, expected 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number) or the first 4",
                    fields.len()
                ),
            );
        }
        let mut pos = Position::empty();
        read_placement(&mut pos, fields[0])?;
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return fail("side to move", format!("{other:?} is not w or b")),
        };
        pos.castling = read_castling(fields[2])?;
        let ep = read_ep(fields[3])?;
        if fields.len() == 6 {
            pos.halfmove_clock = read_number("halfmove clock", fields[4], 0)?;
            pos.fullmove_number = read_number("fullmove number", fields[5], 1)?;
        }
        validate(&pos)?;
        if let Some(ep) = ep {
            validate_ep(&pos, ep)?;
            let capturers = crate::board::attacks::pawn_attacks(!pos.turn, ep)
                & pos.pieces(pos.turn, Role::Pawn);
            if capturers.into_iter().any(|from| pos.ep_is_legal(from, ep)) {
                pos.ep_square = Some(ep);
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        let mut out = placement(|sq| self.piece_at(sq));
        out.push_str(if self.turn == Color::White {
            " w "
        } else {
            " b "
        });
        let rights: String = CASTLING_LETTERS
            .iter()
            .filter(|(_, bit)| self.castling & bit != 0)
            .map(|(c, _)| *c)
            .collect();
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        match self.ep_square {
            Some(sq) => {
                let _ = write!(out, " {sq}");
            }
            None => out.push_str(" -"),
        }
        let _ = write!(out, " {} {}", self.halfmove_clock, self.fullmove_number);
        out
    }
}

fn read_placement(pos: &mut Position, text: &str) -> Result<(), FenError> {
    const FIELD: &str = "piece placement";
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return fail(FIELD, format!("found {} ranks, expected 8", ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        for c in rank_text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                file += n;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    pos.by_color[piece.color.index()] |= Square::new(rank * 8 + file);
                    pos.by_role[piece.role.index()] |= Square::new(rank * 8 + file);
                }
                file += 1;
            } else {
                return fail(
                    FIELD,
                    format!(
                        "{c:?} on rank {} is not a piece letter or digit 1-8",
                        rank + 1
                    ),
                );
            }
        }
        if file != 8 {
            return fail(
                FIELD,
                format!("rank {} has {file} squares, expected 8", rank + 1),
            );
        }
    }
    Ok(())
}

fn read_castling(text: &str) -> Result<u8, FenError> {
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in text.chars() {
        match CASTLING_LETTERS.iter().find(|(letter, _)| *letter == c) {
            Some((_, bit)) if rights & bit == 0 => rights |= bit,
            Some(_) => return fail("castling", format!("{c:?} appears twice")),
            None => return fail("castling", format!("{c:?} is not one of K, Q, k, q or -")),
        }
    }
    Ok(rights)
}

fn read_ep(text: &str) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    match Square::parse(text) {
        Some(sq) => Ok(Some(sq)),
        None => fail("en passant", format!("{text:?} is not a square or -")),
    }
}

fn read_number(field: &'static str, text: &str, min: u32) -> Result<u32, FenError> {
    match text.parse::<u32>() {
        Ok(n) if n >= min && n < 100_000 => Ok(n),
        _ => fail(
            field,
            format!("{text:?} is not a whole number from {min} to 99999"),
        ),
    }
}

fn validate(pos: &Position) -> Result<(), FenError> {
    const FIELD: &str = "position";
    for color in Color::ALL {
        let kings = pos.pieces(color, Role::King).count();
        if kings != 1 {
            return fail(FIELD, format!("{color} has {kings} kings, expected 1"));
        }
        // A side starts with sixteen and can never gain one.
        let pieces = pos.by_color[color.index()].count();
        if pieces > 16 {
            return fail(FIELD, format!("{color} has {pieces} pieces, at most 16"));
        }
    }
    if (pos.by_role(Role::Pawn) & Bitboard::BACKRANKS).any() {
        return fail(FIELD, "a pawn stands on the first or last rank");
    }
    let them = !pos.turn;
    if pos
        .attackers(pos.king(them), pos.turn, pos.occupied())
        .any()
    {
        return fail(
            FIELD,
            format!("{them} is in check but it is not {them}'s move"),
        );
    }
    for castle in &CASTLING_MOVES {
        if pos.castling & castle.right == 0 {
            continue;
        }
        let color = if castle.right & (castling::WHITE_KING_SIDE | castling::WHITE_QUEEN_SIDE) != 0
        {
            Color::White
        } else {
            Color::Black
        };
        if !pos.pieces(color, Role::King).contains(castle.king_from)
            || !pos.pieces(color, Role::Rook).contains(castle.rook_from)
        {
            return fail(
                "castling",
                format!(
                    "a {color} castling right needs the king on {} and a rook on {}",
                    castle.king_from, castle.rook_from
                ),
            );
        }
    }
    Ok(())
}

fn validate_ep(pos: &Position, ep: Square) -> Result<(), FenError> {
    let them = !pos.turn;
    let expected_rank = if pos.turn == Color::White { 5 } else { 2 };
    let pushed = Square::from_coords(
        ep.file(),
        crate::board::Rank::new(if pos.turn == Color::White { 4 } else { 3 }),
    );
    let origin = Square::from_coords(
        ep.file(),
        crate::board::Rank::new(if pos.turn == Color::White { 6 } else { 1 }),
    );
    if ep.rank().index() != expected_rank
        || !pos.pieces(them, Role::Pawn).contains(pushed)
        || pos.occupied().contains(ep)
        || pos.occupied().contains(origin)
    {
        return fail(
            "en passant",
            format!("{ep} is not the square a {them} pawn just passed with a double step"),
        );
    }
    Ok(())
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
