//! Every bot plays legal actions in every variant, deterministically for its seed.

use bluffchess_ai::{arena, BuiltIn};
use bluffchess_rules::options::Options;
use bluffchess_rules::VARIANTS;

/// The texts of a game's actions between two bots, checking the record on the way.
fn game(variant: &str, white: &str, black: &str, seed: u64, actions: usize) -> Vec<String> {
    game_with(variant, &Options::new(), white, black, seed, actions)
}

/// [`game`] under these rules options.
fn game_with(
    variant: &str,
    options: &Options,
    white: &str,
    black: &str,
    seed: u64,
    actions: usize,
) -> Vec<String> {
    let mut white_bot = BuiltIn::parse(white).unwrap();
    let mut black_bot = BuiltIn::parse(black).unwrap();
    let played = arena::play(
        variant,
        options,
        seed,
        &mut white_bot,
        &mut black_bot,
        None,
        actions,
    )
    .unwrap();
    let context = format!("{variant} {white} {black}: {}", played.reason);
    assert!(!played.reason.contains("forfeits"), "{context}");
    assert!(
        bluffchess_rules::verify(&played.record).is_ok(),
        "{context}"
    );
    played
        .record
        .actions
        .iter()
        .map(|a| a.text.clone())
        .collect()
}

#[test]
fn every_bot_plays_legal_actions_in_every_variant() {
    for spec in VARIANTS {
        game(spec.id, "greedy:samples=2", "random:seed=1", 5, 20);
        game(
            spec.id,
            "ismcts:iterations=30,samples=2",
            "alphabeta:depth=1",
            5,
            30,
        );
    }
}

#[test]
fn every_bot_plays_legal_actions_on_the_reality_check_advanced_board() {
    let options = Options::from([("board".to_string(), "advanced".to_string())]);
    for (white, black) in [
        ("greedy:samples=2", "random:seed=1"),
        ("ismcts:iterations=30,samples=2", "alphabeta:depth=1"),
        ("default:iterations=200", "default:iterations=100"),
    ] {
        let actions = game_with("reality-check", &options, white, black, 5, 30);
        // White's setup (by its setup policy, or random) is on its ten corner squares.
        let region = ["d1", "e1", "f1", "g1", "e2", "f2", "g2", "f3", "g3", "g4"];
        let placed: Vec<&str> = actions[0].split(' ').skip(1).map(|w| &w[..2]).collect();
        assert_eq!(placed.len(), 10, "{}", actions[0]);
        assert!(
            placed.iter().all(|sq| *sq == "ha" || region.contains(sq)),
            "{}",
            actions[0]
        );
    }
}

#[test]
fn a_seeded_search_with_an_iteration_budget_plays_the_same_game_twice() {
    for spec in VARIANTS {
        let bot = "ismcts:iterations=30,samples=2,seed=9";
        let first = game(spec.id, bot, "random:seed=4", 2, 16);
        assert_eq!(
            first,
            game(spec.id, bot, "random:seed=4", 2, 16),
            "{}",
            spec.id
        );
    }
}

#[test]
fn a_raised_stop_ends_every_search_at_its_next_check() {
    use bluffchess_ai::{Bot, Decision, Stop};
    use bluffchess_rules::{AnyGame, SaltSource, Seat};
    for spec in VARIANTS {
        let mut game = AnyGame::new(spec.id, &Options::new(), 3, SaltSource::Seeded(3)).unwrap();
        // Past any setup, to a move of White's with a real search.
        for _ in 0..40 {
            let legal = game.legal().unwrap();
            if !legal.setup && game.to_act().and_then(|a| a.color()).is_some() {
                break;
            }
            match game.random_action() {
                Some(action) => game.play(&action).unwrap(),
                None => game.roll().unwrap(),
            };
        }
        let seat = Seat::from(game.to_act().unwrap().color().unwrap());
        let legal = game.legal().unwrap();
        let decision = Decision::new(game.typed_view(seat), legal.actions, legal.setup).unwrap();
        for name in [
            "ismcts:iterations=100000000",
            "alphabeta",
            "default:iterations=100000000",
        ] {
            let stop = Stop::new();
            stop.raise();
            let mut bot = BuiltIn::parse(name).unwrap().with_stop(stop);
            let answer = bot.act(&decision, None);
            assert!(decision.legal().contains(&answer.action), "{name}");
            // ISMCTS checks every 16 iterations, alpha-beta every 1024 nodes.
            let done: u64 = answer
                .detail
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .max()
                .unwrap_or(0);
            assert!(done <= 1024 * 64, "{}: {name}: {}", spec.id, answer.detail);
        }
    }
}
