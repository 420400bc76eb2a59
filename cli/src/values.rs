//! What the arguments naming a game or a bot offer the shells' completion: the games with a
//! table built in (the help of `--game` gives the pattern of the others, MxN or MxNkK), and
//! the built-in bots by name, each with a line on what it is. Any other game or bot
//! specification is read as before; these parsers only name the usual ones, so that a shell
//! completes them rather than file names.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};

use ttt_oracle::Game;
use ttt_oracle::bots::CATALOG;

/// `--game`: any game `Game` reads, with the embedded ones to complete.
#[derive(Clone, Copy, Debug)]
pub struct GameValues;

impl TypedValueParser for GameValues {
    type Value = Game;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Game, clap::Error> {
        StringValueParser::new()
            .try_map(|text| text.parse::<Game>())
            .parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let games = std::iter::once(Game::TIC_TAC_TOE).chain(Game::EMBEDDED.iter().copied());
        Some(Box::new(games.map(|game| {
            let what = if game == Game::TIC_TAC_TOE {
                "tic-tac-toe".to_string()
            } else {
                format!(
                    "{} rows, {} columns, {} in a row",
                    game.rows(),
                    game.columns(),
                    game.k()
                )
            };
            PossibleValue::new(game.to_string()).help(what)
        })))
    }
}

/// A bot: any specification (checked where it is used, with the known ones listed), with the
/// built-in names to complete. The forms with a parameter (`casual:P`, `epsilon:P`,
/// `cmd:COMMAND`) are left to be typed: bash splits words at the colon.
#[derive(Clone, Copy, Debug)]
pub struct BotValues;

impl TypedValueParser for BotValues {
    type Value = String;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(CATALOG.iter().map(|info| {
            PossibleValue::new(info.name).help(info.summary)
        })))
    }
}
