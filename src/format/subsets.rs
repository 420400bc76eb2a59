//! Which of the sets of n empty cells are a position's optimal moves, as a number: the set's
//! rank in colex order, and back.

use crate::game::MAX_TABLE_CELLS;

/// `C(n, k)` for `n` up to 16, the most empty cells a table's board has.
pub(super) const BINOMIAL: [[u32; MAX_TABLE_CELLS + 1]; MAX_TABLE_CELLS + 1] = {
    let mut table = [[0u32; MAX_TABLE_CELLS + 1]; MAX_TABLE_CELLS + 1];
    let mut n = 0;
    while n <= MAX_TABLE_CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// The rank of the set `chosen` among the sets of as many of the cells of `cells`, in colex
/// order: the sum, over the chosen cells, of C(p, j) for the p-th cell of `cells` that is the
/// j-th chosen (both counted from 0, j from 1).
pub(super) fn subset_rank(cells: u64, chosen: u64) -> u32 {
    let (mut rank, mut p, mut j) = (0, 0, 0);
    let mut rest = cells;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        if chosen >> cell & 1 == 1 {
            j += 1;
            rank += BINOMIAL[p][j];
        }
        p += 1;
    }
    rank
}

/// The set of `n` of the cells of `cells` whose rank is `rank` ([`subset_rank`] undone):
/// from the highest cell down, a cell is chosen when C(p, j) fits in what is left of the rank.
/// Without branches, since which cells are chosen cannot be predicted.
pub(super) fn subset_unrank(cells: u64, n: usize, rank: u32) -> u64 {
    if n == 1 {
        // Half of 4x4's positions: the rank-th cell.
        let mut rest = cells;
        for _ in 0..rank {
            rest &= rest - 1;
        }
        return rest & rest.wrapping_neg();
    }
    let (mut chosen, mut rank, mut j) = (0u64, rank, n);
    let mut rest = cells;
    for p in (0..cells.count_ones() as usize).rev() {
        let cell = 63 - rest.leading_zeros();
        rest ^= 1 << cell;
        // C(p, 0) is 1 and the rank is 0 once all are chosen, so nothing more is.
        let take = BINOMIAL[p][j] <= rank;
        rank -= BINOMIAL[p][j] * u32::from(take);
        chosen |= u64::from(take) << cell;
        j -= usize::from(take);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_of_empty_cells_has_its_own_rank() {
        for cells in [0xffffu64, 0b1010_0110_0001_1101, 0b1, 0] {
            let free = cells.count_ones() as usize;
            let mut seen = vec![vec![false; 1 << free]; free + 1];
            // Every subset of `cells`, as the bits of a counter spread over them.
            for pattern in 0u64..1 << free {
                let (mut chosen, mut rest) = (0u64, cells);
                for bit in 0..free {
                    let cell = rest & rest.wrapping_neg();
                    rest ^= cell;
                    if pattern >> bit & 1 == 1 {
                        chosen |= cell;
                    }
                }
                let n = chosen.count_ones() as usize;
                let rank = subset_rank(cells, chosen);
                assert!(rank < BINOMIAL[free][n], "{cells:b} {chosen:b}");
                assert!(
                    !seen[n][rank as usize],
                    "{cells:b} {chosen:b}: rank {rank} twice"
                );
                seen[n][rank as usize] = true;
                assert_eq!(
                    subset_unrank(cells, n, rank),
                    chosen,
                    "{cells:b} {chosen:b}"
                );
            }
        }
    }
}
