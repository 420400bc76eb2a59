//! Re-solving the game at run time and comparing the result with the embedded table.

use crate::format::{self, FormatError};
use crate::solve::{Evaluation, solve};
use crate::symmetry::Canonical;
use crate::table::Table;

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
