use super::*;
use crate::game::Game;

fn play(game: &mut Chess, moves: &str) {
    for mv in moves.split_whitespace() {
        game.apply_text(mv).unwrap();
    }
}

#[test]
fn fools_mate_ends_the_game() {
    let mut game = Chess::new(&Options::new()).unwrap();
    play(&mut game, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    assert_eq!(game.to_act(), None);
    assert!(game.legal_actions().is_empty());
    assert_eq!(game.apply_text("a2a3"), Err(ActionError::GameOver));
    assert_eq!(game.events().last().unwrap().kind, EventKind::End);
}

#[test]
fn refusals_name_the_problem_and_change_nothing() {
    let mut game = Chess::new(&Options::new()).unwrap();
    let before = game.clone();
    let err = game.apply_text("e2e5").unwrap_err().to_string();
    assert!(err.contains("pawn on e2 cannot move to e5"), "{err}");
    let err = game.apply_text("e7e5").unwrap_err().to_string();
    assert!(err.contains("not white's"), "{err}");
    let err = game.apply_text("e3e4").unwrap_err().to_string();
    assert!(err.contains("no piece on e3"), "{err}");
    let err = game.apply_text("castle").unwrap_err().to_string();
    assert!(err.contains("cannot read action"), "{err}");
    assert_eq!(game, before);
}

#[test]
fn missing_promotion_piece_is_explained() {
    let pos = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    let mut game = Chess::from_position(pos);
    let err = game.apply_text("e7e8").unwrap_err().to_string();
    assert!(err.contains("must name its promotion"), "{err}");
    game.apply_text("e7e8n").unwrap();
}

#[test]
fn options_are_refused() {
    let options = Options::from([("checkmate".to_string(), "true".to_string())]);
    let err = Chess::new(&options).unwrap_err();
    assert_eq!(err.name, "checkmate");
}

#[test]
fn every_seat_sees_everything() {
    let mut game = Chess::new(&Options::new()).unwrap();
    play(&mut game, "e2e4 e7e5");
    let white = game.view(Seat::White);
    assert_eq!(white.events.len(), 2);
    assert_eq!(white.events, game.view(Seat::Spectator).events);
    assert_eq!(white.position, game.view(Seat::Black).position);
}
