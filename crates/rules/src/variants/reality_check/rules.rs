//! The rules options of Reality Check: the seed's variants that change the rules.

use crate::game::Options;
use crate::spec::{OptionSpec, OptionValues};

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
}

/// The options, in canonical order.
pub(super) const OPTIONS: &[OptionSpec] = &[
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
        }
    }

    /// Every option with its value.
    pub(super) fn options(self) -> Options {
        let values = [
            self.dice,
            self.flexible_setup,
            self.memory,
            self.strategic_retreat,
        ];
        OPTIONS
            .iter()
            .map(|o| o.name)
            .zip(values)
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }
}
