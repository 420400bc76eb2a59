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
//! Every walk is written once over `rules`, and runs on tic-tac-toe's board and on the board of
//! any other game with a table.

mod ahead;
mod explore;
mod games;
mod odds;
pub(crate) mod positions;
pub(crate) mod rules;
pub(crate) mod tableless;

use std::any::Any;
use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::board::{Board, Cell, Player};
use crate::bots::{Bot, BotError, Turn};
use crate::game::Game;
use crate::history::History;
use crate::position::Position;
use crate::quote::quote;
use crate::ratio::Ratio;
use crate::review::MoveVerdict;
use crate::solve::tic_tac_toe::Evaluation;
use crate::table::TableError;
use crate::table::tic_tac_toe::table;
use crate::value::Probe;
use crate::value::Value;
use positions::Kept;
use rules::Rules;

pub use games::{LostGame, losing_games};
pub use tableless::{AuditBudget, Counts, Shortest, TablelessReport};

/// What to audit: the game, the side the bot plays, and how much the walk may hold.
///
/// The default is tic-tac-toe, the bot playing X, within [`AuditBudget::DEFAULT`].
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
    /// The game: any board of up to 128 cells. One of at most 16 cells is judged by its table;
    /// a larger one is searched without a table.
    pub game: Game,
    /// The side the bot plays.
    pub side: Player,
    /// How many states the walk (and, without a table, each search) may hold: see
    /// [`AuditBudget`]. Tic-tac-toe, at most 294,778 histories for both sides, ignores it.
    pub budget: AuditBudget,
}

impl AuditOptions {
    /// `side` of `game`, within the default budget.
    pub fn new(game: Game, side: Player) -> AuditOptions {
        AuditOptions {
            game,
            side,
            budget: AuditBudget::DEFAULT,
        }
    }
}

impl Default for AuditOptions {
    fn default() -> AuditOptions {
        AuditOptions {
            game: Game::TIC_TAC_TOE,
            side: Player::X,
            budget: AuditBudget::DEFAULT,
        }
    }
}

/// What [`audit`](crate::audit()) found on one side: judged by the table on a game of at most
/// 16 cells, searched without one on a larger board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A game with a table: every game counted, every move judged.
    Solved(SideReport),
    /// A board too large for a table: the shortest defeats searched, and the counts and odds
    /// when the walk fitted its budget.
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

/// Audits `bot` playing `options.side` of `options.game`: every legal reply of the opponent
/// and every move the bot may choose, to the end of every game.
///
/// On a game of at most 16 cells each move is judged by the game's table (solved first when
/// none is embedded): the report counts the games lost and forfeited, keeps one shortest of
/// each, the moves that gave value away, the exact odds against a random and a perfect
/// opponent and the worst an opponent who knows the bot can do. On a larger board, which no
/// table holds, the shortest loss and forfeit are searched for within the budget, and the
/// games counted when they fit.
///
/// A [memoryless](Bot::memoryless) bot is asked once per position, any other once per
/// history, at most `options.budget.states` times.
///
/// # Errors
///
/// [`AuditError::Refused`] when the bot does not [play](Bot::plays) the game (nothing is asked
/// of it); [`AuditError::OverBudget`] when the walk by histories would ask more than the
/// budget; [`AuditError::NoTable`] when a table cannot be read; [`AuditError::Bot`] when the
/// bot cannot answer at all, or its answers cannot be trusted (an external program that broke
/// its protocol). A forbidden move or a panic only forfeits that game.
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
/// let options = AuditOptions { game: "5x5".parse()?, side: Player::X, budget };
/// let mut marcelo = bots::from_spec("marcelo")?;
/// let report = audit(marcelo.as_mut(), &options)?;
/// // Its shortest forfeit: two marks in one turn after 13 1 5 17 9 21.
/// let forfeit = report.searched().unwrap().shortest_illegal.line().unwrap();
/// assert_eq!(forfeit.moves.len(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn audit(bot: &mut dyn Bot, options: &AuditOptions) -> Result<Report, AuditError> {
    let AuditOptions { game, side, budget } = *options;
    if game.has_table() {
        return with_table(bot, game, side, budget).map(Report::Solved);
    }
    bot.plays(game).map_err(AuditError::Refused)?;
    tableless::audit_tableless(bot, game, side, budget)
        .map(Report::Searched)
        .map_err(AuditError::Bot)
}

