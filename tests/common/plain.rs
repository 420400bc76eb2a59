//! A plain solver and a plain counter of positions for the tests of `ttt solve`, sharing no
//! code with the crate: negamax memoised on the two masks, and every board walked one by one.

use std::collections::HashMap;

use ttt_oracle::{Cell, Game, Position};

/// A plain solver: negamax memoised on the two masks, over lines listed by brute force.
pub struct Plain {
    rows: usize,
    columns: usize,
    lines: Vec<u32>,
    memo: HashMap<(u32, u32), (i8, u8)>,
}

impl Plain {
    pub fn new(rows: usize, columns: usize, k: usize) -> Plain {
        let mut lines = Vec::new();
        for r in 0..rows as isize {
            for c in 0..columns as isize {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(isize, isize)> =
                        (0..k as isize).map(|i| (r + dr * i, c + dc * i)).collect();
                    let inside = cells.iter().all(|&(r, c)| {
                        r >= 0 && c >= 0 && r < rows as isize && c < columns as isize
                    });
                    if inside {
                        lines.push(
                            cells
                                .iter()
                                .fold(0, |m, &(r, c)| m | 1 << (r as usize * columns + c as usize)),
                        );
                    }
                }
            }
        }
        Plain {
            rows,
            columns,
            lines,
            memo: HashMap::new(),
        }
    }

    pub fn won(&self, marks: u32) -> bool {
        self.lines.iter().any(|&line| line & !marks == 0)
    }

    /// Value (1 win, 0 draw, -1 loss) and remoteness for the side to move, whose marks are
    /// `mine`; the last mover's are `theirs`.
    pub fn solve(&mut self, mine: u32, theirs: u32) -> (i8, u8) {
        if self.won(theirs) {
            return (-1, 0);
        }
        let full = (1u32 << (self.rows * self.columns)) - 1;
        if mine | theirs == full {
            return (0, 0);
        }
        if let Some(&known) = self.memo.get(&(mine, theirs)) {
            return known;
        }
        let mut best: Option<(i8, u8)> = None;
        for cell in 0..self.rows * self.columns {
            if (mine | theirs) >> cell & 1 == 1 {
                continue;
            }
            let (value, remoteness) = self.solve(theirs, mine | 1 << cell);
            let candidate = (-value, remoteness + 1);
            let key = |(v, r): (i8, u8)| (v, if v > 0 { -(r as i32) } else { r as i32 });
            if best.is_none_or(|b| key(candidate) > key(b)) {
                best = Some(candidate);
            }
        }
        let best = best.unwrap();
        self.memo.insert((mine, theirs), best);
        best
    }
}

/// The counts of positions `ttt stats` gives, made by the plain way: every board with as many
/// X as O or one more, the reachable ones kept (the side to move has no line; the last
/// mover's lines, if any, share a cell, the last move's), and a board counted up to symmetry
/// when it is the smallest of its images under the turns of its rectangle, listed here.
#[derive(Debug, Default, PartialEq)]
pub struct PlainCounts {
    pub reachable: u64,
    pub canonical: u64,
    pub non_terminal: u64,
    /// X wins, O wins, draws; and up to symmetry.
    pub terminal: [u64; 3],
    pub canonical_terminal: [u64; 3],
    pub by_ply: Vec<u64>,
    pub canonical_by_ply: Vec<u64>,
}

impl Plain {
    /// Every cell's image under each symmetry of the rectangle, as per-byte lookups.
    fn symmetries(&self) -> Vec<[[u32; 256]; 3]> {
        let (rows, columns) = (self.rows, self.columns);
        // Flip the rows or not, the columns or not, and on a square transpose or not.
        let turns = if rows == columns { 8 } else { 4 };
        (0..turns)
            .map(|turn| {
                let map = |r: usize, c: usize| {
                    let r = if turn & 1 == 1 { rows - 1 - r } else { r };
                    let c = if turn & 2 == 2 { columns - 1 - c } else { c };
                    if turn & 4 == 4 { (c, r) } else { (r, c) }
                };
                let mut tables = [[0u32; 256]; 3];
                for (byte, table) in tables.iter_mut().enumerate() {
                    for (value, image) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let cell = byte * 8 + bit;
                            if value >> bit & 1 == 1 && cell < rows * columns {
                                let (r, c) = map(cell / columns, cell % columns);
                                *image |= 1 << (r * columns + c);
                            }
                        }
                    }
                }
                tables
            })
            .collect()
    }

    /// Whether the lines within `marks` share a cell (true when there is none).
    fn lines_share_a_cell(&self, marks: u32) -> bool {
        let shared = self
            .lines
            .iter()
            .filter(|&&line| line & !marks == 0)
            .fold(u32::MAX, |shared, &line| shared & line);
        shared != 0
    }

    pub fn counts(&self) -> PlainCounts {
        let cells = self.rows * self.columns;
        let full = (1u32 << cells) - 1;
        let symmetries = self.symmetries();
        let image = |tables: &[[u32; 256]; 3], m: u32| {
            tables[0][(m & 0xff) as usize]
                | tables[1][(m >> 8 & 0xff) as usize]
                | tables[2][(m >> 16 & 0xff) as usize]
        };
        let mut counts = PlainCounts {
            by_ply: vec![0; cells + 1],
            canonical_by_ply: vec![0; cells + 1],
            ..PlainCounts::default()
        };
        for x in 0..=full {
            let xs = x.count_ones();
            let free = full & !x;
            // Every subset of the free cells, O's marks among them.
            let mut o = 0u32;
            loop {
                let os = o.count_ones();
                if os == xs || os + 1 == xs {
                    let x_last = xs > os;
                    let (last, to_move) = if x_last { (x, o) } else { (o, x) };
                    let won = self.won(last);
                    if !self.won(to_move) && (!won || self.lines_share_a_cell(last)) {
                        let key = (u64::from(x) << 32) | u64::from(o);
                        let canonical = symmetries.iter().all(|tables| {
                            (u64::from(image(tables, x)) << 32 | u64::from(image(tables, o))) >= key
                        });
                        let ply = (xs + os) as usize;
                        let outcome = match (won, x_last) {
                            (true, true) => Some(0),
                            (true, false) => Some(1),
                            (false, _) if ply == cells => Some(2),
                            _ => None,
                        };
                        counts.reachable += 1;
                        counts.by_ply[ply] += 1;
                        match outcome {
                            Some(outcome) => counts.terminal[outcome] += 1,
                            None => counts.non_terminal += 1,
                        }
                        if canonical {
                            counts.canonical += 1;
                            counts.canonical_by_ply[ply] += 1;
                            if let Some(outcome) = outcome {
                                counts.canonical_terminal[outcome] += 1;
                            }
                        }
                    }
                }
                if o == free {
                    break;
                }
                o = (o.wrapping_sub(free)) & free;
            }
        }
        counts
    }
}

/// Positions of `game` after `plies` random moves (no finished game before), seeded.
pub fn sample(game: Game, plies: usize, count: usize) -> Vec<Position> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut found = Vec::new();
    while found.len() < count {
        let mut position = Position::empty(game);
        for _ in 0..plies {
            if position.is_over() {
                break;
            }
            let moves: Vec<Cell> = position.legal_moves().iter().collect();
            position = position.play(moves[next() as usize % moves.len()]).unwrap();
        }
        found.push(position);
    }
    found
}

pub fn mask(position: &Position, player: ttt_oracle::Player) -> u32 {
    position.marks(player).bits() as u32
}
