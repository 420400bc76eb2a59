//! What an audit found on one side of a game with a table, and its JSON: the games lost and
//! forfeited, one shortest of each, the moves that gave value away, the exact odds and the
//! worst case.

use std::any::Any;
use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::mistakes::{Mistake, Mistakes};
use super::recheck::Recheck;
use super::rules::Rules;
use super::verdict::Verdict;
use crate::board::{Cell, Player};
use crate::bots::Turn;
use crate::game::Game;
use crate::history::History;
use crate::ratio::Ratio;
use crate::review::MoveVerdict;
use crate::value::Evaluation;
use crate::value::{Probe, Value};

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
    pub(super) fn new<R: Rules>(
        moves: Vec<Cell>,
        bot: Player,
        game: Game,
        table: &R::Table,
    ) -> LosingLine {
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

/// What a bot's panic said, with the board and moves it was asked about: the message of a
/// [`Forfeit::Panic`].
pub(super) fn panic_message(payload: Box<dyn Any + Send>, game: &History) -> String {
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

/// Decision points where the bot's move lowered the game-theoretic value, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
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
    /// The same moves one by one, each position and move once: how many, and the first of
    /// them in full, as many as [`AuditOptions::mistakes`](super::AuditOptions::mistakes) asks.
    pub mistakes: Mistakes,
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
    /// What asking the bot again one request at a time found, for a bot that [can
    /// tell](crate::bots::Bot::one_at_a_time) an audit from a game; `None` when it was not
    /// asked again.
    pub recheck: Option<Box<Recheck>>,
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

impl SideReport {
    /// Nothing explored yet.
    pub(super) fn empty(game: Game, side: Player) -> SideReport {
        SideReport {
            game,
            side,
            decision_points: 0,
            games: 0,
            losing_games: 0,
            shortest_loss: None,
            blunders: Blunders::default(),
            slow_wins: 0,
            mistakes: Mistakes::default(),
            illegal_games: 0,
            shortest_illegal: None,
            vs_random: Odds::ZERO,
            vs_perfect: Odds::ZERO,
            worst_case: WorstCase {
                loss: Ratio::ZERO,
                line: Vec::new(),
            },
            recheck: None,
        }
    }

    /// Counts, `times` over, a legal move of the bot from a position valued `before` to one
    /// whose opponent holds `after`: a blunder when it lowered the value, a slow win when it
    /// kept a win but not the fastest; the verdict on the move.
    #[inline]
    pub(super) fn judge_move(
        &mut self,
        before: Evaluation,
        after: Probe,
        times: u64,
    ) -> MoveVerdict {
        let verdict = MoveVerdict::leading_to((before.value, before.remoteness), after);
        self.count_verdict(verdict, times);
        verdict
    }

    /// Counts a move judged `verdict`, made `times`.
    pub(super) fn count_verdict(&mut self, verdict: MoveVerdict, times: u64) {
        let blunders = &mut self.blunders;
        match verdict {
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

    /// What the audit proved: never loses, can lose on the board, breaks the rules, or both;
    /// or, above all, that the bot answers differently when asked one request at a time, so
    /// that the rest describes answers it does not give in a game.
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
        match self.recheck.as_deref() {
            Some(Recheck {
                difference: Some(_),
                ..
            }) => Verdict::AnswersDifferently,
            _ => Verdict::from_counts(self.losing_games, self.illegal_games),
        }
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
        OddsJson {
            win: self.win.to_f64(),
            draw: self.draw.to_f64(),
            loss: self.loss.to_f64(),
            illegal: self.illegal.to_f64(),
            exact: Exact {
                win: self.win.to_string(),
                draw: self.draw.to_string(),
                loss: self.loss.to_string(),
                illegal: self.illegal.to_string(),
            },
        }
        .serialize(serializer)
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
        let mut s = serializer.serialize_struct("SideReport", 16)?;
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
        s.serialize_field("blunders", &self.blunders)?;
        s.serialize_field("slow_wins", &self.slow_wins)?;
        s.serialize_field(
            "mistakes",
            &MistakesJson {
                total: self.mistakes.total,
                first: self
                    .mistakes
                    .list
                    .iter()
                    .take(Mistakes::LISTED)
                    .map(|mistake| MistakeJson::new(self.game, mistake))
                    .collect(),
            },
        )?;
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
        s.serialize_field("recheck", &self.recheck)?;
        s.end()
    }
}

/// A side's mistakes in its report's JSON: how many, and the first [`Mistakes::LISTED`].
#[derive(serde::Serialize)]
struct MistakesJson<'a> {
    total: u64,
    first: Vec<MistakeJson<'a>>,
}

/// One mistake as JSON, in the report and in `ttt audit --mistakes`: the keys documented in
/// `docs/commands.md`.
#[derive(Debug, serde::Serialize)]
pub struct MistakeJson<'a> {
    board: crate::Position,
    moves: &'a [Cell],
    played: &'a crate::value::MoveValue,
    best: &'a [crate::value::MoveValue],
    kind: super::MistakeKind,
    histories: u64,
    games: u64,
}

impl MistakeJson<'_> {
    /// `mistake`, made in `game`, as JSON.
    pub fn new(game: Game, mistake: &Mistake) -> MistakeJson<'_> {
        MistakeJson {
            board: History::replay(game, &mistake.moves).position(),
            moves: &mistake.moves,
            played: &mistake.played,
            best: &mistake.best,
            kind: mistake.kind,
            histories: mistake.histories,
            games: mistake.games,
        }
    }
}

/// One line of `ttt audit --mistakes FILE` (and of the Python and JavaScript packages' mistake
/// lists): the game (for any but tic-tac-toe), the bot and its side, then the keys of
/// [`MistakeJson`], as documented in `docs/commands.md`.
#[derive(Debug, serde::Serialize)]
pub struct MistakeLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    bot: &'a str,
    side: Player,
    #[serde(flatten)]
    mistake: MistakeJson<'a>,
}

impl MistakeLine<'_> {
    /// Every mistake `bot` made on the side `report` audited, in `game`, as lines.
    pub fn all<'a>(
        game: Game,
        bot: &'a str,
        report: &'a SideReport,
    ) -> impl Iterator<Item = MistakeLine<'a>> {
        let name = (game != Game::TIC_TAC_TOE).then(|| game.to_string());
        report.mistakes.list.iter().map(move |mistake| MistakeLine {
            game: name.clone(),
            bot,
            side: report.side,
            mistake: MistakeJson::new(game, mistake),
        })
    }
}
