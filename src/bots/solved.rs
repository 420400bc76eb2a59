//! The solved game behind the table-backed bots (`perfect`, `tricky`, `casual:P`,
//! `epsilon:P`): tic-tac-toe's table, or the m,n,k table of any other game of at most 16 cells,
//! asked the same few questions.

use std::cell::Cell as Slot;

use super::BotError;
use crate::board::{Board, Cell, Cells};
use crate::history::History;
use crate::table::Table;
use crate::table::tic_tac_toe::table;
use crate::value::Value;
use crate::{Game, MAX_TABLE_CELLS, Position};

/// A position with the table that knows it.
#[derive(Clone, Copy)]
pub(crate) enum Solved {
    /// Tic-tac-toe, on its own table: the fast path every 3x3 audit takes.
    TicTacToe(Board),
    /// Any other game with a table.
    Game(&'static Table, Position),
}

impl Solved {
    /// The position of `game` with its table: solved on first use for a game that has no
    /// embedded table.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the game has more than 16 cells, or its table is damaged.
    pub(crate) fn of(game: &History, bot: &str) -> Result<Solved, BotError> {
        if game.is_tic_tac_toe() {
            return Ok(Solved::TicTacToe(game.board()));
        }
        Ok(Solved::Game(table_of(game.game(), bot)?, game.position()))
    }

    /// The optimal moves: best value, then fastest win or slowest loss.
    pub(crate) fn best_moves(&self) -> Cells {
        match self {
            Solved::TicTacToe(board) => table().best_moves(board),
            Solved::Game(table, board) => table.best_moves(board),
        }
    }

    /// The value for the side to move.
    pub(crate) fn value(&self) -> Value {
        match self {
            Solved::TicTacToe(board) => table().probe(board).value,
            Solved::Game(table, board) => table.probe(board).value,
        }
    }

    /// Every legal move with what it is worth to its player.
    pub(crate) fn moves(&self) -> Vec<(Cell, Value)> {
        match self {
            Solved::TicTacToe(board) => table()
                .analyze(board)
                .iter()
                .map(|m| (m.cell, m.value))
                .collect(),
            Solved::Game(table, board) => table
                .analyze(board)
                .iter()
                .map(|m| (m.cell, m.value))
                .collect(),
        }
    }

    /// The legal moves.
    pub(crate) fn legal_moves(&self) -> Cells {
        match self {
            Solved::TicTacToe(board) => board.legal_moves(),
            Solved::Game(_, board) => Cells::from_bits(board.legal_mask()),
        }
    }

    /// The position after `cell`, a legal move.
    pub(crate) fn after(&self, cell: Cell) -> Solved {
        match *self {
            Solved::TicTacToe(board) => Solved::TicTacToe(board.play_unchecked(cell)),
            Solved::Game(table, board) => Solved::Game(table, board.play_unchecked(cell.index())),
        }
    }

    /// How many replies of the opponent, in the position after `cell`, would lower the
    /// opponent's own value: its ways to go wrong.
    pub(crate) fn ways_to_go_wrong(&self, cell: Cell) -> usize {
        let after = self.after(cell);
        let holds = after.value();
        after
            .moves()
            .iter()
            .filter(|&&(_, value)| value < holds)
            .count()
    }
}

/// Whether a table-backed bot named `bot` can play `game`: any game of at most 16 cells.
///
/// # Errors
///
/// [`BotError`] saying why not, for a larger board.
pub(crate) fn plays(bot: &str, game: Game) -> Result<(), BotError> {
    if game.has_table() {
        Ok(())
    } else {
        Err(BotError {
            message: format!(
                "{bot} plays from a solved table, and {game} has {} cells: tables stop at \
                 {MAX_TABLE_CELLS}",
                game.cells()
            ),
        })
    }
}

/// The table of `game`, through a one-game cache per thread: `mnk_table` takes a lock, and
/// an audit asks at every position.
fn table_of(game: Game, bot: &str) -> Result<&'static Table, BotError> {
    thread_local! {
        static LAST: Slot<Option<(Game, &'static Table)>> = const { Slot::new(None) };
    }
    if let Some((last, table)) = LAST.get()
        && last == game
    {
        return Ok(table);
    }
    plays(bot, game)?;
    let table = crate::table::of(game).map_err(|error| BotError {
        message: format!("{bot} has no table for {game}: {error}"),
    })?;
    LAST.set(Some((game, table)));
    Ok(table)
}
