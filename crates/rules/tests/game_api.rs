//! The game API, the arbiter and records, exercised through orthodox chess.

mod common;

use bluffchess_rules::any::{perft, verify, AnyGame};
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::board::Color;
use bluffchess_rules::chess::{perft::perft as orthodox_perft, Position};
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::error::BeliefError;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::{EndReason, Outcome};
use bluffchess_rules::playout::{random_action, random_playout};
use bluffchess_rules::record::{MetaKind, Record};
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::variants::chess::Chess;
use bluffchess_rules::variants::chess::ChessBelief;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn new_chess(seed: u64) -> AnyGame {
    AnyGame::new("chess", &Options::new(), seed, SaltSource::Seeded(seed)).unwrap()
}

/// A game of random moves, ended by the rules or left after `max` actions.
fn random_game(seed: u64, max: usize) -> AnyGame {
    let mut game = new_chess(seed);
    for _ in 0..max {
        let Some(action) = game.random_action() else {
            break;
        };
        game.play(&action).unwrap();
    }
    game
}

#[test]
fn perft_through_the_game_api_matches_the_orthodox_engine() {
    let (total, divided) = perft("chess", &Options::new(), 0, 4).unwrap();
    assert_eq!(total, orthodox_perft(&Position::default(), 4));
    assert_eq!(divided.len(), 20);
    assert_eq!(perft("chess", &Options::new(), 0, 0).unwrap().0, 1);
}

#[test]
fn a_finished_game_is_over_for_every_command() {
    let mut game = new_chess(1);
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        game.play(mv).unwrap();
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    assert_eq!(game.to_act(), None);
    assert!(game.legal().is_none());
    assert!(game.play("a2a3").unwrap_err().to_string().contains("over"));
    assert!(game.meta(Color::White, MetaKind::Resign).is_err());
}

#[test]
fn a_draw_offer_lapses_when_the_opponent_plays_on() {
    let mut game = new_chess(2);
    game.meta(Color::White, MetaKind::OfferDraw).unwrap();
    // The offerer may still move; the offer stands.
    game.play("e2e4").unwrap();
    game.meta(Color::Black, MetaKind::AcceptDraw).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Agreement)));

    let mut game = new_chess(2);
    game.play("e2e4").unwrap();
    game.meta(Color::White, MetaKind::OfferDraw).unwrap();
    game.play("e7e5").unwrap();
    let err = game.meta(Color::Black, MetaKind::AcceptDraw).unwrap_err();
    assert!(err.to_string().contains("no draw offer from white"));
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_draw_offer_can_be_declined() {
    let mut game = new_chess(2);
    // nothing to decline yet, and an offerer cannot decline its own offer
    assert!(game.meta(Color::Black, MetaKind::DeclineDraw).is_err());
    game.meta(Color::White, MetaKind::OfferDraw).unwrap();
    assert!(game.meta(Color::White, MetaKind::DeclineDraw).is_err());
    let events = game.meta(Color::Black, MetaKind::DeclineDraw).unwrap();
    assert_eq!(events[0].text, "decline_draw");
    let err = game.meta(Color::Black, MetaKind::AcceptDraw).unwrap_err();
    assert!(err.to_string().contains("no draw offer from white"));
    assert_eq!(game.outcome(), None);
}

#[test]
fn moves_carry_their_san_where_the_browser_cannot_write_it() {
    let notation = |variant: &str, actions: &[&str]| {
        let mut game = AnyGame::new(variant, &Options::new(), 1, SaltSource::Seeded(1)).unwrap();
        for a in actions {
            game.play(a).unwrap();
        }
        let view = game.typed_view(Seat::Spectator);
        view.events()
            .iter()
            .filter_map(|e| e.notation.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        notation(
            "chess",
            &["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
        ),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    );
    assert_eq!(
        notation("alter-ego", &["e2e4", "d7d5", "stay", "e4d5"]),
        ["e4", "d5", "exd5"]
    );
    assert_eq!(
        notation("ambiguous", &["a3", "b1a3", "e5"]),
        ["Nb1-a3", "e7-e5"]
    );
}

#[test]
fn threefold_repetition_may_be_claimed_by_either_seat() {
    let mut game = new_chess(3);
    let err = game.meta(Color::White, MetaKind::ClaimDraw).unwrap_err();
    assert!(err.to_string().contains("no draw can be claimed"));
    for mv in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        game.play(mv).unwrap();
    }
    game.meta(Color::Black, MetaKind::ClaimDraw).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::ThreefoldRepetition))
    );
    let record = game.record();
    assert_eq!(verify(&record), Ok(game.outcome()));
}

