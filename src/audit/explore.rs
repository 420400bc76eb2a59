//! The walk by histories: every game, the bot asked at each of its turns in each game.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::collector::Collector;
use super::mistakes::MistakeKind;
use super::rules::Rules;
use super::{Forfeit, Halt, IllegalLine, LosingLine, Odds, SideReport, WorstCase, panic_message};
use crate::board::{Cell, Outcome, Player, Status};
use crate::bots::{Bot, Choice, Turn};
use crate::game::Game;
use crate::history::History;
use crate::ratio::{Ratio, Sum};
use crate::tiers::MAX_TIER_CELLS;

/// Audits `bot` playing `side` of `game` by walking every history, depth first: the
/// opponent's replies in the order of their cells, the bot's choices in the order it gives
/// them, each judged by `table`. Works for any bot, whatever it remembers; stops with
/// [`Halt::OverBudget`] before asking the bot about more than `limit` histories. Lists the
/// first `keep` mistakes.
pub(super) fn audit<R: Rules>(
    bot: &mut dyn Bot,
    game: Game,
    table: &R::Table,
    side: Player,
    limit: u64,
    keep: usize,
) -> Result<SideReport, Halt> {
    let mut walk = Walk::<R> {
        bot,
        game,
        side,
        table,
        limit,
        report: SideReport::empty(game, side),
        lines: [Line::EMPTY; DEPTHS],
        vs_random: [Sum::ZERO; 4],
        choices: Default::default(),
        mistakes: Collector::new(keep),
    };
    let root = walk.visit(&mut History::empty(game), Ratio::ONE, true)?;
    let mistakes = std::mem::replace(&mut walk.mistakes, Collector::new(0));
    walk.report.mistakes = mistakes.finish::<R>(game, table, side);
    let [win, draw, loss, illegal] = walk.vs_random.map(Sum::value);
    walk.report.vs_random = Odds {
        win,
        draw,
        loss,
        illegal,
    };
    let line = &walk.lines[0];
    walk.report.worst_case = WorstCase {
        loss: root.worst,
        line: if root.worst == Ratio::ZERO {
            Vec::new()
        } else {
            line.cells[..line.len].to_vec()
        },
    };
    // What the bot neither wins, loses nor forfeits against the perfect style is a draw (it
    // wins only where its side wins the game: never on 3x3).
    let [loss, illegal, win] = root.perfect;
    walk.report.vs_perfect = Odds {
        win,
        draw: (loss + illegal + win).complement(),
        loss,
        illegal,
    };
    Ok(walk.report)
}

/// The depths of a game with a table (cached by `ttt solve` past 16 cells): every ply from the
/// empty board to the full one.
const DEPTHS: usize = MAX_TIER_CELLS + 1;

struct Walk<'a, R: Rules> {
    bot: &'a mut dyn Bot,
    game: Game,
    side: Player,
    table: &'a R::Table,
    /// The most decision points the walk may visit.
    limit: u64,
    report: SideReport,
    /// For each depth, the worst-case line from the position being walked there.
    lines: [Line; DEPTHS],
    /// The chances against a random opponent of a win, a draw, a loss and a forfeit, summed
    /// over the games as they end.
    vs_random: [Sum; 4],
    /// For each depth, the bot's answer at the position being walked there.
    choices: [Vec<Choice>; DEPTHS],
    /// Each position and move that gave value away, with the histories and games through it.
    mistakes: Collector,
}

/// Moves from a position to the end of a game.
#[derive(Clone, Copy)]
struct Line {
    cells: [Cell; MAX_TIER_CELLS],
    len: usize,
}

impl Line {
    const EMPTY: Line = Line {
        cells: [Cell::ALL[0]; MAX_TIER_CELLS],
        len: 0,
    };
}

/// What the games from a position hold for the bot, worked out as the walk comes back.
struct Backed {
    /// The most an opponent who knows the bot makes it lose from here.
    worst: Ratio,
    /// The chances of a loss on the board, of a forfeit and of a win against the `perfect`
    /// style from here; zeros for a position the perfect style never lets the game reach.
    perfect: [Ratio; 3],
}

impl Backed {
    /// The end of a game: a win for the bot (0), a draw (1), a loss (2) or a forfeit (3).
    fn end(at: usize) -> Backed {
        let mut perfect = [Ratio::ZERO; 3];
        match at {
            0 => perfect[2] = Ratio::ONE,
            1 => {}
            _ => perfect[at - 2] = Ratio::ONE,
        }
        Backed {
            worst: if at >= 2 { Ratio::ONE } else { Ratio::ZERO },
            perfect,
        }
    }

    const FORFEIT: usize = 3;
}

/// `p * x`, quickly where `x` is 0 or 1, as it mostly is.
fn times(p: Ratio, x: Ratio) -> Ratio {
    if x == Ratio::ZERO {
        Ratio::ZERO
    } else if x == Ratio::ONE {
        p
    } else {
        p * x
    }
}

