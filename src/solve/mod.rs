//! A game of at most 16 cells solved into what its table holds: the canonical positions play
//! reaches, by base-3 code, with their entries and optimal moves, read from the tiered solve
//! that every game shares ([`crate::tiers`]). Pure: no I/O. Shared with `build.rs` (through
//! `#[path]`), which solves the embedded games with it.

use std::cell::RefCell;

use crate::board::{Player, code_marks};
use crate::game::{Game, Geometry, MAX_TABLE_CELLS, Mask};
use crate::tiers::{Tiers, solve_all};
use crate::value::{Entry, move_rank, unentry};

/// Symmetry and base-3 code of a board of at most 16 cells, fused into byte lookups: for each
/// turn, the code of the image of each byte of a mask. With them, the game's lines and turns
/// on `u64` masks: a board with a table fits them, and the solver and the table queries,
/// which do little else, run faster on them than on the [`Mask`] of every board.
pub struct Codes {
    /// Per turn: low byte, then high byte; 256 codes each.
    turned: Vec<[[u32; 256]; 2]>,
    /// Per turn: the image of the low byte's cells, then the high byte's.
    images: Vec<[[u64; 256]; 2]>,
    /// The lines through each cell.
    through: Vec<Vec<u64>>,
    lines: Vec<u64>,
    full: u64,
    geometry: &'static Geometry,
}

impl Codes {
    /// The lookups for `game`, which has at most 16 cells.
    pub fn new(game: Game) -> Codes {
        assert!(game.has_table(), "codes are for games of at most 16 cells");
        let geometry = game.geometry();
        let powers: Vec<u32> = (0..game.cells()).map(|i| 3u32.pow(i as u32)).collect();
        let turned = (0..geometry.turns().len())
            .map(|t| {
                let mut tables = [[0u32; 256]; 2];
                for (byte, table) in tables.iter_mut().enumerate() {
                    // Each mask's code is its lowest cell's added to the rest's.
                    for mask in 1..256 {
                        let cell = byte * 8 + (mask as u32).trailing_zeros() as usize;
                        let weight = if cell < game.cells() {
                            powers[geometry.turn_cell(t, cell)]
                        } else {
                            0
                        };
                        table[mask] = table[mask & (mask - 1)] + weight;
                    }
                }
                tables
            })
            .collect();
        // Every mask of a game with a table fits the low 16 bits.
        let narrow = |mask: Mask| mask as u64;
        let images = (0..geometry.turns().len())
            .map(|t| {
                let mut tables = [[0u64; 256]; 2];
                for (byte, table) in tables.iter_mut().enumerate() {
                    for (mask, image) in table.iter_mut().enumerate() {
                        *image = narrow(geometry.turn_mask(t, (mask as Mask) << (8 * byte)));
                    }
                }
                tables
            })
            .collect();
        let through = (0..game.cells())
            .map(|cell| {
                let lines = geometry.lines_through(cell);
                lines.iter().copied().map(narrow).collect()
            })
            .collect();
        Codes {
            turned,
            images,
            through,
            lines: geometry.lines().iter().copied().map(narrow).collect(),
            full: narrow(geometry.full()),
            geometry,
        }
    }

    /// The mask of every cell.
    #[inline]
    pub fn full(&self) -> u64 {
        self.full
    }

    /// Whether `marks` holds a whole line ([`Geometry::has_line`]).
    #[inline]
    pub fn has_line(&self, marks: u64) -> bool {
        self.lines.iter().any(|&line| line & !marks == 0)
    }

    /// Whether `marks`, just after a mark on `cell`, hold a line through that cell
    /// ([`Geometry::makes_line`]).
    #[inline]
    pub fn makes_line(&self, marks: u64, cell: usize) -> bool {
        self.through[cell].iter().any(|&line| line & !marks == 0)
    }

    /// The image of the cells of `mask` under the `t`-th turn ([`Geometry::turn_mask`]).
    #[inline]
    pub fn turn_mask(&self, t: usize, mask: u64) -> u64 {
        let [low, high] = &self.images[t];
        low[(mask & 0xff) as usize] | high[(mask >> 8 & 0xff) as usize]
    }

