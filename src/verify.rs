//! Re-solving the game at run time and comparing the result with the embedded table.

use crate::board::{Cells, code_marks};
use crate::format::{self, dense};
use crate::game::Game;
use crate::position::Position;
use crate::solve::{Digits, solve_game};
use crate::table::TableError;
use crate::table::disk::{DiskTable, checksum as tier_checksum};
use crate::table::tic_tac_toe::Dense;
use crate::tiers::{Phase, Step};
use crate::value::{Entry, Value, unentry};

/// A canonical position where the embedded table and a fresh solve disagree; on 4x4 also any
/// board whose embedded best move differs, each side's moves then its lowest optimal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub position: Position,
    /// What the table says (value, remoteness, optimal moves), if it has the position.
    pub table: Option<(Value, u8, Cells)>,
    /// What the fresh solve says, if it has the position.
    pub fresh: Option<(Value, u8, Cells)>,
}

/// What [`Oracle::verify`](crate::Oracle::verify) found: the embedded table of a game
/// compared, canonical position by canonical position, with a fresh solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// The game.
    pub game: Game,
    /// Canonical positions compared.
    pub compared: usize,
    /// Positions where the two disagree: all of them for an embedded table, the first
    /// 1,000 for a cached one.
    pub mismatches: Vec<Mismatch>,
    /// How many positions disagree, listed or not.
    pub differing: usize,
    /// The checksum stored in the embedded table.
    pub table_checksum: u64,
    /// The checksum of the fresh solve, serialized the way `build.rs` does.
    pub fresh_checksum: u64,
    /// Whether the table's best move on every board (4x4's embedded half bytes) was compared
    /// too.
    pub first_moves: bool,
}

impl Verification {
    /// Whether every entry and the checksum agree.
    pub fn is_ok(&self) -> bool {
        self.differing == 0 && self.table_checksum == self.fresh_checksum
    }
}

/// Solves an embedded game again from scratch and compares every stored position and the
/// checksum with the table embedded in the binary: the check behind `ttt verify --game`.
///
/// # Errors
///
/// [`TableError`] when the game has no embedded table, its bytes do not decode, or the solve
/// would pass the memory limit.
pub(crate) fn verify_game(game: Game) -> Result<Verification, TableError> {
    let bytes = crate::table::embedded_bytes(game).ok_or(TableError::NotEmbedded { game })?;
    let table = format::decode(bytes).map_err(|error| TableError::Damaged {
        game,
        detail: error.to_string(),
    })?;
    crate::table::room_to_solve(game)?;
    let fresh = format::stored(&solve_game(game));
    let fresh_bytes = format::encode(&fresh);
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
        let said = |stored: &format::Stored, at: usize| {
            unentry(stored.entries[at]).map(|(value, remoteness)| {
                let best = Cells::from_bits(stored.best[at].into());
                (value, remoteness, best)
            })
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
            mismatches.push(Mismatch {
                position: Position::from_marks_unchecked(geometry, x.into(), o.into()),
                table: table_entry.flatten(),
                fresh: fresh_entry.flatten(),
            });
        }
    }
    let first_moves = crate::table::embedded_first_moves(game);
    if let Some(embedded) = first_moves {
        first_moves_differing(&fresh, embedded, &mut mismatches);
    }
    if game == Game::TIC_TAC_TOE {
        dense_differing(crate::table::tic_tac_toe()?, &fresh, &mut mismatches);
    }
    Ok(Verification {
        game,
        compared,
        differing: mismatches.len(),
        mismatches,
        table_checksum: format::checksum_of(bytes),
        fresh_checksum: format::checksum_of(&fresh_bytes),
        first_moves: first_moves.is_some(),
    })
}

/// Compares tic-tac-toe's expanded arrays with those the `fresh` solve expands to, adding a
/// mismatch for each legal board where they differ.
pub(crate) fn dense_differing(
    dense: &Dense,
    fresh: &format::Stored,
    mismatches: &mut Vec<Mismatch>,
) {
    let expanded = dense::expand(fresh).expect("a fresh solve covers every position");
    let said = |word: u16| {
        let evaluation = dense::unpack(word & !dense::PRESENT).filter(|_| word != 0)?;
        Some((evaluation.value, evaluation.remoteness, evaluation.best))
    };
    let geometry = Game::TIC_TAC_TOE.geometry();
    for (code, ours, theirs) in dense.codes_differing(&expanded) {
        let (x, o) = code_marks(code, 9);
        mismatches.push(Mismatch {
            position: Position::from_marks_unchecked(geometry, x.into(), o.into()),
            table: said(ours),
            fresh: said(theirs),
        });
    }
}

