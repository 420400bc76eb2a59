//! Exact matches between two bots: one plays X, the other O, and every choice either may make
//! is followed, weighted by its probability, to the end of every game.
//!
//! The walk is the audit's walk by positions (`audit::positions`), with a bot on both sides
//! instead of a random opponent on one: it goes ply by ply, and every chance is an integer over
//! one denominator a ply (the product of every earlier ply's least common multiple of the
//! probabilities' denominators), so no fraction is reduced per move and each figure is exact.
//!
//! - When both bots are [memoryless](Bot::memoryless), what follows a position does not depend
//!   on how it was reached, so the histories that meet at a board are merged there: each
//!   position is asked once, carrying how many histories reach it (for the count of games) and
//!   their total chance.
//! - Otherwise every history is a position of its own, asked with its own moves.
//!
//! Either way a bot that [asks ahead](Bot::asks_ahead) (an external program) is told each
//! ply's questions in batches before it is asked them one by one. A number that would outgrow
//! its integer stops the match with [`AuditError::Overflow`] rather than rounding: the exact
//! odds then need more than 128 bits.
//!
//! A bot that could tell the match from a game ([`Bot::one_at_a_time`]: it saw its questions
//! queued, or a ply at a time rather than a game at a time) is then asked again, as after an
//! audit: a fresh instance, one request at a time, along games drawn from the answers both
//! bots gave the match ([`MatchReport::x_recheck`]). An answer that differs means the odds
//! describe answers the bot does not give in a game.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::audit::exact::{Multiple, Overflow, plus, times};
use crate::audit::node::{Node, Step, prepare, step};
use crate::audit::positions::Shown;
use crate::audit::recheck::{self, Audited, RECHECK_GAMES, Recheck};
use crate::audit::rules::{Cached, Places, Rules};
use crate::audit::tableless::AuditBudget;
use crate::audit::{AuditError, OverBudget};
use crate::board::{Board, Cell, Outcome, Player};
use crate::bots::{Bot, Turn};
use crate::draw::Style;
use crate::game::Game;
use crate::position::Position;
use crate::ratio::Ratio;
use crate::text::{counted, escape, fit, percent};

