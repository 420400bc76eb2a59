//! The m,n,k family: tic-tac-toe's rules on any board of up to 128 cells, and the solver for
//! those of up to 16 cells.
//!
//! This module is shared with `build.rs` (through `#[path]`), which solves the embedded games.

pub mod board;
pub mod format;
pub mod game;
pub mod solve;
