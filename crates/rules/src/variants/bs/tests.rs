//! The seed's rules and examples, and every ruling, as scenarios.

use super::identity::is_legal_for;
use super::*;
use crate::board::Square;
use crate::event::EventKind;
use crate::game::{Belief, Game};
use crate::outcome::{EndReason, Outcome};

fn new_game(spy: bool) -> Bs {
    let options = Options::from([("spy".to_string(), spy.to_string())]);
    Bs::new(&options).unwrap()
}

fn play(game: &mut Bs, actions: &str) {
    for text in actions.split(',') {
        game.apply_text(text.trim())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// A game after both setups.
fn set_up(white: &str, black: &str) -> Bs {
    let mut game = new_game(white.contains('S') || black.contains('S'));
    play(&mut game, &format!("setup {white}, setup {black}"));
    game
}

fn standard() -> Bs {
    set_up("standard", "standard")
}

/// A game in which only the given pieces stand, `turn` to move.
fn position(pieces: &[(Color, &str, Identity)], turn: Color) -> Bs {
    let mut game = standard();
    game.board = Placement([Bitboard::EMPTY; 2]);
    game.identity = [None; 64];
    for &(color, square, identity) in pieces {
        let sq = Square::parse(square).unwrap();
        game.board.0[color.index()] |= sq;
        game.identity[sq.index()] = Some(identity);
    }
    game.turn = turn;
    game
}

/// Whether `seat` was told something containing `needle`.
fn told(game: &Bs, seat: Seat, needle: &str) -> bool {
    game.view(seat)
        .events
        .iter()
        .any(|e| e.text.contains(needle))
}

fn knows(game: &Bs, seat: Seat, square: &str) -> Option<String> {
    let sq = Square::parse(square).unwrap();
    game.summary(seat, false)
        .pieces
        .iter()
        .find(|p| p.square == sq)
        .and_then(|p| p.identity.clone())
}

#[test]
fn rule_2_setups_are_hidden_and_committed_white_first() {
    let mut game = new_game(false);
    assert!(game.setup_due());
    assert_eq!(game.to_act(), Some(Actor::White));
    play(&mut game, "setup NRBQKBRN/PPPPPPPP");
    assert_eq!(game.to_act(), Some(Actor::Black));
    let black = game.view(Seat::Black);
    assert_eq!(black.events.len(), 1);
    assert_eq!(black.events[0].kind, EventKind::Sealed);
    play(&mut game, "setup standard");
    assert_eq!(game.identity(Square::A1), Some(Identity::Knight));
    assert_eq!(game.identity(Square::E8), Some(Identity::King));
    assert_eq!(knows(&game, Seat::Black, "a1"), None);
    assert_eq!(knows(&game, Seat::White, "a1").as_deref(), Some("knight"));
    assert_eq!(knows(&game, Seat::Spectator, "a1"), None);
}

#[test]
fn rule_2_setups_must_be_a_normal_set() {
    let mut game = new_game(false);
    for (text, problem) in [
        ("setup RNBQKBNR/PPPPPPP", "two ranks of eight"),
        ("setup RNBQKBNR/PPPPPPPQ", "1 queen"),
        ("setup RNBQKBNR/PPPPSPPP", "spy option"),
        ("setup RNBXKBNR/PPPPPPPP", "not one of the letters"),
    ] {
        let err = game.apply_text(text).unwrap_err().to_string();
        assert!(err.contains(problem), "{text}: {err}");
    }
    let mut game = new_game(true);
    assert!(
        game.apply_text("setup RNBQKBNR/PPSPSPPP").is_err(),
        "one spy at most"
    );
    play(&mut game, "setup RNBQKBNR/PPPPSPPP");
}

#[test]
fn rule_3_any_piece_may_make_any_chess_move_on_the_visible_board() {
    let game = standard();
    let moves: Vec<String> = game
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(moves.contains(&"e2e4".into()), "a pawn's double step");
    assert!(moves.contains(&"b1c3".into()), "a knight's move");
    assert!(
        moves.contains(&"e2e6".into()),
        "a rook's move up the open file"
    );
    assert!(moves.contains(&"e2a6".into()), "a bishop's move");
    assert!(
        moves.contains(&"a1b3".into()),
        "a knight's move from any square"
    );
    assert!(
        moves.contains(&"e2e7".into()),
        "a slider may stop on an enemy piece"
    );
    assert!(!moves.contains(&"e2e8".into()), "but not pass it");
    assert!(!moves.contains(&"d1d3".into()), "blocked by the d2 piece");
    assert!(!moves.contains(&"e1g1".into()), "no castling");
    assert!(
        !moves.contains(&"a1a2".into()),
        "nothing lands on its own side"
    );
}

#[test]
fn rule_3_a_double_step_from_the_second_rank_is_always_lawful() {
    let mut game = standard();
    // An accepted bluff brings the pawn back; on its second rank it may step two again.
    play(
        &mut game,
        "e2e3, accept, a7a6, accept, e3e2, accept, a6a5, accept, e2e4, call",
    );
    assert_eq!(game.phase, Phase::Remove, "the double step was lawful");
}

#[test]
fn rule_4_no_call_lets_the_move_and_its_capture_stand() {
    let mut game = standard();
    // The e2 pawn moves like a rook and takes the e7 pawn; Black does not call.
    play(&mut game, "e2e7");
    assert_eq!(
        game.summary(Seat::Black, false).pending.unwrap().to,
        Square::E7
    );
    assert!(
        game.pieces(Color::Black).contains(Square::E7),
        "provisional until answered"
    );
    play(&mut game, "accept");
    assert!(game.pieces(Color::White).contains(Square::E7));
    assert_eq!(game.pool(Color::Black), &[Identity::Pawn]);
    assert_eq!(knows(&game, Seat::Black, "e7"), None, "nothing is revealed");
    assert_eq!(game.to_act(), Some(Actor::Black));
}

#[test]
fn rule_5_a_call_on_a_lawful_move_costs_the_caller_a_piece_of_its_choice() {
    let mut game = standard();
    play(&mut game, "e2e4, accept, d7d5, accept, e4d5, call");
    assert!(
        game.pieces(Color::White).contains(Square::D5),
        "the capture stands"
    );
    assert_eq!(
        knows(&game, Seat::Black, "d5"),
        Some("pawn".to_string()),
        "revealed to both"
    );
    assert_eq!(knows(&game, Seat::Spectator, "d5").as_deref(), Some("pawn"));
    assert_eq!(game.to_act(), Some(Actor::Black));
    let err = game.apply_text("e7e5").unwrap_err().to_string();
    assert!(err.contains("remove one of your pieces"), "{err}");
    play(&mut game, "remove b8");
    assert_eq!(game.pool(Color::Black).len(), 2);
    assert_eq!(game.to_act(), Some(Actor::Black), "then the caller moves");
    play(&mut game, "g8f6, accept");
    assert_eq!(
        knows(&game, Seat::Black, "d5"),
        Some("pawn".to_string()),
        "it stays public"
    );
    play(&mut game, "d5d6, accept");
    assert_eq!(
        knows(&game, Seat::Black, "d6"),
        Some("pawn".to_string()),
        "and moves with the piece"
    );
}

#[test]
fn rule_5_a_call_on_an_unlawful_move_removes_the_mover_and_spares_its_target() {
    let mut game = standard();
    play(&mut game, "e2e7, call");
    assert!(!game.pieces(Color::White).contains(Square::E2));
    assert!(!game.pieces(Color::White).contains(Square::E7));
    assert_eq!(
        game.identity(Square::E7),
        Some(Identity::Pawn),
        "the target stays"
    );
    assert_eq!(game.pool(Color::White), &[Identity::Pawn]);
    assert_eq!(game.to_act(), Some(Actor::Black), "the caller moves");
    assert!(told(
        &game,
        Seat::White,
        "the piece on e2 is a pawn: the move is not lawful"
    ));
}

#[test]
fn rule_5_a_called_king_capture_is_undone() {
    // Black's king stands on e7; White's e2 pawn takes it like a rook.
    let mut game = set_up("standard", "RNBQPBNR/PPPPKPPP");
    play(&mut game, "e2e7, call");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.identity(Square::E7), Some(Identity::King));
    let mut game = set_up("standard", "RNBQPBNR/PPPPKPPP");
    play(&mut game, "e2e7, accept");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::KingCaptured))
    );
    // A rook that takes the king lawfully wins even when called.
    let mut game = set_up("RNBQKBNP/PPPPRPPP", "RNBQPBNR/PPPPKPPP");
    play(&mut game, "e2e7, call");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::KingCaptured))
    );
}

