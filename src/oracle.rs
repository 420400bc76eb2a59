//! The front door: [`Oracle`], the solved table of one game, asked everything about its
//! positions with the same verbs and the same return types on every game.

use std::fmt;
use std::sync::Arc;

use crate::analysis::Analysis;
use crate::board::{Cell, Cells};
use crate::game::Game;
use crate::position::Position;
use crate::stats::Stats;
use crate::table::disk::DiskTable;
use crate::table::tic_tac_toe::Dense;
use crate::table::{Table, TableError};
use crate::tiers::Step;
use crate::value::{MoveValue, Probe};
use crate::verify::Verification;

/// A solved game, ready for questions: tic-tac-toe, the other embedded games (3x4, 4x3, 4x4,
/// 4x4k3), any game of at most 16 cells, solved on first use, or a game of 17 to 25 cells
/// that `ttt solve` cached.
///
/// Every answer about a position takes constant time and searches nothing ([`stats`] and
/// [`verify`] go over the whole game). An `Oracle` is a small handle to its table, cheap to
/// clone; the tables of [`Oracle::of`] live as long as the process.
///
/// [`stats`]: Oracle::stats
/// [`verify`]: Oracle::verify
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, Oracle, Position, Value};
///
/// let oracle = Oracle::of("4x4k3".parse()?)?;
/// let position = Position::parse(oracle.game(), "XX../OO../..../....")?;
/// assert_eq!(oracle.probe(&position).value, Value::Win);
/// assert_eq!(oracle.best_move(&position).map(|cell| cell.number()), Some(3));
/// assert!(Oracle::of("6x6".parse()?).is_err()); // 36 cells: no table
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Oracle {
    layout: Layout,
}

/// How the table is laid out: tic-tac-toe in a dense array indexed by the board's code (one
/// read a query), every other game in the general table.
#[derive(Clone)]
pub(crate) enum Layout {
    TicTacToe(&'static Dense),
    Any(Arc<Table>),
    Disk(&'static DiskTable),
}

impl fmt::Debug for Oracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Oracle({})", self.game())
    }
}

impl Oracle {
    /// The solved table of `game`: decoded from the binary on first use for an embedded game,
    /// solved on first use for any other game of at most 16 cells (a 16-cell solve takes about
    /// a third of a second), mapped from the cache folder for a game of 17 to 25 cells that
    /// `ttt solve` solved, then kept for the life of the process.
    ///
    /// A cached table's header and lengths are checked here, at once whatever its size, and
    /// each tier against its checksum the first time an answer reads it. An answer that would
    /// read a tier that fails is never given: in a program that called
    /// [`shutdown::install`](crate::shutdown::install), as `ttt` does, the process writes one
    /// line naming the table and the tier and ends with exit code 4; in any other (Python, a
    /// test) the call panics with that line. [`Oracle::stats`] and [`Oracle::verify`] return
    /// [`TableError::DamagedFile`] instead; `verify` checks every tier first.
    ///
    /// # Errors
    ///
    /// [`TableError::NotSolved`] for a game of 17 to 25 cells with no table in the cache
    /// folder, [`TableError::TooLarge`] past 25 cells; [`TableError::Damaged`] when the
    /// embedded bytes are damaged, [`TableError::DamagedFile`] when the cached file is.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle, Position, Value};
    ///
    /// let oracle = Oracle::of(Game::TIC_TAC_TOE)?;
    /// let probe = oracle.probe(&Position::empty(Game::TIC_TAC_TOE));
    /// assert_eq!((probe.value, probe.remoteness), (Value::Draw, 9));
    /// # Ok::<(), ttt_oracle::TableError>(())
    /// ```
    pub fn of(game: Game) -> Result<Oracle, TableError> {
        let layout = if game == Game::TIC_TAC_TOE {
            Layout::TicTacToe(crate::table::tic_tac_toe()?)
        } else if !game.has_table() && game.cells() <= crate::tiers::MAX_TIER_CELLS {
            Layout::Disk(crate::table::disk::solved(game)?)
        } else {
            Layout::Any(crate::table::of(game)?)
        };
        Ok(Oracle { layout })
    }

