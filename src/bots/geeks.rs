//! `geeks-minimax` and `geeks-minimax-depth`: ports of the C++ minimax listed in Sohanda, Singh
//! and Gupta's student report "Tic Tac Toe" (SRM Institute of Science and Technology, 2022),
//! which reproduces the GeeksforGeeks listing.
//!
//! As listed: `evaluate` returns +10 when the bot ("player") holds a line, -10 when the
//! opponent does, else 0; `minimax(board, depth, isMax)` returns that score at once when it is
//! ±10, 0 on a full board, and otherwise the max (bot to move) or min (opponent to move) over
//! the empty cells in row-major order; `findBestMove` tries each empty cell in row-major order
//! with `minimax(board, 0, false)` and keeps a cell only when its value is strictly greater,
//! so the first best cell wins. Nothing prefers a fast win over a slow one.
//!
//! `geeks-minimax-depth` adds what the report's "Making our AI smarter" section describes:
//! a win scores `10 - depth` and a loss `-10 + depth`.
//!
//! Readings:
//! - The listing hard-codes `player = 'x'`; we let "player" be whichever mark the bot plays,
//!   so the same bot can be audited as X and as O.
//! - The search remembers each board's value for the root ply it was searched from: from a
//!   given root, depth and side follow from the board, so the values, and the moves chosen,
//!   are the listing's; only the repeated work is gone.
//! - The depth version subtracts depth at the point where the listing returns ±10, the place
//!   the report's pseudocode shows; depth counts plies after the bot's candidate move, as the
//!   listing's `minimax(board, 0, false)` call starts it at 0.

use super::memo::Memo;
use super::{Bot, BotError, Choice, sides};
use crate::board::{Board, Cell, has_line};
use crate::history::History;

/// The SRM report's minimax, with or without the depth correction.
///
/// Scores are remembered across decisions, per root ply and board: the same moves as the listing,
/// without repeating its full search at every visit.
#[derive(Clone, Debug)]
pub struct GeeksMinimax {
    depth_correction: bool,
    memo: Memo,
}

impl GeeksMinimax {
    /// Exactly as listed: +10/-10, no depth.
    pub fn plain() -> GeeksMinimax {
        GeeksMinimax {
            depth_correction: false,
            memo: Memo::default(),
        }
    }

    /// With the depth correction the text describes.
    pub fn with_depth() -> GeeksMinimax {
        GeeksMinimax {
            depth_correction: true,
            memo: Memo::default(),
        }
    }

    /// The listing's `findBestMove`.
    fn find_best_move(&mut self, board: Board) -> Option<Cell> {
        let search = Search {
            depth_correction: self.depth_correction,
            root_ply: board.ply(),
        };
        let mut best: Option<(i32, Cell)> = None;
        for cell in board.empty_cells() {
            let value = search.minimax(&mut self.memo, board.play_unchecked(cell), 0, false);
            if best.is_none_or(|(top, _)| value > top) {
                best = Some((value, cell));
            }
        }
        best.map(|(_, cell)| cell)
    }
}

/// One `findBestMove` call's search.
#[derive(Clone, Copy)]
struct Search {
    depth_correction: bool,
    root_ply: usize,
}

impl Search {
    /// The listing's `minimax`, remembered per root ply and board.
    fn minimax(self, memo: &mut Memo, board: Board, depth: i32, is_max: bool) -> i32 {
        memo.get_or(self.root_ply, board, |memo| {
            self.minimax_uncached(memo, board, depth, is_max)
        })
    }

    fn minimax_uncached(self, memo: &mut Memo, board: Board, depth: i32, is_max: bool) -> i32 {
        // `board` has the side to move set by the rules; `is_max` says whether that is the bot.
        let (me, them) = if is_max {
            sides(board)
        } else {
            let (a, b) = sides(board);
            (b, a)
        };
        let score = if has_line(board.marks(me)) {
            10
        } else if has_line(board.marks(them)) {
            -10
        } else {
            0
        };
        if score == 10 {
            return if self.depth_correction {
                score - depth
            } else {
                score
            };
        }
        if score == -10 {
            return if self.depth_correction {
                score + depth
            } else {
                score
            };
        }
        if board.empty_cells().is_empty() {
            return 0;
        }
        let values = board
            .empty_cells()
            .iter()
            .map(|cell| self.minimax(memo, board.play_unchecked(cell), depth + 1, !is_max));
        if is_max {
            values.fold(-1000, i32::max)
        } else {
            values.fold(1000, i32::min)
        }
    }
}

impl Bot for GeeksMinimax {
    fn name(&self) -> &str {
        if self.depth_correction {
            "geeks-minimax-depth"
        } else {
            "geeks-minimax"
        }
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        Ok(Choice::only(self.find_best_move(game.board())))
    }

    // The memo is a cache keyed by the root's ply and a board, and the root's ply is the
    // board's: the move depends on the board alone.
    fn memoryless(&self) -> bool {
        true
    }
}
