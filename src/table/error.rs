//! Why a game has no table here: [`TableError`], what every way of holding a table reports.

use std::fmt;

use crate::game::{Game, MAX_TABLE_CELLS};
use crate::memory::OverMemory;
use crate::tiers::MAX_TIER_CELLS;

/// Why a game has no table here.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Oracle, TableError};
///
/// let error = Oracle::of("6x6".parse()?).unwrap_err();
/// assert!(matches!(error, TableError::TooLarge { .. }));
/// assert_eq!(
///     error.to_string(),
///     "game 6x6 has 36 cells; tables stop at 25 (past 16, made by `ttt solve`)"
/// );
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// More cells than a table can hold: 25, of which past 16 only a table `ttt solve` made.
    TooLarge {
        /// The game.
        game: Game,
    },
    /// No table for this game is embedded in this binary (it is solved when used), so there
    /// is none to verify.
    NotEmbedded {
        /// The game.
        game: Game,
    },
    /// The table embedded in this binary is damaged (which takes a binary altered after the
    /// build: the build writes the tables and the tests check them).
    Damaged {
        /// The game.
        game: Game,
        /// What is wrong with the bytes.
        detail: String,
    },
    /// A game past 16 cells with no table solved for it in the cache folder yet (`ttt solve`
    /// makes one).
    NotSolved {
        /// The game.
        game: Game,
        /// Where its table would be.
        path: String,
    },
    /// The table of a game past 16 cells in the cache folder cannot be read: this user may
    /// not read it, or it is no regular file (a symbolic link, a FIFO, a device), which `ttt`
    /// never opens.
    Unreadable {
        /// The game.
        game: Game,
        /// The file.
        path: String,
        /// Why not, as the system says it or what is there.
        reason: String,
    },
    /// The table of a game past 16 cells in the cache folder is open for writing in another
    /// process, so that it may change while read: it is not read.
    InUse {
        /// The game.
        game: Game,
        /// The file.
        path: String,
    },
    /// The table of a game past 16 cells in the cache folder is damaged (or of another
    /// version): it is not read.
    DamagedFile {
        /// The game.
        game: Game,
        /// The file and what is wrong with it.
        detail: String,
    },
    /// Solving the game would hold more than the [memory limit](crate::memory::set_limit).
    OverMemory {
        /// The game.
        game: Game,
        /// About how much the solve holds, in bytes.
        needs: u64,
        /// The limit it would pass.
        over: OverMemory,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::TooLarge { game } => write!(
                f,
                "game {game} has {} cells; tables stop at {MAX_TIER_CELLS} (past \
                 {MAX_TABLE_CELLS}, made by `ttt solve`)",
                game.cells(),
            ),
            TableError::NotEmbedded { game } => write!(
                f,
                "ttt embeds no table for game {game}: it is solved when used, so there is nothing \
                 to compare (embedded: 3x3, {})",
                Game::EMBEDDED
                    .iter()
                    .map(Game::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TableError::NotSolved { game, path } => write!(
                f,
                "game {game} has {} cells and no table solved yet ({path}); make one with \
                 `ttt solve --game {game}`",
                game.cells()
            ),
            TableError::Unreadable { game, path, reason } => {
                write!(
                    f,
                    "cannot read the table of game {game} at {path}: {reason}"
                )
            }
            TableError::InUse { game, path } => write!(
                f,
                "the table of game {game} at {path} is open for writing in another process, so \
                 it may change while read: not read (try again once that process has closed it)"
            ),
            TableError::DamagedFile { game, detail } => write!(
                f,
                "the table of game {game} is damaged: {detail}; solve it again with \
                 `ttt solve --game {game}`"
            ),
            TableError::Damaged { game, detail } => {
                write!(f, "the embedded table of game {game} is damaged: {detail}")
            }
            TableError::OverMemory { game, needs, over } => write!(
                f,
                "solving game {game} holds about {}: {over}",
                crate::memory::Size(*needs)
            ),
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::OverMemory { over, .. } => Some(over),
            _ => None,
        }
    }
}
