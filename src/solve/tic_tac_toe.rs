//! Exhaustive minimax over every position reachable from the empty board, memoised on canonical
//! boards. Pure: no I/O. This file is shared with `build.rs` (through `#[path]`), which runs
//! [`solve`] once to make the embedded table.

use std::collections::HashMap;

use crate::board::{Board, Cells};
use crate::symmetry::{Canonical, canonicalize};
use crate::value::Value;
use crate::value::move_rank;

/// What perfect play makes of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// Win, draw or loss.
    pub value: Value,
    /// Plies to the end of the game under perfect play: the winner takes the fastest win, the
    /// loser the slowest loss; a drawn game ends on a full board. 0 for a finished game.
    pub remoteness: u8,
    /// Every move that keeps the value and, for a win, wins fastest, or for a loss, loses
    /// slowest. Every drawing move when the value is a draw. Empty for a finished game.
    pub best: Cells,
}

impl Evaluation {
    /// The evaluation of a finished game: a loss for the side to move when the opponent made a
    /// line, a draw on a full board.
    pub fn finished(board: Board) -> Evaluation {
        let value = if board.winner().is_some() {
            Value::Loss
        } else {
            Value::Draw
        };
        Evaluation {
            value,
            remoteness: 0,
            best: Cells::EMPTY,
        }
    }

    /// The evaluation of `board` from those of its children: one ply of minimax.
    ///
    /// `child` gives the value and remoteness of a position for its own side to move.
    pub fn from_children(board: Board, mut child: impl FnMut(Board) -> (Value, u8)) -> Evaluation {
        if board.is_over() {
            return Evaluation::finished(board);
        }
        let mut best: Option<(i32, Value, u8)> = None;
        let mut best_cells = Cells::EMPTY;
        for cell in board.legal_moves() {
            let (value, remoteness) = child(board.play_unchecked(cell));
            let (value, remoteness) = (-value, remoteness + 1);
            let rank = move_rank(value, remoteness);
            match best {
                Some((top, ..)) if rank < top => {}
                Some((top, ..)) if rank == top => best_cells.insert(cell),
                _ => {
                    best = Some((rank, value, remoteness));
                    best_cells = Cells::EMPTY.with(cell);
                }
            }
        }
        let (_, value, remoteness) = best.expect("a game in progress has a legal move");
        Evaluation {
            value,
            remoteness,
            best: best_cells,
        }
    }
}

/// The solved game: an evaluation for every canonical position, ordered by canonical code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    entries: Vec<(Canonical, Evaluation)>,
}

impl Solution {
    /// Wraps entries, sorting them by canonical code.
    pub fn new(mut entries: Vec<(Canonical, Evaluation)>) -> Solution {
        entries.sort_by_key(|(canonical, _)| *canonical);
        Solution { entries }
    }

    /// Every canonical position with its evaluation, ordered by code.
    pub fn entries(&self) -> &[(Canonical, Evaluation)] {
        &self.entries
    }

    /// The evaluation of a canonical position.
    pub fn get(&self, canonical: Canonical) -> Option<&Evaluation> {
        self.entries
            .binary_search_by_key(&canonical, |(c, _)| *c)
            .ok()
            .map(|i| &self.entries[i].1)
    }
}

/// Solves tic-tac-toe: full minimax from the empty board, memoised on canonical boards.
pub fn solve() -> Solution {
    let mut memo = HashMap::with_capacity(1024);
    solve_from(canonicalize(Board::EMPTY).0, &mut memo);
    Solution::new(memo.into_iter().collect())
}

fn solve_from(canonical: Canonical, memo: &mut HashMap<Canonical, Evaluation>) -> Evaluation {
    if let Some(&known) = memo.get(&canonical) {
        return known;
    }
    let evaluation = Evaluation::from_children(canonical.board(), |child| {
        let found = solve_from(canonicalize(child).0, memo);
        (found.value, found.remoteness)
    });
    memo.insert(canonical, evaluation);
    evaluation
}
