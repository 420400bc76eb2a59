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

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};

use hashbrown::HashTable;

use super::{Forfeit, Halt, IllegalLine, LosingLine, Odds, Verdict, panic_message};
use crate::board::{Cell, Player};
use crate::bots::{Bot, BotError, Choice, DependsOn, Turn};
use crate::game::{Game, Mask};
use crate::history::History;
use crate::ratio::Ratio;

/// How many distinct states (positions where the bot is to move, with what it depends on) each
/// walk may work out before it gives up: the bound on its memory (about 200 bytes a state
/// remembered by the exhaustive walk; for a program, whose every answer is kept to the end so
/// that it is never asked the same question twice, every one of its turns the walk comes to is
/// a state, and each distinct question takes some 220 bytes on 5x5, 1 KB on 11x11, whose
/// questions are longer) and so on its time.
///
/// On a game with a table, the walk by histories of a bot that is not memoryless counts each
/// history as a state: [`audit_game_within`](crate::audit_game_within) and
/// [`matchup_game_within`](crate::matchup_game_within) stop past `states` (about 170 bytes a
/// history), and do not use `searched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditBudget {
    /// The most states the exhaustive walk may hold.
    pub states: usize,
    /// The most states each search may work out (counting a state again each time a deeper
    /// pass works it out again).
    pub searched: usize,
}

impl AuditBudget {
    /// The default: 4,000,000 states for each, about 0.8 GB at most for the walk, and a minute or
    /// two at most for a built-in bot (docs/performance.md); a program's answers, kept through
    /// the walk and both searches, may take a few GB.
    pub const DEFAULT: AuditBudget = AuditBudget {
        states: 4_000_000,
        searched: 4_000_000,
    };

    /// The same number of states for the walk and for each search.
    pub fn of(states: usize) -> AuditBudget {
        AuditBudget {
            states,
            searched: states,
        }
    }
}

impl Default for AuditBudget {
    fn default() -> AuditBudget {
        AuditBudget::DEFAULT
    }
}

/// What the exhaustive walk counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Decision points: histories where the bot was asked for a move.
    pub decision_points: u64,
    /// Distinct games, forfeits included.
    pub games: u64,
    /// Games lost on the board.
    pub losing_games: u64,
    /// Games forfeited by breaking the rules or panicking.
    pub illegal_games: u64,
}

/// What a search for the shortest line of a kind found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortest<T> {
    /// One shortest line (the first in the walk's order among the shortest).
    Line(T),
    /// There is no such line: the bot never ends a game this way.
    Never,
    /// The budget ran out first: no such line is as short as `plies` or shorter.
    Unsettled {
        /// Every line of at most this many plies was searched.
        plies: usize,
    },
}

impl<T> Shortest<T> {
    /// The line, if one was found.
    pub fn line(&self) -> Option<&T> {
        match self {
            Shortest::Line(line) => Some(line),
            _ => None,
        }
    }

    /// Whether a line exists: `Some(true)` when found, `Some(false)` when there is none,
    /// `None` when the budget ran out first.
    pub fn exists(&self) -> Option<bool> {
        match self {
            Shortest::Line(_) => Some(true),
            Shortest::Never => Some(false),
            Shortest::Unsettled { .. } => None,
        }
    }
}

/// What an audit without a table found on one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablelessReport {
    /// The game played.
    pub game: Game,
    /// The side the bot played.
    pub side: Player,
    /// The counts, when the exhaustive walk finished within its budget.
    pub counts: Option<Counts>,
    /// Exact odds against a uniformly random opponent, when the exhaustive walk finished and
    /// every probability fitted 128 bits.
    pub vs_random: Option<Odds>,
    /// One shortest game lost on the board (no mistake is marked: that needs values).
    pub shortest_loss: Shortest<LosingLine>,
    /// One shortest forfeit.
    pub shortest_illegal: Shortest<IllegalLine>,
    /// Distinct states the exhaustive walk worked out, up to where it stopped (for a program,
    /// every one of its turns the walk came to).
    pub states: usize,
}

impl TablelessReport {
    /// The verdict, once both kinds of defeat are settled; `None` while either is not.
    pub fn verdict(&self) -> Option<Verdict> {
        let lost = self.shortest_loss.exists()?;
        let forfeited = self.shortest_illegal.exists()?;
        Some(Verdict::from_counts(u64::from(lost), u64::from(forfeited)))
    }
}

