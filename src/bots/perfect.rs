//! `perfect`: the solved table itself.

use super::{Bot, BotError, Choice};
use crate::game::Game;
use crate::table::table;

/// Plays an optimal move (best value, then the fastest win or slowest loss), each of the
/// optimal moves equally likely, so an audit covers every one of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Perfect;

impl Bot for Perfect {
    fn name(&self) -> &str {
        "perfect"
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        super::collect(|choices| self.choose_into(game, choices))
    }

    fn choose_into(&mut self, game: &Game, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        Choice::add_uniform(table().best_moves(&game.board()), choices);
        Ok(())
    }

    fn memoryless(&self) -> bool {
        true
    }
}
