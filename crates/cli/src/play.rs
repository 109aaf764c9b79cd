//! `bluffchess play`: a game in the terminal against a random bot, showing only your seat's view.
//! It reads plain lines from standard input, so it can be scripted.

use crate::render;
use bluffchess_rules::any::AnyGame;
use bluffchess_rules::arbiter::MetaKind;
use bluffchess_rules::board::Color;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::{Actor, Options, Seat};
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

#[derive(Args)]
pub struct PlayArgs {
    /// The variant (`chess`, ...).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Your side.
    #[arg(long = "as", value_enum, default_value = "white")]
    side: Side,
    /// The seed of the bot's choices and of Chance (default: random).
    #[arg(long)]
    seed: Option<u64>,
    /// A rules option, `name=value` (repeatable).
    #[arg(long = "option", value_parser = crate::parse_option)]
    options: Vec<(String, String)>,
    /// How pieces are named: `plain`, or `silly` for BS Chess's joke names (Dude, Horsey, ...).
    #[arg(long, value_enum, default_value = "plain")]
    theme: Theme,
    /// Reality Check's Variant Zero: the display never repeats past events and shows no face
    /// that is not in sight (the game and its views are unchanged).
    #[arg(long)]
    memory_mode: bool,
}

/// A display theme: it changes words on the screen, never the game.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Theme {
    Plain,
    Silly,
}

const HELP: &str = "\
Type an action as listed (for chess a move in UCI: e2e4, e7e8q, castling e1g1), or:
  moves    list your legal actions
  board    show the board and your events again
  draw     offer a draw          accept   accept the bot's offer
  claim    claim a draw the rules allow (threefold repetition, 50 moves)
  resign   give up               help     this text
  quit     leave without finishing";

struct Terminal<'a, W: Write> {
    game: AnyGame,
    theme: Theme,
    me: Color,
    shown: usize,
    memory_mode: bool,
    out: &'a mut W,
}

/// Plays one game; returns when it ends or input runs out.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let options: Options = args.options.iter().cloned().collect();
    let seed = args.seed.unwrap_or_else(rand::random);
    let game =
        AnyGame::new(&args.variant, &options, seed, SaltSource::Os).map_err(|e| e.to_string())?;
    let me = match args.side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut terminal = Terminal {
        game,
        theme: args.theme,
        me,
        shown: 0,
        memory_mode: args.memory_mode,
        out: &mut out,
    };
    terminal.play(&mut stdin.lock()).map_err(|e| e.to_string())
}

impl<W: Write> Terminal<'_, W> {
    fn play(&mut self, input: &mut impl BufRead) -> std::io::Result<()> {
        writeln!(
            self.out,
            "{} as {}. Type help for commands.",
            self.game.variant(),
            self.me
        )?;
        self.show_board()?;
        loop {
            match self.game.to_act() {
                None => return self.finish(),
                Some(Actor::Chance) => {
                    let _ = self.game.roll();
                }
                Some(actor) if actor.color() != Some(self.me) => self.bot_acts(actor)?,
                Some(_) => {
                    self.show_events()?;
                    self.show_legal()?;
                    write!(self.out, "{} to act> ", self.me)?;
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
        let meta = |kind| Some(kind);
        let kind = match line {
            "" => return Ok(true),
            "help" | "?" => {
                writeln!(self.out, "{HELP}")?;
                return Ok(true);
            }
            "moves" | "legal" => {
                self.show_legal()?;
                return Ok(true);
            }
            "board" => {
                if !self.memory_mode {
                    self.shown = 0;
                }
                self.show_board()?;
                return Ok(true);
            }
            "quit" | "exit" => {
                writeln!(self.out, "left the game unfinished")?;
                return Ok(false);
            }
            "resign" => meta(MetaKind::Resign),
            "draw" => meta(MetaKind::OfferDraw),
            "accept" => meta(MetaKind::AcceptDraw),
            "claim" => meta(MetaKind::ClaimDraw),
            _ => None,
        };
        let result = match kind {
            Some(kind) => self.game.meta(self.me, kind),
            None => self.game.play(line),
        };
        match result {
            Ok(_) if kind == Some(MetaKind::OfferDraw) => {
                writeln!(self.out, "draw offered; the bot answers by playing on")?;
            }
            Ok(_) => {
                if self.game.to_act().and_then(Actor::color) != Some(self.me) {
                    self.show_events()?;
                }
            }
            Err(e) => writeln!(self.out, "refused: {e}")?,
        }
        Ok(true)
    }

    fn bot_acts(&mut self, actor: Actor) -> std::io::Result<()> {
        match self.game.random_action() {
            Some(action) => {
                if let Err(e) = self.game.play(&action) {
                    writeln!(self.out, "the bot's action was refused: {e}")?;
                    let _ = self
                        .game
                        .meta(actor.color().expect("a player"), MetaKind::Resign);
                }
            }
            None => {
                let _ = self
                    .game
                    .meta(actor.color().expect("a player"), MetaKind::Resign);
            }
        }
        self.show_board()
    }

    fn view(&self) -> serde_json::Value {
        self.game.view(Seat::from(self.me))
    }

    fn show_board(&mut self) -> std::io::Result<()> {
        let mut view = self.view();
        if self.memory_mode && self.game.variant() == "reality-check" {
            render::reality_check::without_reminders(&mut view);
        }
        writeln!(self.out)?;
        let board = render::board(self.game.variant(), &view, self.me);
        write!(self.out, "{}", self.themed(&board))?;
        if let Some(status) = render::status(&view) {
            writeln!(self.out, "{status}")?;
        }
        self.show_events()
    }

    /// Text in the chosen theme's words.
    fn themed(&self, text: &str) -> String {
        match self.theme {
            Theme::Plain => text.to_string(),
            Theme::Silly => render::silly(text),
        }
    }

    fn show_events(&mut self) -> std::io::Result<()> {
        let view = self.view();
        let events = view["events"].as_array().cloned().unwrap_or_default();
        for event in events.iter().skip(self.shown) {
            let line = self.themed(&render::event(event));
            writeln!(self.out, "{line}")?;
        }
        self.shown = events.len();
        Ok(())
    }

    fn show_legal(&mut self) -> std::io::Result<()> {
        match self.game.legal() {
            Some(legal) if legal.setup => {
                writeln!(
                    self.out,
                    "a setup is due; shortcuts: {}",
                    legal.actions.join(", ")
                )
            }
            Some(legal) => writeln!(self.out, "legal: {}", legal.actions.join(" ")),
            None => writeln!(self.out, "the game is over"),
        }
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.show_board()?;
        let outcome = self.game.outcome().expect("the game is over");
        let verdict = match outcome.winner {
            Some(w) if w == self.me => "you win",
            Some(_) => "you lose",
            None => "draw",
        };
        writeln!(self.out, "result: {outcome} ({verdict})")
    }
}
