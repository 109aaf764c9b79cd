//! What the command line says about the variants, all read from the registry: the list for
//! `--help`, the table for programs (`bluffchess variants`), and each variant's rules (the
//! registry embeds them: an installed binary has no docs).

use bluffchess_rules::any::NewGameError;
use bluffchess_rules::error::shorten;
use bluffchess_rules::registry::VARIANTS;
use serde_json::{json, Value};

/// The table of variants for programs: each variant's spec as `GET /api/variants` gives it,
/// with every combination of its options (`option_sets`), which a check that must meet every
/// rule plays under (`scripts/fingerprint`).
pub fn variants_json() -> Value {
    let variants: Vec<Value> = VARIANTS
        .iter()
        .map(|spec| {
            let mut value = serde_json::to_value(spec).expect("a spec serialises");
            value["option_sets"] = json!(spec.option_sets());
            value
        })
        .collect();
    json!({ "variants": variants })
}

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
pub fn rules(variant: &str) -> Result<&'static str, NewGameError> {
    match VARIANTS.iter().find(|v| v.id == variant) {
        Some(spec) => Ok(spec.rules),
        None => Err(NewGameError::UnknownVariant(shorten(variant))),
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
        let refused = rules("fog").unwrap_err().to_string();
        assert!(refused.contains("the variants are"), "{refused}");
    }

    #[test]
    fn the_table_gives_each_variant_its_facts_and_option_sets() {
        let table = variants_json();
        let listed = table["variants"].as_array().unwrap();
        assert_eq!(listed.len(), VARIANTS.len());
        for (value, spec) in listed.iter().zip(VARIANTS) {
            assert_eq!(value["id"], spec.id);
            assert_eq!(value["hidden"], spec.hidden);
            assert_eq!(value["chance"], spec.chance);
            assert_eq!(value["premove"], spec.premove);
            assert_eq!(value["option_sets"], json!(spec.option_sets()));
        }
        let bs = listed.iter().find(|v| v["id"] == "bs").unwrap();
        assert_eq!(
            bs["option_sets"],
            json!([{"spy": "true"}, {"spy": "false"}])
        );
    }
}
