//! The mistakes a walk notes as it judges the bot's moves, and the list the report keeps of
//! them ([`Mistakes`]).
//!
//! The walk by histories meets a position once per history: each position and move is noted
//! once, and the histories and games through it added up. The walk by positions meets each
//! once, and the plies in order, so it keeps no mistake from a ply deeper than the one where
//! enough are kept: its memory grows with the list asked for, not with the mistakes found; the
//! games through a mistake it counts at the end, from the moves it recorded.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::mistakes::{Mistake, MistakeKind, Mistakes};
use super::odds::{Graph, To};
use super::rules::Rules;
use crate::board::{Cell, Player};
use crate::game::Game;
use crate::history::History;
use crate::value::MoveValue;

/// A mistake noted by a walk, before it is listed: 48 bytes.
#[derive(Clone, Copy)]
struct Noted {
    /// The moves to the position, `width` bits each, the first in the lowest: as the walk
    /// by positions carries them, or [`WIDE`] for the walk by histories.
    line: u128,
    histories: u64,
    games: u64,
    /// Where the move leads (the walk by positions, which counts its games afterwards).
    to: To,
    ply: u8,
    width: u8,
    cell: Cell,
    kind: MistakeKind,
}

/// The bits a move takes in the lines of the walk by histories: enough for 25 cells.
const WIDE: u8 = 5;

impl Noted {
    fn moves(&self) -> Vec<Cell> {
        (0..usize::from(self.ply)).map(|i| self.get(i)).collect()
    }

    /// Move number `i` (from 0).
    fn get(&self, i: usize) -> Cell {
        let width = u32::from(self.width);
        let bits = (self.line >> (width as usize * i)) & ((1 << width) - 1);
        Cell::new(bits as usize).expect("a move's bits hold a cell")
    }

    /// The order of the list, among mistakes of one kind (blunders, or slow wins).
    fn order(&self, other: &Noted) -> Ordering {
        self.ply
            .cmp(&other.ply)
            .then(other.games.cmp(&self.games))
            .then_with(|| {
                // Moves compared from the first: the first where the lines differ (of one
                // walk, so of one width).
                let differ = self.line ^ other.line;
                let at = (differ.trailing_zeros() / u32::from(self.width)) as usize;
                match at < usize::from(self.ply) {
                    true => self.get(at).cmp(&other.get(at)),
                    false => Ordering::Equal,
                }
            })
            .then(self.cell.cmp(&other.cell))
    }
}

/// The mistakes of one kind, blunders or slow wins.
#[derive(Default)]
struct Tier {
    noted: Vec<Noted>,
    /// The ply of the last mistake noted in order of plies, and how many came before it.
    ply: u8,
    before_ply: usize,
}

/// The mistakes a walk notes, keeping what the report will list.
pub(super) struct Collector {
    /// How many the report lists in full.
    keep: usize,
    /// Blunders, then slow wins.
    tiers: [Tier; 2],
    total: u64,
    /// For the walk by histories: where each position (by key) and move is noted.
    seen: HashMap<(u128, Cell), (usize, usize)>,
    /// For the walk by positions: the position being noted (its ply and line), and the cells
    /// noted there, as a bot may offer one cell twice.
    here: (u8, u128, u32),
}

impl Collector {
    pub(super) fn new(keep: usize) -> Collector {
        Collector {
            keep,
            tiers: Default::default(),
            total: 0,
            seen: HashMap::new(),
            here: (u8::MAX, 0, 0),
        }
    }

