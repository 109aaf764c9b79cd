//! Views for beliefs (what `sample` and the bots read): any JSON is read as a view of its variant
//! or refused, and any view read is believed or refused as impossible, without a panic. A belief
//! built is sampled twice, and each sample shows the seat the belief's view.
#![no_main]

use bluffchess_rules::belief::{check_witness, Belief};
use bluffchess_rules::game::{Game, View};
use bluffchess_rules::variants::bs::BsBelief;
use bluffchess_rules::variants::reality_check::RealityCheckBelief;
use bluffchess_rules::{AlterEgoBelief, AmbiguousBelief, AnyView, BluffMoveBelief, ChessBelief};
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;

/// Builds the belief; if the view is believable, samples it twice.
fn believe<B: Belief>(view: &View<<B::Game as Game>::Summary>) {
    let Ok(belief) = B::from_view(view) else {
        return;
    };
    let _ = belief.legal_actions();
    let _ = belief.key();
    let mut rng = rand::rngs::StdRng::seed_from_u64(view.events.len() as u64);
    for _ in 0..2 {
        let sample = belief.sample(&mut rng);
        if let Err(e) = check_witness(&sample, belief.view(), belief.revealed()) {
            panic!("a sample does not show the belief's view: {e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match AnyView::from_json(text) {
        Ok(AnyView::Chess(view)) => believe::<ChessBelief>(&view),
        Ok(AnyView::AlterEgo(view)) => believe::<AlterEgoBelief>(&view),
        Ok(AnyView::Ambiguous(view)) => believe::<AmbiguousBelief>(&view),
        Ok(AnyView::RealityCheck(view)) => believe::<RealityCheckBelief>(&view),
        Ok(AnyView::Bs(view)) => believe::<BsBelief>(&view),
        Ok(AnyView::BluffMove(view)) => believe::<BluffMoveBelief>(&view),
        Err(_) => {}
    }
});
