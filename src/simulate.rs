//! Sampled games against a uniformly random opponent: the way bot authors measure their bots
//! (Marcelo's post reports 50,000 such games a side), to set beside the audit's exact odds.
//!
//! A simulation plays whole games: the bot's move drawn from its choices by their
//! probabilities, the opponent's uniformly among the empty cells, both from one seeded
//! generator, so that a seed replays every game. It counts how the games end and gives each
//! rate a 95% interval; [`Rate::standard_errors`] says how far a rate lies from the exact
//! probability that the audit works out.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::Game;
use crate::board::{Outcome, Player, Status};
use crate::bots::{Bot, BotError, Choice, Turn, sample};
use crate::history::History;
use crate::rng::SplitMix64;

/// How the simulated games of one side ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The games the bot won.
    pub wins: u64,
    /// The games drawn.
    pub draws: u64,
    /// The games the bot lost on the board.
    pub losses: u64,
    /// The games the bot lost by breaking the rules: a taken cell, no move, several marks in
    /// one turn, or a panic.
    pub forfeits: u64,
}

impl Tally {
    /// Every game counted.
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses + self.forfeits
    }
}

/// Plays `games` games of `bot` on `side` against a uniformly random opponent, drawing every
/// choice from `rng`. The bot is told [`Bot::finish`] at the end, as after an audited side.
///
/// # Errors
///
/// [`BotError`] when the bot cannot answer at all (an external program that broke the
/// protocol): no tally then, as an audit gives no report.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Player, SplitMix64, bots, simulate};
///
/// let mut bot = bots::builtin("perfect").unwrap();
/// let tally = simulate(bot.as_mut(), Player::X, 1000, &mut SplitMix64::new(7))?;
/// assert_eq!(tally.games(), 1000);
/// assert_eq!(tally.losses + tally.forfeits, 0);
/// # Ok::<(), ttt_oracle::bots::BotError>(())
/// ```
pub fn simulate(
    bot: &mut dyn Bot,
    side: Player,
    games: u64,
    rng: &mut SplitMix64,
) -> Result<Tally, BotError> {
    simulate_reporting(bot, side, games, rng, &mut |_| {})
}

/// [`simulate`], telling `played` after each game how many have been played: for a progress
/// line.
///
/// # Errors
///
/// As [`simulate`].
pub fn simulate_reporting(
    bot: &mut dyn Bot,
    side: Player,
    games: u64,
    rng: &mut SplitMix64,
    played: &mut dyn FnMut(u64),
) -> Result<Tally, BotError> {
    simulate_game(bot, Game::TIC_TAC_TOE, side, games, rng, played)
}

/// [`simulate_reporting`] on any game the bot [plays](Bot::plays); on tic-tac-toe the same
/// games for the same generator.
///
/// # Errors
///
/// As [`simulate`].
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Player, SplitMix64, bots, simulate_game};
///
/// let mut marcelo = bots::builtin("marcelo").unwrap();
/// let five = "5x5".parse()?;
/// let tally = simulate_game(marcelo.as_mut(), five, Player::X, 100, &mut SplitMix64::new(1), &mut |_| {})?;
/// assert_eq!(tally.games(), 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn simulate_game(
    bot: &mut dyn Bot,
    mnk: Game,
    side: Player,
    games: u64,
    rng: &mut SplitMix64,
    played: &mut dyn FnMut(u64),
) -> Result<Tally, BotError> {
    let mut tally = Tally::default();
    let mut choices = Vec::new();
    for game in 1..=games {
        match play_one(bot, mnk, side, rng, &mut choices)? {
            End::Finished(Outcome::Draw) => tally.draws += 1,
            End::Finished(Outcome::Win(winner)) if winner == side => tally.wins += 1,
            End::Finished(Outcome::Win(_)) => tally.losses += 1,
            End::Forfeit => tally.forfeits += 1,
        }
        played(game);
    }
    bot.finish()?;
    Ok(tally)
}

/// How one simulated game ended.
enum End {
    Finished(Outcome),
    Forfeit,
}