/// Audits `bot` playing `side` of `game`, a game with a table, within `budget`: the audit of
/// [`audit`] on a game of at most 16 cells.
pub(crate) fn with_table(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    budget: AuditBudget,
) -> Result<SideReport, AuditError> {
    bot.plays(game).map_err(AuditError::Refused)?;
    if game == Game::TIC_TAC_TOE {
        return walk::<Board>(bot, game, table(), side, u64::MAX).map_err(|halt| match halt {
            Halt::Bot(error) => AuditError::Bot(error),
            Halt::OverBudget => unreachable!("tic-tac-toe is walked without a limit"),
        });
    }
    let table = crate::table::of(game).map_err(AuditError::NoTable)?;
    let limit = budget.states as u64;
    walk::<Position>(bot, game, table, side, limit)
        .map_err(|halt| halt.into_error(&*bot, game, limit))
}

/// A walk by histories that would ask more questions than its budget allows: every history
/// (the moves that reach a bot's turn) is asked on its own when a bot does not say it answers
/// from the board alone, and the larger games hold billions of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// The bots that do not say they are [memoryless](Bot::memoryless), why every history
    /// was to be asked on its own.
    pub bots: Vec<String>,
    /// The game.
    pub game: Game,
    /// The most histories the walk could ask about.
    pub limit: u64,
}

/// "\"first.py\" would be asked about more than 1000 histories of 4x4 (the budget): as it does
/// not say ...": who, where, the limit and why.
impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.bots.iter().map(|name| quote(name)).collect();
        let (names, does) = match names.as_slice() {
            [one] => (one.clone(), "it does not say it answers"),
            _ => (names.join(" and "), "they do not say they answer"),
        };
        write!(
            f,
            "{names} would be asked about more than {} histories of {} (the budget): as \
             {does} from the board alone, each history (the moves that reach a bot's turn) \
             is asked on its own",
            self.limit, self.game
        )
    }
}

impl std::error::Error for OverBudget {}

/// Why a walk stopped before its end.
pub(crate) enum Halt {
    /// The bot could not answer, or its answers cannot be trusted.
    Bot(BotError),
    /// More histories (or, without a table, states) than the budget.
    OverBudget,
}

impl From<BotError> for Halt {
    fn from(error: BotError) -> Halt {
        Halt::Bot(error)
    }
}

impl Halt {
    /// The error for an audit of `bot` on `game` within `limit` histories.
    fn into_error(self, bot: &dyn Bot, game: Game, limit: u64) -> AuditError {
        match self {
            Halt::Bot(error) => AuditError::Bot(error),
            Halt::OverBudget => AuditError::OverBudget(OverBudget {
                bots: vec![bot.name().to_string()],
                game,
                limit,
            }),
        }
    }
}

/// Why a bot was not audited on a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuditError {
    /// The bot does not play the game: its refusal, naming both.
    Refused(BotError),
    /// The game has no table to judge the bot's moves by.
    NoTable(TableError),
    /// The bot could not answer, or its answers cannot be trusted.
    Bot(BotError),
    /// The bot would be asked about more histories than the budget allows.
    OverBudget(OverBudget),
}

impl fmt::Display for AuditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuditError::Refused(error) | AuditError::Bot(error) => error.fmt(f),
            AuditError::NoTable(error) => write!(f, "{error}: an audit needs the game's table"),
            AuditError::OverBudget(over) => over.fmt(f),
        }
    }
}

impl std::error::Error for AuditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AuditError::Refused(error) | AuditError::Bot(error) => Some(error),
            AuditError::NoTable(error) => Some(error),
            AuditError::OverBudget(over) => Some(over),
        }
    }
}

impl From<BotError> for AuditError {
    fn from(error: BotError) -> AuditError {
        AuditError::Bot(error)
    }
}