#[test]
fn rule_5_a_caller_with_only_its_king_must_remove_it_and_loses() {
    let mut game = position(
        &[
            (Color::White, "e1", Identity::King),
            (Color::White, "a2", Identity::Rook),
            (Color::Black, "e8", Identity::King),
        ],
        Color::White,
    );
    play(&mut game, "a2a7, call");
    assert_eq!(game.legal_actions(), vec![Action::Remove(Square::E8)]);
    play(&mut game, "remove e8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::LastPieceRemoved))
    );
}

#[test]
fn rule_6_a_pawn_may_declare_a_promotion_from_its_pool_and_a_call_confirms_it() {
    let mut game = position(
        &[
            (Color::White, "e1", Identity::King),
            (Color::White, "b7", Identity::Pawn),
            (Color::Black, "e8", Identity::King),
            (Color::Black, "h5", Identity::Pawn),
        ],
        Color::White,
    );
    let moves: Vec<String> = game
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        !moves.iter().any(|m| m.starts_with("b7b8") && m.len() == 5),
        "an empty pool"
    );
    game.pools[Color::White.index()] = vec![Identity::Rook, Identity::Pawn];
    let moves: Vec<String> = game
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(moves.contains(&"b7b8r".to_string()));
    assert!(
        !moves.contains(&"b7b8q".to_string()),
        "only types in the pool"
    );
    assert!(!moves.contains(&"b7b8p".to_string()), "never a pawn");
    play(&mut game, "b7b8r");
    let black = game.view(Seat::Black);
    assert_eq!(
        black.events.last().unwrap().text,
        "b7b8=?",
        "the type stays hidden"
    );
    play(&mut game, "call");
    assert!(told(
        &game,
        Seat::Black,
        "the piece on b7 was a pawn: the move is lawful"
    ));
    assert_eq!(game.identity(Square::B8), Some(Identity::Rook));
    assert_eq!(
        knows(&game, Seat::Black, "b8"),
        None,
        "the promoted type stays hidden"
    );
    assert!(game
        .summary(Seat::Black, false)
        .pieces
        .iter()
        .any(|p| p.square == Square::B8 && p.promoted));
    let mut pool = game.pool(Color::White).to_vec();
    pool.sort();
    assert_eq!(pool, vec![Identity::Pawn, Identity::Pawn], "an exchange");
}

