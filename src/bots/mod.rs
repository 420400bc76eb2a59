//! Bots: anything that picks moves. One trait serves the auditor, `ttt play` and external
//! programs; each built-in bot lives in its own file.
//!
//! The rule bots are our own Rust ports of published bots (student reports and blog posts, each
//! named in [`CATALOG`] by its [`Source`]), kept faithful to what their authors wrote, quirks and
//! bugs included, because a bot's real behaviour is what the auditor judges. Each file's doc
//! comment names its source and every reading the source left open.

mod c_minimax;
pub mod external;
mod forkbot;
mod geeks;
mod marcelo;
mod memo;
mod newell_simon;
mod perfect;
mod random;
mod smartbot;
mod solved;
mod styles;
pub mod tactics;

use std::fmt;

use crate::Game;
use crate::board::{Board, Cell, Cells};
use crate::game::MAX_CELLS;
use crate::history::History;
use crate::ratio::Ratio;
use crate::rng::SplitMix64;

pub use c_minimax::CMinimax;
pub use external::External;
pub use forkbot::Forkbot;
pub use geeks::GeeksMinimax;
pub use marcelo::Marcelo;
pub use newell_simon::NewellSimon;
pub use perfect::Perfect;
pub use random::RandomBot;
pub use smartbot::Smartbot;
pub use styles::{Casual, Epsilon, Tricky, ways_to_go_wrong};

/// What a bot does with its turn. Only [`Turn::Mark`] on an empty cell is legal; the rest are
/// the ways real bots break the rules, which the auditor reports as forfeits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One mark on this cell (a forfeit if the cell is taken).
    Mark(Cell),
    /// No move at all.
    Nothing,
    /// More than one mark in one turn, on these cells in this order.
    Several(Vec<Cell>),
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Mark(cell) => write!(f, "played {cell}"),
            Turn::Nothing => write!(f, "made no move"),
            Turn::Several(cells) => {
                let list: Vec<String> = cells.iter().map(Cell::to_string).collect();
                write!(
                    f,
                    "marked {} cells in one turn: {}",
                    cells.len(),
                    list.join(" ")
                )
            }
        }
    }
}

/// What a bot's next answers depend on, besides the board, as [`Bot::depends_on`] declares:
/// two histories with the same board and the same `DependsOn` get the same answers, then and
/// at every later turn, whatever the opponent plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DependsOn {
    /// The board alone.
    Board,
    /// The board and this number, which the bot works out from the game (a move it
    /// remembers, a counter it keeps...).
    BoardAnd(u64),
    /// The whole history: no two histories are the same state.
    History,
}

/// One thing a bot may do, and how likely it is to do it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What the bot does.
    pub turn: Turn,
    /// How likely, given the game so far; a bot's choices add up to 1.
    pub probability: Ratio,
}

impl Choice {
    /// A move the bot always makes.
    pub fn certain(turn: Turn) -> Choice {
        Choice {
            turn,
            probability: Ratio::ONE,
        }
    }

    /// What a deterministic bot does: a mark on `cell`, or no move at all when it found none.
    pub fn only(cell: Option<Cell>) -> Vec<Choice> {
        vec![Choice::certain(cell.map_or(Turn::Nothing, Turn::Mark))]
    }

    /// One mark on each of `cells`, all equally likely; no choice at all for no cells.
    pub fn uniform(cells: Cells) -> Vec<Choice> {
        let mut choices = Vec::with_capacity(cells.len());
        Choice::add_uniform(cells, &mut choices);
        choices
    }

    /// What [`Choice::uniform`] returns, appended to `choices`.
    pub fn add_uniform(cells: Cells, choices: &mut Vec<Choice>) {
        let p = ONE_IN[cells.len()];
        choices.extend(cells.iter().map(|cell| Choice {
            turn: Turn::Mark(cell),
            probability: p,
        }));
    }
}

/// [`Bot::choose`] for a bot that writes its choices in [`Bot::choose_into`].
fn collect(
    choose_into: impl FnOnce(&mut Vec<Choice>) -> Result<(), BotError>,
) -> Result<Vec<Choice>, BotError> {
    let mut choices = Vec::new();
    choose_into(&mut choices)?;
    Ok(choices)
}

/// `1/n` for each number of cells `n` (zero for none), reduced once at compile time: an audit
/// asks for uniform choices at every position.
const ONE_IN: [Ratio; MAX_CELLS + 1] = {
    let mut table = [Ratio::ZERO; MAX_CELLS + 1];
    let mut n = 1;
    while n <= MAX_CELLS {
        table[n] = Ratio::new(1, n as u128);
        n += 1;
    }
    table
};