/// One game, to its end.
fn play_one(
    bot: &mut dyn Bot,
    mnk: Game,
    side: Player,
    rng: &mut SplitMix64,
    choices: &mut Vec<Choice>,
) -> Result<End, BotError> {
    let mut game = History::empty(mnk);
    loop {
        let board = game.position();
        if let Status::Finished(outcome) = board.status() {
            return Ok(End::Finished(outcome));
        }
        let cell = if board.to_move() == side {
            choices.clear();
            match catch_unwind(AssertUnwindSafe(|| bot.choose_into(&game, choices))) {
                Ok(answer) => answer?,
                // A panic forfeits the game, as in an audit.
                Err(_) => return Ok(End::Forfeit),
            }
            match sample(choices, rng) {
                Some(&Turn::Mark(cell)) if game.legal_moves().contains(cell) => cell,
                _ => return Ok(End::Forfeit),
            }
        } else {
            let empty = game.legal_moves();
            let pick = rng.below(empty.len() as u64) as usize;
            empty
                .iter()
                .nth(pick)
                .expect("a game in progress has an empty cell")
        };
        game.play(cell)
            .expect("an empty cell of a game in progress");
    }
}

/// A rate measured over sampled games, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// How many games had the result: at most `games`.
    pub count: u64,
    /// Out of how many.
    pub games: u64,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Rate {
    /// The fraction of games, 0 to 1 (0 for no games).
    pub fn value(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.count as f64 / self.games as f64
        }
    }

    /// The 95% Wilson score interval: unlike the textbook `p ± 1.96·se`, it stays within 0
    /// and 1 and does not shrink to a point when no game (or every game) had the result. It
    /// starts at exactly 0 when no game had the result, and ends at exactly 1 when all had.
    ///
    /// # Examples
    ///
    /// Newcombe's worked examples (Statistics in Medicine 17, 1998, pp. 857-872, table II):
    ///
    /// ```
    /// use ttt_oracle::Rate;
    ///
    /// let near = |(low, high): (f64, f64), (a, b): (f64, f64)| {
    ///     (low - a).abs() < 5e-5 && (high - b).abs() < 5e-5
    /// };
    /// assert!(near(Rate { count: 81, games: 263 }.interval(), (0.2553, 0.3662)));
    /// assert!(near(Rate { count: 1, games: 10 }.interval(), (0.0179, 0.4042)));
    /// assert!(near(Rate { count: 0, games: 10 }.interval(), (0.0, 0.2775)));
    /// assert_eq!(Rate { count: 0, games: 50_000 }.interval().0, 0.0);
    /// assert_eq!(Rate { count: 7, games: 7 }.interval().1, 1.0);
    /// ```
    pub fn interval(&self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 1.0);
        }
        let n = self.games as f64;
        let p = self.value();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // Rounding would leave a sliver at either end.
        let low = if self.count == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        };
        let high = if self.count >= self.games {
            1.0
        } else {
            (centre + half).min(1.0)
        };
        (low, high)
    }

    /// How many standard errors the rate lies from `exact`, the true probability: the
    /// standard error of a rate over this many games when the probability is `exact`.
    /// `None` where that error is zero (an exact probability of 0 or 1) and the rate differs
    /// from it: a result that cannot happen did; and for no games at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::Rate;
    ///
    /// let rate = Rate { count: 5_100, games: 10_000 };
    /// assert!((rate.standard_errors(0.5).unwrap() - 2.0).abs() < 1e-9);
    /// assert_eq!(Rate { count: 0, games: 10 }.standard_errors(0.0), Some(0.0));
    /// assert_eq!(Rate { count: 1, games: 10 }.standard_errors(0.0), None);
    /// ```
    pub fn standard_errors(&self, exact: f64) -> Option<f64> {
        if self.games == 0 {
            return None;
        }
        let difference = self.value() - exact;
        let error = (exact * (1.0 - exact) / self.games as f64).sqrt();
        if error > 0.0 {
            Some(difference / error)
        } else if difference == 0.0 {
            Some(0.0)
        } else {
            None
        }
    }
}
