//! `c-minimax`: a port of the C minimax of the unsigned report "Tic-Tac-Toe using minimax in C".
//!
//! As listed: `bestMove` tries each empty cell in row-major order, scores it with
//! `minimax(board, moveIndex + 1, false)` and keeps it only when the score is strictly greater
//! than the best so far (starting from -999), so the first best cell wins. `minimax(board,
//! depth, isAI)` returns -1 when the game is over and it is the bot's turn (the human made the
//! line), +1 when it is over on the human's turn, otherwise, while `depth < 9`, the max (bot) or
//! min (human) over the empty cells, and 0 once `depth` reaches 9 (a full board). No depth
//! enters the score, so a slow win is as good as a fast one and a quick loss as a slow one.
//!
//! Readings:
//! - The bot plays whichever mark is to move (the listing's COMPUTERMOVE); the listing lets the
//!   computer move first or second, so both sides are its own.
//! - The search remembers each board's score for the root ply it was searched from (see
//!   `minimax`), which changes no score and no move.
//! - `moveIndex` is the number of moves already played, as the listing's game loop counts them.

use super::memo::Memo;
use super::{Bot, BotError, Choice};
use crate::board::{Board, Cell};
use crate::history::History;

/// The C report's minimax.
///
/// Scores are remembered across decisions, per root ply and board: the same moves as the listing,
/// without repeating its full search at every visit.
#[derive(Clone, Debug, Default)]
pub struct CMinimax {
    memo: Memo,
}

/// The listing's `minimax`, remembering each board's score: depth and side follow from the
/// board and the root, so the scores are the listing's; only the repeated work is gone.
fn minimax(memo: &mut Memo, root_ply: usize, board: Board, depth: usize, is_ai: bool) -> i32 {
    memo.get_or(root_ply, board, |memo| {
        if board.winner().is_some() {
            return if is_ai { -1 } else { 1 };
        }
        if depth >= 9 {
            return 0;
        }
        let scores = board.empty_cells().iter().map(|cell| {
            minimax(
                memo,
                root_ply,
                board.play_unchecked(cell),
                depth + 1,
                !is_ai,
            )
        });
        if is_ai {
            scores.fold(-999, i32::max)
        } else {
            scores.fold(999, i32::min)
        }
    })
}

/// The listing's `bestMove`.
fn best_move(memo: &mut Memo, board: Board) -> Option<Cell> {
    let move_index = board.ply();
    let mut best: Option<(i32, Cell)> = None;
    for cell in board.empty_cells() {
        let score = minimax(
            memo,
            move_index,
            board.play_unchecked(cell),
            move_index + 1,
            false,
        );
        if score > best.map_or(-999, |(top, _)| top) {
            best = Some((score, cell));
        }
    }
    best.map(|(_, cell)| cell)
}

impl Bot for CMinimax {
    fn name(&self) -> &str {
        "c-minimax"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        Ok(Choice::only(best_move(&mut self.memo, game.board())))
    }

    // The memo is a cache keyed by the root's ply and a board, and the root's ply is the
    // board's: the move depends on the board alone.
    fn memoryless(&self) -> bool {
        true
    }
}