#[test]
fn rule_6_a_non_pawn_caught_claiming_a_promotion_is_removed() {
    let mut game = position(
        &[
            (Color::White, "e1", Identity::King),
            (Color::White, "c7", Identity::Knight),
            (Color::Black, "e8", Identity::King),
            (Color::Black, "d8", Identity::Queen),
        ],
        Color::White,
    );
    game.pools[Color::White.index()] = vec![Identity::Queen];
    play(&mut game, "c7d8q, call");
    assert!(!game.pieces(Color::White).contains(Square::C7));
    assert_eq!(
        game.identity(Square::D8),
        Some(Identity::Queen),
        "the target stays"
    );
    assert!(told(&game, Seat::Black, "the piece on c7 was not a pawn"));
    assert_eq!(
        knows(&game, Seat::Black, "d8"),
        Some("queen".to_string()),
        "Black's own queen"
    );
}

#[test]
fn rule_6_an_uncalled_false_claim_stands_and_a_king_may_not_declare() {
    let mut game = position(
        &[
            (Color::White, "e7", Identity::King),
            (Color::White, "c7", Identity::Knight),
            (Color::Black, "h8", Identity::King),
            (Color::Black, "h5", Identity::Pawn),
        ],
        Color::White,
    );
    game.pools[Color::White.index()] = vec![Identity::Queen];
    let moves: Vec<String> = game
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(moves.contains(&"c7c8q".to_string()));
    assert!(
        !moves.contains(&"e7e8q".to_string()),
        "a king may not declare"
    );
    play(&mut game, "c7c8q, accept");
    assert_eq!(game.identity(Square::C8), Some(Identity::Queen));
    assert_eq!(game.pool(Color::White), &[Identity::Knight]);
}

#[test]
fn rule_6_a_pawn_on_the_last_rank_stays_a_pawn_and_one_on_its_back_rank_has_no_double_step() {
    let back_rank = position(
        &[
            (Color::White, "e1", Identity::Pawn),
            (Color::White, "a3", Identity::King),
            (Color::Black, "h8", Identity::King),
        ],
        Color::White,
    );
    assert!(!is_legal_for(
        Identity::Pawn,
        Color::White,
        Square::E1,
        Square::E3,
        &back_rank.board,
        None
    ));
    assert!(is_legal_for(
        Identity::Pawn,
        Color::White,
        Square::E1,
        Square::E2,
        &back_rank.board,
        None
    ));
    let mut game = position(
        &[
            (Color::White, "b7", Identity::Pawn),
            (Color::White, "e1", Identity::King),
            (Color::Black, "h8", Identity::King),
            (Color::Black, "h5", Identity::Pawn),
        ],
        Color::White,
    );
    play(&mut game, "b7b8, call");
    assert_eq!(
        game.identity(Square::B8),
        Some(Identity::Pawn),
        "no promotion without a pool"
    );
}

