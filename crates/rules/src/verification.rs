//! A record's verification: a replay under a new arbiter that checks every entry (each action,
//! its public text, its commitment against its opening, Chance's rolls against the seed, the
//! seed against its commitment, the players' meta events and the outcome).

use crate::arbiter::{Arbiter, ArbiterError};
use crate::board::Color;
use crate::commitment::{chain, commit, commit_seed, salt_from_hex, SaltSource};
use crate::game::Game;
use crate::options::OptionError;
use crate::outcome::Outcome;
use crate::record::{MetaKind, Record, RecordedAction};
use crate::seat::Actor;
use std::fmt;

/// What is wrong with a record: the first bad entry and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{entry}: {problem}")]
pub struct VerifyError {
    /// The entry at fault.
    pub entry: Entry,
    /// What is wrong with it.
    pub problem: Problem,
}

impl VerifyError {
    /// A stable machine id for the kind of problem (`digest-mismatch`, `roll-changed`, ...).
    pub fn id(&self) -> &'static str {
        self.problem.id()
    }
}

/// An entry of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The variant's id.
    Variant,
    /// The rules options.
    Options,
    /// The seed and its commitment.
    Seed,
    /// Action `N` (from 0).
    Action(usize),
    /// Meta event `N` (from 0): an offer, a resignation, a claim.
    Meta(usize),
    /// The outcome.
    Outcome,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Variant => f.write_str("variant"),
            Entry::Options => f.write_str("options"),
            Entry::Seed => f.write_str("seed"),
            Entry::Action(i) => write!(f, "action {i}"),
            Entry::Meta(i) => write!(f, "meta {i}"),
            Entry::Outcome => f.write_str("outcome"),
        }
    }
}

/// What is wrong with an entry of a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The variant is not one of ours.
    #[error("unknown variant {0:?}")]
    UnknownVariant(String),
    /// The options are not the variant's.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// An action's index is not its place in the record.
    #[error("its index is {found}, expected {expected}")]
    Index {
        /// The recorded index.
        found: usize,
        /// Its place.
        expected: usize,
    },
    /// An action recorded for an actor whose turn it is not.
    #[error("recorded as {0}'s, but it is not {0}'s turn")]
    NotTheirTurn(Actor),
    /// The rules refuse the action or the meta event.
    #[error(transparent)]
    Refused(#[from] ArbiterError),
    /// The running digest does not match the public record up to the entry.
    #[error("its digest does not match the record up to it: the record was altered")]
    Digest,
    /// The game is over but the seed's commitment was never opened.
    #[error("the game is over but the seed's commitment was never opened")]
    SeedUnopened,
    /// The game is over but a hidden action's commitment was never opened.
    #[error("the game is over but its commitment was never opened")]
    CommitmentUnopened,
    /// The recorded outcome is not the replay's.
    #[error("recorded {}, the replay gives {}", outcome_text(*.recorded), outcome_text(*.replayed))]
    Outcome {
        /// The recorded outcome.
        recorded: Option<Outcome>,
        /// The replay's.
        replayed: Option<Outcome>,
    },
    /// The seed's salt is not 64 hex digits.
    #[error("the seed's salt is not 64 hex digits")]
    SeedSalt,
    /// The seed does not match its commitment.
    #[error("the seed does not match its commitment: the seed was changed")]
    SeedChanged,
    /// Chance's recorded outcome is not the one the seed gives.
    #[error("Chance's outcome {recorded:?} is not the seed's, {seeded:?}: the roll was changed")]
    RollChanged {
        /// The recorded outcome.
        recorded: String,
        /// The seed's.
        seeded: String,
    },
    /// A meta event placed out of order.
    #[error("placed after action count {0}, which is out of order")]
    MetaOrder(usize),
    /// An action's text is not in canonical form.
    #[error("{recorded:?} is not in canonical form ({canonical:?})")]
    NotCanonical {
        /// The recorded text.
        recorded: String,
        /// The canonical text.
        canonical: String,
    },
    /// An action's public text is not the rules'.
    #[error("public text {recorded:?} differs from the rules' {rules:?}")]
    PublicText {
        /// The recorded public text.
        recorded: String,
        /// The rules'.
        rules: String,
    },
    /// A hidden action without a commitment.
    #[error("a hidden action without a commitment")]
    NoCommitment,
    /// A commitment on an action that is not hidden.
    #[error("a commitment on an action that is not hidden")]
    NotHidden,
    /// A salt that is not 64 hex digits.
    #[error("the salt is not 64 hex digits")]
    Salt,
    /// An opening that does not match its commitment.
    #[error("the opening does not match its commitment")]
    Opening,
    /// A salt on an action that is not hidden.
    #[error("a salt on an action that is not hidden")]
    SaltNotHidden,
}