#[test]
fn resignation_shows_in_every_view_and_the_record() {
    let mut game = new_chess(4);
    game.play("e2e4").unwrap();
    game.meta(Color::Black, MetaKind::Resign).unwrap();
    for seat in Seat::ALL {
        let view = game.view(seat);
        assert_eq!(view["outcome"]["winner"], "white");
        let events = view["events"].as_array().unwrap();
        assert_eq!(events[1]["kind"], "meta");
        assert_eq!(events[2]["kind"], "end");
    }
    assert_eq!(
        verify(&game.record()),
        Ok(Some(Outcome::win(Color::White, EndReason::Resignation)))
    );
}

#[test]
fn chess_has_one_consistent_state_for_every_seat() {
    let mut game = Chess::new(&Options::new()).unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    random_playout(&mut game, &mut rng, 40);
    for seat in Seat::ALL {
        let sampled = game.resample(seat, &mut rng);
        assert_eq!(sampled.view(seat), game.view(seat));
    }
}

#[test]
fn random_games_end_and_verify() {
    for seed in 0..30 {
        let game = random_game(seed, 600);
        let record = game.record();
        assert_eq!(verify(&record), Ok(game.outcome()), "seed {seed}");
        let json = serde_json::to_string(&record).unwrap();
        let read: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(read, record);
    }
}

fn tamper(record: &Record, f: impl FnOnce(&mut Record)) -> String {
    tamper_id(record, f).1
}

/// The refusal's machine id and its text.
fn tamper_id(record: &Record, f: impl FnOnce(&mut Record)) -> (&'static str, String) {
    let mut altered = record.clone();
    f(&mut altered);
    let error = verify(&altered).unwrap_err();
    (error.id(), error.to_string())
}

#[test]
fn verify_refusals_carry_machine_ids() {
    let game = random_game(11, 60);
    let record = game.record();
    let id = |f: fn(&mut Record)| tamper_id(&record, f).0;
    assert_eq!(
        id(|r| r.actions[5].digest = "00".repeat(32)),
        "digest-mismatch"
    );
    assert_eq!(id(|r| r.actions[7].index = 8), "bad-index");
    assert_eq!(id(|r| r.actions[2].actor = Actor::Chance), "not-their-turn");
    assert_eq!(
        id(|r| r.actions[3].public = "a1a2".into()),
        "public-text-mismatch"
    );
    assert_eq!(
        id(|r| r.actions[4].salt = Some("ab".into())),
        "salt-not-hidden"
    );
    assert_eq!(id(|r| r.variant = "fog".into()), "unknown-variant");
    assert_eq!(id(|r| r.actions[4].text = "a1a8".into()), "refused");
    let draw = |r: &mut Record| r.outcome = Some(Outcome::draw(EndReason::Agreement));
    assert_eq!(id(draw), "outcome-mismatch");
}

