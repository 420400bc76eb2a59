//! A game in progress: the board and the moves that made it, for bots that need their history.

use crate::board::{Board, Cell, MoveError, MoveListError};

/// The position and every move played to reach it, X first.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, Game};
///
/// let mut game = Game::new();
/// game.play(Cell::from_number(5).unwrap())?;
/// assert_eq!(game.board().to_string(), "....X....");
/// assert_eq!(game.moves().len(), 1);
/// # Ok::<(), ttt_oracle::MoveError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Game {
    board: Board,
    moves: Vec<Cell>,
}

impl Game {
    /// The empty board, X to move.
    pub fn new() -> Game {
        Game::default()
    }

    /// The game made of `moves`, played alternately from the empty board.
    ///
    /// # Errors
    ///
    /// [`MoveListError`] naming the first move that cannot be played.
    pub fn from_moves(moves: &[Cell]) -> Result<Game, MoveListError> {
        Ok(Game {
            board: Board::from_moves(moves)?,
            moves: moves.to_vec(),
        })
    }

    /// The game of `moves`, which the caller knows are legal (the auditor, replaying lines it
    /// walked).
    pub(crate) fn replay(moves: &[Cell]) -> Game {
        let mut game = Game::new();
        for &cell in moves {
            game.play_unchecked(cell);
        }
        game
    }

    /// The current position.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Every move so far, in order.
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Errors
    ///
    /// [`MoveError`] when the game is over or the cell is taken; the game is unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        self.board = self.board.play(cell)?;
        self.moves.push(cell);
        Ok(())
    }

    /// Plays `cell`, which the caller knows is legal (the auditor, walking legal moves).
    pub(crate) fn play_unchecked(&mut self, cell: Cell) {
        debug_assert!(self.board.legal_moves().contains(cell));
        self.board = self.board.play_unchecked(cell);
        self.moves.push(cell);
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<Cell> {
        let last = self.moves.pop()?;
        // The last move of a legal game comes off to leave a legal game.
        self.board = self.board.unplay_unchecked(last);
        Some(last)
    }
}
