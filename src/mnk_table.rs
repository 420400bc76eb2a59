//! The tables of the m,n,k games: embedded for the games `build.rs` solves, solved in the
//! process on first use for any other game of at most 16 cells. Each is expanded once into a
//! dense array of one byte per base-3 code, so a query is a code and a read.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use crate::board::Player;
use crate::mnk::board::MnkBoard;
use crate::mnk::format::{self, MnkFormatError, Stored};
use crate::mnk::game::{Geometry, MAX_TABLE_CELLS, Mnk};
use crate::mnk::solve::{Codes, Digits, Entry, MnkSolution, solve_game, unentry};
use crate::solve::{Value, move_rank};
use crate::table::Probe;

/// The tables `build.rs` wrote, by game, as embedded in this binary.
static EMBEDDED: [(Mnk, &[u8]); 4] = [
    (
        Mnk::EMBEDDED[0],
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-3x4.bin")),
    ),
    (
        Mnk::EMBEDDED[1],
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-4x3.bin")),
    ),
    (
        Mnk::EMBEDDED[2],
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-4x4.bin")),
    ),
    (
        Mnk::EMBEDDED[3],
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-4x4k3.bin")),
    ),
];

/// Why a game has no table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MnkTableError {
    /// More cells than a table can hold.
    TooLarge {
        /// The game.
        game: Mnk,
    },
    /// The embedded bytes are damaged.
    Damaged {
        /// The game.
        game: Mnk,
        /// What is wrong.
        error: MnkFormatError,
    },
}

impl fmt::Display for MnkTableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MnkTableError::TooLarge { game } => write!(
                f,
                "game {game} has {} cells; tables exist for games of at most {} cells",
                game.cells(),
                crate::mnk::game::MAX_TABLE_CELLS
            ),
            MnkTableError::Damaged { game, error } => {
                write!(f, "the embedded table of game {game} is damaged: {error}")
            }
        }
    }
}

impl std::error::Error for MnkTableError {}

/// The embedded bytes of `game`'s table, if `build.rs` solved it.
///
/// # Examples
///
/// ```
/// use ttt_oracle::mnk_table_bytes;
///
/// assert!(mnk_table_bytes("4x4".parse()?).is_some());
/// assert!(mnk_table_bytes("2x2".parse()?).is_none());
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
pub fn mnk_table_bytes(game: Mnk) -> Option<&'static [u8]> {
    EMBEDDED
        .iter()
        .find(|(embedded, _)| *embedded == game)
        .map(|(_, bytes)| *bytes)
}

/// The table of `game`, made once per process: decoded from the binary for an embedded game,
/// solved on first use for any other game of at most 16 cells.
///
/// # Errors
///
/// [`MnkTableError`] when the game has more than 16 cells, or its embedded table is damaged.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{MnkBoard, Value, mnk_table};
///
/// let game = "4x4".parse()?;
/// let table = mnk_table(game)?;
/// let empty = MnkBoard::empty(game);
/// assert_eq!((table.probe(&empty).value, table.probe(&empty).remoteness), (Value::Draw, 16));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn mnk_table(game: Mnk) -> Result<&'static MnkTable, MnkTableError> {
    type Tables = HashMap<Mnk, Result<&'static MnkTable, MnkTableError>>;
    static MADE: OnceLock<Mutex<Tables>> = OnceLock::new();
    if !game.has_table() {
        return Err(MnkTableError::TooLarge { game });
    }
    let mut made = MADE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    made.entry(game)
        .or_insert_with(|| {
            let table = match mnk_table_bytes(game) {
                Some(bytes) => MnkTable::from_bytes(bytes)
                    .map_err(|error| MnkTableError::Damaged { game, error })?,
                None => MnkTable::from_solution(&solve_game(game)),
            };
            // Leaked on purpose: a table lives as long as the process that asked for it.
            Ok(&*Box::leak(Box::new(table)))
        })
        .clone()
}

/// One legal move and where it leads, from the view of the player making it.
///
/// Serializes as `{"cell", "value", "remoteness"}`, as tic-tac-toe's moves do, and reads back
/// from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MnkMove {
    #[serde(rename = "cell")]
    /// The cell, numbered from 1.
    pub number: usize,
    /// What the move is worth to the player making it.
    pub value: Value,
    /// Plies from before this move to the end of the game, under perfect play after it.
    pub remoteness: u8,
}

