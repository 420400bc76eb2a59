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

use std::cell::RefCell;

use super::{Bot, BotError, Choice, DependsOn, Turn};
use crate::Game;
use crate::board::{Cell, Player};
use crate::game::{MAX_CELLS, Mask};
use crate::history::History;
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

/// A history replayed by [`Square::last_move_after`]: its moves, and the bot's last move after
/// each of them.
#[derive(Clone, Debug, Default)]
struct Replayed {
    /// The board's size and the bot's side (0 for X) it was replayed for.
    n: usize,
    me: usize,
    moves: Vec<usize>,
    last: Vec<usize>,
    /// Each side's marks after each move.
    marks: Vec<[Mask; 2]>,
}

/// The most rows the listing's board may have here: its cells fit in a [`Mask`], bit
/// `row * N + column`.
pub(crate) const MAX_SIZE: usize = 11;

/// The marks one turn of rule 5 puts down, in order: at most one for each `j`, N + 1 in all.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Placed {
    cells: [usize; MAX_SIZE + 1],
    len: usize,
}

impl Placed {
    fn push(&mut self, cell: usize) {
        self.cells[self.len] = cell;
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

/// What rules 1 to 4 play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// This cell.
    Cell(usize),
    /// One of these two, by rule 4's coin: the main diagonal's cell, then the other's.
    Coin(usize, usize),
}

impl Pick {
    /// Each cell played, with its probability (without a vector: an audit asks millions of
    /// times).
    fn choices(self) -> impl Iterator<Item = (usize, Ratio)> {
        const HALF: Ratio = Ratio::new(1, 2);
        let (pair, count) = match self {
            Pick::Cell(cell) => ([(cell, Ratio::ONE), (cell, Ratio::ZERO)], 1),
            Pick::Coin(main, anti) => ([(main, HALF), (anti, HALF)], 2),
        };
        pair.into_iter().take(count)
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
    /// The same lines in 64 bits, on a board that fits them (7x7 and smaller), where the
    /// scans for a completing cell, most of an audit's time, cost half as much.
    narrow: Option<[u64; 2 * MAX_SIZE + 2]>,
}

/// What the scan for a completing cell needs of a mask, in 64 or 128 bits.
trait Bits:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    fn lowest(self) -> usize;
    /// One less, wrapping: no bits to all of them.
    fn less_one(self) -> Self;
    /// Every bit if `yes`, none otherwise.
    fn all_if(yes: bool) -> Self;
}

/// The same few lines for both widths.
macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            const ZERO: $t = 0;
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn less_one(self) -> $t {
                self.wrapping_sub(1)
            }
            fn all_if(yes: bool) -> $t {
                <$t>::from(yes).wrapping_neg()
            }
        }
    )*};
}

bits!(u64, u128);

