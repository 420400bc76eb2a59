//! The listing's board and its five rules, for any odd N up to [`MAX_SIZE`]: what rules 1 to 4
//! play, the marks rule 5 puts down, and the last move rule 5 starts from.

use super::scan::completing;
use crate::game::{MAX_CELLS, Mask};
use crate::ratio::Ratio;

/// A history replayed by [`Square::last_move_after`]: its moves, and the bot's last move after
/// each of them.
#[derive(Clone, Debug, Default)]
pub(super) struct Replayed {
    /// The board's size and the bot's side (0 for X) it was replayed for.
    n: usize,
    me: usize,
    moves: Vec<usize>,
    last: Vec<usize>,
    /// Each side's marks after each move.
    marks: Vec<[Mask; 2]>,
}

/// The most rows the listing's board may have here: its cells fit in a [`Mask`], bit
/// `row * N + column`.
pub(crate) const MAX_SIZE: usize = 11;

/// The marks one turn of rule 5 puts down, in order: at most one for each `j`, N + 1 in all.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Placed {
    cells: [usize; MAX_SIZE + 1],
    len: usize,
}

impl Placed {
    fn push(&mut self, cell: usize) {
        self.cells[self.len] = cell;
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

/// What rules 1 to 4 play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// This cell.
    Cell(usize),
    /// One of these two, by rule 4's coin: the main diagonal's cell, then the other's.
    Coin(usize, usize),
}

impl Pick {
    /// Each cell played, with its probability (without a vector: an audit asks millions of
    /// times).
    pub(super) fn choices(self) -> impl Iterator<Item = (usize, Ratio)> {
        const HALF: Ratio = Ratio::new(1, 2);
        let (pair, count) = match self {
            Pick::Cell(cell) => ([(cell, Ratio::ONE), (cell, Ratio::ZERO)], 1),
            Pick::Coin(main, anti) => ([(main, HALF), (anti, HALF)], 2),
        };
        pair.into_iter().take(count)
    }
}

/// The listing's board: N x N for an odd N, a line being N in a row (rows, columns and the two
/// diagonals), cells numbered row-major from 0.
///
/// The rules are written for any such N, as the listing's loops run for it; the 3x3 bot plays
/// them with N = 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Square {
    pub(super) n: usize,
    /// The rows, then the columns, then the diagonal from the top left, then the other.
    lines: [Mask; 2 * MAX_SIZE + 2],
    /// The same lines in 64 bits, on a board that fits them (7x7 and smaller), where the
    /// scans for a completing cell, most of an audit's time, cost half as much.
    narrow: Option<[u64; 2 * MAX_SIZE + 2]>,
}

impl Square {
    /// The board with `n` rows and columns; `None` unless `n` is odd and at most
    /// [`MAX_SIZE`] (the listing refuses an even size).
    pub(crate) fn new(n: usize) -> Option<Square> {
        if n % 2 == 0 || n > MAX_SIZE {
            return None;
        }
        let bit = |row: usize, column: usize| 1 << (row * n + column);
        let mut lines = [0; 2 * MAX_SIZE + 2];
        for i in 0..n {
            for j in 0..n {
                lines[i] |= bit(i, j);
                lines[n + i] |= bit(j, i);
            }
            lines[2 * n] |= bit(i, i);
            lines[2 * n + 1] |= bit(i, n - 1 - i);
        }
        let narrow = (n * n <= 64).then(|| lines.map(|line| line as u64));
        Some(Square { n, lines, narrow })
    }

    fn lines(&self) -> &[Mask] {
        &self.lines[..2 * self.n + 2]
    }

    pub(super) fn all(&self) -> Mask {
        Mask::MAX >> (MAX_CELLS - self.n * self.n)
    }

    /// The cell at `row`, `column` (which may lie off the board, as rule 5 reaches).
    fn at(&self, row: i64, column: i64) -> Option<usize> {
        let n = self.n as i64;
        ((0..n).contains(&row) && (0..n).contains(&column)).then(|| (row * n + column) as usize)
    }

    /// The lowest empty cell that completes a line of `marks`: the listing's row-major scan,
    /// which tries each cell and asks whether it wins.
    fn completing(&self, marks: Mask, empty: Mask) -> Option<usize> {
        let count = 2 * self.n + 2;
        match &self.narrow {
            // The board fits 64 bits: so do its masks.
            Some(lines) => completing(&lines[..count], marks as u64, empty as u64),
            None => completing(self.lines(), marks, empty),
        }
    }

