//! The rules of tic-tac-toe: players, cells, boards, and how a game ends.
//!
//! This file is shared with `build.rs` (through `#[path]`), so it depends on nothing but `std`
//! and `quote.rs`, which `build.rs` pulls in too.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use crate::game::{MAX_CELLS, Mask};
use crate::quote::quote;

/// One of the two players. X always moves first.
///
/// # Examples
///
/// ```
/// use ttt_oracle::Player;
///
/// assert_eq!(!Player::X, Player::O);
/// assert_eq!(Player::O.to_string(), "O");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// Both players, X first.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The mark this player writes on the board: `'X'` or `'O'`.
    pub const fn mark(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }

    /// The name programs see: `"X"` or `"O"`, the mark as a string.
    pub const fn name(self) -> &'static str {
        match self {
            Player::X => "X",
            Player::O => "O",
        }
    }
}

impl Not for Player {
    type Output = Player;

    fn not(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mark())
    }
}

/// A square of the board. Inside it is an index 0..9; people and programs see it as 1..9, row-major:
///
/// ```text
/// 1 2 3
/// 4 5 6
/// 7 8 9
/// ```
///
/// # Examples
///
/// ```
/// use ttt_oracle::Cell;
///
/// let centre = Cell::from_number(5).unwrap();
/// assert_eq!(centre.index(), 4);
/// assert_eq!(centre.to_string(), "5");
/// assert_eq!(Cell::from_number(16), Cell::new(15)); // a cell of 4x4
/// assert!(Cell::from_number(0).is_none() && Cell::from_number(129).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// Shows the number people use, `Cell(5)` for the centre.
impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({})", self.number())
    }
}

impl Cell {
    /// Every cell of tic-tac-toe, in order 1..9.
    pub(crate) const ALL: [Cell; 9] = [
        Cell(0),
        Cell(1),
        Cell(2),
        Cell(3),
        Cell(4),
        Cell(5),
        Cell(6),
        Cell(7),
        Cell(8),
    ];

    /// The cell of tic-tac-toe with index `index` (0..9), if there is one.
    pub(crate) const fn from_index(index: usize) -> Option<Cell> {
        if index < 9 {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// The cell people call `number` (1 to 128, the largest board; a game's cells run to
    /// rows * columns), if there is one.
    pub const fn from_number(number: u32) -> Option<Cell> {
        if number >= 1 && number <= MAX_CELLS as u32 {
            Some(Cell(number as u8 - 1))
        } else {
            None
        }
    }

    /// The index of this cell, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The number people use for this cell, from 1.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Whether this is one of the four corners (1, 3, 7, 9).
    pub(crate) const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 2 | 6 | 8)
    }

    /// Whether this is one of the four sides (2, 4, 6, 8).
    pub(crate) const fn is_side(self) -> bool {
        matches!(self.0, 1 | 3 | 5 | 7)
    }

    /// The cell mirrored through the centre (1 ↔ 9, 2 ↔ 8, ...).
    pub(crate) const fn opposite(self) -> Cell {
        Cell(8 - self.0)
    }

    /// The cell with index `index` on a board of any game (0..128, the largest board a
    /// [`Cells`] holds), if there is one.
    pub const fn new(index: usize) -> Option<Cell> {
        if index < MAX_CELLS {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    const fn bit(self) -> Mask {
        1 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Reads a cell as people and programs write it: exactly one ASCII digit `1` to `9`.
///
/// Nothing else is a cell: no sign, no leading zero, no other digits, no space around it (a
/// caller reading a line trims it first). What is wrong is told apart in [`ParseCellError`].
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, ParseCellError};
///
/// let centre: Cell = "5".parse()?;
/// assert_eq!(centre.number(), 5);
/// assert_eq!("05".parse::<Cell>(), Err(ParseCellError::OutOfRange));
/// assert_eq!("10".parse::<Cell>(), Err(ParseCellError::OutOfRange));
/// assert_eq!("+5".parse::<Cell>(), Err(ParseCellError::Signed));
/// assert_eq!("5 ".parse::<Cell>(), Err(ParseCellError::NotANumber));
/// assert_eq!("".parse::<Cell>(), Err(ParseCellError::Empty));
/// # Ok::<(), ParseCellError>(())
/// ```
impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(text: &str) -> Result<Cell, ParseCellError> {
        let digits = |bytes: &[u8]| !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit);
        match text.as_bytes() {
            [digit @ b'1'..=b'9'] => Ok(Cell(digit - b'1')),
            [] => Err(ParseCellError::Empty),
            [b'+' | b'-', rest @ ..] if digits(rest) => Err(ParseCellError::Signed),
            all if digits(all) => Err(ParseCellError::OutOfRange),
            _ => Err(ParseCellError::NotANumber),
        }
    }
}

/// Why text is not a cell (see [`Cell`]'s `FromStr`).
///
/// Carries no copy of the text, which may be long: the caller has it, and shows it with
/// [`quote`].
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, ParseCellError};
///
/// let error = "0".parse::<Cell>().unwrap_err();
/// assert_eq!(error, ParseCellError::OutOfRange);
/// assert_eq!(error.to_string(), "cells are numbered 1 to 9, each written as one digit");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseCellError {
    /// No text at all.
    Empty,
    /// Digits only, but not one digit from 1 to 9: `0`, `10`, `05`.
    OutOfRange,
    /// A sign before the digits: `+5`, `-1`.
    Signed,
    /// Anything else: a letter, a space, a digit from another script, `5a`.
    NotANumber,
}

