//! What the command line says about the variants, all read from the registry: the list for
//! `--help`, and each variant's rules, embedded in the binary (an installed binary has no docs).

use bluffchess_rules::registry::{variant_ids, VARIANTS};

/// Each variant's rules page, by id (a test checks that every variant has one).
const RULES: &[(&str, &str)] = &[
    ("chess", include_str!("../../../docs/rules/chess.md")),
    (
        "alter-ego",
        include_str!("../../../docs/rules/alter-ego.md"),
    ),
    (
        "ambiguous",
        include_str!("../../../docs/rules/ambiguous.md"),
    ),
    (
        "bluff-move",
        include_str!("../../../docs/rules/bluff-move.md"),
    ),
    ("bs", include_str!("../../../docs/rules/bs.md")),
    (
        "reality-check",
        include_str!("../../../docs/rules/reality-check.md"),
    ),
];

/// The variants and every option with its values, default and meaning.
pub fn variants_help() -> String {
    let mut text = String::from("Variants (--variant ID; options --option NAME=VALUE):\n");
    for spec in VARIANTS {
        text.push_str(&format!(
            "  {:<14} {}: {}\n",
            spec.id, spec.name, spec.summary
        ));
        for option in spec.options {
            text.push_str(&format!(
                "      {}={} (default {}): {}\n",
                option.name,
                option.values.join("|"),
                option.default,
                option.description
            ));
        }
    }
    text.push_str("Rules of a variant: bluffchess rules ID");
    text
}

/// The rules of `variant`, or an error naming the known variants.
pub fn rules(variant: &str) -> Result<&'static str, String> {
    let known = VARIANTS.iter().any(|v| v.id == variant);
    match RULES.iter().find(|(id, _)| *id == variant) {
        Some((_, text)) if known => Ok(text),
        _ => Err(format!(
            "unknown variant {:?}: the variants are {}",
            bluffchess_rules::game::shorten(variant),
            variant_ids()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_rules_and_no_other() {
        for spec in VARIANTS {
            assert!(rules(spec.id).unwrap().len() > 200, "{}", spec.id);
        }
        assert_eq!(RULES.len(), VARIANTS.len());
    }
}
