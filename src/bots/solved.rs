//! The solved game behind the table-backed bots (`perfect`, `tricky`, `casual:P`,
//! `epsilon:P`): tic-tac-toe's table, the m,n,k table of any other game of at most 16 cells,
//! or the table `ttt solve` cached for a game of 17 to 25 cells, asked the same few questions.

use std::cell::RefCell;

use super::BotError;
use crate::board::{Board, Cell, Cells};
use crate::game::MAX_TABLE_CELLS;
use crate::history::History;
use crate::oracle::{Layout, Oracle};
use crate::table::disk::DiskTable;
use crate::table::tic_tac_toe::table;
use crate::table::{Table, TableError};
use crate::tiers::MAX_TIER_CELLS;
use crate::value::Value;
use crate::{Game, Position};

/// The methods of [`Bot`](super::Bot) every table-backed bot shares, in its `impl Bot`: its
/// choices are those `choose_into` adds; it plays the games that have a table; it answers from
/// the board alone; and its choices turn with the board, since they depend on the values of
/// the moves alone.
macro_rules! table_bot {
    () => {
        fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
            super::collect(|choices| self.choose_into(game, choices))
        }

        fn plays(&self, game: Game) -> Result<(), BotError> {
            super::solved::plays(self.name(), game)
        }

        fn memoryless(&self) -> bool {
            true
        }

        fn symmetric(&self) -> bool {
            true
        }
    };
}
pub(super) use table_bot;

/// A position with the table that knows it.
#[derive(Clone, Copy)]
pub(crate) enum Solved<'a> {
    /// Tic-tac-toe, on its own table: the fast path every 3x3 audit takes.
    TicTacToe(Board),
    /// Any other game with a table.
    Game(&'a Table, Position),
    /// A game of 17 to 25 cells, on the table `ttt solve` cached.
    Cached(&'static DiskTable, Position),
}

impl Solved<'_> {
    /// What `answer` makes of the position of `game` with its table: solved on first use for a
    /// game of at most 16 cells that has no embedded table, read from the cache past 16 cells.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the game has no table, or its table is damaged.
    pub(crate) fn with<T>(
        game: &History,
        bot: &str,
        answer: impl FnOnce(Solved<'_>) -> T,
    ) -> Result<T, BotError> {
        if game.is_tic_tac_toe() {
            return Ok(answer(Solved::TicTacToe(game.board())));
        }
        let mut answer = Some(answer);
        let mut answer_on = |oracle: &Oracle| {
            let answer = answer.take().expect("asked once");
            match oracle.layout() {
                Layout::TicTacToe(_) => answer(Solved::TicTacToe(game.board())),
                Layout::Any(table) => answer(Solved::Game(table, game.position())),
                Layout::Disk(table) => answer(Solved::Cached(table, game.position())),
            }
        };
        // Asked in place, not cloned: an audit asks at every position.
        let made = LAST.with_borrow(|last| {
            last.as_ref()
                .filter(|oracle| oracle.game() == game.game())
                .map(&mut answer_on)
        });
        match made {
            Some(made) => Ok(made),
            None => Ok(answer_on(&oracle_of(game.game(), bot)?)),
        }
    }

    /// The optimal moves: best value, then fastest win or slowest loss.
    pub(crate) fn best_moves(&self) -> Cells {
        match self {
            Solved::TicTacToe(board) => table().best_moves(board),
            Solved::Game(table, board) => table.best_moves(board),
            Solved::Cached(table, board) => table.best_moves(board),
        }
    }

    /// The value for the side to move.
    pub(crate) fn value(&self) -> Value {
        match self {
            Solved::TicTacToe(board) => table().probe(board).value,
            Solved::Game(table, board) => table.probe(board).value,
            Solved::Cached(table, board) => table.probe(board).value,
        }
    }

    /// Every legal move with what it is worth to its player.
    pub(crate) fn moves(&self) -> Vec<(Cell, Value)> {
        let moves = match self {
            Solved::TicTacToe(board) => table().analyze(board),
            Solved::Game(table, board) => table.analyze(board),
            Solved::Cached(table, board) => table.analyze(board),
        };
        moves.iter().map(|m| (m.cell, m.value)).collect()
    }

    /// The position after `cell`, a legal move.
    pub(crate) fn after(&self, cell: Cell) -> Self {
        match *self {
            Solved::TicTacToe(board) => Solved::TicTacToe(board.play_unchecked(cell)),
            Solved::Game(table, board) => Solved::Game(table, board.play_unchecked(cell.index())),
            Solved::Cached(table, board) => {
                Solved::Cached(table, board.play_unchecked(cell.index()))
            }
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

/// Whether a table-backed bot named `bot` can play `game`: any game of at most 16 cells, and
/// one of 17 to 25 cells whose table `ttt solve` cached.
///
/// # Errors
///
/// [`BotError`] saying why not: how to make the table of a game of 17 to 25 cells, that a
/// cached one is damaged (in any tier: a bot plays through most of them, and a panic in the
/// middle of a walk would be taken for its forfeit), or that tables stop at 25 cells.
pub(crate) fn plays(bot: &str, game: Game) -> Result<(), BotError> {
    if game.has_table() {
        return Ok(());
    }
    if game.cells() > MAX_TIER_CELLS {
        return Err(BotError {
            message: format!(
                "{bot} plays from a solved table, and {game} has {} cells: tables stop at \
                 {MAX_TABLE_CELLS}, or {MAX_TIER_CELLS} solved by `ttt solve`",
                game.cells()
            ),
        });
    }
    let message = match Oracle::of(game).and_then(|oracle| oracle.check()) {
        Ok(()) => return Ok(()),
        // Where the table would be is left out: the words are the same wherever the cache is.
        Err(TableError::NotSolved { .. }) => format!(
            "{bot} plays from a solved table, and {game} has none solved yet: make one with \
             `ttt solve --game {game}`"
        ),
        Err(error) => format!("{bot} plays from a solved table: {error}"),
    };
    Err(BotError { message })
}

thread_local! {
    /// The last oracle asked for on this thread: `Oracle::of` takes a lock, and an audit asks
    /// at every position.
    static LAST: RefCell<Option<Oracle>> = const { RefCell::new(None) };
}

/// The oracle of `game`, kept as this thread's last.
fn oracle_of(game: Game, bot: &str) -> Result<Oracle, BotError> {
    plays(bot, game)?;
    let oracle = Oracle::of(game).map_err(|error| BotError {
        message: format!("{bot} has no table for {game}: {error}"),
    })?;
    LAST.set(Some(oracle.clone()));
    Ok(oracle)
}

/// What `play` returns, the table-backed bots on this thread asking `oracle` about its game
/// meanwhile rather than the table [`Oracle::of`] keeps for the process: how `ttt serve`
/// plays from a table its cache may drop afterwards.
pub(crate) fn playing_on<T>(oracle: Oracle, play: impl FnOnce() -> T) -> T {
    /// Puts the cache back as it was, even when `play` panics.
    struct Restore(Option<Oracle>);
    impl Drop for Restore {
        fn drop(&mut self) {
            LAST.set(self.0.take());
        }
    }
    let _restore = Restore(LAST.replace(Some(oracle)));
    play()
}
