//! A second, deliberately plain model of Reality Check's turns under the default rules (no
//! option but the board), written from the rules text alone to check the rules' move generation:
//! squares by name, pieces in a map, sliders walked one square at a time, every action by its
//! text. It shares no code with the rules crate. Draws are left out: the short counts it is used
//! for never come near 200 quiet turns or a fifth repetition.

use std::collections::{BTreeMap, BTreeSet};

type Cell = (i32, i32);

const ROOK: [Cell; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [Cell; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [Cell; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A piece: its owner (0 White, 1 Black), its faces, and a number that follows it around (the
/// flip exemption belongs to the piece, not the square).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Man {
    side: usize,
    up: char,
    down: char,
    id: u32,
}

impl Man {
    fn is_true(&self) -> bool {
        self.up == self.down
    }
}

fn kind(a: char, b: char) -> (char, char) {
    let order = |c: char| "PNBR".find(c).unwrap();
    if order(a) <= order(b) {
        (a, b)
    } else {
        (b, a)
    }
}

fn name(cell: Cell) -> String {
    format!(
        "{}{}",
        (b'a' + cell.0 as u8) as char,
        (b'1' + cell.1 as u8) as char
    )
}

fn cell(name: &str) -> Cell {
    let b = name.as_bytes();
    (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
}

/// The whole game as the model sees it.
#[derive(Clone, Debug)]
pub struct Model {
    squares: BTreeSet<Cell>,
    men: BTreeMap<Cell, Man>,
    hands: [Vec<(char, char)>; 2],
    gone: [u32; 2],
    drops: [Vec<Cell>; 2],
    turn: usize,
    turns: u32,
    /// White may not capture on its first turn (a free setup).
    free_setup: bool,
    /// The pieces the side to move may not flip (by id).
    exempt: BTreeSet<u32>,
    /// Pieces flipped or dropped during this turn (by id).
    flipped: BTreeSet<u32>,
    /// After a quiet move: the flip is due.
    flip_due: bool,
    over: bool,
    next_id: u32,
}

impl Model {
    /// A game on the board whose squares are `names`, after both setups (`setup sq=XY ...
    /// hand=XY`, White's first).
    pub fn new(names: &[&str], free_setup: bool, setups: [&str; 2]) -> Model {
        let mut model = Model {
            squares: names.iter().map(|n| cell(n)).collect(),
            men: BTreeMap::new(),
            hands: [Vec::new(), Vec::new()],
            gone: [0; 2],
            drops: [Vec::new(), Vec::new()],
            turn: 0,
            turns: 0,
            free_setup,
            exempt: BTreeSet::new(),
            flipped: BTreeSet::new(),
            flip_due: false,
            over: false,
            next_id: 0,
        };
        for (side, setup) in setups.iter().enumerate() {
            for word in setup.split(' ').skip(1) {
                let (place, faces) = word.split_once('=').unwrap();
                let f: Vec<char> = faces.chars().collect();
                if place == "hand" {
                    model.hands[side].push(kind(f[0], f[1]));
                } else {
                    let at = cell(place);
                    assert!(model.squares.contains(&at), "{place}");
                    model.put(at, side, f[0], f[1]);
                    model.drops[side].push(at);
                }
            }
        }
        model
    }

    fn put(&mut self, at: Cell, side: usize, up: char, down: char) {
        self.next_id += 1;
        let id = self.next_id;
        self.men.insert(at, Man { side, up, down, id });
    }

    fn limit(&self, side: usize) -> usize {
        (4 - self.gone[side] as usize).saturating_sub(1)
    }

    fn must_drop(&self, side: usize) -> bool {
        self.hands[side].len() > self.limit(side)
    }

    fn empty_drop_squares(&self, side: usize) -> Vec<Cell> {
        let mut empty: Vec<Cell> = self.drops[side]
            .iter()
            .copied()
            .filter(|c| !self.men.contains_key(c))
            .collect();
        empty.sort();
        empty
    }

    fn on(&self, c: Cell) -> bool {
        self.squares.contains(&c)
    }

    /// Where the piece on `from` may go, and whether each is a capture (of an enemy only).
    fn targets(&self, from: Cell) -> Vec<(Cell, bool)> {
        let man = self.men[&from];
        let mut out = Vec::new();
        let mut consider = |to: Cell, may_move: bool, may_take: bool| {
            if !self.on(to) {
                return;
            }
            match self.men.get(&to) {
                None if may_move => out.push((to, false)),
                Some(other) if may_take && other.side != man.side => out.push((to, true)),
                _ => {}
            }
        };
        let step = |d: Cell| (from.0 + d.0, from.1 + d.1);
        match man.up {
            'P' => {
                for d in ROOK {
                    consider(step(d), true, false);
                }
                for d in BISHOP {
                    consider(step(d), false, true);
                }
            }
            'N' => {
                for d in KNIGHT {
                    consider(step(d), true, true);
                }
            }
            face => {
                let lines = if face == 'R' { ROOK } else { BISHOP };
                for d in lines {
                    let mut at = step(d);
                    // A slider stops at the edge, at a hole (not a square), or at a piece.
                    while self.on(at) {
                        consider(at, true, true);
                        if self.men.contains_key(&at) {
                            break;
                        }
                        at = (at.0 + d.0, at.1 + d.1);
                    }
                }
            }
        }
        out
    }

    /// Whether a piece stands on the square named `sq`.
    pub fn occupied(&self, sq: &str) -> bool {
        self.men.contains_key(&cell(sq))
    }

    /// The texts of every legal action now.
    pub fn actions(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.over {
            return out;
        }
        if self.flip_due {
            for (&at, man) in &self.men {
                if !self.exempt.contains(&man.id) {
                    out.insert(format!("flip {}", name(at)));
                }
            }
            return out;
        }
        let side = self.turn;
        if !self.must_drop(side) {
            let no_capture = self.free_setup && self.turns == 0;
            for (&from, man) in &self.men {
                if man.side != side {
                    continue;
                }
                for (to, capture) in self.targets(from) {
                    let text = format!("{}{}", name(from), name(to));
                    if !capture {
                        out.insert(text);
                    } else if !no_capture {
                        out.insert(format!("rc {text}"));
                        out.insert(text);
                    }
                }
            }
        }
        for &(a, b) in &self.hands[side] {
            for to in self.empty_drop_squares(side) {
                out.insert(format!("drop {a}{b}@{}", name(to)));
                out.insert(format!("drop {b}{a}@{}", name(to)));
            }
        }
        out
    }

    /// Plays an action given by its text (one of [`Model::actions`]).
    pub fn play(&mut self, text: &str) {
        assert!(self.actions().contains(text), "{text} is not legal here");
        let words: Vec<&str> = text.split(' ').collect();
        match words.as_slice() {
            ["flip", sq] => {
                let man = self.men.get_mut(&cell(sq)).unwrap();
                std::mem::swap(&mut man.up, &mut man.down);
                self.flipped.insert(man.id);
                self.flip_due = false;
                self.end_turn();
            }
            ["drop", piece] => {
                let (faces, sq) = piece.split_once('@').unwrap();
                let f: Vec<char> = faces.chars().collect();
                let side = self.turn;
                let i = self.hands[side]
                    .iter()
                    .position(|&k| k == kind(f[0], f[1]))
                    .unwrap();
                self.hands[side].remove(i);
                self.put(cell(sq), side, f[0], f[1]);
                let id = self.next_id;
                self.flipped.insert(id);
                self.end_turn();
            }
            ["rc", mv] | [mv] => {
                let (from, to) = (cell(&mv[..2]), cell(&mv[2..]));
                let rc = words.len() == 2;
                let mover = self.men.remove(&from).unwrap();
                match self.men.remove(&to) {
                    None => {
                        self.men.insert(to, mover);
                        self.flip_due = true;
                        // No piece to flip: the turn ends.
                        if self.actions().is_empty() {
                            self.flip_due = false;
                            self.end_turn();
                        }
                    }
                    Some(taken) => {
                        let leaves = rc && mover.is_true() && taken.is_true();
                        if leaves {
                            self.gone[taken.side] += 1;
                        } else {
                            self.hands[taken.side].push(kind(taken.up, taken.down));
                        }
                        // The capturer of a Reality Check ends as it was, and counts as flipped.
                        if rc {
                            self.flipped.insert(mover.id);
                        }
                        self.men.insert(to, mover);
                        self.end_turn();
                    }
                }
            }
            _ => panic!("the model does not play {text}"),
        }
    }

    fn end_turn(&mut self) {
        self.exempt = std::mem::take(&mut self.flipped);
        self.turns += 1;
        if self.gone.contains(&4) {
            self.over = true;
            return;
        }
        self.turn = 1 - self.turn;
        // A forced drop with nowhere to drop, or no turn at all, loses.
        let side = self.turn;
        if (self.must_drop(side) && self.empty_drop_squares(side).is_empty())
            || self.actions().is_empty()
        {
            self.over = true;
        }
    }
}
