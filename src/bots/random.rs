//! `random`: a uniformly random legal move, like the "dumb bot" of Nath and Mittal's smart-bot report.

use super::{Bot, BotError, Choice};
use crate::game::Game;

/// Plays any legal move, each equally likely.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        Ok(Choice::uniform(game.board().legal_moves()))
    }

    fn memoryless(&self) -> bool {
        true
    }
}
