//! The public story of a Reality Check game, read from one seat's view alone: every action as far
//! as the seat knows it, and for each side the stays of its pieces on the board (the facts the
//! sampler in resample.rs works from) and the true pieces that left the game from its hand.
//!
//! A view's events say everything public: the faces up of the placements (`placed d1=R ...`),
//! every move, capture and flip, each sealed drop's face up and square, and each kind shown (a
//! flip's `it is NB`, a Reality Check's two kinds, a memory's hidden faces, a removal). This
//! module follows the pieces through those events; it trusts nothing it reads, so a view that
//! makes no sense is refused here, never a panic, and whatever it lets through is checked again
//! when the belief replays a witness through the rules.

use super::actions;
use super::actions::Action;
use super::knowledge::Stay;
use super::pieces::{Face, Kind};
use crate::board::board39::{Shape, Square39};
use crate::board::Color;
use crate::error::BeliefError;
use crate::event::{Event, EventKind};
use crate::seat::Actor;

/// One action as the seat knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Known {
    /// Its full text is in the view (an open action, the seat's own, or a revealed drop).
    Full(Action),
    /// A setup still sealed.
    SealedSetup,
    /// A drop still sealed: only its face up and square are public.
    SealedDrop { up: Face, to: Square39 },
}

/// What the view says happened.
#[derive(Clone, Debug)]
pub(super) struct Story {
    /// Every action, by index, and who took it.
    pub actions: Vec<(Actor, Known)>,
    /// Every stay of every piece on the board, both sides, in the order they began (a side's
    /// setup stays before its drops). `shown` says whether its kind was ever shown (or its drop
    /// revealed), and `kind` is then that kind.
    pub stays: Vec<Stay>,
    /// True pieces that left the game from a hand: side, action, kind.
    pub hand_exits: Vec<(Color, usize, Kind)>,
    /// The action index of each side's setup.
    pub setups: [Option<usize>; 2],
    /// Whether both setups are made, so that the placements are public.
    pub placed: bool,
}

/// A piece on the board as the story follows it.
#[derive(Clone, Copy, Debug)]
struct OnBoard {
    color: Color,
    stay: usize,
    up: Face,
}

fn refuse(index: usize, text: &str, why: impl std::fmt::Display) -> BeliefError {
    BeliefError::impossible(format!(
        "action {index} ({:?}): {why}",
        crate::error::shorten(text)
    ))
}

/// Reads the story of a view's events (a rules view: no meta events) of a game on `board`.
pub(super) fn read(events: &[Event], board: Shape) -> Result<Story, BeliefError> {
    let groups = group(events)?;
    let texts = action_texts(events, &groups, board)?;
    let mut story = Story {
        actions: Vec::with_capacity(groups.len()),
        stays: Vec::new(),
        hand_exits: Vec::new(),
        setups: [None; 2],
        placed: false,
    };
    let mut squares: [Option<OnBoard>; 63] = [None; 63];
    for (index, range) in groups.iter().enumerate() {
        let group = &events[range.clone()];
        let (actor, known, text) = texts[index].clone();
        story.actions.push((actor, known));
        let mut step = Step {
            story: &mut story,
            shape: board,
            board: &mut squares,
            index,
            text: &text,
            group,
        };
        step.play(actor, known)?;
    }
    Ok(story)
}

/// The events of each action, as ranges of `events`; refuses indexes out of order.
fn group(events: &[Event]) -> Result<Vec<std::ops::Range<usize>>, BeliefError> {
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e.action == groups.len() {
            groups.push(i..i + 1);
        } else if groups.len().checked_sub(1) == Some(e.action) {
            if let Some(last) = groups.last_mut() {
                last.end = i + 1;
            }
        } else {
            return Err(BeliefError::impossible(format!(
                "event {i} ({:?}) belongs to action {}, out of order",
                crate::error::shorten(&e.text),
                e.action
            )));
        }
        if let EventKind::Reveal { action } = e.kind {
            if action >= e.action {
                return Err(BeliefError::impossible(format!(
                    "event {i} reveals action {action}, not taken before it"
                )));
            }
        }
    }
    Ok(groups)
}

