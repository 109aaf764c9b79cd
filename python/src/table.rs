//! Each variant's fixed action-index space: every action text a player or Chance may ever have to
//! choose, in a fixed order, whatever the options. A neural network's policy head has one output
//! per index; the legal mask says which are legal now.
//!
//! Moves are the squares a queen or a knight could go between (castling is the king's two-square
//! move), then promotions; the variants add their own words. Setups are the shortcuts only
//! (`setup standard`, `setup random`): a whole arrangement is played by its text.

use bluffchess_rules::action_info::{ActionInfo, SquareName};
use bluffchess_rules::board::board39::{Shape, Square39};
use bluffchess_rules::variants::reality_check::Kind;
use bluffchess_rules::Square;
use std::collections::{HashMap, HashSet};

/// One variant's action texts and where each starts and ends on the observation grid.
pub struct Table {
    /// Every action's canonical text, by index.
    pub texts: Vec<String>,
    /// Each action's from and to cells on the observation grid (`row * width + column`), -1 where
    /// the action has none.
    pub cells: Vec<[i32; 2]>,
    index: HashMap<String, u32, foldhash::fast::FixedState>,
    /// Moves (`e2e4`, `e7e8q`, `bluff e2e4`, `rc c3d4`) by [`move_key`], for a lookup without
    /// hashing: legal masks read every legal action's index at every step.
    moves: Vec<u16>,
    /// Named squares (Ambiguous's `e4`) by their cell, likewise.
    names: Vec<u16>,
}

/// A key with no action.
const NO_INDEX: u16 = u16::MAX;
/// Cells of the move keys: files a to h, ranks 1 to 9.
const CELLS: usize = 8 * 9;

/// A move's key: its prefix (none, or `bluff `/`rc `), its squares and its promotion.
fn move_key(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (prefix, rest) = match bytes {
        [b'b', b'l', b'u', b'f', b'f', b' ', rest @ ..] => (1, rest),
        [b'r', b'c', b' ', rest @ ..] => (1, rest),
        rest => (0, rest),
    };
    let (squares, promotion) = match rest {
        [a, b, c, d] => ([*a, *b, *c, *d], 0),
        [a, b, c, d, p] => ([*a, *b, *c, *d], promotion_code(*p)?),
        _ => return None,
    };
    let from = key_cell(squares[0], squares[1])?;
    let to = key_cell(squares[2], squares[3])?;
    Some(key_of(prefix, from, to, promotion))
}

/// A promotion's place in the move keys, from its letter: 1 to 4 for q, r, b, n (0 is none).
fn promotion_code(letter: u8) -> Option<usize> {
    match letter {
        b'q' => Some(1),
        b'r' => Some(2),
        b'b' => Some(3),
        b'n' => Some(4),
        _ => None,
    }
}

/// A square's cell in the move keys, from its file letter and rank digit.
fn key_cell(file: u8, rank: u8) -> Option<usize> {
    let file = file.checked_sub(b'a').filter(|f| *f < 8)?;
    let rank = rank.checked_sub(b'1').filter(|r| *r < 9)?;
    Some(usize::from(rank) * 8 + usize::from(file))
}

/// The key of a move: its promotion (0 for none, then q, r, b, n), its prefix and its two cells.
/// Promotions last: the keys of the other moves, nearly every lookup, are the table's first
/// 20 KiB (with promotions between them, lookups missed the processor's nearest cache).
fn key_of(prefix: usize, from: usize, to: usize, promotion: usize) -> usize {
    ((promotion * 2 + prefix) * CELLS + from) * CELLS + to
}

/// The key [`move_key`] reads from a move's text, found from its structure instead: `None` for
/// what has no such key (not a move, or a promotion to a piece other than q, r, b, n).
fn structure_key(info: &ActionInfo) -> Option<usize> {
    let (prefix, from, to, promotion) = match *info {
        ActionInfo::Move {
            from,
            to,
            promotion,
        } => (0, from, to, promotion),
        ActionInfo::Bluff {
            from,
            to,
            promotion,
        } => (1, from, to, promotion),
        ActionInfo::RealityCheck { from, to } => (1, from, to, None),
        _ => return None,
    };
    let promotion = match promotion {
        None => 0,
        // The letter the action's text ends with.
        Some(identity) => promotion_code(identity.letter().to_ascii_lowercase() as u8)?,
    };
    Some(key_of(prefix, name_cell(from)?, name_cell(to)?, promotion))
}