/// Picks one of `choices` at random, by their probabilities; `None` when there are none.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, Cells, SplitMix64, bots::{Choice, Turn, sample}};
///
/// let corners: Cells = [1, 3, 7, 9].into_iter().filter_map(Cell::from_number).collect();
/// let choices = Choice::uniform(corners);
/// let mut rng = SplitMix64::new(1);
/// assert!(matches!(sample(&choices, &mut rng), Some(Turn::Mark(c)) if corners.contains(*c)));
/// ```
pub fn sample<'a>(choices: &'a [Choice], rng: &mut SplitMix64) -> Option<&'a Turn> {
    let mut left = rng.next_f64();
    for choice in choices {
        left -= choice.probability.to_f64();
        if left < 0.0 {
            return Some(&choice.turn);
        }
    }
    // Rounding can leave a sliver past the last choice; it belongs to the last one.
    choices.last().map(|choice| &choice.turn)
}

/// Why a bot could not answer at all (an external program that broke its protocol). This stops
/// an audit; a bot that answers with a forbidden move only forfeits that game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotError {
    /// What went wrong, naming the request and what came back.
    pub message: String,
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BotError {}

/// Anything that picks moves.
///
/// Given the game so far (the board and every move, so that stateful bots can work), a bot
/// returns everything it may do, each with its probability: one certain choice for a
/// deterministic bot, every possible choice for a randomised one. Keep the probabilities'
/// denominators small (the built-in styles go down to thousandths): the auditor's odds are exact
/// fractions, multiplied along every game, and it stops rather than round.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{History, bots::{self, Turn}};
///
/// let mut bot = bots::builtin("newell-simon").unwrap();
/// let choices = bot.choose(&History::new())?;
/// assert_eq!(choices.len(), 1);
/// assert_eq!(choices[0].turn, Turn::Mark(ttt_oracle::Cell::from_number(5).unwrap()));
/// # Ok::<(), ttt_oracle::bots::BotError>(())
/// ```
pub trait Bot {
    /// The bot's name, as `ttt bots` lists it.
    fn name(&self) -> &str;

    /// Everything the bot may do in `game`, where it is the side to move.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the bot cannot answer at all.
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError>;

