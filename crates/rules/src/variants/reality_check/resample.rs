//! Resampling a Reality Check game for a seat: drawing the hidden parts of the other side's
//! actions (which piece stands where at the setup, which piece each drop took from the hand)
//! uniformly among all histories that look the same to the seat, then replaying the game.
//!
//! **The method.** Everything a seat learns about an enemy piece is public (knowledge.rs), so
//! the facts to honour are, per side: each *stay* of a piece on the board (placed by the setup or
//! a drop, with the face up it was placed with; whether it was shown, and then its kind; when it
//! left, to the hand or out of the game) and the true pieces that left the game from the hand.
//! A history is an assignment of the side's ten kinds to those stays. Following one kind through
//! the game gives a *chain*: a setup square or the piece kept in hand, then, each time the piece
//! returns to the hand, the drop that takes it out again. There are always ten chains; a chain
//! allows the kinds that every stay on it allows (`with_face(face)`, or the shown kind).
//!
//! Which chain each drop continues is the hard part: a drop may take any piece in hand. Chains
//! that allow the same kinds are interchangeable, so a sweep over the side's events in order keeps
//! a small state: where each chain is (on which stay, in hand, or out) with the kinds it allows,
//! as a sorted multiset. Forward, the sweep lists the reachable states; backward it counts the
//! histories below each state (at the end: the ways to give the ten chains ten different kinds,
//! counted by `assign`); a drop's transition is weighted by how many hand chains it could take.
//! Then a forward pass draws each drop's chain class by those counts, picks uniformly among the
//! equal chains of that class, and finally draws the kinds of the chains uniformly. The result is
//! exactly uniform over the histories consistent with the seat's view. Before both setups are
//! made nothing of a setup is public and it is redrawn uniformly among valid setups.

use super::assign;
use super::knowledge::Stay;
use super::pieces::{Kind, KindSet, ALL_KINDS};
use super::{Action, RealityCheck, Setup};
use crate::board::Color;
use crate::game::{Game, Seat};
use rand::{Rng, RngCore};
use std::collections::HashMap;

/// Where a chain is, besides on a stay (whose local index is the location).
const IN_HAND: u16 = 0xfffe;
/// A chain whose piece left the game.
const OUT: u16 = 0xffff;

/// The ten chains as `location << 16 | allowed kinds`, sorted.
type State = [u32; 10];

fn entry(location: u16, kinds: KindSet) -> u32 {
    u32::from(location) << 16 | u32::from(kinds)
}

fn location(entry: u32) -> u16 {
    (entry >> 16) as u16
}

fn kinds(entry: u32) -> KindSet {
    entry as u16
}

/// One event of a side, in the order of play.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A stay ends: the piece goes to the hand or out of the game.
    End { stay: u16, to_hand: bool },
    /// A drop begins a stay that allows these kinds.
    Drop { stay: u16, allows: KindSet },
    /// A true piece of this kind leaves the game from the hand.
    HandExit { kind: Kind },
}

pub(super) fn resample(game: &RealityCheck, seat: Seat, rng: &mut dyn RngCore) -> RealityCheck {
    if game.log.outcome.is_some() {
        return game.clone();
    }
    let mut actions = game.log.actions.clone();
    for color in Color::ALL {
        if seat.color() != Some(color) {
            redraw_side(game, color, &mut actions, rng);
        }
    }
    let mut sampled = RealityCheck::new(&game.rules.options()).expect("the game's own options");
    for action in &actions {
        sampled
            .apply(action)
            .expect("a history consistent with the view is legal");
    }
    sampled
}

