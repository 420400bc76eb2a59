//! A position of any m,n,k game: the marks on a board of up to 128 cells, read, checked and
//! played by the game's rules.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::board::Board;
use crate::cell::{Cell, MAX_CELLS, Mask};
use crate::cells::Cells;
use crate::game::{Game, Geometry};
use crate::player::{Outcome, Player, Status};
use crate::position_error::PositionError;

/// A legal position of an m,n,k game: one that play from the empty board can reach.
///
/// Cells are numbered 1..rows*columns row-major for people and programs, 0-based inside (bit
/// `i` of a mask is cell `i + 1`). Boards read from text as tic-tac-toe's do: `X`/`x` and
/// `O`/`o` are marks; `.`, `-` and `_` are empty, and so is a cell's own number up to 9;
/// `|`, `/` and whitespace between cells are ignored. They are written row by row, rows
/// separated by `/` (except on 3x3, written as 9 characters).
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, Position, Player};
///
/// let game: Game = "4x4".parse()?;
/// let board = Position::parse(game, "X.../.O../..../....")?;
/// assert_eq!(board.to_move(), Player::X);
/// let sixteen = ttt_oracle::Cell::from_number(16).unwrap();
/// assert_eq!(board.play(sixteen)?.to_string(), "X.../.O../..../...X");
/// assert!(Position::parse(game, "X........").is_err()); // 9 cells, not 16
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Position {
    geometry: &'static Geometry,
    x: Mask,
    o: Mask,
    /// The base-3 code of the first [`CODED_CELLS`] cells (the whole board's on a board of
    /// at most as many), kept from move to move: the key of the tables that answer by code.
    /// It sits in the padding the masks' alignment leaves: a position stays 48 bytes.
    code: u32,
}

/// The most cells a board may have for its base-3 code to fit in 32 bits: `3^20 < 2^32`.
pub(crate) const CODED_CELLS: usize = 20;

/// `3^i` for each cell `i` below [`CODED_CELLS`], 0 past it: what a mark there adds to a
/// board's base-3 code, once for X and twice for O.
pub(crate) const POWERS: [u32; MAX_CELLS] = {
    let mut powers = [0u32; MAX_CELLS];
    let (mut i, mut power) = (0, 1u32);
    while i < CODED_CELLS {
        powers[i] = power;
        power = power.wrapping_mul(3);
        i += 1;
    }
    powers
};

/// The base-3 code of each of a mask's first three bytes as X's marks: the sum of `3^i` over
/// the cells `i` of its bits (0 past [`CODED_CELLS`]), for byte 0, 1 and 2.
const BYTE_CODES: [[u32; 256]; 3] = {
    let mut codes = [[0u32; 256]; 3];
    let mut k = 0;
    while k < 3 {
        let mut byte = 1;
        while byte < 256 {
            let cell = 8 * k + (byte as u32).trailing_zeros() as usize;
            codes[k][byte] = codes[k][byte & (byte - 1)] + POWERS[cell];
            byte += 1;
        }
        k += 1;
    }
    codes
};

/// The base-3 code of the first [`CODED_CELLS`] cells of the board `x`, `o`: cell `i` adds
/// `3^i` for X's mark, twice that for O's.
#[inline]
pub(crate) fn code_of(x: Mask, o: Mask) -> u32 {
    let digits = |marks: Mask| {
        let byte = |k: usize| BYTE_CODES[k][(marks >> (8 * k) & 0xff) as usize];
        byte(0) + byte(1) + byte(2)
    };
    digits(x) + 2 * digits(o)
}
// The code fills padding on 64-bit targets, where a mask is 16-aligned.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Position>() == 48);

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.game() == other.game() && self.x == other.x && self.o == other.o
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.game(), self.x, self.o).hash(state);
    }
}

impl Position {
    /// The empty board of `game`, X to move.
    pub fn empty(game: Game) -> Position {
        Position {
            geometry: game.geometry(),
            x: 0,
            o: 0,
            code: 0,
        }
    }

