//! A bot that hides that it is memoryless, shared by the tests and the benchmarks (which
//! include this file by `#[path]`): the baseline every walk by positions is compared with.

use ttt_oracle::bots::{Bot, BotError, Choice};
use ttt_oracle::{Game, History};

/// `bot`, asked the same questions, but not saying that it is memoryless: an audit or a match
/// with it walks every history, as every bot's did before the walk by positions.
pub struct ByHistories(pub Box<dyn Bot + Send>);

impl Bot for ByHistories {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        self.0.choose(game)
    }

    fn plays(&self, game: Game) -> Result<(), BotError> {
        self.0.plays(game)
    }
}