#[test]
fn rule_7_capturing_or_removing_the_king_wins_and_no_move_loses() {
    let mut game = position(
        &[
            (Color::White, "e1", Identity::King),
            (Color::White, "a1", Identity::Rook),
            (Color::Black, "a8", Identity::King),
        ],
        Color::White,
    );
    play(&mut game, "a1a8, call");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::KingCaptured))
    );
    // A king that moves unlawfully and is caught is removed: its side loses.
    let mut game = position(
        &[
            (Color::White, "e1", Identity::King),
            (Color::Black, "e8", Identity::King),
            (Color::Black, "a7", Identity::Pawn),
        ],
        Color::White,
    );
    play(&mut game, "e1e3");
    let err = game.apply_text("a7a6").unwrap_err().to_string();
    assert!(err.contains("call or accept"), "{err}");
    play(&mut game, "call");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::KingRemoved))
    );
}

#[test]
fn rule_8_the_spy_captures_the_king_or_queen_with_any_move() {
    // The spy on d2 takes the queen on d7 up the file: a call shows the queen, so it stands.
    let mut game = set_up("RNBQKBNR/PPPSPPPP", "RNBPKBNR/PPPQPPPP");
    play(&mut game, "d2d7, call");
    assert!(game.pieces(Color::White).contains(Square::D7));
    assert!(told(&game, Seat::Black, "is a spy: the move is lawful"));
    assert!(told(
        &game,
        Seat::White,
        "the spy's target on d7 is a queen"
    ));
    // Against a pawn the same move is not lawful, and the target is shown.
    let mut game = set_up("RNBQKBNR/PPPSPPPP", "standard");
    play(&mut game, "d2d7, call");
    assert!(!game.pieces(Color::White).contains(Square::D2));
    assert_eq!(knows(&game, Seat::White, "d7").as_deref(), Some("pawn"));
    // A pawn's move is always lawful for the spy.
    let mut game = set_up("RNBQKBNR/PPPSPPPP", "standard");
    play(&mut game, "d2d4, call");
    assert_eq!(game.phase, Phase::Remove);
}

#[test]
fn conventions_the_no_progress_draw_and_fivefold_repetition() {
    let mut game = standard();
    game.quiet_moves = 199;
    play(&mut game, "b1c3, accept");
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    let mut game = standard();
    for _ in 0..4 {
        play(
            &mut game,
            "b1c3, accept, b8c6, accept, c3b1, accept, c6b8, accept",
        );
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::FivefoldRepetition))
    );
}

#[test]
fn refusals_name_the_problem_and_change_nothing() {
    let mut game = standard();
    let before = game.clone();
    for (text, problem) in [
        ("e7e5", "no piece on e7"),
        ("b1d2", "no chess piece could move"),
        ("call", "time to move"),
        ("e2e4q", "promotion needs"),
    ] {
        let err = game.apply_text(text).unwrap_err().to_string();
        assert!(err.contains(problem), "{text}: {err}");
    }
    assert_eq!(game, before);
}

#[test]
fn resampling_keeps_every_revealed_identity() {
    let mut game = standard();
    play(
        &mut game,
        "e2e4, accept, d7d5, accept, e4d5, call, remove b8, g8f6, call",
    );
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    for _ in 0..50 {
        let sampled = game.resample(Seat::White, &mut rng);
        assert_eq!(sampled.view(Seat::White), game.view(Seat::White));
        assert_eq!(sampled.identity(Square::F6), game.identity(Square::F6));
    }
}

#[test]
fn resampling_finds_a_consistent_state_in_random_games() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let mut draws = 0;
    for spy in [false, true] {
        for _ in 0..15 {
            let mut game = new_game(spy);
            while let Some(action) = crate::playout::random_action(&game, &mut rng) {
                game.apply(&action).unwrap();
                if game.action_count() % 5 == 0 {
                    for seat in Seat::ALL {
                        let belief = BsBelief::from_view(&game.view(seat)).unwrap();
                        assert!(
                            resample::draw(&belief.known, &mut rng).is_some(),
                            "no sample found"
                        );
                        draws += 1;
                    }
                }
            }
        }
    }
    assert!(draws > 300);
}