/// Plays `x` as X against `o` as O over every choice of both, each weighted by its
/// probability, and gives the exact probability of each way a game ends.
///
/// A choice that is not a legal mark (a taken cell, no move, several marks) or a panic in the
/// bot ends the game as a forfeit by the side to move. Both bots are
/// [finished](Bot::finish) at the end, whatever happened (an external program is stopped).
///
/// To play a bot against itself, give two instances of it: `x` and `o` are two players.
///
/// Unless both bots are [memoryless](Bot::memoryless), every history is walked on its own,
/// at most `options.budget.states` of them on a game other than tic-tac-toe (whose 549,946
/// histories are always walked): a game of 16 cells holds billions of them when a bot answers
/// every empty cell, and the budget is checked before each is added.
///
/// # Errors
///
/// [`AuditError::TooLarge`] for a game of more than 16 cells whose table `ttt solve` has not
/// cached, [`AuditError::NoTable`] when the cached one is damaged; [`AuditError::Refused`] when a
/// bot does not [play](Bot::plays) the game (X's refusal first; neither is asked anything);
/// [`AuditError::OverBudget`] when the walk would hold more histories than the budget;
/// [`AuditError::OverMemory`] when it would hold more than the memory limit;
/// [`AuditError::Bot`] when a bot cannot answer at all, or its answers cannot be trusted (an
/// external program that broke its protocol, in the match or asked again);
/// [`AuditError::Overflow`] when the exact odds need more than 128 bits.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{AuditError, Ratio, bots, matchup, matchup::MatchOptions};
///
/// // Two random players meet every game of tic-tac-toe: all 255,168 of them.
/// let (mut x, mut o) = (bots::from_spec("random")?, bots::from_spec("random")?);
/// let report = matchup(x.as_mut(), o.as_mut(), &MatchOptions::default())?;
/// assert_eq!(report.games, 255_168);
/// assert_eq!(report.x_wins.to_string(), "737/1260");
/// assert_eq!(report.x_wins + report.draws + report.o_wins, Ratio::ONE);
///
/// // On 3x4 (k = 3) the first player wins: perfect play wins every game as X.
/// let options = MatchOptions { game: "3x4".parse()?, ..MatchOptions::default() };
/// let (mut x, mut o) = (bots::from_spec("perfect")?, bots::from_spec("perfect")?);
/// assert_eq!(matchup(x.as_mut(), o.as_mut(), &options)?.x_wins, Ratio::ONE);
///
/// let mut smartbot = bots::from_spec("smartbot")?;
/// let refused = matchup(x.as_mut(), smartbot.as_mut(), &options);
/// assert!(matches!(refused, Err(AuditError::Refused(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn matchup(
    x: &mut dyn Bot,
    o: &mut dyn Bot,
    options: &MatchOptions,
) -> Result<MatchReport, AuditError> {
    let MatchOptions { game, budget, .. } = *options;
    let cached = Cached::table(game).map_err(AuditError::NoTable)?;
    if !game.has_table() && cached.is_none() {
        return Err(AuditError::TooLarge(game));
    }
    x.plays(game).map_err(AuditError::Refused)?;
    o.plays(game).map_err(AuditError::Refused)?;
    let limit = budget.states as u64;
    let mut report = if game == Game::TIC_TAC_TOE {
        play::<Board>(x, o, game, u64::MAX)
    } else if cached.is_some() {
        // The walk needs only the rules; the table's being there is what bounds the game.
        play::<Cached>(x, o, game, limit)
    } else {
        play::<Position>(x, o, game, limit)
    }?;
    let seed = options.recheck_seed;
    report.x_recheck = again(x, o, Player::X, game, options.recheck, seed)?;
    report.o_recheck = again(o, x, Player::O, game, options.recheck, seed)?;
    Ok(report)
}

/// Asks `bot`, which played `side` against `other`, again one request at a time along
/// `games` games drawn from both bots' answers; then stops whatever either started.
fn again(
    bot: &mut dyn Bot,
    other: &mut dyn Bot,
    side: Player,
    game: Game,
    games: usize,
    seed: Option<u64>,
) -> Result<Option<Box<Recheck>>, AuditError> {
    let mut audited = Audited {
        game,
        side,
        shortest: Vec::new(),
        opponent: Some(&mut *other),
    };
    let found = recheck::recheck(bot, &mut audited, games, seed);
    let finished = [bot.finish(), other.finish()];
    let found = found?;
    for result in finished {
        result?;
    }
    Ok(found)
}

/// What to play a match on: the game, how many histories the walk may hold, and how a bot
/// that could tell the match from a game is asked again.
///
/// The default is tic-tac-toe within [`AuditBudget::DEFAULT`], asking again along
/// [`RECHECK_GAMES`] games drawn with a fresh seed.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, matchup::MatchOptions};
///
/// let options = MatchOptions { game: "4x4k3".parse()?, ..MatchOptions::default() };
/// assert_eq!(options.game.k(), 3);
/// assert_eq!(MatchOptions::default().game, Game::TIC_TAC_TOE);
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// The game: any game of at most 16 cells, or of 17 to 25 whose table `ttt solve` cached.
    pub game: Game,
    /// The most histories the walk may hold when a bot is not memoryless (`searched` is not
    /// used).
    pub budget: AuditBudget,
    /// How many games drawn from the match a bot that could tell it from a game
    /// ([`Bot::one_at_a_time`]) is asked again along, one request at a time; 0 asks nothing
    /// again.
    pub recheck: usize,
    /// The seed of those games; `None` draws a fresh one each match, so that a bot cannot
    /// learn them from one match to the next.
    pub recheck_seed: Option<u64>,
}

