//! The table of variants: each variant's id, display name, one-line summary and the schema of its
//! rules options. It is the one place the command line, the server's `GET /api/variants` and the
//! browser read; [`crate::any`] builds its enum and [`VARIANTS`] from one line per variant.
//!
//! Options are text (`{"spy": "true"}`) as the arbiter and the command line take them;
//! [`VariantSpec::read_options`] checks them against the schema, names the allowed values when one
//! is wrong, and fills in the defaults, so a variant only reads values it knows are valid.
//!
//! ```
//! use bluffchess_rules::registry::{spec, VARIANTS};
//! use bluffchess_rules::game::Options;
//!
//! assert_eq!(VARIANTS.len(), 6);
//! let bs = spec("bs").unwrap();
//! let options = bs.read_options(&Options::new()).unwrap();
//! assert_eq!(options.flag("spy"), false);
//! let bad = Options::from([("spy".to_string(), "maybe".to_string())]);
//! assert!(bs.read_options(&bad).unwrap_err().to_string().contains("true, false"));
//! ```

use crate::error::shorten;
use crate::options::{OptionError, Options};
use serde::Serialize;

pub use crate::any::VARIANTS;

/// What kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// One of a list of words.
    Choice,
}

/// One rules option: its name, the values it takes, its default and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    /// The name (`spy`).
    pub name: &'static str,
    /// What kind of value it takes.
    pub kind: OptionKind,
    /// Every value it takes.
    pub values: &'static [&'static str],
    /// The value when it is not given.
    pub default: &'static str,
    /// What it does, in one sentence.
    pub description: &'static str,
}

impl OptionSpec {
    /// A `true`/`false` option that is off unless given.
    pub const fn flag(name: &'static str, description: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Bool,
            values: &["true", "false"],
            default: "false",
            description,
        }
    }
}

/// One form of action a player types, with an example: what in-game help lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ActionForm {
    /// An example of the form (`transfer d1`).
    pub example: &'static str,
    /// When it is typed and what it does, in one line.
    pub meaning: &'static str,
}

impl ActionForm {
    /// A form and what it means.
    pub const fn new(example: &'static str, meaning: &'static str) -> ActionForm {
        ActionForm { example, meaning }
    }
}

/// The move forms of the variants whose moves are orthodox.
pub const ORTHODOX_MOVES: [ActionForm; 4] = [
    ActionForm::new(
        "e2e4",
        "a move in UCI, from-square then to-square, in any case (E2E4)",
    ),
    ActionForm::new(
        "e7e8q",
        "a promotion: add the new piece's letter, q, r, b or n",
    ),
    ActionForm::new("e1g1", "castling, as the king's move (e1c1 the long side)"),
    ActionForm::new("Nf3", "a move in SAN: e4, Nf3, exd5, O-O, O-O-O, e8=Q"),
];

/// One variant: how it is named and which options it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VariantSpec {
    /// The id (`alter-ego`).
    pub id: &'static str,
    /// The display name (`Alter Ego Bluff Chess`).
    pub name: &'static str,
    /// What makes it what it is, in one line.
    pub summary: &'static str,
    /// Its rules in full (Markdown, `docs/rules/ID.md`), embedded so that an installed binary
    /// has them. Not in the JSON: the server serves each page on its own.
    #[serde(skip)]
    pub rules: &'static str,
    /// Its rules options, in canonical order.
    pub options: &'static [OptionSpec],
    /// The forms of action its players type.
    pub actions: &'static [ActionForm],
}

/// Options checked against a variant's schema: every option present, each with a valid value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionValues(Options);

impl OptionValues {
    /// The value of `name` (an option of the schema).
    pub fn value(&self, name: &str) -> &str {
        self.0
            .get(name)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("option {name:?} is not in the variant's schema"))
    }

    /// Whether the `true`/`false` option `name` is on.
    pub fn flag(&self, name: &str) -> bool {
        self.value(name) == "true"
    }

    /// Every option with its value, defaults included.
    pub fn into_options(self) -> Options {
        self.0
    }
}

impl VariantSpec {
    /// The option called `name`.
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }

    /// Checks `given` against the schema and fills in the defaults.
    pub fn read_options(&self, given: &Options) -> Result<OptionValues, OptionError> {
        for (name, value) in given {
            let Some(spec) = self.option(name) else {
                return Err(OptionError {
                    name: shorten(name),
                    reason: self.unknown_option(),
                });
            };
            if !spec.values.contains(&value.as_str()) {
                return Err(OptionError {
                    name: name.clone(),
                    reason: format!(
                        "{:?} is not one of its values: {}",
                        shorten(value),
                        spec.values.join(", ")
                    ),
                });
            }
        }
        Ok(OptionValues(
            self.options
                .iter()
                .map(|o| {
                    let value = given.get(o.name).map_or(o.default, String::as_str);
                    (o.name.to_string(), value.to_string())
                })
                .collect(),
        ))
    }

    fn unknown_option(&self) -> String {
        match self.options {
            [] => format!("unknown option: {} has no options", self.name),
            options => format!(
                "unknown option: the options of {} are {}",
                self.name,
                options
                    .iter()
                    .map(|o| o.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// The variant with this id.
pub fn spec(id: &str) -> Option<&'static VariantSpec> {
    VARIANTS.iter().copied().find(|v| v.id == id)
}

/// Every variant id, comma-separated, for messages.
pub fn variant_ids() -> String {
    VARIANTS.iter().map(|v| v.id).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_reads_its_own_defaults() {
        for spec in VARIANTS {
            let defaults: Options = spec
                .options
                .iter()
                .map(|o| (o.name.to_string(), o.default.to_string()))
                .collect();
            let read = spec.read_options(&Options::new()).unwrap();
            assert_eq!(read.clone().into_options(), defaults, "{}", spec.id);
            assert_eq!(spec.read_options(&defaults).unwrap(), read, "{}", spec.id);
            for option in spec.options {
                assert!(option.values.contains(&option.default), "{}", option.name);
                assert!(!option.description.is_empty(), "{}", option.name);
            }
        }
    }

    #[test]
    fn an_unknown_option_is_refused_with_the_known_ones_named() {
        let rc = spec("reality-check").unwrap();
        let given = Options::from([("dices".to_string(), "true".to_string())]);
        let err = rc.read_options(&given).unwrap_err();
        assert_eq!(err.name, "dices");
        assert!(err
            .reason
            .contains("dice, flexible-setup, memory, strategic-retreat"));
        let chess = spec("chess").unwrap();
        let err = chess.read_options(&given).unwrap_err();
        assert!(
            err.reason.contains("Orthodox Chess has no options"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_value_is_refused_with_the_allowed_ones_named() {
        let amb = spec("ambiguous").unwrap();
        let given = Options::from([("stalemate".to_string(), "win".to_string())]);
        let err = amb.read_options(&given).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option \"stalemate\": \"win\" is not one of its values: loss, draw"
        );
    }

    #[test]
    fn ids_are_unique_and_every_variant_is_found() {
        for (i, a) in VARIANTS.iter().enumerate() {
            assert_eq!(spec(a.id), Some(*a));
            for b in &VARIANTS[i + 1..] {
                assert_ne!(a.id, b.id);
            }
        }
        assert_eq!(spec("fog"), None);
    }
}
