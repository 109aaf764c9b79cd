//! Squares in serialised data are their names (`"e4"`), as the action text writes them.

use super::Square;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

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