impl Default for MatchOptions {
    fn default() -> MatchOptions {
        MatchOptions {
            game: Game::TIC_TAC_TOE,
            budget: AuditBudget::DEFAULT,
            recheck: RECHECK_GAMES,
            recheck_seed: None,
        }
    }
}

/// The match on boards of kind `R`, holding at most `limit` histories unless both bots are
/// memoryless.
fn play<R: Rules>(
    x: &mut dyn Bot,
    o: &mut dyn Bot,
    game: Game,
    limit: u64,
) -> Result<MatchReport, AuditError> {
    let names = [x.name().to_string(), o.name().to_string()];
    let merge = x.memoryless() && o.memoryless();
    let over_budget = || {
        let names = |bots: &[&dyn Bot]| bots.iter().map(|bot| bot.name().to_string()).collect();
        let remembering: Vec<&dyn Bot> = [&*x, &*o]
            .into_iter()
            .filter(|bot| !bot.memoryless())
            .collect();
        let too_fine = remembering.is_empty();
        let bots = match too_fine {
            true => names(&[&*x, &*o]),
            false => names(&remembering),
        };
        AuditError::OverBudget(OverBudget {
            bots,
            game,
            limit,
            too_fine,
        })
    };
    let over_budget = over_budget();
    // Places list the positions of a merged walk only: a walk by histories leaves them unmade
    // (on 4x4 an array of 172 MB).
    let mut places = R::Places::default();
    if merge {
        places.ready(game);
    }
    let walked = Walk::<R> {
        game,
        bots: [&mut *x, &mut *o],
        merge,
        shown: Shown::new(game),
        ply: 0,
        multiple: Multiple::ONE,
        ended: [0; 5],
        games: 0,
        next: Vec::new(),
        places,
        limit,
        held: 0,
    }
    .run();
    // Both are stopped whatever happened; the first error is the one to tell.
    let finished = [x.finish(), o.finish()];
    let [x_name, o_name] = names;
    let (games, chances) = walked.map_err(|error| match error {
        AuditError::OverBudget(_) => over_budget,
        error => error,
    })?;
    for result in finished {
        result?;
    }
    let [x_wins, draws, o_wins, x_forfeits, o_forfeits] = chances;
    Ok(MatchReport {
        game,
        x: x_name,
        o: o_name,
        games,
        x_wins,
        draws,
        o_wins,
        x_forfeits,
        o_forfeits,
        x_recheck: None,
        o_recheck: None,
    })
}

/// The exact result of a match: the probability of each way a game ends, in lowest terms (the
/// five add up to 1 when each bot's choices do), and the number of distinct games.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Ratio, bots, matchup, matchup::MatchOptions};
///
/// // newell-simon opens in the centre and marcelo answers in corner 1 or 3, equally likely:
/// // after 5 1 9 it marks two cells in one turn (8 and 7); after 5 3 the game is drawn.
/// let mut x = bots::from_spec("newell-simon")?;
/// let mut o = bots::from_spec("marcelo")?;
/// let report = matchup(x.as_mut(), o.as_mut(), &MatchOptions::default())?;
/// assert_eq!((report.x.as_str(), report.o.as_str()), ("newell-simon", "marcelo"));
/// assert_eq!(report.games, 2);
/// assert_eq!(report.o_forfeits, Ratio::new(1, 2));
/// assert_eq!(report.draws, Ratio::new(1, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// The game played.
    pub game: Game,
    /// The name of the bot that played X.
    pub x: String,
    /// The name of the bot that played O.
    pub o: String,
    /// Distinct games, forfeits included: one for each way the bots' choices can go.
    pub games: u64,
    /// X made a line (three in a row on tic-tac-toe).
    pub x_wins: Ratio,
    /// The board filled with no line.
    pub draws: Ratio,
    /// O made a line.
    pub o_wins: Ratio,
    /// X broke the rules (a taken cell, no move, several marks, or a panic): O wins.
    pub x_forfeits: Ratio,
    /// O broke the rules: X wins.
    pub o_forfeits: Ratio,
    /// What asking X's bot again one request at a time found, when it could tell the match
    /// from a game (an external program, a Python function); `None` for a bot that cannot,
    /// or when [`MatchOptions::recheck`] is 0.
    pub x_recheck: Option<Box<Recheck>>,
    /// The same of O's bot.
    pub o_recheck: Option<Box<Recheck>>,
}

