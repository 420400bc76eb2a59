//! The trait every bot implements, what it declares about itself, and the error of a bot that
//! cannot answer.

use std::fmt;

use super::choice::{Choice, Turn, sample};
use crate::Game;
use crate::history::History;
use crate::rng::SplitMix64;

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

/// Why a bot could not answer at all (an external program that broke its protocol), or why a
/// specification ([`from_spec`](super::from_spec)) names no bot. This stops an audit; a bot
/// that answers with a forbidden move only forfeits that game.
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
    ///
    /// # Panics
    ///
    /// A bot may panic when asked about a game it does not [play](Bot::plays): ask that first,
    /// as the audit, matches and `ttt play` do.
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
    /// The default plays tic-tac-toe only, which is what a bot written for tic-tac-toe's 3x3 board
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

    /// Whether the bot's choices turn with the board: at any image of a board under the
    /// board's symmetries (turns and mirrors), its choices are the images of its choices there,
    /// with the same probabilities. The audit of a [memoryless](Bot::memoryless) bot that is
    /// symmetric, on a board of at most 16 cells other than tic-tac-toe's (whose walk takes a
    /// millisecond), walks one board of each set of images (about an eighth of 4x4's) while
    /// the bot plays only optimal moves, and keeps that walk's report, the same figure for
    /// figure, when the bot never loses or forfeits; otherwise it walks every board.
    ///
    /// The default, `false`, is always safe. Declare `true` only when no rule of the bot
    /// prefers a cell by its place: a fixed order of cells, or a first or lowest one among
    /// equals, is not symmetric.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::bots;
    ///
    /// // `perfect` picks any optimal move, each as likely; `forkbot` tries the cells in order.
    /// assert!(bots::builtin("perfect").unwrap().symmetric());
    /// assert!(!bots::builtin("forkbot").unwrap().symmetric());
    /// ```
    fn symmetric(&self) -> bool {
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

    /// For a bot that [asks ahead](Bot::asks_ahead): a fresh instance of it, which starts a
    /// process of its own at its first question and is asked one question at a time, each
    /// written only once the last is answered, as in a game. An audit asks it again along a
    /// sample of the games audited and compares its answers with the ones it recorded, since a
    /// program that sees questions queued can tell an audit from a game. `None`, the default,
    /// for a bot that cannot tell.
    fn one_at_a_time(&self) -> Option<Box<dyn Bot>> {
        None
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

/// [`Bot::choose`] for a bot that writes its choices in [`Bot::choose_into`].
pub(super) fn collect(
    choose_into: impl FnOnce(&mut Vec<Choice>) -> Result<(), BotError>,
) -> Result<Vec<Choice>, BotError> {
    let mut choices = Vec::new();
    choose_into(&mut choices)?;
    Ok(choices)
}
