//! Bots: each decides from a [`Decision`] (a seat's view and legal actions) and nothing else.

use crate::budget::{Budget, Stop};
use crate::decision::Decision;
use crate::ismcts::{self, Settings, Tree};
use crate::sim::{parse_all, SearchError};
use crate::spec::{BotSpec, Kind};
use crate::variant::{dispatch, Variant, Visitor};
use crate::{alphabeta, greedy};
use bluffchess_rules::game::Belief;
use bluffchess_rules::view::View;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use std::any::Any;
use std::time::Duration;

/// Thinking time when a bot has neither a time nor an iteration budget nor a caller's limit.
pub const DEFAULT_MS: u64 = 200;

/// A bot's answer: the action and what led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The action's text.
    pub action: String,
    /// How it was found (`ismcts: 4096 iterations`), for people watching.
    pub detail: String,
    /// Set when the bot failed to answer (an outside program's malformed or late answer): the
    /// bot forfeits, for this reason.
    pub failure: Option<String>,
}

impl Answer {
    /// An answer with its detail.
    pub fn new(action: impl Into<String>, detail: impl Into<String>) -> Answer {
        Answer {
            action: action.into(),
            detail: detail.into(),
            failure: None,
        }
    }

    /// A failure to answer.
    pub fn failed(reason: impl Into<String>) -> Answer {
        Answer {
            action: String::new(),
            detail: String::new(),
            failure: Some(reason.into()),
        }
    }
}

/// A bot. It keeps what it learnt between decisions of one game (a search tree); a new game's
/// first decision starts it afresh.
pub trait Bot: Send {
    /// The bot's name with its parameters.
    fn name(&self) -> String;

    /// Chooses one of the decision's actions, thinking at most `limit` when given.
    fn act(&mut self, decision: &Decision, limit: Option<Duration>) -> Answer;
}

/// A bot of any built-in kind.
pub struct BuiltIn {
    spec: BotSpec,
    rng: StdRng,
    /// The ISMCTS tree of the current game, typed by its variant.
    tree: Option<Box<dyn Any + Send>>,
    /// Ends its searches early once raised.
    stop: Stop,
}

impl BuiltIn {
    /// The bot a spec names.
    pub fn new(spec: BotSpec) -> BuiltIn {
        BuiltIn {
            rng: StdRng::seed_from_u64(spec.seed),
            spec,
            tree: None,
            stop: Stop::new(),
        }
    }

    /// The same bot, whose searches end at their next check once `stop` is raised (by a caller
    /// that no longer wants the answer).
    pub fn with_stop(mut self, stop: Stop) -> BuiltIn {
        self.stop = stop;
        self
    }

    /// The bot named `text` (`ismcts:ms=200`).
    pub fn parse(text: &str) -> Result<BuiltIn, crate::spec::SpecError> {
        BotSpec::parse(text).map(BuiltIn::new)
    }
}

impl Bot for BuiltIn {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn act(&mut self, decision: &Decision, limit: Option<Duration>) -> Answer {
        let act = Act {
            bot: self,
            decision,
            limit,
        };
        let answer = dispatch(decision.view(), act);
        match answer {
            Ok(answer) => answer,
            Err(problem) => Answer::new(
                random(decision, &mut self.rng),
                format!("random: the search failed: {problem}"),
            ),
        }
    }
}

/// A random legal action: `setup random` when a setup is due and it is offered.
pub fn random(decision: &Decision, rng: &mut StdRng) -> String {
    let legal = decision.legal();
    if decision.setup() && legal.iter().any(|a| a == "setup random") {
        return "setup random".to_string();
    }
    legal.choose(rng).cloned().unwrap_or_default()
}

/// Whether the choice among `legal` is nothing but a bluff decision ([`Variant::bluff_decision`]),
/// judged on the actions read in a world the view allows.
fn bluff_decision<G: Variant>(
    view: &View<G::Summary>,
    legal: &[String],
) -> Result<bool, SearchError> {
    let worlds = G::Belief::from_view(view)?;
    Ok(G::bluff_decision(&parse_all(worlds.witness(), legal)))
}

struct Act<'a> {
    bot: &'a mut BuiltIn,
    decision: &'a Decision,
    limit: Option<Duration>,
}

impl Visitor for Act<'_> {
    type Output = Result<Answer, SearchError>;

    fn visit<G: Variant>(self, view: &View<G::Summary>) -> Self::Output {
        let Act {
            bot,
            decision,
            limit,
        } = self;
        let spec = &bot.spec;
        let legal = decision.legal();
        // The default: alpha-beta (over sampled worlds where something is hidden), but ISMCTS
        // with regret matching at the bluff decisions.
        let kind = match spec.kind {
            Kind::Default if !decision.setup() && bluff_decision::<G>(view, legal)? => Kind::Ismcts,
            Kind::Default => Kind::AlphaBeta,
            kind => kind,
        };
        if decision.setup() && kind != Kind::Random {
            let action =
                G::setup(view, &mut bot.rng).unwrap_or_else(|| random(decision, &mut bot.rng));
            return Ok(Answer::new(action, "setup policy".to_string()));
        }
        let budget =
            Budget::new(spec.ms, spec.iterations, limit, DEFAULT_MS).with_stop(bot.stop.clone());
        match kind {
            Kind::Random => Ok(Answer::new(random(decision, &mut bot.rng), "random")),
            Kind::Greedy => {
                let samples = spec.samples.unwrap_or(if G::SPEC.hidden { 8 } else { 1 });
                let action = greedy::choose::<G>(view, legal, samples, &mut bot.rng)?;
                Ok(Answer::new(action, format!("greedy over {samples} worlds")))
            }
            Kind::AlphaBeta => {
                let depth = spec.depth.unwrap_or(64);
                let samples = spec.samples.unwrap_or(alphabeta::SAMPLES);
                let found =
                    alphabeta::search::<G>(view, legal, depth, samples, budget, &mut bot.rng)?;
                Ok(Answer::new(
                    found.action,
                    format!(
                        "alphabeta: depth {} in {} worlds, {} nodes, expects {:.0}%",
                        found.depth,
                        found.worlds,
                        found.nodes,
                        found.expected * 100.0
                    ),
                ))
            }
            Kind::Ismcts | Kind::Default => {
                let settings = Settings {
                    samples: spec.samples.unwrap_or(Settings::default().samples),
                    depth: spec.depth.unwrap_or(0),
                };
                let fresh = bot.tree.as_ref().is_none_or(|t| !t.is::<Tree<G::Action>>());
                if fresh {
                    bot.tree = Some(Box::new(Tree::<G::Action>::default()));
                }
                let tree = bot
                    .tree
                    .as_mut()
                    .and_then(|t| t.downcast_mut::<Tree<G::Action>>())
                    .expect("the tree was just made for this variant");
                let found = ismcts::search::<G>(view, legal, tree, settings, budget, &mut bot.rng)?;
                Ok(Answer::new(
                    found.action,
                    format!("ismcts: {} iterations", found.iterations),
                ))
            }
        }
    }
}