impl MatchReport {
    /// How many columns of a bot's name the [text](MatchReport::text) shows; the rest is cut
    /// from its middle.
    pub const NAME_WIDTH: usize = 28;

    /// The five probabilities with their keys, in the order the JSON gives them.
    fn chances(&self) -> [(&'static str, Ratio); 5] {
        [
            ("x_wins", self.x_wins),
            ("draws", self.draws),
            ("o_wins", self.o_wins),
            ("x_forfeits", self.x_forfeits),
            ("o_forfeits", self.o_forfeits),
        ]
    }

    /// The five ways a game ends, as the text names them (`X wins`, `draws`, `O wins`,
    /// `X forfeits`, `O forfeits`), with their chances.
    pub fn ends(&self) -> [(&'static str, Ratio); 5] {
        [
            ("X wins", self.x_wins),
            ("draws", self.draws),
            ("O wins", self.o_wins),
            ("X forfeits", self.x_forfeits),
            ("O forfeits", self.o_forfeits),
        ]
    }

    /// The match as `ttt match` prints it, a line each (no newline after the last): who played
    /// which side (names cut to 28 columns) and how many games, then each way a game ends
    /// with its chance as a percentage and exactly; the heading in bold and the ends that never
    /// happen dimmed when `style` says. Within 100 columns whatever the fractions: a 39-digit
    /// numerator and denominator leave no percentage wider than 6 columns.
    ///
    /// Its [`Display`](fmt::Display) is this text without colour, which names the bots by the
    /// names the report holds.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{bots, draw::Style, matchup, matchup::MatchOptions};
    ///
    /// let (mut x, mut o) = (bots::from_spec("perfect")?, bots::from_spec("random")?);
    /// let report = matchup(x.as_mut(), o.as_mut(), &MatchOptions::default())?;
    /// println!("{report}");
    /// let text = format!("{report}");
    /// assert!(text.starts_with("perfect (X) vs random (O): "));
    /// assert!(text.ends_with("\n  O forfeits  0.00%  0/1"));
    /// assert_eq!(report.text(Style::PLAIN), text);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn text(&self, style: Style) -> String {
        let of = match self.game {
            Game::TIC_TAC_TOE => String::new(),
            game => format!(" of {game}"),
        };
        let mut lines = vec![style.strong(&format!(
            "{} (X) vs {} (O): {}{of}",
            fit(&escape(&self.x), MatchReport::NAME_WIDTH),
            fit(&escape(&self.o), MatchReport::NAME_WIDTH),
            counted(self.games, "game", "games")
        ))];
        let ends = self.ends();
        let width = ends
            .iter()
            .map(|(_, p)| percent(p.to_f64()).len())
            .max()
            .unwrap_or(0);
        for (label, p) in ends {
            let line = format!("  {label:<10} {:>width$}  {p}", percent(p.to_f64()));
            lines.push(if p == Ratio::ZERO {
                style.faint(&line)
            } else {
                line
            });
        }
        for (side, recheck) in self.rechecks() {
            let who = format!("{side} ");
            let recheck =
                crate::audit::text::recheck_lines(recheck, self.game, &who, "the match", style);
            lines.extend(recheck);
        }
        if let Some(side) = self.answers_differently() {
            lines.push(style.strong(&format!(
                "  {side} answers differently in a game: the chances above are not those of its games"
            )));
        }
        lines.join("\n")
    }

    /// Each side whose bot was asked again one request at a time, X first, with what that
    /// found.
    pub fn rechecks(&self) -> impl Iterator<Item = (Player, &Recheck)> {
        let sides = [(Player::X, &self.x_recheck), (Player::O, &self.o_recheck)];
        sides
            .into_iter()
            .filter_map(|(side, recheck)| recheck.as_deref().map(|recheck| (side, recheck)))
    }

    /// The first side (X first) whose bot answered differently when asked again one request
    /// at a time: the chances then describe answers it does not give in a game.
    pub fn answers_differently(&self) -> Option<Player> {
        self.rechecks()
            .find(|(_, recheck)| recheck.difference.is_some())
            .map(|(side, _)| side)
    }
}

/// The text of [`MatchReport::text`], without colour: see there.
impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Style::PLAIN))
    }
}

