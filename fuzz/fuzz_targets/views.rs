//! Views for beliefs (what `sample` and the bots read): any JSON is read as a view of its variant
//! or refused, and any view read is believed or refused as impossible, without a panic. A belief
//! built is sampled twice, and each sample shows the seat the belief's view.
#![no_main]

use bluffchess_rules::any::ViewVisitor;
use bluffchess_rules::belief::check_witness;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::view::View;
use bluffchess_rules::AnyView;
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;

/// Builds the seat's belief from the view, typed by its variant; if the view is believable,
/// samples it twice.
struct Believe;

impl ViewVisitor for Believe {
    type Output = ();

    fn visit<G: Game>(self, view: &View<G::Summary>) {
        let Ok(belief) = G::Belief::from_view(view) else {
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
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(view) = AnyView::from_json(text) {
        view.visit(Believe);
    }
});
