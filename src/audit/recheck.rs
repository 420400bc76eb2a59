//! Asking again, one request at a time: after the audit of a bot that can tell an audit from a
//! game ([`Bot::one_at_a_time`], an external program that sees its questions queued), a fresh
//! process of it is asked along a sample of the games audited, each question written only once
//! the last is answered, as in a game; the first answer that differs from the one the audit
//! recorded is the verdict.
//!
//! The sample is the shortest loss and the shortest forfeit, where there are some, then a
//! fixed number of games drawn with a fresh seed each audit (so that a bot cannot learn the
//! sample from one audit to the next), or one given: the bot's own moves among the answers it
//! gave the audit, the opponent's uniformly among its legal moves or, in a match
//! (`crate::matchup`), among the answers the other bot gave it. Each game is asked from its
//! start, every turn of the bot in order, with the moves so far: a bot declared stateless,
//! asked each board once in the audit, is asked it again with the moves of the game that
//! reaches it here.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::board::{Cell, Player, Status};
use crate::bots::{Bot, BotError, Choice, Turn};
use crate::game::Game;
use crate::history::History;
use crate::ratio::Ratio;
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
    /// Where the chances of the cells differed (a Python bot's odds): the chance of each cell
    /// of `recorded` and of `alone`, in their order, as `"p/q"`; `None` (and no key in JSON)
    /// where they are alike, as a set of cells gives them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chances: Option<Chances>,
}

/// The chances of the cells of a [`Difference`]'s two answers, in their order, as `"p/q"`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Chances {
    /// Those the audit recorded.
    pub recorded: Vec<String>,
    /// Those given one request at a time.
    pub alone: Vec<String>,
}

impl Difference {
    /// The answer the audit recorded, in words: `plays 5`, `any of 1 3`, or with the chances
    /// where they differed, `any of 1 (999/1000), 3 (1/1000)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::Cell;
    /// use ttt_oracle::audit::{Chances, Difference};
    ///
    /// let cells: Vec<Cell> = vec!["1".parse()?, "3".parse()?];
    /// let mut difference = Difference {
    ///     moves: vec!["5".parse()?],
    ///     recorded: cells.clone(),
    ///     alone: cells,
    ///     chances: None,
    /// };
    /// assert_eq!(difference.recorded_text(), "any of 1 3");
    /// difference.chances = Some(Chances {
    ///     recorded: vec!["999/1000".into(), "1/1000".into()],
    ///     alone: vec!["1/1000".into(), "999/1000".into()],
    /// });
    /// assert_eq!(difference.recorded_text(), "any of 1 (999/1000), 3 (1/1000)");
    /// assert_eq!(difference.alone_text(), "any of 1 (1/1000), 3 (999/1000)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn recorded_text(&self) -> String {
        said(
            &self.recorded,
            self.chances.as_ref().map(|c| &c.recorded[..]),
        )
    }

    /// The answer given one request at a time, in words, as [`Difference::recorded_text`].
    pub fn alone_text(&self) -> String {
        said(&self.alone, self.chances.as_ref().map(|c| &c.alone[..]))
    }
}

/// An answer in words: its cells, "any of" several, each with its chance when given.
fn said(cells: &[Cell], chances: Option<&[String]>) -> String {
    let (listed, apart): (Vec<String>, _) = match chances {
        Some(chances) => {
            let each = cells.iter().zip(chances);
            (
                each.map(|(cell, chance)| format!("{cell} ({chance})"))
                    .collect(),
                ", ",
            )
        }
        None => (cells.iter().map(Cell::to_string).collect(), " "),
    };
    match listed.as_slice() {
        [one] => format!("plays {one}"),
        several => format!("any of {}", several.join(apart)),
    }
}

/// The side audited: the game, the bot's side, the moves of its shortest loss and of its
/// shortest forfeit (those before it), where there are some, and in a match the bot on the
/// other side (`None`: every legal reply alike).
pub(crate) struct Audited<'a> {
    pub(crate) game: Game,
    pub(crate) side: Player,
    pub(crate) shortest: Vec<Vec<Cell>>,
    pub(crate) opponent: Option<&'a mut dyn Bot>,
}

