//! The rules options of Reality Check: the seed's variants that change the rules.

use crate::game::{OptionError, Options};

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

/// The option names, in canonical order.
const NAMES: [&str; 4] = ["dice", "flexible-setup", "memory", "strategic-retreat"];

impl Rules {
    /// Reads the options; every option is `true` or `false`.
    pub(super) fn from_options(options: &Options) -> Result<Rules, OptionError> {
        let mut rules = Rules::default();
        for (name, value) in options {
            let flag = match name.as_str() {
                "dice" => &mut rules.dice,
                "flexible-setup" => &mut rules.flexible_setup,
                "memory" => &mut rules.memory,
                "strategic-retreat" => &mut rules.strategic_retreat,
                _ => {
                    return Err(OptionError {
                        name: name.clone(),
                        reason: format!("unknown option: Reality Check has {}", NAMES.join(", ")),
                    })
                }
            };
            *flag = match value.as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(OptionError {
                        name: name.clone(),
                        reason: format!("must be true or false, not {value:?}"),
                    })
                }
            };
        }
        Ok(rules)
    }

    /// Every option with its value.
    pub(super) fn options(self) -> Options {
        let values = [
            self.dice,
            self.flexible_setup,
            self.memory,
            self.strategic_retreat,
        ];
        NAMES
            .iter()
            .zip(values)
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }
}
