//! A board's every legal move with its value and remoteness: what `ttt analyze` shows and the
//! hints colour.

use super::{Table, narrow};
use crate::board::{Cell, Player};
use crate::position::Position;
use crate::value::{MoveValue, Value};

impl Table {
    /// Every legal move with its value and remoteness, by cell. Empty when the game is over.
    pub fn analyze(&self, board: &Position) -> Vec<MoveValue> {
        self.check(board);
        let (x, o) = narrow(board);
        if !self.in_play(x, o) {
            return Vec::new();
        }
        let (mine, theirs) = match board.to_move() {
            Player::X => (x, o),
            Player::O => (o, x),
        };
        let full = self.codes.full();
        let mut cells = !(x | o) & full;
        let mut moves = Vec::with_capacity(cells.count_ones() as usize);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let after = mine | 1 << cell;
            let (value, remoteness) = if self.codes.makes_line(after, cell) {
                (Value::Win, 1)
            } else if after | theirs == full {
                (Value::Draw, 1)
            } else {
                let child = board.play_unchecked(cell);
                let (child_x, child_o) = narrow(&child);
                let (value, remoteness) = self.entry(child_x, child_o);
                (-value, remoteness + 1)
            };
            moves.push(MoveValue {
                cell: Cell::new(cell).expect("a table's cells are cells"),
                value,
                remoteness,
            });
        }
        moves
    }
}