#[test]
fn verify_names_the_first_altered_entry() {
    let game = random_game(11, 60);
    let record = game.record();
    assert!(tamper(&record, |r| r.actions[5].digest = "00".repeat(32))
        .starts_with("action 5: its digest"));
    assert!(tamper(&record, |r| r.actions[7].index = 8).starts_with("action 7: its index is 8"));
    assert!(tamper(&record, |r| r.actions[2].actor = Actor::Chance)
        .starts_with("action 2: recorded as chance's"));
    assert!(tamper(&record, |r| r.actions[3].public = "a1a2".into())
        .starts_with("action 3: public text"));
    assert!(tamper(&record, |r| r.actions[4].salt = Some("ab".into()))
        .starts_with("action 4: a salt on an action"));
    assert!(tamper(&record, |r| r.game_id = "other".into()).starts_with("action 0: its digest"));
    assert!(tamper(&record, |r| r.outcome =
        Some(Outcome::draw(EndReason::Agreement)))
    .starts_with("outcome: recorded"));
    assert!(tamper(&record, |r| r
        .options
        .insert("x".into(), "1".into())
        .map_or((), drop))
    .starts_with("options:"));
    assert!(tamper(&record, |r| r.meta.push(
        bluffchess_rules::record::RecordedMeta {
            after: 1,
            seat: Color::White,
            kind: MetaKind::AcceptDraw,
        }
    ))
    .starts_with("meta 0: there is no draw offer"));
}

#[test]
fn views_are_json_with_the_seat_and_the_position() {
    let game = random_game(12, 10);
    let view = game.view(Seat::Black);
    assert_eq!(view["seat"], "black");
    assert_eq!(view["variant"], "chess");
    assert!(view["position"]["fen"].as_str().unwrap().contains('/'));
    assert_eq!(view["events"].as_array().unwrap().len(), 10);
}

#[test]
fn an_arbiter_game_matches_the_bare_game() {
    let mut arbiter: Arbiter<Chess> = Arbiter::new(&Options::new(), 5, SaltSource::Os).unwrap();
    let mut bare = Chess::new(&Options::new()).unwrap();
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..50 {
        let Some(action) = random_action(&bare, &mut rng) else {
            break;
        };
        bare.apply(&action).unwrap();
        arbiter.play(&action.to_string()).unwrap();
    }
    assert_eq!(arbiter.view(Seat::White), bare.view(Seat::White));
    assert_eq!(arbiter.game_id().len(), 32);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn action_text_round_trips(seed in any::<u64>(), plies in 0usize..120) {
        let mut game = Chess::new(&Options::new()).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        random_playout(&mut game, &mut rng, plies);
        for action in game.legal_actions() {
            let text = action.to_string();
            prop_assert_eq!(game.parse_action(&text).unwrap(), action);
        }
    }

    #[test]
    fn a_record_replays_to_the_same_final_state(seed in any::<u64>(), plies in 0usize..200) {
        let game = random_game(seed, plies);
        let record = game.record();
        let mut replay = AnyGame::new("chess", &Options::new(), seed, SaltSource::Seeded(seed)).unwrap();
        for action in &record.actions {
            replay.play(&action.text).unwrap();
        }
        for seat in Seat::ALL {
            prop_assert_eq!(replay.view(seat), game.view(seat));
        }
        prop_assert_eq!(verify(&record), Ok(game.outcome()));
    }
}

/// A finished game with hidden actions: Alter Ego decisions, every one opened at the end.
fn finished_alter_ego(seed: u64) -> Record {
    let mut game = AnyGame::new("alter-ego", &Options::new(), seed, SaltSource::Os).unwrap();
    while let Some(action) = game.random_action() {
        game.play(&action).unwrap();
    }
    game.record()
}

#[test]
fn verify_checks_every_opening_against_its_commitment() {
    let record = (0..20)
        .map(finished_alter_ego)
        .find(|r| r.actions.iter().filter(|a| a.commitment.is_some()).count() >= 2)
        .expect("random games make death moves");
    assert_eq!(verify(&record).map(|o| o.is_some()), Ok(true));
    let hidden = record
        .actions
        .iter()
        .find(|a| a.commitment.is_some())
        .unwrap()
        .index;
    let expect = format!("action {hidden}: the opening does not match its commitment");
    let altered_salt = tamper(&record, |r| {
        let salt = r.actions[hidden].salt.as_mut().unwrap();
        let flipped = if salt.starts_with('0') { "1" } else { "0" };
        salt.replace_range(0..1, flipped);
    });
    assert!(altered_salt.starts_with(&expect), "{altered_salt}");
    let altered_commitment = tamper(&record, |r| {
        r.actions[hidden].commitment = Some("ab".repeat(32))
    });
    assert!(
        altered_commitment.starts_with(&expect),
        "{altered_commitment}"
    );
    let other = if record.actions[hidden].text == "stay" {
        "transfer a1"
    } else {
        "stay"
    };
    let altered_choice = tamper(&record, |r| r.actions[hidden].text = other.to_string());
    assert!(
        altered_choice.starts_with(&format!("action {hidden}")),
        "{altered_choice}"
    );
    let unopened = tamper(&record, |r| r.actions[hidden].salt = None);
    assert!(unopened.contains("never opened"), "{unopened}");
}

