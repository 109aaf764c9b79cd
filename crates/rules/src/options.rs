//! Rules options as given (text by name), and the refusal of one a variant does not take. Each
//! variant checks its own against its schema (`crate::spec::VariantSpec::read_options`).

use std::collections::BTreeMap;

/// Rules options, by name, as given (`{"checkmate": "true"}`); each variant checks its own.
pub type Options = BTreeMap<String, String>;

/// An option that a variant does not know or cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("option {name:?}: {reason}")]
pub struct OptionError {
    /// The option's name.
    pub name: String,
    /// What is wrong.
    pub reason: String,
}

impl OptionError {
    /// A stable machine id for the kind of refusal: `bad-options`.
    pub fn id(&self) -> &'static str {
        "bad-options"
    }
}
