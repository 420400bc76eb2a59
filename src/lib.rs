//! Tic-tac-toe and its m,n,k family, solved.
//!
//! `build.rs` runs full minimax over every position of tic-tac-toe and of 3x4, 4x3, 4x4 and
//! 4x4k3 (the tiered solve of [`tiers`], which `ttt solve` runs on larger games), and embeds
//! the tables of the positions play reaches in the crate (tic-tac-toe's 5,478, 765 up to the 8
//! symmetries of the board); any other game of at most 16 cells is solved on first use. An
//! [`Oracle`] then answers any position in constant time: its value for the side to move, its
//! remoteness (plies to the end under perfect play), its optimal moves, every move's value and
//! the perfect line.
//!
//! One engine serves every game: a [`Game`] (rows, columns, k) is a value, a [`Position`] is a
//! position of any game, and the oracle, the bots, the audit, matches, reviews and simulations
//! all take it. Cells are numbered 1..rows*columns row-major wherever a person or a program
//! sees them; on tic-tac-toe:
//!
//! ```text
//! 1 2 3
//! 4 5 6
//! 7 8 9
//! ```
//!
//! # Examples
//!
//! The best move on tic-tac-toe:
//!
//! ```
//! use ttt_oracle::{Game, Oracle, Position, Value};
//!
//! let oracle = Oracle::of(Game::TIC_TAC_TOE)?;
//! let position = Position::parse(Game::TIC_TAC_TOE, "XO..X....")?;
//! assert_eq!(oracle.probe(&position).value, Value::Loss); // O to move cannot stop X
//! assert_eq!(oracle.best_move(&position).map(|cell| cell.number()), Some(9));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The best move on 4x4 (four in a row), with the same calls and the same types:
//!
//! ```
//! use ttt_oracle::{Game, Oracle, Position, Value};
//!
//! let game: Game = "4x4".parse()?;
//! let oracle = Oracle::of(game)?;
//! let position = Position::parse(game, "XXX./OOO./..../....")?;
//! assert_eq!(oracle.best_move(&position).map(|cell| cell.number()), Some(4));
//! assert_eq!(oracle.probe(&position).value, Value::Win);
//! assert_eq!(oracle.probe(&Position::empty(game)).value, Value::Draw);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A game against a tunable opponent: `casual:0.3` never gives away the result it can hold,
//! but three times in ten plays any move that keeps it rather than the fastest win
//! (`epsilon:0.3` would play any legal move instead; [`bots::from_spec`] lists every bot and
//! style), each choice drawn from a seeded generator:
//!
//! ```
//! use ttt_oracle::bots::{self, Bot, Turn};
//! use ttt_oracle::{Game, History, Oracle, SplitMix64, Status};
//!
//! let oracle = Oracle::of(Game::TIC_TAC_TOE)?;
//! let mut opponent = bots::from_spec("casual:0.3")?;
//! let mut rng = SplitMix64::new(2026);
//! let mut game = History::new();
//! while game.position().status() == Status::InProgress {
//!     let cell = if game.moves().len() % 2 == 0 {
//!         oracle.best_move(&game.position()).expect("a move while in progress") // we play X
//!     } else {
//!         match opponent.pick(&game, &mut rng)? {
//!             Turn::Mark(cell) => cell,
//!             other => panic!("the opponent {other}"),
//!         }
//!     };
//!     game.play(cell)?;
//! }
//! // Perfect play never loses.
//! assert_ne!(game.position().winner(), Some(ttt_oracle::Player::O));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Your own bot is any type that implements [`bots::Bot`]: its name, and its choices in a
//! game (one certain move, or several with their probabilities). [`Position::winning_cells`]
//! and [`Position::fork_cells`] are the threats and forks the built-in rule bots play by; a
//! bot that wins when it can and blocks when it must, audited on both sides:
//!
//! ```
//! use ttt_oracle::audit::Verdict;
//! use ttt_oracle::bots::{Bot, BotError, Choice};
//! use ttt_oracle::{AuditOptions, Game, History, Player, audit};
//!
//! struct WinOrBlock;
//!
//! impl Bot for WinOrBlock {
//!     fn name(&self) -> &str {
//!         "win-or-block"
//!     }
//!
//!     fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
//!         let position = game.position();
//!         let me = position.to_move();
//!         let cell = position.winning_cells(me).first() // win
//!             .or_else(|| position.winning_cells(!me).first()) // block
//!             .or_else(|| position.empty_cells().first());
//!         Ok(Choice::only(cell))
//!     }
//! }
//!
//! for side in [Player::X, Player::O] {
//!     let report = audit(&mut WinOrBlock, &AuditOptions::new(Game::TIC_TAC_TOE, side))?;
//!     // Without forks and the centre, the first empty cell loses.
//!     assert_eq!(report.verdict(), Some(Verdict::CanLose));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/rule_bot.rs` is the same with forks and the centre, printing each side's verdict
//! and shortest loss (`cargo run --release --example rule_bot`). A bot that reads only the
//! board should say so ([`Bot::memoryless`](bots::Bot::memoryless)): the audit then asks it
//! once per board instead of once per game.
//!
//! To check a bot instead of playing it, [`audit()`] walks every game it can face; [`matchup()`]
//! plays two bots through every game, [`Review`] judges every move of a game, [`simulate()`]
//! plays sampled games, and [`bots`] has the published bots the project audits. The layers
//! and files are described in `docs/architecture.md`.

#![warn(missing_docs)]

mod analysis;
pub mod audit;
mod batch;
mod board;
pub mod bots;
#[cfg(not(target_family = "wasm"))]
pub mod cache;
mod cell;
mod cells;
#[cfg(not(target_family = "wasm"))]
mod child;
pub mod draw;
pub mod export;
mod format;
mod game;
mod history;
mod json;
pub mod matchup;
pub mod memory;
mod notation;
mod oracle;
#[cfg(not(target_family = "wasm"))]
pub mod output;
mod player;
mod position;
mod position_error;
mod ratio;
mod reachable;

pub mod review;
mod rng;
#[cfg(not(target_family = "wasm"))]
pub mod shutdown;
pub mod simulate;
mod solve;
pub mod stats;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;
pub mod text;
pub mod tiers;
mod value;
pub mod verify;
pub mod web;

pub use analysis::Analysis;
pub use audit::{AuditError, AuditOptions, audit};
pub use batch::BatchBest;
pub use cell::Cell;
pub use cells::Cells;
pub use game::{Game, GameError};
pub use history::History;
pub use matchup::matchup;
pub use oracle::Oracle;
pub use player::{Outcome, Player, Status};
pub use position::Position;
pub use position_error::PositionError;
pub use ratio::Ratio;
pub use review::Review;
pub use rng::SplitMix64;
pub use simulate::simulate;
pub use solve::with_solve_progress;
pub use table::TableError;
pub use value::{MoveValue, Probe, Value};

// The Rust examples of the README and of docs/ run with the doctests: docs are tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct Readme;
#[cfg(doctest)]
#[doc = include_str!("../docs/commands.md")]
struct CommandsPage;
#[cfg(doctest)]
#[doc = include_str!("../docs/internals.md")]
struct InternalsPage;
#[cfg(doctest)]
#[doc = include_str!("../docs/games.md")]
struct GamesPage;
#[cfg(doctest)]
#[doc = include_str!("../docs/protocol.md")]
struct ProtocolPage;
#[cfg(doctest)]
#[doc = include_str!("../docs/performance.md")]
struct PerformancePage;
#[cfg(doctest)]
#[doc = include_str!("../docs/web.md")]
struct WebPage;
