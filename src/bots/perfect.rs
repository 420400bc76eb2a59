//! `perfect`: the solved table itself, of tic-tac-toe or any game of at most 16 cells.

use super::solved::{self, Solved};
use super::{Bot, BotError, Choice};
use crate::Game;
use crate::history::History;
use crate::table::tic_tac_toe::table;

/// Plays an optimal move (best value, then the fastest win or slowest loss), each of the
/// optimal moves equally likely, so an audit covers every one of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Perfect;

impl Bot for Perfect {
    fn name(&self) -> &str {
        "perfect"
    }

    solved::table_bot!();

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let best = if game.is_tic_tac_toe() {
            table().best_moves(&game.board())
        } else {
            Solved::with(game, self.name(), |solved| solved.best_moves())?
        };
        Choice::add_uniform(best, choices);
        Ok(())
    }
}
