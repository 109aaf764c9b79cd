//! The variants, one folder each, all with the same shape (`docs/architecture.md`, "Adding a
//! variant"), and the one list of them.
//!
//! [`for_each_variant!`](crate::for_each_variant) is that list: every other list of variants is
//! built from it, in this crate (`registry::VARIANTS`, `AnyGame`, `AnyView`, `with_variant`) and in the
//! others (the bots' dispatch, the terminal's boards, the fuzz targets, the benchmarks). No file
//! outside this folder names a variant's folder.

pub mod alter_ego;
pub mod ambiguous;
pub mod bluff_move;
pub mod bs;
pub mod chess;
pub mod reality_check;

pub use alter_ego::{AlterEgo, AlterEgoBelief};
pub use ambiguous::{Ambiguous, AmbiguousBelief};
pub use bluff_move::{BluffMove, BluffMoveBelief};
pub use bs::{Bs, BsBelief};
pub use chess::{Chess, ChessBelief};
pub use reality_check::{RealityCheck, RealityCheckBelief};

/// The one list of variants, in the order menus list them. Calls the macro `$callback` with one
/// entry per variant: its doc comment, the name of its arm in enums such as `AnyGame`, and its
/// type, which implements [`Game`]:
///
/// ```text
/// $callback! {
///     /// Orthodox chess.
///     Chess(bluffchess_rules::variants::chess::Chess),
///     ...
/// }
/// ```
///
/// A crate that needs every variant with its own bounds (say `G: Game + Evaluate`) writes a
/// callback that matches `$($(#[$doc:meta])* $arm:ident($game:ty),)*` and expands to the items
/// it needs: a variant it does not cover is then a compile error.
///
/// ```
/// macro_rules! count {
///     ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
///         const COUNT: usize = [$(stringify!($arm)),*].len();
///     };
/// }
/// bluffchess_rules::for_each_variant!(count);
/// assert_eq!(COUNT, bluffchess_rules::VARIANTS.len());
/// ```
#[macro_export]
macro_rules! for_each_variant {
    ($callback:ident) => {
        $callback! {
            /// Orthodox chess.
            Chess($crate::variants::chess::Chess),
            /// Alter Ego Bluff Chess.
            AlterEgo($crate::variants::alter_ego::AlterEgo),
            /// Ambiguous Chess.
            Ambiguous($crate::variants::ambiguous::Ambiguous),
            /// Bluff-move Chess.
            BluffMove($crate::variants::bluff_move::BluffMove),
            /// Reality Check.
            RealityCheck($crate::variants::reality_check::RealityCheck),
            /// BS Chess.
            Bs($crate::variants::bs::Bs),
        }
    };
}
