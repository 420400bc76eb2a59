//! The layouts behind the front door (tic-tac-toe's dense table, the general table, the
//! memoised solver), for the project's own benchmarks (benches/), which time them beside the
//! front door: not part of the API, and not built unless the `internals` feature is on, which
//! only the benchmarks turn on.

pub use crate::solve::solve_game;
pub use crate::table::{Table, embedded_bytes};