/// The JSON shape documented in `docs/commands.md`: the names, the games, each probability as
/// a decimal, and in `exact` each as `"p/q"` in lowest terms.
impl Serialize for MatchReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Exact<'a>(&'a MatchReport);
        impl Serialize for Exact<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut s = serializer.serialize_struct("Exact", 5)?;
                for (key, chance) in self.0.chances() {
                    s.serialize_field(key, &chance.to_string())?;
                }
                s.end()
            }
        }
        let mut s = serializer.serialize_struct("MatchReport", 12)?;
        // Tic-tac-toe's report is as it was before other games: no `game` key.
        if self.game != Game::TIC_TAC_TOE {
            s.serialize_field("game", &self.game.to_string())?;
        }
        s.serialize_field("x", &self.x)?;
        s.serialize_field("o", &self.o)?;
        s.serialize_field("games", &self.games)?;
        for (key, chance) in self.chances() {
            s.serialize_field(key, &chance.to_f64())?;
        }
        s.serialize_field("exact", &Exact(self))?;
        s.serialize_field("x_recheck", &self.x_recheck)?;
        s.serialize_field("o_recheck", &self.o_recheck)?;
        s.end()
    }
}

/// How a game ended, as an index into the chances of [`Walk::ended`].
#[derive(Clone, Copy)]
enum End {
    XWins = 0,
    Draw = 1,
    OWins = 2,
    XForfeits = 3,
    OForfeits = 4,
}

impl End {
    fn win(player: Player) -> End {
        match player {
            Player::X => End::XWins,
            Player::O => End::OWins,
        }
    }

    fn forfeit(player: Player) -> End {
        match player {
            Player::X => End::XForfeits,
            Player::O => End::OForfeits,
        }
    }
}

/// Where `side`'s bot sits in [`Walk::bots`].
fn seat(side: Player) -> usize {
    usize::from(side == Player::O)
}

struct Walk<'a, R: Rules> {
    game: Game,
    /// X's bot, then O's.
    bots: [&'a mut dyn Bot; 2],
    /// Whether histories that reach one board are merged there (both bots are memoryless).
    merge: bool,
    /// The game last shown to a bot, moved to the next position asked about.
    shown: Shown<R>,
    /// The ply being walked.
    ply: usize,
    /// The least common multiple of the denominators of this ply's choices so far: the next
    /// ply's chances are over this ply's denominator times it.
    multiple: Multiple,
    /// The chances of the games ended so far, by [`End`], over the next ply's denominator.
    ended: [u128; 5],
    /// The games ended so far.
    games: u64,
    /// The positions of the next ply, in the order of their first histories.
    next: Vec<Node<R>>,
    /// When merging, each board's place in `next`.
    places: R::Places,
    /// When not merging, the most histories the walk may hold, over every ply.
    limit: u64,
    /// The histories held so far.
    held: u64,
}

