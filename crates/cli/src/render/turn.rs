//! Who is to act, as the status lines see it, and the notes every board with check shares.

use bluffchess_rules::board::Color;
use bluffchess_rules::outcome::EndReason;

/// Who is to act, as the status lines see it.
#[derive(Clone, Copy)]
pub struct Turn {
    /// The seat the screen belongs to.
    pub me: Color,
    /// The player to act, if a player is.
    pub actor: Option<Color>,
}

impl Turn {
    /// Whether the screen's seat acts now.
    pub fn mine(self) -> bool {
        self.actor == Some(self.me)
    }

    /// The actor's name with a capital (`Black`), for "Black is deciding".
    pub fn actor_name(self) -> String {
        self.actor.map_or_else(|| "Chance".to_string(), title)
    }
}

/// `White` or `Black`.
pub fn title(color: Color) -> String {
    let name = color.name();
    name[..1].to_uppercase() + &name[1..]
}

/// `White is in check`, when the side to move is.
pub fn check_note(notes: &mut Vec<String>, check: bool, side: Color) {
    if check {
        notes.push(format!("{} is in check", title(side)));
    }
}

/// The draw the screen's seat may claim now, when it acts.
pub fn claim_note(notes: &mut Vec<String>, claim: Option<EndReason>, turn: Turn) {
    if let (Some(reason), true) = (claim, turn.mine()) {
        notes.push(format!("a draw may be claimed ({reason}): type draw claim"));
    }
}
