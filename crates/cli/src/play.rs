//! `bluffchess play`: a game in the terminal against a bot (random unless `--bot` names another), showing only your seat's view.
//! It reads plain lines from standard input, so it can be scripted.

use crate::render::{self, turn::Turn};
use bluffchess_ai::{Bot, BotSpec, BuiltIn, Decision, SpecError};
use bluffchess_rules::any::{AnyGame, NewGameError};
use bluffchess_rules::board::Color;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::event::{Event, EventKind};
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::spec::VariantSpec;
use bluffchess_rules::{AnyView, Bs, RealityCheck};
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

#[derive(Args)]
pub struct PlayArgs {
    /// The variant (its id: see below).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Your side.
    #[arg(long = "as", value_enum, default_value = "white")]
    side: Side,
    /// The seed of the bot's choices and of Chance (default: random).
    #[arg(long)]
    seed: Option<u64>,
    /// A rules option of the variant, `name=value` (repeatable; see below).
    #[arg(long = "option", value_parser = crate::options::parse_option)]
    options: Vec<(String, String)>,
    /// How pieces are named, in BS Chess only: `plain`, or `silly` for the joke names (Dude,
    /// Horsey, ...).
    #[arg(long, value_enum)]
    theme: Option<Theme>,
    /// Reality Check only: Variant Zero, the display never repeats past events and shows no face
    /// that is not in sight (the game and its views are unchanged).
    #[arg(long)]
    memory_mode: bool,
    /// Start the game as scripted: you type Chance's outcomes (`die 3`, or `roll`) instead of
    /// their being drawn from the seed; the record says so.
    #[arg(long)]
    scripted: bool,
    /// Write the game record (JSON) to this file when the game is over.
    #[arg(long)]
    record: Option<PathBuf>,
    /// The bot you play (`random`, `greedy`, `ismcts:ms=500`, ...: see `bluffchess engine --help`).
    #[arg(long, default_value = "random")]
    bot: String,
}

/// A display theme: it changes words on the screen, never the game.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Theme {
    Plain,
    Silly,
}

/// The terminal's own commands. None is a word any variant's action starts with (a test checks).
pub const COMMANDS: &[(&str, &str)] = &[
    ("moves", "list your legal actions"),
    ("board", "show the board again"),
    ("draw offer", "offer a draw"),
    ("draw accept", "accept the opponent's draw offer"),
    ("draw decline", "decline it (acting declines it too)"),
    ("draw claim", "claim a draw the rules allow now"),
    ("resign", "give up"),
    ("help", "this text"),
    ("quit", "leave without finishing"),
];

struct Terminal<'a, W: Write> {
    game: AnyGame,
    theme: Theme,
    me: Color,
    memory_mode: bool,
    scripted: bool,
    /// How many of the events this seat may see have been printed.
    shown: usize,
    out: &'a mut W,
    bot: BuiltIn,
}

/// Plays one game; returns when it ends or input runs out.
pub fn run(args: &PlayArgs) -> Result<(), PlayFailure> {
    check_display_flags(args)?;
    let options: Options = args.options.iter().cloned().collect();
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut spec = BotSpec::parse(&args.bot)?;
    spec.seed ^= seed;
    let mut game = AnyGame::new(&args.variant, &options, seed, SaltSource::Os)?;
    if args.scripted {
        game = game.scripted();
    }
    let me = match args.side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut terminal = Terminal {
        game,
        theme: args.theme.unwrap_or(Theme::Plain),
        me,
        memory_mode: args.memory_mode,
        scripted: args.scripted,
        shown: 0,
        out: &mut out,
        bot: BuiltIn::new(spec),
    };
    terminal.play(&mut stdin.lock())?;
    match &args.record {
        Some(path) if terminal.game.outcome().is_some() => {
            let record =
                serde_json::to_string_pretty(&terminal.game.record()).expect("a record serialises");
            std::fs::write(path, record + "\n").map_err(|error| PlayFailure::Record {
                path: path.clone(),
                error,
            })
        }
        _ => Ok(()),
    }
}

