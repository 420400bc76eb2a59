//! A game in progress: the game being played, its board and the moves that made it, for bots
//! that need their history.

use crate::board::{Board, Cell, Cells, Player};
use crate::game::Game;
use crate::position::Position;
use crate::position_error::PositionError;

/// The game being played (tic-tac-toe, or any m,n,k game of at most 128 cells), the position
/// and every move played to reach it, X first.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, History};
///
/// let mut game = History::new();
/// game.play(Cell::from_number(5).unwrap())?;
/// assert_eq!(game.position().to_string(), "....X....");
/// assert_eq!(game.moves().len(), 1);
///
/// let mut four = History::empty("4x4".parse()?);
/// four.play(Cell::new(15).unwrap())?;
/// assert_eq!(four.position().to_string(), "..../..../..../...X");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct History {
    position: Layout,
    moves: Vec<Cell>,
}

/// The board, kept in tic-tac-toe's own 4-byte layout on 3x3: the auditor plays and takes
/// back every move of hundreds of thousands of games there, and its bots read that board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Layout {
    TicTacToe(Board),
    Game(Position),
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    /// The empty tic-tac-toe board, X to move.
    pub fn new() -> History {
        History {
            position: Layout::TicTacToe(Board::EMPTY),
            moves: Vec::new(),
        }
    }

    /// The empty board of `game`, X to move.
    pub fn empty(game: Game) -> History {
        if game == Game::TIC_TAC_TOE {
            return History::new();
        }
        History {
            position: Layout::Game(Position::empty(game)),
            moves: Vec::new(),
        }
    }

    /// The game of `game` played by `text`, a move list: cells 1..rows*columns separated by
    /// commas or whitespace, X first.
    ///
    /// # Errors
    ///
    /// [`PositionError`] for the first item that is not a cell of the game or cannot be
    /// played there, or a misplaced comma.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, History};
    ///
    /// let game = History::parse(Game::TIC_TAC_TOE, "5 1, 9")?;
    /// assert_eq!(game.position().to_string(), "O...X...X");
    /// assert_eq!(game.moves().len(), 3);
    /// assert!(History::parse(Game::TIC_TAC_TOE, "5 5").is_err());
    /// # Ok::<(), ttt_oracle::PositionError>(())
    /// ```
    pub fn parse(game: Game, text: &str) -> Result<History, PositionError> {
        let (position, moves) = Position::from_move_list(game, text)?;
        if game == Game::TIC_TAC_TOE {
            // Tic-tac-toe keeps its own board: the moves played again onto it.
            return Ok(History::replay(game, &moves));
        }
        Ok(History {
            position: Layout::Game(position),
            moves,
        })
    }

    /// The game of `moves` in `game`, which the caller knows are legal (the auditor, replaying
    /// lines it walked).
    pub(crate) fn replay(game: Game, moves: &[Cell]) -> History {
        let mut replayed = History::empty(game);
        replayed.moves.reserve(moves.len());
        for &cell in moves {
            replayed.play_unchecked(cell);
        }
        replayed
    }

    /// The game being played.
    pub fn game(&self) -> Game {
        match self.position {
            Layout::TicTacToe(_) => Game::TIC_TAC_TOE,
            Layout::Game(board) => board.game(),
        }
    }

    /// Whether the game is tic-tac-toe.
    #[inline]
    pub fn is_tic_tac_toe(&self) -> bool {
        matches!(self.position, Layout::TicTacToe(_))
    }

    /// The current position, on a board of any game.
    pub fn position(&self) -> Position {
        match self.position {
            Layout::TicTacToe(board) => Position::from_board(board),
            Layout::Game(board) => board,
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
    pub(crate) fn board(&self) -> Board {
        match self.position {
            Layout::TicTacToe(board) => board,
            Layout::Game(board) => {
                panic!(
                    "History::board asked of a game of {}, not tic-tac-toe",
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
            Layout::TicTacToe(board) => board.legal_moves(),
            Layout::Game(board) => Cells::from_bits(board.legal_mask()),
        }
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Errors
    ///
    /// [`PositionError`] when the cell is not on the board, the game is over or the cell is
    /// taken; the game is unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), PositionError> {
        match &mut self.position {
            Layout::TicTacToe(board) => match board.play(cell) {
                Some(next) => *board = next,
                None => return Err(self.position().play(cell).expect_err("the rules agree")),
            },
            Layout::Game(board) => *board = board.play(cell)?,
        }
        self.moves.push(cell);
        Ok(())
    }

    /// Plays `cell`, which the caller knows is legal (the auditor, walking legal moves).
    /// Inlined always: the walks call it for each move they show a bot, and with the code
    /// the position keeps it grew past what the compiler inlines of itself.
    #[inline(always)]
    pub(crate) fn play_unchecked(&mut self, cell: Cell) {
        debug_assert!(self.legal_moves().contains(cell));
        let mover = Player::at_ply(self.moves.len());
        match &mut self.position {
            Layout::TicTacToe(board) => *board = board.mark_unchecked(cell, mover),
            Layout::Game(board) => *board = board.mark_unchecked(cell.index(), mover),
        }
        self.moves.push(cell);
    }

    /// Takes back the last move, if there is one.
    #[inline]
    pub fn undo(&mut self) -> Option<Cell> {
        let last = self.moves.pop()?;
        // The last move of a legal game comes off to leave a legal game.
        match &mut self.position {
            Layout::TicTacToe(board) => *board = board.unplay_unchecked(last),
            Layout::Game(board) => *board = board.unplay_unchecked(last.index()),
        }
        Some(last)
    }
}