/// A square's cell in the keys, from its name.
fn name_cell(name: SquareName) -> Option<usize> {
    let [file, rank] = name.bytes();
    key_cell(file, rank)
}

impl Table {
    fn new(entries: Vec<(String, [i32; 2])>) -> Table {
        let mut index = HashMap::with_capacity_and_hasher(entries.len(), Default::default());
        for (i, (text, _)) in entries.iter().enumerate() {
            let previous = index.insert(text.clone(), i as u32);
            assert!(previous.is_none(), "{text} is listed twice");
        }
        let mut moves = vec![NO_INDEX; 2 * CELLS * CELLS * 5];
        let mut names = vec![NO_INDEX; CELLS];
        for (i, (text, _)) in entries.iter().enumerate() {
            let i = u16::try_from(i).expect("fewer than 65,535 actions");
            if let Some(key) = move_key(text) {
                moves[key] = i;
            } else if let Some(cell) = SquareName::parse(text).and_then(name_cell) {
                names[cell] = i;
            }
        }
        let (texts, cells) = entries.into_iter().unzip();
        Table {
            texts,
            cells,
            index,
            moves,
            names,
        }
    }

    /// The index of an action's canonical text.
    pub fn index(&self, text: &str) -> Option<u32> {
        match move_key(text) {
            Some(key) => Some(self.moves[key])
                .filter(|&i| i != NO_INDEX)
                .map(u32::from),
            None => self.index.get(text).copied(),
        }
    }

    /// The index of a move, bluff move, Reality Check or named square from its structure, as
    /// [`Table::index`] finds it from its text but without writing the text (legal masks read
    /// every legal action's index at every step); `None` when the structure does not say it
    /// (then the text does).
    pub fn index_of_structure(&self, info: &ActionInfo) -> Option<u32> {
        let i = match *info {
            ActionInfo::Name { square } => self.names[name_cell(square)?],
            _ => self.moves[structure_key(info)?],
        };
        (i != NO_INDEX).then_some(u32::from(i))
    }

    /// How many actions there are.
    pub fn len(&self) -> usize {
        self.texts.len()
    }
}

/// A cell of the 8x8 grid: rank times 8 plus file.
pub fn cell8(sq: Square) -> i32 {
    (sq.rank().index() * 8 + sq.file().index()) as i32
}

/// A cell of Reality Check's 9x7 grid: rank times 7 plus file.
pub fn cell39(sq: Square39) -> i32 {
    i32::from(sq.rank()) * 7 + i32::from(sq.file())
}

/// Whether a queen or a knight could go `df` files and `dr` ranks.
fn reachable(df: i32, dr: i32) -> bool {
    let (a, b) = (df.abs(), dr.abs());
    (a, b) != (0, 0) && (a == 0 || b == 0 || a == b || (a.min(b), a.max(b)) == (1, 2))
}

/// The moves of the 8x8 board, in UCI, `prefix` before each: queen lines and knight jumps, then
/// the promotions (a step forward onto the last rank, straight or diagonal, to q, r, b or n).
fn moves8(prefix: &str) -> Vec<(String, [i32; 2])> {
    let mut out = Vec::new();
    for from in Square::ALL {
        for to in Square::ALL {
            let df = to.file().index() as i32 - from.file().index() as i32;
            let dr = to.rank().index() as i32 - from.rank().index() as i32;
            if reachable(df, dr) {
                out.push((format!("{prefix}{from}{to}"), [cell8(from), cell8(to)]));
            }
        }
    }
    for (from_rank, dr) in [(6, 1), (1, -1)] {
        for file in 0..8 {
            for df in [-1, 0, 1] {
                let from = Square::ALL[from_rank * 8 + file];
                let Some(to) = from.offset(df, dr) else {
                    continue;
                };
                for piece in ['q', 'r', 'b', 'n'] {
                    out.push((
                        format!("{prefix}{from}{to}{piece}"),
                        [cell8(from), cell8(to)],
                    ));
                }
            }
        }
    }
    out
}

