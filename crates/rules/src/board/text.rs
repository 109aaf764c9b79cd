//! Squares in serialised data are their names (`"e4"`), as the action text writes them.

use super::square::Square;

/// Serialises a type as its `Display` text and reads it back with a parser whose error (of type
/// `$error`) names what is wrong, so that data and action texts spell things alike.
macro_rules! serde_as_text {
    ($ty:ty, $error:ty, $parse:expr) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(deserializer)?;
                let parse: fn(&str) -> Result<$ty, $error> = $parse;
                parse(&text).map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use serde_as_text;

serde_as_text!(Square, super::square::ParseSquareError, |text| text.parse());

#[cfg(test)]
mod tests {
    use super::Square;

    #[test]
    fn squares_serialise_as_names() {
        assert_eq!(serde_json::to_string(&Square::E4).unwrap(), "\"e4\"");
        assert_eq!(
            serde_json::from_str::<Square>("\"h8\"").unwrap(),
            Square::H8
        );
        assert!(serde_json::from_str::<Square>("\"i9\"").is_err());
    }
}