/// Each action's actor, what the seat knows of it, and a text to name it by.
fn action_texts(
    events: &[Event],
    groups: &[std::ops::Range<usize>],
    board: Shape,
) -> Result<Vec<(Actor, Known, String)>, BeliefError> {
    let mut revealed: Vec<Option<&str>> = vec![None; groups.len()];
    for e in events {
        if let EventKind::Reveal { action } = e.kind {
            revealed[action] = Some(&e.text);
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for (index, range) in groups.iter().enumerate() {
        let group = &events[range.clone()];
        let open = group.iter().find(|e| e.kind == EventKind::Action);
        let sealed = group.iter().find(|e| e.kind == EventKind::Sealed);
        let Some(first) = open.or(sealed) else {
            let text = group.first().map_or("", |e| e.text.as_str());
            return Err(refuse(index, text, "no event says what the action was"));
        };
        let actor = first.actor;
        let full = open.map(|e| e.text.as_str()).or(revealed[index]);
        let known = match (full, sealed) {
            (Some(text), _) => {
                Known::Full(actions::parse(text, board).map_err(|e| refuse(index, text, e))?)
            }
            (None, Some(e)) if e.text == "setup" => Known::SealedSetup,
            (None, Some(e)) => parse_sealed_drop(&e.text, board)
                .ok_or_else(|| refuse(index, &e.text, "unknown form"))?,
            (None, None) => return Err(refuse(index, &first.text, "neither open nor sealed")),
        };
        let text = full.unwrap_or(&first.text).to_string();
        out.push((actor, known, text));
    }
    Ok(out)
}

fn parse_sealed_drop(text: &str, board: Shape) -> Option<Known> {
    let rest = text.strip_prefix("drop ")?;
    let (face, sq) = rest.split_once('@')?;
    let mut letters = face.chars();
    let up = Face::from_letter(letters.next()?)?;
    if letters.next().is_some() {
        return None;
    }
    let to = board.parse_square(sq).ok()?;
    Some(Known::SealedDrop { up, to })
}

/// Following one action through the board.
struct Step<'a> {
    story: &'a mut Story,
    shape: Shape,
    board: &'a mut [Option<OnBoard>; 63],
    index: usize,
    text: &'a str,
    group: &'a [Event],
}

impl Step<'_> {
    fn refuse(&self, why: impl std::fmt::Display) -> BeliefError {
        refuse(self.index, self.text, why)
    }

    fn color(&self, actor: Actor) -> Result<Color, BeliefError> {
        actor
            .color()
            .ok_or_else(|| self.refuse("Chance only rolls the die"))
    }

    /// The texts of the action's info events.
    fn infos(&self) -> impl Iterator<Item = &str> {
        self.group
            .iter()
            .filter(|e| e.kind == EventKind::Info)
            .map(|e| e.text.as_str())
    }

    /// The first info event that begins with `prefix`, with the prefix cut off.
    fn info(&self, prefix: &str) -> Result<&str, BeliefError> {
        self.infos()
            .find_map(|t| t.strip_prefix(prefix))
            .ok_or_else(|| self.refuse(format!("no event says {prefix:?}")))
    }

    fn at(&self, sq: Square39) -> Result<OnBoard, BeliefError> {
        self.board[sq.index()].ok_or_else(|| self.refuse(format!("no piece stands on {sq}")))
    }

    fn place(&mut self, color: Color, start: usize, sq: Square39, face: Face, dropped: bool) {
        self.story.stays.push(Stay {
            color,
            start,
            square: sq,
            face,
            dropped,
            end: None,
            shown: false,
            kind: Kind::new(face, face),
        });
        let stay = self.story.stays.len() - 1;
        self.board[sq.index()] = Some(OnBoard {
            color,
            stay,
            up: face,
        });
    }

    /// Records that the piece on `sq` is of `kind`.
    fn show(&mut self, sq: Square39, kind: Kind) -> Result<(), BeliefError> {
        let piece = self.at(sq)?;
        if !kind.has(piece.up) {
            return Err(self.refuse(format!("the piece on {sq} shows {}, not {kind}", piece.up)));
        }
        let stay = &mut self.story.stays[piece.stay];
        stay.shown = true;
        stay.kind = kind;
        Ok(())
    }

    fn leave(&mut self, sq: Square39, to_hand: bool) -> Result<OnBoard, BeliefError> {
        let piece = self.at(sq)?;
        self.board[sq.index()] = None;
        self.story.stays[piece.stay].end = Some((self.index, to_hand));
        Ok(piece)
    }

    fn move_piece(&mut self, from: Square39, to: Square39) -> Result<(), BeliefError> {
        let piece = self.at(from)?;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        Ok(())
    }

    fn turn_over(&mut self, sq: Square39, up: Face) -> Result<(), BeliefError> {
        let mut piece = self.at(sq)?;
        piece.up = up;
        self.board[sq.index()] = Some(piece);
        Ok(())
    }

    fn play(&mut self, actor: Actor, known: Known) -> Result<(), BeliefError> {
        match known {
            Known::SealedSetup => self.setup(actor, None),
            Known::Full(Action::Setup(setup)) => self.setup(actor, Some(setup)),
            Known::SealedDrop { up, to } => self.drop_piece(actor, up, None, to),
            Known::Full(Action::Drop { up, down, to }) => {
                self.drop_piece(actor, up, Some(down), to)
            }
            Known::Full(Action::Move { from, to }) => {
                self.at(from)?;
                if self.board[to.index()].is_some() {
                    self.leave(to, true)?;
                }
                self.move_piece(from, to)
            }
            Known::Full(Action::RealityCheck { from, to }) => self.reality_check(from, to),
            Known::Full(Action::Flip(sq)) => {
                let kind = self.info(&format!("{sq} now shows "))?;
                let kind = kind
                    .rsplit(' ')
                    .next()
                    .and_then(Kind::parse)
                    .ok_or_else(|| self.refuse("the flip's kind is unreadable"))?;
                let up = self.at(sq)?.up;
                self.show(sq, kind)?;
                self.turn_over(sq, kind.other(up))
            }
            Known::Full(Action::Memory(a, b)) => self.memory(a, b),
            Known::Full(Action::RemoveOnBoard(sq)) => {
                let kind = self
                    .info(&format!("{}'s ", self.at(sq)?.color))?
                    .split(' ')
                    .next()
                    .and_then(Kind::parse)
                    .ok_or_else(|| self.refuse("the removed kind is unreadable"))?;
                self.show(sq, kind)?;
                self.leave(sq, false).map(|_| ())
            }
            Known::Full(Action::RemoveFromHand(kind)) => {
                let color = self.color(actor)?;
                self.story.hand_exits.push((color, self.index, kind));
                Ok(())
            }
            Known::Full(Action::Die(_)) => Ok(()),
        }
    }

    fn setup(
        &mut self,
        actor: Actor,
        setup: Option<super::actions::Setup>,
    ) -> Result<(), BeliefError> {
        let color = self.color(actor)?;
        if self.story.setups[color.index()]
            .replace(self.index)
            .is_some()
        {
            return Err(self.refuse(format!("{color} sets up twice")));
        }
        if let Some(setup) = setup {
            for (sq, up, _) in setup.placed {
                self.place(color, self.index, sq, up, false);
            }
        }
        if color == Color::White {
            return Ok(());
        }
        self.story.placed = true;
        // Both setups are made: a sealed one's placements are public now.
        for side in Color::ALL {
            let Some(start) = self.story.setups[side.index()] else {
                return Err(self.refuse("Black sets up before White"));
            };
            let own = self.story.stays.iter().any(|s| s.color == side);
            if own {
                continue;
            }
            let placed = self
                .group
                .iter()
                .filter(|e| e.kind == EventKind::Info && e.actor == Actor::from(side))
                .find_map(|e| e.text.strip_prefix("placed "))
                .ok_or_else(|| self.refuse(format!("{side}'s placements are not told")))?;
            let mut count = 0;
            for word in placed.split(' ') {
                let (sq, face) = word
                    .split_once('=')
                    .and_then(|(sq, f)| {
                        let mut letters = f.chars();
                        let face = Face::from_letter(letters.next()?)?;
                        letters.next().is_none().then_some(())?;
                        Some((self.shape.parse_square(sq).ok()?, face))
                    })
                    .ok_or_else(|| self.refuse(format!("unreadable placement {word:?}")))?;
                if self.board[sq.index()].is_some() || count == 9 {
                    return Err(self.refuse(format!("{side}'s placements are not nine squares")));
                }
                self.place(side, start, sq, face, false);
                count += 1;
            }
            if count != 9 {
                return Err(self.refuse(format!("{side}'s placements are not nine squares")));
            }
        }
        Ok(())
    }

    fn drop_piece(
        &mut self,
        actor: Actor,
        up: Face,
        down: Option<Face>,
        to: Square39,
    ) -> Result<(), BeliefError> {
        let color = self.color(actor)?;
        if self.story.setups[color.index()].is_none() || !self.story.placed {
            return Err(self.refuse("a drop before both setups"));
        }
        if self.board[to.index()].is_some() {
            return Err(self.refuse(format!("{to} is occupied")));
        }
        self.place(color, self.index, to, up, true);
        if let Some(down) = down {
            let stay = self.story.stays.len() - 1;
            self.story.stays[stay].shown = true;
            self.story.stays[stay].kind = Kind::new(up, down);
        }
        Ok(())
    }

    fn reality_check(&mut self, from: Square39, to: Square39) -> Result<(), BeliefError> {
        // "reality check: c3 is PN, turned back; d4 is RR"
        let said = self.info("reality check: ")?;
        let kinds = said
            .split_once("; ")
            .and_then(|(a, b)| {
                let kind = |part: &str| {
                    let (_, rest) = part.split_once(" is ")?;
                    Kind::parse(rest.get(..2)?)
                };
                Some((kind(a)?, kind(b)?))
            })
            .ok_or_else(|| self.refuse("the reality check's kinds are unreadable"))?;
        self.show(from, kinds.0)?;
        self.show(to, kinds.1)?;
        let both_true = kinds.0.is_true() && kinds.1.is_true();
        self.leave(to, !both_true)?;
        self.move_piece(from, to)
    }

    fn memory(&mut self, a: Square39, b: Square39) -> Result<(), BeliefError> {
        let hidden: [Face; 2] = if let Ok(face) = self.info("the hidden faces match (") {
            let face = face_letter(face).ok_or_else(|| self.refuse("unreadable face"))?;
            [face, face]
        } else {
            let faces = self.info("the hidden faces differ (")?;
            let mut letters = faces.split(", ").map(face_letter);
            match (letters.next().flatten(), letters.next().flatten()) {
                (Some(x), Some(y)) => [x, y],
                _ => return Err(self.refuse("unreadable faces")),
            }
        };
        for (sq, face) in [(a, hidden[0]), (b, hidden[1])] {
            let up = self.at(sq)?.up;
            self.show(sq, Kind::new(up, face))?;
            self.turn_over(sq, face)?;
        }
        if hidden[0] == hidden[1] {
            self.leave(a, true)?;
            self.leave(b, true)?;
        }
        Ok(())
    }
}

/// The face letter a text begins with.
fn face_letter(text: &str) -> Option<Face> {
    Face::from_letter(text.chars().next()?)
}