    /// What [`Bot::choose`] returns, appended to `choices`: the auditor asks thousands of
    /// times an audit, and keeps one vector for the answers rather than a new one each time.
    /// The default appends `choose`'s vector; the built-in bots that audits ask most write
    /// their choices here and make `choose` of it.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the bot cannot answer at all, as from `choose`. What was appended
    /// before the error is not an answer.
    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        choices.extend(self.choose(game)?);
        Ok(())
    }

    /// The bot's move in `game`, in one call: one of its [choices](Bot::choose), drawn with
    /// their probabilities from `rng` ([`Turn::Nothing`] when it offers none). The same
    /// generator seeded the same way gives the same moves.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the bot cannot answer at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::bots::{self, Bot, Turn};
    /// use ttt_oracle::{Game, History, SplitMix64};
    ///
    /// let mut casual = bots::from_spec("casual:0.3")?;
    /// let mut rng = SplitMix64::new(42);
    /// let game = History::parse(Game::TIC_TAC_TOE, "1 5")?;
    /// let Turn::Mark(cell) = casual.pick(&game, &mut rng)? else { unreachable!() };
    /// assert!(game.legal_moves().contains(cell));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn pick(&mut self, game: &History, rng: &mut SplitMix64) -> Result<Turn, BotError> {
        let choices = self.choose(game)?;
        Ok(sample(&choices, rng).cloned().unwrap_or(Turn::Nothing))
    }

    /// Whether the bot plays `game`: `Ok`, or a [`BotError`] saying why not. Callers ask
    /// before the first move and never ask a bot about a game it refuses.
    ///
    /// The default plays tic-tac-toe only, which is what a bot that reads [`History::board`]
    /// can play. The built-in bots that make sense on any board say so: `random` plays every
    /// game, the table-backed styles every game of at most 16 cells, external programs every
    /// game (they are told which).
    ///
    /// # Errors
    ///
    /// [`BotError`] naming the bot, the game and what it plays instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, bots};
    ///
    /// let four = "4x4".parse::<Game>()?;
    /// assert!(bots::builtin("perfect").unwrap().plays(four).is_ok());
    /// assert!(bots::builtin("smartbot").unwrap().plays(four).is_err());
    /// assert!(bots::builtin("smartbot").unwrap().plays(Game::TIC_TAC_TOE).is_ok());
    /// # Ok::<(), ttt_oracle::GameError>(())
    /// ```
    fn plays(&self, game: Game) -> Result<(), BotError> {
        if game == Game::TIC_TAC_TOE {
            Ok(())
        } else {
            Err(BotError {
                message: format!(
                    "{} plays tic-tac-toe (3x3) only, not {game}: its rules were written for \
                     that board",
                    self.name()
                ),
            })
        }
    }

    /// Whether the bot's answer depends on the board alone: the same choices, in the same
    /// order, with the same probabilities, whatever history reached the board (and whatever
    /// the bot was asked before). The auditor then asks such a bot once per position, with one
    /// of the histories that reach it, instead of once per history: thousands of questions
    /// rather than hundreds of thousands, and the same report.
    ///
    /// The default, `false`, is always safe: the bot may read [`History::moves`], count its
    /// turns or keep state of its own. Declare `true` only when none of that changes an answer.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::bots;
    ///
    /// // `perfect` reads only the board; `smartbot` follows a script keyed by the moves so far.
    /// assert!(bots::builtin("perfect").unwrap().memoryless());
    /// assert!(!bots::builtin("smartbot").unwrap().memoryless());
    /// ```
    fn memoryless(&self) -> bool {
        false
    }

    /// What the bot's answers from `game` on depend on, besides the board: the state an
    /// audit without a table memoises on, so that two histories that reach the same board and
    /// the same state are explored once. Asked where the bot is the side to move.
    ///
    /// The default is [`DependsOn::Board`] for a [memoryless](Bot::memoryless) bot and
    /// [`DependsOn::History`] otherwise (always safe: every history is its own state).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{History, bots::{self, DependsOn}};
    ///
    /// let game = History::new();
    /// assert_eq!(bots::builtin("random").unwrap().depends_on(&game), DependsOn::Board);
    /// assert_eq!(bots::builtin("smartbot").unwrap().depends_on(&game), DependsOn::History);
    /// // marcelo's rule 5 plays far from its last move by rules 1 to 4: after X 1, O 5, X 9
    /// // no other rule plays for O, and its last move is the centre (index 4).
    /// let game = History::parse(ttt_oracle::Game::TIC_TAC_TOE, "1 5 9")?;
    /// assert_eq!(bots::builtin("marcelo").unwrap().depends_on(&game), DependsOn::BoardAnd(4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn depends_on(&self, game: &History) -> DependsOn {
        let _ = game;
        if self.memoryless() {
            DependsOn::Board
        } else {
            DependsOn::History
        }
    }

    /// Whether the bot never leaves a lone threat open: on its turn, whenever the opponent
    /// has exactly one empty cell that would complete a line of theirs, every choice of the
    /// bot either marks that cell or completes a line of its own. (Its other turns, and the
    /// turns where the opponent threatens two cells, are not constrained.)
    ///
    /// Then the opponent can only beat the bot on the board by threatening two cells at once,
    /// with all the cells of two lines but those two (more marks than a line takes, where
    /// lines cross in at most one cell, as on marcelo's N x N boards with N in a row), and an
    /// audit without a table, looking for the bot's shortest loss, leaves a line as soon as no
    /// such fork can come in the plies left: on 7x7 that is what makes a 23-ply loss findable.
    /// A choice that forfeits instead breaks no promise the audit relies on, but this asks
    /// more, as a bot's rules give it. The default, `false`, is always safe; declare `true`
    /// only when the bot's rules guarantee it (a rule "block the opponent's line" tried right
    /// after "complete my own"), as a wrong `true` makes the audit miss losses. An external
    /// program is never taken at its word.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::bots;
    ///
    /// // marcelo's rule 2 blocks the first cell that completes the opponent's line, unless
    /// // rule 1 completes its own.
    /// assert!(bots::builtin("marcelo").unwrap().blocks_threats());
    /// assert!(!bots::builtin("random").unwrap().blocks_threats());
    /// ```
    fn blocks_threats(&self) -> bool {
        false
    }

    /// Whether the bot never forfeits: on every board it plays, each of its choices is one mark
    /// on an empty cell, and it never panics. An audit without a table that outgrows its
    /// budget then says the bot never forfeits rather than searching for a forfeit it cannot
    /// find (which, on a board of 25 cells or more, no budget could settle). The default,
    /// `false`, is always safe; an external program is never taken at its word.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::bots;
    ///
    /// assert!(bots::builtin("random").unwrap().never_forfeits());
    /// // marcelo's rule 5 may mark several cells in one turn.
    /// assert!(!bots::builtin("marcelo").unwrap().never_forfeits());
    /// ```
    fn never_forfeits(&self) -> bool {
        false
    }

    /// Whether the bot answers faster when told its next questions ahead, through
    /// [`Bot::prepare`]: an external program, which can be sent them all while it answers.
    /// The default is `false`, and the auditor then does not gather them.
    fn asks_ahead(&self) -> bool {
        false
    }

    /// Told ahead that the caller is about to ask about each of `games`, in this order: a bot
    /// that [asks ahead](Bot::asks_ahead) may work them all out now, and answer
    /// [`Bot::choose`] for them from what it learnt. Every question the bot is asked is asked
    /// of `choose` too, in the same order, whether or not it was prepared. The default does
    /// nothing.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the bot cannot answer, as [`Bot::choose`] would have said.
    fn prepare(&mut self, games: &[History]) -> Result<(), BotError> {
        let _ = games;
        Ok(())
    }

    /// Called when the caller is done asking, at the end of an audited side: an external
    /// program is stopped there, and anything it printed that no request asked for is an
    /// error. A bot asked again afterwards starts afresh. Built-in bots have nothing to do.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the bot's last answers cannot be trusted (an external program that
    /// printed more lines than it was asked for).
    fn finish(&mut self) -> Result<(), BotError> {
        Ok(())
    }
}