/// Rewrites `color`'s setup and drops in `actions` with a history drawn uniformly among those
/// the public facts allow.
fn redraw_side(game: &RealityCheck, color: Color, actions: &mut [Action], rng: &mut dyn RngCore) {
    let Some(setup_index) = game.setups[color.index()] else {
        return;
    };
    if !game.placements_public() {
        actions[setup_index] = Action::Setup(game.random_setup_for(color, rng));
        return;
    }
    let stays: Vec<&Stay> = game.stays.iter().filter(|s| s.color == color).collect();
    let exits: Vec<(usize, Kind)> = game
        .hand_exits
        .iter()
        .filter(|(c, _, _)| *c == color)
        .map(|&(_, at, kind)| (at, kind))
        .collect();
    let Some(kinds) = Chains::new(&stays, &exits).draw(rng) else {
        debug_assert!(false, "the truth is a consistent history");
        return;
    };
    let placed = core::array::from_fn(|i| {
        let stay = stays[i];
        (stay.square, stay.face, kinds.of_stay[i].other(stay.face))
    });
    actions[setup_index] = Action::Setup(Setup::new(placed, kinds.kept));
    for (i, stay) in stays.iter().enumerate().filter(|(_, s)| s.dropped) {
        actions[stay.start] = Action::Drop {
            up: stay.face,
            down: kinds.of_stay[i].other(stay.face),
            to: stay.square,
        };
    }
}

/// The kinds drawn: one per stay (in the side's order) and the piece kept in hand at the setup.
struct Drawn {
    of_stay: Vec<Kind>,
    kept: Kind,
}

/// The sweep over one side's events.
struct Chains {
    steps: Vec<Step>,
    initial: State,
    /// The kinds each of the setup's nine stays allows.
    setup_allows: [KindSet; 9],
    stays: usize,
}

/// A state reached by a step, how many histories lead there from the state before, and the
/// allowed kinds of the hand chain the step took (for drops and hand exits).
type Successor = (State, u32, KindSet);

impl Chains {
    fn new(stays: &[&Stay], exits: &[(usize, Kind)]) -> Chains {
        let mut timed: Vec<(usize, u8, Step)> = Vec::new();
        for (i, stay) in stays.iter().enumerate() {
            let i = i as u16;
            if stay.dropped {
                let allows = stay.public_kinds();
                timed.push((stay.start, 1, Step::Drop { stay: i, allows }));
            }
            if let Some((at, to_hand)) = stay.end {
                timed.push((at, 0, Step::End { stay: i, to_hand }));
            }
        }
        for &(at, kind) in exits {
            timed.push((at, 0, Step::HandExit { kind }));
        }
        timed.sort_by_key(|&(at, order, _)| (at, order));
        let setup_allows: [KindSet; 9] = core::array::from_fn(|i| {
            debug_assert!(!stays[i].dropped, "the setup's nine stays come first");
            stays[i].public_kinds()
        });
        let mut initial = [entry(IN_HAND, ALL_KINDS); 10];
        for (i, &allows) in setup_allows.iter().enumerate() {
            initial[i] = entry(i as u16, allows);
        }
        initial.sort_unstable();
        Chains {
            steps: timed.into_iter().map(|(_, _, step)| step).collect(),
            initial,
            setup_allows,
            stays: stays.len(),
        }
    }

    /// The states a step leads to from `state`.
    fn successors(state: &State, step: Step, out: &mut Vec<Successor>) {
        out.clear();
        match step {
            Step::End { stay, to_hand } => {
                let mut next = *state;
                let i = next
                    .iter()
                    .position(|&e| location(e) == stay)
                    .expect("a stay that ends is on a chain");
                next[i] = entry(if to_hand { IN_HAND } else { OUT }, kinds(next[i]));
                next.sort_unstable();
                out.push((next, 1, 0));
            }
            Step::Drop { stay, allows } => Self::take_from_hand(state, out, |k| {
                (k & allows != 0).then(|| entry(stay, k & allows))
            }),
            Step::HandExit { kind } => Self::take_from_hand(state, out, |k| {
                (k & kind.bit() != 0).then(|| entry(OUT, kind.bit()))
            }),
        }
    }

    /// For each class of hand chains (same allowed kinds), the state where one of them becomes
    /// `becomes(kinds)`, weighted by the class's size.
    fn take_from_hand(
        state: &State,
        out: &mut Vec<Successor>,
        becomes: impl Fn(KindSet) -> Option<u32>,
    ) {
        let mut i = 0;
        while i < 10 {
            let e = state[i];
            let size = state[i..].iter().take_while(|&&x| x == e).count();
            if location(e) == IN_HAND {
                if let Some(new) = becomes(kinds(e)) {
                    let mut next = *state;
                    next[i] = new;
                    next.sort_unstable();
                    if plausible(&next) {
                        out.push((next, size as u32, kinds(e)));
                    }
                }
            }
            i += size;
        }
    }

