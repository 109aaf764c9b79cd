//! The facts each variant states on its spec (`hidden`, `chance`, `premove`: see `VariantSpec`)
//! are what its games do: in random games under every combination of its options, an event is
//! kept from some seat exactly when the variant says something is hidden; Chance rolls or a
//! hidden setup is due exactly when it says Chance takes part; and where it allows premoves,
//! every turn of a seat offers a move on the 8x8 board.

use bluffchess_rules::action_info::{ActionInfo, SquareName};
use bluffchess_rules::any::{with_variant, VariantVisitor};
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::registry::VARIANTS;
use bluffchess_rules::seat::{Actor, Audience};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Random games of each variant, shared among its option sets (two at least each).
const GAMES: usize = 48;
const PLIES: usize = 200;

/// What random games of a variant showed.
#[derive(Default)]
struct Seen {
    /// An event some seat did not see.
    hidden: bool,
    /// Chance to act, or a hidden setup due.
    chance: bool,
    /// A turn of a seat (its actions between two of the opponent's) offering no move on the
    /// 8x8 board: the variant, each turn, and the lists it offered.
    turn_without_move: Option<String>,
}

struct Play<'a> {
    options: &'a Options,
    games: u64,
    seen: &'a mut Seen,
}

/// A move of a piece from a square of the 8x8 board to another, as a premove is made.
fn board_move(info: &ActionInfo) -> bool {
    let on_board = |square: &SquareName| matches!(square.bytes(), [b'a'..=b'h', b'1'..=b'8']);
    match info {
        ActionInfo::Move { from, to, .. } | ActionInfo::Bluff { from, to, .. } => {
            on_board(from) && on_board(to)
        }
        _ => false,
    }
}

impl VariantVisitor for Play<'_> {
    type Output = ();

    fn visit<G: Game>(self) {
        for seed in 0..self.games {
            let Ok(mut game) = G::new(self.options) else {
                return; // a combination of options the rules refuse
            };
            let mut rng = StdRng::seed_from_u64(seed);
            // The turn being played: its seat, whether it offered a move, what it offered.
            let mut turn: Option<(Actor, bool, Vec<String>)> = None;
            for _ in 0..PLIES {
                let Some(actor) = game.to_act() else { break };
                let chance = actor == Actor::Chance || game.setup_due();
                self.seen.chance |= chance;
                if turn.as_ref().is_some_and(|(seat, _, _)| *seat != actor) {
                    let (_, moved, offered) = turn.take().expect("a turn");
                    if !moved && self.seen.turn_without_move.is_none() {
                        self.seen.turn_without_move = Some(format!("{}: {offered:?}", G::ID));
                    }
                }
                if !chance {
                    let legal = game.legal_actions();
                    let moved = legal.iter().any(|a| board_move(&G::action_info(a)));
                    // A turn whose one choice is to pass has no move to make ahead.
                    let only_pass =
                        matches!(legal.as_slice(), [a] if G::action_info(a) == ActionInfo::Pass);
                    let entry = turn.get_or_insert((actor, false, Vec::new()));
                    entry.1 |= moved || only_pass;
                    entry.2.push(
                        legal
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                    );
                }
                let action = random_action(&game, &mut rng).expect("an action");
                game.apply(&action).expect("a random action is legal");
            }
            self.seen.hidden |= game.events().iter().any(|e| e.seats != Audience::All);
        }
    }
}

#[test]
fn each_variant_states_its_facts_truly() {
    for spec in VARIANTS {
        let mut seen = Seen::default();
        let sets = spec.option_sets();
        let games = (GAMES / sets.len()).max(2) as u64;
        for options in &sets {
            let play = Play {
                options,
                games,
                seen: &mut seen,
            };
            with_variant(spec.id, play).expect("a listed variant");
        }
        assert_eq!(
            seen.hidden, spec.hidden,
            "{}: an event kept from a seat in its random games: {}; its spec's hidden: {}",
            spec.id, seen.hidden, spec.hidden
        );
        assert_eq!(
            seen.chance, spec.chance,
            "{}: Chance or a hidden setup in its random games: {}; its spec's chance: {}",
            spec.id, seen.chance, spec.chance
        );
        if spec.premove {
            assert_eq!(
                seen.turn_without_move, None,
                "{}: allows premoves, but a turn offered no move on the 8x8 board",
                spec.id
            );
        }
    }
}
