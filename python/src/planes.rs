//! Observations as planes: the shape of a variant's observation ([`Layout`]), the planes every
//! variant starts with ([`HEADER`]), and an observation being written ([`Planes`]).

use bluffchess_rules::seat::{Actor, Seat};

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
