//! `bluffchess arena`: games between two bots, colours alternated on the same seeds, in
//! parallel, with a table in the style of cutechess-cli and fastchess at the end.

use bluffchess_ai::arena::{play, ArenaError, Played};
use bluffchess_ai::{Answer, Bot, BotSpec, BuiltIn, Decision, SpecError};
use bluffchess_rules::any::NewGameError;
use bluffchess_rules::error::shorten;
use bluffchess_rules::options::Options;
use bluffchess_rules::registry::spec;
use bluffchess_rules::Color;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;
use std::time::Duration;

/// The arena's arguments.
#[derive(Args)]
pub struct ArenaArgs {
    /// The variant.
    #[arg(long)]
    variant: String,
    /// A bot, twice: a built-in name with parameters (`ismcts:ms=50`) or `cmd:PROGRAM ARGS`, an
    /// outside program speaking the engine protocol.
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// The number of games (rounded up to pairs: each seed is played with colours swapped).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Thinking time per decision, in milliseconds.
    #[arg(long, default_value_t = 50)]
    movetime: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A rules option of the variant, `name=value` (repeatable).
    #[arg(long = "option", value_parser = crate::options::parse_option)]
    options: Vec<(String, String)>,
    /// A folder for every game's record (`game-N.json`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The first game's seed (pairs take the next ones).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// One finished game, from the first bot's side.
struct Result1 {
    index: usize,
    score: f64,
    reason: String,
}

/// Plays the match and prints the table.
/// Why the match was not played to its end.
#[derive(Debug, thiserror::Error)]
pub enum ArenaFailure {
    /// Not two `--bot`s.
    #[error("--bot is given {0} times: the arena takes two")]
    BotCount(usize),
    /// A `--bot` names no bot.
    #[error(transparent)]
    Bot(#[from] SpecError),
    /// An outside program could not be started.
    #[error(transparent)]
    Outside(#[from] OutsideError),
    /// The variant or its options.
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// A game could not go on.
    #[error(transparent)]
    Game(#[from] ArenaError),
    /// A file of `--out` could not be written.
    #[error("cannot write {}: {error}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

pub fn run(args: &ArenaArgs) -> Result<(), ArenaFailure> {
    let [first, second] = args.bots.as_slice() else {
        return Err(ArenaFailure::BotCount(args.bots.len()));
    };
    // Check both names before any game.
    drop(make_bot(first, 0, Duration::ZERO)?);
    drop(make_bot(second, 0, Duration::ZERO)?);
    if spec(&args.variant).is_none() {
        return Err(NewGameError::UnknownVariant(shorten(&args.variant)).into());
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|error| ArenaFailure::Write {
            path: dir.clone(),
            error,
        })?;
    }
    let options: Options = args.options.iter().cloned().collect();
    let games = args.games.div_ceil(2) * 2;
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} {msg}")
            .expect("the template is valid"),
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let movetime = Duration::from_millis(args.movetime);
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= games {
                    break;
                }
                match one_game(args, &options, index, movetime) {
                    Ok(result) => results.lock().expect("no panic holds it").push(result),
                    Err(e) => *failure.lock().expect("no panic holds it") = Some(e),
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().expect("no panic holds it") {
        return Err(e);
    }
    let mut results = results.into_inner().expect("no panic holds it");
    results.sort_by_key(|r| r.index);
    print!("{}", table(first, second, args, &results));
    Ok(())
}

/// Game `index`: pair `index / 2` on seed `seed + pair`, the first bot White in even games.
fn one_game(
    args: &ArenaArgs,
    options: &Options,
    index: usize,
    movetime: Duration,
) -> Result<Result1, ArenaFailure> {
    let seed = args.seed + (index / 2) as u64;
    let first_white = index % 2 == 0;
    let mut a = make_bot(&args.bots[0], seed, movetime)?;
    let mut b = make_bot(&args.bots[1], seed, movetime)?;
    let (white, black): (&mut dyn Bot, &mut dyn Bot) = match first_white {
        true => (a.as_mut(), b.as_mut()),
        false => (b.as_mut(), a.as_mut()),
    };
    let played = play(
        &args.variant,
        options,
        seed,
        white,
        black,
        Some(movetime),
        usize::MAX,
    )?;
    if let Some(dir) = &args.out {
        let path = dir.join(format!("game-{index}.json"));
        let text = serde_json::to_string_pretty(&played.record).expect("a record serialises");
        std::fs::write(&path, text + "\n").map_err(|error| ArenaFailure::Write { path, error })?;
    }
    Ok(Result1 {
        index,
        score: score_of(
            &played,
            if first_white {
                Color::White
            } else {
                Color::Black
            },
        ),
        reason: played.reason,
    })
}

fn score_of(played: &Played, color: Color) -> f64 {
    match played.winner {
        Some(winner) if winner == color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// A bot by name: built-in (seeded per game) or an outside program.
fn make_bot(name: &str, seed: u64, movetime: Duration) -> Result<Box<dyn Bot>, ArenaFailure> {
    if let Some(command) = name.strip_prefix("cmd:") {
        return Ok(Box::new(Outside::start(command, movetime)?));
    }
    let mut spec = BotSpec::parse(name)?;
    spec.seed ^= seed;
    Ok(Box::new(BuiltIn::new(spec)))
}

/// The table: games, wins, draws, losses, score, Elo difference with its 95% interval, and
/// the reasons games ended.
fn table(first: &str, second: &str, args: &ArenaArgs, results: &[Result1]) -> String {
    let n = results.len() as f64;
    let count = |s: f64| results.iter().filter(|r| r.score == s).count();
    let (wins, draws, losses) = (count(1.0), count(0.5), count(0.0));
    let score = results.iter().map(|r| r.score).sum::<f64>() / n;
    let variance = results
        .iter()
        .map(|r| (r.score - score).powi(2))
        .sum::<f64>()
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        *reasons.entry(r.reason.as_str()).or_default() += 1;
    }
    let mut out = format!(
        "Arena: {} ({}), {first} vs {second}, {} ms a move\n",
        args.variant,
        args.options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
        args.movetime
    );
    out += &format!(
        "Score of {first} vs {second}: {wins} - {losses} - {draws}  [{:.3}] {}\n",
        score,
        results.len()
    );
    out += &format!(
        "Elo difference: {:+.1} +/- {:.1} (95% interval {:+.1} to {:+.1}), score {:.1}% +/- {:.1}%\n",
        elo(score),
        (elo(score + margin) - elo(score - margin)) / 2.0,
        elo(score - margin),
        elo(score + margin),
        100.0 * score,
        100.0 * margin
    );
    out += "Ends:\n";
    for (reason, k) in reasons {
        out += &format!("  {k:>5}  {reason}\n");
    }
    out
}

/// An outside program speaking the engine protocol, one process per game.
struct Outside {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    movetime: Duration,
}

/// What went wrong with an outside program.
#[derive(Debug, thiserror::Error)]
pub enum OutsideError {
    /// `cmd:` with nothing after it.
    #[error("cmd: names no program")]
    NoProgram,
    /// The program did not start.
    #[error("cannot start {program:?}: {error}")]
    Start {
        /// The program.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// The program's pipes are missing.
    #[error("no pipe to or from the program")]
    NoPipe,
    /// The program closed its input.
    #[error("the program is gone: {0}")]
    Gone(std::io::Error),
    /// No answer within the move time and the grace.
    #[error("no answer in time")]
    Late,
    /// An answer that is not `{"ok": true, "action": ...}`.
    #[error("malformed answer {0}")]
    Malformed(String),
}

/// Time an outside program gets beyond `movetime` before it forfeits (process start, pipes).
const GRACE: Duration = Duration::from_millis(1000);

impl Outside {
    fn start(command: &str, movetime: Duration) -> Result<Outside, OutsideError> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or(OutsideError::NoProgram)?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| OutsideError::Start {
                program: program.to_string(),
                error,
            })?;
        let stdin = child.stdin.take().ok_or(OutsideError::NoPipe)?;
        let stdout = child.stdout.take().ok_or(OutsideError::NoPipe)?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Outside {
            child,
            stdin,
            lines,
            movetime,
        })
    }

    fn ask(&mut self, decision: &Decision) -> Result<String, OutsideError> {
        let mut request = json!({
            "cmd": "act",
            "view": decision.view(),
            "legal": decision.legal(),
            "setup": decision.setup(),
            "movetime_ms": self.movetime.as_millis() as u64,
        });
        if let Some(described) = decision.legal_actions() {
            request["legal_actions"] = json!(described);
        }
        writeln!(self.stdin, "{request}").map_err(OutsideError::Gone)?;
        let line = self
            .lines
            .recv_timeout(self.movetime + GRACE)
            .map_err(|_| OutsideError::Late)?;
        let answer: Value = serde_json::from_str(&line)
            .map_err(|_| OutsideError::Malformed(format!("{line:?}")))?;
        match (
            answer.get("ok"),
            answer.get("action").and_then(Value::as_str),
        ) {
            (Some(Value::Bool(true)), Some(action)) => Ok(action.to_string()),
            _ => Err(OutsideError::Malformed(shorten(&line))),
        }
    }
}

impl Bot for Outside {
    fn name(&self) -> String {
        "outside program".to_string()
    }

    fn act(&mut self, decision: &Decision, _limit: Option<Duration>) -> Answer {
        match self.ask(decision) {
            Ok(action) => Answer::new(action, "outside program"),
            Err(reason) => Answer::failed(reason.to_string()),
        }
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", json!({"cmd": "quit"}));
        let _ = self.child.wait();
    }
}