    /// The board of `game` with X on the cells `x` and O on the cells `o`, if play can reach
    /// it.
    ///
    /// # Errors
    ///
    /// [`PositionError`] when the cells overlap or lie off the board, the counts are
    /// impossible, both players hold a line, play went on after a win, or the winner's lines
    /// share no cell (no last move made them all).
    pub fn from_marks(game: Game, x: Cells, o: Cells) -> Result<Position, PositionError> {
        Position::checked(game.geometry(), x.bits(), o.bits())
    }

    /// [`from_marks`](Position::from_marks) with the game's geometry at hand: looking it up
    /// takes a lock, which a walk over millions of boards does once.
    pub(crate) fn checked(
        geometry: &'static Geometry,
        x: Mask,
        o: Mask,
    ) -> Result<Position, PositionError> {
        if x & o != 0 {
            return Err(PositionError::Overlap);
        }
        if (x | o) & !geometry.full() != 0 {
            let cells = geometry.game().cells();
            return Err(PositionError::OffBoard { cells });
        }
        let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
        if no > nx {
            return Err(PositionError::TooManyO { x: nx, o: no });
        }
        if nx > no + 1 {
            return Err(PositionError::TooManyX { x: nx, o: no });
        }
        let common = |marks: Mask| {
            geometry
                .lines()
                .iter()
                .filter(|&&line| marks & line == line)
                .fold(None, |shared: Option<Mask>, &line| {
                    Some(shared.map_or(line, |shared| shared & line))
                })
        };
        match (common(x), common(o)) {
            (Some(_), Some(_)) => Err(PositionError::BothWin),
            (Some(_), None) if nx == no => Err(PositionError::PlayAfterWin { winner: Player::X }),
            (None, Some(_)) if nx > no => Err(PositionError::PlayAfterWin { winner: Player::O }),
            (Some(0), None) => Err(PositionError::SeparateLines { winner: Player::X }),
            (None, Some(0)) => Err(PositionError::SeparateLines { winner: Player::O }),
            _ => Ok(Position::from_marks_unchecked(geometry, x, o)),
        }
    }

    /// The board with these marks; the caller guarantees play can reach it.
    pub(crate) fn from_marks_unchecked(geometry: &'static Geometry, x: Mask, o: Mask) -> Position {
        let code = code_of(x, o);
        Position {
            geometry,
            x,
            o,
            code,
        }
    }

    /// A tic-tac-toe board from its own 4-byte layout.
    pub(crate) fn from_board(board: Board) -> Position {
        let marks = |player| board.marks(player).bits();
        Position::from_marks_unchecked(
            Game::TIC_TAC_TOE.geometry(),
            marks(Player::X),
            marks(Player::O),
        )
    }

    /// This position in tic-tac-toe's own 4-byte layout, for its dense table and the bots
    /// that play only tic-tac-toe; the caller knows the game is tic-tac-toe.
    #[inline]
    pub(crate) fn tic_tac_toe(&self) -> Board {
        assert!(
            self.game().is_tic_tac_toe(),
            "a position of {} asked of tic-tac-toe's table",
            self.game()
        );
        Board::from_marks_unchecked(Cells::from_bits(self.x), Cells::from_bits(self.o))
    }

    /// The game this board belongs to.
    #[inline]
    pub fn game(&self) -> Game {
        self.geometry.game()
    }

    /// The game's lines and symmetries.
    pub(crate) fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Whether this is a position of the game whose geometry is `geometry`: one comparison,
    /// as there is one geometry per game.
    #[inline(always)]
    pub(crate) fn is_of(&self, geometry: &'static Geometry) -> bool {
        std::ptr::eq(self.geometry, geometry)
    }

    /// The base-3 code of the board's first [`CODED_CELLS`] cells, the whole board's on a board
    /// of at most 20: cell `i` (0-based) adds `3^i` for X's mark, twice that for O's. Kept from
    /// move to move, not worked out here.
    #[inline(always)]
    pub(crate) fn code(&self) -> usize {
        debug_assert_eq!(self.code, code_of(self.x, self.o));
        self.code as usize
    }

    /// The cells holding `player`'s marks.
    pub fn marks(&self, player: Player) -> Cells {
        Cells::from_bits(self.mask(player))
    }