#[test]
fn setup_shortcuts_are_recorded_in_canonical_form() {
    let mut game = AnyGame::new("bs", &Options::new(), 1, SaltSource::Os).unwrap();
    let legal = game.legal().unwrap();
    assert!(legal.setup);
    assert_eq!(legal.actions, vec!["setup standard", "setup random"]);
    game.play("setup standard").unwrap();
    game.play("setup random").unwrap();
    let record = game.record();
    assert_eq!(record.actions[0].text, "setup RNBQKBNR/PPPPPPPP");
    assert!(record.actions[1].text.starts_with("setup ") && record.actions[1].text.len() == 23);
    assert_eq!(record.actions[0].public, "setup");
    assert!(record
        .actions
        .iter()
        .all(|a| a.commitment.is_some() && a.salt.is_none()));
    let view = game.view(Seat::Black);
    let events = view["events"].as_array().unwrap();
    assert!(
        events[0]["commitment"].is_string(),
        "the commitment reaches the other seat at once"
    );
    assert!(!events
        .iter()
        .any(|e| e["text"] == "setup RNBQKBNR/PPPPPPPP"));
}

#[test]
fn chess_beliefs_replay_the_game_from_the_view() {
    assert!(common::belief_check::<ChessBelief>(&Options::new(), 3, 9, 1, 5) > 50);
}

#[test]
fn a_view_of_a_resigned_game_is_believed() {
    let mut arbiter: Arbiter<Chess> =
        Arbiter::new(&Options::new(), 1, SaltSource::Seeded(1)).unwrap();
    arbiter.play("e2e4").unwrap();
    arbiter.meta(Color::Black, MetaKind::OfferDraw).unwrap();
    arbiter.meta(Color::Black, MetaKind::Resign).unwrap();
    let belief = ChessBelief::from_view(&arbiter.view(Seat::White)).unwrap();
    assert!(belief.revealed());
    assert_eq!(belief.witness().history().len(), 1);
}

#[test]
fn an_impossible_view_is_refused_naming_the_event() {
    let mut game = Chess::new(&Options::new()).unwrap();
    game.apply_text("e2e4").unwrap();
    game.apply_text("e7e5").unwrap();
    let mut view = game.view(Seat::White);
    view.events[1].text = "e7e4".into();
    let err = ChessBelief::from_view(&view).unwrap_err();
    assert!(matches!(err, BeliefError::Impossible(_)), "{err}");
    assert!(err.to_string().contains("e7e4"), "{err}");
    let mut view = game.view(Seat::White);
    view.variant = "bs".into();
    assert!(ChessBelief::from_view(&view)
        .unwrap_err()
        .to_string()
        .contains("\"bs\""));
}

#[test]
fn every_event_carries_its_fact() {
    assert!(common::facts_check::<Chess>(&Options::new(), 5, 12) > 100);
}

/// Knights out and back twice: each position of the second round stands for the second time,
/// and the start for the third, in every variant that plays orthodox moves.
#[test]
fn repetitions_count_the_times_a_position_stood() {
    use bluffchess_rules::{AlterEgo, Ambiguous, BluffMove};
    fn shuffle<G: Game>(actions: &[&str]) -> Vec<usize> {
        let mut game = G::new(&Options::new()).unwrap();
        let mut counts = vec![game.repetitions()];
        for text in actions {
            game.apply_text(text).unwrap();
            counts.push(game.repetitions());
        }
        counts
    }
    let knights = ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(2);
    let chess = shuffle::<Chess>(&knights);
    assert_eq!(chess, [1, 1, 1, 1, 2, 2, 2, 2, 3]);
    assert_eq!(shuffle::<AlterEgo>(&knights), chess);
    assert_eq!(shuffle::<BluffMove>(&knights), chess);
    // Ambiguous: a square named, then the opponent's pick; a position stands where a square is
    // to be named.
    let named = ["f3", "g1f3", "f6", "g8f6", "g1", "f3g1", "g8", "f6g8"].repeat(2);
    assert_eq!(*shuffle::<Ambiguous>(&named).last().unwrap(), 3);
}