/// Compares the embedded lowest optimal move of every board (4x4's half bytes) with those of
/// the `fresh` solve, adding a mismatch for each board in play where they differ, its moves
/// the lowest optimal move each side says.
fn first_moves_differing(fresh: &format::Stored, embedded: &[u8], mismatches: &mut Vec<Mismatch>) {
    let codes = crate::solve::Codes::new(fresh.game);
    let mut made = vec![0; embedded.len()];
    crate::table::write_first_moves(&codes, fresh, &mut made);
    let (digits, geometry) = (Digits::new(), fresh.game.geometry());
    for (byte, (&ours, &theirs)) in embedded.iter().zip(&made).enumerate() {
        if ours == theirs {
            continue;
        }
        for half in (0..2).filter(|half| (ours ^ theirs) >> (4 * half) & 0xf != 0) {
            let code = (2 * byte + half) as u32;
            let (x, o) = digits.marks(code);
            let position = Position::from_marks_unchecked(geometry, x.into(), o.into());
            let canonical = codes.canonical(x, o).0;
            let first = |byte: u8| Cells::from_bits(1 << (byte >> (4 * half) & 0xf));
            let said = |first: Cells| {
                let at = fresh.codes.binary_search(&canonical).ok()?;
                unentry(fresh.entries[at]).map(|(value, remoteness)| (value, remoteness, first))
            };
            mismatches.push(Mismatch {
                position,
                table: said(first(ours)),
                fresh: said(first(theirs)),
            });
        }
    }
}

/// The most differing positions a check of a cached table lists: the count goes on past them.
pub const MAX_LISTED: usize = 1_000;

/// A table solved by `ttt solve` checked twice: each tier's entries against the checksum its
/// header stores, then every entry against a fresh tiered solve, tier by tier from the full
/// board down, holding two tiers at a time. A position's moves are not stored in such a table,
/// so a difference names value and remoteness only. The checksums compared are of the tiers'
/// checksums, in order. Calls `progress` as each of the two begins and after each tier
/// checked, then each piece of a tier solved.
///
/// # Errors
///
/// [`TableError::DamagedFile`] when a tier no longer matches its checksum,
/// [`TableError::OverMemory`] when two tiers and the layout would pass the memory limit.
pub(crate) fn verify_disk(
    table: &DiskTable,
    progress: &dyn Fn(Step),
) -> Result<Verification, TableError> {
    let tiers = table.tiers();
    let game = tiers.game();
    // Every tier, whatever the process has read of it already.
    progress(Step {
        phase: Phase::Checksums,
        tier: 0,
        done: 0,
        total: tiers.sizes().iter().sum(),
    });
    table.check_every_tier()?;
    let stored = table.stored_checksums();
    let total = tiers.sizes().iter().sum();
    let done = std::cell::Cell::new(0);
    let step = |phase, tier| {
        let done = done.get();
        progress(Step {
            phase,
            tier,
            done,
            total,
        });
    };
    let sizes = tiers.sizes();
    let pairs = sizes
        .windows(2)
        .map(|w| w[0] + w[1])
        .max()
        .unwrap_or(sizes[0]);
    crate::memory::room_for(pairs).map_err(|over| TableError::OverMemory {
        game,
        needs: pairs,
        over,
    })?;
    let geometry = game.geometry();
    let said =
        |entry: Entry| unentry(entry).map(|(value, remoteness)| (value, remoteness, Cells::EMPTY));
    let (mut mismatches, mut differing, mut compared) = (Vec::new(), 0, 0);
    let mut fresh_sums = vec![0; sizes.len()];
    let mut next: Vec<Entry> = Vec::new();
    done.set(0);
    step(Phase::Compare, sizes.len() - 1);
    for t in (0..sizes.len()).rev() {
        let mut fresh = vec![0; sizes[t] as usize];
        crate::tiers::solve::solve_tier(tiers, t, &next, &mut fresh, &|solved| {
            done.set(done.get() + solved);
            step(Phase::Compare, t);
        });
        let ours = table.tier(t)?;
        for (index, (&a, &b)) in ours.iter().zip(&fresh).enumerate() {
            if a == b {
                continue;
            }
            differing += 1;
            if mismatches.len() < MAX_LISTED {
                let (x, o) = tiers.board(t, index as u64);
                mismatches.push(Mismatch {
                    position: Position::from_marks_unchecked(geometry, x.into(), o.into()),
                    table: said(a),
                    fresh: said(b),
                });
            }
        }
        compared += fresh.len();
        fresh_sums[t] = tier_checksum(&fresh);
        next = fresh;
    }
    let fold = |sums: &[u64]| {
        let bytes: Vec<u8> = sums.iter().flat_map(|s| s.to_le_bytes()).collect();
        tier_checksum(&bytes)
    };
    Ok(Verification {
        game,
        compared,
        mismatches,
        differing,
        table_checksum: fold(&stored),
        fresh_checksum: fold(&fresh_sums),
        first_moves: false,
    })
}
