//! Auditing a bot: every game it can face, on the side it plays, judged against the table.
//!
//! For the side audited, the auditor explores every legal reply of the opponent and every move
//! the bot may choose, to the end of every game, and reports whether the bot can lose, how,
//! where it gives value away, and its exact chances against an opponent who moves at random.
//!
//! Two walks give the same report: `explore` follows every history, asking the bot at each;
//! `positions` asks a [memoryless](Bot::memoryless) bot once per position and counts the
//! histories that reach it. Both give a bot that [asks ahead](Bot::asks_ahead) its questions
//! in batches before asking them one by one (`ahead` for the walk by histories). `games`
//! walks the histories once more to hand on, one by one, the games the bot loses or forfeits.
//! `recheck` asks a bot that can tell an audit from a game (an external program, which sees
//! its questions queued) again one question at a time, along a sample of the games audited.
//! Every walk is written once over `rules`, and runs on tic-tac-toe's board, on the board of
//! any other game with a table in memory, and on a board of 17 to 25 cells whose table
//! `ttt solve` cached.
//!
//! Here are the options, the call and what it returns; `report` holds what an audit found on one
//! side of a game with a table (and its JSON), `json` the JSON document of a whole audit,
//! `mistakes` the moves that gave value away one by one (which `collector` gathers), `verdict`
//! what it proved, `error` why an audit stops, `text` a side's report for people, and
//! `tableless` the audit of a board too large for a table.

mod ahead;
mod collector;
mod error;
mod estimate;
pub(crate) mod exact;
mod explore;
mod games;
mod images;
mod json;
mod mistakes;
pub(crate) mod node;
mod odds;
pub(crate) mod positions;
pub(crate) mod recheck;
mod report;
pub(crate) mod rules;
mod shown;
pub(crate) mod tableless;
pub(crate) mod text;
mod verdict;

use crate::board::{Board, Player};
use crate::bots::Bot;
use crate::game::Game;
use crate::oracle::{Layout, Oracle};
use crate::position::Position;
use positions::Kept;
use rules::Cached;
// The walks take it from here, as `super::panic_message`.
use report::panic_message;

pub(crate) use error::Halt;
pub use error::{AuditError, OverBudget};
pub use estimate::Estimate;
pub use games::{LostGame, losing_games};
pub use json::AuditJson;
pub use mistakes::{Mistake, MistakeKind, Mistakes};
pub use recheck::{Chances, Difference, RECHECK_GAMES, Recheck};
pub use report::{
    Blunders, Forfeit, IllegalLine, LosingLine, MistakeJson, MistakeLine, Odds, SideReport,
    WorstCase,
};
pub use tableless::{
    AuditBudget, Counts, Shortest, TablelessReport, audit_tableless, odds_tableless,
};
pub use verdict::Verdict;

