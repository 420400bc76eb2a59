//! What a bot is shown in the walks by positions: the game last shown to it, moved from
//! position to position by what differs.

use super::rules::{Bits, Line, Rules};
use crate::game::Game;
use crate::history::History;

/// The game last shown to a bot, and its moves as a [`Line`].
pub(crate) struct Shown<R: Rules> {
    pub(crate) game: History,
    line: Line<R::Line>,
}

impl<R: Rules> Shown<R> {
    pub(crate) fn new(game: Game) -> Shown<R> {
        Shown {
            game: History::empty(game),
            line: Line(R::Line::EMPTY),
        }
    }

    /// Moves the game to the first `ply` moves of `line`, taking back only what differs: a
    /// ply's positions come in the order of their lines, so neighbours share most of theirs,
    /// and the first move where two lines differ is in their lowest differing bits.
    #[inline]
    pub(crate) fn show(&mut self, line: Line<R::Line>, ply: usize) {
        let shown = self.game.moves().len();
        let differ = self.line.0.first_difference(line.0);
        let shared = differ.min(shown).min(ply);
        for _ in shared..shown {
            self.game.undo();
        }
        for i in shared..ply {
            self.game.play_unchecked(line.get(i));
        }
        self.line = line;
    }
}