impl fmt::Display for ParseCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseCellError::Empty => "nothing there: a cell is one digit from 1 to 9",
            ParseCellError::OutOfRange => "cells are numbered 1 to 9, each written as one digit",
            ParseCellError::Signed => "a cell is one digit from 1 to 9, with no sign",
            ParseCellError::NotANumber => "a cell is one digit from 1 to 9",
        })
    }
}

impl std::error::Error for ParseCellError {}

/// A set of cells, kept as a [`Mask`]: tic-tac-toe's nine, or the cells of any board up to
/// [`MAX_CELLS`]. Iterates in order of cell number.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, Cells};
///
/// let corners: Cells = [1, 3, 7, 9].into_iter().filter_map(Cell::from_number).collect();
/// assert_eq!(corners.len(), 4);
/// assert!(corners.contains(Cell::from_number(7).unwrap()));
/// assert_eq!(corners.to_string(), "1 3 7 9");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Cells(Mask);

impl Cells {
    /// No cells.
    pub const EMPTY: Cells = Cells(0);
    /// All nine cells of tic-tac-toe.
    pub const ALL: Cells = Cells(0x1ff);

    /// The set whose mask is `bits`: bit `i` is the cell with index `i`.
    pub const fn from_bits(bits: Mask) -> Cells {
        Cells(bits)
    }

    /// The mask of this set: bit `i` is the cell with index `i`.
    pub const fn bits(self) -> Mask {
        self.0
    }

    /// Whether `cell` is in the set.
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }

    /// The set with `cell` added.
    #[must_use]
    pub const fn with(self, cell: Cell) -> Cells {
        Cells(self.0 | cell.bit())
    }

    /// The set with `cell` taken out.
    #[must_use]
    pub const fn without(self, cell: Cell) -> Cells {
        Cells(self.0 & !cell.bit())
    }

    /// Adds `cell` to the set.
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= cell.bit();
    }

    /// How many cells are in the set.
    pub const fn len(self) -> usize {
        count(self.0) as usize
    }

    /// Whether the set has no cells.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has exactly one cell: cheaper than `len() == 1` where the processor
    /// has no instruction for counting bits (the portable build's case), and the bots' rules
    /// ask it of every line at every move.
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// The lowest-numbered cell of the set.
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells in both sets.
    #[must_use]
    pub const fn intersection(self, other: Cells) -> Cells {
        Cells(self.0 & other.0)
    }

    /// The cells in either set.
    #[must_use]
    pub const fn union(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }

    /// The cells in order 1..9.
    pub fn iter(self) -> CellsIter {
        CellsIter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Cell::number))
            .finish()
    }
}

/// Cells separated by single spaces, for example `1 5 9`; nothing for the empty set.
impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

impl FromIterator<Cell> for Cells {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Cells {
        let mut cells = Cells::EMPTY;
        for cell in iter {
            cells.insert(cell);
        }
        cells
    }
}

impl IntoIterator for Cells {
    type Item = Cell;
    type IntoIter = CellsIter;

    fn into_iter(self) -> CellsIter {
        self.iter()
    }
}

