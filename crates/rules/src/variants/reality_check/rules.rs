//! The rules options of Reality Check: the seed's variants that change the rules.

use super::setup::Placement;
use crate::board::board39::{Bitboard39, Shape};
use crate::board::Color;
use crate::options::Options;
use crate::spec::{OptionKind, OptionSpec, OptionValues};

/// The rules options in force. Variant Zero (memory mode) is a display setting of the terminal
/// client, not an option: it never changes what a seat may know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// Variant One, Strategic Retreat: a side may capture its own pieces into its hand, within
    /// the hand limit.
    pub strategic_retreat: bool,
    /// Variant Two, Memory: a fifth kind of turn flips two enemy pieces and compares their hidden
    /// faces.
    pub memory: bool,
    /// Variant Three, Flexibility: each side sets up its nine pieces anywhere in its own half, and
    /// White may not capture on its first turn.
    pub flexible_setup: bool,
    /// The dice variant: after a non-capturing move a die says which piece may be flipped.
    pub dice: bool,
    /// The board: the basic diamond, or the Advanced board (Variants Three and Four), which
    /// brings Variant Three's free setup with it.
    pub board: Shape,
}

/// The options, in canonical order.
pub(super) const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "board",
        kind: OptionKind::Choice,
        values: &["basic", "advanced"],
        default: "basic",
        description: "Variants Three and Four: the Advanced board, 7x7 with ten holes, set up freely on nine of one's ten corner squares (Variant Three's setup).",
    },
    OptionSpec::flag(
        "dice",
        "After every non-capturing move Chance rolls a die that says which piece may be flipped.",
    ),
    OptionSpec::flag(
        "flexible-setup",
        "Variant Three: each side sets up its nine pieces anywhere in its own half; White may not capture on its first turn.",
    ),
    OptionSpec::flag(
        "memory",
        "Variant Two: a fifth kind of turn flips two enemy pieces and compares their hidden faces.",
    ),
    OptionSpec::flag(
        "strategic-retreat",
        "Variant One: a side may capture its own pieces into its hand, within the hand limit.",
    ),
];

impl Rules {
    /// Reads options checked against [`OPTIONS`].
    pub(super) fn from_values(values: &OptionValues) -> Rules {
        Rules {
            strategic_retreat: values.flag("strategic-retreat"),
            memory: values.flag("memory"),
            flexible_setup: values.flag("flexible-setup"),
            dice: values.flag("dice"),
            board: Shape::from_name(values.value("board")).expect("a value of the schema"),
        }
    }

    /// Whether the setup is Variant Three's, hidden and free (which also forbids White's
    /// captures on its first turn): under Flexibility, and always on the Advanced board.
    pub fn free_setup(self) -> bool {
        self.flexible_setup || self.board == Shape::Advanced
    }

    /// The squares `color` sets up on when its setup is free (its half under Flexibility, its
    /// ten-square region on the Advanced board), or `None` for the seed's diagram.
    pub fn setup_squares(self, color: Color) -> Option<Bitboard39> {
        let placement = self.placement();
        (placement != Placement::Diagram).then(|| placement.squares(color))
    }

    /// Where and how each side sets up.
    pub(super) fn placement(self) -> Placement {
        match (self.board, self.flexible_setup) {
            (Shape::Advanced, _) => Placement::Region,
            (Shape::Basic, true) => Placement::Half,
            (Shape::Basic, false) => Placement::Diagram,
        }
    }

    /// Every option with its value.
    pub(super) fn options(self) -> Options {
        let values = [
            self.board.name().to_string(),
            self.dice.to_string(),
            self.flexible_setup.to_string(),
            self.memory.to_string(),
            self.strategic_retreat.to_string(),
        ];
        OPTIONS
            .iter()
            .map(|o| o.name.to_string())
            .zip(values)
            .collect()
    }
}
