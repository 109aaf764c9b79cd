//! The game as one seat knows it, read from its view: action by action, its own actions in full
//! and what every action showed it (the public form, captures, a destroyed bluff, and for its
//! own actions what only it learnt). The search (`resample.rs`) and its lookahead work on this
//! alone, never on the game itself.

use super::actions::Action;
use super::board::{castling_moves, path, Board};
use super::resolve::{castling_rook, Capture, Destroyed, Private, Public, Resolution};
use crate::board::{Bitboard, Color, Role, Square};
use crate::error::BeliefError;
use crate::event::{Event, EventKind};
use crate::seat::Seat;
use arrayvec::ArrayVec;

/// Who made action `index`: White opens and the sides alternate.
pub(super) fn mover(index: usize) -> Color {
    match index % 2 {
        0 => Color::White,
        _ => Color::Black,
    }
}

/// What one seat saw of a game's actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Record {
    /// Whose knowledge it is.
    pub seat: Seat,
    /// The board the game started from.
    pub start: Board,
    /// Each action of the seat's own side, in full; `None` for an action hidden from it.
    pub own: Vec<Option<Action>>,
    /// What each action did as the seat saw it: all of it for its own actions, what everyone
    /// sees for the others (the mover's private information and the end left empty).
    pub seen: Vec<Resolution>,
}

/// One action's events, as read so far.
#[derive(Default)]
struct Step {
    mover: Option<Color>,
    public: Option<Public>,
    own: Option<Action>,
    captures: ArrayVec<Capture, 7>,
    destroyed: Option<Destroyed>,
    private: Option<Private>,
}

impl Record {
    /// Reads the record from a view's events (rules events only: no meta events).
    pub fn from_events(seat: Seat, events: &[Event]) -> Result<Record, BeliefError> {
        let mut steps: Vec<Step> = Vec::new();
        for (i, event) in events.iter().enumerate() {
            let wrong =
                |why: &str| BeliefError::impossible(format!("event {i} ({:?}): {why}", event.text));
            if event.kind == EventKind::End {
                continue;
            }
            let index = event.action;
            if index > steps.len() || index + 1 < steps.len() {
                return Err(wrong("out of order"));
            }
            if index == steps.len() {
                steps.push(Step::default());
            }
            let actor = event
                .actor
                .color()
                .ok_or_else(|| wrong("no player acted"))?;
            let step = &mut steps[index];
            if *step.mover.get_or_insert(actor) != actor || actor != mover(index) {
                return Err(wrong("not the side to move"));
            }
            read_event(step, seat, event).ok_or_else(|| wrong("not an event of these rules"))?;
        }
        let start = Board::start();
        let mut own = Vec::with_capacity(steps.len());
        let mut seen = Vec::with_capacity(steps.len());
        for (i, step) in steps.into_iter().enumerate() {
            let public = step
                .public
                .ok_or_else(|| BeliefError::impossible(format!("action {i} has no public form")))?;
            if seat.color() == Some(mover(i)) && step.own.is_none() {
                return Err(BeliefError::impossible(format!(
                    "action {i} is the seat's own, but its text is missing"
                )));
            }
            let mut resolution = Resolution {
                public,
                captures: step.captures,
                destroyed: step.destroyed,
                private: step.private.unwrap_or(Private::None),
                end: None,
            };
            if let Some(action) = step.own {
                resolution.end = end_of(action, &resolution);
            }
            own.push(step.own);
            seen.push(resolution);
        }
        Ok(Record {
            seat,
            start,
            own,
            seen,
        })
    }

    /// The number of actions.
    pub fn len(&self) -> usize {
        self.seen.len()
    }
}

