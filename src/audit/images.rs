//! The walk by positions on boards that stand for all their images under the board's
//! symmetries, for a bot whose choices turn with the board ([`Bot::symmetric`]).
//!
//! Such a bot's choices at a board's image are the images of its choices, with the same
//! probabilities; so is the opponent's every reply, and the perfect style's optimal ones. The
//! games that follow a board are then those that follow any of its images, turned: the walk
//! lists each set of images once, as the first of them it meets, with the histories and chance
//! of all of them, and its figures (decision points, games, the odds against the random and
//! the perfect style, the worst case) are the walk's over every board. On 4x4 it meets a little
//! more than an eighth of the positions (boards that are their own image count once).
//!
//! What a report says about one board in particular is not kept so: which histories meet a
//! mistake at which image, or which image a worst-case line goes through. So the walk stops at
//! the first move of the bot that is not optimal ([`Rules::MERGES_IMAGES`]), and its report
//! stands only when the bot never loses and never forfeits (a side lost from the start is not
//! tried); otherwise the caller walks every board. The first board of a set that the walk
//! meets is the one the walk over every board lists first, so the shortest games it finds
//! would be that walk's too; they are not used.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::Halt;
use super::SideReport;
use super::positions::{self, Kept};
use super::rules::{Coded, Places, Rules};
use crate::board::{Cell, Cells, Player, Status};
use crate::bots::Bot;
use crate::game::Game;
use crate::history::History;
use crate::position::{POWERS, Position};
use crate::table::Table;
use crate::value::Evaluation;
use crate::value::{Probe, Value};

/// Audits `bot`, [symmetric](Bot::symmetric) and [memoryless](Bot::memoryless), playing
/// `side` of `game` (of at most 16 cells) by sets of images; `None` when the report would not
/// be the walk's over every board (a move that is not optimal, a loss, a forfeit), or the
/// walk by images could not finish (numbers too large, memory): the caller then walks every
/// board.
///
/// # Errors
///
/// [`Halt::Bot`] when the bot fails to answer.
pub(super) fn audit(
    bot: &mut dyn Bot,
    game: Game,
    table: &Table,
    side: Player,
) -> Result<Option<SideReport>, Halt> {
    debug_assert!(bot.symmetric() && bot.memoryless() && game.has_table());
    // A bot that never errs loses only where its side is lost from the start: there the
    // report would not stand, and the walk is not tried.
    let start = Rules::probe(Position::empty(game), table).value;
    let lost = match side {
        Player::X => start == Value::Loss,
        Player::O => start == Value::Win,
    };
    if lost {
        return Ok(None);
    }
    let report = match positions::audit::<Symmetric>(bot, game, table, side, 0) {
        Ok(report) => report,
        Err(Halt::OverMemory(_)) => None,
        Err(halt) => return Err(halt),
    };
    Ok(report.filter(|report| report.losing_games == 0 && report.illegal_games == 0))
}

/// A board of at most 16 cells that stands for its images: its codes under each symmetry, the
/// least of them its place's.
#[derive(Clone, Copy)]
pub(crate) struct Symmetric {
    position: Position,
    /// What a mark on each cell adds to the code of each image.
    powers: &'static Powers,
}

/// Per symmetry of the board, `3^i` for the cell `i` each cell turns to; a rectangle's 4
/// symmetries fill the 8 rows, the identity repeated.
type Powers = [[u32; 16]; 8];

/// The codes of a board's images, in the order of [`Powers`].
type Codes = [u32; 8];

/// `game`'s powers, made once per game a process walks.
fn powers(game: Game) -> &'static Powers {
    static MADE: OnceLock<Mutex<HashMap<Game, &'static Powers>>> = OnceLock::new();
    let mut made = MADE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    made.entry(game).or_insert_with(|| {
        let geometry = game.geometry();
        let turns = geometry.turns().len();
        let mut powers = [[0; 16]; 8];
        for (t, row) in powers.iter_mut().enumerate() {
            let t = if t < turns { t } else { 0 };
            for (cell, power) in row.iter_mut().enumerate().take(game.cells()) {
                *power = POWERS[geometry.turn_cell(t, cell)];
            }
        }
        // Leaked on purpose: 512 bytes a game, as the geometry is.
        Box::leak(Box::new(powers))
    })
}

