//! A table unpacked into memory: which base-3 codes are stored, and their records; and, made
//! on the first best move asked, the lowest optimal move of every position, a half byte each.

use std::sync::OnceLock;

use super::{Record, last_mover};
use crate::board::Cell;
use crate::format::{MnkFormatError, StoredPosition};
use crate::solve::{Codes, Digits};

/// A table in memory: which base-3 codes are stored, a bit each, and a record per stored
/// position in the order of their codes. A position's record is found by counting the stored
/// codes below its own: the count at the start of its word of 64 codes, plus the bits below it
/// in the word. For 4x4, 10.8 MB of words and 4.5 MB of records.
pub(crate) struct Unpacked {
    words: Box<[Word]>,
    records: Box<[Record]>,
    /// The lowest optimal move of every position in play, a half byte per base-3 code (low
    /// half first), every image of each stored position written out: 21.5 MB for 4x4, where a
    /// query then reads one byte and works out no symmetry. Made on the first best move asked
    /// of the unpacked table (0.3 to 0.4 s on 4x4: its 8.8 million writes miss the caches), so
    /// that a process asking only values does not pay for it.
    moves: OnceLock<Box<[u8]>>,
    /// Whether each mask of cells holds a line, a bit per mask.
    lines: Box<[u64]>,
    /// The base-3 code of a mask's low byte, then of its high byte, as X's marks.
    ternary: Box<[[u32; 256]; 2]>,
    full: u64,
}

/// 64 consecutive codes: which are stored, and how many are stored below the first.
#[derive(Clone, Copy, Default)]
#[repr(align(16))]
struct Word {
    bits: u64,
    below: u32,
}

impl Unpacked {
    /// Unpacks `count` positions, checking that they come in order of their codes and that
    /// each is canonical.
    pub(crate) fn new(
        positions: impl Iterator<Item = Result<StoredPosition, MnkFormatError>>,
        count: usize,
        codes: &Codes,
    ) -> Result<Unpacked, MnkFormatError> {
        let geometry = codes.geometry();
        let cells = geometry.game().cells();
        let len = 3usize.pow(cells as u32).div_ceil(64);
        let mut words: Vec<Word> = huge(len);
        words.resize(len, Word::default());
        let mut records: Vec<Record> = huge(count);
        let digits = Digits::new();
        let mut last = None;
        for position in positions {
            let StoredPosition { code, entry, best } = position?;
            if last.is_some_and(|last| code <= last) {
                return Err(MnkFormatError::Invalid("board codes out of order"));
            }
            last = Some(code);
            if best == 0 {
                return Err(MnkFormatError::Invalid("a board in play with no best move"));
            }
            let (x, o) = digits.marks(code);
            if codes.canonical(x, o).0 != code {
                return Err(MnkFormatError::Invalid(
                    "a stored board that is not canonical",
                ));
            }
            words[code as usize / 64].bits |= 1 << (code % 64);
            records.push(Record { entry, best });
        }
        let mut below = 0;
        for word in &mut words {
            word.below = below;
            below += word.bits.count_ones();
        }
        let lines = (0..(1usize << cells).div_ceil(64))
            .map(|word| {
                (0..64).fold(0u64, |bits, bit| {
                    let mask = (word * 64 + bit) as u64;
                    bits | u64::from(mask >> cells == 0 && codes.has_line(mask)) << bit
                })
            })
            .collect();
        let mut ternary = Box::new([[0u32; 256]; 2]);
        for (byte, table) in ternary.iter_mut().enumerate() {
            for mask in 1..256usize {
                let cell = byte * 8 + mask.trailing_zeros() as usize;
                let weight = if cell < cells {
                    3u32.pow(cell as u32)
                } else {
                    0
                };
                table[mask] = table[mask & (mask - 1)] + weight;
            }
        }
        Ok(Unpacked {
            words: words.into_boxed_slice(),
            records: records.into_boxed_slice(),
            moves: OnceLock::new(),
            lines,
            ternary,
            full: codes.full(),
        })
    }