    /// How the table is held, for the layouts' fast paths ([`BatchBest`](crate::BatchBest)).
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The oracle of a table solved apart from [`Oracle::of`]'s, which lives as long as its
    /// last holder: one `ttt serve` keeps in its cache.
    pub(crate) fn of_table(table: Arc<Table>) -> Oracle {
        Oracle {
            layout: Layout::Any(table),
        }
    }

    /// The game this table solves.
    pub fn game(&self) -> Game {
        match &self.layout {
            Layout::TicTacToe(_) => Game::TIC_TAC_TOE,
            Layout::Any(table) => table.game(),
            Layout::Disk(table) => table.game(),
        }
    }

    /// The checksum stored in tic-tac-toe's embedded table, which `ttt --version` shows, and
    /// the version of its format; `None` for the other games' layouts.
    pub fn checksum(&self) -> Option<(u32, u64)> {
        match &self.layout {
            Layout::TicTacToe(dense) => Some((crate::format::MNK_FORMAT_VERSION, dense.checksum())),
            Layout::Any(_) | Layout::Disk(_) => None,
        }
    }

    /// The table's size in bytes, as stored.
    pub fn size_bytes(&self) -> usize {
        match &self.layout {
            Layout::TicTacToe(dense) => dense.size_bytes(),
            Layout::Any(table) => table.size_bytes(),
            Layout::Disk(table) => table.size_bytes(),
        }
    }

