//! `random`: a uniformly random legal move, like the "dumb bot" of Nath and Mittal's smart-bot report.

use super::{Bot, BotError, Choice};
use crate::Game;
use crate::history::History;

/// Plays any legal move, each equally likely, on any board.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        super::collect(|choices| self.choose_into(game, choices))
    }

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        Choice::add_uniform(game.legal_moves(), choices);
        Ok(())
    }

    /// Every game: it needs nothing but the empty cells.
    fn plays(&self, _game: Game) -> Result<(), BotError> {
        Ok(())
    }

    fn memoryless(&self) -> bool {
        true
    }

    /// Its choices are a set the board's symmetries keep (the empty cells), each as likely.
    fn symmetric(&self) -> bool {
        true
    }

    /// Its choices are the empty cells, one mark each.
    fn never_forfeits(&self) -> bool {
        true
    }
}