/// What to audit: the game, the side the bot plays, how much the walk may hold, and how many
/// games a bot that can tell an audit from a game is asked again one request at a time.
///
/// The default is tic-tac-toe, the bot playing X, within [`AuditBudget::DEFAULT`], asked
/// again along [`RECHECK_GAMES`] games.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::AuditBudget;
/// use ttt_oracle::{AuditOptions, Game, Player};
///
/// let options = AuditOptions { side: Player::O, game: "4x4".parse()?, ..AuditOptions::default() };
/// assert_eq!(options.budget, AuditBudget::DEFAULT);
/// assert_eq!(AuditOptions::default().game, Game::TIC_TAC_TOE);
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditOptions {
    /// The game: any board of up to 128 cells. One of at most 16 cells is judged by its table,
    /// one of 17 to 25 by the table `ttt solve` cached when there is one; any other is
    /// searched without a table.
    pub game: Game,
    /// The side the bot plays.
    pub side: Player,
    /// How many states the walk (and, without a table, each search) may hold: see
    /// [`AuditBudget`]. Tic-tac-toe, at most 294,778 histories for both sides, ignores it.
    pub budget: AuditBudget,
    /// How many of a side's mistakes its report lists in full ([`Mistakes::list`]); all are
    /// counted whatever this is. None by default, which keeps an audit as quick as before
    /// mistakes were listed (listing them costs a pass over every move the walk recorded);
    /// `usize::MAX` lists them all, which on 4x4 can be millions.
    pub mistakes: usize,
    /// On a game with a table, how many games drawn at random (besides the shortest loss and
    /// forfeit) a bot that [can tell](Bot::one_at_a_time) an audit from a game is asked again,
    /// one request at a time, by a fresh process; 0 asks nothing again. An answer that differs
    /// from the audit's is the verdict [`Verdict::AnswersDifferently`]. The audit without a
    /// table asks one request at a time already, and ignores it.
    pub recheck: usize,
    /// The seed of the games drawn for the re-ask: `None`, the default, draws a fresh one for
    /// each audit, so that a bot cannot learn the sample from one audit to the next; the seed
    /// used is in [`Recheck::seed`], and giving it asks the same games again.
    pub recheck_seed: Option<u64>,
    /// Whether the caller has made [`estimate`] of this bot and side already, and it passed:
    /// on a game of 17 to 25 cells the audit then does not make it again (up to 5 s). `false`
    /// by default.
    ///
    /// ```
    /// use ttt_oracle::bots::{self, Bot, BotError, Choice};
    /// use ttt_oracle::{AuditOptions, Game, History, Player, audit, cache, memory};
    ///
    /// /// `perfect`'s first choice, counting the questions it is asked.
    /// struct Counted(Box<dyn Bot>, usize);
    /// impl Bot for Counted {
    ///     fn name(&self) -> &str { "counted" }
    ///     fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
    ///         self.1 += 1;
    ///         Ok(vec![Choice::certain(self.0.choose(game)?.remove(0).turn)])
    ///     }
    ///     fn plays(&self, game: Game) -> Result<(), BotError> { self.0.plays(game) }
    ///     fn memoryless(&self) -> bool { true }
    /// }
    ///
    /// let game: Game = "1x17k2".parse()?;
    /// let folder = tempfile::tempdir()?;
    /// cache::solve_into(folder.path(), game, &|_| {}, &|_| {})?;
    /// cache::set_cache_dir(folder.path().to_path_buf());
    /// // The estimate is of memory: it is made under a limit.
    /// memory::set_limit(Some(1 << 30));
    /// let options = AuditOptions::new(game, Player::X);
    /// let mut bot = Counted(bots::from_spec("perfect")?, 0);
    /// audit::estimate(&mut bot, &options)?;
    /// let estimate = bot.1;
    /// let asked = |estimated| {
    ///     let mut bot = Counted(bots::from_spec("perfect").unwrap(), 0);
    ///     audit(&mut bot, &AuditOptions { estimated, ..options }).unwrap();
    ///     bot.1
    /// };
    /// // The audit makes the estimate itself unless told it was made.
    /// assert!(estimate > 0);
    /// assert_eq!(asked(false), asked(true) + estimate);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub estimated: bool,
}

impl AuditOptions {
    /// `side` of `game`, within the default budget.
    pub fn new(game: Game, side: Player) -> AuditOptions {
        AuditOptions {
            game,
            side,
            budget: AuditBudget::DEFAULT,
            mistakes: 0,
            recheck: RECHECK_GAMES,
            recheck_seed: None,
            estimated: false,
        }
    }
}

impl Default for AuditOptions {
    fn default() -> AuditOptions {
        AuditOptions::new(Game::TIC_TAC_TOE, Player::X)
    }
}

/// What [`audit`](crate::audit()) found on one side: judged by the table on a game of at most
/// 16 cells or one whose table `ttt solve` cached, searched without one on any other.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::{Report, Verdict};
/// use ttt_oracle::{AuditOptions, audit, bots};
///
/// let mut random = bots::from_spec("random")?;
/// match audit(random.as_mut(), &AuditOptions::default())? {
///     Report::Solved(report) => assert_eq!(report.verdict(), Verdict::CanLose),
///     Report::Searched(_) => unreachable!("tic-tac-toe has a table"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// One report a side, moved a few times: boxing the larger would save nothing worth a `Box` in
// every caller's pattern.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A game with a table: every game counted, every move judged.
    Solved(SideReport),
    /// A board with no table (more than 25 cells, or none cached): the shortest defeats
    /// searched, and the counts and odds when the walk fitted its budget.
    Searched(TablelessReport),
}

impl Report {
    /// The verdict; `None` only when a search without a table ran out of budget before
    /// settling it.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Report::Solved(report) => Some(report.verdict()),
            Report::Searched(report) => report.verdict(),
        }
    }

    /// The report of a game with a table, if this is one.
    pub fn solved(&self) -> Option<&SideReport> {
        match self {
            Report::Solved(report) => Some(report),
            Report::Searched(_) => None,
        }
    }

    /// The report of a board searched without a table, if this is one.
    pub fn searched(&self) -> Option<&TablelessReport> {
        match self {
            Report::Solved(_) => None,
            Report::Searched(report) => Some(report),
        }
    }
}

/// The side's text as `ttt audit` prints it with `NO_COLOR`, naming the bot "the bot" (the
/// report does not hold its name): [`SideReport::text`] or [`TablelessReport::text`].
///
/// # Examples
///
/// ```
/// use ttt_oracle::{AuditOptions, Game, Player, audit, bots};
///
/// let mut perfect = bots::from_spec("perfect")?;
/// let report = audit(perfect.as_mut(), &AuditOptions::new(Game::TIC_TAC_TOE, Player::X))?;
/// println!("{report}");
/// assert!(report.to_string().starts_with("the bot as X: never loses\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Report::Solved(report) => report.fmt(f),
            Report::Searched(report) => report.fmt(f),
        }
    }
}