/// The solved game, ready for queries.
pub struct MnkTable {
    game: Mnk,
    geometry: &'static Geometry,
    codes: Codes,
    /// Per code, the entry of the board (0 where no board in play has that code).
    dense: Box<[Entry]>,
    /// `3^i` for each cell, times 1 for X's move and 2 for O's.
    steps: [Vec<u32>; 2],
    /// Canonical positions in play.
    stored: usize,
    size: usize,
}

impl fmt::Debug for MnkTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MnkTable")
            .field("game", &self.game)
            .field("stored", &self.stored)
            .finish_non_exhaustive()
    }
}

impl MnkTable {
    /// Decodes a table written by `build.rs` and expands it over the symmetries of the board.
    ///
    /// # Errors
    ///
    /// [`MnkFormatError`] when the bytes are not a complete, undamaged table.
    pub fn from_bytes(bytes: &[u8]) -> Result<MnkTable, MnkFormatError> {
        let stored = format::decode(bytes)?;
        MnkTable::expand(&stored, bytes.len())
    }

    /// The table of a solution made in this process.
    pub fn from_solution(solution: &MnkSolution) -> MnkTable {
        let stored = format::stored(solution);
        MnkTable::expand(&stored, 0).expect("a fresh solution stores only canonical boards")
    }

    fn expand(stored: &Stored, size: usize) -> Result<MnkTable, MnkFormatError> {
        let game = stored.game;
        let geometry = game.geometry();
        let codes = Codes::new(game);
        let cells = game.cells();
        let mut dense = zeroed(3usize.pow(cells as u32));
        let digits = Digits::new();
        let turns = geometry.turns().len();
        for (&code, &entry) in stored.codes.iter().zip(&stored.entries) {
            let (x, o) = digits.marks(code);
            let mut images = [0u32; 8];
            for (t, image) in images.iter_mut().enumerate().take(turns) {
                *image = codes.turned_code(t, x, o);
            }
            if images[..turns].iter().any(|&image| image < code) {
                return Err(MnkFormatError::Invalid(
                    "a stored board that is not canonical",
                ));
            }
            for &image in &images[..turns] {
                dense[image as usize] = entry;
            }
        }
        Ok(MnkTable {
            game,
            geometry,
            codes,
            dense,
            steps: [1, 2].map(|weight| (0..cells).map(|i| weight * 3u32.pow(i as u32)).collect()),
            stored: stored.codes.len(),
            size,
        })
    }

    /// The game.
    pub fn game(&self) -> Mnk {
        self.game
    }

    /// How many canonical positions in play the table stores.
    pub fn stored_positions(&self) -> usize {
        self.stored
    }

    /// The size in bytes of the serialized table (0 for a table solved in this process).
    pub fn size_bytes(&self) -> usize {
        self.size
    }

    fn check(&self, board: &MnkBoard) {
        assert_eq!(board.game(), self.game, "a board of another game");
    }

    /// Value and remoteness of `board`, for the side to move.
    ///
    /// # Panics
    ///
    /// If `board` belongs to another game.
    pub fn probe(&self, board: &MnkBoard) -> Probe {
        self.check(board);
        if let Some(winner) = board.winner() {
            debug_assert_eq!(winner, !board.to_move());
            return Probe {
                value: Value::Loss,
                remoteness: 0,
            };
        }
        if board.empty_cells() == 0 {
            return Probe {
                value: Value::Draw,
                remoteness: 0,
            };
        }
        let code = self
            .codes
            .code(board.marks(Player::X), board.marks(Player::O));
        let (value, remoteness) = unentry(self.dense[code as usize])
            .expect("every board in play has an entry in a checked table");
        Probe { value, remoteness }
    }

