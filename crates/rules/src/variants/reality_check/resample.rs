//! Drawing the hidden parts of one side's actions (which piece stands where at the setup, which
//! piece each drop took from the hand) uniformly among all histories that fit the public facts.
//! The facts come from a view alone (story.rs); the belief (belief.rs) prepares a [`Redraw`] per
//! hidden side once, and each sample rewrites the side's actions with a fresh draw.
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
//! This is the expensive part, and it depends only on the view: it is done once, when the belief
//! is built, and kept as layers of weighted edges (a [`Sweep`]). A draw then walks the layers,
//! choosing each drop's chain class by those weights, picks uniformly among the equal chains of
//! that class, and finally draws the kinds of the chains uniformly. The result is exactly uniform
//! over the histories consistent with the seat's view. Before both setups are made nothing of a
//! setup is public and it is redrawn uniformly among valid setups.

use super::actions::Action;
use super::actions::Setup;
use super::assign;
use super::knowledge::Stay;
use super::pieces::{Face, Kind, KindSet, ALL_KINDS};
use super::setup::Placement;
use crate::board::board39::Square39;
use crate::board::Color;
use rand::{Rng, RngCore};
use std::collections::HashMap;

/// The most final states whose tables of counts a sweep keeps (8 KiB each).
const MAX_TABLES: usize = 64;

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

/// How one hidden side's actions are redrawn in each sample.
#[derive(Clone, Debug)]
pub(super) enum Redraw {
    /// The side has set up but nothing of its setup is public yet (the other side has not set
    /// up): any valid setup, drawn uniformly.
    Setup {
        index: usize,
        color: Color,
        placement: Placement,
    },
    /// The placements are public: the kinds of the side's stays, drawn by the sweep.
    Stays {
        /// The setup's action index.
        setup: usize,
        /// Each stay's square, face up when placed, and the drop's action index (`None` for
        /// the setup's nine, which come first).
        stays: Vec<(Square39, Face, Option<usize>)>,
        sweep: Sweep,
    },
}

impl Redraw {
    /// How to redraw `color`'s hidden actions given the public facts: its stays (in the order
    /// they began, the setup's nine first) and the true pieces that left the game from its hand.
    /// `None` when no history fits them.
    pub(super) fn stays(setup: usize, stays: &[&Stay], exits: &[(usize, Kind)]) -> Option<Redraw> {
        if stays.len() < 9 || stays[..9].iter().any(|s| s.dropped) || stays.len() > 0xfff0 {
            return None;
        }
        let sweep = Chains::new(stays, exits).sweep()?;
        Some(Redraw::Stays {
            setup,
            stays: stays
                .iter()
                .map(|s| (s.square, s.face, s.dropped.then_some(s.start)))
                .collect(),
            sweep,
        })
    }

    /// Rewrites the side's setup and drops in `actions` with a history drawn uniformly among
    /// those the public facts allow.
    pub(super) fn apply(&self, actions: &mut [Action], rng: &mut dyn RngCore) {
        match *self {
            Redraw::Setup {
                index,
                color,
                placement,
            } => {
                actions[index] = Action::Setup(Setup::random(placement, color, rng));
            }
            Redraw::Stays {
                setup,
                ref stays,
                ref sweep,
            } => {
                let kinds = sweep.draw(rng);
                let placed = core::array::from_fn(|i| {
                    let (square, face, _) = stays[i];
                    (square, face, kinds.of_stay[i].other(face))
                });
                actions[setup] = Action::Setup(Setup::new(placed, kinds.kept));
                for (i, &(to, up, drop)) in stays.iter().enumerate() {
                    if let Some(at) = drop {
                        actions[at] = Action::Drop {
                            up,
                            down: kinds.of_stay[i].other(up),
                            to,
                        };
                    }
                }
            }
        }
    }
}

/// The kinds drawn: one per stay (in the side's order) and the piece kept in hand at the setup.
struct Drawn {
    of_stay: Vec<Kind>,
    kept: Kind,
}

/// The sweep over one side's events.
#[derive(Clone, Debug)]
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

/// A reachable state's ways on: the index of each successor in the next layer, its weight (the
/// histories through it, scaled) and the class of hand chains taken.
type Node = Vec<(u32, f64, KindSet)>;

