//! What the package needs of each variant: its observation planes and its action table (its
//! belief is the rules crate's `Game::Belief`). The variants are the rules crate's one list
//! (`for_each_variant!`), reached through [`with_variant`].

use crate::encode;
use crate::planes::{Layout, Planes};
use crate::table::{self, Table};
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::{AlterEgo, Ambiguous, BluffMove, Bs, Chess, RealityCheck};
use std::sync::OnceLock;

/// Code that runs on one variant as the package plays it (see [`with_variant`]).
pub trait VariantVisitor {
    /// What it gives back.
    type Output;
    /// Runs on variant `G`.
    fn visit<G: Variant>(self) -> Self::Output;
}

/// The package's dispatch, built from the rules crate's one list of variants: a variant of the
/// list without a [`Variant`] impl here is a compile error.
macro_rules! dispatch {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
        /// Runs `visitor` on the variant whose id is `id`; `None` for an unknown id.
        pub fn with_variant<V: VariantVisitor>(id: &str, visitor: V) -> Option<V::Output> {
            $(if id == <$game as Game>::ID {
                return Some(visitor.visit::<$game>());
            })*
            None
        }
    };
}
bluffchess_rules::for_each_variant!(dispatch);

/// A variant as the package plays it.
pub trait Variant: Game {
    /// The observation's planes.
    fn layout() -> &'static Layout;

    /// The fixed action-index space.
    fn table() -> &'static Table;

    /// Writes the variant's own planes of what `seat` knows (the common ones are written), in
    /// a game under `options` (Reality Check's board is one).
    fn encode(summary: &Self::Summary, options: &Options, seat: Seat, planes: &mut Planes<'_>);
}

/// The [`Variant`] of a rules type: its planes (a list of names, or a function
/// giving them), its table and its encoder (in `crate::encode`; `with_options` before one that
/// reads the rules options), on a grid of `height` ranks and `width` files.
macro_rules! variant {
    ($game:ty, $planes:expr, $table:path, with_options $encode:path, $height:literal x $width:literal) => {
        variant!(@impl $game, $planes, $table, |s, options, seat, planes| $encode(s, options, seat, planes), $height x $width);
    };
    ($game:ty, $planes:expr, $table:path, $encode:path, $height:literal x $width:literal) => {
        variant!(@impl $game, $planes, $table, |s, _options, seat, planes| $encode(s, seat, planes), $height x $width);
    };
    (@impl $game:ty, $planes:expr, $table:path, |$s:ident, $o:ident, $seat:ident, $p:ident| $encode:expr, $height:literal x $width:literal) => {
        impl Variant for $game {
            fn layout() -> &'static Layout {
                static LAYOUT: OnceLock<Layout> = OnceLock::new();
                LAYOUT.get_or_init(|| Layout::new(&$planes, $height, $width))
            }
            fn table() -> &'static Table {
                static TABLE: OnceLock<Table> = OnceLock::new();
                TABLE.get_or_init($table)
            }
            fn encode($s: &Self::Summary, $o: &Options, $seat: Seat, $p: &mut Planes<'_>) {
                $encode
            }
        }
    };
}

variant!(Chess, encode::CHESS, table::chess, encode::chess, 8 x 8);
variant!(AlterEgo, encode::ALTER_EGO, table::alter_ego, encode::alter_ego, 8 x 8);
variant!(Ambiguous, encode::AMBIGUOUS, table::ambiguous, encode::ambiguous, 8 x 8);
variant!(BluffMove, encode::BLUFF_MOVE, table::bluff_move, encode::bluff_move, 8 x 8);
variant!(Bs, encode::BS, table::bs, encode::bs, 8 x 8);
variant!(
    RealityCheck,
    encode::reality_check_planes(),
    table::reality_check,
    with_options encode::reality_check,
    9 x 7
);
