//! Prints what a bot finds in the middle of a game of each variant:
//! `cargo run --release -p bluffchess-ai --example think -- ismcts:ms=50`.

use bluffchess_ai::{Bot, BuiltIn, Decision};
use bluffchess_rules::{Actor, AnyGame, SaltSource, Seat, VARIANTS};

fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "ismcts:ms=50".to_string());
    for spec in VARIANTS {
        for plies in [10, 30, 60] {
            let mut game =
                AnyGame::new(spec.id, &Default::default(), 11, SaltSource::Seeded(11)).unwrap();
            let mut played = 0;
            while played < plies || game.to_act() == Some(Actor::Chance) {
                match game.to_act() {
                    None => break,
                    Some(Actor::Chance) => drop(game.roll().unwrap()),
                    Some(_) => {
                        let action = game.random_action().unwrap();
                        game.play(&action).unwrap();
                        played += 1;
                    }
                }
            }
            let Some(color) = game.to_act().and_then(Actor::color) else {
                continue;
            };
            let legal = game.legal().unwrap();
            let decision = Decision::new(
                game.typed_view(Seat::from(color)),
                legal.actions,
                legal.setup,
            )
            .unwrap();
            let mut bot = BuiltIn::parse(&name).unwrap();
            let start = std::time::Instant::now();
            let answer = bot.act(&decision, None);
            println!(
                "{} after {plies}: {} ({}) in {:?}",
                spec.id,
                answer.action,
                answer.detail,
                start.elapsed()
            );
        }
    }
}
