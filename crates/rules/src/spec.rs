//! The schema of a variant: its id, display name, one-line summary, rules text, action forms and
//! the options it takes, as every variant states it in `Game::SPEC`.
//!
//! Options are text (`{"spy": "true"}`) as the arbiter and the command line take them;
//! [`VariantSpec::read_options`] checks them against the schema, names the allowed values when one
//! is wrong, and fills in the defaults, so a variant only reads values it knows are valid.

use crate::error::shorten;
use crate::options::{OptionError, Options};
use serde::Serialize;

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
    /// Whether a seat may be kept from seeing something: an action, a piece or a setup of the
    /// other seat's that its view does not show. Without it both seats and the spectator see the
    /// whole game (a search needs no sampled worlds; OpenSpiel may call it perfect information).
    pub hidden: bool,
    /// Whether Chance takes part under some of its options: it rolls (`Actor::Chance`), or a seat
    /// sets up hidden pieces in one of too many ways to list (`Game::setup_due`), which a model of
    /// the game draws at random (OpenSpiel's chance nodes, one square at a time).
    pub chance: bool,
    /// Whether a seat may choose its next move before its turn (a premove): each of its turns
    /// offers moves from square to square of the 8x8 board (after any answer the turn asks
    /// first, such as BS's call), so that a move chosen ahead is judged against the legal list
    /// when the turn comes.
    pub premove: bool,
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

    /// Every combination of its options, each option given each of its values (one empty set
    /// for a variant without options): what a test that must meet every rule plays under. Some
    /// combinations may be ones the rules refuse.
    pub fn option_sets(&self) -> Vec<Options> {
        self.options
            .iter()
            .fold(vec![Options::new()], |sets, option| {
                sets.iter()
                    .flat_map(|set| {
                        option.values.iter().map(move |value| {
                            let mut set = set.clone();
                            set.insert(option.name.to_string(), value.to_string());
                            set
                        })
                    })
                    .collect()
            })
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