/// Audits `bot` playing `options.side` of `options.game`: every legal reply of the opponent
/// and every move the bot may choose, to the end of every game.
///
/// On a game of at most 16 cells each move is judged by the game's table (solved first when
/// none is embedded), and on a game of 17 to 25 cells by the table `ttt solve --game G`
/// cached, if it has: the report counts the games lost and forfeited, keeps one shortest of
/// each, the moves that gave value away, the exact odds against a random and a perfect
/// opponent and the worst an opponent who knows the bot can do. On any other board the
/// shortest loss and forfeit are searched for without a table, within the budget, and the
/// games counted when they fit.
///
/// A [memoryless](Bot::memoryless) bot is asked once per position, any other once per
/// history, at most `options.budget.states` times. Then, on a game with a table, a bot that
/// [can tell](Bot::one_at_a_time) an audit from a game is asked again one request at a time
/// along `options.recheck` games and the shortest loss and forfeit ([`SideReport::recheck`]).
///
/// # Errors
///
/// [`AuditError::Refused`] when the bot does not [play](Bot::plays) the game (nothing is asked
/// of it); [`AuditError::OverBudget`] when the walk by histories would ask more than the
/// budget; [`AuditError::OverMemory`] when the walk would hold more than the
/// [memory limit](crate::memory::set_limit); [`AuditError::NoTable`] when a table cannot be
/// read (a cached one damaged: [`TableError::DamagedFile`](crate::TableError::DamagedFile));
/// [`AuditError::Bot`] when the
/// bot cannot answer at all, or its answers cannot be trusted (an external program that broke
/// its protocol, in the audit or asked again). A forbidden move or a panic only forfeits that game.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::{AuditBudget, Verdict};
/// use ttt_oracle::{AuditError, AuditOptions, Player, audit, bots};
///
/// let mut perfect = bots::from_spec("perfect")?;
/// let report = audit(perfect.as_mut(), &AuditOptions::default())?;
/// assert_eq!(report.verdict(), Some(Verdict::NeverLoses));
///
/// let mut random = bots::from_spec("random")?;
/// let report = audit(random.as_mut(), &AuditOptions::default())?;
/// assert_eq!(report.solved().unwrap().shortest_loss.as_ref().unwrap().moves.len(), 6);
///
/// // 3 in a row on 3 by 4 is a first-player win: perfect play never loses as X.
/// let options = AuditOptions { game: "3x4".parse()?, ..AuditOptions::default() };
/// assert_eq!(audit(perfect.as_mut(), &options)?.verdict(), Some(Verdict::NeverLoses));
///
/// // smartbot plays only tic-tac-toe: nothing is asked of it on 3x4.
/// let mut smartbot = bots::from_spec("smartbot")?;
/// assert!(matches!(audit(smartbot.as_mut(), &options), Err(AuditError::Refused(_))));
///
/// // 5x5 has no table: marcelo is searched, here within a small budget.
/// let budget = AuditBudget { states: 1_000, searched: 100_000 };
/// let options = AuditOptions { game: "5x5".parse()?, budget, recheck: 0, ..AuditOptions::default() };
/// let mut marcelo = bots::from_spec("marcelo")?;
/// let report = audit(marcelo.as_mut(), &options)?;
/// // Its shortest forfeit: two marks in one turn after 13 1 5 17 9 21.
/// let forfeit = report.searched().unwrap().shortest_illegal.line().unwrap();
/// assert_eq!(forfeit.moves.len(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn audit(bot: &mut dyn Bot, options: &AuditOptions) -> Result<Report, AuditError> {
    let AuditOptions {
        game,
        side,
        budget,
        recheck,
        recheck_seed,
        ..
    } = *options;
    let cached = Cached::table(game).map_err(AuditError::NoTable)?;
    if game.has_table() || cached.is_some() {
        let mut report = solved(bot, options)?;
        let loss = report.shortest_loss.iter().map(|line| line.moves.clone());
        let forfeit = report
            .shortest_illegal
            .iter()
            .map(|line| line.moves.clone());
        let mut audited = recheck::Audited {
            game,
            side,
            shortest: loss.chain(forfeit).collect(),
            opponent: None,
        };
        report.recheck =
            recheck::recheck(bot, &mut audited, recheck, recheck_seed).map_err(AuditError::Bot)?;
        // The games drawn asked only what the audit had asked; were a turn of them new, the
        // process started for it stops here.
        bot.finish().map_err(AuditError::Bot)?;
        return Ok(Report::Solved(report));
    }
    bot.plays(game).map_err(AuditError::Refused)?;
    tableless::audit_tableless(bot, game, side, budget).map(Report::Searched)
}

