//! A game in progress: the game being played, its board and the moves that made it, for bots
//! that need their history.

use crate::board::{Board, Cell, Cells, MoveError, MoveListError, Player};
use crate::{Mnk, MnkBoard};

/// The game being played (tic-tac-toe, or any m,n,k game of at most 128 cells), the position
/// and every move played to reach it, X first.
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
///
/// let mut four = Game::empty("4x4".parse()?);
/// four.play(Cell::new(15).unwrap())?;
/// assert_eq!(four.position().to_string(), "..../..../..../...X");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    position: Position,
    moves: Vec<Cell>,
}

/// The board, kept in tic-tac-toe's own 4-byte layout on 3x3: the auditor plays and takes
/// back every move of hundreds of thousands of games there, and its bots read that board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Position {
    TicTacToe(Board),
    Mnk(MnkBoard),
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// The empty tic-tac-toe board, X to move.
    pub fn new() -> Game {
        Game {
            position: Position::TicTacToe(Board::EMPTY),
            moves: Vec::new(),
        }
    }

    /// The empty board of `game`, X to move.
    pub fn empty(game: Mnk) -> Game {
        if game == Mnk::TIC_TAC_TOE {
            return Game::new();
        }
        Game {
            position: Position::Mnk(MnkBoard::empty(game)),
            moves: Vec::new(),
        }
    }

    /// The tic-tac-toe game made of `moves`, played alternately from the empty board.
    ///
    /// # Errors
    ///
    /// [`MoveListError`] naming the first move that cannot be played.
    pub fn from_moves(moves: &[Cell]) -> Result<Game, MoveListError> {
        Ok(Game {
            position: Position::TicTacToe(Board::from_moves(moves)?),
            moves: moves.to_vec(),
        })
    }

    /// The game of `moves` in `game`, which the caller knows are legal (the auditor, replaying
    /// lines it walked).
    pub(crate) fn replay(game: Mnk, moves: &[Cell]) -> Game {
        let mut replayed = Game::empty(game);
        replayed.moves.reserve(moves.len());
        for &cell in moves {
            replayed.play_unchecked(cell);
        }
        replayed
    }

    /// The game being played.
    pub fn mnk(&self) -> Mnk {
        match self.position {
            Position::TicTacToe(_) => Mnk::TIC_TAC_TOE,
            Position::Mnk(board) => board.game(),
        }
    }

    /// Whether the game is tic-tac-toe, whose board [`Game::board`] gives.
    #[inline]
    pub fn is_tic_tac_toe(&self) -> bool {
        matches!(self.position, Position::TicTacToe(_))
    }

    /// The current position, on a board of any game.
    pub fn position(&self) -> MnkBoard {
        match self.position {
            Position::TicTacToe(board) => {
                let marks = |player| board.marks(player).bits();
                MnkBoard::from_marks_unchecked(
                    Mnk::TIC_TAC_TOE.geometry(),
                    marks(Player::X),
                    marks(Player::O),
                )
            }
            Position::Mnk(board) => board,
        }
    }

    /// The current position as a tic-tac-toe board, for the bots that play only tic-tac-toe.
    ///
    /// # Panics
    ///
    /// When the game is not tic-tac-toe: a bot that calls it declares, by
    /// [`Bot::plays`](crate::bots::Bot::plays), that it plays only tic-tac-toe, and is never
    /// asked about another game.
    #[inline]
    pub fn board(&self) -> Board {
        match self.position {
            Position::TicTacToe(board) => board,
            Position::Mnk(board) => {
                panic!(
                    "Game::board asked of a game of {}, not tic-tac-toe",
                    board.game()
                )
            }
        }
    }

    /// Every move so far, in order.
    #[inline]
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// The cells the side to move may play: the empty cells, or none once the game is over.
    #[inline]
    pub fn legal_moves(&self) -> Cells {
        match self.position {
            Position::TicTacToe(board) => board.legal_moves(),
            Position::Mnk(board) => Cells::from_bits(board.legal_moves()),
        }
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Errors
    ///
    /// [`MoveError`] when the cell is not on the board, the game is over or the cell is
    /// taken; the game is unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        match &mut self.position {
            Position::TicTacToe(board) => *board = board.play(cell)?,
            Position::Mnk(board) => {
                let cells = board.game().cells();
                if cell.index() >= cells {
                    return Err(MoveError::NoSuchCell { cell, cells });
                }
                if board.is_over() {
                    let status = board.status();
                    return Err(MoveError::GameOver { cell, status });
                }
                if let Some(owner) = board.get(cell.index()) {
                    return Err(MoveError::Occupied { cell, owner });
                }
                *board = board.play_unchecked(cell.index());
            }
        }
        self.moves.push(cell);
        Ok(())
    }

    /// Plays `cell`, which the caller knows is legal (the auditor, walking legal moves).
    #[inline]
    pub(crate) fn play_unchecked(&mut self, cell: Cell) {
        debug_assert!(self.legal_moves().contains(cell));
        match &mut self.position {
            Position::TicTacToe(board) => *board = board.play_unchecked(cell),
            Position::Mnk(board) => {
                // Whose turn it is from the moves' count: counting marks has no instruction
                // on the portable build.
                let mover = if self.moves.len() % 2 == 0 {
                    Player::X
                } else {
                    Player::O
                };
                *board = board.mark_unchecked(cell.index(), mover);
            }
        }
        self.moves.push(cell);
    }

    /// Takes back the last move, if there is one.
    #[inline]
    pub fn undo(&mut self) -> Option<Cell> {
        let last = self.moves.pop()?;
        // The last move of a legal game comes off to leave a legal game.
        match &mut self.position {
            Position::TicTacToe(board) => *board = board.unplay_unchecked(last),
            Position::Mnk(board) => *board = board.unplay_unchecked(last.index()),
        }
        Some(last)
    }
}