    /// Rules 1 to 4 for the side holding `mine` against `theirs`: what they play, or `None`
    /// when they play nothing.
    pub(crate) fn rules_one_to_four(&self, mine: Mask, theirs: Mask) -> Option<Pick> {
        let empty = self.all() & !(mine | theirs);
        let centre = (self.n / 2) * self.n + self.n / 2;
        if let Some(cell) = self
            .completing(mine, empty)
            .or_else(|| self.completing(theirs, empty))
            .or_else(|| (empty >> centre & 1 == 1).then_some(centre))
        {
            return Some(Pick::Cell(cell));
        }
        // The listing counts the marks on each diagonal, and keeps off both once either is full.
        let diagonals = &self.lines()[2 * self.n..];
        if diagonals.iter().any(|&line| line & empty == 0) {
            return None;
        }
        // A coin for each row, down the board, picks which diagonal's cell to try first; a row
        // whose two cells are taken passes to the next, whatever the coin said.
        let n = self.n as i64;
        for row in 0..n {
            let main = self.at(row, row)?;
            let anti = self.at(row, n - 1 - row)?;
            let free = |cell: usize| empty >> cell & 1 == 1;
            match (free(main), free(anti)) {
                (false, false) => continue,
                (true, false) => return Some(Pick::Cell(main)),
                (false, true) => return Some(Pick::Cell(anti)),
                // The middle row's two cells are one: the centre.
                (true, true) if main == anti => return Some(Pick::Cell(main)),
                (true, true) => return Some(Pick::Coin(main, anti)),
            }
        }
        None
    }

    /// Rule 5, with its quirks: every mark it puts down, in order, on a board whose `empty`
    /// cells are those given.
    pub(crate) fn far_from(&self, empty: Mask, last: usize) -> Placed {
        let n = self.n as i64;
        let (last_row, last_column) = ((last / self.n) as i64, (last % self.n) as i64);
        // The listing's loops start at N; an `i` (or `j`) that takes both signs off the board
        // reaches no cell, so the loops start at the largest that can.
        let reach = |at: i64| at.max(n - 1 - at);
        let mut empty = empty;
        let mut placed = Placed::default();
        for i in (0..=reach(last_row)).rev() {
            for j in (0..=reach(last_column)).rev() {
                for sign in [-1, 1] {
                    if let Some(cell) = self.at(last_row + sign * i, last_column + sign * j)
                        && empty >> cell & 1 == 1
                    {
                        empty &= !(1 << cell);
                        placed.push(cell);
                        // Leaves the loop of signs only: the next `j` may mark again.
                        break;
                    }
                }
            }
            if !placed.as_slice().is_empty() {
                break;
            }
        }
        placed
    }

    /// The bot's last move after `moves` (cells from the empty board, X first), as its own
    /// field would hold it: set by rules 1 to 4, never by rule 5; row 0, column 0 at first.
    #[cfg(test)]
    pub(crate) fn last_move(&self, moves: &[usize]) -> usize {
        self.last_move_after(moves.iter().copied(), &mut Replayed::default())
    }

    /// [`Square::last_move`], replaying only the moves after those `replayed` shares with
    /// `moves`, and keeping these in it.
    pub(super) fn last_move_after(
        &self,
        moves: impl ExactSizeIterator<Item = usize>,
        replayed: &mut Replayed,
    ) -> usize {
        let me = moves.len() % 2;
        if (replayed.n, replayed.me) != (self.n, me) {
            *replayed = Replayed {
                n: self.n,
                me,
                ..Replayed::default()
            };
        }
        let length = moves.len();
        let mut moves = moves.enumerate();
        // The moves replayed already: only their count is needed.
        let mut shared = 0;
        let mut diverging = None;
        for (ply, cell) in moves.by_ref() {
            if replayed.moves.get(ply) != Some(&cell) {
                diverging = Some((ply, cell));
                break;
            }
            shared = ply + 1;
        }
        let Some(first) = diverging else {
            return if length == 0 {
                0
            } else {
                replayed.last[length - 1]
            };
        };
        replayed.moves.truncate(shared);
        replayed.last.truncate(shared);
        replayed.marks.truncate(shared);
        let (mut marks, mut last) = match shared {
            0 => ([0, 0], 0),
            _ => (replayed.marks[shared - 1], replayed.last[shared - 1]),
        };
        for (ply, cell) in std::iter::once(first).chain(moves) {
            let side = ply % 2;
            if side == me
                && self
                    .rules_one_to_four(marks[side], marks[1 - side])
                    .is_some()
            {
                last = cell;
            }
            marks[side] |= 1 << cell;
            replayed.moves.push(cell);
            replayed.last.push(last);
            replayed.marks.push(marks);
        }
        last
    }
}
