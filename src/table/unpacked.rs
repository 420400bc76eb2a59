//! A table unpacked into memory: which base-3 codes are stored, and their records.

use super::Record;
use crate::format::{StoredPosition, TableFormatError};
use crate::solve::{Codes, Digits};

/// A table in memory: which base-3 codes are stored, a bit each, and a record per stored
/// position in the order of their codes. A position's record is found by counting the stored
/// codes below its own: the count at the start of its word of 64 codes, plus the bits below it
/// in the word. For 4x4, 10.8 MB of words and 4.5 MB of records.
pub(crate) struct Unpacked {
    words: Box<[Word]>,
    records: Box<[Record]>,
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
        positions: impl Iterator<Item = Result<StoredPosition, TableFormatError>>,
        count: usize,
        codes: &Codes,
    ) -> Result<Unpacked, TableFormatError> {
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
                return Err(TableFormatError::Invalid("board codes out of order"));
            }
            last = Some(code);
            if best == 0 {
                return Err(TableFormatError::Invalid(
                    "a board in play with no best move",
                ));
            }
            let (x, o) = digits.marks(code);
            if codes.canonical(x, o).0 != code {
                return Err(TableFormatError::Invalid(
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
        Ok(Unpacked {
            words: words.into_boxed_slice(),
            records: records.into_boxed_slice(),
        })
    }

    /// Each stored code, in order, with the mask of its optimal moves.
    pub(crate) fn stored(&self) -> impl Iterator<Item = (u32, u16)> + '_ {
        let codes = self.words.iter().enumerate().flat_map(|(index, word)| {
            let mut bits = word.bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let code = (index * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    code
                })
            })
        });
        codes.zip(self.records.iter().map(|record| record.best))
    }

    /// The record of the position with code `code`, if stored.
    #[inline]
    pub(crate) fn find(&self, code: u32) -> Option<Record> {
        let word = self.words[code as usize / 64];
        let bit = 1u64 << (code % 64);
        (word.bits & bit != 0)
            .then(|| self.records[(word.below + (word.bits & (bit - 1)).count_ones()) as usize])
    }

    /// Asks the memory for the word that [`find`](Unpacked::find) reads first for `code`.
    #[inline(always)]
    pub(crate) fn fetch_word(&self, code: u32) {
        if let Some(word) = self.words.get(code as usize / 64) {
            crate::memory::prefetch(word);
        }
    }

    /// Asks the memory for the record that [`find`](Unpacked::find) reads for `code` (for a
    /// code not stored, the record it would follow, read for nothing): the word, asked for
    /// earlier, is read now.
    #[inline(always)]
    pub(crate) fn fetch_record(&self, code: u32) {
        let Some(word) = self.words.get(code as usize / 64) else {
            return;
        };
        let bit = 1u64 << (code % 64);
        let index = word.below + (word.bits & (bit - 1)).count_ones();
        if let Some(record) = self.records.get(index as usize) {
            crate::memory::prefetch(record);
        }
    }
}

/// An empty vector with room for `len` items, backed by huge pages where the system allows:
/// the 10.8 MB of 4x4's words, read at random, then need 6 entries of the processor's address
/// cache, not 2,600.
pub(super) fn huge<T>(len: usize) -> Vec<T> {
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