/// Audits `bot` playing `side` in `game` without a table, within `budget`.
///
/// The caller has checked that the bot [plays](Bot::plays) the game.
///
/// # Errors
///
/// [`BotError`] when the bot cannot answer at all (an external program that broke its
/// protocol); a forbidden move or a panic only forfeits that game.
pub fn audit_tableless(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    budget: AuditBudget,
) -> Result<TablelessReport, BotError> {
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
        Err(Halt::Bot(error)) => return Err(error),
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
) -> Result<Option<Odds>, BotError> {
    let mut walk = Walk::new(bot, game, side, budget);
    let odds = match walk.root(&mut History::empty(game)) {
        Ok(summary) => walk.odds(&summary),
        Err(Halt::Bot(error)) => return Err(error),
        Err(Halt::OverBudget) => None,
    };
    bot.finish()?;
    Ok(odds)
}

/// A state where the bot is to move: the marks of X and O, and what else the bot depends on.
type Key = (Mask, Mask, DependsOn);

/// A multiply-and-rotate hash: the keys are masks, and the default hasher's care for hostile
/// input costs a third of the walk.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        // The table's buckets are picked by the low bits: fold the high ones in.
        let h = self.0;
        (h ^ h >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ h >> 32
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u128(&mut self, n: u128) {
        // The default writes the 16 bytes one at a time.
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }
}

type Hashed<V> = HashMap<Key, V, BuildHasherDefault<Mix>>;

/// The summaries the exhaustive walk remembers, each beside its state in an arena, found
/// through an index of their places alone (4 bytes a slot, where a table of keys and places
/// took 64): when the index outgrows its place it moves those alone, and the arena, written
/// once in order, never moves what it holds (a large vector grows where it lies).
#[derive(Default)]
struct Memo {
    index: HashTable<u32>,
    states: Vec<(Key, Summary)>,
}

impl Memo {
    fn hash(key: &Key) -> u64 {
        let mut hasher = Mix::default();
        key.hash(&mut hasher);
        hasher.finish()
    }

    fn get(&self, key: &Key) -> Option<Summary> {
        let states = &self.states;
        self.index
            .find(Memo::hash(key), |&place| states[place as usize].0 == *key)
            .map(|&place| states[place as usize].1)
    }

    fn insert(&mut self, key: Key, summary: Summary) {
        // A budget of more than 4 billion states would not fit the machine's memory anyway.
        let place = u32::try_from(self.states.len()).expect("fewer than 2^32 states");
        debug_assert!(self.get(&key).is_none(), "a state is worked out once");
        let hash = Memo::hash(&key);
        self.states.push((key, summary));
        let states = &self.states;
        self.index
            .insert_unique(hash, place, |&place| Memo::hash(&states[place as usize].0));
    }
}

/// The most lines open to the opponent whose pairs [`Walk::plies_to_loss`] weighs as forks
/// (marcelo's largest board has 24 lines); with more, it counts single lines only.
const MAX_OPEN: usize = 32;

/// No line of that kind from here.
const NONE: u8 = u8::MAX;

/// What the games from a state hold.
#[derive(Clone, Copy)]
struct Summary {
    decision_points: u64,
    games: u64,
    losses: u64,
    forfeits: u64,
    /// Plies from here to the end of the shortest loss, or [`NONE`].
    loss_in: u8,
    /// Plies from here to the bot's turn in the shortest forfeit, or [`NONE`].
    forfeit_in: u8,
    /// Win, draw and loss against a random opponent from here; a forfeit is the rest, as
    /// every state's odds add up to 1.
    odds: [Ratio; 3],
}

impl Summary {
    const ZERO: Summary = Summary {
        decision_points: 0,
        games: 0,
        losses: 0,
        forfeits: 0,
        loss_in: NONE,
        forfeit_in: NONE,
        odds: [Ratio::ZERO; 3],
    };

    /// A game over: won by the bot (0), drawn (1), lost (2) or forfeited (3).
    fn end(at: usize) -> Summary {
        let mut odds = [Ratio::ZERO; 3];
        if let Some(odd) = odds.get_mut(at) {
            *odd = Ratio::ONE;
        }
        Summary {
            games: 1,
            losses: u64::from(at == 2),
            forfeits: u64::from(at == 3),
            loss_in: if at == 2 { 0 } else { NONE },
            forfeit_in: if at == 3 { 0 } else { NONE },
            odds,
            ..Summary::ZERO
        }
    }
}

