//! The scan for a cell that completes a line, most of an audit's time: branch-free over the
//! lines' masks, in 64 bits where the board fits them and in 128 otherwise.

/// What the scan for a completing cell needs of a mask, in 64 or 128 bits.
pub(super) trait Bits:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    fn lowest(self) -> usize;
    /// One less, wrapping: no bits to all of them.
    fn less_one(self) -> Self;
    /// Every bit if `yes`, none otherwise.
    fn all_if(yes: bool) -> Self;
}

/// The same few lines for both widths.
macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            const ZERO: $t = 0;
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn less_one(self) -> $t {
                self.wrapping_sub(1)
            }
            fn all_if(yes: bool) -> $t {
                <$t>::from(yes).wrapping_neg()
            }
        }
    )*};
}

bits!(u64, u128);

/// The lowest empty cell that completes one of `lines` for `marks`.
pub(super) fn completing<M: Bits>(lines: &[M], marks: M, empty: M) -> Option<usize> {
    let mut cells = M::ZERO;
    for &line in lines {
        let rest = line & !marks;
        // One cell left, and empty (so not none); `is_power_of_two` would count bits, in
        // software in the portable build. Without branches: which lines qualify is anyone's
        // guess.
        let single = (rest & rest.less_one() == M::ZERO) & (rest & empty != M::ZERO);
        cells = cells | (rest & M::all_if(single));
    }
    (cells != M::ZERO).then(|| cells.lowest())
}
