//! `marcelo`: a port of the C# bot of Marcelo's blog post "Don't lose on Tic-Tac-Toe 99% of the
//! time with this simple strategy!".
//!
//! The listing plays an N x N board for any odd N, a line being N in a row. [`Square`] holds
//! its rules for any odd N up to [`MAX_SIZE`], as the listing's loops run for that N, and the
//! bot plays every such board that fits the engine's 128 cells: 3x3, 5x5, 7x7, 9x9 and 11x11.
//! The rules, in the listing's order, each tried only when the ones before it played nothing:
//!
//! 1. Win: scan cells row-major for the first empty cell that completes a line of the bot's.
//! 2. Block: the same scan for the opponent.
//! 3. Centre (row and column N / 2), if empty.
//! 4. Diagonals, only when neither diagonal is fully occupied (the listing counts the marks of
//!    both sides on each): for each row `r` from 0 down the board, a coin picks which of
//!    `(r, r)` and `(r, N - 1 - r)` to try first; the first empty one is played, and a row whose
//!    two cells are taken passes to the next.
//! 5. Far from my last move: for `i` from N down to 0, `j` from N down to 0, and sign -1 then
//!    +1, try the cell `(last_row + sign*i, last_col + sign*j)`.
//!
//! Quirks kept, because they are what the listing does:
//! - Rule 5 moves both coordinates with the same sign, so it reaches only the cells up-left or
//!   down-right of the last move; when none of those is empty the bot makes no move at all.
//! - In rule 5 the `break` leaves only the `sign` loop: the `j` loop goes on and plays again for
//!   each smaller `j` that finds an empty cell, so the bot can put several marks down in one
//!   turn (up to N of them on an N x N board). Both forfeit the game in an audit.
//! - "My last move" is updated by rules 1 to 4, never by rule 5.
//!
//! Readings, where the listing leaves a choice (the same for every N):
//! - The listing always plays the letter 'o' and the human 'x', whoever starts; under our rules
//!   X moves first, so the bot plays whichever mark is to move, with its logic unchanged.
//! - The listing keeps its last move in a field; our bots are given the game instead, so the
//!   last move is recovered by replaying which rule made each of the bot's earlier moves.
//! - The listing makes a `new Random()` for each use of rule 4 and draws a coin a row from it;
//!   we treat each coin as fair and independent, which is what the code intends (a time-seeded
//!   .NET `Random` made in a tight loop repeats itself, which would skew the post's own
//!   50,000-game figures).
//!
//! On boards larger than 3x3 the listing's code runs unchanged (it is written for N), but it is
//! silent on a few things that only show there; the readings taken:
//! - Rule 4 walks every row, the middle one too, whose two diagonal cells are one, the centre
//!   (always taken by then, by rule 3): the listing tries it twice and passes on; here it is
//!   tried once, with the same result.
//! - Rule 4's test for a full diagonal reads counters that its `Play` updates only when the
//!   move does not win; a winning move ends the game, so the counters are the marks on each
//!   diagonal whenever they are read, and we count the marks.
//! - Rule 5 may put down up to N marks in one turn (every `j` of the first `i` that reaches an
//!   empty cell); each such turn is one forfeit, however many marks.
//! - The listing's main loop stops only on a full board or on a win that its `Play` reports;
//!   a turn of rule 5 that completes a line is not reported as a win there, and is a forfeit
//!   here anyway (rule 1 would have found a single winning mark first).
//! - The listing takes any odd N; the engine holds 128 cells, so 13x13 (169 cells) and larger
//!   are refused, with a message that says so. [`Square`] holds up to 11 x 11 in the engine's
//!   128-bit masks.

mod scan;
mod square;
#[cfg(test)]
mod tests;

use std::cell::RefCell;

use self::square::{MAX_SIZE, Replayed, Square};
use super::{Bot, BotError, Choice, DependsOn, Turn};
use crate::Game;
use crate::board::{Cell, Player};
use crate::game::{MAX_CELLS, Mask};
use crate::history::History;

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
#[derive(Clone, Debug)]
pub struct Marcelo {
    square: Square,
    /// The last history replayed for the bot's last move, kept because an audit asks about
    /// histories that share all but their last few moves.
    replayed: RefCell<Replayed>,
    /// The last board `choose` was asked about (its size, the bot's marks, then the other's)
    /// and whether rules 1 to 4 played there: an audit asks `depends_on` of the same board
    /// next.
    asked: std::cell::Cell<Option<(usize, Mask, Mask, bool)>>,
}