    /// The code of the board `x`, `o` after the `t`-th turn.
    #[inline]
    pub fn turned_code(&self, t: usize, x: u64, o: u64) -> u32 {
        let [low, high] = &self.turned[t];
        let marks = |m: u64| low[(m & 0xff) as usize] + high[(m >> 8 & 0xff) as usize];
        marks(x) + 2 * marks(o)
    }

    /// The canonical form: the smallest code among the board's images, and the first turn (in
    /// the order of [`Geometry::turns`]) that gives it.
    #[inline]
    pub fn canonical(&self, x: u64, o: u64) -> (u32, usize) {
        let mut best = (self.turned_code(0, x, o), 0);
        for t in 1..self.turned.len() {
            let code = self.turned_code(t, x, o);
            if code < best.0 {
                best = (code, t);
            }
        }
        best
    }

    /// The game's lines and turns.
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }
}

/// A solved game: the entry of every canonical position reachable from the empty board,
/// terminal ones included, in a dense array indexed by base-3 code (0 elsewhere); and the
/// optimal moves of each canonical position in play.
pub struct Solution {
    game: Game,
    entries: Vec<Entry>,
    best: Vec<(u32, u16)>,
}

impl Solution {
    /// The game solved.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The dense array of entries by code: non-zero exactly at the canonical reachable boards.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The optimal moves of each canonical position in play, as (code, mask) by ascending
    /// code: bit `i` of the mask is cell `i + 1`, set for every move of the best value, then
    /// the fastest win or the slowest loss.
    pub fn best_moves(&self) -> &[(u32, u16)] {
        &self.best
    }
}

/// A solve's progress: its game and the share done, from 0 to 1.
type Report = Box<dyn FnMut(Game, f64)>;

thread_local! {
    /// Where this thread's solves report, while [`with_solve_progress`] runs.
    static REPORT: RefCell<Option<Report>> = const { RefCell::new(None) };
}

/// The shares of a solve, as reported: its tiers end at the first (a seventh of the time of
/// 4x4's in WebAssembly), reading the positions play reaches ends at the second (more than half
/// of it), and making the table of them ends the solve (a third).
const TIERS_DONE: f64 = 0.15;
const REACH_DONE: f64 = 0.7;

/// Positions read between two reports.
const REPORT_EVERY: usize = 1 << 16;

/// Runs `work`; meanwhile, each game of at most 16 cells this thread solves into a table tells
/// `report` how far it is: its game and the share done, from 0 to 1, a few dozen times a solve
/// (the page of js/, which solves 4x4 in the browser, shows it).
pub fn with_solve_progress<T>(
    report: impl FnMut(Game, f64) + 'static,
    work: impl FnOnce() -> T,
) -> T {
    struct Reset(Option<Report>);
    impl Drop for Reset {
        fn drop(&mut self) {
            REPORT.set(self.0.take());
        }
    }
    let _reset = Reset(REPORT.replace(Some(Box::new(report))));
    work()
}

pub(crate) fn report(game: Game, share: f64) {
    REPORT.with_borrow_mut(|report| {
        if let Some(report) = report {
            report(game, share);
        }
    });
}

/// Solves `game` (at most 16 cells) with the solver of every game, tier by tier ([`crate::tiers`]),
/// and keeps what a table holds: the entry of each canonical position play reaches from the
/// empty board, and the optimal moves of each in play (the fastest win, the slowest loss).
///
/// # Panics
///
/// If the game has more than 16 cells.
pub fn solve_game(game: Game) -> Solution {
    assert!(
        game.cells() <= MAX_TABLE_CELLS,
        "only games of at most {MAX_TABLE_CELLS} cells can be solved into a table"
    );
    let tiers = Tiers::new(game);
    let mut reach = Reach {
        codes: Codes::new(game),
        // On this thread alone: `table::of` solves with its lock held, and a rayon worker that
        // waits for its pool takes up other jobs, which may ask for a table too.
        solved: solve_all(&tiers, false, &mut |share| report(game, share * TIERS_DONE)),
        boards: tiers.sizes().iter().sum(),
        tiers,
        entries: vec![0; 3usize.pow(game.cells() as u32)],
        best: Vec::new(),
    };
    reach.visit(0, 0, 0, Player::X);
    // Visited in depth-first order; a table is read by code.
    reach.best.sort_unstable_by_key(|&(code, _)| code);
    report(game, REACH_DONE);
    Solution {
        game,
        entries: reach.entries,
        best: reach.best,
    }
}