impl Problem {
    /// A stable machine id for the kind of problem.
    pub fn id(&self) -> &'static str {
        match self {
            Problem::UnknownVariant(_) => "unknown-variant",
            Problem::Options(_) => "bad-options",
            Problem::Index { .. } => "bad-index",
            Problem::NotTheirTurn(_) => "not-their-turn",
            Problem::Refused(_) => "refused",
            Problem::Digest => "digest-mismatch",
            Problem::SeedUnopened => "seed-unopened",
            Problem::CommitmentUnopened => "commitment-unopened",
            Problem::Outcome { .. } => "outcome-mismatch",
            Problem::SeedSalt => "bad-seed-salt",
            Problem::SeedChanged => "seed-changed",
            Problem::RollChanged { .. } => "roll-changed",
            Problem::MetaOrder(_) => "meta-out-of-order",
            Problem::NotCanonical { .. } => "not-canonical",
            Problem::PublicText { .. } => "public-text-mismatch",
            Problem::NoCommitment => "missing-commitment",
            Problem::NotHidden => "commitment-not-hidden",
            Problem::Salt => "bad-salt",
            Problem::Opening => "opening-mismatch",
            Problem::SaltNotHidden => "salt-not-hidden",
        }
    }
}

fn bad<T>(entry: Entry, problem: impl Into<Problem>) -> Result<T, VerifyError> {
    Err(VerifyError {
        entry,
        problem: problem.into(),
    })
}

/// Replays a record of variant `G` and checks every action, every public text, every commitment
/// against its opening, and the outcome. Returns the outcome. (`any::verify` reads the variant
/// from the record.)
pub fn verify_as<G: Game>(record: &Record) -> Result<Option<Outcome>, VerifyError> {
    if record.variant != G::ID {
        let problem = Problem::UnknownVariant(record.variant.clone());
        return bad(Entry::Variant, problem);
    }
    let game = Arbiter::<G>::with_id(
        &record.options,
        record.seed,
        SaltSource::Seeded(record.seed),
        record.game_id.clone(),
    );
    let mut game = match game {
        Ok(game) => game,
        Err(e) => return bad(Entry::Options, e),
    };
    // The replay chooses Chance's outcomes from the record, each checked against the seed first.
    game = game.scripted();
    check_seed(record)?;
    let mut metas = record.meta.iter().enumerate().peekable();
    for (i, recorded) in record.actions.iter().enumerate() {
        while let Some((m, meta)) = metas.next_if(|(_, meta)| meta.after <= i) {
            replay_meta(&mut game, m, meta.seat, meta.kind, meta.after, i)?;
        }
        let entry = Entry::Action(i);
        if recorded.index != i {
            let problem = Problem::Index {
                found: recorded.index,
                expected: i,
            };
            return bad(entry, problem);
        }
        if game.to_act() != Some(recorded.actor) {
            return bad(entry, Problem::NotTheirTurn(recorded.actor));
        }
        if !record.scripted {
            check_roll(&game, entry, &recorded.text)?;
        }
        if let Err(e) = game.play(&recorded.text) {
            return bad(entry, e);
        }
        let replayed = game.last_recorded().expect("an action was played");
        check_action(entry, recorded, replayed, &record.game_id)?;
        let previous = match i {
            0 => &record.game_id,
            _ => &record.actions[i - 1].digest,
        };
        let digest = chain(
            previous,
            i,
            recorded.actor.name(),
            &recorded.public,
            recorded.commitment.as_deref(),
        );
        if digest != recorded.digest {
            return bad(entry, Problem::Digest);
        }
    }
    for (m, meta) in metas {
        let after = record.actions.len();
        replay_meta(&mut game, m, meta.seat, meta.kind, meta.after, after)?;
    }
    let outcome = game.outcome();
    if outcome.is_some() && record.seed_commitment.is_some() && record.seed_salt.is_none() {
        return bad(Entry::Seed, Problem::SeedUnopened);
    }
    if outcome.is_some() {
        if let Some(a) = record
            .actions
            .iter()
            .find(|a| a.commitment.is_some() && a.salt.is_none())
        {
            return bad(Entry::Action(a.index), Problem::CommitmentUnopened);
        }
    }
    if outcome != record.outcome {
        let problem = Problem::Outcome {
            recorded: record.outcome,
            replayed: outcome,
        };
        return bad(Entry::Outcome, problem);
    }
    Ok(outcome)
}

