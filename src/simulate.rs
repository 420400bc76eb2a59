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

/// What to simulate: the game, the side the bot plays, how many games, and the seed of the
/// generator every choice is drawn from.
///
/// The default is 10,000 games of tic-tac-toe as X, seed 0.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Player, simulate::SimulateOptions};
///
/// let options = SimulateOptions { side: Player::O, games: 500, ..SimulateOptions::default() };
/// assert_eq!((options.games, options.seed), (500, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimulateOptions {
    /// The game: any the bot [plays](Bot::plays), up to 128 cells.
    pub game: Game,
    /// The side the bot plays.
    pub side: Player,
    /// How many games to play.
    pub games: u64,
    /// The seed of the [`SplitMix64`] generator: the same seed, the same games.
    pub seed: u64,
}

impl Default for SimulateOptions {
    fn default() -> SimulateOptions {
        SimulateOptions {
            game: Game::TIC_TAC_TOE,
            side: Player::X,
            games: 10_000,
            seed: 0,
        }
    }
}

/// Plays `options.games` games of `bot` against a uniformly random opponent, drawing every
/// choice of both from a generator seeded with `options.seed`. The bot is told
/// [`Bot::finish`] at the end, as after an audited side.
///
/// # Errors
///
/// [`BotError`] when the bot does not play the game, or cannot answer at all (an external
/// program that broke the protocol): no tally then, as an audit gives no report.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Player, bots, simulate, simulate::SimulateOptions};
///
/// let mut perfect = bots::from_spec("perfect")?;
/// let options = SimulateOptions { games: 1000, seed: 7, ..SimulateOptions::default() };
/// let tally = simulate(perfect.as_mut(), &options)?;
/// assert_eq!(tally.games(), 1000);
/// assert_eq!(tally.losses + tally.forfeits, 0);
///
/// let mut marcelo = bots::from_spec("marcelo")?;
/// let options = SimulateOptions { game: "5x5".parse()?, games: 100, ..options };
/// assert_eq!(simulate(marcelo.as_mut(), &options)?.games(), 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn simulate(bot: &mut dyn Bot, options: &SimulateOptions) -> Result<Tally, BotError> {
    simulate_with_progress(bot, options, &mut |_| {})
}

/// [`simulate`], telling `played` after each game how many have been played: for a progress
/// line.
///
/// # Errors
///
/// As [`simulate`].
pub fn simulate_with_progress(
    bot: &mut dyn Bot,
    options: &SimulateOptions,
    played: &mut dyn FnMut(u64),
) -> Result<Tally, BotError> {
    bot.plays(options.game)?;
    let mut rng = SplitMix64::new(options.seed);
    let SimulateOptions {
        game, side, games, ..
    } = *options;
    let mut tally = Tally::default();
    let mut choices = Vec::new();
    for number in 1..=games {
        match play_one(bot, game, side, &mut rng, &mut choices)? {
            End::Finished(Outcome::Draw) => tally.draws += 1,
            End::Finished(Outcome::Win(winner)) if winner == side => tally.wins += 1,
            End::Finished(Outcome::Win(_)) => tally.losses += 1,
            End::Forfeit => tally.forfeits += 1,
        }
        played(number);
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
    game: Game,
    side: Player,
    rng: &mut SplitMix64,
    choices: &mut Vec<Choice>,
) -> Result<End, BotError> {
    let mut game = History::empty(game);
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
    /// Newcombe's worked examples (Statistics in Medicine 17, 1998, pp. 857-872, table II)
    /// are checked in this file's tests.
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
