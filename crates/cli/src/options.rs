//! A rules option on the command line: `--option name=value`.

/// A `--option` that is not `name=value`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not name=value")]
pub struct NotNameValue(String);

/// Reads `name=value`.
pub fn parse_option(text: &str) -> Result<(String, String), NotNameValue> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(NotNameValue(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_is_a_name_and_a_value() {
        assert_eq!(parse_option("spy=true"), Ok(("spy".into(), "true".into())));
        assert_eq!(parse_option("a=b=c"), Ok(("a".into(), "b=c".into())));
        for bad in ["spy", "=true", ""] {
            let refused = parse_option(bad).unwrap_err();
            assert_eq!(refused.to_string(), format!("{bad:?} is not name=value"));
        }
    }
}
