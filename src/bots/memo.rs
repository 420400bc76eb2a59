//! A dense score cache for the ported minimax bots, so that auditing them does not repeat
//! their full-tree searches at every decision.
//!
//! The ported searches score a board the same way every time they meet it from the same root
//! ply (their depth and side follow from the board and the root), so a score is keyed by the
//! root's ply and the board's base-3 code. Caching changes no score and no move.

use crate::board::{Board, CODES};

/// Scores by (root ply, board).
#[derive(Clone, Debug)]
pub struct Memo {
    scores: Vec<i16>,
}

const UNKNOWN: i16 = i16::MIN;

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            scores: vec![UNKNOWN; CODES * 10],
        }
    }
}

impl Memo {
    /// The score remembered for `board` in a search from a root at `root_ply`, or the one
    /// `score` computes, remembered from now on.
    pub fn get_or(
        &mut self,
        root_ply: usize,
        board: Board,
        score: impl FnOnce(&mut Memo) -> i32,
    ) -> i32 {
        let slot = root_ply * CODES + board.code();
        match self.scores[slot] {
            UNKNOWN => {
                let value = score(self);
                self.scores[slot] = i16::try_from(value).expect("minimax scores are small");
                value
            }
            known => i32::from(known),
        }
    }
}
