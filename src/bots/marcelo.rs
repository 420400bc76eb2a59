//! `marcelo`: a port of the C# bot of Marcelo's blog post "Don't lose on Tic-Tac-Toe 99% of the
//! time with this simple strategy!".
//!
//! The listing plays an N x N board for any odd N, a line being N in a row; `ttt` plays it on
//! 3x3, and [`Square`] holds its rules for any odd N up to [`MAX_SIZE`], as the listing's loops
//! run for that N. The rules, in the listing's order, each tried only when the ones before it
//! played nothing:
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
//! Readings, where the listing leaves a choice (the same for every N; the code itself is
//! written for any N and needed no reading for larger boards):
//! - The listing always plays the letter 'o' and the human 'x', whoever starts; under our rules
//!   X moves first, so the bot plays whichever mark is to move, with its logic unchanged.
//! - The listing keeps its last move in a field; our bots are given the game instead, so the
//!   last move is recovered by replaying which rule made each of the bot's earlier moves.
//! - The listing makes a `new Random()` for each use of rule 4 and draws a coin a row from it;
//!   we treat each coin as fair and independent, which is what the code intends (a time-seeded
//!   .NET `Random` made in a tight loop repeats itself, which would skew the post's own
//!   50,000-game figures).
//! - The cells fit a 128-bit mask here, hence N at most 11; the listing has no bound.

use super::{Bot, BotError, Choice, Turn, sides};
use crate::board::{Cell, Player};
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
#[derive(Clone, Copy, Debug)]
pub struct Marcelo {
    square: Square,
}

impl Default for Marcelo {
    fn default() -> Marcelo {
        Marcelo {
            square: Square::new(3).expect("3 is odd and small"),
        }
    }
}

/// The most rows the listing's board may have here: its cells fit in a `u128`.
pub(crate) const MAX_SIZE: usize = 11;

/// A set of cells of an N x N board, bit `row * N + column`.
type Mask = u128;

/// What rules 1 to 4 play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// This cell.
    Cell(usize),
    /// One of these two, by rule 4's coin: the main diagonal's cell, then the other's.
    Coin(usize, usize),
}

impl Pick {
    /// Each cell played, with its probability.
    fn choices(self) -> Vec<(usize, Ratio)> {
        match self {
            Pick::Cell(cell) => vec![(cell, Ratio::ONE)],
            Pick::Coin(main, anti) => {
                let half = Ratio::new(1, 2);
                vec![(main, half), (anti, half)]
            }
        }
    }
}

/// The listing's board: N x N for an odd N, a line being N in a row (rows, columns and the two
/// diagonals), cells numbered row-major from 0.
///
/// The rules are written for any such N, as the listing's loops run for it; the 3x3 bot plays
/// them with N = 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Square {
    n: usize,
    /// The rows, then the columns, then the diagonal from the top left, then the other.
    lines: [Mask; 2 * MAX_SIZE + 2],
}

impl Square {
    /// The board with `n` rows and columns; `None` unless `n` is odd and at most
    /// [`MAX_SIZE`] (the listing refuses an even size).
    pub(crate) fn new(n: usize) -> Option<Square> {
        if n % 2 == 0 || n > MAX_SIZE {
            return None;
        }
        let bit = |row: usize, column: usize| 1 << (row * n + column);
        let mut lines = [0; 2 * MAX_SIZE + 2];
        for i in 0..n {
            for j in 0..n {
                lines[i] |= bit(i, j);
                lines[n + i] |= bit(j, i);
            }
            lines[2 * n] |= bit(i, i);
            lines[2 * n + 1] |= bit(i, n - 1 - i);
        }
        Some(Square { n, lines })
    }

    fn lines(&self) -> &[Mask] {
        &self.lines[..2 * self.n + 2]
    }

    fn all(&self) -> Mask {
        Mask::MAX >> (128 - self.n * self.n)
    }

    /// The cell at `row`, `column` (which may lie off the board, as rule 5 reaches).
    fn at(&self, row: i64, column: i64) -> Option<usize> {
        let n = self.n as i64;
        ((0..n).contains(&row) && (0..n).contains(&column)).then(|| (row * n + column) as usize)
    }