    /// A mistake met once, at a position of the walk by positions reached by `histories`
    /// histories, the first of them `line` (its moves and the bits of each), at `ply`; the
    /// move leads `to`. Plies come in
    /// order: a mistake deeper than the ply where enough are kept is counted, not kept.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn note_position(
        &mut self,
        kind: MistakeKind,
        ply: usize,
        (line, width): (u128, u32),
        cell: Cell,
        histories: u64,
        to: To,
    ) {
        let ply = ply as u8;
        let tier = &mut self.tiers[usize::from(!kind.is_blunder())];
        let bit = 1 << cell.index();
        if (self.here.0, self.here.1) != (ply, line) {
            self.here = (ply, line, 0);
        } else if self.here.2 & bit != 0 {
            // Offered again: the same mistake, met as many more times (as the walk by
            // histories meets it).
            let same = |n: &&mut Noted| n.ply == ply && n.line == line;
            if let Some(noted) = tier
                .noted
                .iter_mut()
                .rev()
                .take_while(same)
                .find(|n| n.cell == cell)
            {
                noted.histories += histories;
            }
            return;
        }
        self.here.2 |= bit;
        self.total += 1;
        if ply != tier.ply {
            tier.ply = ply;
            tier.before_ply = tier.noted.len();
        }
        if tier.before_ply < self.keep {
            tier.noted.push(Noted {
                line,
                histories,
                games: 0,
                to,
                ply,
                width: width as u8,
                cell,
                kind,
            });
        }
    }

    /// A mistake met in one history of the walk by histories (`moves`, at a position of key
    /// `key`), with the `games` that followed it there.
    pub(super) fn note_history(
        &mut self,
        kind: MistakeKind,
        key: u128,
        moves: &[Cell],
        cell: Cell,
        games: u64,
    ) {
        let tier_of = usize::from(!kind.is_blunder());
        let (tier, at) = *self.seen.entry((key, cell)).or_insert_with(|| {
            let tier = &mut self.tiers[tier_of];
            let line = moves.iter().enumerate().fold(0, |line, (i, c)| {
                line | (c.index() as u128) << (usize::from(WIDE) * i)
            });
            tier.noted.push(Noted {
                line,
                histories: 0,
                games: 0,
                to: To::DRAW,
                ply: moves.len() as u8,
                width: WIDE,
                cell,
                kind,
            });
            (tier_of, tier.noted.len() - 1)
        });
        let noted = &mut self.tiers[tier].noted[at];
        noted.histories += 1;
        noted.games += games;
    }

    /// The games through each mistake of the walk by positions, from the moves it recorded.
    pub(super) fn count_games(&mut self, graph: &Graph) {
        // A bot without mistakes (the common case worth being quick for) needs no pass.
        if self.tiers.iter().all(|tier| tier.noted.is_empty()) {
            return;
        }
        // Each tier's mistakes in order of plies: the deepest at its end.
        let mut ends = self.tiers.each_ref().map(|tier| tier.noted.len());
        let tiers = &mut self.tiers;
        graph.games_after(|ply, games_after| {
            for (tier, end) in tiers.iter_mut().zip(&mut ends) {
                while *end > 0 && usize::from(tier.noted[*end - 1].ply) == ply {
                    *end -= 1;
                    let noted = &mut tier.noted[*end];
                    noted.games = noted.histories * games_after(noted.to);
                }
            }
        });
    }

    /// The report's list: the first `keep` of the mistakes noted in `game`, played by `side`,
    /// judged by `table`.
    pub(super) fn finish<R: Rules>(self, game: Game, table: &R::Table, side: Player) -> Mistakes {
        let total = if self.seen.is_empty() {
            self.total
        } else {
            self.seen.len() as u64
        };
        let mut list = Vec::new();
        for mut tier in self.tiers {
            let left = self.keep - list.len();
            if left == 0 {
                break;
            }
            if left < tier.noted.len() {
                tier.noted.select_nth_unstable_by(left, Noted::order);
                tier.noted.truncate(left);
            }
            tier.noted.sort_unstable_by(Noted::order);
            list.extend(
                tier.noted
                    .iter()
                    .map(|n| in_full::<R>(n, game, table, side)),
            );
        }
        Mistakes { total, list }
    }
}

/// A mistake noted, with the moves that reach it and the value of every move in question.
fn in_full<R: Rules>(noted: &Noted, game: Game, table: &R::Table, side: Player) -> Mistake {
    let moves = noted.moves();
    let board = R::of(&History::replay(game, &moves));
    let value = |cell: Cell| {
        let after = board.mark(cell, side).probe(table);
        MoveValue {
            cell,
            value: -after.value,
            remoteness: after.remoteness + 1,
        }
    };
    Mistake {
        best: board.best_moves(table).iter().map(value).collect(),
        played: value(noted.cell),
        moves,
        kind: noted.kind,
        histories: noted.histories,
        games: noted.games,
    }
}