/// The number of cells in `mask`: on tic-tac-toe's and other small boards only the low half
/// has any, and the portable build counts bits in software, half as many this way.
#[inline]
pub(crate) const fn count(mask: Mask) -> u32 {
    let (low, high) = (mask as u64, (mask >> 64) as u64);
    if high == 0 {
        low.count_ones()
    } else {
        low.count_ones() + high.count_ones()
    }
}

/// The iterator behind [`Cells::iter`].
///
/// The mask in two halves, low cells first: most sets (every one of tic-tac-toe's) lie in the
/// low half, where each step is one 64-bit operation rather than a 128-bit one.
#[derive(Clone, Debug)]
pub struct CellsIter {
    low: u64,
    high: u64,
}

impl Iterator for CellsIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.low == 0 {
            if self.high == 0 {
                return None;
            }
            let cell = Cell(64 + self.high.trailing_zeros() as u8);
            self.high &= self.high - 1;
            return Some(cell);
        }
        let cell = Cell(self.low.trailing_zeros() as u8);
        self.low &= self.low - 1;
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let high = if self.high == 0 {
            0
        } else {
            self.high.count_ones()
        };
        let n = (self.low.count_ones() + high) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellsIter {}

/// The eight lines of three: rows, columns, then the diagonals 1-5-9 and 3-5-7.
pub const LINES: [Cells; 8] = [
    Cells(0b000_000_111),
    Cells(0b000_111_000),
    Cells(0b111_000_000),
    Cells(0b001_001_001),
    Cells(0b010_010_010),
    Cells(0b100_100_100),
    Cells(0b100_010_001),
    Cells(0b001_010_100),
];

/// Whether each of the 512 sets of tic-tac-toe cells holds a line: one load where every
/// position of an audit asks who won.
pub(crate) const HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut bits = 0;
    while bits < 512 {
        table[bits] = has_line(Cells(bits as Mask));
        bits += 1;
    }
    table
};

/// Whether `cells` holds a whole line.
pub const fn has_line(cells: Cells) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if cells.0 & LINES[i].0 == LINES[i].0 {
            return true;
        }
        i += 1;
    }
    false
}

/// The X and O masks of the first `cells` base-3 digits of `code` (cell `i` weighs `3^i`; 1 for
/// X, 2 for O): what [`Board::code`] and the m,n,k codes undo.
pub const fn code_marks(code: usize, cells: usize) -> (u64, u64) {
    let (mut x, mut o, mut rest, mut i) = (0u64, 0u64, code, 0);
    while i < cells {
        match rest % 3 {
            1 => x |= 1 << i,
            2 => o |= 1 << i,
            _ => {}
        }
        rest /= 3;
        i += 1;
    }
    (x, o)
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player made three in a row.
    Win(Player),
    /// The board filled up with no line.
    Draw,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a move to make.
    InProgress,
    /// The game is over.
    Finished(Outcome),
}

impl Status {
    /// The name programs see: `in_progress`, `x_wins`, `o_wins` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::InProgress => "in_progress",
            Status::Finished(Outcome::Win(Player::X)) => "x_wins",
            Status::Finished(Outcome::Win(Player::O)) => "o_wins",
            Status::Finished(Outcome::Draw) => "draw",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Powers of three of each 9-bit mask: `TERNARY[m]` is the sum of `3^i` over the bits `i` of `m`.
const TERNARY: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut sum = 0u16;
        let mut power = 1u16;
        let mut i = 0;
        while i < 9 {
            if mask & (1 << i) != 0 {
                sum += power;
            }
            power *= 3;
            i += 1;
        }
        table[mask] = sum;
        mask += 1;
    }
    table
};

/// The number of base-3 codes of a board: `3^9`.
pub const CODES: usize = 19_683;

/// A legal position: one that play from the empty board can reach.
///
/// Every `Board` value is legal by construction: the only ways to make one are parsing (which
/// checks), playing legal moves, and the library's own transformations of legal boards.
///
/// Boards read from text: 9 cells row-major. `X`/`x` and `O`/`o` are marks; `.`, `-`, `_` or the
/// cell's own digit `1`..`9` are empty; `|`, `/` and whitespace between cells are ignored. They are
/// written as 9 characters of `X`, `O` and `.`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    // Nine bits each: a tic-tac-toe board stays 4 bytes, where the auditor lists thousands.
    x: u16,
    o: u16,
}

