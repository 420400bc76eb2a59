//! A bot that does not say it blocks threats, shared by the tests and the benchmarks (which
//! include this file by `#[path]`): the baseline of the search for a loss that knows a fork is
//! needed.

use ttt_oracle::bots::{Bot, BotError, Choice, DependsOn};
use ttt_oracle::{Game, History};

/// `bot`, asked the same questions and remembered on the same state, but not saying that it
/// [blocks threats](Bot::blocks_threats): a search for its loss knows only that the opponent
/// must fill a line.
pub struct BlocksUnsaid(pub Box<dyn Bot + Send>);

impl Bot for BlocksUnsaid {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        self.0.choose(game)
    }

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        self.0.choose_into(game, choices)
    }

    fn plays(&self, game: Game) -> Result<(), BotError> {
        self.0.plays(game)
    }

    fn depends_on(&self, game: &History) -> DependsOn {
        self.0.depends_on(game)
    }
}