impl Default for Marcelo {
    fn default() -> Marcelo {
        Marcelo {
            square: Square::new(3).expect("3 is odd and small"),
            replayed: RefCell::default(),
            asked: std::cell::Cell::new(None),
        }
    }
}

impl Marcelo {
    /// Readies the listing's board for `game`, which [`Bot::plays`] has accepted: kept from the
    /// last question, as a bot is asked about one game many times.
    fn ready(&mut self, game: Game) {
        if self.square.n != game.rows() {
            self.square = Square::new(game.rows()).expect("an odd size that Bot::plays accepted");
        }
    }

    /// The bot's own marks and its opponent's, as masks of the listing's board.
    fn marks(game: &History) -> (Mask, Mask) {
        let position = game.position();
        let me = position.to_move();
        (position.mask(me), position.mask(!me))
    }
}

impl Bot for Marcelo {
    fn name(&self) -> &str {
        "marcelo"
    }

    /// The listing's boards that fit the engine: N x N for an odd N, N in a row, at most
    /// 128 cells (3x3, 5x5, 7x7, 9x9, 11x11).
    fn plays(&self, game: Game) -> Result<(), BotError> {
        let n = game.rows();
        if game.is_square() && n % 2 == 1 && game.k() == n && n <= MAX_SIZE {
            return Ok(());
        }
        Err(BotError {
            message: format!(
                "marcelo plays N x N boards with N in a row for an odd N (3x3, 5x5, 7x7, 9x9, \
                 11x11), not {game}: its listing takes an odd board size and wins with a full \
                 row, column or diagonal (13x13 and larger are listed too, but have more than \
                 {MAX_CELLS} cells, more than the engine holds)"
            ),
        })
    }

    /// Its last move from rules 1 to 4, which rule 5 plays away from: the board and that
    /// cell are all that decide its next turns.
    fn depends_on(&self, game: &History) -> DependsOn {
        let fresh;
        let square = if self.square.n == game.game().rows() {
            &self.square
        } else {
            fresh = Square::new(game.game().rows()).expect("an odd size that Bot::plays accepted");
            &fresh
        };
        // A turn of rules 1 to 4 sets the last move afresh from the board: the one it replaces
        // decides nothing more, and histories that differ only there are one state.
        let (mine, theirs) = Marcelo::marks(game);
        let ruled = match self.asked.get() {
            Some((n, asked_mine, asked_theirs, ruled))
                if (n, asked_mine, asked_theirs) == (square.n, mine, theirs) =>
            {
                ruled
            }
            _ => square.rules_one_to_four(mine, theirs).is_some(),
        };
        if ruled {
            return DependsOn::Board;
        }
        let moves = game.moves().iter().map(|c| c.index());
        DependsOn::BoardAnd(square.last_move_after(moves, &mut self.replayed.borrow_mut()) as u64)
    }

    /// Rule 2 marks the first cell that completes the opponent's line whenever rule 1 finds
    /// none of its own.
    fn blocks_threats(&self) -> bool {
        true
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let mut choices = Vec::new();
        self.choose_into(game, &mut choices)?;
        Ok(choices)
    }

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        self.ready(game.game());
        let square = &self.square;
        let (mine, theirs) = Marcelo::marks(game);
        let cell = |index: usize| Cell::new(index).expect("a cell of a board of at most MAX_CELLS");
        let pick = square.rules_one_to_four(mine, theirs);
        self.asked
            .set(Some((square.n, mine, theirs, pick.is_some())));
        if let Some(pick) = pick {
            choices.extend(pick.choices().map(|(index, probability)| Choice {
                turn: Turn::Mark(cell(index)),
                probability,
            }));
            return Ok(());
        }
        let empty = square.all() & !(mine | theirs);
        let moves = game.moves().iter().map(|c| c.index());
        let last = square.last_move_after(moves, &mut self.replayed.borrow_mut());
        let turn = match square.far_from(empty, last).as_slice() {
            [] => Turn::Nothing,
            [one] => Turn::Mark(cell(*one)),
            several => Turn::Several(several.iter().map(|&i| cell(i)).collect()),
        };
        choices.push(Choice::certain(turn));
        Ok(())
    }
}