impl Board {
    /// The empty board, X to move.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// The board with X on `x` and O on `o`, if that position is legal.
    ///
    /// # Errors
    ///
    /// [`IllegalPosition`] when the cells overlap, the counts are impossible, both players hold a
    /// line, or play went on after a win.
    pub const fn from_marks(x: Cells, o: Cells) -> Result<Board, IllegalPosition> {
        if x.0 & o.0 != 0 {
            return Err(IllegalPosition::Overlap);
        }
        if (x.0 | o.0) & !Cells::ALL.0 != 0 {
            return Err(IllegalPosition::OffBoard { cells: 9 });
        }
        let (nx, no) = (x.len(), o.len());
        if no > nx {
            return Err(IllegalPosition::TooManyO { x: nx, o: no });
        }
        if nx > no + 1 {
            return Err(IllegalPosition::TooManyX { x: nx, o: no });
        }
        match (has_line(x), has_line(o)) {
            (true, true) => Err(IllegalPosition::BothWin),
            (true, false) if nx == no => Err(IllegalPosition::PlayAfterWin { winner: Player::X }),
            (false, true) if nx > no => Err(IllegalPosition::PlayAfterWin { winner: Player::O }),
            _ => Ok(Board {
                x: x.0 as u16,
                o: o.0 as u16,
            }),
        }
    }

    /// The board with X on `x` and O on `o`; the caller guarantees the position is legal (for
    /// example, the image of a legal board under a symmetry).
    pub(crate) const fn from_marks_unchecked(x: Cells, o: Cells) -> Board {
        Board {
            x: x.0 as u16,
            o: o.0 as u16,
        }
    }

    /// The board whose base-3 code is `code` (see [`Board::code`]), if that code is a legal board.
    pub const fn from_code(code: usize) -> Option<Board> {
        if code >= CODES {
            return None;
        }
        let (x, o) = code_marks(code, 9);
        match Board::from_marks(Cells(x as Mask), Cells(o as Mask)) {
            Ok(board) => Some(board),
            Err(_) => None,
        }
    }

    /// The board's base-3 code: the sum over cells `i` of `3^i` times 0 (empty), 1 (X) or 2 (O).
    /// Every board has its own code below `3^9` = 19,683.
    pub const fn code(self) -> usize {
        TERNARY[self.x as usize] as usize + 2 * TERNARY[self.o as usize] as usize
    }

    /// The mark on `cell`, if any.
    pub const fn get(self, cell: Cell) -> Option<Player> {
        if self.xs().contains(cell) {
            Some(Player::X)
        } else if self.os().contains(cell) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The cells holding `player`'s marks.
    pub const fn marks(self, player: Player) -> Cells {
        match player {
            Player::X => self.xs(),
            Player::O => self.os(),
        }
    }

    /// The cells holding no mark.
    pub const fn empty_cells(self) -> Cells {
        Cells(!(self.x | self.o) as Mask & 0x1ff)
    }

    /// How many moves have been played.
    pub const fn ply(self) -> usize {
        (self.x.count_ones() + self.o.count_ones()) as usize
    }

    /// The player whose turn it is (on a finished board, whose turn it would be).
    pub const fn to_move(self) -> Player {
        if self.x.count_ones() > self.o.count_ones() {
            Player::O
        } else {
            Player::X
        }
    }

    /// The player who made a line, if any.
    pub const fn winner(self) -> Option<Player> {
        if HAS_LINE[self.x as usize] {
            Some(Player::X)
        } else if HAS_LINE[self.o as usize] {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Where the game stands.
    pub const fn status(self) -> Status {
        match self.winner() {
            Some(player) => Status::Finished(Outcome::Win(player)),
            None if self.ply() == 9 => Status::Finished(Outcome::Draw),
            None => Status::InProgress,
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self.status(), Status::InProgress)
    }

    /// The cells the side to move may play: the empty cells, or none once the game is over.
    #[inline]
    pub const fn legal_moves(self) -> Cells {
        if self.is_over() {
            Cells::EMPTY
        } else {
            self.empty_cells()
        }
    }

    /// The board after the side to move plays `cell`.
    ///
    /// # Errors
    ///
    /// [`MoveError::GameOver`] when the game has ended, [`MoveError::Occupied`] when `cell` holds a
    /// mark.
    pub const fn play(self, cell: Cell) -> Result<Board, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver {
                cell,
                status: self.status(),
            });
        }
        if let Some(owner) = self.get(cell) {
            return Err(MoveError::Occupied { cell, owner });
        }
        Ok(self.play_unchecked(cell))
    }

