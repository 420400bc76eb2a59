//! The layouts behind the front door (tic-tac-toe's dense table, the general table, the
//! solvers), for the project's own tests and benchmarks: not part of the API, and not built
//! unless the `internals` feature is on, which only the crate's own tests and benchmarks turn on,
//! and `ttt-mpi` (mpi/) for the slices of a tier it solves.

pub use crate::audit::tableless::audit_tableless;
pub use crate::solve::Entry;
pub use crate::solve::tic_tac_toe::solve;
pub use crate::solve::{solve_game, unentry};
pub use crate::table::disk::{HEADER_BYTES, Header, checksum, set_cache_dir};
pub use crate::table::tic_tac_toe::{Dense, table};
pub use crate::table::{Table, embedded_bytes};
pub use crate::text::grouped;
pub use crate::tiers::solve::solve_slice;
pub use crate::tiers::{MAX_TIER_CELLS, Tiers, solve_in_memory};
