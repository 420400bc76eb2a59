//! Re-solving the game at run time and comparing the result with the embedded table.

use std::fmt;

use crate::format::tic_tac_toe::{self as format, FormatError};
use crate::format::{self as mnk_format, MnkFormatError};
use crate::game::Game;
use crate::position::Position;
use crate::solve::tic_tac_toe::{Evaluation, solve};
use crate::solve::{Digits, solve_game, unentry};
use crate::symmetry::Canonical;
use crate::table::tic_tac_toe::Table;
use crate::value::Value;

/// A canonical position where the table and a fresh solve disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub board: Canonical,
    /// What the table says, if it has the position.
    pub table: Option<Evaluation>,
    /// What the fresh solve says, if it has the position.
    pub fresh: Option<Evaluation>,
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// Canonical positions compared.
    pub compared: usize,
    /// Positions where the two disagree.
    pub mismatches: Vec<Mismatch>,
    /// The checksum stored in the table.
    pub table_checksum: u64,
    /// The checksum of the freshly solved table, serialized the way `build.rs` does.
    pub fresh_checksum: u64,
}

impl Verification {
    /// Whether every entry and the checksum agree.
    pub fn ok(&self) -> bool {
        self.mismatches.is_empty() && self.table_checksum == self.fresh_checksum
    }
}

/// Decodes a serialized table and, if it decodes, verifies it as [`verify`] does: the check
/// behind `ttt verify`, which runs it on [`Table::embedded_bytes`] so that damaged bytes are
/// reported rather than met with a panic.
///
/// # Errors
///
/// [`FormatError`] when the bytes are not a complete, undamaged table (nothing is solved then).
///
/// # Examples
///
/// ```
/// use ttt_oracle::{FormatError, Table, verify_bytes};
///
/// let verification = verify_bytes(Table::embedded_bytes())?;
/// assert!(verification.ok());
///
/// let mut damaged = Table::embedded_bytes().to_vec();
/// damaged[100] ^= 0x10;
/// assert!(matches!(verify_bytes(&damaged), Err(FormatError::Checksum { .. })));
/// # Ok::<(), FormatError>(())
/// ```
pub fn verify_bytes(bytes: &[u8]) -> Result<Verification, FormatError> {
    Table::from_bytes(bytes).map(|table| verify(&table))
}

/// Solves the game again from scratch and compares every entry and the checksum with `table`.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{table, verify};
///
/// let verification = verify(table());
/// assert!(verification.ok());
/// assert_eq!(verification.compared, 765);
/// ```
pub fn verify(table: &Table) -> Verification {
    let fresh = solve();
    let fresh_checksum = format::solution_checksum(&fresh);
    let mut keys: Vec<Canonical> = fresh
        .entries()
        .iter()
        .chain(table.solution().entries())
        .map(|(canonical, _)| *canonical)
        .collect();
    keys.sort();
    keys.dedup();
    let mismatches = keys
        .iter()
        .filter_map(|&board| {
            let (ours, theirs) = (table.solution().get(board), fresh.get(board));
            (ours != theirs).then(|| Mismatch {
                board,
                table: ours.copied(),
                fresh: theirs.copied(),
            })
        })
        .collect();
    Verification {
        compared: keys.len(),
        mismatches,
        table_checksum: table.checksum(),
        fresh_checksum,
    }
}

/// A canonical position of an m,n,k game where the embedded table and a fresh solve disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MnkMismatch {
    /// The position.
    pub board: Position,
    /// What the table says (value, remoteness and the optimal moves as a mask, bit `i` for
    /// cell `i + 1`), if it has the position.
    pub table: Option<(Value, u8, u64)>,
    /// What the fresh solve says, if it has the position.
    pub fresh: Option<(Value, u8, u64)>,
}

/// What [`verify_game`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MnkVerification {
    /// The game.
    pub game: Game,
    /// Canonical positions in play compared.
    pub compared: usize,
    /// Positions where the two disagree.
    pub mismatches: Vec<MnkMismatch>,
    /// The checksum stored in the embedded table.
    pub table_checksum: u64,
    /// The checksum of the fresh solve, serialized the way `build.rs` does.
    pub fresh_checksum: u64,
}

impl MnkVerification {
    /// Whether every entry and the checksum agree.
    pub fn ok(&self) -> bool {
        self.mismatches.is_empty() && self.table_checksum == self.fresh_checksum
    }
}

/// Why an m,n,k game's table cannot be verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyGameError {
    /// `build.rs` embeds no table for this game: it is solved in the process when used.
    NotEmbedded(Game),
    /// The embedded bytes do not decode.
    Damaged(MnkFormatError),
}

impl fmt::Display for VerifyGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyGameError::NotEmbedded(game) => write!(
                f,
                "ttt embeds no table for game {game}: it is solved when used, so there is nothing \
                 to compare (embedded: 3x3, {})",
                Game::EMBEDDED.map(|game| game.to_string()).join(", ")
            ),
            VerifyGameError::Damaged(error) => write!(f, "the embedded table is damaged: {error}"),
        }
    }
}

impl std::error::Error for VerifyGameError {}

/// Solves an embedded m,n,k game again from scratch and compares every stored position and the
/// checksum with the table embedded in the binary: the check behind `ttt verify --game`.
///
/// # Errors
///
/// [`VerifyGameError`] when the game has no embedded table or its bytes do not decode.
///
/// # Examples
///
/// ```
/// use ttt_oracle::verify_game;
///
/// let verification = verify_game("3x4".parse()?)?;
/// assert!(verification.ok());
/// assert_eq!(verification.compared, 20088);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_game(game: Game) -> Result<MnkVerification, VerifyGameError> {
    let bytes = crate::table::mnk_table_bytes(game).ok_or(VerifyGameError::NotEmbedded(game))?;
    let table = mnk_format::decode(bytes).map_err(VerifyGameError::Damaged)?;
    let fresh = mnk_format::stored(&solve_game(game));
    let fresh_bytes = mnk_format::encode(&fresh);
    let checksum = |bytes: &[u8]| {
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[bytes.len() - 8..]);
        u64::from_le_bytes(sum)
    };
    let digits = Digits::new();
    let geometry = game.geometry();
    let (mut i, mut j) = (0, 0);
    let mut mismatches = Vec::new();
    let mut compared = 0;
    while i < table.codes.len() || j < fresh.codes.len() {
        let ours = table.codes.get(i).copied();
        let theirs = fresh.codes.get(j).copied();
        let code = match (ours, theirs) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => break,
        };
        let said = |stored: &mnk_format::Stored, at: usize| {
            unentry(stored.entries[at])
                .map(|(value, remoteness)| (value, remoteness, u64::from(stored.best[at])))
        };
        let table_entry = (ours == Some(code)).then(|| said(&table, i));
        let fresh_entry = (theirs == Some(code)).then(|| said(&fresh, j));
        if ours == Some(code) {
            i += 1;
        }
        if theirs == Some(code) {
            j += 1;
        }
        compared += 1;
        if table_entry != fresh_entry {
            let (x, o) = digits.marks(code);
            mismatches.push(MnkMismatch {
                board: Position::from_marks_unchecked(geometry, x.into(), o.into()),
                table: table_entry.flatten(),
                fresh: fresh_entry.flatten(),
            });
        }
    }
    Ok(MnkVerification {
        game,
        compared,
        mismatches,
        table_checksum: checksum(bytes),
        fresh_checksum: checksum(&fresh_bytes),
    })
}