    /// Plays `cell` for the side to move; the caller guarantees the move is legal.
    pub(crate) const fn play_unchecked(self, cell: Cell) -> Board {
        match self.to_move() {
            Player::X => Board {
                x: self.x | cell.bit() as u16,
                o: self.o,
            },
            Player::O => Board {
                x: self.x,
                o: self.o | cell.bit() as u16,
            },
        }
    }

    /// The board with `cell` emptied; the caller guarantees the result is legal (taking back
    /// the last move of a legal game).
    pub(crate) const fn unplay_unchecked(self, cell: Cell) -> Board {
        Board {
            x: self.x & !(cell.bit() as u16),
            o: self.o & !(cell.bit() as u16),
        }
    }

    /// The board reached by playing `moves` alternately from the empty board, X first.
    ///
    /// # Errors
    ///
    /// [`MovesError`] naming the first move that cannot be played, and why.
    pub fn from_moves(moves: &[Cell]) -> Result<Board, MovesError> {
        let mut board = Board::EMPTY;
        for (i, &cell) in moves.iter().enumerate() {
            board = board.play(cell).map_err(|error| MovesError::Illegal {
                position: i + 1,
                error,
            })?;
        }
        Ok(board)
    }

    /// Every legal position, ordered by ply and then by the board's text (`.` < `O` < `X`).
    pub fn reachable() -> Vec<Board> {
        let mut boards: Vec<Board> = (0..CODES).filter_map(Board::from_code).collect();
        boards.sort_by_cached_key(|board| (board.ply(), board.to_string()));
        boards
    }
}

impl Board {
    const fn xs(self) -> Cells {
        Cells(self.x as Mask)
    }

    const fn os(self) -> Cells {
        Cells(self.o as Mask)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::EMPTY
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in Cell::ALL {
            let c = match self.get(cell) {
                Some(player) => player.mark(),
                None => '.',
            };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

impl FromStr for Board {
    type Err = ParseBoardError;

    fn from_str(text: &str) -> Result<Board, ParseBoardError> {
        let (mut x, mut o) = (Cells::EMPTY, Cells::EMPTY);
        let cells = read_cells(text, |index, player| {
            if let Some(cell) = Cell::from_index(index) {
                match player {
                    Player::X => x.insert(cell),
                    Player::O => o.insert(cell),
                }
            }
        })?;
        if cells != 9 {
            return Err(ParseBoardError::Length { found: cells });
        }
        Board::from_marks(x, o).map_err(ParseBoardError::Illegal)
    }
}

/// Reads the cells of a board's text, for every game: `X`/`x` and `O`/`o` are marks (handed
/// to `mark` with the cell's index), `.`, `-`, `_` or the cell's own digit `1`..`9` are empty,
/// and `|`, `/` and whitespace are skipped. Returns how many cells there were; the caller
/// checks that against its board.
///
/// # Errors
///
/// [`ParseBoardError::InvalidChar`] or [`ParseBoardError::MisplacedDigit`] for the first
/// character that is not a cell or a separator.
pub(crate) fn read_cells(
    text: &str,
    mut mark: impl FnMut(usize, Player),
) -> Result<usize, ParseBoardError> {
    let mut cells = 0usize;
    for (i, ch) in text.chars().enumerate() {
        let position = i + 1;
        match ch {
            _ if ch.is_whitespace() || ch == '|' || ch == '/' => continue,
            'X' | 'x' => mark(cells, Player::X),
            'O' | 'o' => mark(cells, Player::O),
            '.' | '-' | '_' => {}
            '1'..='9' if ch as usize - '0' as usize == cells + 1 => {}
            '1'..='9' => {
                return Err(ParseBoardError::MisplacedDigit {
                    position,
                    digit: ch,
                    cell: cells + 1,
                });
            }
            _ => return Err(ParseBoardError::InvalidChar { position, ch }),
        }
        cells += 1;
    }
    Ok(cells)
}

/// Why a set of marks is not a position that play can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPosition {
    /// A cell holds both marks.
    Overlap,
    /// A mark lies beyond the board's last cell.
    OffBoard {
        /// The board's cells.
        cells: usize,
    },
    /// O has more marks than X, but X moves first.
    TooManyO {
        /// X's marks.
        x: usize,
        /// O's marks.
        o: usize,
    },
    /// X has two or more marks more than O.
    TooManyX {
        /// X's marks.
        x: usize,
        /// O's marks.
        o: usize,
    },
    /// Both players hold a line.
    BothWin,
    /// A player made a line, and the other moved after it.
    PlayAfterWin {
        /// Who made the line.
        winner: Player,
    },
    /// A player holds lines that share no cell, so no last move made them all; the game ended
    /// at the first (possible on boards larger than 3x3).
    SeparateLines {
        /// Who holds the lines.
        winner: Player,
    },
}

impl fmt::Display for IllegalPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalPosition::Overlap => write!(f, "a cell holds both X and O"),
            IllegalPosition::OffBoard { cells } => {
                write!(f, "a mark lies beyond the board's {cells} cells")
            }
            IllegalPosition::TooManyO { x, o } => write!(
                f,
                "impossible counts: {o} O against {x} X, but X moves first, so O can never be ahead"
            ),
            IllegalPosition::TooManyX { x, o } => write!(
                f,
                "impossible counts: {x} X against {o} O; X can be at most one mark ahead"
            ),
            IllegalPosition::BothWin => {
                write!(f, "both X and O hold a line; a game ends at the first")
            }
            IllegalPosition::PlayAfterWin { winner } => write!(
                f,
                "{winner} already made a line, but {} moved after it",
                !*winner
            ),
            IllegalPosition::SeparateLines { winner } => write!(
                f,
                "{winner} holds lines that share no cell, so no single move made them; \
                 the game ended at the first"
            ),
        }
    }
}

