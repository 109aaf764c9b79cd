//! Bots by name with parameters: `random`, `greedy`, `alphabeta:depth=4`, `ismcts:ms=200`,
//! `ismcts:iterations=5000:seed=7`. Parameters follow the name, each `key=value`, separated by
//! `:` or `,`.

use std::fmt;

/// The kinds of bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A uniformly random legal action.
    Random,
    /// One ply on the evaluation, averaged over sampled worlds.
    Greedy,
    /// Alpha-beta with iterative deepening: on the position where nothing is hidden, else
    /// averaged over worlds sampled from the belief.
    AlphaBeta,
    /// Information-set Monte Carlo tree search.
    Ismcts,
    /// The strongest bot of each variant: alpha-beta, but ISMCTS with regret matching at the
    /// bluff decisions of the variants with hidden information.
    Default,
}

impl Kind {
    const ALL: [(Kind, &'static str); 5] = [
        (Kind::Random, "random"),
        (Kind::Greedy, "greedy"),
        (Kind::AlphaBeta, "alphabeta"),
        (Kind::Ismcts, "ismcts"),
        (Kind::Default, "default"),
    ];

    /// The name.
    pub fn name(self) -> &'static str {
        Kind::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |(_, n)| n)
    }

    /// The parameters it takes.
    fn parameters(self) -> &'static [&'static str] {
        match self {
            Kind::Random => &["seed"],
            Kind::Greedy => &["seed", "samples"],
            Kind::AlphaBeta => &["seed", "depth", "ms", "samples"],
            Kind::Ismcts | Kind::Default => &["seed", "ms", "iterations", "samples", "depth"],
        }
    }
}

/// A bot's name and parameters, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// Which bot.
    pub kind: Kind,
    /// The seed of its random choices (default 0).
    pub seed: u64,
    /// Thinking time per decision in milliseconds (a limit the caller gives may shorten it).
    pub ms: Option<u64>,
    /// ISMCTS iterations (alpha-beta: nodes) per decision (deterministic for a seed).
    pub iterations: Option<u64>,
    /// Alpha-beta: the depth in plies; ISMCTS: the cut-off depth below the tree.
    pub depth: Option<u32>,
    /// How many worlds are sampled from the belief.
    pub samples: Option<usize>,
}

/// What is wrong with a bot's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No bot has this name.
    #[error("unknown bot {0:?}: the bots are random, greedy, alphabeta, ismcts, default")]
    UnknownBot(String),
    /// The bot takes no such parameter.
    #[error("bot {bot} has no parameter {name:?}: its parameters are {known}")]
    UnknownParameter {
        /// The bot.
        bot: &'static str,
        /// The parameter given.
        name: String,
        /// The parameters it takes.
        known: String,
    },
    /// A parameter without `=value`.
    #[error("parameter {0:?} is not key=value")]
    NotKeyValue(String),
    /// A value that cannot be read.
    #[error("parameter {name}: {value:?} is not {expected}")]
    BadValue {
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// The same parameter twice.
    #[error("parameter {0} is given twice")]
    Repeated(String),
}

impl BotSpec {
    /// A bot of `kind` with default parameters.
    pub fn new(kind: Kind) -> BotSpec {
        BotSpec {
            kind,
            seed: 0,
            ms: None,
            iterations: None,
            depth: None,
            samples: None,
        }
    }

    /// Reads `name[:key=value...]`.
    pub fn parse(text: &str) -> Result<BotSpec, SpecError> {
        let mut parts = text.trim().split([':', ',']);
        let name = parts.next().unwrap_or_default();
        let kind = Kind::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(k, _)| *k)
            .ok_or_else(|| SpecError::UnknownBot(bluffchess_rules::error::shorten(name)))?;
        let mut spec = BotSpec::new(kind);
        let mut seen = Vec::new();
        for part in parts.filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(bluffchess_rules::error::shorten(part)))?;
            if !kind.parameters().contains(&key) {
                return Err(SpecError::UnknownParameter {
                    bot: kind.name(),
                    name: bluffchess_rules::error::shorten(key),
                    known: kind.parameters().join(", "),
                });
            }
            if seen.contains(&key) {
                return Err(SpecError::Repeated(key.to_string()));
            }
            seen.push(key);
            spec.set(key, value)?;
        }
        Ok(spec)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        match key {
            "seed" => self.seed = number(key, value, 0)?,
            "ms" => self.ms = Some(number(key, value, 1)?),
            "iterations" => self.iterations = Some(number(key, value, 1)?),
            "depth" => self.depth = Some(number(key, value, 1)?.min(64) as u32),
            "samples" => self.samples = Some(number(key, value, 1)?.min(4096) as usize),
            _ => unreachable!("parameters are checked against the bot's list"),
        }
        Ok(())
    }
}

/// A whole number of at least `min`.
fn number(name: &str, value: &str, min: u64) -> Result<u64, SpecError> {
    match value.parse::<u64>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(SpecError::BadValue {
            name: name.to_string(),
            value: bluffchess_rules::error::shorten(value),
            expected: if min == 0 {
                "a whole number"
            } else {
                "a whole number of at least 1"
            },
        }),
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        let params = [
            ("ms", self.ms),
            ("iterations", self.iterations),
            ("depth", self.depth.map(u64::from)),
            ("samples", self.samples.map(|s| s as u64)),
        ];
        for (key, value) in params {
            if let Some(value) = value {
                write!(f, ":{key}={value}")?;
            }
        }
        if self.seed != 0 {
            write!(f, ":seed={}", self.seed)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parameters_are_read() {
        let spec = BotSpec::parse("ismcts:ms=200,seed=7").unwrap();
        assert_eq!(spec.kind, Kind::Ismcts);
        assert_eq!((spec.ms, spec.seed), (Some(200), 7));
        let spec = BotSpec::parse("alphabeta:depth=3").unwrap();
        assert_eq!((spec.kind, spec.depth), (Kind::AlphaBeta, Some(3)));
        assert_eq!(
            BotSpec::parse("random").unwrap(),
            BotSpec::new(Kind::Random)
        );
        let text = "ismcts:iterations=500:seed=3";
        assert_eq!(BotSpec::parse(text).unwrap().to_string(), text);
    }

    #[test]
    fn bad_names_and_parameters_are_refused_by_name() {
        let err = |text: &str| BotSpec::parse(text).unwrap_err().to_string();
        assert_eq!(
            err("stockfish"),
            "unknown bot \"stockfish\": the bots are random, greedy, alphabeta, ismcts, default"
        );
        assert_eq!(
            err("random:ms=3"),
            "bot random has no parameter \"ms\": its parameters are seed"
        );
        assert_eq!(err("ismcts:ms"), "parameter \"ms\" is not key=value");
        assert_eq!(
            err("ismcts:ms=0"),
            "parameter ms: \"0\" is not a whole number of at least 1"
        );
        assert_eq!(
            err("greedy:seed=x"),
            "parameter seed: \"x\" is not a whole number"
        );
        assert_eq!(err("ismcts:ms=1:ms=2"), "parameter ms is given twice");
    }
}