/// The audit on boards of kind `R`, judged by `table`, asking a bot that is not memoryless
/// about at most `limit` histories.
fn walk<R: Kept>(
    bot: &mut dyn Bot,
    game: Game,
    table: &R::Table,
    side: Player,
    limit: u64,
) -> Result<SideReport, Halt> {
    let by_positions = if bot.memoryless() {
        positions::audit::<R>(bot, game, table, side)?
    } else {
        None
    };
    let report = match by_positions {
        Some(report) => report,
        // Numbers too large for the walk by positions (probabilities far too fine): every
        // history, each fraction reduced as it goes.
        None => {
            let walked = if bot.asks_ahead() {
                ahead::ask::<R>(bot, game, side, limit)
            } else {
                Ok(())
            };
            match walked.and_then(|()| explore::audit::<R>(bot, game, table, side, limit)) {
                Ok(report) => report,
                Err(Halt::OverBudget) => {
                    // Stopped at once rather than left waiting until the bot is dropped; what
                    // it says then matters no more, as its audit is not done.
                    let _ = bot.finish();
                    return Err(Halt::OverBudget);
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

/// What a bot's panic said, with the board and moves it was asked about: the message of a
/// [`Forfeit::Panic`].
fn panic_message(payload: Box<dyn Any + Send>, game: &History) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    format!(
        "{message} (on board {}, moves {:?})",
        game.position(),
        game.moves()
    )
}

/// A line of play, as the moves from the empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LosingLine {
    /// Every move of the game, X first; the last one completes the opponent's line.
    pub moves: Vec<Cell>,
    /// Which move (an index into `moves`) was the bot's losing mistake: the bot's move after
    /// which perfect play by the opponent wins.
    pub mistake: Option<usize>,
}

impl LosingLine {
    fn new<R: Rules>(moves: Vec<Cell>, bot: Player, game: Game, table: &R::Table) -> LosingLine {
        let mistake = losing_mistake::<R>(&moves, bot, game, table);
        LosingLine { moves, mistake }
    }
}

/// The bot's move that turned a position it could hold into a lost one.
fn losing_mistake<R: Rules>(
    moves: &[Cell],
    bot: Player,
    game: Game,
    table: &R::Table,
) -> Option<usize> {
    let (mut board, _) = R::empty(game);
    for (i, &cell) in moves.iter().enumerate() {
        let mover = board.to_move();
        let before = board.probe(table).value;
        if !board.empty_cells().contains(cell) || board.status() != crate::Status::InProgress {
            return None;
        }
        board = board.mark(cell, mover);
        let after = -board.probe(table).value;
        if mover == bot && before != Value::Loss && after == Value::Loss {
            return Some(i);
        }
    }
    None
}

/// A game the bot forfeited by breaking the rules (or by panicking).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalLine {
    /// The moves played before the bot's turn.
    pub moves: Vec<Cell>,
    /// What the bot did instead of a legal move.
    pub what: Forfeit,
}

/// How a bot broke the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// A turn the rules forbid: a taken cell, no move, or several marks.
    Turn(Turn),
    /// The bot panicked; the message it panicked with.
    Panic(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Turn(Turn::Mark(cell)) => write!(f, "played {cell}, which is taken"),
            Forfeit::Turn(turn) => write!(f, "{turn}"),
            Forfeit::Panic(message) => write!(f, "panicked: {message}"),
        }
    }
}

/// Decision points where the bot's move lowered the game-theoretic value, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blunders {
    /// A won position turned into a draw.
    pub win_to_draw: u64,
    /// A won position turned into a loss.
    pub win_to_loss: u64,
    /// A drawn position turned into a loss.
    pub draw_to_loss: u64,
}

impl Blunders {
    /// All of them.
    pub fn total(&self) -> u64 {
        self.win_to_draw + self.win_to_loss + self.draw_to_loss
    }
}

/// Exact chances against an opponent who picks uniformly among a set of moves (all its legal
/// moves for [`SideReport::vs_random`], its optimal ones for [`SideReport::vs_perfect`]), the
/// bot's own choices weighted by their probabilities. The four add up to 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    /// The bot wins.
    pub win: Ratio,
    /// A draw.
    pub draw: Ratio,
    /// The bot loses on the board.
    pub loss: Ratio,
    /// The bot forfeits by breaking the rules.
    pub illegal: Ratio,
}