/// A built-in bot: its name, what it is and where it comes from.
#[derive(Clone, Copy, Debug)]
pub struct BotInfo {
    /// The name to give `ttt audit` and `ttt play`.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Where it was published, for the bots ported from a publication; `None` for this
    /// crate's own.
    pub source: Option<Source>,
    /// What of that publication the port follows, when there is more than one bot in it.
    pub part: &'static str,
    /// Results the bot's author published from sampled games, if any, to show beside the
    /// exact figures.
    pub published: &'static [Published],
    make: fn() -> Box<dyn Bot + Send>,
}

/// Where a published bot comes from: who wrote it, where, when, and in what language.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::CATALOG;
///
/// let smartbot = CATALOG.iter().find(|b| b.name == "smartbot").unwrap();
/// let source = smartbot.source.unwrap();
/// assert_eq!(source.year, Some(2021));
/// assert_eq!(source.language, "C");
/// assert_eq!(
///     source.to_string(),
///     "Keshav Nath and Vatsal Mittal, \"Smart Bot for Tic-Tac-Toe\", student report, \
///      Delhi Technological University, 2021, C"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Source {
    /// The authors, as the publication names them; `None` when it is unsigned.
    pub authors: Option<&'static str>,
    /// The publication's title.
    pub title: &'static str,
    /// What kind of publication, and where.
    pub kind: &'static str,
    /// The year, when the publication gives it.
    pub year: Option<u16>,
    /// The language of the bot's code.
    pub language: &'static str,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.authors {
            Some(authors) => write!(f, "{authors}, \"{}\", {}, ", self.title, self.kind)?,
            None => write!(f, "\"{}\", unsigned {}, ", self.title, self.kind)?,
        }
        match self.year {
            Some(year) => write!(f, "{year}, {}", self.language),
            None => write!(f, "year not given, {}", self.language),
        }
    }
}

const NATH_MITTAL: Source = Source {
    authors: Some("Keshav Nath and Vatsal Mittal"),
    title: "Smart Bot for Tic-Tac-Toe",
    kind: "student report, Delhi Technological University",
    year: Some(2021),
    language: "C",
};

const SRM: Source = Source {
    authors: Some("Mayank Kumar Sohanda, Vedant Singh and Mihir Gupta"),
    title: "Tic Tac Toe",
    kind: "student report, SRM Institute of Science and Technology",
    year: Some(2022),
    language: "C++",
};

const MARCELO: Source = Source {
    authors: Some("Marcelo"),
    title: "Don't lose on Tic-Tac-Toe 99% of the time with this simple strategy!",
    kind: "blog post",
    year: None,
    language: "C#",
};

const MINIMAX_IN_C: Source = Source {
    authors: None,
    title: "Tic-Tac-Toe using minimax in C",
    kind: "report",
    year: None,
    language: "C",
};

const PERL_POST: Source = Source {
    authors: None,
    title: "Writing a Tic-Tac-Toe bot in perl",
    kind: "blog post",
    year: None,
    language: "Perl",
};