/// The sweep's reachable states with the histories below each, built once per view: drawing a
/// history is then a walk down the layers.
#[derive(Clone, Debug)]
pub(super) struct Sweep {
    chains: Chains,
    /// For each step, the reachable states before it (the first layer holds the initial state).
    layers: Vec<Vec<Node>>,
    /// For each state after the last step, when there are few enough of them: its chains' allowed
    /// kinds (in the state's order) and `assign`'s table of counts for them, so that a draw does
    /// not make the table again.
    finals: Vec<([KindSet; 10], Vec<u64>)>,
}

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
        let setup_allows: [KindSet; 9] = core::array::from_fn(|i| stays[i].public_kinds());
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
                // A stay that ends is on a chain (in a state reached by its start).
                let Some(i) = next.iter().position(|&e| location(e) == stay) else {
                    return;
                };
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

    /// The reachable states after each step, and the number of histories below each (scaled per
    /// layer), as the layers of a [`Sweep`]; `None` when no history fits.
    fn sweep(self) -> Option<Sweep> {
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
        let finals = if last.len() <= MAX_TABLES {
            last.iter()
                .map(|s| {
                    let allowed = s.map(kinds);
                    (allowed, assign::table(&allowed))
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut counts: Vec<f64> = last
            .iter()
            .map(|s| assign::count(&s.map(kinds)) as f64)
            .collect();
        let mut nodes: Vec<Vec<Node>> = vec![Vec::new(); self.steps.len()];
        for t in (0..self.steps.len()).rev() {
            let mut layer_counts = Vec::with_capacity(layers[t].len());
            nodes[t] = layers[t]
                .iter()
                .map(|state| {
                    Self::successors(state, self.steps[t], &mut successors);
                    let node: Node = successors
                        .iter()
                        .map(|(next, n, class)| {
                            let j = indexes[t + 1][next];
                            (j as u32, f64::from(*n) * counts[j], *class)
                        })
                        .filter(|&(_, w, _)| w > 0.0)
                        .collect();
                    layer_counts.push(node.iter().map(|&(_, w, _)| w).sum::<f64>());
                    node
                })
                .collect();
            // Only ratios within a layer matter: keep the numbers in range.
            let max = layer_counts.iter().cloned().fold(0.0, f64::max);
            if max > 0.0 {
                layer_counts.iter_mut().for_each(|c| *c /= max);
                for node in &mut nodes[t] {
                    node.iter_mut().for_each(|(_, w, _)| *w /= max);
                }
            }
            counts = layer_counts;
        }
        (counts[0] > 0.0).then_some(Sweep {
            chains: self,
            layers: nodes,
            finals,
        })
    }
}

impl Sweep {
    /// Draws a history uniformly among those that fit.
    fn draw(&self, rng: &mut dyn RngCore) -> Drawn {
        let chains = &self.chains;
        // The chains by name: 0 to 8 begin on the setup's stays, 9 is the piece kept in hand.
        let mut named: [(u16, KindSet); 10] = core::array::from_fn(|i| {
            if i < 9 {
                (i as u16, chains.setup_allows[i])
            } else {
                (IN_HAND, ALL_KINDS)
            }
        });
        let mut chain_of_stay: Vec<u8> = (0..chains.stays).map(|i| i.min(9) as u8).collect();
        let mut at = 0usize;
        for (t, &step) in chains.steps.iter().enumerate() {
            let node = &self.layers[t][at];
            let (next, _, class) = node[pick(node, rng)];
            at = next as usize;
            match step {
                Step::End { stay, to_hand } => {
                    let chain = &mut named[usize::from(chain_of_stay[usize::from(stay)])];
                    chain.0 = if to_hand { IN_HAND } else { OUT };
                }
                Step::Drop { stay, allows } => {
                    let chain = pick_chain(&named, class, rng);
                    named[chain] = (stay, class & allows);
                    chain_of_stay[usize::from(stay)] = chain as u8;
                }
                Step::HandExit { kind } => {
                    let chain = pick_chain(&named, class, rng);
                    named[chain] = (OUT, kind.bit());
                }
            }
        }
        let kinds = match self.finals.get(at) {
            Some((allowed, table)) => {
                // The named chains in the state's order: equal chains are interchangeable, so
                // any order among them draws the same.
                let mut order: [usize; 10] = core::array::from_fn(|i| i);
                order.sort_unstable_by_key(|&i| entry(named[i].0, named[i].1));
                let drawn = assign::sample_counted(allowed, table, rng)
                    .expect("the sweep counted a history here");
                let mut kinds = drawn;
                for (slot, &chain) in order.iter().enumerate() {
                    kinds[chain] = drawn[slot];
                }
                kinds
            }
            None => {
                let allowed: [KindSet; 10] = core::array::from_fn(|i| named[i].1);
                assign::sample(&allowed, rng).expect("the sweep counted a history here")
            }
        };
        Drawn {
            of_stay: chain_of_stay
                .iter()
                .map(|&c| kinds[usize::from(c)])
                .collect(),
            kept: kinds[9],
        }
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

/// A successor drawn with probability proportional to its weight.
fn pick(node: &Node, rng: &mut dyn RngCore) -> usize {
    if node.len() == 1 {
        return 0;
    }
    let total: f64 = node.iter().map(|&(_, w, _)| w).sum();
    let mut x = rng.random::<f64>() * total;
    for (i, &(_, w, _)) in node.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    node.len() - 1
}

/// One of the hand chains allowing exactly `class`, drawn uniformly.
fn pick_chain(chains: &[(u16, KindSet); 10], class: KindSet, rng: &mut dyn RngCore) -> usize {
    let matching = chains.iter().filter(|&&c| c == (IN_HAND, class)).count();
    let mut k = rng.random_range(0..matching.max(1));
    for (i, &c) in chains.iter().enumerate() {
        if c == (IN_HAND, class) {
            if k == 0 {
                return i;
            }
            k -= 1;
        }
    }
    unreachable!("the state has a hand chain of the class")
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
        let kept = Chains::new(&refs, &[]).sweep().unwrap();
        assert!(!kept.finals.is_empty());
        // Without the kept tables of counts, as a sweep with many final states draws.
        let mut made = kept.clone();
        made.finals.clear();
        for (i, chains) in [kept, made].iter().enumerate() {
            let mut rng = StdRng::seed_from_u64(8 + i as u64);
            let mut counts = std::collections::HashMap::<Vec<Kind>, usize>::new();
            let samples = 200 * histories.len();
            for _ in 0..samples {
                let drawn = chains.draw(&mut rng);
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
}
