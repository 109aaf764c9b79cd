//! Standard algebraic notation (SAN), as players type it: `e4`, `Nf3`, `exd5`, `Nbd2`, `O-O`,
//! `e8=Q`. Reading resolves the text against a list of legal moves (a variant may allow fewer
//! than orthodox chess), so the result is always one of them.
//!
//! ```
//! use bluffchess_rules::chess::{san, Position};
//! let pos = Position::default();
//! let legal = pos.legal_moves();
//! let mv = san::parse(&pos, &legal, "Nf3")?;
//! assert_eq!(mv.to_string(), "g1f3");
//! assert_eq!(san::write(&pos, mv), "Nf3");
//! # Ok::<(), bluffchess_rules::chess::san::SanError>(())
//! ```

use super::moves::Move;
use super::position::Position;
use crate::board::{File, Rank, Role, Square};

/// Text that names no single legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// Not SAN at all.
    #[error("not a move in SAN or UCI (e4, Nf3, O-O, exd5, e8=Q, or e2e4)")]
    Malformed,
    /// SAN, but no legal move fits it.
    #[error("no legal move fits {0}")]
    NoMove(String),
    /// A pawn reaching the last rank without its promotion.
    #[error("{0} reaches the last rank: name the promotion ({0}=Q, =R, =B or =N)")]
    NoPromotion(String),
    /// Several legal moves fit it.
    #[error("{text} is ambiguous: it could be {moves}; add the file or rank of the piece")]
    Ambiguous {
        /// The text read.
        text: String,
        /// The moves it fits, in UCI.
        moves: String,
    },
}

/// What a SAN text asks for.
#[derive(Debug, PartialEq, Eq)]
struct Wanted {
    role: Role,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

/// Reads SAN: the one move of `legal` that `text` names in `pos`.
pub fn parse(pos: &Position, legal: &[Move], text: &str) -> Result<Move, SanError> {
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    if let Some(long) = castling_side(core) {
        return castling(pos, legal, long).ok_or_else(|| SanError::NoMove(core.to_string()));
    }
    let wanted = read(core).ok_or(SanError::Malformed)?;
    let fits: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| matches(pos, &wanted, mv))
        .collect();
    match fits.as_slice() {
        [mv] => Ok(*mv),
        [] if wanted.role == Role::Pawn && wanted.promotion.is_none() => {
            let promotes = legal.iter().any(|&mv| {
                mv.promotion.is_some()
                    && matches(
                        pos,
                        &Wanted {
                            promotion: mv.promotion,
                            ..wanted
                        },
                        mv,
                    )
            });
            Err(match promotes {
                true => SanError::NoPromotion(core.to_string()),
                false => SanError::NoMove(core.to_string()),
            })
        }
        [] => Err(SanError::NoMove(core.to_string())),
        many => Err(SanError::Ambiguous {
            text: core.to_string(),
            moves: many
                .iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" or "),
        }),
    }
}

/// `Some(true)` for the long castling, `Some(false)` for the short one.
fn castling_side(text: &str) -> Option<bool> {
    match text {
        "O-O" | "0-0" | "o-o" => Some(false),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(true),
        _ => None,
    }
}

fn castling(pos: &Position, legal: &[Move], long: bool) -> Option<Move> {
    let king = pos.king(pos.turn());
    legal.iter().copied().find(|mv| {
        let shift = mv.to.file().index() as i32 - mv.from.file().index() as i32;
        mv.from == king && shift == if long { -2 } else { 2 }
    })
}