impl Odds {
    /// Nothing yet.
    const ZERO: Odds = Odds {
        win: Ratio::ZERO,
        draw: Ratio::ZERO,
        loss: Ratio::ZERO,
        illegal: Ratio::ZERO,
    };
}

/// What an audit found on one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideReport {
    /// The game audited.
    pub game: Game,
    /// The side the bot played.
    pub side: Player,
    /// Decision points visited: positions where the bot was asked for a move.
    pub decision_points: u64,
    /// Distinct games explored, forfeits included.
    pub games: u64,
    /// Distinct games the bot lost on the board.
    pub losing_games: u64,
    /// One shortest losing game (the first found among the shortest).
    pub shortest_loss: Option<LosingLine>,
    /// Moves that lowered the value, counted once per decision point and move the bot may
    /// choose there.
    pub blunders: Blunders,
    /// Moves that kept a win, but not the fastest, counted the same way.
    pub slow_wins: u64,
    /// Games the bot forfeited by breaking the rules or panicking.
    pub illegal_games: u64,
    /// One shortest forfeited game.
    pub shortest_illegal: Option<IllegalLine>,
    /// Exact chances against a uniformly random opponent.
    pub vs_random: Odds,
    /// Exact chances against the `perfect` style: an opponent who picks uniformly among its
    /// optimal moves.
    pub vs_perfect: Odds,
    /// The most an opponent who knows the bot can make it lose.
    pub worst_case: WorstCase,
}

/// The highest probability with which an opponent who knows the bot (its code, and how likely
/// each of its choices is, but not the outcome of its coin flips in advance) makes it lose on
/// the board or forfeit: 0 for a bot that never loses, 1 for a deterministic bot that can lose,
/// and a fraction in between for a randomised one whose losses depend on its luck.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{AuditOptions, Game, Player, Ratio, audit, bots};
///
/// let mut random = bots::from_spec("random")?;
/// let report = audit(random.as_mut(), &AuditOptions::new(Game::TIC_TAC_TOE, Player::X))?;
/// let worst = &report.solved().unwrap().worst_case;
/// assert!(Ratio::ZERO < worst.loss && worst.loss < Ratio::ONE);
/// let mut perfect = bots::from_spec("perfect")?;
/// let report = audit(perfect.as_mut(), &AuditOptions::new(Game::TIC_TAC_TOE, Player::O))?;
/// let worst = &report.solved().unwrap().worst_case;
/// assert_eq!((worst.loss, worst.line.len()), (Ratio::ZERO, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorstCase {
    /// The probability, exactly.
    pub loss: Ratio,
    /// One game of such an opponent against the bot's most damaging choices, move by move from
    /// the empty board: the opponent's first best reply at each of its turns, the bot's choice
    /// that leaves it most to lose at each of its own (the first among equals). It ends where
    /// the game does, or before the bot's turn where it forfeits. Empty when `loss` is 0.
    pub line: Vec<Cell>,
}

/// What an audit proved about one side: whether the bot can lose on the board, and whether it
/// breaks the rules (and so forfeits), each apart from the other.
///
/// A bot that never loses on the board but sometimes marks two cells in one turn is not one
/// that can lose: it [breaks the rules](Verdict::BreaksRules), and the words say so.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::Verdict;
/// use ttt_oracle::{AuditOptions, Game, Player, audit, bots};
///
/// let mut smartbot = bots::from_spec("smartbot")?;
/// let options = AuditOptions::new(Game::TIC_TAC_TOE, Player::O);
/// let verdict = audit(smartbot.as_mut(), &options)?.verdict().unwrap();
/// assert_eq!(verdict, Verdict::CanLose);
/// assert_eq!(verdict.to_string(), "can lose");
/// assert_eq!(verdict.as_str(), "can_lose");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No game lost on the board and none forfeited.
    NeverLoses,
    /// Some game lost on the board, none forfeited.
    CanLose,
    /// No game lost on the board, but some forfeited by a forbidden move or a panic.
    BreaksRules,
    /// Both: some game lost on the board and some forfeited.
    CanLoseAndBreaksRules,
}

