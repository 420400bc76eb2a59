//! A game of the m,n,k family as a value: its rows, columns and k, and what follows from them
//! (the lines of k that win and the symmetries of the board).
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

use crate::symmetry::Symmetry;

// Where the rest of the crate has always found them.
pub use crate::cell::{MAX_CELLS, Mask};

/// The most cells a game may have for a table in memory: `3^16` base-3 codes are 43 million.
pub const MAX_TABLE_CELLS: usize = 16;

/// The most cells a tiered solve takes (`ttt solve`): the class of every set of cells is a table
/// of `2^N` words (128 MiB at 25 cells), and a remoteness must fit 5 bits.
pub const MAX_TIER_CELLS: usize = 25;

/// An m,n,k game: `rows` by `columns` cells, and `k` marks in a row (across, down or diagonally)
/// win. Tic-tac-toe is 3,3,3.
///
/// Written as people write it on the command line: `MxN` for M rows and N columns with
/// k = min(M, N), or `MxNkK`.
///
/// # Examples
///
/// ```
/// use ttt_oracle::Game;
///
/// let game: Game = "4x4k3".parse()?;
/// assert_eq!((game.rows(), game.columns(), game.k(), game.cells()), (4, 4, 3, 16));
/// assert_eq!("3x4".parse::<Game>()?.k(), 3);
/// assert_eq!("3x3".parse::<Game>()?, Game::TIC_TAC_TOE);
/// assert_eq!(Game::new(3, 4, 3)?.to_string(), "3x4");
/// assert_eq!(Game::new(4, 4, 3)?.to_string(), "4x4k3");
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Game {
    rows: u8,
    columns: u8,
    k: u8,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({self})")
    }
}