fn outcome_text(outcome: Option<Outcome>) -> String {
    outcome.map_or("no outcome (the game goes on)".to_string(), |o| {
        format!("\"{o}\"")
    })
}

/// Checks the seed against its commitment, once it is opened.
fn check_seed(record: &Record) -> Result<(), VerifyError> {
    let (Some(commitment), Some(salt_hex)) = (&record.seed_commitment, &record.seed_salt) else {
        return Ok(());
    };
    let Some(salt) = salt_from_hex(salt_hex) else {
        return bad(Entry::Seed, Problem::SeedSalt);
    };
    if commit_seed(&record.game_id, record.seed, &salt) != *commitment {
        return bad(Entry::Seed, Problem::SeedChanged);
    }
    Ok(())
}

/// Checks that Chance's recorded outcome is the one the seed gives.
fn check_roll<G: Game>(game: &Arbiter<G>, entry: Entry, text: &str) -> Result<(), VerifyError> {
    match game.seeded_roll() {
        Some(seeded) if seeded != text => {
            let problem = Problem::RollChanged {
                recorded: text.to_string(),
                seeded,
            };
            bad(entry, problem)
        }
        _ => Ok(()),
    }
}

fn replay_meta<G: Game>(
    game: &mut Arbiter<G>,
    index: usize,
    seat: Color,
    kind: MetaKind,
    after: usize,
    actions_so_far: usize,
) -> Result<(), VerifyError> {
    let entry = Entry::Meta(index);
    if after != actions_so_far {
        return bad(entry, Problem::MetaOrder(after));
    }
    game.meta(seat, kind).map(drop).or_else(|e| bad(entry, e))
}

fn check_action(
    entry: Entry,
    recorded: &RecordedAction,
    replayed: &RecordedAction,
    game_id: &str,
) -> Result<(), VerifyError> {
    if recorded.text != replayed.text {
        let problem = Problem::NotCanonical {
            recorded: recorded.text.clone(),
            canonical: replayed.text.clone(),
        };
        return bad(entry, problem);
    }
    if recorded.public != replayed.public {
        let problem = Problem::PublicText {
            recorded: recorded.public.clone(),
            rules: replayed.public.clone(),
        };
        return bad(entry, problem);
    }
    match (&recorded.commitment, replayed.commitment.is_some()) {
        (None, true) => bad(entry, Problem::NoCommitment),
        (Some(_), false) => bad(entry, Problem::NotHidden),
        (Some(commitment), true) => match &recorded.salt {
            None => Ok(()),
            Some(salt_hex) => {
                let Some(salt) = salt_from_hex(salt_hex) else {
                    return bad(entry, Problem::Salt);
                };
                if commit(game_id, recorded.index, &recorded.text, &salt) != *commitment {
                    return bad(entry, Problem::Opening);
                }
                Ok(())
            }
        },
        (None, false) if recorded.salt.is_some() => bad(entry, Problem::SaltNotHidden),
        (None, false) => Ok(()),
    }
}