    /// Draws a history uniformly, or `None` when there is none.
    fn draw(&self, rng: &mut dyn RngCore) -> Option<Drawn> {
        let (layers, counts) = self.count();
        if counts[0][0] <= 0.0 {
            return None;
        }
        // The chains by name: 0 to 8 begin on the setup's stays, 9 is the piece kept in hand.
        let mut chains: Vec<(u16, KindSet)> = (0..9u16)
            .map(|i| (i, self.setup_allows[usize::from(i)]))
            .chain([(IN_HAND, ALL_KINDS)])
            .collect();
        let mut chain_of_stay: Vec<usize> = (0..self.stays).map(|i| i.min(9)).collect();
        let mut state = self.initial;
        let mut successors = Vec::new();
        for (t, &step) in self.steps.iter().enumerate() {
            Self::successors(&state, step, &mut successors);
            let weights: Vec<f64> = successors
                .iter()
                .map(|(next, n, _)| f64::from(*n) * counts[t + 1][layers[t + 1][next]])
                .collect();
            let (next, _, class) = successors[pick(&weights, rng)];
            match step {
                Step::End { stay, to_hand } => {
                    let chain = &mut chains[chain_of_stay[usize::from(stay)]];
                    chain.0 = if to_hand { IN_HAND } else { OUT };
                }
                Step::Drop { stay, allows } => {
                    let chain = pick_chain(&chains, class, rng);
                    chains[chain] = (stay, class & allows);
                    chain_of_stay[usize::from(stay)] = chain;
                }
                Step::HandExit { kind } => {
                    let chain = pick_chain(&chains, class, rng);
                    chains[chain] = (OUT, kind.bit());
                }
            }
            state = next;
        }
        let allowed: [KindSet; 10] = core::array::from_fn(|i| chains[i].1);
        let kinds = assign::sample(&allowed, rng)?;
        Some(Drawn {
            of_stay: chain_of_stay.iter().map(|&c| kinds[c]).collect(),
            kept: kinds[9],
        })
    }

    /// The reachable states after each step (indexed), and the number of histories below each,
    /// scaled per layer.
    fn count(&self) -> (Vec<HashMap<State, usize>>, Vec<Vec<f64>>) {
        let mut layers: Vec<Vec<State>> = vec![vec![self.initial]];
        let mut successors = Vec::new();
        for &step in &self.steps {
            let mut next: Vec<State> = Vec::new();
            let mut seen: HashMap<State, ()> = HashMap::new();
            for state in layers.last().expect("at least the first layer") {
                Self::successors(state, step, &mut successors);
                for &(s, _, _) in &successors {
                    if seen.insert(s, ()).is_none() {
                        next.push(s);
                    }
                }
            }
            layers.push(next);
        }
        let indexes: Vec<HashMap<State, usize>> = layers
            .iter()
            .map(|layer| layer.iter().enumerate().map(|(i, &s)| (s, i)).collect())
            .collect();
        let last = layers.last().expect("at least the first layer");
        let mut counts = vec![Vec::new(); layers.len()];
        counts[layers.len() - 1] = last
            .iter()
            .map(|s| assign::count(&s.map(kinds)) as f64)
            .collect();
        for t in (0..self.steps.len()).rev() {
            let mut layer: Vec<f64> = layers[t]
                .iter()
                .map(|state| {
                    Self::successors(state, self.steps[t], &mut successors);
                    successors
                        .iter()
                        .map(|(next, n, _)| f64::from(*n) * counts[t + 1][indexes[t + 1][next]])
                        .sum()
                })
                .collect();
            // Only ratios within a layer matter: keep the numbers in range.
            let max = layer.iter().cloned().fold(0.0, f64::max);
            if max > 0.0 {
                layer.iter_mut().for_each(|c| *c /= max);
            }
            counts[t] = layer;
        }
        (indexes, counts)
    }
}

/// Whether no two chains are pinned to the same kind.
fn plausible(state: &State) -> bool {
    let mut pinned: KindSet = 0;
    for &e in state {
        let k = kinds(e);
        if k.count_ones() == 1 {
            if pinned & k != 0 {
                return false;
            }
            pinned |= k;
        }
    }
    true
}