/// Why a game cannot be played here, or its name cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The name is not `MxN` or `MxNkK` with decimal numbers.
    Syntax {
        /// The name as given.
        text: String,
    },
    /// A number written with a leading zero (`03x3`), refused as cells are (`05`): a zero
    /// in front may be a typo for another digit.
    LeadingZero {
        /// The name as given.
        text: String,
        /// The number as given, e.g. `03`.
        number: String,
    },
    /// A side of zero cells.
    NoCells,
    /// More than 128 cells.
    TooManyCells {
        /// rows * columns.
        cells: usize,
    },
    /// k is 0, or longer than both sides, so no line fits.
    BadK {
        /// The k asked for.
        k: usize,
        /// The longer side.
        longest: usize,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Syntax { text } => {
                write!(
                    f,
                    "{} is not a game: write MxN (M rows, N columns, k = the shorter side) or \
                     MxNkK, for example 3x3, 4x4 or 4x4k3",
                    crate::text::quote(text)
                )?;
                match suggestion(text) {
                    Some(game) => write!(f, " (did you mean {game}?)"),
                    None => Ok(()),
                }
            }
            GameError::LeadingZero { text, number } => {
                write!(
                    f,
                    "{} is not a game: {} has a leading zero; write each number without one",
                    crate::text::quote(text),
                    crate::text::quote(number),
                )?;
                match without_leading_zeros(text).parse::<Game>() {
                    Ok(game) => write!(f, ", as in {}", crate::text::quote(&game.to_string())),
                    Err(_) => Ok(()),
                }
            }
            GameError::NoCells => f.write_str("a board needs at least one row and one column"),
            GameError::TooManyCells { cells } => {
                write!(
                    f,
                    "a board of {cells} cells is too large: at most {MAX_CELLS} cells"
                )
            }
            GameError::BadK { k, longest } => write!(
                f,
                "k = {k} cannot be played: a line must be 1 to {longest} cells (the longer side)"
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// The panic of a question about a position of one game asked of another game's table or
/// oracle: one message wherever it is caught.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn wrong_game(asked: Game, of: Game) -> ! {
    panic!("a position of {asked} asked of the table of {of}")
}

impl Game {
    /// The most cells of a game whose table is embedded or solved in memory on first use.
    pub const MAX_TABLE_CELLS: usize = MAX_TABLE_CELLS;

    /// The most cells of a game with a table at all: past [`Game::MAX_TABLE_CELLS`], the one
    /// `ttt solve` made.
    pub const MAX_TIER_CELLS: usize = MAX_TIER_CELLS;

    /// Tic-tac-toe: 3 rows, 3 columns, 3 in a row.
    pub const TIC_TAC_TOE: Game = Game::of(3, 3, 3);

    /// The games whose tables `build.rs` solves and the binary embeds, besides tic-tac-toe:
    /// 3x4 and 4x3, and with the feature `embedded-4x4` (a default) 4x4 and 4x4k3.
    pub const EMBEDDED: &'static [Game] = &[
        Game::of(3, 4, 3),
        Game::of(4, 3, 3),
        #[cfg(feature = "embedded-4x4")]
        Game::of(4, 4, 4),
        #[cfg(feature = "embedded-4x4")]
        Game::of(4, 4, 3),
    ];

    /// `rows` by `columns`, `k` in a row, for sizes known to be a game.
    pub(crate) const fn of(rows: u8, columns: u8, k: u8) -> Game {
        Game { rows, columns, k }
    }

    /// The game of `rows` by `columns` cells where `k` in a row wins.
    ///
    /// # Errors
    ///
    /// [`GameError`] when a side is 0, the board has more than 128 cells, or k is 0
    /// or longer than both sides.
    pub fn new(rows: usize, columns: usize, k: usize) -> Result<Game, GameError> {
        if rows == 0 || columns == 0 {
            return Err(GameError::NoCells);
        }
        let cells = rows.saturating_mul(columns);
        if cells > MAX_CELLS {
            return Err(GameError::TooManyCells { cells });
        }
        let longest = rows.max(columns);
        if k == 0 || k > longest {
            return Err(GameError::BadK { k, longest });
        }
        // Each fits a u8: a side is at most 128 cells.
        Ok(Game::of(rows as u8, columns as u8, k as u8))
    }

    /// The number of rows.
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// The number of columns.
    pub const fn columns(self) -> usize {
        self.columns as usize
    }

    /// How many marks in a row win.
    pub const fn k(self) -> usize {
        self.k as usize
    }

    /// The number of cells, rows * columns.
    pub const fn cells(self) -> usize {
        self.rows as usize * self.columns as usize
    }

    /// Whether this is tic-tac-toe (3,3,3).
    #[inline]
    pub fn is_tic_tac_toe(&self) -> bool {
        *self == Game::TIC_TAC_TOE
    }

    /// Whether the board is square, and so has 8 symmetries rather than 4.
    pub const fn is_square(self) -> bool {
        self.rows == self.columns
    }

    /// Whether this game is small enough to solve into a table (at most 16 cells).
    pub const fn has_table(self) -> bool {
        self.cells() <= MAX_TABLE_CELLS
    }

    /// Whether `build.rs` solves this game and the binary embeds its table.
    pub fn is_embedded(self) -> bool {
        self == Game::TIC_TAC_TOE || Game::EMBEDDED.contains(&self)
    }

    /// The lines, symmetries and lookup tables of this game, made once per process.
    pub(crate) fn geometry(self) -> &'static Geometry {
        // Tic-tac-toe's without the lock: every tic-tac-toe game a bot is asked about starts
        // from its empty board.
        static TIC_TAC_TOE: OnceLock<Geometry> = OnceLock::new();
        if self == Game::TIC_TAC_TOE {
            return TIC_TAC_TOE.get_or_init(|| Geometry::new(self));
        }
        static MADE: OnceLock<Mutex<HashMap<Game, &'static Geometry>>> = OnceLock::new();
        let mut made = MADE
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Leaked on purpose: one per game a process uses (a few kilobytes for a small board,
        // half a megabyte of turn lookups for 11x11), and boards hold the reference.
        made.entry(self)
            .or_insert_with(|| Box::leak(Box::new(Geometry::new(self))))
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.columns)?;
        if self.k != self.rows.min(self.columns) {
            write!(f, "k{}", self.k)?;
        }
        Ok(())
    }
}

impl FromStr for Game {
    type Err = GameError;

    fn from_str(text: &str) -> Result<Game, GameError> {
        let syntax = || GameError::Syntax {
            text: text.to_owned(),
        };
        let number = |digits: &str| -> Result<usize, GameError> {
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            if digits.len() > 1 && digits.starts_with('0') {
                return Err(GameError::LeadingZero {
                    text: text.to_owned(),
                    number: digits.to_owned(),
                });
            }
            if digits.len() > 3 {
                return Err(syntax());
            }
            digits.parse().map_err(|_| syntax())
        };
        let lower = text.to_ascii_lowercase();
        let (rows, rest) = lower.split_once('x').ok_or_else(syntax)?;
        let (columns, k) = match rest.split_once('k') {
            Some((columns, k)) => (columns, Some(k)),
            None => (rest, None),
        };
        let (rows, columns) = (number(rows)?, number(columns)?);
        let k = match k {
            Some(k) => number(k)?,
            None => rows.min(columns),
        };
        Game::new(rows, columns, k)
    }
}