/// Every distinct arrangement of `pieces` (a multiset) in order.
fn arrangements(pieces: &[Identity]) -> Vec<Vec<Identity>> {
    let mut kinds: Vec<(Identity, usize)> = Vec::new();
    for &p in pieces {
        match kinds.iter_mut().find(|(k, _)| *k == p) {
            Some((_, n)) => *n += 1,
            None => kinds.push((p, 1)),
        }
    }
    fn extend(
        kinds: &mut [(Identity, usize)],
        left: usize,
        prefix: &mut Vec<Identity>,
        out: &mut Vec<Vec<Identity>>,
    ) {
        if left == 0 {
            out.push(prefix.clone());
            return;
        }
        for i in 0..kinds.len() {
            if kinds[i].1 > 0 {
                kinds[i].1 -= 1;
                prefix.push(kinds[i].0);
                extend(kinds, left - 1, prefix, out);
                prefix.pop();
                kinds[i].1 += 1;
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut kinds, pieces.len(), &mut Vec::new(), &mut out);
    out
}

/// A game in which Black called every White move until at most `hidden` of White's setup slots
/// are still unknown to Black, with no promotion declared: `None` if the game ended first.
fn mostly_shown_game(seed: u64, hidden: usize) -> Option<Bs> {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut game = new_game(false);
    loop {
        let mut action = crate::playout::random_action(&game, &mut rng)?;
        if action == Action::Accept && game.turn == Color::White {
            action = Action::Call;
        }
        if let Action::Move {
            promotion: Some(_), ..
        } = action
        {
            return None;
        }
        game.apply(&action).unwrap();
        let unknown = game.lineage.slots[0]
            .iter()
            .filter(|f| f.identity.is_none())
            .count();
        if game.log.outcome.is_some() {
            return None;
        }
        if unknown <= hidden && game.phase == Phase::Move {
            return Some(game);
        }
    }
}

#[test]
fn the_setup_sampler_is_uniform_over_the_consistent_setups_it_can_count() {
    use rand::SeedableRng;
    let game = (0..200)
        .find_map(|seed| mostly_shown_game(seed, 6))
        .expect("a game that shows ten of White's pieces");
    let belief = BsBelief::from_view(&game.view(Seat::Black)).unwrap();
    let facts = &belief.known.facts.slots[0];
    let free: Vec<usize> = (0..16).filter(|&i| facts[i].identity.is_none()).collect();
    let mut rest = STANDARD.0.to_vec();
    for fact in facts.iter() {
        if let Some(identity) = fact.identity {
            let i = rest.iter().position(|&r| r == identity).unwrap();
            rest.swap_remove(i);
        }
    }
    // Every setup that agrees with what Black saw, found by replaying each candidate.
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let black = game.history()[1];
    let Action::Setup(black) = black else {
        panic!("Black's setup")
    };
    let consistent: Vec<Setup> = arrangements(&rest)
        .into_iter()
        .map(|pieces| {
            let mut setup = Setup([Identity::Pawn; 16]);
            for (slot, fact) in facts.iter().enumerate() {
                if let Some(identity) = fact.identity {
                    setup.0[slot] = identity;
                }
            }
            for (&slot, &identity) in free.iter().zip(&pieces) {
                setup.0[slot] = identity;
            }
            setup
        })
        .filter(|&setup| {
            resample::replay(&belief.known, [Some(setup), Some(black)], &mut rng).is_some_and(|g| {
                let seen = g.view(Seat::Black);
                seen.events == belief.view().events && seen.position == belief.view().position
            })
        })
        .collect();
    assert!(
        consistent.len() > 2,
        "{} consistent setups",
        consistent.len()
    );
    // The documented weighting is uniform over them here: no spy, no promotion.
    let per_setup = 150;
    let draws = per_setup * consistent.len();
    let mut counts = vec![0usize; consistent.len()];
    for _ in 0..draws {
        let sample = belief.sample(&mut rng);
        let Action::Setup(white) = sample.history()[0] else {
            panic!("White's setup")
        };
        let i = consistent
            .iter()
            .position(|&s| s == white)
            .expect("a consistent setup");
        counts[i] += 1;
    }
    let expected = per_setup as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    // The chi-squared quantile at p = 0.001 (Wilson-Hilferty).
    let df = (consistent.len() - 1) as f64;
    let z = 3.09;
    let critical = df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3);
    assert!(
        chi2 < critical,
        "chi2 {chi2:.1} over {df} degrees of freedom: {counts:?}"
    );
}