/// The lowest empty cell that completes one of `lines` for `marks`.
fn completing<M: Bits>(lines: &[M], marks: M, empty: M) -> Option<usize> {
    let mut cells = M::ZERO;
    for &line in lines {
        let rest = line & !marks;
        // One cell left, and empty (so not none); `is_power_of_two` would count bits, in
        // software in the portable build. Without branches: which lines qualify is anyone's
        // guess.
        let single = (rest & rest.less_one() == M::ZERO) & (rest & empty != M::ZERO);
        cells = cells | (rest & M::all_if(single));
    }
    (cells != M::ZERO).then(|| cells.lowest())
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
        let narrow = (n * n <= 64).then(|| lines.map(|line| line as u64));
        Some(Square { n, lines, narrow })
    }

    fn lines(&self) -> &[Mask] {
        &self.lines[..2 * self.n + 2]
    }

    fn all(&self) -> Mask {
        Mask::MAX >> (MAX_CELLS - self.n * self.n)
    }

    /// The cell at `row`, `column` (which may lie off the board, as rule 5 reaches).
    fn at(&self, row: i64, column: i64) -> Option<usize> {
        let n = self.n as i64;
        ((0..n).contains(&row) && (0..n).contains(&column)).then(|| (row * n + column) as usize)
    }

    /// The lowest empty cell that completes a line of `marks`: the listing's row-major scan,
    /// which tries each cell and asks whether it wins.
    fn completing(&self, marks: Mask, empty: Mask) -> Option<usize> {
        let count = 2 * self.n + 2;
        match &self.narrow {
            // The board fits 64 bits: so do its masks.
            Some(lines) => completing(&lines[..count], marks as u64, empty as u64),
            None => completing(self.lines(), marks, empty),
        }
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
    pub(crate) fn far_from(&self, empty: Mask, last: usize) -> Placed {
        let n = self.n as i64;
        let (last_row, last_column) = ((last / self.n) as i64, (last % self.n) as i64);
        // The listing's loops start at N; an `i` (or `j`) that takes both signs off the board
        // reaches no cell, so the loops start at the largest that can.
        let reach = |at: i64| at.max(n - 1 - at);
        let mut empty = empty;
        let mut placed = Placed::default();
        for i in (0..=reach(last_row)).rev() {
            for j in (0..=reach(last_column)).rev() {
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
            if !placed.as_slice().is_empty() {
                break;
            }
        }
        placed
    }

    /// The bot's last move after `moves` (cells from the empty board, X first), as its own
    /// field would hold it: set by rules 1 to 4, never by rule 5; row 0, column 0 at first.
    #[cfg(test)]
    pub(crate) fn last_move(&self, moves: &[usize]) -> usize {
        self.last_move_after(moves.iter().copied(), &mut Replayed::default())
    }

    /// [`Square::last_move`], replaying only the moves after those `replayed` shares with
    /// `moves`, and keeping these in it.
    fn last_move_after(
        &self,
        moves: impl ExactSizeIterator<Item = usize>,
        replayed: &mut Replayed,
    ) -> usize {
        let me = moves.len() % 2;
        if (replayed.n, replayed.me) != (self.n, me) {
            *replayed = Replayed {
                n: self.n,
                me,
                ..Replayed::default()
            };
        }
        let length = moves.len();
        let mut moves = moves.enumerate();
        // The moves replayed already: only their count is needed.
        let mut shared = 0;
        let mut diverging = None;
        for (ply, cell) in moves.by_ref() {
            if replayed.moves.get(ply) != Some(&cell) {
                diverging = Some((ply, cell));
                break;
            }
            shared = ply + 1;
        }
        let Some(first) = diverging else {
            return if length == 0 {
                0
            } else {
                replayed.last[length - 1]
            };
        };
        replayed.moves.truncate(shared);
        replayed.last.truncate(shared);
        replayed.marks.truncate(shared);
        let (mut marks, mut last) = match shared {
            0 => ([0, 0], 0),
            _ => (replayed.marks[shared - 1], replayed.last[shared - 1]),
        };
        for (ply, cell) in std::iter::once(first).chain(moves) {
            let side = ply % 2;
            if side == me
                && self
                    .rules_one_to_four(marks[side], marks[1 - side])
                    .is_some()
            {
                last = cell;
            }
            marks[side] |= 1 << cell;
            replayed.moves.push(cell);
            replayed.last.push(last);
            replayed.marks.push(marks);
        }
        last
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
    /// [`MAX_CELLS`] cells (3x3, 5x5, 7x7, 9x9, 11x11).
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
        assert_eq!(square.far_from(empty, 0).as_slice(), [24, 23, 22, 21, 20]);
        // With row 5 partly taken, the marks skip the taken cells.
        let (_, x, o) = drawn("O.... ..... ..X.. ..... .X.O.");
        let empty = ((1 << 25) - 1) & !(x | o);
        assert_eq!(square.far_from(empty, 0).as_slice(), [24, 22, 20]);
        // 7x7, last move in the centre: i = 3 is the first to reach the board, up-left (sign
        // -1 first), along row 1 from column 1: four marks.
        let square = Square::new(7).unwrap();
        let empty = ((1 << 49) - 1) & !(1 << 24);
        assert_eq!(square.far_from(empty, 24).as_slice(), [0, 1, 2, 3]);
        // Row 1 all taken: each j's down-right cell instead, row 7 from column 7 leftwards.
        let empty = empty & !0b111_1111;
        assert_eq!(square.far_from(empty, 24).as_slice(), [48, 47, 46, 45]);
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
        assert_eq!(square.far_from(empty, 6).as_slice(), [23, 22, 21]);
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

    /// What the bot does after `moves` (cells 1..N*N) on `game`, as cell numbers with
    /// probabilities.
    fn on(game: &str, moves: &[usize]) -> Vec<(Turn, String)> {
        let mut played = History::empty(game.parse().unwrap());
        for &number in moves {
            played.play(Cell::new(number - 1).unwrap()).unwrap();
        }
        Marcelo::default()
            .choose(&played)
            .unwrap()
            .into_iter()
            .map(|c| (c.turn, c.probability.to_string()))
            .collect()
    }

    fn at(number: usize) -> Cell {
        Cell::new(number - 1).unwrap()
    }

    #[test]
    fn plays_odd_squares_with_n_in_a_row_and_says_what_else_it_does_not() {
        let bot = Marcelo::default();
        for game in ["3x3", "5x5", "7x7", "9x9", "11x11"] {
            assert!(bot.plays(game.parse().unwrap()).is_ok(), "{game}");
        }
        for game in ["4x4", "6x6", "5x5k4", "3x5", "8x8"] {
            let message = bot.plays(game.parse().unwrap()).unwrap_err().message;
            assert!(
                message.contains(game) && message.contains("odd"),
                "{message}"
            );
        }
    }

    #[test]
    fn plays_the_rules_on_five_by_five_and_seven_by_seven_through_the_game() {
        // Rule 3 as X, then rule 4's coin of row 1 once O took a cell off the diagonals.
        assert_eq!(on("5x5", &[]), [(Turn::Mark(at(13)), "1/1".into())]);
        assert_eq!(
            on("5x5", &[13, 2]),
            [
                (Turn::Mark(at(1)), "1/2".into()),
                (Turn::Mark(at(5)), "1/2".into())
            ]
        );
        // Rule 2 as O on 7x7: X holds six of row 7, the last one empty.
        assert_eq!(
            on("7x7", &[43, 25, 44, 1, 45, 7, 46, 9, 47, 13, 48]),
            [(Turn::Mark(at(49)), "1/1".into())]
        );
        // Rule 5 through the game on 5x5: X 13 (rule 3), O 1, X 5 (rule 4, row 1), O 21,
        // X 7 (rule 4, row 2: 7 or 9, here 7), O 19, X 9 (row 2's other), O 25 fills the main
        // diagonal (1 7 13 19 25). X's last move is 9 (row 2, column 4): i = 5 and 4 reach
        // nothing; i = 3 reaches row 5 going down-right for j = 1 and 0 only: 25 is taken,
        // 24 is marked. One mark, a legal move.
        assert_eq!(
            on("5x5", &[13, 1, 5, 21, 7, 19, 9, 25]),
            [(Turn::Mark(at(24)), "1/1".into())]
        );
        // Several marks in one turn: X 13, O 1, X 5 (row 1's free diagonal cell), O 17, X 9
        // (row 2's coin), O 21 fills the anti-diagonal (5 9 13 17 21). Rule 5 from 9 (row 2,
        // column 4): i = 3 reaches row 5 going down-right, where j = 1 marks 25 and j = 0
        // marks 24.
        assert_eq!(
            on("5x5", &[13, 1, 5, 17, 9, 21]),
            [(Turn::Several(vec![at(25), at(24)]), "1/1".into())]
        );
    }

    /// A 9x9 board drawn a row a word: `.` for each cell but those listed, X's then O's
    /// (cells 1..81).
    fn nine(x: &[usize], o: &[usize]) -> String {
        let mut cells = vec!['.'; 81];
        for &n in x {
            cells[n - 1] = 'X';
        }
        for &n in o {
            cells[n - 1] = 'O';
        }
        let rows: Vec<String> = cells.chunks(9).map(|row| row.iter().collect()).collect();
        rows.join(" ")
    }

    #[test]
    fn rules_one_to_three_on_nine_by_nine() {
        // Rule 1: O holds eight of row 1 and X eight of row 9; O wins at 9 before blocking 81.
        let board = nine(&[73, 74, 75, 76, 77, 78, 79, 80], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(o_plays(&board), certain(9));
        // Rule 2: no line of O's to finish, so O blocks X's row 9 at 81, centre or not.
        let board = nine(
            &[73, 74, 75, 76, 77, 78, 79, 80],
            &[1, 3, 5, 7, 9, 19, 23, 27],
        );
        assert_eq!(o_plays(&board), certain(81));
        // And X's eight of column 1 (1 10 19 ... 64), with 73 empty.
        let board = nine(
            &[1, 10, 19, 28, 37, 46, 55, 64],
            &[2, 12, 22, 33, 44, 54, 65, 81],
        );
        assert_eq!(o_plays(&board), certain(73));
        // Rule 3: the centre, row 5 and column 5, is cell 41.
        assert_eq!(o_plays(&nine(&[1], &[])), certain(41));
        assert_eq!(o_plays(&nine(&[81, 9], &[73])), certain(41));
    }

    #[test]
    fn rule_four_walks_down_the_diagonals_on_nine_by_nine() {
        // X in the centre: row 1's cells 1 and 9, a coin.
        assert_eq!(
            o_plays(&nine(&[41], &[])),
            Some(vec![(1, "1/2".into()), (9, "1/2".into())])
        );
        // One of row 1's taken: the other, whatever the coin says.
        assert_eq!(o_plays(&nine(&[41], &[1])), certain(9));
        assert_eq!(o_plays(&nine(&[41, 9], &[5])), certain(1));
        // Rows 1 to 3 taken (1 9, 11 17, 21 25): row 4's coin, cells 31 and 33.
        let board = nine(&[41, 1, 17, 25], &[9, 11, 21]);
        assert_eq!(
            o_plays(&board),
            Some(vec![(31, "1/2".into()), (33, "1/2".into())])
        );
        // Rows 1 to 4 taken and row 5's two cells are the centre, taken: row 6's, 49 and 51.
        let board = nine(&[41, 1, 17, 25, 33], &[9, 11, 21, 31]);
        assert_eq!(
            o_plays(&board),
            Some(vec![(51, "1/2".into()), (49, "1/2".into())])
        );
        // The main diagonal (1 11 21 ... 81) full: nothing from rule 4.
        let board = nine(&[1, 21, 41, 61, 81], &[11, 31, 51, 71]);
        assert_eq!(o_plays(&board), None);
    }

    #[test]
    fn rule_five_puts_several_marks_down_on_nine_by_nine() {
        // Last move in the centre (row 5, column 5): i = 4 is the first to reach the board,
        // up-left (sign -1 first), along row 1 from column 1 for j = 4 down to 0: five marks.
        let square = Square::new(9).unwrap();
        let empty = ((1 << 81) - 1) & !(1 << 40);
        assert_eq!(square.far_from(empty, 40).as_slice(), [0, 1, 2, 3, 4]);
        // Row 1 all taken: each j's down-right cell instead, row 9 from column 9 leftwards.
        let empty = empty & !0b1_1111_1111;
        assert_eq!(square.far_from(empty, 40).as_slice(), [80, 79, 78, 77, 76]);
    }

    #[test]
    fn plays_the_rules_on_nine_by_nine_through_the_game() {
        assert_eq!(on("9x9", &[]), [(Turn::Mark(at(41)), "1/1".into())]);
        assert_eq!(
            on("9x9", &[41, 2]),
            [
                (Turn::Mark(at(1)), "1/2".into()),
                (Turn::Mark(at(9)), "1/2".into())
            ]
        );
        // X 41 (rule 3); then each time O takes a row's anti-diagonal cell, X takes its main
        // diagonal cell by rule 4: 1, 11, 21, 31, 51, 61 and 71 (row 7's coin, the other cell
        // 65 being O's). O 81 blocks the main diagonal and fills it: rules 1 to 4 play
        // nothing, and rule 5 starts from X's last move, 71 (row 8, column 8). i = 7 reaches
        // row 1 going up-left; j = 7 finds cell 1 taken, and j = 6 down to 0 mark 2 to 8:
        // seven marks in one turn.
        let game = [41, 9, 1, 17, 11, 25, 21, 33, 31, 49, 51, 57, 61, 65, 71, 81];
        assert_eq!(
            on("9x9", &game),
            [(Turn::Several((2..=8).map(at).collect()), "1/1".into())]
        );
    }

    #[test]
    fn depends_on_its_last_move_from_rules_one_to_four() {
        let mut game = History::empty("5x5".parse().unwrap());
        let bot = Marcelo::default();
        // Rule 3 plays the centre: what came before decides nothing more.
        assert_eq!(bot.depends_on(&game), DependsOn::Board);
        for number in [1, 13, 7, 5, 19, 9, 25] {
            game.play(at(number)).unwrap();
        }
        // X filled the first diagonal: no rule before 5 plays for O, which plays far from 9
        // (index 8), its last move by rule 4.
        assert_eq!(bot.depends_on(&game), DependsOn::BoardAnd(8));
    }

    #[test]
    fn blocks_every_lone_threat_on_every_board_it_plays() {
        // What `blocks_threats` declares, on random positions of each size: the opponent holds
        // a line but one cell, the rest of both sides' marks fall anywhere; where that cell is
        // the only one completing a line of the opponent's, every choice marks it or completes
        // a line of the bot's.
        let mut rng = crate::rng::SplitMix64::new(15);
        let mut bot = Marcelo::default();
        // Positions checked, for each size.
        let mut checked = [0; 5];
        for trial in 0..4_000 {
            let n = [3, 5, 7, 9, 11][trial % 5];
            let mnk: Game = format!("{n}x{n}").parse().unwrap();
            let geometry = History::empty(mnk).position().geometry();
            let lines = geometry.lines();
            let line = lines[rng.below(lines.len() as u64) as usize];
            let cells: Vec<usize> = (0..n * n).filter(|&c| line >> c & 1 == 1).collect();
            let hole = cells[rng.below(n as u64) as usize];
            let mut theirs: Vec<usize> = cells.into_iter().filter(|&c| c != hole).collect();
            let mut free: Vec<usize> = (0..n * n)
                .filter(|&c| line >> c & 1 == 0 || c == hole)
                .collect();
            let mut take = |rng: &mut crate::rng::SplitMix64, hole_too: bool| loop {
                let cell = free.swap_remove(rng.below(free.len() as u64) as usize);
                if cell != hole || hole_too {
                    return cell;
                }
                free.push(cell);
            };
            // A few more of the opponent's marks, and as many of the bot's as the turn needs:
            // the bot is X when the counts are equal.
            for _ in 0..rng.below(n as u64) {
                theirs.push(take(&mut rng, false));
            }
            let bot_is_x = rng.below(2) == 0;
            let mine_count = if bot_is_x {
                theirs.len()
            } else {
                theirs.len() - 1
            };
            let mine: Vec<usize> = (0..mine_count).map(|_| take(&mut rng, false)).collect();
            // X's marks and O's alternate, in the order drawn.
            let (xs, os) = if bot_is_x {
                (&mine, &theirs)
            } else {
                (&theirs, &mine)
            };
            let mask = |cells: &[usize]| cells.iter().fold(0 as Mask, |m, &c| m | 1 << c);
            if geometry.has_line(mask(xs)) || geometry.has_line(mask(os)) {
                continue;
            }
            let mut game = History::empty(mnk);
            for i in 0..xs.len().max(os.len()) {
                for cell in [xs.get(i), os.get(i)].into_iter().flatten() {
                    game.play_unchecked(Cell::new(*cell).unwrap());
                }
            }
            let position = game.position();
            let me = position.to_move();
            let empty = position.empty_mask();
            let completes = |marks: Mask, cell: usize| {
                empty >> cell & 1 == 1 && geometry.makes_line(marks | 1 << cell, cell)
            };
            let threats: Vec<usize> = (0..n * n)
                .filter(|&c| completes(position.mask(!me), c))
                .collect();
            if threats != [hole] {
                continue;
            }
            checked[trial % 5] += 1;
            for choice in bot.choose(&game).unwrap() {
                let Turn::Mark(cell) = choice.turn else {
                    panic!("{:?}: {:?}", game.moves(), choice.turn);
                };
                let cell = cell.index();
                assert!(
                    cell == hole || completes(position.mask(me), cell),
                    "{n}x{n} after {:?}: {cell} leaves {hole} open",
                    game.moves()
                );
            }
        }
        assert!(
            checked.iter().all(|&n| n > 300),
            "positions with a lone threat on 3x3 to 11x11: {checked:?}"
        );
    }
}
