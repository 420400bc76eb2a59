//! The serialized form of the solved table: what `build.rs` writes and the binary embeds.
//!
//! This file is shared with `build.rs` (through `#[path]`).
//!
//! Layout, in bincode with [`BINCODE_CONFIG`] (little-endian, fixed-width integers):
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `magic` | `[u8; 8]` | `TTTORACL` |
//! | `version` | `u32` | [`FORMAT_VERSION`] |
//! | `checksum` | `u64` | FNV-1a 64 of the entries, each as four little-endian bytes |
//! | `entries` | `u64` length, then per entry `u16` + `u16` | one per canonical position, by code |
//!
//! An entry is the board's base-3 code and a packed word: bits 13-14 the value (0 loss, 1 draw,
//! 2 win), bits 9-12 the remoteness, bits 0-8 the optimal moves (bit `i` is cell `i + 1`).

use std::fmt;

use bincode::config::{Configuration, Fixint, Limit, LittleEndian};
use bincode::error::DecodeError;
use serde::{Deserialize, Serialize};

use crate::board::{Board, CODES, Cells};
use crate::game::Mask;
use crate::solve::tic_tac_toe::{Evaluation, Solution};
use crate::symmetry::{Canonical, Symmetry};
use crate::value::Value;

/// The first eight bytes of a table.
pub const MAGIC: [u8; 8] = *b"TTTORACL";

/// The version of this layout; a reader refuses any other.
pub const FORMAT_VERSION: u32 = 1;

/// The one bincode configuration the project uses, for the embedded table and for
/// `ttt export --format bincode`: little-endian, fixed-width integers, and a 16 MiB limit so that
/// a corrupt length can never make a reader allocate without bound.
pub const BINCODE_CONFIG: Configuration<LittleEndian, Fixint, Limit<16_777_216>> =
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<16_777_216>();