impl<R: Rules> Walk<'_, R> {
    /// Explores every game from `game`, which comes back unchanged; `perfect` says whether the
    /// perfect style as opponent may reach it.
    fn visit(&mut self, game: &mut History, chance: Ratio, perfect: bool) -> Result<Backed, Halt> {
        let board = R::of(game);
        let depth = game.moves().len();
        self.lines[depth].len = 0;
        match board.status() {
            Status::Finished(outcome) => Ok(self.finish(game, outcome, chance)),
            Status::InProgress if board.to_move() == self.side => {
                self.bot_turn(game, chance, perfect)
            }
            Status::InProgress => {
                let replies = board.empty_cells();
                let each = chance * Ratio::new(1, replies.len() as u128);
                let optimal = board.best_moves(self.table);
                let share = if perfect {
                    Ratio::new(1, optimal.len() as u128)
                } else {
                    Ratio::ZERO
                };
                let mut backed = Backed {
                    worst: Ratio::ZERO,
                    perfect: [Ratio::ZERO; 3],
                };
                let mut first = true;
                for cell in replies {
                    let on_path = perfect && optimal.contains(cell);
                    game.play_unchecked(cell);
                    let explored = self.visit(game, each, on_path);
                    game.undo();
                    let child = explored?;
                    if first || child.worst > backed.worst {
                        backed.worst = child.worst;
                        self.adopt(depth, cell);
                        first = false;
                    }
                    if on_path {
                        for (total, part) in backed.perfect.iter_mut().zip(child.perfect) {
                            *total += times(share, part);
                        }
                    }
                }
                Ok(backed)
            }
        }
    }

    /// The worst-case line at `depth` is `cell`, then the line found after it.
    fn adopt(&mut self, depth: usize, cell: Cell) {
        // Borrowed, not copied: a line is as long as the largest board's.
        let (here, below) = self.lines.split_at_mut(depth + 1);
        let (line, next) = (&mut here[depth], &below[0]);
        line.cells[0] = cell;
        line.cells[1..=next.len].copy_from_slice(&next.cells[..next.len]);
        line.len = next.len + 1;
    }

    fn bot_turn(
        &mut self,
        game: &mut History,
        chance: Ratio,
        perfect: bool,
    ) -> Result<Backed, Halt> {
        if self.report.decision_points == self.limit {
            return Err(Halt::OverBudget);
        }
        crate::memory::check()?;
        self.report.decision_points += 1;
        let depth = game.moves().len();
        let mut choices = std::mem::take(&mut self.choices[depth]);
        choices.clear();
        match catch_unwind(AssertUnwindSafe(|| {
            self.bot.choose_into(game, &mut choices)
        })) {
            Ok(answer) => answer?,
            Err(payload) => {
                let message = panic_message(payload, game);
                self.forfeit(game, Forfeit::Panic(message), chance);
                return Ok(Backed::end(Backed::FORFEIT));
            }
        };
        if choices.is_empty() {
            self.forfeit(game, Forfeit::Turn(Turn::Nothing), chance);
            return Ok(Backed::end(Backed::FORFEIT));
        }
        let board = R::of(game);
        let empty = board.empty_cells();
        let before = board.evaluate(self.table);
        let mut backed = Backed {
            worst: Ratio::ZERO,
            perfect: [Ratio::ZERO; 3],
        };
        let mut most: Option<Ratio> = None;
        for choice in &choices {
            let p = chance * choice.probability;
            let child = match choice.turn {
                Turn::Mark(cell) if empty.contains(cell) => {
                    game.play_unchecked(cell);
                    let after = R::of(game).probe(self.table);
                    let verdict = self.report.judge_move(before, after, 1);
                    let games = self.report.games;
                    let explored = self.visit(game, p, perfect);
                    game.undo();
                    let child = explored?;
                    if let Some(kind) = MistakeKind::of(verdict) {
                        let games = self.report.games - games;
                        let moves = game.moves();
                        self.mistakes
                            .note_history(kind, board.key(), moves, cell, games);
                    }
                    if most.is_none_or(|most| child.worst > most) {
                        most = Some(child.worst);
                        self.adopt(depth, cell);
                    }
                    child
                }
                ref turn => {
                    self.forfeit(game, Forfeit::Turn(turn.clone()), p);
                    if most.is_none_or(|most| Ratio::ONE > most) {
                        most = Some(Ratio::ONE);
                        self.lines[depth].len = 0;
                    }
                    Backed::end(Backed::FORFEIT)
                }
            };
            backed.worst += times(choice.probability, child.worst);
            if perfect {
                for (total, part) in backed.perfect.iter_mut().zip(child.perfect) {
                    *total += times(choice.probability, part);
                }
            }
        }
        self.choices[depth] = choices;
        Ok(backed)
    }

    fn forfeit(&mut self, game: &History, what: Forfeit, chance: Ratio) {
        self.report.games += 1;
        self.report.illegal_games += 1;
        self.vs_random[3] += chance;
        let shorter = self
            .report
            .shortest_illegal
            .as_ref()
            .is_none_or(|line| game.moves().len() < line.moves.len());
        if shorter {
            self.report.shortest_illegal = Some(IllegalLine {
                moves: game.moves().to_vec(),
                what,
            });
        }
    }

    fn finish(&mut self, game: &History, outcome: Outcome, chance: Ratio) -> Backed {
        self.report.games += 1;
        let [win, draw, loss, _] = &mut self.vs_random;
        match outcome {
            Outcome::Draw => {
                *draw += chance;
                Backed::end(1)
            }
            Outcome::Win(winner) if winner == self.side => {
                *win += chance;
                Backed::end(0)
            }
            Outcome::Win(_) => {
                *loss += chance;
                self.report.losing_games += 1;
                let shorter = self
                    .report
                    .shortest_loss
                    .as_ref()
                    .is_none_or(|line| game.moves().len() < line.moves.len());
                if shorter {
                    self.report.shortest_loss = Some(LosingLine::new::<R>(
                        game.moves().to_vec(),
                        self.side,
                        self.game,
                        self.table,
                    ));
                }
                Backed::end(2)
            }
        }
    }
}
