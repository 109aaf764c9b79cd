//! The terms two players agree on before a game: variant, options, clock, rated, colour.

use crate::error::ApiError;
use crate::request::{color_of, options_of};
use crate::wire::{ClockRequest, TermsRequest, TimeControl, VariantRef};
use bluffchess_rules::any::AnyGame;
use bluffchess_rules::board::Color;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::options::Options;

/// A game's terms, checked against the rules.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Terms {
    pub variant: String,
    pub options: Options,
    /// Initial and increment, in ms.
    pub clock: Option<(i64, i64)>,
    pub rated: bool,
    /// The asker's colour; `None` for random.
    pub color: Option<Color>,
}

impl Terms {
    /// Reads and checks a request's terms (the variant and options by the rules themselves).
    pub fn read(request: TermsRequest) -> Result<Terms, ApiError> {
        let terms = Terms {
            variant: request.variant,
            options: options_of(request.options)?,
            clock: request.clock.map(ClockRequest::millis).transpose()?,
            rated: request.rated.unwrap_or(false),
            color: color_of(request.color.as_deref())?,
        };
        AnyGame::new(&terms.variant, &terms.options, 0, SaltSource::Seeded(0))
            .map_err(|e| ApiError::bad(e.to_string()))?;
        Ok(terms)
    }

    /// Whether two askers' terms make one game: the same game, and colours that fit.
    pub fn fits(&self, other: &Terms) -> bool {
        let colours = match (self.color, other.color) {
            (Some(a), Some(b)) => a != b,
            _ => true,
        };
        self.variant == other.variant
            && self.options == other.options
            && self.clock == other.clock
            && self.rated == other.rated
            && colours
    }

    /// The asker's colour as text.
    pub fn color_name(&self) -> String {
        match self.color {
            Some(Color::White) => "white",
            Some(Color::Black) => "black",
            None => "random",
        }
        .into()
    }

    /// The asker's seat in the game: its choice, else the other's opposite, else `coin`.
    pub fn asker_seat(&self, other: Option<Color>, coin: bool) -> Color {
        match (self.color, other) {
            (Some(c), _) => c,
            (None, Some(c)) => !c,
            (None, None) if coin => Color::White,
            (None, None) => Color::Black,
        }
    }

    /// The variant as lichess names it.
    pub fn variant_ref(&self) -> VariantRef {
        VariantRef {
            key: self.variant.clone(),
        }
    }

    /// The clock as lichess writes it.
    pub fn time_control(&self) -> TimeControl {
        match self.clock {
            Some((initial, increment)) => TimeControl {
                increment: Some(increment / 1000),
                limit: Some(initial / 1000),
                show: format!("{}+{}", seconds_shown(initial), increment / 1000),
                kind: "clock".into(),
            },
            None => TimeControl {
                increment: None,
                limit: None,
                show: "∞".into(),
                kind: "unlimited".into(),
            },
        }
    }

    /// The options as stored with a game (JSON).
    pub fn options_json(&self) -> String {
        serde_json::to_string(&self.options).expect("options serialise")
    }
}

/// Minutes when whole (`5`), else seconds as a fraction of a minute (`½`, `0.25`).
fn seconds_shown(ms: i64) -> String {
    match ms {
        _ if ms % 60_000 == 0 => (ms / 60_000).to_string(),
        30_000 => "½".into(),
        15_000 => "¼".into(),
        _ => format!("{}", ms as f64 / 60_000.0),
    }
}

/// Reads a seek's rating range, `"1400-1800"`, refusing nonsense.
pub fn rating_range(text: Option<&str>) -> Result<Option<[i64; 2]>, ApiError> {
    let Some(text) = text else { return Ok(None) };
    let bad = || {
        ApiError::bad(
            "\"ratingRange\" must be \"LOW-HIGH\" with 0 <= LOW <= HIGH <= 4000 (\"1400-1800\")",
        )
    };
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    let low: i64 = low.trim().parse().map_err(|_| bad())?;
    let high: i64 = high.trim().parse().map_err(|_| bad())?;
    if !(0..=high).contains(&low) || high > 4000 {
        return Err(bad());
    }
    Ok(Some([low, high]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(color: Option<Color>) -> Terms {
        Terms {
            variant: "chess".into(),
            options: Options::new(),
            clock: Some((180_000, 2_000)),
            rated: true,
            color,
        }
    }

    #[test]
    fn colours_fit_unless_both_ask_the_same() {
        let (w, b) = (Some(Color::White), Some(Color::Black));
        assert!(terms(w).fits(&terms(b)));
        assert!(terms(None).fits(&terms(w)));
        assert!(!terms(w).fits(&terms(w)));
        let mut casual = terms(None);
        casual.rated = false;
        assert!(!terms(None).fits(&casual));
    }

    #[test]
    fn the_asker_keeps_its_choice_or_takes_the_other_side() {
        assert_eq!(
            terms(None).asker_seat(Some(Color::White), true),
            Color::Black
        );
        assert_eq!(
            terms(Some(Color::Black)).asker_seat(None, true),
            Color::Black
        );
        assert_eq!(terms(None).asker_seat(None, false), Color::Black);
    }

    #[test]
    fn ranges_are_read_or_refused() {
        assert_eq!(rating_range(Some("1400-1800")).unwrap(), Some([1400, 1800]));
        assert_eq!(rating_range(None).unwrap(), None);
        for bad in ["1800-1400", "abc", "-5-10", "1500", "0-9000", ""] {
            let e = rating_range(Some(bad)).unwrap_err();
            assert!(e.to_string().contains("ratingRange"), "{bad}: {e}");
        }
    }

    #[test]
    fn time_controls_read_as_lichess_writes_them() {
        assert_eq!(terms(None).time_control().show, "3+2");
        let mut t = terms(None);
        t.clock = None;
        assert_eq!(t.time_control().kind, "unlimited");
    }
}