    /// The half bytes of [`moves`](Unpacked::moves), made now if not yet: each stored
    /// position's lowest optimal move, written at the code of each of its images.
    #[cold]
    fn moves(&self, codes: &Codes) -> &[u8] {
        self.moves.get_or_init(|| {
            let cells = codes.geometry().game().cells();
            let half_bytes = 3usize.pow(cells as u32).div_ceil(2);
            let mut moves: Vec<u8> = huge(half_bytes);
            moves.resize(half_bytes, 0);
            let turns = codes.geometry().turns().len();
            let digits = Digits::new();
            let mut records = self.records.iter();
            // The writes of a few hundred images are worked out first, then made in a loop of
            // a few instructions each, so that many of their misses of the caches overlap.
            const BATCH: usize = 256;
            // A word's 64 codes of 8 images each may come on top of a batch not yet full.
            let mut pending: Vec<(u32, u8)> = Vec::with_capacity(BATCH + 64 * 8);
            let mut write = |pending: &mut Vec<(u32, u8)>| {
                for &(image, first) in pending.iter() {
                    let (byte, shift) = (image as usize / 2, image % 2 * 4);
                    moves[byte] = moves[byte] & !(0xf << shift) | first << shift;
                }
                pending.clear();
            };
            for (index, word) in self.words.iter().enumerate() {
                let mut bits = word.bits;
                while bits != 0 {
                    let code = (index * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    let best = records.next().expect("a record per stored code").best;
                    let (x, o) = digits.marks(code);
                    for turn in 0..turns {
                        let image = codes.turned_code(turn, x, o);
                        let first = codes.turn_mask(turn, best.into()).trailing_zeros() as u8;
                        pending.push((image, first));
                    }
                }
                if pending.len() >= BATCH {
                    write(&mut pending);
                }
            }
            write(&mut pending);
            moves.into_boxed_slice()
        })
    }

    /// Whether `marks` hold a line.
    #[inline]
    pub(crate) fn has_line(&self, marks: u64) -> bool {
        self.lines
            .get((marks / 64) as usize)
            .is_some_and(|word| word >> (marks % 64) & 1 != 0)
    }

    /// The lowest optimal move on the board `x`, `o`, a board of the game; `None` when the
    /// game is over.
    #[inline]
    pub(crate) fn best_move(&self, codes: &Codes, x: u64, o: u64) -> Option<Cell> {
        if self.has_line(last_mover(x, o)) || x | o == self.full {
            return None;
        }
        Some(self.best_move_at(codes, self.code(x, o)))
    }

    /// The base-3 code of the board `x`, `o`.
    #[inline]
    pub(crate) fn code(&self, x: u64, o: u64) -> usize {
        let [low, high] = &*self.ternary;
        let code = |m: u64| low[(m & 0xff) as usize] + high[(m >> 8 & 0xff) as usize];
        (code(x) + 2 * code(o)) as usize
    }

    /// The lowest optimal move of the position in play with base-3 code `code`.
    #[inline]
    pub(crate) fn best_move_at(&self, codes: &Codes, code: usize) -> Cell {
        let moves = match self.moves.get() {
            Some(moves) => moves,
            None => self.moves(codes),
        };
        let nibble = moves[code / 2] >> (code % 2 * 4) & 0xf;
        Cell::from_bit(nibble.into())
    }

    /// The record of the position with code `code`, if stored.
    #[inline]
    pub(crate) fn find(&self, code: u32) -> Option<Record> {
        let word = self.words[code as usize / 64];
        let bit = 1u64 << (code % 64);
        (word.bits & bit != 0)
            .then(|| self.records[(word.below + (word.bits & (bit - 1)).count_ones()) as usize])
    }
}

/// An empty vector with room for `len` items, backed by huge pages where the system allows:
/// the 10.8 MB of 4x4's words, read at random, then need 6 entries of the processor's address
/// cache, not 2,600.
fn huge<T>(len: usize) -> Vec<T> {
    let items: Vec<T> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = items.as_ptr() as usize;
        let bytes = len * size_of::<T>();
        let (begin, end) = (start.next_multiple_of(HUGE), (start + bytes) / HUGE * HUGE);
        if end > begin {
            // SAFETY: [begin, end) lies inside the allocation just made and not yet touched;
            // the advice only changes how the kernel backs those pages, never their contents.
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
    items
}
