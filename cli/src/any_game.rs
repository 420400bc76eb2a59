//! `--game` for every command: the oracle of any game (solved first when none is embedded), and
//! whether a game past 16 cells has a table cached.

use std::io::{IsTerminal, Write};

use ttt_oracle::{Game, Oracle, TableError};

use super::Failure;

/// The oracle of `game`, its table solved first (with a note on a terminal) when none is
/// embedded.
///
/// # Errors
///
/// A usage error for a game too large for a table; exit code 4 for a damaged embedded table.
pub fn oracle_of(game: Game) -> Result<Oracle, Failure> {
    let note = game.has_table() && !game.is_embedded() && std::io::stderr().is_terminal();
    if note {
        let mut err = std::io::stderr();
        let _ = write!(err, "solving {game} (no table is embedded for it)...");
        let _ = err.flush();
    }
    let table = Oracle::of(game);
    if note {
        // Erase the note: the answer is what stays on the screen.
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    Ok(table?)
}

/// Whether `game`, a game past 16 cells, has a table `ttt solve` cached. Without one it is
/// audited without a table, and the report says how to make one.
///
/// # Errors
///
/// Exit code 4 when the cached table is damaged, in any tier: an audit or a match reads most
/// of them, and checks them all before it starts.
pub fn cached(game: Game) -> Result<bool, Failure> {
    match Oracle::of(game).and_then(|oracle| oracle.check()) {
        Ok(()) => Ok(true),
        Err(TableError::NotSolved { .. } | TableError::TooLarge { .. }) => Ok(false),
        Err(error) => Err(error.into()),
    }
}
