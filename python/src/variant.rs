//! What the package needs of each variant: its observation planes and its action table (its
//! belief is the rules crate's `Game::Belief`). The variants are the rules crate's one list
//! (`for_each_variant!`), reached through [`with_variant`].

use crate::table::{self, Table};
use bluffchess_rules::game::{Actor, Game, Options, Seat};
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

/// The shape of a variant's observation: named planes over a grid of cells.
pub struct Layout {
    /// The planes' names, in order.
    pub planes: Vec<String>,
    /// Rows (ranks, the first rank first).
    pub height: usize,
    /// Columns (files, file a first).
    pub width: usize,
}

impl Layout {
    /// A layout of the common planes followed by `planes`.
    pub fn new<S: AsRef<str>>(planes: &[S], height: usize, width: usize) -> Layout {
        let planes = HEADER
            .iter()
            .map(|p| p.to_string())
            .chain(planes.iter().map(|p| p.as_ref().to_string()))
            .collect();
        Layout {
            planes,
            height,
            width,
        }
    }

    /// Values in one observation.
    pub fn size(&self) -> usize {
        self.planes.len() * self.height * self.width
    }
}

/// The planes every variant starts with.
pub const HEADER: [&str; 6] = [
    "seat is white",
    "seat is black",
    "white to act",
    "black to act",
    "chance to act",
    "seat to act",
];

/// Where the variant's own planes start.
pub const FIRST: usize = HEADER.len();

/// An observation being written: planes of `height * width` cells.
pub struct Planes<'a> {
    data: &'a mut [f32],
    cells: usize,
}

impl<'a> Planes<'a> {
    /// Zeroes `data` and writes the common planes.
    pub fn new(data: &'a mut [f32], layout: &Layout, seat: Seat, to_act: Option<Actor>) -> Self {
        data.fill(0.0);
        let mut planes = Planes {
            data,
            cells: layout.height * layout.width,
        };
        planes.flag(0, seat == Seat::White);
        planes.flag(1, seat == Seat::Black);
        planes.flag(2, to_act == Some(Actor::White));
        planes.flag(3, to_act == Some(Actor::Black));
        planes.flag(4, to_act == Some(Actor::Chance));
        let seat_acts = matches!(
            (seat, to_act),
            (Seat::White, Some(Actor::White)) | (Seat::Black, Some(Actor::Black))
        );
        planes.flag(5, seat_acts);
        planes
    }

    /// Sets one cell of a plane.
    pub fn set(&mut self, plane: usize, cell: i32, value: f32) {
        if cell >= 0 && (cell as usize) < self.cells {
            self.data[plane * self.cells + cell as usize] = value;
        }
    }

    /// Fills a whole plane with `value` (clipped to 0..1).
    pub fn fill(&mut self, plane: usize, value: f32) {
        let value = value.clamp(0.0, 1.0);
        self.data[plane * self.cells..(plane + 1) * self.cells].fill(value);
    }

    /// Fills a whole plane with 1 when `on`.
    pub fn flag(&mut self, plane: usize, on: bool) {
        if on {
            self.fill(plane, 1.0);
        }
    }
}

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

use crate::encode;
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