#[derive(Serialize, Deserialize)]
struct TableFile {
    magic: [u8; 8],
    version: u32,
    checksum: u64,
    entries: Vec<PackedEntry>,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
struct PackedEntry {
    board: u16,
    packed: u16,
}

/// Packs an evaluation into 15 bits: value, remoteness and optimal moves.
pub const fn pack(evaluation: Evaluation) -> u16 {
    let value = match evaluation.value {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    value << 13 | (evaluation.remoteness as u16) << 9 | evaluation.best.bits() as u16
}

/// Unpacks what [`pack`] made, if the bits are a valid evaluation.
pub const fn unpack(packed: u16) -> Option<Evaluation> {
    let value = match packed >> 13 {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return None,
    };
    let remoteness = (packed >> 9 & 0xf) as u8;
    if remoteness > 9 {
        return None;
    }
    Some(Evaluation {
        value,
        remoteness,
        best: Cells::from_bits((packed & 0x1ff) as Mask),
    })
}

/// FNV-1a, 64 bits: small, dependency-free, and enough to catch a damaged or mismatched table.
pub fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn checksum(entries: &[PackedEntry]) -> u64 {
    fnv1a64(entries.iter().flat_map(|entry| {
        let [a, b] = entry.board.to_le_bytes();
        let [c, d] = entry.packed.to_le_bytes();
        [a, b, c, d]
    }))
}

fn packed_entries(solution: &Solution) -> Vec<PackedEntry> {
    solution
        .entries()
        .iter()
        .map(|(canonical, evaluation)| PackedEntry {
            board: canonical.board().code() as u16,
            packed: pack(*evaluation),
        })
        .collect()
}

/// The checksum [`encode`] stores for `solution`.
pub fn solution_checksum(solution: &Solution) -> u64 {
    checksum(&packed_entries(solution))
}

/// The byte of the expanded table's first moves for a position with no move to make.
pub const NO_MOVE: u8 = u8::MAX;

/// Marks a filled slot of the expanded words; the other 15 bits are [`pack`]ed.
pub const PRESENT: u16 = 1 << 15;

/// The table ready for queries: a word for each of the 3^9 base-3 codes ([`PRESENT`] and the
/// [`pack`]ed evaluation, 0 for a code that is no legal board) and the lowest optimal move of
/// each code ([`NO_MOVE`] where there is none).
pub struct Expanded {
    /// The words, by code.
    pub words: Box<[u16]>,
    /// The lowest optimal moves, by code.
    pub first: Box<[u8; CODES]>,
}

/// Expands a solution over all eight symmetries of each canonical position: what `build.rs`
/// embeds beside the serialized table, and what a table read from bytes is turned into.
///
/// # Errors
///
/// [`FormatError::Incomplete`] unless the positions cover every reachable board.
pub fn expand(solution: &Solution) -> Result<Expanded, FormatError> {
    let mut words = vec![0u16; CODES].into_boxed_slice();
    let mut first = Box::new([NO_MOVE; CODES]);
    let mut covered = 0;
    for (canonical, evaluation) in solution.entries() {
        for symmetry in Symmetry::ALL {
            let image = symmetry.apply(canonical.board());
            let slot = &mut words[image.code()];
            if *slot == 0 {
                covered += 1;
            }
            let moved = Evaluation {
                best: symmetry.apply_cells(evaluation.best),
                ..*evaluation
            };
            *slot = PRESENT | pack(moved);
            first[image.code()] = moved
                .best
                .first()
                .map_or(NO_MOVE, |cell| cell.index() as u8);
        }
    }
    if covered != 5478 {
        return Err(FormatError::Incomplete { covered });
    }
    Ok(Expanded { words, first })
}

/// A checksum of the expanded arrays, eight bytes at a time (an FNV-1a step on words, so that
/// checking the 59 KB at start costs a few thousand steps): any one changed word changes it.
pub fn expanded_checksum(words: &[u16], first: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut step = |word: u64| hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3);
    let mut chunks = words.chunks_exact(4);
    for chunk in &mut chunks {
        step(
            chunk
                .iter()
                .fold(0, |word, &half| word << 16 | u64::from(half)),
        );
    }
    chunks
        .remainder()
        .iter()
        .for_each(|&half| step(u64::from(half)));
    let mut chunks = first.chunks_exact(8);
    for chunk in &mut chunks {
        step(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
    }
    chunks
        .remainder()
        .iter()
        .for_each(|&byte| step(u64::from(byte)));
    hash
}

/// Checks the serialized table's frame and checksum without reading its entries: what a
/// process checks of the embedded bytes when it answers from the expanded arrays, a few
/// thousand steps where decoding and expanding took about a million instructions.
///
/// Returns the stored checksum.
///
/// # Errors
///
/// [`FormatError`] for the same damage to the frame or the entries' bytes that [`decode`]
/// reports (it also checks each entry).
pub fn check_frame(bytes: &[u8]) -> Result<u64, FormatError> {
    const ENTRIES: usize = 28;
    let truncated = FormatError::Truncated {
        length: bytes.len(),
    };
    let header = bytes.get(..ENTRIES).ok_or(truncated.clone())?;
    let u64_at = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    let magic: [u8; 8] = header[..8].try_into().expect("8 bytes");
    if magic != MAGIC {
        return Err(FormatError::Magic { found: magic });
    }
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(FormatError::Version { found: version });
    }
    let entries = &bytes[ENTRIES..];
    let length = usize::try_from(u64_at(20))
        .ok()
        .and_then(|count| count.checked_mul(4))
        .filter(|&length| length <= entries.len())
        .ok_or(truncated)?;
    if length < entries.len() {
        return Err(FormatError::Trailing {
            bytes: entries.len() - length,
        });
    }
    let (stored, computed) = (u64_at(12), fnv1a64(entries.iter().copied()));
    if computed != stored {
        return Err(FormatError::Checksum { stored, computed });
    }
    Ok(stored)
}

/// Serializes a solution.
#[allow(
    dead_code,
    reason = "build.rs writes the embedded table with it; the library only reads"
)]
pub fn encode(solution: &Solution) -> Vec<u8> {
    let entries = packed_entries(solution);
    let file = TableFile {
        magic: MAGIC,
        version: FORMAT_VERSION,
        checksum: checksum(&entries),
        entries,
    };
    bincode::serde::encode_to_vec(&file, BINCODE_CONFIG).expect("a table always encodes")
}