/// `word square` for every square of the 8x8 board.
fn squares8(word: &str) -> Vec<(String, [i32; 2])> {
    Square::ALL
        .into_iter()
        .map(|sq| {
            let text = if word.is_empty() {
                sq.to_string()
            } else {
                format!("{word} {sq}")
            };
            (text, [-1, cell8(sq)])
        })
        .collect()
}

fn word(text: &str) -> (String, [i32; 2]) {
    (text.to_string(), [-1, -1])
}

/// Orthodox chess: moves.
pub fn chess() -> Table {
    Table::new(moves8(""))
}

/// Alter Ego: moves, `stay`, `transfer SQ`, `pass`.
pub fn alter_ego() -> Table {
    let mut entries = moves8("");
    entries.push(word("stay"));
    entries.extend(squares8("transfer"));
    entries.push(word("pass"));
    Table::new(entries)
}

/// Ambiguous Chess: the named squares, then the moves picked.
pub fn ambiguous() -> Table {
    let mut entries = squares8("");
    entries.extend(moves8(""));
    Table::new(entries)
}

/// Bluff-move Chess: moves of real pieces and bluffs, then new bluffs.
pub fn bluff_move() -> Table {
    let mut entries = moves8("");
    entries.extend(moves8("bluff "));
    Table::new(entries)
}

/// BS Chess: the setup shortcuts, moves (and declared promotions), `call`, `accept`,
/// `remove SQ`.
pub fn bs() -> Table {
    let mut entries = vec![word("setup standard"), word("setup random")];
    entries.extend(moves8(""));
    entries.push(word("call"));
    entries.push(word("accept"));
    entries.extend(squares8("remove"));
    Table::new(entries)
}

/// Reality Check: `setup random`, moves and captures, `rc`, `flip`, drops, `memory`, the
/// removals after a failed memory, and Chance's `die N`, on the basic board; then the same forms
/// on the Advanced board's squares that the basic board's list lacks (appended, so that the basic
/// board's indices stay as they were).
pub fn reality_check() -> Table {
    let mut entries = vec![word("setup random")];
    entries.extend(reality_check_squares(Shape::Basic));
    for kind in Kind::ALL {
        entries.push(word(&format!("remove {kind}")));
    }
    for n in 1..=6 {
        entries.push(word(&format!("die {n}")));
    }
    let listed: HashSet<String> = entries.iter().map(|(text, _)| text.clone()).collect();
    entries.extend(
        reality_check_squares(Shape::Advanced)
            .into_iter()
            .filter(|(text, _)| !listed.contains(text)),
    );
    Table::new(entries)
}

/// Reality Check's actions that name squares of `board`: moves and captures, `rc`, `flip`,
/// drops, `memory`, `remove SQ`.
fn reality_check_squares(board: Shape) -> Vec<(String, [i32; 2])> {
    let squares = board.all();
    let mut entries = Vec::new();
    let pairs = |prefix: &str| {
        let mut out = Vec::new();
        for &from in squares {
            for &to in squares {
                let df = i32::from(to.file()) - i32::from(from.file());
                let dr = i32::from(to.rank()) - i32::from(from.rank());
                if reachable(df, dr) {
                    out.push((format!("{prefix}{from}{to}"), [cell39(from), cell39(to)]));
                }
            }
        }
        out
    };
    entries.extend(pairs(""));
    entries.extend(pairs("rc "));
    for sq in squares {
        entries.push((format!("flip {sq}"), [-1, cell39(*sq)]));
    }
    let faces = ['P', 'N', 'B', 'R'];
    for sq in squares {
        for up in faces {
            for down in faces {
                entries.push((format!("drop {up}{down}@{sq}"), [-1, cell39(*sq)]));
            }
        }
    }
    for (i, a) in squares.iter().enumerate() {
        for b in &squares[i + 1..] {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            entries.push((format!("memory {lo} {hi}"), [cell39(*lo), cell39(*hi)]));
        }
    }
    for sq in squares {
        entries.push((format!("remove {sq}"), [-1, cell39(*sq)]));
    }
    entries
}
