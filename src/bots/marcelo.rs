//! `marcelo`: a port of the C# bot of Marcelo's blog post "Don't lose on Tic-Tac-Toe 99% of the
//! time with this simple strategy!", on its 3x3 board.
//!
//! The rules, in the listing's order, each tried only when the ones before it played nothing:
//!
//! 1. Win: scan cells row-major for the first empty cell that completes a line of the bot's.
//! 2. Block: the same scan for the opponent.
//! 3. Centre, if empty.
//! 4. Diagonals, only when neither diagonal (1-5-9, 3-5-7) is fully occupied: for each row
//!    `r` = 0, 1, 2 a fresh coin picks which of `(r, r)` and `(r, 2 - r)` to try first; the
//!    first empty one is played.
//! 5. Far from my last move: for `i` from 3 down to 0, `j` from 3 down to 0, and sign -1 then
//!    +1, try the cell `(last_row + sign*i, last_col + sign*j)`.
//!
//! Quirks kept, because they are what the listing does:
//! - Rule 5 moves both coordinates with the same sign, so it reaches only the cells up-left or
//!   down-right of the last move; when none of those is empty the bot makes no move at all.
//! - In rule 5 the `break` leaves only the `sign` loop: the `j` loop goes on and plays again for
//!   each smaller `j` that finds an empty cell, so the bot can put several marks down in one
//!   turn. Both forfeit the game in an audit.
//! - "My last move" is updated by rules 1 to 4, never by rule 5.
//!
//! Readings:
//! - The listing always plays the letter 'o' and the human 'x', whoever starts; under our rules
//!   X moves first, so the bot plays whichever mark is to move, with its logic unchanged.
//! - The listing keeps its last move in a field; our bots are given the game instead, so the
//!   last move is recovered by replaying which rule made each of the bot's earlier moves.
//! - The listing makes a `new Random()` for every decision; we treat each coin as fair and
//!   independent, which is what the code intends (a time-seeded .NET `Random` made in a tight
//!   loop repeats itself, which would skew the post's own 50,000-game figures).

use super::tactics::winning_cells;
use super::{Bot, BotError, Choice, Turn, sides};
use crate::board::{Board, Cell, Cells, LINES, Player};
use crate::game::Game;
use crate::ratio::Ratio;

/// The post's own figures, 50,000 games a side against a random opponent (its `RandomPlay`
/// picks uniformly among empty cells): "Computer won 42986 ... Human won 292 ... Draws: 6722"
/// with the human starting, and 48306 / 0 / 1694 with the computer starting.
pub const PUBLISHED: &[super::Published] = &[
    super::Published {
        side: Player::X,
        games: 50_000,
        wins: 48_306,
        draws: 1_694,
        losses: 0,
        opponent: "random",
    },
    super::Published {
        side: Player::O,
        games: 50_000,
        wins: 42_986,
        draws: 6_722,
        losses: 292,
        opponent: "random",
    },
];

/// Marcelo's bot.
///
/// Not [memoryless](Bot::memoryless): rule 5 plays far from the bot's last move, which the
/// board alone does not tell.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marcelo;

fn at(row: i32, column: i32) -> Option<Cell> {
    if (0..3).contains(&row) && (0..3).contains(&column) {
        Cell::at(row as usize, column as usize)
    } else {
        None
    }
}

/// Rules 1 to 4: each possible move with its probability, or `None` when they play nothing.
fn rules_one_to_four(board: Board) -> Option<Vec<(Cell, Ratio)>> {
    let (me, them) = sides(board);
    let centre = Cell::from_number(5).expect("cell 5");
    // The row-major scans of rules 1 and 2 find the lowest cell that completes a line.
    if let Some(cell) = winning_cells(board, me)
        .first()
        .or_else(|| winning_cells(board, them).first())
        .or_else(|| board.get(centre).is_none().then_some(centre))
    {
        return Some(vec![(cell, Ratio::ONE)]);
    }
    // LINES ends with the diagonals 1-5-9 and 3-5-7.
    let full = |line: Cells| line.intersection(board.empty_cells()).is_empty();
    if full(LINES[6]) || full(LINES[7]) {
        return None;
    }
    for row in 0..3 {
        let main = at(row, row)?;
        let anti = at(row, 2 - row)?;
        let free: Vec<Cell> = [main, anti]
            .into_iter()
            .filter(|&c| board.get(c).is_none())
            .collect();
        match free.as_slice() {
            [] => continue,
            [only] => return Some(vec![(*only, Ratio::ONE)]),
            [a, b] if a == b => return Some(vec![(*a, Ratio::ONE)]),
            _ => {
                let half = Ratio::new(1, 2);
                return Some(vec![(main, half), (anti, half)]);
            }
        }
    }
    None
}