const NEWELL_SIMON: Source = Source {
    authors: Some("Kevin Crowley and Robert S. Siegler, after Allen Newell and Herbert A. Simon"),
    title: "Flexible strategy use in young children's tic-tac-toe",
    kind: "journal article, Cognitive Science",
    year: Some(1993),
    language: "a rule list in prose",
};

/// Sampled results an author published for a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Published {
    /// The side the bot played.
    pub side: crate::board::Player,
    /// Games played.
    pub games: u64,
    /// Games the bot won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the bot lost.
    pub losses: u64,
    /// What the opponent was.
    pub opponent: &'static str,
}

impl BotInfo {
    /// A fresh instance of the bot.
    pub fn make(&self) -> Box<dyn Bot + Send> {
        (self.make)()
    }
}

/// Every built-in bot, in the order `ttt bots` lists them.
pub const CATALOG: &[BotInfo] = &[
    BotInfo {
        name: "perfect",
        summary: "the solved table: every optimal move (fastest win, slowest loss), equally likely",
        source: None,
        part: "",
        published: &[],
        make: || Box::new(Perfect),
    },
    BotInfo {
        name: "tricky",
        summary: "perfect, and among optimal moves the one leaving the opponent most ways to go wrong",
        source: None,
        part: "",
        published: &[],
        make: || Box::new(Tricky),
    },
    BotInfo {
        name: "random",
        summary: "a uniformly random legal move",
        source: Some(NATH_MITTAL),
        part: "its \"dumb bot\"",
        published: &[],
        make: || Box::new(RandomBot),
    },
    BotInfo {
        name: "smartbot",
        summary: "win, block, key-spot scripts as X and O, random opening and random fill",
        source: Some(NATH_MITTAL),
        part: "",
        published: &[],
        make: || Box::new(Smartbot),
    },
    BotInfo {
        name: "geeks-minimax",
        summary: "minimax scoring +10/-10, no depth, first best cell",
        source: Some(SRM),
        part: "the GeeksforGeeks listing it reproduces",
        published: &[],
        make: || Box::new(GeeksMinimax::plain()),
    },
    BotInfo {
        name: "geeks-minimax-depth",
        summary: "the same minimax with the depth correction its text describes (10 - depth)",
        source: Some(SRM),
        part: "its section \"Making our AI smarter\"",
        published: &[],
        make: || Box::new(GeeksMinimax::with_depth()),
    },
    BotInfo {
        name: "marcelo",
        summary: "win, block, centre, random diagonal, far from my last move",
        source: Some(MARCELO),
        part: "",
        published: marcelo::PUBLISHED,
        make: || Box::new(Marcelo::default()),
    },
    BotInfo {
        name: "c-minimax",
        summary: "minimax scoring +1/-1 by whose turn it is, no depth, first best cell",
        source: Some(MINIMAX_IN_C),
        part: "",
        published: &[],
        make: || Box::new(CMinimax::default()),
    },
    BotInfo {
        name: "forkbot",
        summary: "centre, win, block, fork, forcing move, first open cell",
        source: Some(PERL_POST),
        part: "its final version",
        published: &[],
        make: || Box::new(Forkbot),
    },
    BotInfo {
        name: "newell-simon",
        summary: "win, block, fork, block a fork, centre, opposite corner, empty corner, empty side",
        source: Some(NEWELL_SIMON),
        part: "",
        published: &[],
        make: || Box::new(NewellSimon),
    },
];

/// Bots that take a parameter: the form to write, and what it does.
pub const PARAMETERISED: &[(&str, &str)] = &[
    (
        "casual:P",
        "never gives the result away, but with probability P (0..1, e.g. 0.25 or 1/3) a random value-keeping move instead of the fastest",
    ),
    (
        "epsilon:P",
        "with probability P (0..1) a uniformly random legal move, otherwise perfect (the SRM report's \"stochastic factor\")",
    ),
    (
        "cmd:COMMAND",
        "an external program in any language, run as `sh -c COMMAND`, speaking the line protocol",
    ),
];

/// Why a bot specification names no bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

/// The finest probability a style takes: thousandths. The auditor's odds are exact fractions,
/// and a bot's probabilities multiply along every game; with denominators up to 1,000 the
/// products stay within 128 bits for any game.
pub const MAX_DENOMINATOR: u128 = 1000;

