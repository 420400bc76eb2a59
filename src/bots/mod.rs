//! Bots: anything that picks moves. One trait serves the auditor, `ttt play` and external
//! programs; each built-in bot lives in its own file.
//!
//! The rule bots are our own Rust ports of published bots (student reports and blog posts, each
//! named in [`CATALOG`] by its [`Source`]), kept faithful to what their authors wrote, quirks and
//! bugs included, because a bot's real behaviour is what the auditor judges. Each file's doc
//! comment names its source and every reading the source left open.

mod bot;
mod c_minimax;
mod catalog;
mod choice;
#[cfg(not(target_family = "wasm"))]
pub mod external;
mod forkbot;
pub mod function;
mod geeks;
mod marcelo;
mod memo;
mod newell_simon;
mod perfect;
pub mod protocol;
mod random;
mod smartbot;
pub(crate) mod solved;
mod source;
mod spec;
mod styles;
pub(crate) mod tactics;

use crate::board::Board;

pub use bot::{Bot, BotError, DependsOn};
pub use c_minimax::CMinimax;
pub use catalog::{BotInfo, CATALOG, Listing, PARAMETERISED, builtin};
pub use choice::{Choice, Turn, sample};
#[cfg(not(target_family = "wasm"))]
pub use external::External;
pub use forkbot::Forkbot;
pub use function::{Ask, Asking, FunctionBot};
pub use geeks::GeeksMinimax;
pub use marcelo::Marcelo;
pub use newell_simon::NewellSimon;
pub use perfect::Perfect;
pub use random::RandomBot;
pub use smartbot::Smartbot;
pub use source::{Published, Source};
pub use spec::{MAX_DENOMINATOR, allowed, from_spec, parse_probability};
pub use styles::{Casual, Epsilon, Tricky, ways_to_go_wrong};

use bot::collect;

/// The side to move and its opponent, for bots written from one side's view.
fn sides(board: Board) -> (crate::board::Player, crate::board::Player) {
    let me = board.to_move();
    (me, !me)
}