    /// The legal moves of `board` (none when the game is over) and the entry of the position
    /// each leads to, read in one pass.
    fn children(&self, board: &MnkBoard) -> Children {
        self.check(board);
        let mover = board.to_move();
        let (x, o) = (board.marks(Player::X), board.marks(Player::O));
        let mut children = Children {
            cells: 0,
            mine: board.marks(mover),
            taken: x | o,
            entries: [0; MAX_TABLE_CELLS],
        };
        // A finished game has no moves: the last mover made a line, or the board is full.
        let full = self.geometry.full();
        if self.geometry.has_line(board.marks(!mover)) || x | o == full {
            return children;
        }
        children.cells = !(x | o) & full;
        let code = self.codes.code(x, o);
        let steps = &self.steps[usize::from(mover == Player::O)];
        // Every child's entry first, with no branch between the reads, so that they are all
        // in flight at once: the reads, not the arithmetic, are what a query waits for. A child
        // that ends the game has no entry, but its code is still a board's.
        let (mut cells, mut n) = (children.cells, 0);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            children.entries[n] = self.dense[(code + steps[cell]) as usize];
            n += 1;
        }
        children
    }

    /// Where the move on `cell`, the `n`-th of `children`, leads for the mover.
    #[inline]
    fn outcome(&self, children: &Children, cell: usize, n: usize) -> (Value, u8) {
        if self.geometry.makes_line(children.mine | 1 << cell, cell) {
            (Value::Win, 1)
        } else if children.taken | 1 << cell == self.geometry.full() {
            (Value::Draw, 1)
        } else {
            let (value, remoteness) = unentry(children.entries[n])
                .expect("every board in play has an entry in a checked table");
            (-value, remoteness + 1)
        }
    }

    /// The optimal moves as a mask (bit `i` is cell `i + 1`): the best value, then the fastest
    /// win or the slowest loss; every drawing move when the value is a draw. 0 when the game is
    /// over.
    pub fn best_moves(&self, board: &MnkBoard) -> u64 {
        let children = self.children(board);
        let (mut top, mut best) = (i32::MIN, 0u64);
        let (mut cells, mut n) = (children.cells, 0);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let (value, remoteness) = self.outcome(&children, cell, n);
            n += 1;
            let rank = move_rank(value, remoteness);
            if rank > top {
                (top, best) = (rank, 1 << cell);
            } else if rank == top {
                best |= 1 << cell;
            }
        }
        best
    }

    /// One optimal move, numbered from 1: the lowest of [`best_moves`](MnkTable::best_moves).
    /// `None` when the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{MnkBoard, mnk_table};
    ///
    /// let game = "4x4k3".parse()?;
    /// let board = MnkBoard::parse(game, "XX../OO../..../....")?;
    /// assert_eq!(mnk_table(game)?.best_move(&board), Some(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_move(&self, board: &MnkBoard) -> Option<usize> {
        let best = self.best_moves(board);
        (best != 0).then(|| best.trailing_zeros() as usize + 1)
    }

    /// Every legal move with its value and remoteness, by cell. Empty when the game is over.
    pub fn analyze(&self, board: &MnkBoard) -> Vec<MnkMove> {
        let children = self.children(board);
        let mut cells = children.cells;
        let mut moves = Vec::with_capacity(cells.count_ones() as usize);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let (value, remoteness) = self.outcome(&children, cell, moves.len());
            moves.push(MnkMove {
                number: cell + 1,
                value,
                remoteness,
            });
        }
        moves
    }

    /// The perfect line from `board`: both sides playing [`best_move`](MnkTable::best_move)
    /// to the end, as cell numbers.
    pub fn line(&self, board: &MnkBoard) -> Vec<usize> {
        let mut line = Vec::new();
        let mut board = *board;
        while let Some(number) = self.best_move(&board) {
            line.push(number);
            board = board.play_unchecked(number - 1);
        }
        line
    }
}

/// The legal moves of a position and the entries of where they lead, in cell order.
struct Children {
    /// The legal moves.
    cells: u64,
    /// The mover's marks.
    mine: u64,
    /// Every mark.
    taken: u64,
    /// The entry of the position after each legal move, the lowest cell first.
    entries: [Entry; MAX_TABLE_CELLS],
}

/// A zeroed array of `len` bytes, backed by huge pages where the system allows: a table of 43
/// million bytes read at random then needs 22 entries of the processor's address cache, not
/// 10,500, and loads with 22 page faults.
fn zeroed(len: usize) -> Box<[u8]> {
    let mut bytes: Vec<u8> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = bytes.as_mut_ptr() as usize;
        let (begin, end) = (start.next_multiple_of(HUGE), (start + len) / HUGE * HUGE);
        if end > begin {
            // SAFETY: [begin, end) lies inside the allocation just made and not yet touched;
            // the advice only changes how the kernel backs those pages, never their contents.
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
    bytes.resize(len, 0);
    bytes.into_boxed_slice()
}