/// Splits SAN into its parts; `None` when it is not SAN.
fn read(text: &str) -> Option<Wanted> {
    let mut chars: Vec<char> = text.chars().filter(|&c| c != 'x' && c != ':').collect();
    let role = match chars.first() {
        Some(&c) if "KQRBN".contains(c) || (chars.len() > 2 && "kqrn".contains(c)) => {
            chars.remove(0);
            Role::from_char(c)?
        }
        _ => Role::Pawn,
    };
    let promotion = read_promotion(&mut chars)?;
    if chars.len() < 2 || chars.len() > 4 {
        return None;
    }
    let to_text: String = chars[chars.len() - 2..].iter().collect();
    let to = Square::parse(&to_text)?;
    let (mut from_file, mut from_rank) = (None, None);
    for &c in &chars[..chars.len() - 2] {
        match (File::from_char(c), Rank::from_char(c)) {
            (Some(f), _) if from_file.is_none() => from_file = Some(f),
            (_, Some(r)) if from_rank.is_none() => from_rank = Some(r),
            _ => return None,
        }
    }
    Some(Wanted {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// Takes a promotion suffix (`=Q` or `Q`) off the end. `None` when it is not one of Q, R, B, N.
fn read_promotion(chars: &mut Vec<char>) -> Option<Option<Role>> {
    let last = match chars.last() {
        Some(&c) if c.is_ascii_alphabetic() && !c.is_ascii_lowercase() => c,
        Some(&'=') => return None,
        _ => return Some(None),
    };
    chars.pop();
    if chars.last() == Some(&'=') {
        chars.pop();
    }
    let role = Role::from_char(last)?;
    Role::PROMOTIONS.contains(&role).then_some(Some(role))
}

fn matches(pos: &Position, wanted: &Wanted, mv: Move) -> bool {
    pos.role_at(mv.from) == Some(wanted.role)
        && mv.to == wanted.to
        && mv.promotion == wanted.promotion
        && wanted.from_file.is_none_or(|f| mv.from.file() == f)
        && wanted.from_rank.is_none_or(|r| mv.from.rank() == r)
        && !is_castling(pos, mv)
}

fn is_castling(pos: &Position, mv: Move) -> bool {
    pos.role_at(mv.from) == Some(Role::King)
        && mv.from.file().index().abs_diff(mv.to.file().index()) == 2
}

/// Writes a legal move of `pos` in SAN, with `+` or `#` after a check or mate.
pub fn write(pos: &Position, mv: Move) -> String {
    let mut text = body(pos, mv);
    let mut after = *pos;
    after.play_unchecked(mv);
    if after.is_check() {
        text.push(if after.has_legal_moves() { '+' } else { '#' });
    }
    text
}

/// A move written long, with its piece: `Nb1-c3`, `e4xd5`, `e7-e8=Q` (pawns without a letter);
/// for a move that need not be legal (Ambiguous's picks), so nothing is disambiguated or
/// checked.
pub fn long(pos: &Position, mv: Move) -> String {
    let mut text = String::new();
    if let Some(role) = pos.role_at(mv.from).filter(|&r| r != Role::Pawn) {
        text.push(role.upper_char());
    }
    text.push_str(&mv.from.to_string());
    text.push(if pos.captured_square(mv).is_some() {
        'x'
    } else {
        '-'
    });
    text.push_str(&mv.to.to_string());
    if let Some(promotion) = mv.promotion {
        text.push('=');
        text.push(promotion.upper_char());
    }
    text
}

/// SAN without the check sign.
fn body(pos: &Position, mv: Move) -> String {
    if is_castling(pos, mv) {
        let long = mv.to.file().index() < mv.from.file().index();
        return if long { "O-O-O" } else { "O-O" }.to_string();
    }
    let role = pos
        .role_at(mv.from)
        .expect("a legal move starts on a piece");
    let capture = pos.captured_square(mv).is_some();
    let mut text = String::new();
    if role == Role::Pawn {
        if capture {
            text.push(mv.from.file().char());
        }
    } else {
        text.push(role.upper_char());
        text.push_str(&disambiguation(pos, mv, role));
    }
    if capture {
        text.push('x');
    }
    text.push_str(&mv.to.to_string());
    if let Some(promotion) = mv.promotion {
        text.push('=');
        text.push(promotion.upper_char());
    }
    text
}

/// The file, rank or square that tells `mv` from the other moves of the same type to its square.
fn disambiguation(pos: &Position, mv: Move, role: Role) -> String {
    let rivals: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.to == mv.to && m.from != mv.from && pos.role_at(m.from) == Some(role))
        .map(|m| m.from)
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|s| s.file() != mv.from.file()) {
        mv.from.file().char().to_string()
    } else if rivals.iter().all(|s| s.rank() != mv.from.rank()) {
        mv.from.rank().char().to_string()
    } else {
        mv.from.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_at(fen: &str, text: &str) -> Result<String, SanError> {
        let pos = Position::from_fen(fen).unwrap();
        parse(&pos, &pos.legal_moves(), text).map(|m| m.to_string())
    }

    #[test]
    fn common_forms_are_read() {
        let start = super::super::fen::START;
        assert_eq!(parse_at(start, "e4").unwrap(), "e2e4");
        assert_eq!(parse_at(start, "Nf3").unwrap(), "g1f3");
        assert_eq!(parse_at(start, "nc3").unwrap(), "b1c3");
        let open = "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(parse_at(open, "O-O").unwrap(), "e1g1");
        assert_eq!(parse_at(open, "0-0-0").unwrap(), "e1c1");
        assert_eq!(parse_at(open, "exd5").unwrap(), "e4d5");
        assert_eq!(parse_at(open, "Rab1").unwrap(), "a1b1");
        let promote = "8/4P3/8/8/8/8/8/k6K w - - 0 1";
        assert_eq!(parse_at(promote, "e8=Q+").unwrap(), "e7e8q");
        assert_eq!(parse_at(promote, "e8N").unwrap(), "e7e8n");
    }

    #[test]
    fn bad_san_is_named() {
        let start = super::super::fen::START;
        assert_eq!(parse_at(start, "Nf6"), Err(SanError::NoMove("Nf6".into())));
        assert_eq!(parse_at(start, "hello"), Err(SanError::Malformed));
        assert!(matches!(
            parse_at("8/4P3/8/8/8/8/8/k6K w - - 0 1", "e8"),
            Err(SanError::NoPromotion(_))
        ));
        let two_knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        let err = parse_at(two_knights, "Nd2").unwrap_err();
        assert!(err.to_string().contains("b1d2 or f1d2"), "{err}");
        assert_eq!(parse_at(two_knights, "Nbd2").unwrap(), "b1d2");
    }
}