/// Rule 5, with its quirks: every mark it puts down, in order.
fn far_from(board: Board, last: Cell) -> Vec<Cell> {
    let (last_row, last_column) = (last.row() as i32, last.column() as i32);
    let mut taken = board.empty_cells();
    let mut placed = Vec::new();
    for i in (0..=3).rev() {
        for j in (0..=3).rev() {
            for sign in [-1, 1] {
                if let Some(cell) = at(last_row + sign * i, last_column + sign * j)
                    && taken.contains(cell)
                {
                    taken = taken.without(cell);
                    placed.push(cell);
                    break;
                }
            }
        }
        if !placed.is_empty() {
            break;
        }
    }
    placed
}

/// The bot's last move as its own field would hold it: set by rules 1 to 4, not by rule 5.
fn last_move(game: &Game) -> Cell {
    let me = game.board().to_move();
    // The field starts at row 0, column 0.
    let mut last = Cell::from_number(1).expect("cell 1");
    let mut board = Board::EMPTY;
    for &cell in game.moves() {
        if board.to_move() == me && rules_one_to_four(board).is_some() {
            last = cell;
        }
        board = board.play(cell).unwrap_or(board);
    }
    last
}

impl Bot for Marcelo {
    fn name(&self) -> &str {
        "marcelo"
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        let board = game.board();
        if let Some(moves) = rules_one_to_four(board) {
            return Ok(moves
                .into_iter()
                .map(|(cell, probability)| Choice {
                    turn: Turn::Mark(cell),
                    probability,
                })
                .collect());
        }
        let turn = match far_from(board, last_move(game)).as_slice() {
            [] => Turn::Nothing,
            [one] => Turn::Mark(*one),
            several => Turn::Several(several.to_vec()),
        };
        Ok(vec![Choice::certain(turn)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(moves: &str) -> Vec<(Turn, String)> {
        super::super::answers(&mut Marcelo, moves)
    }

    fn mark(n: u32) -> Turn {
        Turn::Mark(Cell::from_number(n).unwrap())
    }

    #[test]
    fn takes_the_centre_first() {
        assert_eq!(choose(""), [(mark(5), "1/1".into())]);
        assert_eq!(choose("1"), [(mark(5), "1/1".into())]);
    }

    #[test]
    fn picks_a_top_diagonal_corner_at_random_when_the_centre_is_gone() {
        assert_eq!(
            choose("5"),
            [(mark(1), "1/2".into()), (mark(3), "1/2".into())]
        );
    }

    #[test]
    fn wins_before_blocking_and_blocks_before_the_centre() {
        // O (bot) holds 1 and 2 with X on 4 and 7: win on 3 beats blocking 1-4-7... 1 is O's.
        assert_eq!(choose("4 1 8 2 6"), [(mark(3), "1/1".into())]);
        // X threatens 1-2-3 on 3; the bot blocks rather than take the centre.
        assert_eq!(choose("1 9 2"), [(mark(3), "1/1".into())]);
    }

    #[test]
    fn skips_the_diagonals_when_one_is_full_and_plays_far_from_its_last_move() {
        // X 5, O (bot) 1 by rule 4, X 9: diagonal 1-5-9 full, so rule 5 from cell 1
        // (row 0, col 0): i = 2, j = 2 gives cell 9 (taken); j = 1 gives cell 8; j = 0 gives
        // cell 7: two marks in one turn.
        let turns = choose("5 1 9");
        assert_eq!(turns.len(), 1);
        assert_eq!(
            turns[0].0,
            Turn::Several(vec![
                Cell::from_number(8).unwrap(),
                Cell::from_number(7).unwrap()
            ])
        );
    }
}