    /// The lowest empty cell that completes a line of `marks`: the listing's row-major scan,
    /// which tries each cell and asks whether it wins.
    fn completing(&self, marks: Mask, empty: Mask) -> Option<usize> {
        let cells = self
            .lines()
            .iter()
            .map(|line| line & !marks)
            // One cell left, and empty; `is_power_of_two` would count bits, in software in
            // the portable build.
            .filter(|&rest| rest != 0 && rest & (rest - 1) == 0 && rest & empty != 0)
            .fold(0, |cells, rest| cells | rest);
        (cells != 0).then(|| cells.trailing_zeros() as usize)
    }

    /// Rules 1 to 4 for the side holding `mine` against `theirs`: what they play, or `None`
    /// when they play nothing.
    pub(crate) fn rules_one_to_four(&self, mine: Mask, theirs: Mask) -> Option<Pick> {
        let empty = self.all() & !(mine | theirs);
        let centre = (self.n / 2) * self.n + self.n / 2;
        if let Some(cell) = self
            .completing(mine, empty)
            .or_else(|| self.completing(theirs, empty))
            .or_else(|| (empty >> centre & 1 == 1).then_some(centre))
        {
            return Some(Pick::Cell(cell));
        }
        // The listing counts the marks on each diagonal, and keeps off both once either is full.
        let diagonals = &self.lines()[2 * self.n..];
        if diagonals.iter().any(|&line| line & empty == 0) {
            return None;
        }
        // A coin for each row, down the board, picks which diagonal's cell to try first; a row
        // whose two cells are taken passes to the next, whatever the coin said.
        let n = self.n as i64;
        for row in 0..n {
            let main = self.at(row, row)?;
            let anti = self.at(row, n - 1 - row)?;
            let free = |cell: usize| empty >> cell & 1 == 1;
            match (free(main), free(anti)) {
                (false, false) => continue,
                (true, false) => return Some(Pick::Cell(main)),
                (false, true) => return Some(Pick::Cell(anti)),
                // The middle row's two cells are one: the centre.
                (true, true) if main == anti => return Some(Pick::Cell(main)),
                (true, true) => return Some(Pick::Coin(main, anti)),
            }
        }
        None
    }