/// Which shortest line is looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Loss,
    Forfeit,
}

/// How a position left after a move stands.
enum After {
    /// The mover made a line.
    Won,
    /// The board is full.
    Drawn,
    Open,
}

struct Walk<'a> {
    bot: &'a mut dyn Bot,
    side: Player,
    game: Game,
    budget: AuditBudget,
    memo: Memo,
    /// Whether every probability so far fitted: the odds are exact, or not given.
    exact: bool,
    /// The bot's answers, one vector per depth.
    choices: Vec<Vec<Choice>>,
    /// For the searches: plies from each state known to hold no line of the kind searched.
    clear: Hashed<u8>,
    /// Whether every question counts as a state: for a program, which is asked each once and
    /// whose every answer is kept (so that lines can be followed again), however the walk
    /// remembers what follows.
    counts_asks: bool,
    /// Whether the bot [blocks threats](Bot::blocks_threats), so that a loss needs a fork.
    blocks: bool,
    /// States worked out by the walk or search under way (a state met again from the memo is
    /// not counted; a bot that depends on its history has each of its histories counted).
    walked: usize,
}

impl<'a> Walk<'a> {
    fn new(bot: &'a mut dyn Bot, game: Game, side: Player, budget: AuditBudget) -> Walk<'a> {
        let counts_asks = bot.asks_ahead();
        let blocks = bot.blocks_threats();
        Walk {
            bot,
            side,
            game,
            budget,
            memo: Memo::default(),
            exact: true,
            choices: vec![Vec::new(); game.cells() + 1],
            clear: Hashed::default(),
            counts_asks,
            blocks,
            walked: 0,
        }
    }

    /// The odds of the games `summary` holds, when every probability fitted.
    fn odds(&self, summary: &Summary) -> Option<Odds> {
        let [win, draw, loss] = summary.odds;
        let ended = win.checked_add(draw)?.checked_add(loss)?;
        self.exact.then_some(Odds {
            win,
            draw,
            loss,
            illegal: ended.complement(),
        })
    }

    fn root(&mut self, game: &mut History) -> Result<Summary, Halt> {
        if self.side == Player::X {
            self.bot_node(game)
        } else {
            self.opponent_node(game)
        }
    }

    /// How the game stands after a move on `cell`.
    fn after(&self, game: &History, cell: Cell) -> After {
        let position = game.position();
        let mover = !position.to_move();
        let geometry = position.geometry();
        if geometry.makes_line(position.mask(mover), cell.index()) {
            After::Won
        } else if position.empty_mask() == 0 {
            After::Drawn
        } else {
            After::Open
        }
    }

    /// The state memoised at a bot's turn, or `None` for a bot that depends on its history.
    fn key(&self, game: &History) -> Option<Key> {
        let position = game.position();
        match self.bot.depends_on(game) {
            DependsOn::History => None,
            depends => Some((position.mask(Player::X), position.mask(Player::O), depends)),
        }
    }

    /// The bot's answer at `game`, in the vector of its depth, or the forfeit of a panic.
    fn ask(&mut self, game: &History) -> Result<Result<Vec<Choice>, Forfeit>, Halt> {
        if self.counts_asks {
            self.expand()?;
        }
        let depth = game.moves().len();
        let mut choices = std::mem::take(&mut self.choices[depth]);
        choices.clear();
        match catch_unwind(AssertUnwindSafe(|| {
            self.bot.choose_into(game, &mut choices)
        })) {
            Ok(answer) => answer?,
            Err(payload) => return Ok(Err(Forfeit::Panic(panic_message(payload, game)))),
        }
        if choices.is_empty() {
            self.choices[depth] = choices;
            return Ok(Err(Forfeit::Turn(Turn::Nothing)));
        }
        Ok(Ok(choices))
    }

    /// `share` of `child`'s odds added to `total`'s; `exact` turns false where a term outgrew
    /// 128 bits, and the odds are not given.
    fn add_odds(&mut self, total: &mut [Ratio; 3], child: &[Ratio; 3], share: Ratio) {
        if !self.exact {
            return;
        }
        for (sum, &part) in total.iter_mut().zip(child) {
            if part == Ratio::ZERO {
                continue;
            }
            let term = if share == Ratio::ONE {
                Some(part)
            } else {
                share.checked_mul(part)
            };
            match term.and_then(|p| sum.checked_add(p)) {
                Some(next) => *sum = next,
                None => {
                    self.exact = false;
                    return;
                }
            }
        }
    }

    /// `child`, one ply below, added to `total` with probability `share`.
    fn merge(&mut self, total: &mut Summary, child: &Summary, share: Ratio) -> Result<(), Halt> {
        let add = |a: u64, b: u64| a.checked_add(b).ok_or(Halt::OverBudget);
        total.decision_points = add(total.decision_points, child.decision_points)?;
        total.games = add(total.games, child.games)?;
        total.losses = add(total.losses, child.losses)?;
        total.forfeits = add(total.forfeits, child.forfeits)?;
        let deeper = |n: u8| if n == NONE { NONE } else { n + 1 };
        total.loss_in = total.loss_in.min(deeper(child.loss_in));
        total.forfeit_in = total.forfeit_in.min(deeper(child.forfeit_in));
        let mut odds = total.odds;
        self.add_odds(&mut odds, &child.odds, share);
        total.odds = odds;
        Ok(())
    }

    fn bot_node(&mut self, game: &mut History) -> Result<Summary, Halt> {
        // The bot is asked first: where each of its choices ends the game (a win, a draw or a
        // forfeit, as most turns of a rule bot on a large board do), the answer is the
        // summary, cheaper than a look in the memo.
        let choices = match self.ask(game)? {
            Ok(choices) => choices,
            Err(_) => {
                let mut summary = Summary {
                    decision_points: 1,
                    ..Summary::ZERO
                };
                Walk::merge_forfeit(&mut summary);
                return Ok(summary);
            }
        };
        let empty = game.position().empty_mask();
        let legal =
            |turn: &Turn| matches!(turn, Turn::Mark(cell) if empty >> cell.index() & 1 == 1);
        let ends = choices.iter().all(|choice| {
            !legal(&choice.turn) || {
                let Turn::Mark(cell) = choice.turn else {
                    unreachable!("a legal turn is a mark")
                };
                game.play_unchecked(cell);
                let ends = !matches!(self.after(game, cell), After::Open);
                game.undo();
                ends
            }
        });
        let key = if ends { None } else { self.key(game) };
        if let Some(summary) = key.and_then(|key| self.memo.get(&key)) {
            self.choices[game.moves().len()] = choices;
            return Ok(summary);
        }
        if !ends {
            if let Err(stop) = self.expand_state() {
                self.choices[game.moves().len()] = choices;
                return Err(stop);
            }
        }
        let mut summary = Summary {
            decision_points: 1,
            ..Summary::ZERO
        };
        let mut outcome = Ok(());
        for choice in &choices {
            match choice.turn {
                Turn::Mark(cell) if legal(&choice.turn) => {
                    game.play_unchecked(cell);
                    let child = match self.after(game, cell) {
                        After::Won => Ok(Summary::end(0)),
                        After::Drawn => Ok(Summary::end(1)),
                        After::Open => self.opponent_node(game),
                    };
                    game.undo();
                    outcome = child
                        .and_then(|child| self.merge(&mut summary, &child, choice.probability));
                    if outcome.is_err() {
                        break;
                    }
                }
                _ => Walk::merge_forfeit(&mut summary),
            }
        }
        self.choices[game.moves().len()] = choices;
        outcome?;
        Ok(self.remember(key, summary))
    }

    /// A forfeit at this very turn: a game that ends without another ply (its odds are what
    /// the others leave).
    fn merge_forfeit(total: &mut Summary) {
        total.games += 1;
        total.forfeits += 1;
        total.forfeit_in = 0;
    }

    /// [`Walk::ask`] once the walk has finished, within no budget: following a line it found.
    fn ask_again(&mut self, game: &History) -> Result<Result<Vec<Choice>, Forfeit>, BotError> {
        match self.ask(game) {
            Ok(answer) => Ok(answer),
            Err(Halt::Bot(error)) => Err(error),
            Err(Halt::OverBudget) => unreachable!("a line is followed within no budget"),
        }
    }

    /// One more state worked out, within the budget, unless [`Walk::ask`] counted it.
    fn expand_state(&mut self) -> Result<(), Halt> {
        if self.counts_asks {
            Ok(())
        } else {
            self.expand()
        }
    }

    /// One more state worked out, within the budget.
    fn expand(&mut self) -> Result<(), Halt> {
        if self.walked >= self.budget.states {
            return Err(Halt::OverBudget);
        }
        self.walked += 1;
        Ok(())
    }

    fn remember(&mut self, key: Option<Key>, summary: Summary) -> Summary {
        if let Some(key) = key {
            self.memo.insert(key, summary);
        }
        summary
    }

    fn opponent_node(&mut self, game: &mut History) -> Result<Summary, Halt> {
        let replies = game.legal_moves();
        let mut summary = Summary::ZERO;
        // The replies are equally likely: their odds are added up, then shared once.
        for cell in replies {
            game.play_unchecked(cell);
            let child = match self.after(game, cell) {
                After::Won => Ok(Summary::end(2)),
                After::Drawn => Ok(Summary::end(1)),
                After::Open => self.bot_node(game),
            };
            game.undo();
            self.merge(&mut summary, &child?, Ratio::ONE)?;
        }
        let share = Ratio::new(1, replies.len() as u128);
        let mut odds = [Ratio::ZERO; 3];
        let sums = summary.odds;
        self.add_odds(&mut odds, &sums, share);
        summary.odds = odds;
        Ok(summary)
    }

    /// What a position holds, once the exhaustive walk has finished: from the memo where it
    /// can, walking again where it cannot (a bot that depends on its history).
    fn summary(&mut self, game: &mut History) -> Result<Summary, BotError> {
        let bot_to_move = game.position().to_move() == self.side;
        let walked = if bot_to_move {
            self.bot_node(game)
        } else {
            self.opponent_node(game)
        };
        match walked {
            Ok(summary) => Ok(summary),
            Err(Halt::Bot(error)) => Err(error),
            // Every state was remembered by the walk that finished: none is new.
            Err(Halt::OverBudget) => unreachable!("a finished walk meets no new state"),
        }
    }

    /// The first line of `kind` in the walk's order among those of `plies` plies, followed
    /// down from the start; `None` when `plies` says there is none.
    fn line(
        &mut self,
        game: &mut History,
        kind: Kind,
        plies: u8,
    ) -> Result<Option<Vec<Cell>>, BotError> {
        if plies == NONE {
            return Ok(None);
        }
        let of = |summary: &Summary| match kind {
            Kind::Loss => summary.loss_in,
            Kind::Forfeit => summary.forfeit_in,
        };
        let start = game.moves().len();
        let mut left = plies;
        while left > 0 {
            // The first move whose position is one ply closer to the end of the line.
            let bot_to_move = game.position().to_move() == self.side;
            let moves: Vec<Cell> = if bot_to_move {
                let choices = self.ask_again(game)?.unwrap_or_default();
                choices
                    .iter()
                    .filter_map(|choice| match choice.turn {
                        Turn::Mark(cell) if game.legal_moves().contains(cell) => Some(cell),
                        _ => None,
                    })
                    .collect()
            } else {
                game.legal_moves().iter().collect()
            };
            let mut next = None;
            for cell in moves {
                game.play_unchecked(cell);
                let child = match self.after(game, cell) {
                    After::Won if !bot_to_move => Summary::end(2),
                    After::Won => Summary::end(0),
                    After::Drawn => Summary::end(1),
                    After::Open => self.summary(game)?,
                };
                if of(&child) == left - 1 {
                    next = Some(cell);
                    break;
                }
                game.undo();
            }
            if next.is_none() {
                unreachable!("a line of {left} plies is left, and one move starts it");
            }
            left -= 1;
        }
        let moves = game.moves().to_vec();
        while game.moves().len() > start {
            game.undo();
        }
        Ok(Some(moves))
    }

    /// What the bot did at the end of a forfeit whose moves before its turn are `moves`.
    fn forfeit_at(&mut self, moves: &[Cell]) -> Result<Forfeit, BotError> {
        let game = History::replay(self.game, moves);
        match self.ask_again(&game)? {
            Err(forfeit) => Ok(forfeit),
            Ok(choices) => {
                let legal = game.legal_moves();
                let turn = choices
                    .iter()
                    .map(|choice| &choice.turn)
                    .find(|turn| !matches!(turn, Turn::Mark(cell) if legal.contains(*cell)))
                    .expect("a forfeit's turn is among the bot's choices")
                    .clone();
                Ok(Forfeit::Turn(turn))
            }
        }
    }

    /// The shortest line of `kind`, by iterative deepening within the budget (none to search
    /// for a forfeit of a bot that [never forfeits](Bot::never_forfeits)).
    fn search(&mut self, kind: Kind) -> Result<Shortest<Vec<Cell>>, BotError> {
        if kind == Kind::Forfeit && self.bot.never_forfeits() {
            return Ok(Shortest::Never);
        }
        self.clear = Hashed::default();
        self.walked = 0;
        self.budget.states = self.budget.searched;
        let mut game = History::empty(self.game);
        for limit in 0..=self.game.cells() {
            match self.deepen(&mut game, kind, limit) {
                Ok(Deepened::Found) => return Ok(Shortest::Line(game.moves().to_vec())),
                Ok(Deepened::Clear { cut: false }) => return Ok(Shortest::Never),
                Ok(Deepened::Clear { cut: true }) => {}
                Err(Halt::Bot(error)) => return Err(error),
                Err(Halt::OverBudget) => {
                    return Ok(Shortest::Unsettled {
                        plies: limit.saturating_sub(1),
                    });
                }
            }
        }
        Ok(Shortest::Never)
    }

    /// Looks for a line of `kind` ending within `limit` plies of the start; on `Found`, `game`
    /// holds it (its moves, for a forfeit those before the bot's turn).
    fn deepen(&mut self, game: &mut History, kind: Kind, limit: usize) -> Result<Deepened, Halt> {
        let ply = game.moves().len();
        let left = limit - ply;
        let position = game.position();
        let bot_to_move = position.to_move() == self.side;
        if kind == Kind::Loss {
            let Some(needed) = self.plies_to_loss(game, bot_to_move) else {
                return Ok(Deepened::Clear { cut: false });
            };
            if needed > left {
                return Ok(Deepened::Clear { cut: true });
            }
        }
        if !bot_to_move {
            if left == 0 {
                return Ok(Deepened::Clear { cut: true });
            }
            let mut cut = false;
            for cell in game.legal_moves() {
                game.play_unchecked(cell);
                let found = match self.after(game, cell) {
                    After::Won if kind == Kind::Loss => Ok(Deepened::Found),
                    After::Won | After::Drawn => Ok(Deepened::Clear { cut: false }),
                    After::Open => self.deepen(game, kind, limit),
                };
                match found {
                    Ok(Deepened::Found) => return Ok(Deepened::Found),
                    Ok(Deepened::Clear { cut: c }) => cut |= c,
                    Err(stop) => {
                        game.undo();
                        return Err(stop);
                    }
                }
                game.undo();
            }
            return Ok(Deepened::Clear { cut });
        }
        let key = self.key(game);
        if let Some(&clear) = key.and_then(|key| self.clear.get(&key)) {
            if clear == NONE {
                return Ok(Deepened::Clear { cut: false });
            }
            if usize::from(clear) >= left {
                return Ok(Deepened::Clear { cut: true });
            }
        }
        self.expand_state()?;
        let choices = match self.ask(game)? {
            Err(_) if kind == Kind::Forfeit => return Ok(Deepened::Found),
            Err(_) => return Ok(self.cleared(key, left, false)),
            Ok(choices) => choices,
        };
        debug_assert!(
            !self.blocks || self.blocks_as_it_says(game, &choices),
            "{} says it blocks threats, and left one open after {:?}",
            self.bot.name(),
            game.moves()
        );
        let empty = position.empty_mask();
        let legal =
            |turn: &Turn| matches!(turn, Turn::Mark(cell) if empty >> cell.index() & 1 == 1);
        if kind == Kind::Forfeit && choices.iter().any(|choice| !legal(&choice.turn)) {
            self.choices[ply] = choices;
            return Ok(Deepened::Found);
        }
        let mut cut = false;
        let mut outcome = Ok(());
        for choice in &choices {
            let Turn::Mark(cell) = choice.turn else {
                continue;
            };
            if !legal(&choice.turn) {
                continue;
            }
            if left == 0 {
                cut = true;
                break;
            }
            game.play_unchecked(cell);
            let found = match self.after(game, cell) {
                After::Won | After::Drawn => Ok(Deepened::Clear { cut: false }),
                After::Open => self.deepen(game, kind, limit),
            };
            match found {
                Ok(Deepened::Found) => {
                    self.choices[ply] = choices;
                    return Ok(Deepened::Found);
                }
                Ok(Deepened::Clear { cut: c }) => cut |= c,
                Err(stop) => {
                    outcome = Err(stop);
                    game.undo();
                    break;
                }
            }
            game.undo();
        }
        self.choices[ply] = choices;
        outcome?;
        Ok(self.cleared(key, left, cut))
    }

    /// Whether `choices`, the bot's at `game`, keep its word that it
    /// [blocks threats](Bot::blocks_threats): where the opponent has one cell only that
    /// completes a line of theirs, each legal mark is on it or completes a line of the bot's.
    /// Checked in debug builds, where the search relies on it.
    fn blocks_as_it_says(&self, game: &History, choices: &[Choice]) -> bool {
        let position = game.position();
        let geometry = position.geometry();
        let empty = position.empty_mask();
        let threats = geometry.completing(position.mask(!self.side), empty);
        if threats.count_ones() != 1 {
            return true;
        }
        let fine = threats | geometry.completing(position.mask(self.side), empty);
        choices.iter().all(|choice| match choice.turn {
            Turn::Mark(cell) if empty >> cell.index() & 1 == 1 => fine >> cell.index() & 1 == 1,
            _ => true,
        })
    }

    /// The fewest plies from `game` to the end of a loss, or `None` when no loss can come: no
    /// line is open for the opponent (each holds a mark of the bot's), or, against a bot that
    /// blocks threats, one only.
    ///
    /// The opponent must fill a line free of the bot's marks. Against a bot that
    /// [blocks threats](Bot::blocks_threats) it must do more: the bot's last turn before the
    /// loss faced two cells that complete the opponent's lines (with one, the bot marks it or
    /// wins), so two open lines were filled but for one cell each, which takes all the cells
    /// of both but two.
    fn plies_to_loss(&self, game: &History, bot_to_move: bool) -> Option<usize> {
        let position = game.position();
        let theirs = position.mask(!self.side);
        let mine = position.mask(self.side);
        // For each line open to the opponent, the cells it lacks there.
        let mut lacking = [0 as Mask; MAX_OPEN];
        let mut open = 0;
        let mut fewest = usize::MAX;
        for &line in position.geometry().lines() {
            if line & mine != 0 {
                continue;
            }
            let lacks = line & !theirs;
            fewest = fewest.min(lacks.count_ones() as usize);
            if open < MAX_OPEN {
                lacking[open] = lacks;
            }
            open += 1;
        }
        if open == 0 {
            return None;
        }
        // The opponent's moves still needed.
        let mut moves = fewest;
        let its_win_now = !bot_to_move && fewest == 1;
        if self.blocks && !its_win_now && open <= MAX_OPEN {
            // The cells both lines of a fork lack, but the two the fork leaves empty.
            let lacking = &lacking[..open];
            let fork = lacking
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| lacking[i + 1..].iter().map(move |&b| a | b))
                .map(|both| (both.count_ones() as usize).saturating_sub(2))
                .min();
            // With one open line only, no fork can come: the bot blocks it in time.
            let fork = fork?;
            moves = moves.max(fork + 1);
        }
        Some(if bot_to_move {
            2 * moves
        } else {
            2 * moves - 1
        })
    }

    /// Records that the state `key` holds no line within `left` plies (none at all unless
    /// `cut`).
    fn cleared(&mut self, key: Option<Key>, left: usize, cut: bool) -> Deepened {
        if let Some(key) = key {
            let clear = if cut {
                left.min(usize::from(NONE - 1)) as u8
            } else {
                NONE
            };
            let entry = self.clear.entry(key).or_insert(0);
            *entry = (*entry).max(clear);
        }
        Deepened::Clear { cut }
    }
}

/// What one pass of iterative deepening found below a position.
enum Deepened {
    /// A line of the kind searched; the game holds it.
    Found,
    /// None within the limit; `cut` when the limit (not the end of every game) stopped it.
    Clear { cut: bool },
}
