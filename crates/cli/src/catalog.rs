//! What the command line says about the variants, all read from the registry: the list for
//! `--help`, and each variant's rules (the registry embeds them: an installed binary has no docs).

use bluffchess_rules::registry::{variant_ids, VARIANTS};

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
    match VARIANTS.iter().find(|v| v.id == variant) {
        Some(spec) => Ok(spec.rules),
        None => Err(format!(
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
    fn every_variant_has_its_rules() {
        for spec in VARIANTS {
            let text = rules(spec.id).unwrap();
            assert!(text.len() > 200, "{}", spec.id);
            assert!(text.contains(spec.name), "{}: {}", spec.id, spec.name);
        }
        assert!(rules("fog").unwrap_err().contains("the variants are"));
    }
}
