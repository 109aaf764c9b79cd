//! The 8x8 board, and the marks the orthodox-board variants put on it.

use super::turn::{check_note, claim_note, title, Turn};
use bluffchess_rules::board::Color;
use bluffchess_rules::variants::alter_ego::AlterEgoSummary;
use bluffchess_rules::variants::ambiguous::AmbiguousSummary;

/// Alter Ego: `*` marks your ego, `!` the enemy ego, `?` the enemy turn piece whose decision is
/// sealed (the ego stayed there, or was transferred).
pub(super) fn alter_ego_board(position: &AlterEgoSummary, seat: Color) -> String {
    let (own, enemy) = match seat {
        Color::White => (&position.white_ego, &position.black_ego),
        Color::Black => (&position.black_ego, &position.white_ego),
    };
    let mut marks = Vec::new();
    if let Some(sq) = own.square {
        marks.push((sq.to_string(), '*'));
    }
    if let Some(sq) = enemy.square {
        marks.push((sq.to_string(), if enemy.sealed { '?' } else { '!' }));
    }
    let mut out = chess_board(&position.fen, seat, &marks);
    out.push_str("   * your alter ego   ! the enemy's   ? enemy turn piece, decision sealed\n");
    out
}

/// Alter Ego's status: check, the death move, the decision (prompted only to the decider).
pub(super) fn alter_ego_status(notes: &mut Vec<String>, position: &AlterEgoSummary, turn: Turn) {
    check_note(notes, position.check, position.turn);
    // The waiting seat has the event; the seat to act is reminded that it may capture.
    if position.death_move && turn.mine() && !position.deciding {
        notes.push("the last move was a death move".to_string());
    }
    if position.deciding {
        notes.push(match turn.mine() {
            true => "decide: stay, or transfer <square> (hidden from the opponent)".to_string(),
            false => format!("{} is deciding: stay or transfer", turn.actor_name()),
        });
    }
    if let Some(bound) = position.bound {
        notes.push(format!(
            "{}'s alter ego is bound: the piece on {bound} must move",
            title(position.turn)
        ));
    }
    claim_note(notes, position.claimable_draw, turn);
}

/// Ambiguous Chess: while a pick is due, `*` marks the named square and `?` each piece that could
/// go there.
pub(super) fn ambiguous_board(position: &AmbiguousSummary, seat: Color) -> String {
    let mut marks = Vec::new();
    if let Some(named) = position.named {
        marks.push((named.to_string(), '*'));
        for candidate in &position.candidates {
            if let Some(from) = candidate.get(..2) {
                marks.push((from.to_string(), '?'));
            }
        }
    }
    let mut out = chess_board(&position.fen, seat, &marks);
    if !marks.is_empty() {
        out.push_str("   * the named square   ? a piece that could go there\n");
    }
    out
}

/// Ambiguous Chess's status: who names, who picks (prompted only to the seat that does).
pub(super) fn ambiguous_status(notes: &mut Vec<String>, position: &AmbiguousSummary, turn: Turn) {
    check_note(notes, position.check, position.turn);
    let mover = title(position.turn);
    match (position.step.as_str(), turn.mine()) {
        ("name", true) => notes
            .push("name a square (e4): your opponent picks which of your pieces goes there".into()),
        ("name", false) => notes.push(format!("{mover} is naming a square")),
        ("pick", true) => notes.push(format!(
            "pick {mover}'s move to {}: {}",
            position.named.map_or("?".into(), |s| s.to_string()),
            position.candidates.join(", ")
        )),
        ("pick", false) => notes.push(format!(
            "{} is picking which of your pieces goes to {}",
            turn.actor_name(),
            position.named.map_or("?".into(), |s| s.to_string()),
        )),
        _ => {}
    }
}

/// An 8x8 board from a FEN's placement field: upper case White, lower case Black, `.` empty;
/// `marks` puts a sign after the piece on a square.
pub fn chess_board(fen: &str, seat: Color, marks: &[(String, char)]) -> String {
    let mut rows = fen_rows(fen);
    let mut ranks: Vec<usize> = (1..=8).rev().collect();
    let mut files: Vec<char> = ('a'..='h').collect();
    if seat == Color::Black {
        rows.reverse();
        rows.iter_mut().for_each(|r| r.reverse());
        ranks.reverse();
        files.reverse();
    }
    let mut out = String::from("   +-----------------+\n");
    for (row, rank) in rows.iter().zip(ranks) {
        // Each piece is followed by its mark, which takes the place of the separating space.
        let mut line = format!(" {rank} | ");
        for (piece, file) in row.iter().zip(&files) {
            let square = format!("{file}{rank}");
            let mark = marks
                .iter()
                .find(|(sq, _)| *sq == square)
                .map_or(' ', |m| m.1);
            line.push(*piece);
            line.push(mark);
        }
        out.push_str(&line);
        out.push_str("|\n");
    }
    out.push_str("   +-----------------+\n");
    let letters: Vec<String> = files.iter().map(char::to_string).collect();
    out.push_str(&format!("     {}\n", letters.join(" ")));
    out
}

/// A FEN's placement field as rows of letters (`.` empty), rank 8 first.
pub(super) fn fen_rows(fen: &str) -> Vec<Vec<char>> {
    let placement = fen.split(' ').next().unwrap_or("");
    placement
        .split('/')
        .map(|rank| {
            rank.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_from_both_sides() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let white = chess_board(fen, Color::White, &[]);
        assert!(white.contains(" 8 | r n b q k b n r |"), "{white}");
        assert!(white.contains(" 4 | . . . . P . . . |"), "{white}");
        assert!(white.ends_with("     a b c d e f g h\n"));
        let black = chess_board(fen, Color::Black, &[]);
        assert!(black.contains(" 1 | R N B K Q B N R |"), "{black}");
        assert!(black.ends_with("     h g f e d c b a\n"));
    }

    #[test]
    fn marks_follow_their_pieces() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let board = chess_board(fen, Color::White, &[("e4".into(), '*'), ("e8".into(), '?')]);
        assert!(board.contains(" 4 | . . . . P*. . . |"), "{board}");
        assert!(board.contains(" 8 | r n b q k?b n r |"), "{board}");
    }
}
