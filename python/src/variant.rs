//! What the package needs of each variant: its belief, its observation planes and its action
//! table. The one list of variants in this crate is [`for_variant!`].

use crate::table::{self, Table};
use bluffchess_rules::belief::Belief;
use bluffchess_rules::game::{Actor, Game, Options, Seat};
use bluffchess_rules::variants::alter_ego::AlterEgoBelief;
use bluffchess_rules::variants::ambiguous::AmbiguousBelief;
use bluffchess_rules::variants::bluff_move::BluffMoveBelief;
use bluffchess_rules::variants::bs::BsBelief;
use bluffchess_rules::variants::chess::ChessBelief;
use bluffchess_rules::variants::reality_check::RealityCheckBelief;
use bluffchess_rules::{AlterEgo, Ambiguous, BluffMove, Bs, Chess, RealityCheck};
use std::sync::OnceLock;

/// Runs `$body` with `$G` the type of the variant whose id is `$id`, or `$other` for an unknown
/// id.
macro_rules! for_variant {
    ($id:expr, $G:ident => $body:expr, else => $other:expr) => {{
        use bluffchess_rules::game::Game as _;
        let id: &str = $id;
        if id == bluffchess_rules::Chess::ID {
            type $G = bluffchess_rules::Chess;
            $body
        } else if id == bluffchess_rules::AlterEgo::ID {
            type $G = bluffchess_rules::AlterEgo;
            $body
        } else if id == bluffchess_rules::Ambiguous::ID {
            type $G = bluffchess_rules::Ambiguous;
            $body
        } else if id == bluffchess_rules::BluffMove::ID {
            type $G = bluffchess_rules::BluffMove;
            $body
        } else if id == bluffchess_rules::RealityCheck::ID {
            type $G = bluffchess_rules::RealityCheck;
            $body
        } else if id == bluffchess_rules::Bs::ID {
            type $G = bluffchess_rules::Bs;
            $body
        } else {
            $other
        }
    }};
}
pub(crate) use for_variant;

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
    /// The seat's knowledge, rebuilt from its view.
    type Belief: Belief<Game = Self>;

    /// The observation's planes.
    fn layout() -> &'static Layout;

    /// The fixed action-index space.
    fn table() -> &'static Table;

    /// Writes the variant's own planes of what `seat` knows (the common ones are written), in
    /// a game under `options` (Reality Check's board is one).
    fn encode(summary: &Self::Summary, options: &Options, seat: Seat, planes: &mut Planes<'_>);
}

/// The [`Variant`] of a rules type: its belief, its planes (a list of names, or a function
/// giving them), its table and its encoder (in `crate::encode`; `with_options` before one that
/// reads the rules options), on a grid of `height` ranks and `width` files.
macro_rules! variant {
    ($game:ty, $belief:ty, $planes:expr, $table:path, with_options $encode:path, $height:literal x $width:literal) => {
        variant!(@impl $game, $belief, $planes, $table, |s, options, seat, planes| $encode(s, options, seat, planes), $height x $width);
    };
    ($game:ty, $belief:ty, $planes:expr, $table:path, $encode:path, $height:literal x $width:literal) => {
        variant!(@impl $game, $belief, $planes, $table, |s, _options, seat, planes| $encode(s, seat, planes), $height x $width);
    };
    (@impl $game:ty, $belief:ty, $planes:expr, $table:path, |$s:ident, $o:ident, $seat:ident, $p:ident| $encode:expr, $height:literal x $width:literal) => {
        impl Variant for $game {
            type Belief = $belief;
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
variant!(Chess, ChessBelief, encode::CHESS, table::chess, encode::chess, 8 x 8);
variant!(AlterEgo, AlterEgoBelief, encode::ALTER_EGO, table::alter_ego, encode::alter_ego, 8 x 8);
variant!(Ambiguous, AmbiguousBelief, encode::AMBIGUOUS, table::ambiguous, encode::ambiguous, 8 x 8);
variant!(BluffMove, BluffMoveBelief, encode::BLUFF_MOVE, table::bluff_move, encode::bluff_move, 8 x 8);
variant!(Bs, BsBelief, encode::BS, table::bs, encode::bs, 8 x 8);
variant!(
    RealityCheck,
    RealityCheckBelief,
    encode::reality_check_planes(),
    table::reality_check,
    with_options encode::reality_check,
    9 x 7
);
