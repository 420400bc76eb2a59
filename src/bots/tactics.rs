//! Tactics several rule bots share: lines about to be completed, and forks.

use crate::board::{Board, Cell, Cells, LINES, Player};

/// The empty cells that would complete a line for `player`, in order 1..9.
pub fn winning_cells(board: Board, player: Player) -> Cells {
    let mine = board.marks(player);
    let empty = board.empty_cells();
    LINES
        .iter()
        .map(|line| Cells::from_bits(line.bits() & !mine.bits()))
        // Two of the line's three cells are `player`'s: the rest is one cell.
        .filter(|rest| rest.is_single())
        .map(|rest| rest.intersection(empty))
        .fold(Cells::EMPTY, Cells::union)
}

/// How many lines through `cell` hold one mark of `player` and two empty cells.
pub fn open_lines_through(board: Board, player: Player, cell: Cell) -> usize {
    let mine = board.marks(player);
    let theirs = board.marks(!player);
    LINES
        .iter()
        .filter(|line| {
            line.contains(cell)
                && line.intersection(theirs).is_empty()
                && line.intersection(mine).is_single()
        })
        .count()
}

/// The empty cells where a mark of `player` would make two threats at once (a fork): two lines
/// each with two of `player`'s marks and an empty third cell.
pub fn fork_cells(board: Board, player: Player) -> Cells {
    board
        .empty_cells()
        .iter()
        .filter(|&cell| open_lines_through(board, player, cell) >= 2)
        .collect()
}