/// The estimate [`audit`] makes before it walks a game of 17 to 25 cells (a table `ttt solve`
/// cached), made alone: so that a caller auditing both sides refuses either before the first
/// begins, not after its walk. `Ok` for a game whose table is in memory, for a bot the
/// estimate does not ask (one that remembers, or an external program), and for a walk that
/// may fit the [memory limit](crate::memory::set_limit); it takes a few seconds at most.
///
/// # Errors
///
/// [`AuditError::WouldPassMemory`] with the estimate when the walk of `options.side` would
/// clearly pass the memory limit; [`AuditError::Refused`] when the bot does not play the
/// game or its table is damaged; [`AuditError::Bot`] when the bot fails when asked.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{AuditOptions, Game, Player, audit, bots};
///
/// // Tic-tac-toe's table is in memory: nothing to estimate.
/// let mut random = bots::from_spec("random")?;
/// audit::estimate(random.as_mut(), &AuditOptions::new(Game::TIC_TAC_TOE, Player::O))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn estimate(bot: &mut dyn Bot, options: &AuditOptions) -> Result<(), AuditError> {
    let (game, side) = (options.game, options.side);
    if game.has_table() || Cached::table(game).map_err(AuditError::NoTable)?.is_none() {
        return Ok(());
    }
    bot.plays(game).map_err(AuditError::Refused)?;
    Ok(estimate::refuse_if_over(bot, game, side, CACHED_NODE)?)
}

/// The bytes a position of a walk over a table `ttt solve` cached holds, for the estimate.
const CACHED_NODE: u64 = std::mem::size_of::<node::Node<Cached>>() as u64;

/// The audit of [`audit`] on a game with a table, as `options` say.
pub(crate) fn solved(bot: &mut dyn Bot, options: &AuditOptions) -> Result<SideReport, AuditError> {
    let AuditOptions {
        game,
        side,
        budget,
        mistakes: keep,
        estimated,
        ..
    } = *options;
    bot.plays(game).map_err(AuditError::Refused)?;
    let limit = budget.states as u64;
    let walked = match Oracle::of(game).map_err(AuditError::NoTable)?.layout() {
        // Without a limit: tic-tac-toe's histories are few.
        Layout::TicTacToe(dense) => walk::<Board>(bot, game, dense, side, u64::MAX, keep),
        Layout::Disk(table) => {
            if !estimated {
                estimate::refuse_if_over(bot, game, side, CACHED_NODE)?;
            }
            walk::<Cached>(bot, game, table, side, limit, keep)
        }
        Layout::Any(table) => {
            let by_images = match bot.symmetric() && bot.memoryless() {
                true => images::audit(bot, game, table, side),
                false => Ok(None),
            };
            match by_images {
                Ok(Some(report)) => bot.finish().map(|()| report).map_err(Halt::Bot),
                Ok(None) => walk::<Position>(bot, game, table, side, limit, keep),
                Err(halt) => Err(halt),
            }
        }
    };
    walked.map_err(|halt| halt.into_error(&*bot, game, limit))
}

/// The audit on boards of kind `R`, judged by `table`, asking a bot that is not memoryless
/// about at most `limit` histories, listing `keep` mistakes.
fn walk<R: Kept>(
    bot: &mut dyn Bot,
    game: Game,
    table: &R::Table,
    side: Player,
    limit: u64,
    keep: usize,
) -> Result<SideReport, Halt> {
    let by_positions = if bot.memoryless() {
        positions::audit::<R>(bot, game, table, side, keep)?
    } else {
        None
    };
    let report = match by_positions {
        Some(report) => report,
        // Numbers too large for the walk by positions (probabilities far too fine, or too many
        // distinct ones in a ply): every history, each fraction reduced as it goes.
        None => {
            let walked = if bot.asks_ahead() {
                ahead::ask::<R>(bot, game, side, limit)
            } else {
                Ok(())
            };
            match walked.and_then(|()| explore::audit::<R>(bot, game, table, side, limit, keep)) {
                Ok(report) => report,
                Err(halt @ (Halt::OverBudget | Halt::OverMemory(_))) => {
                    // Stopped at once rather than left waiting until the bot is dropped; what
                    // it says then matters no more, as its audit is not done.
                    let _ = bot.finish();
                    return Err(halt);
                }
                Err(halt) => return Err(halt),
            }
        }
    };
    // An external bot's last answers count only once it is known to have printed nothing
    // more than it was asked for.
    bot.finish()?;
    Ok(report)
}

impl From<estimate::EstimateHalt> for AuditError {
    fn from(halt: estimate::EstimateHalt) -> AuditError {
        match halt {
            estimate::EstimateHalt::Bot(error) => AuditError::Bot(error),
            estimate::EstimateHalt::Over(estimate) => AuditError::WouldPassMemory(estimate),
        }
    }
}