    /// Rule 5, with its quirks: every mark it puts down, in order, on a board whose `empty`
    /// cells are those given.
    pub(crate) fn far_from(&self, empty: Mask, last: usize) -> Vec<usize> {
        let n = self.n as i64;
        let (last_row, last_column) = ((last / self.n) as i64, (last % self.n) as i64);
        let mut empty = empty;
        let mut placed = Vec::new();
        for i in (0..=n).rev() {
            for j in (0..=n).rev() {
                for sign in [-1, 1] {
                    if let Some(cell) = self.at(last_row + sign * i, last_column + sign * j)
                        && empty >> cell & 1 == 1
                    {
                        empty &= !(1 << cell);
                        placed.push(cell);
                        // Leaves the loop of signs only: the next `j` may mark again.
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

    /// The bot's last move after `moves` (cells from the empty board, X first), as its own
    /// field would hold it: set by rules 1 to 4, never by rule 5; row 0, column 0 at first.
    pub(crate) fn last_move(&self, moves: &[usize]) -> usize {
        let me = moves.len() % 2;
        let mut marks: [Mask; 2] = [0, 0];
        let mut last = 0;
        for (ply, &cell) in moves.iter().enumerate() {
            let side = ply % 2;
            if side == me
                && self
                    .rules_one_to_four(marks[side], marks[1 - side])
                    .is_some()
            {
                last = cell;
            }
            marks[side] |= 1 << cell;
        }
        last
    }
}

impl Bot for Marcelo {
    fn name(&self) -> &str {
        "marcelo"
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        let board = game.board();
        let (me, them) = sides(board);
        let mask = |player: Player| Mask::from(board.marks(player).bits());
        let cell = |index: usize| Cell::from_index(index).expect("a cell of the 3x3 board");
        if let Some(pick) = self.square.rules_one_to_four(mask(me), mask(them)) {
            return Ok(pick
                .choices()
                .into_iter()
                .map(|(index, probability)| Choice {
                    turn: Turn::Mark(cell(index)),
                    probability,
                })
                .collect());
        }
        let history: Vec<usize> = game.moves().iter().map(|c| c.index()).collect();
        let empty = Mask::from(board.empty_cells().bits());
        let last = self.square.last_move(&history);
        let turn = match self.square.far_from(empty, last).as_slice() {
            [] => Turn::Nothing,
            [one] => Turn::Mark(cell(*one)),
            several => Turn::Several(several.iter().map(|&i| cell(i)).collect()),
        };
        Ok(vec![Choice::certain(turn)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(moves: &str) -> Vec<(Turn, String)> {
        super::super::answers(&mut Marcelo::default(), moves)
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

    /// The marks of X and of O on a board drawn a row a word, `.` for an empty cell.
    fn drawn(rows: &str) -> (Square, Mask, Mask) {
        let rows: Vec<&str> = rows.split_whitespace().collect();
        let square = Square::new(rows.len()).unwrap();
        let (mut x, mut o) = (0, 0);
        for (i, ch) in rows.concat().chars().enumerate() {
            match ch {
                'X' => x |= 1 << i,
                'O' => o |= 1 << i,
                _ => assert_eq!(ch, '.'),
            }
        }
        (square, x, o)
    }

    /// Rules 1 to 4 for O on the board drawn, as cell numbers 1..N*N with probabilities.
    fn o_plays(rows: &str) -> Option<Vec<(usize, String)>> {
        let (square, x, o) = drawn(rows);
        square.rules_one_to_four(o, x).map(|pick| {
            pick.choices()
                .into_iter()
                .map(|(cell, p)| (cell + 1, p.to_string()))
                .collect()
        })
    }

    fn certain(cell: usize) -> Option<Vec<(usize, String)>> {
        Some(vec![(cell, "1/1".to_string())])
    }

    #[test]
    fn only_odd_sizes_that_fit() {
        assert!(Square::new(3).is_some() && Square::new(9).is_some());
        assert!(Square::new(4).is_none() && Square::new(13).is_none());
    }

    #[test]
    fn rule_one_wins_at_the_first_cell_of_the_scan_before_blocking() {
        // 5x5: O holds four of row 1 (wins at 5) and four of column 3 (wins at 23); X four of
        // row 5 (blocked at 23). The row-major scan wins at 5.
        let board = "OOOO. X.O.. X.O.. X.O.. XX.XX";
        assert_eq!(o_plays(board), certain(5));
        // Without row 1's win, 23 wins (and blocks).
        let board = "OOOX. X.O.. X.O.. ..O.. XX.XX";
        assert_eq!(o_plays(board), certain(23));
        // 7x7: six O on the anti-diagonal, its last cell (row 7, column 1) empty.
        let board = "......O .....O. ....O.. ...O... ..O.... .O..... .XXXXXX";
        assert_eq!(o_plays(board), certain(43));
    }

    #[test]
    fn rule_two_blocks_before_the_centre() {
        // 5x5: X holds four of column 1, with the centre empty.
        assert_eq!(o_plays("X.... X.... ..... X...O X...O"), certain(11));
        // 7x7: X holds six of the main diagonal; the centre is X's.
        let board = "X...... .X..... ..X.... ...X... ....X.. .....X. ......O";
        assert_eq!(
            o_plays(board),
            None,
            "the diagonal's last cell is O's: no block"
        );
        let board = "X...... .X..... ..X.... ...X... ....X.. .....X. O......";
        assert_eq!(o_plays(board), certain(49));
    }

    #[test]
    fn rule_three_takes_the_centre() {
        assert_eq!(o_plays("..... ..... ..... ..... X...."), certain(13));
        assert_eq!(
            o_plays("....... ....... ....... ....... ....... ....... X......"),
            certain(25)
        );
    }

    #[test]
    fn rule_four_tosses_a_coin_a_row_down_the_diagonals() {
        // 5x5, X in the centre: row 1's cells 1 and 5, one each way.
        assert_eq!(
            o_plays("..... ..... ..X.. ..... ....."),
            Some(vec![(1, "1/2".into()), (5, "1/2".into())])
        );
        // Row 1's two taken: the coin of row 2, cells 7 and 9.
        assert_eq!(
            o_plays("X...O ..... ..X.. ..... ....X"),
            Some(vec![(7, "1/2".into()), (9, "1/2".into())])
        );
        // One of row 1's free: whatever the coin says, that one.
        assert_eq!(o_plays("X.... ..... ..X.. ..... ....."), certain(5));
        // 7x7: rows 1 and 2 taken, row 3's cells 17 and 19.
        let board = "X.....O .O...X. ....... ...X... ....... ....... ......X";
        assert_eq!(
            o_plays(board),
            Some(vec![(17, "1/2".into()), (19, "1/2".into())])
        );
    }

    #[test]
    fn rule_four_keeps_off_the_diagonals_once_one_is_full() {
        // 5x5: the main diagonal full, with no line of either side anywhere.
        assert_eq!(o_plays("X.... .O... ..X.. ...O. ....X"), None);
        // 7x7: the anti-diagonal full.
        let board = "......X .....O. ....X.. ...O... ..X.... .O..... X......";
        assert_eq!(o_plays(board), None);
    }

    #[test]
    fn rule_five_marks_once_for_each_column_offset_that_finds_an_empty_cell() {
        // 5x5, last move at row 1, column 1: i = 5 reaches nothing, i = 4 reaches row 5 going
        // down-right, and every j from 4 to 0 marks a cell of it: five marks in one turn.
        let (square, x, o) = drawn("O.... ..... ..X.. ..... .....");
        let empty = ((1 << 25) - 1) & !(x | o);
        assert_eq!(square.far_from(empty, 0), [24, 23, 22, 21, 20]);
        // With row 5 partly taken, the marks skip the taken cells.
        let (_, x, o) = drawn("O.... ..... ..X.. ..... .X.O.");
        let empty = ((1 << 25) - 1) & !(x | o);
        assert_eq!(square.far_from(empty, 0), [24, 22, 20]);
        // 7x7, last move in the centre: i = 3 is the first to reach the board, up-left (sign
        // -1 first), along row 1 from column 1: four marks.
        let square = Square::new(7).unwrap();
        let empty = ((1 << 49) - 1) & !(1 << 24);
        assert_eq!(square.far_from(empty, 24), [0, 1, 2, 3]);
        // Row 1 all taken: each j's down-right cell instead, row 7 from column 7 leftwards.
        let empty = empty & !0b111_1111;
        assert_eq!(square.far_from(empty, 24), [48, 47, 46, 45]);
    }

    #[test]
    fn the_last_move_is_the_last_one_rules_one_to_four_made_and_rule_five_starts_there() {
        let square = Square::new(5).unwrap();
        // Before any move of its own, row 1, column 1.
        assert_eq!(square.last_move(&[]), 0);
        // O, second, took the centre (rule 3).
        assert_eq!(square.last_move(&[0, 12, 24]), 12);
        // A game the bot plays as O: X 1, O 13 (rule 3), X 25, O 5 (rule 4: row 1's other
        // diagonal cell), X 19, O 7 (rule 4, row 2's coin), X 3. The main diagonal is full,
        // so rules 1 to 4 play nothing, and O's last move is still 7.
        let game = [0, 12, 24, 4, 18, 6, 2];
        let (mut x, mut o) = (0, 0);
        for (ply, cell) in game.iter().enumerate() {
            *[&mut x, &mut o][ply % 2] |= 1 << cell;
        }
        assert_eq!(square.rules_one_to_four(o, x), None);
        assert_eq!(square.last_move(&game), 6);
        // Rule 5 from row 2, column 2: i = 3 reaches row 5 down-right; j = 3 finds 25 taken,
        // then j = 2, 1, 0 mark 24, 23 and 22: three marks in one turn.
        let empty = ((1 << 25) - 1) & !(x | o);
        assert_eq!(square.far_from(empty, 6), [23, 22, 21]);
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