/// The game `text` was probably meant to name: its two or three numbers read as rows, columns
/// and k, whatever short marks separate them (`4,4,3`, `4*4`, `4 by 4`, `4x4x3`). `None` when
/// the text holds other than two or three numbers, longer words, or no game.
fn suggestion(text: &str) -> Option<Game> {
    let is_digit = |ch: char| ch.is_ascii_digit();
    if text
        .split(is_digit)
        .any(|between| between.chars().count() > 4)
    {
        return None;
    }
    let numbers = text
        .split(|ch: char| !is_digit(ch))
        .filter(|digits| !digits.is_empty())
        .map(|digits| digits.parse::<usize>().ok().filter(|n| *n <= MAX_CELLS))
        .collect::<Option<Vec<usize>>>()?;
    match numbers[..] {
        [rows, columns] => Game::new(rows, columns, rows.min(columns)).ok(),
        [rows, columns, k] => Game::new(rows, columns, k).ok(),
        _ => None,
    }
}

/// `text` with the leading zeros of each number taken off (`03x3k03` is `3x3k3`): what a game
/// with a leading zero was meant to be.
fn without_leading_zeros(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for (i, ch) in text.char_indices() {
        let next_is_digit = text[i + ch.len_utf8()..].starts_with(|c: char| c.is_ascii_digit());
        if ch == '0' && !in_number && next_is_digit {
            continue;
        }
        in_number = ch.is_ascii_digit();
        out.push(ch);
    }
    out
}

/// Whether `symmetry` maps a non-square rectangle onto itself.
const fn keeps_rectangle(symmetry: Symmetry) -> bool {
    matches!(
        symmetry,
        Symmetry::Identity
            | Symmetry::Rotate180
            | Symmetry::FlipHorizontal
            | Symmetry::FlipVertical
    )
}

/// Where `symmetry` sends the cell at (`row`, `column`) on a board of `rows` by `columns`.
const fn place(
    symmetry: Symmetry,
    row: usize,
    column: usize,
    rows: usize,
    columns: usize,
) -> (usize, usize) {
    let (last_row, last_column) = (rows - 1, columns - 1);
    match symmetry {
        Symmetry::Identity => (row, column),
        Symmetry::Rotate90 => (column, last_row - row),
        Symmetry::Rotate180 => (last_row - row, last_column - column),
        Symmetry::Rotate270 => (last_column - column, row),
        Symmetry::FlipHorizontal => (row, last_column - column),
        Symmetry::FlipVertical => (last_row - row, column),
        Symmetry::Transpose => (column, row),
        Symmetry::AntiTranspose => (last_column - column, last_row - row),
    }
}

/// Everything about a game that play, solving and symmetry look up: made once per game by
/// [`Game::geometry`].
pub struct Geometry {
    game: Game,
    full: Mask,
    lines: Vec<Mask>,
    through: Vec<Vec<Mask>>,
    turns: Vec<Symmetry>,
    /// Per turn, where each cell goes.
    targets: Vec<Vec<u8>>,
    /// Per turn, then per byte of a mask (`bytes` of them), the image of that byte's cells.
    images: Vec<[Mask; 256]>,
    bytes: usize,
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Geometry")
            .field("game", &self.game)
            .field("lines", &self.lines.len())
            .finish_non_exhaustive()
    }
}