impl std::error::Error for IllegalPosition {}

/// Why text is not a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// There were not exactly 9 cells.
    Length {
        /// How many cells there were.
        found: usize,
    },
    /// A character that is neither a mark, an empty cell nor a separator.
    InvalidChar {
        /// Where it stands in the text, counting characters from 1.
        position: usize,
        /// The character.
        ch: char,
    },
    /// A digit marks an empty cell only at its own place: `3` may stand for cell 3, nowhere else.
    MisplacedDigit {
        /// Where it stands in the text, counting characters from 1.
        position: usize,
        /// The digit.
        digit: char,
        /// The cell it stands at.
        cell: usize,
    },
    /// The text is a board, but not one that play can reach.
    Illegal(IllegalPosition),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::Length { found } => write!(
                f,
                "a board has 9 cells, this has {found} (write 9 of X, O and . row-major, e.g. X...O....)"
            ),
            ParseBoardError::InvalidChar { position, ch } => write!(
                f,
                "unknown character {} at position {position} (cells are X, O, or . - _ or the cell's own digit for empty; | / and spaces are ignored)",
                quote(ch.encode_utf8(&mut [0; 4]))
            ),
            ParseBoardError::MisplacedDigit {
                position,
                digit,
                cell,
            } => write!(
                f,
                "digit {digit:?} at position {position} stands for cell {cell}; a digit marks an empty cell only at its own place"
            ),
            ParseBoardError::Illegal(error) => write!(f, "not a reachable position: {error}"),
        }
    }
}

