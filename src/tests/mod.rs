//! Unit tests of the layouts behind the front door (tic-tac-toe's 4-byte board and dense table,
//! the table formats, the solvers), which the public API does not show: they moved here from
//! `tests/` when those types left the public API.

mod dense_table;
mod geometry;
mod position;
mod solver;
mod table;
mod tiers;