/// Reads a probability from 0 to 1 written as a decimal with at most three places (`0.25`,
/// `.5`, `1`) or a fraction whose denominator is at most 1,000 (`1/3`), exactly.
///
/// # Errors
///
/// [`SpecError`] when the text is not such a number, lies outside 0..1, or is finer than
/// thousandths.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Ratio, bots::parse_probability};
///
/// assert_eq!(parse_probability("0.25")?, Ratio::new(1, 4));
/// assert_eq!(parse_probability("1/3")?, Ratio::new(1, 3));
/// assert!(parse_probability("1.5").is_err());
/// assert!(parse_probability("0.0001").is_err());
/// # Ok::<(), ttt_oracle::bots::SpecError>(())
/// ```
pub fn parse_probability(text: &str) -> Result<Ratio, SpecError> {
    let bad = || SpecError {
        message: format!(
            "probability {} is not a number from 0 to 1 with at most three decimal places \
             (write e.g. 0.25, or a fraction such as 1/3 with a denominator up to 1000)",
            crate::quote::quote(text)
        ),
    };
    let number = |s: &str| -> Result<u128, SpecError> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    let (num, den) = if let Some((num, den)) = text.split_once('/') {
        (number(num)?, number(den)?)
    } else {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if fraction.len() > 3 || (whole.is_empty() && fraction.is_empty()) {
            return Err(bad());
        }
        let whole = if whole.is_empty() { 0 } else { number(whole)? };
        let fraction_value = if fraction.is_empty() {
            0
        } else {
            number(fraction)?
        };
        let den = 10u128.pow(fraction.len() as u32);
        (whole * den + fraction_value, den)
    };
    if den == 0 || num > den {
        return Err(bad());
    }
    let p = Ratio::new(num, den);
    if p.denom() > MAX_DENOMINATOR {
        return Err(bad());
    }
    Ok(p)
}

/// Every form [`from_spec`] takes, for error messages.
pub fn allowed() -> String {
    let mut forms: Vec<&str> = CATALOG.iter().map(|info| info.name).collect();
    forms.extend(PARAMETERISED.iter().map(|(form, _)| *form));
    forms.join(", ")
}

/// The bot a specification names: a built-in name (`perfect`, `smartbot`, ...), `casual:P`,
/// `epsilon:P`, or `cmd:COMMAND` for an external program (with the default timeout).
///
/// # Errors
///
/// [`SpecError`] naming what is wrong and listing what is allowed.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::from_spec;
///
/// assert_eq!(from_spec("casual:0.5")?.name(), "casual:0.5");
/// assert!(from_spec("casual:2").is_err());
/// let error = from_spec("deep-blue").err().unwrap();
/// assert!(error.to_string().contains("newell-simon"));
/// # Ok::<(), ttt_oracle::bots::SpecError>(())
/// ```
pub fn from_spec(spec: &str) -> Result<Box<dyn Bot + Send>, SpecError> {
    if let Some(p) = spec.strip_prefix("casual:") {
        return Ok(Box::new(Casual::new(parse_probability(p)?)));
    }
    if let Some(p) = spec.strip_prefix("epsilon:") {
        return Ok(Box::new(Epsilon::new(parse_probability(p)?)));
    }
    if let Some(command) = spec.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err(SpecError {
                message: "cmd: needs a command, e.g. cmd:\"python3 bot.py\"".to_string(),
            });
        }
        return Ok(Box::new(External::new(
            command,
            command,
            external::DEFAULT_TIMEOUT,
        )));
    }
    builtin(spec).ok_or_else(|| SpecError {
        message: format!(
            "unknown bot {}; choose one of: {}",
            crate::quote::quote(spec),
            allowed()
        ),
    })
}

/// The built-in bot called `name`, if there is one.
pub fn builtin(name: &str) -> Option<Box<dyn Bot + Send>> {
    CATALOG
        .iter()
        .find(|info| info.name == name)
        .map(BotInfo::make)
}

/// What `bot` may do after `moves` (cells separated by spaces), each turn with its
/// probability as `p/q`: the bots' tests state their sources' positions this way.
#[cfg(test)]
fn answers(bot: &mut dyn Bot, moves: &str) -> Vec<(Turn, String)> {
    let game = History::from_moves(&crate::parse_moves(moves).unwrap()).unwrap();
    bot.choose(&game)
        .unwrap()
        .into_iter()
        .map(|c| (c.turn, c.probability.to_string()))
        .collect()
}

/// The side to move and its opponent, for bots written from one side's view.
fn sides(board: Board) -> (crate::board::Player, crate::board::Player) {
    let me = board.to_move();
    (me, !me)
}