impl<R: Rules> Walk<'_, R> {
    /// Every game to its end: the number of games, and the chance of each [`End`].
    fn run(mut self) -> Result<(u64, [Ratio; 5]), AuditError> {
        let mut nodes = vec![Node::root(self.game)];
        let mut denominator: u128 = 1;
        while !nodes.is_empty() {
            if self.merge {
                // The places of this ply served to list it; the next ply's are set from here.
                let listed = nodes.iter().map(|node| (node.board, node.code));
                self.places.forget(listed);
            }
            self.multiple = Multiple::ONE;
            self.next.clear();
            let bot = &mut *self.bots[seat(Player::at_ply(self.ply))];
            prepare(bot, self.game, &nodes, self.ply)?;
            for node in &nodes {
                self.visit(node)?;
            }
            denominator = times(denominator, u128::from(self.multiple.value))?;
            std::mem::swap(&mut nodes, &mut self.next);
            self.ply += 1;
        }
        Ok((
            self.games,
            self.ended.map(|chance| Ratio::new(chance, denominator)),
        ))
    }

    /// Asks the side to move at `node` what it does, and follows each choice.
    fn visit(&mut self, node: &Node<R>) -> Result<(), AuditError> {
        let side = Player::at_ply(self.ply);
        self.shown.show(node.line, self.ply);
        let (bot, game) = (&mut *self.bots[seat(side)], &self.shown.game);
        // A panic forfeits every game through here, as no choice at all does.
        let choices = match catch_unwind(AssertUnwindSafe(|| bot.choose(game))) {
            Ok(answer) => answer?,
            Err(_) => Vec::new(),
        };
        if choices.is_empty() {
            // The chance of reaching `node`, over this ply's denominator, over the next one's.
            let chance = times(node.chance, u128::from(self.multiple.value))?;
            return Ok(self.end(node, End::forfeit(side), chance)?);
        }
        let empty = node.board.empty_cells();
        for choice in &choices {
            let p = choice.probability;
            let chance = times(node.chance, self.weight(p.numer(), p.denom())?)?;
            match choice.turn {
                Turn::Mark(cell) if empty.contains(cell) => self.reach(node, cell, chance)?,
                _ => self.end(node, End::forfeit(side), chance)?,
            }
        }
        Ok(())
    }

    /// Counts the games through `node` as ended by `end`, with `chance` over the next ply's
    /// denominator.
    fn end(&mut self, node: &Node<R>, end: End, chance: u128) -> Result<(), Overflow> {
        let slot = &mut self.ended[end as usize];
        *slot = plus(*slot, chance)?;
        self.games = self
            .games
            .checked_add(u64::from(node.histories))
            .ok_or(Overflow)?;
        Ok(())
    }

    /// The probability `numerator / denominator` as an integer over the ply's multiple, which
    /// grows to take in the denominator: then every chance already carried to the next ply
    /// grows with it.
    fn weight(&mut self, numerator: u128, denominator: u128) -> Result<u128, Overflow> {
        if let Some(factor) = self.multiple.take_in(denominator)? {
            for node in &mut self.next {
                node.chance = times(node.chance, factor)?;
            }
            for chance in &mut self.ended {
                *chance = times(*chance, factor)?;
            }
        }
        times(numerator, self.multiple.over(denominator))
    }

    /// Brings the histories of `node`, playing `cell`, to the position after it or to the end
    /// of their games, with `chance` over the next ply's denominator.
    fn reach(&mut self, node: &Node<R>, cell: Cell, chance: u128) -> Result<(), AuditError> {
        crate::memory::check().map_err(AuditError::OverMemory)?;
        let places = self.merge.then_some(&mut self.places);
        match step(node, self.ply, cell, chance, &mut self.next, places)? {
            Step::End(Outcome::Win(winner)) => Ok(self.end(node, End::win(winner), chance)?),
            Step::End(Outcome::Draw) => Ok(self.end(node, End::Draw, chance)?),
            Step::At(_) if self.merge => Ok(()),
            Step::At(_) => {
                // One history more in the next ply's list: one past the limit at most.
                self.held += 1;
                if self.held > self.limit {
                    // The bots are named by the caller, who holds them.
                    return Err(AuditError::OverBudget(OverBudget {
                        bots: Vec::new(),
                        game: self.game,
                        limit: self.limit,
                        too_fine: false,
                    }));
                }
                Ok(())
            }
        }
    }
}