/// The place of a set of images: its least code.
#[inline(always)]
fn least(codes: Codes) -> u32 {
    codes.into_iter().min().expect("8 codes")
}

impl Rules for Symmetric {
    type Table = Table;
    type Code = Codes;
    type Line = u64;
    type Places = Coded;
    const EVALUATE_AT_ONCE: bool = <Position as Rules>::EVALUATE_AT_ONCE;
    const REMEMBERS: bool = <Position as Rules>::REMEMBERS;
    const MERGES_IMAGES: bool = true;

    fn empty(game: Game) -> (Symmetric, Codes) {
        let position = Position::empty(game);
        (
            Symmetric {
                position,
                powers: powers(game),
            },
            [0; 8],
        )
    }
    fn of(game: &History) -> Symmetric {
        Symmetric {
            position: game.position(),
            powers: powers(game.game()),
        }
    }
    #[inline]
    fn cells(self) -> usize {
        Rules::cells(self.position)
    }
    #[inline]
    fn empty_cells(self) -> Cells {
        Rules::empty_cells(self.position)
    }
    #[inline]
    fn to_move(self) -> Player {
        Rules::to_move(self.position)
    }
    #[inline]
    fn status(self) -> Status {
        Rules::status(self.position)
    }
    #[inline]
    fn mark(self, cell: Cell, player: Player) -> Symmetric {
        Symmetric {
            position: Rules::mark(self.position, cell, player),
            ..self
        }
    }
    #[inline(always)]
    fn code_after(self, mut codes: Codes, cell: Cell, player: Player) -> Codes {
        let mark = if player == Player::X { 1 } else { 2 };
        for (code, powers) in codes.iter_mut().zip(self.powers) {
            *code += mark * powers[cell.index()];
        }
        codes
    }
    #[inline]
    fn makes_line(self, cell: Cell, player: Player) -> bool {
        Rules::makes_line(self.position, cell, player)
    }
    #[inline]
    fn key(self) -> u128 {
        Rules::key(self.position)
    }
    #[inline]
    fn best_moves(self, table: &Table) -> Cells {
        Rules::best_moves(self.position, table)
    }
    fn evaluate(self, table: &Table) -> Evaluation {
        Rules::evaluate(self.position, table)
    }
    #[inline]
    fn probe(self, table: &Table) -> Probe {
        Rules::probe(self.position, table)
    }
    #[inline(always)]
    fn fetch(self, table: &Table, second: bool) {
        Rules::fetch(self.position, table, second);
    }
}

impl Kept for Symmetric {}

/// The places of [`Position`]'s walk, found by a set's least code; the hash map keyed by it
/// too.
impl Places<Symmetric> for Coded {
    const FETCHES_AHEAD: bool = true;

    fn ready(&mut self, game: Game) {
        <Coded as Places<Position>>::ready(self, game);
    }

    fn lean(&mut self, game: Game) {
        <Coded as Places<Position>>::lean(self, game);
    }

    fn ahead_of_boards(&self) -> bool {
        <Coded as Places<Position>>::ahead_of_boards(self)
    }

    #[inline(always)]
    fn find_or_add(&mut self, _: Symmetric, codes: Codes, place: usize) -> Option<usize> {
        let code = least(codes);
        self.find_or_add_code(code, || u128::from(code), place)
    }

    fn forget(&mut self, listed: impl Iterator<Item = (Symmetric, Codes)>) {
        self.forget_all();
        drop(listed);
    }

    #[inline(always)]
    fn peek(&self, codes: Codes) -> Option<usize> {
        self.peek_code(least(codes))
    }

    #[inline(always)]
    fn warm(&self, codes: Codes) {
        self.warm_code(least(codes));
    }
}