#[test]
fn every_variant_draws_a_random_action_as_a_draw_over_its_list_would() {
    use bluffchess_rules::variants::{
        alter_ego::AlterEgo, ambiguous::Ambiguous, bluff_move::BluffMove, bs::Bs,
        reality_check::RealityCheck,
    };
    let options = |pairs: &[(&str, &str)]| -> Options {
        pairs
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let none = Options::new();
    assert!(common::draw_check::<Chess>(&none, 20, 1) > 200);
    assert!(common::draw_check::<AlterEgo>(&none, 10, 2) > 200);
    assert!(common::draw_check::<Ambiguous>(&none, 10, 3) > 200);
    assert!(common::draw_check::<Bs>(&none, 40, 4) > 800);
    assert!(common::draw_check::<Bs>(&options(&[("spy", "true")]), 40, 7) > 800);
    assert!(common::draw_check::<BluffMove>(&none, 20, 5) > 200);
    for rules in [
        vec![],
        vec![("memory", "true")],
        vec![("strategic-retreat", "true")],
        vec![("flexible-setup", "true")],
        vec![("dice", "true"), ("memory", "true")],
    ] {
        assert!(common::draw_check::<RealityCheck>(&options(&rules), 20, 6) > 200);
    }
}

/// White takes every black piece but the king; Black is to move, then White.
const BARE_BLACK_KING: &str = "a2a4 b7b5 a4b5 a7a5 a1a5 a8a7 a5a7 c8b7 a7b7 b8c6 b5c6 d8b8 b7c7 \
    b8b3 c7d7 b3g3 h2g3 h7h5 h1h5 g7g5 h5g5 h8h4 g3h4 f8g7 g5g7 g8f6 g7f7 f6h7 f7h7 e8f8 h7e7 f8g8";

#[test]
fn a_flag_falls_to_a_draw_only_when_the_other_side_cannot_mate() {
    let mut game = new_chess(5);
    for mv in BARE_BLACK_KING.split_whitespace() {
        game.play(mv).unwrap();
    }
    // White's own draw offer stands when its flag falls: the flag decides all the same.
    game.meta(Color::White, MetaKind::OfferDraw).unwrap();
    let mut white_flagged = game.clone();
    white_flagged.meta(Color::White, MetaKind::Timeout).unwrap();
    assert_eq!(
        white_flagged.outcome(),
        Some(Outcome::draw(EndReason::TimeoutInsufficientMaterial))
    );
    let record = white_flagged.record();
    assert_eq!(record.meta.last().unwrap().kind, MetaKind::Timeout);
    assert_eq!(verify(&record), Ok(white_flagged.outcome()));
    // Black's flag with White's offer standing: White has the material, and wins.
    game.meta(Color::Black, MetaKind::Timeout).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::Timeout))
    );
    assert_eq!(verify(&game.record()), Ok(game.outcome()));
    assert!(game.meta(Color::White, MetaKind::Timeout).is_err());
}

#[test]
fn a_flag_in_a_variant_with_hidden_information_always_gives_the_win() {
    // Whether a side can still win must not depend on a hidden choice: only orthodox chess
    // says no.
    for spec in bluffchess_rules::VARIANTS
        .iter()
        .filter(|s| s.id != "chess")
    {
        let mut game = AnyGame::new(spec.id, &Options::new(), 9, SaltSource::Seeded(9)).unwrap();
        game.meta(Color::Black, MetaKind::Timeout).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::White, EndReason::Timeout)),
            "{}",
            spec.id
        );
        assert_eq!(verify(&game.record()), Ok(game.outcome()), "{}", spec.id);
    }
}