/// The canonical positions play reaches, read from the solved tiers.
struct Reach {
    codes: Codes,
    tiers: Tiers,
    solved: Vec<Vec<Entry>>,
    entries: Vec<Entry>,
    /// The optimal moves of each position in play visited.
    best: Vec<(u32, u16)>,
    /// The canonical boards of the tiers, of which play reaches a third to nine tenths: the
    /// measure of the progress reported.
    boards: u64,
}

impl Reach {
    /// Notes the canonical board `x`, `o` (code `code`), `mover` to move, and every board play
    /// reaches from it.
    fn visit(&mut self, x: u64, o: u64, code: u32, mover: Player) {
        if self.entries[code as usize] != 0 {
            return;
        }
        let (tier, index) = self.tiers.locate(x as u32, o as u32);
        let entry = self.solved[tier][index as usize];
        self.entries[code as usize] = entry;
        // A finished game, and only one, is 0 plies from its end.
        if unentry(entry).is_some_and(|(_, remoteness)| remoteness == 0) {
            return;
        }
        let (mine, theirs) = match mover {
            Player::X => (x, o),
            Player::O => (o, x),
        };
        let mut empty = !(x | o) & self.codes.full();
        let (mut best, mut optimal) = (i32::MIN, 0u16);
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let (child_x, child_o) = match mover {
                Player::X => (mine | 1 << cell, theirs),
                Player::O => (theirs, mine | 1 << cell),
            };
            let (canonical, t) = self.codes.canonical(child_x, child_o);
            let turned = |mask| self.codes.turn_mask(t, mask);
            self.visit(turned(child_x), turned(child_o), canonical, !mover);
            let child = self.entries[canonical as usize];
            let (value, remoteness) = unentry(child).expect("a visited board has an entry");
            let rank = move_rank(-value, remoteness + 1);
            if rank > best {
                (best, optimal) = (rank, 1 << cell);
            } else if rank == best {
                optimal |= 1 << cell;
            }
        }
        self.best.push((code, optimal));
        if self.best.len() % REPORT_EVERY == 0 {
            let read = (self.best.len() as f64 / self.boards as f64).min(1.0);
            report(
                self.tiers.game(),
                TIERS_DONE + (REACH_DONE - TIERS_DONE) * read,
            );
        }
    }
}

/// For each base-3 code of 8 cells, the X byte and the O byte: made at compile time, so that
/// reading a table in a new process costs no time making it.
static DIGIT_BYTES: [(u8, u8); 6561] = {
    let mut bytes = [(0u8, 0u8); 6561];
    let mut code = 0;
    while code < 6561 {
        let (x, o) = code_marks(code, 8);
        bytes[code] = (x as u8, o as u8);
        code += 1;
    }
    bytes
};

/// The marks of a base-3 code of up to 16 cells, eight cells at a time.
pub struct Digits {
    /// For each code below `3^8`, the X byte and the O byte.
    bytes: &'static [(u8, u8); 6561],
}

impl Digits {
    /// The lookup.
    pub fn new() -> Digits {
        Digits {
            bytes: &DIGIT_BYTES,
        }
    }

    /// The X and O masks of `code`.
    pub fn marks(&self, code: u32) -> (u64, u64) {
        let (low, high) = (
            self.bytes[(code % 6561) as usize],
            self.bytes[(code / 6561) as usize],
        );
        (
            u64::from(low.0) | u64::from(high.0) << 8,
            u64::from(low.1) | u64::from(high.1) << 8,
        )
    }
}
