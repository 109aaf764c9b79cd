//! The table of variants: each variant's [`VariantSpec`] (id, display name, summary, option
//! schema), in the order of the one list of variants (`crate::variants`). It is what the command
//! line, the server's `GET /api/variants` and the browser read.
//!
//! ```
//! use bluffchess_rules::registry::{spec, VARIANTS};
//! use bluffchess_rules::options::Options;
//!
//! assert!(VARIANTS.iter().any(|v| v.id == "bs"));
//! let bs = spec("bs").unwrap();
//! let options = bs.read_options(&Options::new()).unwrap();
//! assert_eq!(options.flag("spy"), false);
//! let bad = Options::from([("spy".to_string(), "maybe".to_string())]);
//! assert!(bs.read_options(&bad).unwrap_err().to_string().contains("true, false"));
//! ```

use crate::game::Game;
use crate::spec::VariantSpec;

macro_rules! specs {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
        /// The variants this build plays, in the order menus list them.
        pub const VARIANTS: &[&VariantSpec] = &[$(&<$game as Game>::SPEC),*];
    };
}
crate::for_each_variant!(specs);

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
    use crate::options::Options;

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
    fn option_sets_give_every_value_of_every_option_in_every_combination() {
        assert_eq!(spec("chess").unwrap().option_sets(), [Options::new()]);
        for variant in VARIANTS {
            let sets = variant.option_sets();
            let expected: usize = variant.options.iter().map(|o| o.values.len()).product();
            assert_eq!(sets.len(), expected, "{}", variant.id);
            for (i, set) in sets.iter().enumerate() {
                assert_eq!(set.len(), variant.options.len());
                variant.read_options(set).unwrap();
                assert!(!sets[i + 1..].contains(set), "{set:?}");
            }
        }
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