/// Reads one event of a step; `None` when it is no event of Bluff-move.
fn read_event(step: &mut Step, seat: Seat, event: &Event) -> Option<()> {
    let text = event.text.as_str();
    let everyone = event.seats == crate::seat::Audience::All;
    match event.kind {
        EventKind::Sealed if step.public.is_none() => {
            step.public = Some(Public::parse(text)?);
        }
        // Castling is open: its one action event is everyone's.
        EventKind::Action if everyone && step.public.is_none() => {
            let mv: crate::chess::Move = text.parse().ok()?;
            let mover = step.mover?;
            castling_moves(mover)
                .iter()
                .find(|c| c.king_from == mv.from && c.king_to == mv.to && mv.promotion.is_none())?;
            step.public = Some(Public::Castle(mv));
            if seat.color() == step.mover {
                step.own = Some(Action::Move(mv));
            }
        }
        EventKind::Action if !everyone && step.own.is_none() && seat.color() == step.mover => {
            step.own = Some(super::actions::parse(text).ok()?);
        }
        EventKind::Info if everyone => match Capture::parse(text) {
            Some(capture) if step.destroyed.is_none() => step.captures.try_push(capture).ok()?,
            _ if step.destroyed.is_none() => step.destroyed = Some(Destroyed::parse(text)?),
            _ => return None,
        },
        EventKind::Info if step.private.is_none() => step.private = Some(Private::parse(text)?),
        _ => return None,
    }
    Some(())
}

/// Where the mover's own piece ended in an action that did `seen`: landed, died, or `None` when
/// the move did not happen (as `resolve::play` says it).
fn end_of(action: Action, seen: &Resolution) -> Option<Square> {
    let mv = action.mv();
    match seen.private {
        Private::NoEnemy(_) | Private::Blocked(_) | Private::CastlingStopped => return None,
        Private::StoppedShort(sq) => {
            let squares = path(mv.from, mv.to);
            let at = squares.iter().position(|&s| s == sq)?;
            return at.checked_sub(1).map(|i| squares[i]);
        }
        Private::None => {}
    }
    if let Some(d) = seen.destroyed {
        return Some(d.square);
    }
    let real_taken = seen.captures.iter().find_map(|c| match *c {
        Capture::Real { square, .. } => Some(square),
        Capture::Bluff { .. } => None,
    });
    Some(real_taken.unwrap_or(mv.to))
}

/// The images of White and Black before each action, followed through what the record shows:
/// every image change is public, except which image of the castling side's rook went when a
/// rook hidden behind its bluff castled, told by what comes later.
pub(super) fn images_before_each(record: &Record) -> Vec<[Bitboard; 2]> {
    let mut roles: [[Option<Role>; 64]; 2] = [[None; 64]; 2];
    for color in Color::ALL {
        for sq in record.start.images(color) {
            roles[color.index()][sq.index()] = record.start.role(sq);
        }
    }
    let bits = |roles: &[Option<Role>; 64]| -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|sq| roles[sq.index()].is_some())
            .collect()
    };
    let mut images = Vec::with_capacity(record.len());
    for (k, seen) in record.seen.iter().enumerate() {
        images.push([bits(&roles[0]), bits(&roles[1])]);
        let mover = mover(k);
        let (ours, theirs) = split(&mut roles, mover);
        for capture in &seen.captures {
            match *capture {
                Capture::Bluff { square, real, role } => {
                    theirs[square.index()] = None;
                    theirs[real.index()] = Some(role);
                }
                Capture::Real { square, bluff, .. } => {
                    theirs[square.index()] = None;
                    if let Some(b) = bluff {
                        theirs[b.index()] = None;
                    }
                }
            }
        }
        match seen.public {
            Public::Pass => {}
            Public::Image { from, to, role } => {
                let was = ours[from.index()].take();
                match seen.destroyed {
                    Some(d) => ours[d.real.index()] = Some(d.role),
                    None => ours[to.index()] = role.or(was),
                }
            }
            Public::Castle(mv) => {
                let (rook, rook_to) = castling_rook(mv);
                let king = Square::ALL
                    .into_iter()
                    .find(|sq| ours[sq.index()] == Some(Role::King));
                let rook_image = match ours[rook.index()] {
                    Some(_) => Some(rook),
                    None => gone_rook_image(record, ours, k),
                };
                for sq in king.into_iter().chain(rook_image) {
                    ours[sq.index()] = None;
                }
                ours[mv.to.index()] = Some(Role::King);
                ours[rook_to.index()] = Some(Role::Rook);
            }
        }
    }
    images
}