/// Asks `bot`, just audited for `report`, again one request at a time along its shortest
/// games and `games` drawn at random; `None` when `games` is 0 or the bot cannot tell an
/// audit from a game.
///
/// # Errors
///
/// [`BotError`] when the fresh process breaks the protocol (it is stopped at once).
pub(crate) fn recheck(
    bot: &mut dyn Bot,
    report: &mut Audited,
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
                let recorded = weighed(&bot.choose(&game)?);
                let now = weighed(&alone.choose(&game)?);
                if recorded != now {
                    recheck.difference = Some(difference(game.moves().to_vec(), recorded, now));
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
    report: &mut Audited,
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

/// A game drawn with `rng` to its end, or to a forfeit: the bot's moves among the answers it
/// gave the audit, the opponent's among its legal moves or the other bot's answers (neither
/// bot is asked anything new here: every turn of the game was a turn of the audit or match).
fn drawn(
    bot: &mut dyn Bot,
    report: &mut Audited,
    rng: &mut SplitMix64,
) -> Result<Vec<Cell>, BotError> {
    let mut game = History::empty(report.game);
    loop {
        let position = game.position();
        if position.status() != Status::InProgress {
            break;
        }
        let empty = position.empty_cells();
        let choices = if position.to_move() == report.side {
            asked(&mut *bot, &game)?
        } else if let Some(opponent) = report.opponent.as_deref_mut() {
            asked(opponent, &game)?
        } else {
            Some(empty.iter().collect())
        };
        // A panic forfeited the game in the walk, and ends it here.
        let Some(choices) = choices else {
            break;
        };
        if choices.is_empty() {
            break;
        }
        let cell = choices[rng.below(choices.len() as u64) as usize];
        if !empty.contains(cell) {
            break;
        }
        game.play_unchecked(cell);
    }
    Ok(game.moves().to_vec())
}

/// The cells `bot` answered at `game`; `None` when it panicked.
fn asked(bot: &mut dyn Bot, game: &History) -> Result<Option<Vec<Cell>>, BotError> {
    match catch_unwind(AssertUnwindSafe(|| bot.choose(game))) {
        Ok(answer) => Ok(Some(cells(&answer?))),
        Err(_) => Ok(None),
    }
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

/// An answer's cells with their chances, by cell (a cell named twice with its chances added):
/// two answers are the same when these are, whatever order they came in.
fn weighed(choices: &[Choice]) -> Vec<(Cell, Ratio)> {
    let mut weighed: Vec<(Cell, Ratio)> = Vec::new();
    for choice in choices {
        if let Turn::Mark(cell) = choice.turn {
            match weighed.iter_mut().find(|(known, _)| *known == cell) {
                Some((_, chance)) => *chance += choice.probability,
                None => weighed.push((cell, choice.probability)),
            }
        }
    }
    weighed.sort_unstable_by_key(|&(cell, _)| cell);
    weighed
}

/// The difference at `moves` between two answers that differ, with the chances where those do.
fn difference(
    moves: Vec<Cell>,
    recorded: Vec<(Cell, Ratio)>,
    alone: Vec<(Cell, Ratio)>,
) -> Difference {
    let chances =
        |answer: &[(Cell, Ratio)]| -> Vec<Ratio> { answer.iter().map(|&(_, p)| p).collect() };
    let alike = |answer: &[Ratio]| answer.windows(2).all(|pair| pair[0] == pair[1]);
    let (of_recorded, of_alone) = (chances(&recorded), chances(&alone));
    let texts = |chances: &[Ratio]| chances.iter().map(Ratio::to_string).collect();
    Difference {
        moves,
        recorded: recorded.iter().map(|&(cell, _)| cell).collect(),
        alone: alone.iter().map(|&(cell, _)| cell).collect(),
        chances: (!alike(&of_recorded) || !alike(&of_alone)).then(|| Chances {
            recorded: texts(&of_recorded),
            alone: texts(&of_alone),
        }),
    }
}