/// An index drawn with probability proportional to its weight.
fn pick(weights: &[f64], rng: &mut dyn RngCore) -> usize {
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    weights
        .iter()
        .rposition(|&w| w > 0.0)
        .expect("some weight is positive")
}

/// One of the hand chains allowing exactly `class`, drawn uniformly.
fn pick_chain(chains: &[(u16, KindSet)], class: KindSet, rng: &mut dyn RngCore) -> usize {
    let matching: Vec<usize> = (0..chains.len())
        .filter(|&i| chains[i] == (IN_HAND, class))
        .collect();
    matching[rng.random_range(0..matching.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board39::Square39;
    use crate::variants::reality_check::pieces::Face;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn stay(face: Face, start: usize, shown: Option<&str>) -> Stay {
        Stay {
            color: Color::Black,
            start,
            square: Square39::D5,
            face,
            dropped: start > 1,
            end: None,
            shown: shown.is_some(),
            kind: shown.map_or(Kind::new(face, face), |k| Kind::parse(k).unwrap()),
        }
    }

    /// A side's public story: a setup of the diagram's faces with NN and BB shown, a pawn face and
    /// a knight face captured into the hand, then a drop showing R (never shown) and a drop shown
    /// to be NB.
    fn story() -> Vec<Stay> {
        use Face::*;
        let mut stays = vec![
            stay(Pawn, 1, None),
            stay(Pawn, 1, None),
            stay(Pawn, 1, None),
            stay(Pawn, 1, None),
            stay(Knight, 1, Some("NN")),
            stay(Knight, 1, None),
            stay(Bishop, 1, Some("BB")),
            stay(Bishop, 1, None),
            stay(Rook, 1, None),
            stay(Rook, 14, None),
            stay(Knight, 16, Some("NB")),
        ];
        stays[0].end = Some((10, true));
        stays[5].end = Some((12, true));
        stays
    }

    /// Every history of the story, by brute force: each stay's kind and the kept piece's.
    fn every_history(stays: &[Stay]) -> Vec<Vec<Kind>> {
        let mut histories = Vec::new();
        let mut kinds: Vec<Kind> = Kind::ALL.to_vec();
        permutations(&mut kinds, 0, &mut |setup: &[Kind]| {
            if (0..9).any(|i| stays[i].public_kinds() & setup[i].bit() == 0) {
                return;
            }
            // The hand, step by step: the kept piece, then the two captured ones; each drop
            // takes any piece in hand it fits.
            let hand = [setup[9], setup[0], setup[5]];
            for (i, &first) in hand.iter().enumerate() {
                if stays[9].public_kinds() & first.bit() == 0 {
                    continue;
                }
                for (j, &second) in hand.iter().enumerate() {
                    if j == i || stays[10].public_kinds() & second.bit() == 0 {
                        continue;
                    }
                    let mut history = setup[..9].to_vec();
                    history.extend([first, second, setup[9]]);
                    histories.push(history);
                }
            }
        });
        histories
    }

    fn permutations(kinds: &mut Vec<Kind>, k: usize, visit: &mut impl FnMut(&[Kind])) {
        if k == kinds.len() {
            return visit(kinds);
        }
        for i in k..kinds.len() {
            kinds.swap(k, i);
            permutations(kinds, k + 1, visit);
            kinds.swap(k, i);
        }
    }

    #[test]
    fn histories_are_drawn_uniformly_among_all_that_fit_the_public_story() {
        let stays = story();
        let refs: Vec<&Stay> = stays.iter().collect();
        let histories = every_history(&stays);
        assert!(histories.len() > 20, "{}", histories.len());
        let chains = Chains::new(&refs, &[]);
        let mut rng = StdRng::seed_from_u64(8);
        let mut counts = std::collections::HashMap::<Vec<Kind>, usize>::new();
        let samples = 200 * histories.len();
        for _ in 0..samples {
            let drawn = chains.draw(&mut rng).unwrap();
            let mut history = drawn.of_stay.clone();
            history.push(drawn.kept);
            assert!(histories.contains(&history), "{history:?} does not fit");
            *counts.entry(history).or_default() += 1;
        }
        assert_eq!(counts.len(), histories.len(), "every history is drawn");
        // 200 expected each: a standard deviation of about 14.
        for (history, n) in counts {
            assert!((130..=270).contains(&n), "{history:?} drawn {n} times");
        }
    }
}