/// The image roles of the mover's side and of the other.
fn split(
    roles: &mut [[Option<Role>; 64]; 2],
    mover: Color,
) -> (&mut [Option<Role>; 64], &mut [Option<Role>; 64]) {
    let [white, black] = roles;
    match mover {
        Color::White => (white, black),
        Color::Black => (black, white),
    }
}

/// The rook image that went when action `k` castled with a rook hidden behind its bluff: the
/// first of the side's rook images that nothing later shows still standing.
fn gone_rook_image(record: &Record, ours: &[Option<Role>; 64], k: usize) -> Option<Square> {
    let side = mover(k);
    let candidates = Square::ALL
        .into_iter()
        .filter(|sq| ours[sq.index()] == Some(Role::Rook));
    candidates
        .into_iter()
        .find(|&c| !still_standing(record, side, c, k))
}

/// Whether an action after `k` shows an image of `side` still on `sq` (it moves from there or is
/// captured there) before any image arrives there.
fn still_standing(record: &Record, side: Color, sq: Square, k: usize) -> bool {
    for (j, seen) in record.seen.iter().enumerate().skip(k + 1) {
        if mover(j) == side {
            match seen.public {
                Public::Image { from, .. } if from == sq => return true,
                Public::Image { to, .. } if to == sq => return false,
                _ => {}
            }
            continue;
        }
        for capture in &seen.captures {
            match *capture {
                Capture::Bluff { square, .. } | Capture::Real { square, .. } if square == sq => {
                    return true
                }
                Capture::Real { bluff, .. } if bluff == Some(sq) => return true,
                Capture::Bluff { real, .. } if real == sq => return false,
                _ => {}
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::options::Options;
    use crate::variants::bluff_move::resolve;
    use crate::variants::bluff_move::state::BluffMove;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// Each seat's record, read from its view, says what the game did: its own actions and
    /// everything about them, the rest as everyone saw it; and the images followed through it
    /// are the game's.
    #[test]
    fn a_record_read_from_a_view_is_what_the_seat_saw() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..30 {
            let mut game = BluffMove::new(&Options::new()).unwrap();
            crate::playout::random_playout(&mut game, &mut rng, 300);
            let mut board = game.start;
            let mut truth = Vec::new();
            let mut resolutions = Vec::new();
            for action in &game.log.actions {
                truth.push([board.images(Color::White), board.images(Color::Black)]);
                resolutions.push(resolve::play(&mut board, *action));
            }
            for seat in Seat::ALL {
                let record =
                    Record::from_events(seat, &game.view_revealed(seat, false).events).unwrap();
                assert_eq!(record.len(), game.log.actions.len());
                for (k, done) in resolutions.iter().enumerate() {
                    let own = seat.color() == Some(mover(k));
                    assert_eq!(record.own[k], own.then_some(game.log.actions[k]), "{k}");
                    match own {
                        true => assert_eq!(&record.seen[k], done, "{seat} {k}"),
                        false => assert!(record.seen[k].looks_alike(done), "{seat} {k}"),
                    }
                }
                assert_eq!(images_before_each(&record), truth, "{seat}");
            }
        }
    }

    #[test]
    fn events_of_other_rules_are_refused() {
        let mut game = BluffMove::new(&Options::new()).unwrap();
        game.apply_text("e2e4").unwrap();
        let mut events = game.view(Seat::Black).events;
        events[0].text = "e2e9".into();
        assert!(Record::from_events(Seat::Black, &events).is_err());
        let mut events = game.view(Seat::White).events;
        events.retain(|e| e.kind != EventKind::Action);
        assert!(Record::from_events(Seat::White, &events).is_err());
    }
}