impl Verdict {
    /// The verdict for a side that lost `losing_games` on the board and forfeited
    /// `illegal_games`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert_eq!(Verdict::from_counts(0, 0), Verdict::NeverLoses);
    /// assert_eq!(Verdict::from_counts(12, 0), Verdict::CanLose);
    /// assert_eq!(Verdict::from_counts(0, 10), Verdict::BreaksRules);
    /// assert_eq!(Verdict::from_counts(12, 45), Verdict::CanLoseAndBreaksRules);
    /// ```
    pub fn from_counts(losing_games: u64, illegal_games: u64) -> Verdict {
        match (losing_games > 0, illegal_games > 0) {
            (false, false) => Verdict::NeverLoses,
            (true, false) => Verdict::CanLose,
            (false, true) => Verdict::BreaksRules,
            (true, true) => Verdict::CanLoseAndBreaksRules,
        }
    }

    /// Whether some game is lost on the board.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert!(Verdict::CanLoseAndBreaksRules.can_lose());
    /// assert!(!Verdict::BreaksRules.can_lose());
    /// ```
    pub fn can_lose(self) -> bool {
        matches!(self, Verdict::CanLose | Verdict::CanLoseAndBreaksRules)
    }

    /// Whether some game is forfeited by breaking the rules.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert!(Verdict::BreaksRules.breaks_rules());
    /// assert!(!Verdict::CanLose.breaks_rules());
    /// ```
    pub fn breaks_rules(self) -> bool {
        matches!(self, Verdict::BreaksRules | Verdict::CanLoseAndBreaksRules)
    }

    /// The stable name used in JSON: `never_loses`, `can_lose`, `breaks_rules` or
    /// `can_lose_and_breaks_rules`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert_eq!(Verdict::BreaksRules.as_str(), "breaks_rules");
    /// assert_eq!(serde_json::to_string(&Verdict::CanLose)?, "\"can_lose\"");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::NeverLoses => "never_loses",
            Verdict::CanLose => "can_lose",
            Verdict::BreaksRules => "breaks_rules",
            Verdict::CanLoseAndBreaksRules => "can_lose_and_breaks_rules",
        }
    }
}

/// The verdict in words for people: "never loses", "can lose", "breaks the rules", or
/// "can lose, breaks the rules".
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::NeverLoses => "never loses",
            Verdict::CanLose => "can lose",
            Verdict::BreaksRules => "breaks the rules",
            Verdict::CanLoseAndBreaksRules => "can lose, breaks the rules",
        })
    }
}

impl SideReport {
    /// Nothing explored yet.
    fn empty(game: Game, side: Player) -> SideReport {
        SideReport {
            game,
            side,
            decision_points: 0,
            games: 0,
            losing_games: 0,
            shortest_loss: None,
            blunders: Blunders::default(),
            slow_wins: 0,
            illegal_games: 0,
            shortest_illegal: None,
            vs_random: Odds::ZERO,
            vs_perfect: Odds::ZERO,
            worst_case: WorstCase {
                loss: Ratio::ZERO,
                line: Vec::new(),
            },
        }
    }

    /// Counts, `times` over, a legal move of the bot from a position valued `before` to one
    /// whose opponent holds `after`: a blunder when it lowered the value, a slow win when it
    /// kept a win but not the fastest.
    #[inline]
    fn judge_move(&mut self, before: Evaluation, after: Probe, times: u64) {
        let made = (-after.value, after.remoteness + 1);
        let blunders = &mut self.blunders;
        match MoveVerdict::of((before.value, before.remoteness), made) {
            MoveVerdict::WinToDraw => blunders.win_to_draw += times,
            MoveVerdict::WinToLoss => blunders.win_to_loss += times,
            MoveVerdict::DrawToLoss => blunders.draw_to_loss += times,
            MoveVerdict::SlowWin => self.slow_wins += times,
            MoveVerdict::Best | MoveVerdict::FastLoss => {}
        }
    }

    /// Whether the bot never loses on this side: no game lost on the board and none
    /// forfeited.
    pub fn never_loses(&self) -> bool {
        self.verdict() == Verdict::NeverLoses
    }