impl std::error::Error for ParseBoardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParseBoardError::Illegal(error) => Some(error),
            _ => None,
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The board has no such cell.
    NoSuchCell {
        /// The move.
        cell: Cell,
        /// The board's cells.
        cells: usize,
    },
    /// The game had already ended.
    GameOver {
        /// The move.
        cell: Cell,
        /// How the game ended.
        status: Status,
    },
    /// The cell already holds a mark.
    Occupied {
        /// The move.
        cell: Cell,
        /// Whose mark is there.
        owner: Player,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver { cell, status } => {
                let ended = match status {
                    Status::Finished(Outcome::Win(winner)) => format!("{winner} had won"),
                    _ => "the board was full".to_string(),
                };
                write!(f, "cell {cell} is played after the game ended: {ended}")
            }
            MoveError::Occupied { cell, owner } => {
                write!(f, "cell {cell} is already taken by {owner}")
            }
            MoveError::NoSuchCell { cell, cells } => {
                write!(
                    f,
                    "there is no cell {cell}: cells are numbered 1 to {cells}"
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a list of moves does not make a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesError {
    /// An item that is not a cell 1..9.
    NotACell {
        /// Which move, counting from 1.
        position: usize,
        /// The item as written, whole; its `Display` shows at most the start of it.
        token: String,
        /// What is wrong with it.
        error: ParseCellError,
    },
    /// No cell before a comma: the list starts with a comma, or has two with nothing but
    /// spaces between them (`,1`, `1,,2`).
    EmptyMove {
        /// Which move is missing, counting from 1.
        position: usize,
        /// Where the comma stands in the text, counting characters from 1.
        comma: usize,
    },
    /// No cell after the last comma (`1,`).
    TrailingComma {
        /// Which move is missing, counting from 1.
        position: usize,
        /// Where the comma stands in the text, counting characters from 1.
        comma: usize,
    },
    /// A move that the rules forbid at that point.
    Illegal {
        /// Which move, counting from 1.
        position: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SEPARATE: &str =
            "separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\"";
        match self {
            MovesError::NotACell {
                position,
                token,
                error,
            } => write!(
                f,
                "move {position} is {}, not a cell: {error}",
                quote(token)
            ),
            MovesError::EmptyMove { position, comma } => write!(
                f,
                "move {position} is empty: nothing before the comma at character {comma} ({SEPARATE})"
            ),
            MovesError::TrailingComma { position, comma } => write!(
                f,
                "move {position} is empty: nothing after the comma at character {comma}, which ends the list ({SEPARATE})"
            ),
            MovesError::Illegal { position, error } => write!(f, "move {position}: {error}"),
        }
    }
}

impl std::error::Error for MovesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MovesError::NotACell { error, .. } => Some(error),
            MovesError::Illegal { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads a move list: cells 1..9 (each as [`Cell`]'s `FromStr` reads it) separated by commas or
/// whitespace. A run of whitespace is one separator, and so is a comma with whitespace around
/// it; there must be a cell between two commas and on both sides of each comma. Text that is
/// empty or all whitespace is the empty list.
///
/// Checks only that each item is a cell; [`Board::from_moves`] checks that the moves can be
/// played.
///
/// # Errors
///
/// [`MovesError`] for the first item that is not a cell ([`NotACell`]), or the first comma
/// with nothing before it ([`EmptyMove`]) or after it ([`TrailingComma`]).
///
/// [`NotACell`]: MovesError::NotACell
/// [`EmptyMove`]: MovesError::EmptyMove
/// [`TrailingComma`]: MovesError::TrailingComma
pub fn parse_moves(text: &str) -> Result<Vec<Cell>, MovesError> {
    let mut moves = Vec::new();
    for_each_move(text, |position, token| {
        let cell = token
            .parse::<Cell>()
            .map_err(|error| MovesError::NotACell {
                position,
                token: token.to_string(),
                error,
            })?;
        moves.push(cell);
        Ok(())
    })?;
    Ok(moves)
}

/// Reads a move list as [`parse_moves`] does, handing each item (numbered from 1) to `each` as
/// it is met: the separators' rules for every game's move lists. Stops at the first error,
/// whether `each` returns it or a comma is misplaced.
///
/// # Errors
///
/// What `each` returns, or [`MovesError::EmptyMove`] or [`MovesError::TrailingComma`]
/// (converted) for a misplaced comma.
pub fn for_each_move<E: From<MovesError>>(
    text: &str,
    mut each: impl FnMut(usize, &str) -> Result<(), E>,
) -> Result<(), E> {
    let mut count = 0;
    // The byte offset where the item being read starts.
    let mut item = None;
    // The last comma, while no cell has followed it.
    let mut open_comma = None;
    for (index, (offset, ch)) in text.char_indices().enumerate() {
        if ch != ',' && !ch.is_whitespace() {
            item.get_or_insert(offset);
            continue;
        }
        if let Some(start) = item.take() {
            count += 1;
            each(count, &text[start..offset])?;
            open_comma = None;
        }
        if ch == ',' {
            if count == 0 || open_comma.is_some() {
                return Err(MovesError::EmptyMove {
                    position: count + 1,
                    comma: index + 1,
                }
                .into());
            }
            open_comma = Some(index + 1);
        }
    }
    if let Some(start) = item {
        each(count + 1, &text[start..])?;
    } else if let Some(comma) = open_comma {
        return Err(MovesError::TrailingComma {
            position: count + 1,
            comma,
        }
        .into());
    }
    Ok(())
}