    /// The cells holding `player`'s marks, as a mask.
    #[inline]
    pub(crate) fn mask(&self, player: Player) -> Mask {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// The mark on `cell`, if any (`None` for a cell off the board too).
    pub fn get(&self, cell: Cell) -> Option<Player> {
        self.at(cell.index())
    }

    /// The mark on the cell with index `cell`, if any.
    #[inline]
    pub(crate) fn at(&self, cell: usize) -> Option<Player> {
        if self.x >> cell & 1 == 1 {
            Some(Player::X)
        } else if self.o >> cell & 1 == 1 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// How many moves have been played.
    pub fn ply(&self) -> usize {
        (self.x.count_ones() + self.o.count_ones()) as usize
    }

    /// The player whose turn it is (on a finished board, whose turn it would be).
    pub fn to_move(self) -> Player {
        if self.x.count_ones() > self.o.count_ones() {
            Player::O
        } else {
            Player::X
        }
    }

    /// The player who made a line, if any.
    pub fn winner(&self) -> Option<Player> {
        if self.geometry.has_line(self.x) {
            Some(Player::X)
        } else if self.geometry.has_line(self.o) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        match self.winner() {
            Some(player) => Status::Finished(Outcome::Win(player)),
            None if self.x | self.o == self.geometry.full() => Status::Finished(Outcome::Draw),
            None => Status::InProgress,
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.status() != Status::InProgress
    }

    /// The empty cells.
    pub fn empty_cells(&self) -> Cells {
        Cells::from_bits(self.empty_mask())
    }

    /// The empty cells, as a mask.
    #[inline]
    pub(crate) fn empty_mask(&self) -> Mask {
        !(self.x | self.o) & self.geometry.full()
    }

    /// The empty cells where a mark of `player` would complete a line of k: where `player`,
    /// to move, wins in one, and where the other side must block. Any board can be asked, with
    /// either player: a rule bot's first two rules, as the built-in rule bots play them.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Player, Position};
    ///
    /// // X to move: O threatens 3 (1-2-3); X has no line of two.
    /// let position = Position::parse(Game::TIC_TAC_TOE, "OO..X...X")?;
    /// assert_eq!(position.winning_cells(Player::O).to_string(), "3");
    /// assert!(position.winning_cells(Player::X).is_empty());
    /// # Ok::<(), ttt_oracle::PositionError>(())
    /// ```
    pub fn winning_cells(&self, player: Player) -> Cells {
        Cells::from_bits(
            self.geometry
                .completing(self.mask(player), self.empty_mask()),
        )
    }

    /// The lines of k the winner made, each its cells (lowest first, so the first and the last
    /// are its ends); none unless the game is won. A run longer than k is every line of k in it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Position};
    ///
    /// let won = Position::parse(Game::TIC_TAC_TOE, "XXX/OO./...")?;
    /// assert_eq!(won.won_lines().iter().map(ToString::to_string).collect::<Vec<_>>(), ["1 2 3"]);
    /// assert!(Position::empty(Game::TIC_TAC_TOE).won_lines().is_empty());
    /// # Ok::<(), ttt_oracle::PositionError>(())
    /// ```
    pub fn won_lines(&self) -> Vec<Cells> {
        let Some(winner) = self.winner() else {
            return Vec::new();
        };
        let marks = self.mask(winner);
        let lines = self.geometry.lines().iter();
        lines
            .filter(|&&line| line & marks == line)
            .map(|&line| Cells::from_bits(line))
            .collect()
    }

    /// The empty cells where a mark of `player` would make two threats at once (a fork): two
    /// lines through the cell, each then one mark short of k, its last cell empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Player, Position};
    ///
    /// // X on 1 and 9, O on 5: X at 3 or 7 threatens two lines at once.
    /// let position = Position::parse(Game::TIC_TAC_TOE, "X...O...X")?;
    /// assert_eq!(position.fork_cells(Player::X).to_string(), "3 7");
    /// # Ok::<(), ttt_oracle::PositionError>(())
    /// ```
    pub fn fork_cells(&self, player: Player) -> Cells {
        let (mine, theirs) = (self.mask(player), self.mask(!player));
        let k = self.game().k() as u32;
        let empty = self.empty_mask();
        Cells::from_bits(empty)
            .iter()
            .filter(|cell| {
                let open = self
                    .geometry
                    .lines_through(cell.index())
                    .iter()
                    .filter(|&&line| line & theirs == 0 && (line & mine).count_ones() + 2 == k);
                open.count() >= 2
            })
            .collect()
    }

    /// The cells the side to move may play: the empty cells, or none once the game is over.
    pub fn legal_moves(&self) -> Cells {
        Cells::from_bits(self.legal_mask())
    }

    /// The cells the side to move may play, as a mask.
    #[inline]
    pub(crate) fn legal_mask(&self) -> Mask {
        if self.is_over() { 0 } else { self.empty_mask() }
    }

    /// The position after the side to move plays `cell`.
    ///
    /// # Errors
    ///
    /// [`PositionError`] when there is no such cell, the game has ended or the cell is taken.
    pub fn play(&self, cell: Cell) -> Result<Position, PositionError> {
        let cells = self.game().cells();
        if cell.index() >= cells {
            return Err(PositionError::NoSuchCell { cell, cells });
        }
        let status = self.status();
        if status != Status::InProgress {
            return Err(PositionError::GameOver { cell, status });
        }
        if let Some(owner) = self.get(cell) {
            return Err(PositionError::Occupied { cell, owner });
        }
        Ok(self.play_unchecked(cell.index()))
    }

    /// Plays the cell with index `cell` for the side to move; the caller guarantees the move
    /// is legal.
    pub(crate) fn play_unchecked(&self, cell: usize) -> Position {
        self.mark_unchecked(cell, self.to_move())
    }

    /// The board with `player`'s mark added on `cell` (0-based); the caller guarantees it is
    /// `player`'s turn and the move is legal. Cheaper than [`Position::play_unchecked`] for a
    /// caller that knows whose turn it is: no marks to count.
    pub(crate) fn mark_unchecked(&self, cell: usize, player: Player) -> Position {
        debug_assert_eq!(self.to_move(), player);
        let bit: Mask = 1 << cell;
        match player {
            Player::X => Position {
                x: self.x | bit,
                code: self.code + POWERS[cell],
                ..*self
            },
            Player::O => Position {
                o: self.o | bit,
                code: self.code + 2 * POWERS[cell],
                ..*self
            },
        }
    }

    /// The board with `cell` (0-based) emptied; the caller guarantees the result is legal
    /// (taking back the last move of a legal game).
    pub(crate) fn unplay_unchecked(&self, cell: usize) -> Position {
        let keep = !(1 << cell);
        let digit = (self.x >> cell & 1) as u32 + 2 * (self.o >> cell & 1) as u32;
        Position {
            x: self.x & keep,
            o: self.o & keep,
            code: self.code - digit * POWERS[cell],
            ..*self
        }
    }

    /// The board turned by the `t`-th of [`Geometry::turns`].
    pub(crate) fn turned(&self, t: usize) -> Position {
        let turn = |marks| self.geometry.turn_mask(t, marks);
        Position::from_marks_unchecked(self.geometry, turn(self.x), turn(self.o))
    }
}

impl Position {
    /// The board's text (see [`Display`](fmt::Display)), written into `buffer`: an export
    /// writes millions of boards, each in one piece, without the formatting machinery.
    pub(crate) fn text<'a>(&self, buffer: &'a mut [u8; 2 * MAX_CELLS]) -> &'a str {
        let game = self.game();
        let slashes = game != Game::TIC_TAC_TOE;
        let mut len = 0;
        for row in 0..game.rows() {
            if slashes && row > 0 {
                buffer[len] = b'/';
                len += 1;
            }
            for cell in row * game.columns()..(row + 1) * game.columns() {
                let digit = (self.x >> cell & 1) + 2 * (self.o >> cell & 1);
                buffer[len] = [b'.', b'X', b'O'][digit as usize];
                len += 1;
            }
        }
        std::str::from_utf8(&buffer[..len]).expect("marks are ASCII")
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text(&mut [0; 2 * MAX_CELLS]))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {self})", self.game())
    }
}
