//! Auditing a bot on a game with no table: every reply of the opponent and every choice of the
//! bot, to the end of every game, memoised on the state the bot declares it depends on
//! ([`Bot::depends_on`]).
//!
//! Two walks, each within an [`AuditBudget`] of distinct states:
//!
//! - The **exhaustive walk** works out, for each state where the bot is to move, what the games
//!   from there hold: decision points, games, games lost and forfeited, the shortest loss and
//!   forfeit, and the exact odds against a uniformly random opponent. Two histories that reach
//!   the same board and the same declared state are one state, worked out once; a bot that
//!   depends on its whole history is walked history by history.
//! - When that walk outgrows its budget, the **searches** settle what needs no counting: the
//!   shortest forfeit and the shortest loss, by iterative deepening (the first line in the walk's
//!   order among the shortest, as the exhaustive walk would give), remembering for each state how
//!   many plies are known to hold none. A line is cut short only where its result can no longer
//!   change: the search for a loss leaves a position where no line is open for the opponent (each
//!   holds a mark of the bot's), or where the opponent cannot fill one in the plies left; against
//!   a bot that [blocks threats](Bot::blocks_threats), where one line only is open, or where the
//!   opponent cannot make a fork (two lines filled but for one cell each) in time, which is what
//!   brings marcelo's 23-ply loss on 7x7 within reach.
//!
//! Nothing here reads game values: blunders, slow wins, the worst case and the odds against the
//! perfect style need a table, and a report without one says they are unavailable.
//!
//! The two audits are here; `walk` holds the exhaustive walk (and how a line it found is
//! followed back down), `search` the searches, `memo` what the walk remembers of each state,
//! `budget` what an audit may hold, `report` what it found and `text` that for people.

mod budget;
mod memo;
mod report;
mod search;
mod text;
mod walk;

use crate::audit::{AuditError, Halt, IllegalLine, LosingLine, Odds};
use crate::board::Player;
use crate::bots::Bot;
use crate::game::Game;
use crate::history::History;
use memo::Memo;
use walk::{Kind, Walk};

pub use budget::AuditBudget;
pub use report::{Counts, Shortest, TablelessReport};

/// Audits `bot` playing `side` in `game` without a table, within `budget`: what
/// [`audit`](crate::audit()) does on a board with no table, here on any game. On a game with a
/// table it gives the figures the table's audit gives, found by search: a cross-check.
///
/// The caller has checked that the bot [plays](Bot::plays) the game.
///
/// # Errors
///
/// [`AuditError::Bot`] when the bot cannot answer at all (an external program that broke its
/// protocol); a forbidden move or a panic only forfeits that game. [`AuditError::OverMemory`]
/// when the walk or a search would pass the [memory limit](crate::memory::set_limit).
pub fn audit_tableless(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    budget: AuditBudget,
) -> Result<TablelessReport, AuditError> {
    walked(bot, game, side, budget).map_err(|halt| match halt {
        Halt::Bot(error) => AuditError::Bot(error),
        Halt::OverMemory(over) => AuditError::OverMemory(over),
        Halt::OverBudget => unreachable!("the searches take over from a walk over its budget"),
    })
}

/// [`audit_tableless`], halting as the walk does.
fn walked(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    budget: AuditBudget,
) -> Result<TablelessReport, Halt> {
    let mut walk = Walk::new(bot, game, side, budget);
    let mut start = History::empty(game);
    let report = match walk.root(&mut start) {
        Ok(summary) => {
            debug_assert!(
                summary.forfeits == 0 || !walk.bot.never_forfeits(),
                "{} says it never forfeits, and forfeited",
                walk.bot.name()
            );
            let states = walk.walked;
            // Following the lines down asks again where nothing was remembered (a bot that
            // depends on its history): within the walk that finished, not the budget.
            walk.budget = AuditBudget::of(usize::MAX);
            let shortest_loss = match walk.line(&mut start, Kind::Loss, summary.loss_in)? {
                Some(moves) => Shortest::Line(LosingLine {
                    moves,
                    mistake: None,
                }),
                None => Shortest::Never,
            };
            let shortest_illegal = match walk.line(&mut start, Kind::Forfeit, summary.forfeit_in)? {
                Some(moves) => {
                    let what = walk.forfeit_at(&moves)?;
                    Shortest::Line(IllegalLine { moves, what })
                }
                None => Shortest::Never,
            };
            let odds = walk.odds(&summary);
            TablelessReport {
                game,
                side,
                counts: Some(Counts {
                    decision_points: summary.decision_points,
                    games: summary.games,
                    losing_games: summary.losses,
                    illegal_games: summary.forfeits,
                }),
                vs_random: odds,
                shortest_loss,
                shortest_illegal,
                states,
            }
        }
        Err(halt @ (Halt::Bot(_) | Halt::OverMemory(_))) => return Err(halt),
        Err(Halt::OverBudget) => {
            let states = walk.walked;
            walk.memo = Memo::default();
            walk.exact = false;
            let shortest_illegal = match walk.search(Kind::Forfeit)? {
                Shortest::Line(moves) => {
                    let what = walk.forfeit_at(&moves)?;
                    Shortest::Line(IllegalLine { moves, what })
                }
                Shortest::Never => Shortest::Never,
                Shortest::Unsettled { plies } => Shortest::Unsettled { plies },
            };
            let shortest_loss = match walk.search(Kind::Loss)? {
                Shortest::Line(moves) => Shortest::Line(LosingLine {
                    moves,
                    mistake: None,
                }),
                Shortest::Never => Shortest::Never,
                Shortest::Unsettled { plies } => Shortest::Unsettled { plies },
            };
            TablelessReport {
                game,
                side,
                counts: None,
                vs_random: None,
                shortest_loss,
                shortest_illegal,
                states,
            }
        }
    };
    bot.finish()?;
    Ok(report)
}

/// The exact odds of `bot` playing `side` in `game` against a uniformly random opponent, from
/// the exhaustive walk alone; `None` when it outgrows `budget.states` (or a probability 128
/// bits).
///
/// # Errors
///
/// As [`audit_tableless`].
pub fn odds_tableless(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    budget: AuditBudget,
) -> Result<Option<Odds>, AuditError> {
    let mut walk = Walk::new(bot, game, side, budget);
    let odds = match walk.root(&mut History::empty(game)) {
        Ok(summary) => walk.odds(&summary),
        Err(Halt::Bot(error)) => return Err(AuditError::Bot(error)),
        Err(Halt::OverMemory(over)) => return Err(AuditError::OverMemory(over)),
        Err(Halt::OverBudget) => None,
    };
    bot.finish()?;
    Ok(odds)
}
