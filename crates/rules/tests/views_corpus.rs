//! The `views` fuzz target's corpus (`fuzz/corpus/views`, its findings among them), replayed as
//! a regression test: every view is read or refused, and every belief built from one samples
//! games that show the seat the belief's view.

use bluffchess_rules::belief::check_witness;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::view::View;
use bluffchess_rules::{
    AlterEgoBelief, AmbiguousBelief, AnyView, BluffMoveBelief, BsBelief, ChessBelief,
    RealityCheckBelief,
};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Samples the belief built from `view` (if it is believable) and checks each sample; returns
/// how many samples were checked.
fn samples_show_the_view<B: Belief>(view: &View<<B::Game as Game>::Summary>, name: &str) -> usize {
    let Ok(belief) = B::from_view(view) else {
        return 0;
    };
    let mut rng = StdRng::seed_from_u64(7);
    for draw in 0..4 {
        let sample = belief.sample(&mut rng);
        if let Err(e) = check_witness(&sample, belief.view(), belief.revealed()) {
            panic!("{name}: sample {draw} does not show the belief's view: {e}");
        }
    }
    4
}

#[test]
fn every_belief_from_the_views_corpus_samples_its_view() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus/views");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the views corpus")
        .map(|entry| entry.expect("a corpus file").path())
        .collect();
    files.sort();
    let mut checked = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        checked += match AnyView::from_json(&text) {
            Ok(AnyView::Chess(view)) => samples_show_the_view::<ChessBelief>(&view, &name),
            Ok(AnyView::AlterEgo(view)) => samples_show_the_view::<AlterEgoBelief>(&view, &name),
            Ok(AnyView::Ambiguous(view)) => samples_show_the_view::<AmbiguousBelief>(&view, &name),
            Ok(AnyView::RealityCheck(view)) => {
                samples_show_the_view::<RealityCheckBelief>(&view, &name)
            }
            Ok(AnyView::Bs(view)) => samples_show_the_view::<BsBelief>(&view, &name),
            Ok(AnyView::BluffMove(view)) => samples_show_the_view::<BluffMoveBelief>(&view, &name),
            Err(_) => 0,
        };
    }
    assert!(files.len() > 50, "{} corpus files", files.len());
    assert!(checked > 40, "only {checked} samples checked");
}