    /// What the audit proved: never loses, can lose on the board, breaks the rules, or both.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    /// use ttt_oracle::{AuditOptions, Game, Player, audit, bots};
    ///
    /// // marcelo never loses on the board as X, but sometimes marks two cells in one turn.
    /// let mut marcelo = bots::from_spec("marcelo")?;
    /// let as_x = AuditOptions::new(Game::TIC_TAC_TOE, Player::X);
    /// let x = audit(marcelo.as_mut(), &as_x)?;
    /// assert_eq!(x.solved().unwrap().verdict(), Verdict::BreaksRules);
    /// assert_eq!(Verdict::BreaksRules.to_string(), "breaks the rules");
    /// let as_o = AuditOptions::new(Game::TIC_TAC_TOE, Player::O);
    /// let o = audit(marcelo.as_mut(), &as_o)?;
    /// assert_eq!(o.solved().unwrap().verdict(), Verdict::CanLoseAndBreaksRules);
    ///
    /// let mut perfect = bots::from_spec("perfect")?;
    /// assert_eq!(audit(perfect.as_mut(), &as_x)?.verdict(), Some(Verdict::NeverLoses));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict(&self) -> Verdict {
        Verdict::from_counts(self.losing_games, self.illegal_games)
    }
}

#[derive(serde::Serialize)]
struct Exact {
    win: String,
    draw: String,
    loss: String,
    illegal: String,
}

/// Odds as JSON: decimals, and the exact fractions beside them.
#[derive(serde::Serialize)]
struct OddsJson {
    win: f64,
    draw: f64,
    loss: f64,
    illegal: f64,
    exact: Exact,
}

/// Odds in a report's JSON: `{"win", "draw", "loss", "illegal"}` as decimals, and `exact`
/// with the same keys as fractions.
impl Serialize for Odds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        OddsJson::from(self).serialize(serializer)
    }
}

impl From<&Odds> for OddsJson {
    fn from(odds: &Odds) -> OddsJson {
        OddsJson {
            win: odds.win.to_f64(),
            draw: odds.draw.to_f64(),
            loss: odds.loss.to_f64(),
            illegal: odds.illegal.to_f64(),
            exact: Exact {
                win: odds.win.to_string(),
                draw: odds.draw.to_string(),
                loss: odds.loss.to_string(),
                illegal: odds.illegal.to_string(),
            },
        }
    }
}

#[derive(serde::Serialize)]
struct WorstCaseJson<'a> {
    loss: String,
    decimal: f64,
    line: &'a [Cell],
}

/// The JSON shape documented in `docs/commands.md`.
impl Serialize for SideReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct BlundersJson {
            win_to_draw: u64,
            win_to_loss: u64,
            draw_to_loss: u64,
        }
        let mut s = serializer.serialize_struct("SideReport", 15)?;
        s.serialize_field("side", &self.side)?;
        s.serialize_field("never_loses", &self.never_loses())?;
        s.serialize_field("verdict", &self.verdict())?;
        s.serialize_field("decision_points", &self.decision_points)?;
        s.serialize_field("games", &self.games)?;
        s.serialize_field("losing_games", &self.losing_games)?;
        s.serialize_field(
            "shortest_loss",
            &self.shortest_loss.as_ref().map(|l| &l.moves),
        )?;
        s.serialize_field(
            "blunders",
            &BlundersJson {
                win_to_draw: self.blunders.win_to_draw,
                win_to_loss: self.blunders.win_to_loss,
                draw_to_loss: self.blunders.draw_to_loss,
            },
        )?;
        s.serialize_field("slow_wins", &self.slow_wins)?;
        s.serialize_field("illegal_games", &self.illegal_games)?;
        s.serialize_field(
            "shortest_illegal",
            &self.shortest_illegal.as_ref().map(|l| &l.moves),
        )?;
        s.serialize_field("vs_random", &self.vs_random)?;
        s.serialize_field("vs_perfect", &self.vs_perfect)?;
        s.serialize_field(
            "worst_case",
            &WorstCaseJson {
                loss: self.worst_case.loss.to_string(),
                decimal: self.worst_case.loss.to_f64(),
                line: &self.worst_case.line,
            },
        )?;
        s.end()
    }
}
