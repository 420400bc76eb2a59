//! A position of the walks by positions (audits and matches), the move that takes its
//! histories on to the next ply, and what an audit's walk knows of a listed position before
//! it visits it.

use super::exact::{Overflow, plus};
use super::rules::{Bits, Line, Places, Rules};
use crate::board::{Board, Cell, Cells, Outcome, Player};
use crate::bots::{Bot, BotError};
use crate::game::Game;
use crate::history::History;
use crate::value::Evaluation;
use crate::value::Value;

/// A position of the walk: in 32 bytes on tic-tac-toe, where a ply lists up to 1,520.
#[derive(Clone, Copy)]
pub(crate) struct Node<R: Rules> {
    pub(crate) board: R,
    /// What finds the board's place in its ply's list.
    pub(crate) code: R::Code,
    /// The first history to reach the board, in the history walk's order.
    pub(crate) line: Line<R::Line>,
    /// How many histories reach the board.
    pub(crate) histories: u32,
    /// Their total chance, over the ply's denominator.
    pub(crate) chance: u128,
}

impl<R: Rules> Node<R> {
    pub(crate) fn root(game: Game) -> Node<R> {
        let (board, code) = R::empty(game);
        Node {
            board,
            code,
            line: Line(R::Line::EMPTY),
            histories: 1,
            chance: 1,
        }
    }
}

const _: () = assert!(std::mem::size_of::<Node<Board>>() == 32);

/// Takes the histories of `node`, at `ply`, through `cell`, with `chance` over the next ply's
/// denominator: to the end of their games (the outcome, for the caller to count), or to the
/// position after the move, listed in `next`. With `places` (each board's place in `next`)
/// histories that meet at a board are listed there once; without it, each is listed on its
/// own.
#[inline(always)]
pub(crate) fn step<R: Rules>(
    node: &Node<R>,
    ply: usize,
    cell: Cell,
    chance: u128,
    next: &mut Vec<Node<R>>,
    places: Option<&mut R::Places>,
) -> Result<Step, Overflow> {
    let mover = Player::at_ply(ply);
    if node.board.makes_line(cell, mover) {
        return Ok(Step::End(Outcome::Win(mover)));
    }
    if ply + 1 == node.board.cells() {
        return Ok(Step::End(Outcome::Draw));
    }
    // Most positions are reached more than once: on boards of at most 16 cells their place is
    // found from the code alone.
    let (board, code) = node.board.marked(node.code, cell, mover);
    let known = match places {
        Some(places) => places.find_or_add(board, code, next.len()),
        None => None,
    };
    match known {
        None => {
            next.push(Node {
                board,
                code,
                line: node.line.with(ply, cell),
                histories: node.histories,
                chance,
            });
            Ok(Step::At(next.len() - 1))
        }
        Some(known) => {
            let child = &mut next[known];
            child.histories = child
                .histories
                .checked_add(node.histories)
                .ok_or(Overflow)?;
            child.chance = plus(child.chance, chance)?;
            Ok(Step::At(known))
        }
    }
}

/// What the walk knows of a listed position before visiting it, in 4 bytes: whether the game
/// gets there when the opponent plays the perfect style (only its optimal moves) and the bot
/// any of its choices; and, on a board of at most 16 cells, its value, remoteness and optimal
/// moves, once a bot's move there was judged. The odds against the perfect style are worked
/// out at the positions it reaches alone, so only there are the opponent's optimal moves
/// needed.
#[derive(Clone, Copy, Default)]
pub(super) struct Known(u32);

impl Known {
    const REACHED: u32 = 1 << 31;
    const EVALUATED: u32 = 1 << 30;

    pub(super) fn reached(self) -> bool {
        self.0 & Known::REACHED != 0
    }

    pub(super) fn reached_if(self, reached: bool) -> Known {
        Known(self.0 | u32::from(reached) << 31)
    }

    pub(super) fn evaluation(self) -> Option<Evaluation> {
        (self.0 & Known::EVALUATED != 0).then(|| Evaluation {
            value: match self.0 >> 24 & 3 {
                0 => Value::Loss,
                1 => Value::Draw,
                _ => Value::Win,
            },
            remoteness: (self.0 >> 16) as u8,
            best: Cells::from_bits((self.0 & 0xffff).into()),
        })
    }

    /// Keeps `evaluation`, that of a board of at most 16 cells.
    pub(super) fn remember(self, evaluation: Evaluation) -> Known {
        let best = u16::try_from(evaluation.best.bits()).expect("a board of at most 16 cells");
        let best = u32::from(best);
        debug_assert!(self.evaluation().is_none(), "a position is evaluated once");
        let value = evaluation.value as u32;
        let remoteness = u32::from(evaluation.remoteness);
        Known(self.0 | Known::EVALUATED | value << 24 | remoteness << 16 | best)
    }
}

/// Where a move took the histories of a position.
pub(crate) enum Step {
    /// To the end of their games.
    End(Outcome),
    /// To the position at this place in the next ply's list.
    At(usize),
}

/// Tells `bot`, when it [asks ahead](Bot::asks_ahead), about every position of `nodes`, at
/// `ply`, in their order and in batches, before it is asked about each.
pub(crate) fn prepare<R: Rules>(
    bot: &mut dyn Bot,
    game: Game,
    nodes: &[Node<R>],
    ply: usize,
) -> Result<(), BotError> {
    if !bot.asks_ahead() {
        return Ok(());
    }
    // A batch at a time: the games of a whole ply would be a copy of the ply, many times its
    // size.
    for nodes in nodes.chunks(super::ahead::BATCH) {
        let batch: Vec<History> = nodes
            .iter()
            .map(|node| History::replay(game, &node.line.to_vec(ply)))
            .collect();
        bot.prepare(&batch)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_keeps_every_evaluation_of_sixteen_cells_and_stays_reached() {
        assert!(!Known::default().reached());
        assert!(Known::default().evaluation().is_none());
        for value in [Value::Loss, Value::Draw, Value::Win] {
            for (remoteness, best) in [(0, 0), (1, 1), (16, 0xffff), (7, 0x8001)] {
                let evaluation = Evaluation {
                    value,
                    remoteness,
                    best: Cells::from_bits(best),
                };
                for reached in [false, true] {
                    let known = Known::default().reached_if(reached).remember(evaluation);
                    assert_eq!(known.evaluation(), Some(evaluation));
                    assert_eq!(known.reached(), reached);
                    // Reached once, reached for good; the evaluation stays.
                    let later = known.reached_if(true).reached_if(false);
                    assert!(later.reached());
                    assert_eq!(later.evaluation(), Some(evaluation));
                }
            }
        }
    }
}
