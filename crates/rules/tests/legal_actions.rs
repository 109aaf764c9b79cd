//! Legal actions with their structure (`Arbiter::legal_described`): in random games of every
//! variant under every combination of its options, each listed action's structure says exactly
//! what its text says (the text is rebuilt from the structure alone), is the structure of the
//! action the text reads as, and reads back from its JSON; and the list is `legal()`'s.

use bluffchess_rules::any::{with_variant, VariantVisitor};
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::seat::Actor;
use bluffchess_rules::{ActionInfo, LegalAction, SaltSource, VARIANTS};

/// The canonical text an action of this structure has (`None` for a setup, whose structure says
/// only that it is one).
fn text_of(info: &ActionInfo) -> Option<String> {
    let promoted = |promotion: &Option<bluffchess_rules::board::identity::Identity>| {
        promotion.map_or(String::new(), |p| {
            p.letter().to_ascii_lowercase().to_string()
        })
    };
    Some(match info {
        ActionInfo::Move {
            from,
            to,
            promotion,
        } => format!("{from}{to}{}", promoted(promotion)),
        ActionInfo::Bluff {
            from,
            to,
            promotion,
        } => format!("bluff {from}{to}{}", promoted(promotion)),
        ActionInfo::RealityCheck { from, to } => format!("rc {from}{to}"),
        ActionInfo::Drop { up, down, to } => {
            format!("drop {}{}@{to}", up.letter(), down.letter())
        }
        ActionInfo::Flip { square } => format!("flip {square}"),
        ActionInfo::Memory { first, second } => format!("memory {first} {second}"),
        ActionInfo::Remove {
            square: Some(square),
            piece: None,
        } => format!("remove {square}"),
        ActionInfo::Remove {
            square: None,
            piece: Some(piece),
        } => format!("remove {piece}"),
        ActionInfo::Remove { .. } => panic!("a removal names a square or a piece: {info:?}"),
        ActionInfo::Transfer { to } => format!("transfer {to}"),
        ActionInfo::Stay => "stay".into(),
        ActionInfo::Pass => "pass".into(),
        ActionInfo::Call => "call".into(),
        ActionInfo::Accept => "accept".into(),
        ActionInfo::Name { square } => square.to_string(),
        ActionInfo::Die { number } => format!("die {number}"),
        ActionInfo::Setup => return None,
    })
}

/// Plays `games` random games of a variant under `options`, checking every listing; returns the
/// number of listed actions checked.
struct Check<'a> {
    options: &'a Options,
    games: u64,
}

impl VariantVisitor for Check<'_> {
    type Output = usize;

    fn visit<G: Game>(self) -> usize {
        let mut checked = 0;
        for seed in 0..self.games {
            let Ok(mut game) = Arbiter::<G>::new(self.options, seed, SaltSource::Seeded(seed))
            else {
                // A combination of options the rules refuse.
                return checked;
            };
            for _ in 0..300 {
                let Some(described) = game.legal_described() else {
                    assert!(game.legal().is_none());
                    break;
                };
                let listed = described.legal_actions.clone().expect("described");
                let mut plain = described.clone();
                plain.legal_actions = None;
                assert_eq!(game.legal(), Some(plain), "{}", G::ID);
                let texts: Vec<&str> = listed.iter().map(|a| a.text.as_str()).collect();
                assert_eq!(texts, described.actions, "{}", G::ID);
                for action in &listed {
                    check_one::<G>(&game, action, described.setup);
                    checked += 1;
                }
                let next = if described.to_act == Actor::Chance {
                    game.roll()
                } else {
                    let text = game.random_action().expect("an action");
                    game.play(&text)
                };
                next.expect("a listed action is accepted");
            }
        }
        checked
    }
}

fn check_one<G: Game>(game: &Arbiter<G>, action: &LegalAction, setup: bool) {
    let json = serde_json::to_value(action).unwrap();
    assert_eq!(json["text"], action.text.as_str());
    assert_eq!(
        serde_json::from_value::<LegalAction>(json.clone()).unwrap(),
        *action,
        "{json}"
    );
    match text_of(&action.info) {
        None => assert!(
            setup || action.text.starts_with("setup "),
            "{}: a setup that is none: {json}",
            G::ID
        ),
        Some(text) => {
            assert_eq!(text, action.text, "{}: {json}", G::ID);
            let typed = game.game().parse_action(&action.text).unwrap();
            assert_eq!(G::action_info(&typed), action.info, "{}", G::ID);
        }
    }
}

#[test]
fn every_legal_action_carries_the_structure_its_text_says() {
    for spec in VARIANTS {
        let sets = spec.option_sets();
        let games = (24 / sets.len() as u64).max(2);
        let mut checked = 0;
        for options in &sets {
            checked += with_variant(spec.id, Check { options, games }).unwrap();
        }
        assert!(checked > 1000, "{}: {checked}", spec.id);
    }
}

#[test]
fn the_arbiter_protocol_answers_legal_with_the_structure() {
    let mut session = bluffchess_rules::protocol::Session::default();
    session.answer(r#"{"cmd":"new","variant":"bluff-move","seed":1}"#);
    let answer = session.answer(r#"{"cmd":"legal"}"#);
    let actions = answer["actions"].as_array().unwrap();
    let described = answer["legal_actions"].as_array().unwrap();
    assert_eq!(actions.len(), described.len());
    let e4 = described.iter().find(|a| a["text"] == "e2e4").unwrap();
    assert_eq!(
        *e4,
        serde_json::json!({"text": "e2e4", "kind": "move", "from": "e2", "to": "e4"})
    );
    let bluff = described
        .iter()
        .find(|a| a["text"] == "bluff g1f3")
        .unwrap();
    assert_eq!(bluff["kind"], "bluff");
}