/// Reads a serialized solution, checking magic, version, checksum and every entry.
///
/// Returns the solution and its checksum.
///
/// # Errors
///
/// [`FormatError`] saying what is wrong with the bytes.
pub fn decode(bytes: &[u8]) -> Result<(Solution, u64), FormatError> {
    let (file, read): (TableFile, usize) = bincode::serde::decode_from_slice(bytes, BINCODE_CONFIG)
        .map_err(|error| match error {
            DecodeError::UnexpectedEnd { .. } => FormatError::Truncated {
                length: bytes.len(),
            },
            other => FormatError::Decode(other.to_string()),
        })?;
    if file.magic != MAGIC {
        return Err(FormatError::Magic { found: file.magic });
    }
    if file.version != FORMAT_VERSION {
        return Err(FormatError::Version {
            found: file.version,
        });
    }
    if read != bytes.len() {
        return Err(FormatError::Trailing {
            bytes: bytes.len() - read,
        });
    }
    let computed = checksum(&file.entries);
    if computed != file.checksum {
        return Err(FormatError::Checksum {
            stored: file.checksum,
            computed,
        });
    }
    let mut entries = Vec::with_capacity(file.entries.len());
    for (index, entry) in file.entries.iter().enumerate() {
        let bad = |reason| FormatError::Entry { index, reason };
        let board = Board::from_code(entry.board.into()).ok_or(bad("not a legal board"))?;
        let canonical = Canonical::new(board).ok_or(bad("board not in canonical form"))?;
        let evaluation = unpack(entry.packed).ok_or(bad("invalid value or remoteness"))?;
        check_entry(board, evaluation).map_err(bad)?;
        if entries
            .last()
            .is_some_and(|(previous, _)| *previous >= canonical)
        {
            return Err(bad("entries out of order or repeated"));
        }
        entries.push((canonical, evaluation));
    }
    Ok((Solution::new(entries), computed))
}

/// What every evaluation must satisfy whatever the solver found, so that a table that passes
/// [`decode`] never leaves a player in a game in progress without a move. Whether the values are
/// right is for a fresh solve to say (`ttt verify`).
fn check_entry(board: Board, evaluation: Evaluation) -> Result<(), &'static str> {
    if evaluation.best.intersection(board.legal_moves()) != evaluation.best {
        return Err("an optimal move that is not a legal move");
    }
    if usize::from(evaluation.remoteness) > 9 - board.ply() {
        return Err("a remoteness longer than the moves left");
    }
    if board.is_over() {
        let value = if board.winner().is_some() {
            Value::Loss
        } else {
            Value::Draw
        };
        if (evaluation.value, evaluation.remoteness) != (value, 0) {
            return Err("a finished game valued other than as it ended");
        }
    } else if evaluation.best.is_empty() {
        return Err("a game in progress with no optimal move");
    } else if evaluation.remoteness == 0 {
        return Err("a game in progress with remoteness 0");
    }
    Ok(())
}

/// Why bytes are not a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// bincode could not read the structure for a reason other than running out of bytes.
    Decode(String),
    /// The bytes end in the middle of a field: cut short, or an entry count that promises more
    /// entries than there are.
    Truncated {
        /// How many bytes there are.
        length: usize,
    },
    /// The bytes do not start with the magic `TTTORACL`.
    Magic {
        /// What they start with.
        found: [u8; 8],
    },
    /// A layout version this build cannot read.
    Version {
        /// The version in the bytes.
        found: u32,
    },
    /// Bytes left over after the table.
    Trailing {
        /// How many.
        bytes: usize,
    },
    /// The entries do not match the stored checksum.
    Checksum {
        /// The checksum in the bytes.
        stored: u64,
        /// The checksum of the entries read.
        computed: u64,
    },
    /// An entry that cannot be right.
    Entry {
        /// Which, counting from 0.
        index: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The expanded arrays embedded beside the serialized table do not match the checksum the
    /// build gave them, or were built from another table.
    Expanded {
        /// What is wrong.
        reason: String,
    },
    /// The entries do not cover every reachable position.
    Incomplete {
        /// How many positions they cover, of 5,478.
        covered: usize,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Decode(error) => write!(f, "not a table: {error}"),
            FormatError::Truncated { length } => write!(
                f,
                "the table ends early: its {length} bytes stop in the middle of a field (cut short, or a damaged entry count)"
            ),
            FormatError::Magic { found } => {
                write!(
                    f,
                    "not a table: starts with {}, not {}",
                    crate::text::quote_bytes(found),
                    crate::text::quote_bytes(&MAGIC)
                )
            }
            FormatError::Version { found } => write!(
                f,
                "table format version {found}, but this build reads version {FORMAT_VERSION}"
            ),
            FormatError::Trailing { bytes } => write!(f, "{bytes} stray bytes after the table"),
            FormatError::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch: stored {stored:016x}, entries give {computed:016x}"
            ),
            FormatError::Entry { index, reason } => write!(f, "entry {index}: {reason}"),
            FormatError::Expanded { reason } => write!(f, "the expanded table {reason}"),
            FormatError::Incomplete { covered } => {
                write!(
                    f,
                    "the table covers {covered} of the 5478 reachable positions"
                )
            }
        }
    }
}

impl std::error::Error for FormatError {}