    /// Value and remoteness of `position`, for the side to move; a finished position is worth
    /// its result, at remoteness 0.
    ///
    /// # Panics
    ///
    /// If `position` belongs to another game, or the answer would read a damaged tier of a
    /// cached table (in a library user's process: see [`Oracle::of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle, Position, Value};
    ///
    /// let game = Game::TIC_TAC_TOE;
    /// let probe = Oracle::of(game)?.probe(&Position::parse(game, "XX.OO....")?);
    /// assert_eq!((probe.value, probe.remoteness), (Value::Win, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn probe(&self, position: &Position) -> Probe {
        match &self.layout {
            Layout::TicTacToe(dense) => dense.probe(&position.tic_tac_toe()),
            Layout::Any(table) => table.probe(position),
            Layout::Disk(table) => table.probe(position),
        }
    }

    /// The optimal moves: the best value, then the fastest win or the slowest loss; every
    /// drawing move when the value is a draw. Empty when the game is over.
    ///
    /// # Panics
    ///
    /// If `position` belongs to another game, or the answer would read a damaged tier of a
    /// cached table (in a library user's process: see [`Oracle::of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle, Position};
    ///
    /// let game = Game::TIC_TAC_TOE;
    /// let position = Position::parse(game, "X........")?;
    /// assert_eq!(Oracle::of(game)?.best_moves(&position).to_string(), "5");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn best_moves(&self, position: &Position) -> Cells {
        match &self.layout {
            Layout::TicTacToe(dense) => dense.best_moves(&position.tic_tac_toe()),
            Layout::Any(table) => table.best_moves(position),
            Layout::Disk(table) => table.best_moves(position),
        }
    }

    /// One optimal move, chosen deterministically: the lowest cell of
    /// [`best_moves`](Oracle::best_moves). `None` when the game is over.
    ///
    /// # Panics
    ///
    /// If `position` belongs to another game, or the answer would read a damaged tier of a
    /// cached table (in a library user's process: see [`Oracle::of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Oracle, Position};
    ///
    /// let game = "4x4".parse()?;
    /// let oracle = Oracle::of(game)?;
    /// let position = Position::parse(game, "XXX./OOO./..../....")?;
    /// assert_eq!(oracle.best_move(&position).map(|cell| cell.number()), Some(4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn best_move(&self, position: &Position) -> Option<Cell> {
        match &self.layout {
            Layout::TicTacToe(dense) => dense.best_move(position),
            Layout::Any(table) => table.best_move(position),
            Layout::Disk(table) => table.best_moves(position).first(),
        }
    }

    /// Every legal move with its value and remoteness from the view of the player making it,
    /// by cell. Empty when the game is over.
    ///
    /// # Panics
    ///
    /// If `position` belongs to another game, or the answer would read a damaged tier of a
    /// cached table (in a library user's process: see [`Oracle::of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle, Position, Value};
    ///
    /// let game = Game::TIC_TAC_TOE;
    /// let moves = Oracle::of(game)?.moves(&Position::parse(game, "XX.OO....")?);
    /// assert_eq!(moves.len(), 5);
    /// assert_eq!((moves[0].cell.number(), moves[0].value, moves[0].remoteness), (3, Value::Win, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn moves(&self, position: &Position) -> Vec<MoveValue> {
        match &self.layout {
            Layout::TicTacToe(dense) => dense.analyze(&position.tic_tac_toe()),
            Layout::Any(table) => table.analyze(position),
            Layout::Disk(table) => table.analyze(position),
        }
    }

    /// The perfect line from `position` (its principal variation): both sides playing
    /// [`best_move`](Oracle::best_move) to the end of the game. Its length is the
    /// remoteness. Empty when the game is over.
    ///
    /// # Panics
    ///
    /// If `position` belongs to another game, or the answer would read a damaged tier of a
    /// cached table (in a library user's process: see [`Oracle::of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle, Position};
    ///
    /// let game = Game::TIC_TAC_TOE;
    /// let position = Position::parse(game, "XO..X....")?; // O to move, lost in 4 plies
    /// let line = Oracle::of(game)?.line(&position);
    /// assert_eq!(line.iter().map(|c| c.number()).collect::<Vec<_>>(), [9, 4, 3, 6]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line(&self, position: &Position) -> Vec<Cell> {
        let mut line = Vec::new();
        let mut position = *position;
        while let Some(cell) = self.best_move(&position) {
            line.push(cell);
            position = position.play_unchecked(cell.index());
        }
        line
    }

    /// Everything the table knows of `position`: value, remoteness, optimal moves, perfect
    /// line and every legal move's value (what `ttt analyze --format json` prints).
    ///
    /// # Panics
    ///
    /// If `position` belongs to another game, or the answer would read a damaged tier of a
    /// cached table (in a library user's process: see [`Oracle::of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle, Position, Value};
    ///
    /// let game = Game::TIC_TAC_TOE;
    /// let analysis = Oracle::of(game)?.analyze(&Position::parse(game, "XX.OO....")?);
    /// assert_eq!((analysis.value, analysis.best.to_string()), (Value::Win, "3".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyze(&self, position: &Position) -> Analysis {
        let probe = self.probe(position);
        Analysis {
            game: position.game(),
            board: *position,
            to_move: position.to_move(),
            status: position.status(),
            value: probe.value,
            remoteness: probe.remoteness,
            best: self.best_moves(position),
            line: self.line(position),
            moves: self.moves(position),
            won_lines: position.won_lines(),
        }
    }

    /// Counts over every reachable position of the game: by value, by outcome, canonical
    /// positions, and the table's size (what `ttt stats` prints).
    ///
    /// # Errors
    ///
    /// [`TableError::OverMemory`] when the fresh solve that counts a game of at most 16 cells
    /// other than tic-tac-toe would pass the memory limit; [`TableError::DamagedFile`] when a
    /// tier of a table `ttt solve` cached does not match its checksum.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle};
    ///
    /// let stats = Oracle::of(Game::TIC_TAC_TOE)?.stats()?;
    /// assert_eq!((stats.reachable_positions, stats.canonical_positions), (5_478, 765));
    /// assert_eq!(stats.games.total, 255_168);
    /// # Ok::<(), ttt_oracle::TableError>(())
    /// ```
    pub fn stats(&self) -> Result<Stats, TableError> {
        self.stats_with_progress(&|_| {})
    }

    /// [`stats`](Oracle::stats), calling `progress` with where the count stands: as it begins,
    /// then after each piece of a tier (about a hundredth of it), always on the calling thread.
    /// Only a table `ttt solve` cached (a game past 16 cells, a minute or more to count) is
    /// reported, in [`Phase::Count`](crate::tiers::Phase::Count); a smaller game, counted in a
    /// few seconds at most, calls nothing.
    ///
    /// # Errors
    ///
    /// As [`stats`](Oracle::stats).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::cell::Cell;
    /// use ttt_oracle::{Game, Oracle, cache};
    ///
    /// // A game of 17 cells, solved into a folder of its own, then counted.
    /// let game: Game = "1x17k5".parse()?;
    /// let folder = tempfile::tempdir()?;
    /// cache::solve_into(folder.path(), game, &|_| {}, &|_| {})?;
    /// cache::set_cache_dir(folder.path().to_path_buf());
    /// let last = Cell::new(None);
    /// let stats = Oracle::of(game)?.stats_with_progress(&|step| last.set(Some(step)))?;
    /// let last = last.get().expect("a cached table's count is reported");
    /// assert_eq!((last.tier, last.done), (17, last.total));
    /// assert_eq!(stats.by_ply.len(), 18);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats_with_progress(&self, progress: &dyn Fn(Step)) -> Result<Stats, TableError> {
        match &self.layout {
            Layout::TicTacToe(_) | Layout::Any(_) => crate::stats::of_game(self.game()),
            Layout::Disk(table) => crate::stats::of_disk(table, progress),
        }
    }

    /// Checks what no answer has checked yet, as a first read would: every tier of a table
    /// `ttt solve` cached against its checksum, a read of the whole file (the other layouts
    /// hold nothing unchecked). For what reads most of the table, an audit or a match, which
    /// would rather stop before it starts than halfway ([`audit`](crate::audit()) and
    /// [`matchup`](crate::matchup()) do it themselves).
    ///
    /// # Errors
    ///
    /// [`TableError::DamagedFile`] naming the first tier that does not match its checksum.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle};
    ///
    /// Oracle::of(Game::TIC_TAC_TOE)?.check()?;
    /// # Ok::<(), ttt_oracle::TableError>(())
    /// ```
    pub fn check(&self) -> Result<(), TableError> {
        match &self.layout {
            Layout::Disk(table) => table.check_unread_tiers(),
            Layout::TicTacToe(_) | Layout::Any(_) => Ok(()),
        }
    }

    /// The table checked, position by position, against a fresh solve (what `ttt verify`
    /// prints): the embedded table of a game of at most 16 cells, or the table `ttt solve`
    /// cached for a larger game, whose tiers' checksums are checked first.
    ///
    /// # Errors
    ///
    /// [`TableError`] when the game has no table embedded in this binary to check, its bytes
    /// cannot be read, a cached tier no longer matches its checksum, or the fresh solve would
    /// pass the memory limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, Oracle};
    ///
    /// let verification = Oracle::of(Game::TIC_TAC_TOE)?.verify()?;
    /// assert!(verification.is_ok());
    /// # Ok::<(), ttt_oracle::TableError>(())
    /// ```
    pub fn verify(&self) -> Result<Verification, TableError> {
        self.verify_with_progress(&|_| {})
    }

    /// [`verify`](Oracle::verify), calling `progress` with where the check stands, always on
    /// the calling thread: for a table `ttt solve` cached, as [`Phase::Checksums`] begins and
    /// after each tier checked, then as [`Phase::Compare`] begins and after each piece of a
    /// tier solved afresh (about a hundredth of it). An embedded table, checked in a second at
    /// most, calls nothing.
    ///
    /// [`Phase::Checksums`]: crate::tiers::Phase::Checksums
    /// [`Phase::Compare`]: crate::tiers::Phase::Compare
    ///
    /// # Errors
    ///
    /// As [`verify`](Oracle::verify).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::cell::RefCell;
    /// use ttt_oracle::tiers::Phase;
    /// use ttt_oracle::{Game, Oracle, cache};
    ///
    /// let game: Game = "1x17k5".parse()?;
    /// let folder = tempfile::tempdir()?;
    /// cache::solve_into(folder.path(), game, &|_| {}, &|_| {})?;
    /// cache::set_cache_dir(folder.path().to_path_buf());
    /// let phases = RefCell::new(Vec::new());
    /// let checked = Oracle::of(game)?.verify_with_progress(&|step| {
    ///     let mut phases = phases.borrow_mut();
    ///     if phases.last() != Some(&step.phase) {
    ///         phases.push(step.phase);
    ///     }
    /// })?;
    /// assert!(checked.is_ok());
    /// assert_eq!(phases.into_inner(), [Phase::Checksums, Phase::Compare]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verify_with_progress(
        &self,
        progress: &dyn Fn(Step),
    ) -> Result<Verification, TableError> {
        match &self.layout {
            // The embedded bytes decoded afresh, not only the table already in use.
            Layout::TicTacToe(_) | Layout::Any(_) => crate::verify::verify_game(self.game()),
            Layout::Disk(table) => crate::verify::verify_disk(table, progress),
        }
    }
}