impl Geometry {
    fn new(game: Game) -> Geometry {
        let (rows, columns, k) = (game.rows(), game.columns(), game.k());
        let cells = game.cells();
        let full = Mask::MAX >> (MAX_CELLS - cells);
        let mut lines = Vec::new();
        // Rows, then columns, then diagonals down-right, then down-left; each by its first cell.
        for (step_row, step_column) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for row in 0..rows as isize {
                for column in 0..columns as isize {
                    let end_row = row + step_row * (k as isize - 1);
                    let end_column = column + step_column * (k as isize - 1);
                    if end_row >= rows as isize || end_column < 0 || end_column >= columns as isize
                    {
                        continue;
                    }
                    let line = (0..k as isize).fold(0 as Mask, |line, i| {
                        let cell =
                            (row + step_row * i) * columns as isize + column + step_column * i;
                        line | 1 << cell
                    });
                    if !lines.contains(&line) {
                        lines.push(line);
                    }
                }
            }
        }
        let through = (0..cells)
            .map(|cell| {
                lines
                    .iter()
                    .copied()
                    .filter(|line| line >> cell & 1 == 1)
                    .collect()
            })
            .collect();
        let turns: Vec<Symmetry> = Symmetry::ALL
            .into_iter()
            .filter(|&symmetry| game.is_square() || keeps_rectangle(symmetry))
            .collect();
        let targets: Vec<Vec<u8>> = turns
            .iter()
            .map(|turn| {
                (0..cells)
                    .map(|cell| {
                        let (row, column) =
                            place(*turn, cell / columns, cell % columns, rows, columns);
                        (row * columns + column) as u8
                    })
                    .collect()
            })
            .collect();
        // One zeroed block for every turn's byte tables, filled in place: tables made one by
        // one and moved in took a third of a tic-tac-toe process's start (copying 64 KB).
        let bytes = cells.div_ceil(8);
        let mut images = vec![[0 as Mask; 256]; targets.len() * bytes];
        for (t, target) in targets.iter().enumerate() {
            for (byte, table) in images[t * bytes..(t + 1) * bytes].iter_mut().enumerate() {
                // Each mask's image is its lowest cell's added to the rest's. A last byte
                // with fewer than 8 cells needs no more: its other bits are no cells.
                let end = 1usize << (cells - 8 * byte).min(8);
                for mask in 1..end {
                    let cell = byte * 8 + (mask as u32).trailing_zeros() as usize;
                    table[mask] = table[mask & (mask - 1)] | 1 << target[cell];
                }
            }
        }
        Geometry {
            game,
            full,
            lines,
            through,
            turns,
            targets,
            images,
            bytes,
        }
    }

    /// The game this describes.
    #[inline]
    pub fn game(&self) -> Game {
        self.game
    }

    /// The mask of every cell.
    pub fn full(&self) -> Mask {
        self.full
    }

    /// Every line of k cells, as masks (bit `i` is cell `i + 1`).
    pub fn lines(&self) -> &[Mask] {
        &self.lines
    }

    /// The lines through the cell with index `cell`.
    pub fn lines_through(&self, cell: usize) -> &[Mask] {
        &self.through[cell]
    }

    /// Whether `marks` holds a whole line.
    pub fn has_line(&self, marks: Mask) -> bool {
        self.lines.iter().any(|&line| line & !marks == 0)
    }

    /// The cells of `empty` that would complete a line of `marks`: a player's threats.
    pub fn completing(&self, marks: Mask, empty: Mask) -> Mask {
        self.lines
            .iter()
            .map(|&line| line & !marks)
            .filter(|lacks| lacks.count_ones() == 1)
            .fold(0, |cells, lacks| cells | lacks)
            & empty
    }

    /// Whether `marks`, just after a mark on `cell`, hold a line through that cell.
    #[inline]
    pub fn makes_line(&self, marks: Mask, cell: usize) -> bool {
        self.through[cell].iter().any(|&line| line & !marks == 0)
    }

    /// The symmetries of the board: 8 for a square; for any other rectangle the 4 that keep
    /// its shape (identity, the half turn and both mirrors). In the order of
    /// [`Symmetry::ALL`], identity first.
    pub fn turns(&self) -> &[Symmetry] {
        &self.turns
    }

    /// The index in [`turns`](Geometry::turns) of the turn that undoes the `t`-th.
    pub fn inverse_turn(&self, t: usize) -> usize {
        let inverse = self.turns[t].inverse();
        (self.turns.iter().position(|&turn| turn == inverse))
            .expect("the symmetries of a board are a group")
    }

    /// Where the `t`-th turn of [`turns`](Geometry::turns) sends the cell with index `cell`.
    pub fn turn_cell(&self, t: usize, cell: usize) -> usize {
        usize::from(self.targets[t][cell])
    }

    /// The image of the cells of `mask` under the `t`-th turn (bits past the last cell are no
    /// cells, and have none).
    #[inline]
    pub fn turn_mask(&self, t: usize, mask: Mask) -> Mask {
        let mut image = 0;
        let tables = &self.images[t * self.bytes..(t + 1) * self.bytes];
        for (byte, table) in tables.iter().enumerate() {
            image |= table[(mask >> (8 * byte) & 0xff) as usize];
        }
        image
    }
}
