//! Every position of a game that play can reach, walked one at a time in the order a table is
//! laid out, in constant memory.

use crate::cell::{MAX_CELLS, Mask};
use crate::game::{Game, Geometry};
use crate::position::Position;

impl Position {
    /// Every position of `game` that play can reach, one at a time, ordered by ply and then by
    /// base-3 code (cell `i` weighs `3^(i-1)`; empty 0, X 1, O 2), the order in which a table
    /// is laid out. Nothing is kept but the board being looked at, so a game of millions of
    /// positions is walked in constant memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::Position;
    ///
    /// let boards: Vec<String> = Position::reachable("2x2k2".parse()?)
    ///     .map(|board| board.to_string())
    ///     .collect();
    /// assert_eq!(boards.len(), 29);
    /// assert_eq!(boards[..4], ["../..", "X./..", ".X/..", "../X."]);
    /// # Ok::<(), ttt_oracle::GameError>(())
    /// ```
    pub fn reachable(game: Game) -> Reachable {
        let mut reachable = Reachable {
            geometry: game.geometry(),
            digits: [0; MAX_CELLS],
            x: 0,
            o: 0,
            ply: 0,
        };
        reachable.start_ply();
        reachable
    }
}

/// The iterator of [`Position::reachable`].
#[derive(Clone, Debug)]
pub struct Reachable {
    geometry: &'static Geometry,
    /// The board to look at next, as its base-3 digits from the last cell's to the first's:
    /// the order in which codes compare. Within a ply the boards are the arrangements of a
    /// fixed number of each digit, so the next code is the next permutation.
    digits: [u8; MAX_CELLS],
    /// The same board as masks, kept in step with `digits`.
    x: Mask,
    o: Mask,
    /// The ply of `digits`; past the number of cells when every board has been looked at.
    ply: usize,
}

impl Reachable {
    /// Sets the board to the smallest code of its ply: the empty cells, then X's, then O's,
    /// from the last cell down.
    fn start_ply(&mut self) {
        let (cells, ply) = (self.geometry.game().cells(), self.ply);
        // X moves first, so it has the extra mark of an odd ply.
        let o = ply / 2;
        self.digits[..cells - ply].fill(0);
        self.digits[cells - ply..cells - o].fill(1);
        self.digits[cells - o..cells].fill(2);
        self.set_marks(0);
    }

    /// Brings the masks in step with `digits[from..]`, the digits of the cells below
    /// `cells - from`: a permutation changes the end of the digits, the low cells, most often
    /// only a few.
    fn set_marks(&mut self, from: usize) {
        let cells = self.geometry.game().cells();
        let low = Mask::MAX >> (MAX_CELLS - (cells - from));
        let (mut x, mut o) = (self.x & !low, self.o & !low);
        for (i, &digit) in self.digits[from..cells].iter().enumerate() {
            let cell = cells - 1 - from - i;
            x |= Mask::from(digit == 1) << cell;
            o |= Mask::from(digit == 2) << cell;
        }
        (self.x, self.o) = (x, o);
    }

    /// Moves on to the next board in order: the next arrangement of the same marks, or the
    /// first board of the next ply.
    fn advance(&mut self) {
        let cells = self.geometry.game().cells();
        let digits = &mut self.digits[..cells];
        match (1..cells).rev().find(|&i| digits[i - 1] < digits[i]) {
            Some(i) => {
                let j = (i..cells).rev().find(|&j| digits[j] > digits[i - 1]);
                digits.swap(i - 1, j.expect("digits[i] is larger"));
                digits[i..].reverse();
                self.set_marks(i - 1);
            }
            None => {
                self.ply += 1;
                if self.ply <= cells {
                    self.start_ply();
                }
            }
        }
    }
}

impl Iterator for Reachable {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        while self.ply <= self.geometry.game().cells() {
            let (x, o) = (self.x, self.o);
            self.advance();
            if let Ok(board) = Position::checked(self.geometry, x, o) {
                return Some(board);
            }
        }
        None
    }
}