/// Why a game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayFailure {
    /// A display flag of another variant.
    #[error("{flag} applies to {name} ({id}) only, not {variant:?}")]
    Flag {
        /// The flag.
        flag: &'static str,
        /// The variant it is for.
        name: &'static str,
        /// That variant's id.
        id: &'static str,
        /// The variant chosen.
        variant: String,
    },
    /// `--bot` names no bot.
    #[error(transparent)]
    Bot(#[from] SpecError),
    /// The variant or its options.
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// The terminal failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The record could not be written.
    #[error("cannot write {}: {error}", path.display())]
    Record {
        /// Where.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// Refuses a display flag that the chosen variant has no use for.
fn check_display_flags(args: &PlayArgs) -> Result<(), PlayFailure> {
    let refuse = |flag, name, id| PlayFailure::Flag {
        flag,
        name,
        id,
        variant: args.variant.clone(),
    };
    if args.theme.is_some() && args.variant != Bs::ID {
        return Err(refuse("--theme", Bs::NAME, Bs::ID));
    }
    if args.memory_mode && args.variant != RealityCheck::ID {
        return Err(refuse(
            "--memory-mode",
            RealityCheck::NAME,
            RealityCheck::ID,
        ));
    }
    Ok(())
}

impl<W: Write> Terminal<'_, W> {
    fn play(&mut self, input: &mut impl BufRead) -> std::io::Result<()> {
        let spec = self.game.spec();
        writeln!(
            self.out,
            "{} as {}. Type help for the commands and the action forms.",
            spec.name, self.me
        )?;
        self.show_position()?;
        loop {
            match self.game.to_act() {
                None => return self.finish(),
                Some(Actor::Chance) if !self.scripted => {
                    let _ = self.game.roll();
                    self.after_action()?;
                }
                Some(actor) if actor.color().is_some_and(|c| c != self.me) => {
                    self.bot_acts(!self.me)?
                }
                Some(actor) => {
                    write!(self.out, "{actor}> ")?;
                    self.out.flush()?;
                    let mut line = String::new();
                    if input.read_line(&mut line)? == 0 {
                        writeln!(self.out, "\ninput ended; the game is left unfinished")?;
                        return Ok(());
                    }
                    if !self.command(line.trim())? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Handles one line; `false` means leave.
    fn command(&mut self, line: &str) -> std::io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["help"] | ["?"] => self.help()?,
            ["moves"] | ["legal"] => self.show_legal()?,
            ["board"] => self.show_position()?,
            ["quit"] | ["exit"] => {
                writeln!(self.out, "left the game unfinished")?;
                return Ok(false);
            }
            ["resign"] => self.meta(MetaKind::Resign)?,
            ["draw", "offer"] => self.meta(MetaKind::OfferDraw)?,
            ["draw", "accept"] => self.meta(MetaKind::AcceptDraw)?,
            ["draw", "claim"] => self.meta(MetaKind::ClaimDraw)?,
            ["draw", "decline"] => self.decline()?,
            ["draw", ..] => writeln!(
                self.out,
                "refused: type draw offer, draw accept, draw decline or draw claim"
            )?,
            _ if self.game.to_act() == Some(Actor::Chance) && line == "roll" => {
                let _ = self.game.roll();
                self.after_action()?;
            }
            _ => match self.game.play(line) {
                Ok(_) => self.after_action()?,
                Err(e) => writeln!(self.out, "refused: {e}")?,
            },
        }
        Ok(true)
    }

    fn meta(&mut self, kind: MetaKind) -> std::io::Result<()> {
        match self.game.meta(self.me, kind) {
            Ok(_) => {
                // Only the event: the position has not changed.
                self.show_events()?;
                if kind == MetaKind::OfferDraw {
                    writeln!(self.out, "the bot answers by playing on")?;
                }
                Ok(())
            }
            Err(e) => writeln!(self.out, "refused: {e}"),
        }
    }

    fn decline(&mut self) -> std::io::Result<()> {
        match self.game.draw_offer() {
            Some(seat) if seat != self.me => writeln!(
                self.out,
                "you decline {seat}'s draw offer; it lapses when you act"
            ),
            _ => writeln!(
                self.out,
                "refused: there is no draw offer from {} to decline",
                !self.me
            ),
        }
    }

    fn bot_acts(&mut self, color: Color) -> std::io::Result<()> {
        // The bot decides from its own seat's view; its move is shown as this seat sees it (in
        // the events that follow), and a refusal's reason, the bot's own knowledge, is not shown.
        let decision = self.game.legal().and_then(|legal| {
            Decision::new(
                self.game.typed_view(color.into()),
                legal.actions,
                legal.setup,
            )
            .ok()
        });
        let acted = match decision {
            Some(decision) => {
                let start = std::time::Instant::now();
                let answer = self.bot.act(&decision, None);
                writeln!(
                    self.out,
                    "{} thought {:.2} s",
                    self.bot.name(),
                    start.elapsed().as_secs_f64()
                )?;
                self.game.play(&answer.action).is_ok()
            }
            None => false,
        };
        if !acted {
            writeln!(self.out, "the bot cannot act and resigns")?;
            let _ = self.game.meta(color, MetaKind::Resign);
        }
        self.after_action()
    }

    /// After any action: its events, then (if the game goes on) the position and what is due.
    /// The board is drawn whenever this seat acts next, so a seat that acts twice in a row sees
    /// its first action's result.
    fn after_action(&mut self) -> std::io::Result<()> {
        if self.game.to_act().is_none() {
            return Ok(());
        }
        self.show_events()?;
        if self.my_turn() {
            self.show_position()
        } else {
            self.show_status()
        }
    }

    fn my_turn(&self) -> bool {
        match self.game.to_act() {
            Some(Actor::Chance) => self.scripted,
            Some(actor) => actor.color() == Some(self.me),
            None => false,
        }
    }

    fn view(&self) -> AnyView {
        let mut view = self.game.typed_view(Seat::from(self.me));
        if let (AnyView::RealityCheck(v), true) = (&mut view, self.memory_mode) {
            render::reality_check::without_reminders(&mut v.position, self.me);
        }
        view
    }

    fn turn(&self) -> Turn {
        Turn {
            me: self.me,
            actor: self.game.to_act().and_then(Actor::color),
        }
    }

    fn show_position(&mut self) -> std::io::Result<()> {
        let view = self.view();
        writeln!(self.out)?;
        let board = render::board(&view, self.me);
        write!(self.out, "{}", self.themed(&board))?;
        self.show_status()?;
        if self.my_turn() {
            self.show_legal()?;
        }
        Ok(())
    }

    fn show_status(&mut self) -> std::io::Result<()> {
        for line in render::status(&self.view(), self.turn()) {
            writeln!(self.out, "{line}")?;
        }
        if self.game.to_act() == Some(Actor::Chance) && self.scripted {
            writeln!(self.out, "Chance acts: type its outcome, or roll")?;
        }
        Ok(())
    }

    /// Text in the chosen theme's words.
    fn themed(&self, text: &str) -> String {
        match self.theme {
            Theme::Plain => text.to_string(),
            Theme::Silly => render::silly(text),
        }
    }

    /// The events this seat may see that are not printed yet.
    fn new_events(&mut self) -> Vec<Event> {
        let seat = Seat::from(self.me);
        let view = self.view();
        let new: Vec<Event> = view
            .events()
            .iter()
            .filter(|e| e.seats.includes(seat))
            .skip(self.shown)
            .cloned()
            .collect();
        self.shown += new.len();
        new
    }

    fn show_events(&mut self) -> std::io::Result<()> {
        let check = render::in_check(&self.view());
        let events = self.new_events();
        let last_move = events.iter().rposition(|e| e.kind == EventKind::Action);
        for (i, event) in events.iter().enumerate() {
            // A seat's own hidden action shows as its own text, not as the sealed public form.
            let own_sealed =
                event.kind == EventKind::Sealed && event.actor.color() == Some(self.me);
            if own_sealed {
                continue;
            }
            let line = render::event(event, check && Some(i) == last_move);
            writeln!(self.out, "{}", self.themed(&line))?;
        }
        Ok(())
    }

    fn show_legal(&mut self) -> std::io::Result<()> {
        match self.game.legal() {
            Some(legal) if legal.setup => writeln!(
                self.out,
                "a setup is due; shortcuts: {}",
                legal.actions.join(", ")
            ),
            Some(legal) => writeln!(self.out, "legal: {}", legal.actions.join(" ")),
            None => writeln!(self.out, "the game is over"),
        }
    }

    fn help(&mut self) -> std::io::Result<()> {
        let text = help_text(self.game.spec(), &self.game.record().options);
        write!(self.out, "{text}")
    }

    /// The end: this seat's last events (ending with "game over"), what the end reveals, the
    /// result.
    fn finish(&mut self) -> std::io::Result<()> {
        self.show_events()?;
        let seat = Seat::from(self.me);
        let view = self.view();
        let hidden: Vec<&Event> = view
            .events()
            .iter()
            .filter(|e| !e.seats.includes(seat))
            .collect();
        if !hidden.is_empty() {
            writeln!(self.out, "revealed:")?;
        }
        for event in hidden {
            let line = render::event(event, false);
            writeln!(self.out, "{}", self.themed(&line))?;
        }
        let board = render::board(&view, self.me);
        write!(self.out, "{}", self.themed(&board))?;
        self.reveal_seed()?;
        let outcome = self.game.outcome().expect("the game is over");
        let verdict = match outcome.winner {
            Some(w) if w == self.me => "you win",
            Some(_) => "you lose",
            None => "draw",
        };
        writeln!(self.out, "result: {outcome} ({verdict})")
    }
}

impl<W: Write> Terminal<'_, W> {
    /// The seed the dice came from, so the rolls can be checked (`--record`, then `verify`).
    fn reveal_seed(&mut self) -> std::io::Result<()> {
        let record = self.game.record();
        if !record.actions.iter().any(|a| a.actor == Actor::Chance) {
            return Ok(());
        }
        match record.scripted {
            true => writeln!(self.out, "the dice were typed: a scripted game"),
            false => writeln!(
                self.out,
                "the dice came from seed {}, committed as {}",
                record.seed,
                record.seed_commitment.unwrap_or_default()
            ),
        }
    }
}

/// In-game help: the terminal's commands, the variant's action forms with an example each, and
/// its options with the values in force.
pub fn help_text(spec: &VariantSpec, options: &Options) -> String {
    let mut text = String::from("Commands:\n");
    for (command, meaning) in COMMANDS {
        text.push_str(&format!("  {command:<14} {meaning}\n"));
    }
    text.push_str(&format!(
        "{} actions (any other line is read as one; `bluffchess rules {}` for the rules):\n",
        spec.name, spec.id
    ));
    for form in spec.actions {
        text.push_str(&format!("  {}\n      {}\n", form.example, form.meaning));
    }
    for option in spec.options {
        let value = options
            .get(option.name)
            .map_or(option.default, String::as_str);
        text.push_str(&format!(
            "Option {}={value} (values: {}): {}\n",
            option.name,
            option.values.join(", "),
            option.description
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `me` is shown while `actions` are played, one by one, from the start.
    fn screen(variant: &str, actions: &[&str], me: Color) -> String {
        let game = AnyGame::new(variant, &Options::new(), 1, SaltSource::Seeded(1)).unwrap();
        let mut out = Vec::new();
        let mut terminal = Terminal {
            game,
            theme: Theme::Plain,
            me,
            memory_mode: false,
            scripted: false,
            shown: 0,
            out: &mut out,
            bot: BuiltIn::new(BotSpec::new(bluffchess_ai::Kind::Random)),
        };
        terminal.show_position().unwrap();
        for action in actions {
            terminal.game.play(action).unwrap();
            terminal.after_action().unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    /// Two games that differ only in a hidden choice of Black look the same on White's screen.
    fn same_for_white(variant: &str, a: &[&str], b: &[&str]) {
        let (left, right) = (
            screen(variant, a, Color::White),
            screen(variant, b, Color::White),
        );
        assert_eq!(left, right, "{variant}");
        assert_ne!(
            screen(variant, a, Color::Black),
            screen(variant, b, Color::Black),
            "Black sees its own choice"
        );
    }

    #[test]
    fn a_hidden_choice_never_reaches_the_other_seats_screen() {
        let bs =
            |black: &'static str| vec!["setup standard", black, "e2e4", "accept", "d7d5", "accept"];
        same_for_white(
            "bs",
            &bs("setup RNBQKBNR/PPPPPPPP"),
            &bs("setup RNBKQBNR/PPPPPPPP"),
        );
        same_for_white(
            "alter-ego",
            &["e2e4", "d7d5", "stay"],
            &["e2e4", "d7d5", "transfer d8"],
        );
        let white = "setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN";
        let rc = |black: &'static str| vec![white, black, "b3b4", "flip d2"];
        same_for_white(
            "reality-check",
            &rc("setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN"),
            &rc("setup d9=RR c8=NR e8=NB d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN"),
        );
    }
}
