//! Asking again, one request at a time: after the audit of a bot that can tell an audit from a
//! game ([`Bot::one_at_a_time`], an external program that sees its questions queued), a fresh
//! process of it is asked along a sample of the games audited, each question written only once
//! the last is answered, as in a game; the first answer that differs from the one the audit
//! recorded is the verdict.
//!
//! The sample is the shortest loss and the shortest forfeit, where there are some, then a
//! fixed number of games drawn with a fresh seed each audit (so that a bot cannot learn the
//! sample from one audit to the next), or one given: the opponent's replies uniformly among its
//! legal moves, the bot's own moves among the answers it gave the audit. Each game is asked
//! from its start, every turn of the bot in order, with the moves so far: a bot declared
//! stateless, asked each board once in the audit, is asked it again with the moves of the
//! game that reaches it here.

use std::collections::HashSet;

use crate::board::{Cell, Player, Status};
use crate::bots::{Bot, BotError, Choice, Turn};
use crate::game::Game;
use crate::history::History;
use crate::rng::SplitMix64;

/// How many games are drawn at random for the re-ask, besides the shortest loss and forfeit,
/// unless told otherwise: some 50 requests on tic-tac-toe, a few milliseconds of a quick bot.
pub const RECHECK_GAMES: usize = 16;

/// What asking a bot again one request at a time found.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{AuditOptions, audit, bots};
///
/// // A built-in bot cannot tell an audit from a game: it is not asked again.
/// let mut perfect = bots::from_spec("perfect")?;
/// let report = audit(perfect.as_mut(), &AuditOptions::default())?;
/// assert_eq!(report.solved().unwrap().recheck, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// An external program is, as `tests/integration/recheck.rs` shows through `ttt audit`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Recheck {
    /// The games followed: the shortest loss and forfeit where there are some, then those
    /// drawn; up to the one where an answer differed.
    pub games: usize,
    /// The distinct requests asked again.
    pub requests: usize,
    /// The seed of the games drawn, fresh for each audit unless one was given
    /// ([`AuditOptions::recheck_seed`](super::AuditOptions::recheck_seed)).
    pub seed: u64,
    /// The first answer that differed from the audit's, where the re-ask stopped.
    pub difference: Option<Difference>,
}

/// An answer that differed: where, what the audit recorded, and what came one at a time.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Difference {
    /// The moves of the game before the bot's turn, X first.
    pub moves: Vec<Cell>,
    /// The cells the bot gave the audit there (for a stateless bot, asked with the moves of
    /// the first game to reach the board).
    pub recorded: Vec<Cell>,
    /// The cells it gave when asked one request at a time.
    pub alone: Vec<Cell>,
}

/// The side audited: the game, the bot's side, and the moves of its shortest loss and of its
/// shortest forfeit (those before it), where there are some.
pub(super) struct Audited {
    pub(super) game: Game,
    pub(super) side: Player,
    pub(super) shortest: Vec<Vec<Cell>>,
}

/// Asks `bot`, just audited for `report`, again one request at a time along its shortest
/// games and `games` drawn at random; `None` when `games` is 0 or the bot cannot tell an
/// audit from a game.
///
/// # Errors
///
/// [`BotError`] when the fresh process breaks the protocol (it is stopped at once).
pub(super) fn recheck(
    bot: &mut dyn Bot,
    report: &Audited,
    games: usize,
    seed: Option<u64>,
) -> Result<Option<Box<Recheck>>, BotError> {
    if games == 0 {
        return Ok(None);
    }
    let Some(mut alone) = bot.one_at_a_time() else {
        return Ok(None);
    };
    let seed = seed.unwrap_or_else(|| SplitMix64::from_entropy().next_u64());
    let sample = sample(bot, report, games, seed)?;
    let mut asked: HashSet<Vec<Cell>> = HashSet::new();
    let mut recheck = Recheck {
        games: 0,
        requests: 0,
        seed,
        difference: None,
    };
    'games: for moves in &sample {
        recheck.games += 1;
        let mut game = History::empty(report.game);
        for ply in 0..=moves.len() {
            let position = game.position();
            if position.status() == Status::InProgress
                && position.to_move() == report.side
                && asked.insert(game.moves().to_vec())
            {
                recheck.requests += 1;
                let recorded = cells(&bot.choose(&game)?);
                let now = cells(&alone.choose(&game)?);
                if !same(&recorded, &now) {
                    recheck.difference = Some(Difference {
                        moves: game.moves().to_vec(),
                        recorded,
                        alone: now,
                    });
                    break 'games;
                }
            }
            if let Some(&cell) = moves.get(ply) {
                game.play_unchecked(cell);
            }
        }
    }
    alone.finish()?;
    Ok(Some(Box::new(recheck)))
}

/// The games to follow: the shortest loss and forfeit of `report`, then `games` drawn.
fn sample(
    bot: &mut dyn Bot,
    report: &Audited,
    games: usize,
    seed: u64,
) -> Result<Vec<Vec<Cell>>, BotError> {
    let mut sample = Vec::with_capacity(games + 2);
    sample.extend(report.shortest.iter().cloned());
    let mut rng = SplitMix64::new(seed);
    for _ in 0..games {
        sample.push(drawn(bot, report, &mut rng)?);
    }
    Ok(sample)
}

/// A game drawn with `rng` to its end, or to the bot's forfeit: the opponent's moves among
/// its legal ones, the bot's among the answers it gave the audit (which it is not asked again
/// here: every turn of the game was a turn of the audit).
fn drawn(bot: &mut dyn Bot, report: &Audited, rng: &mut SplitMix64) -> Result<Vec<Cell>, BotError> {
    let mut game = History::empty(report.game);
    loop {
        let position = game.position();
        if position.status() != Status::InProgress {
            break;
        }
        let empty = position.empty_cells();
        let cell = if position.to_move() == report.side {
            let cells = cells(&bot.choose(&game)?);
            if cells.is_empty() {
                break;
            }
            let cell = cells[rng.below(cells.len() as u64) as usize];
            if !empty.contains(cell) {
                break;
            }
            cell
        } else {
            let moves: Vec<Cell> = empty.iter().collect();
            moves[rng.below(moves.len() as u64) as usize]
        };
        game.play_unchecked(cell);
    }
    Ok(game.moves().to_vec())
}

/// The cells of a bot's answer, in its order (an external program's answers are all marks).
fn cells(choices: &[Choice]) -> Vec<Cell> {
    choices
        .iter()
        .filter_map(|choice| match &choice.turn {
            Turn::Mark(cell) => Some(*cell),
            _ => None,
        })
        .collect()
}

/// Whether two answers are the same cells, in any order: "any of these".
fn same(a: &[Cell], b: &[Cell]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}
