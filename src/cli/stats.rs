//! `ttt stats`.

use std::io::{self, Write};

use clap::Args;
use ttt_oracle::{ByOutcome, stats, table};

use super::{Failure, Format};

/// Arguments of `ttt stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
}

/// Prints the counts.
pub fn run(args: &StatsArgs) -> Result<(), Failure> {
    let stats = stats(table());
    let mut out = io::stdout().lock();
    if args.format == Format::Json {
        serde_json::to_writer(&mut out, &stats).map_err(io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    let outcomes = |o: ByOutcome| {
        format!(
            "{} (X wins {}, O wins {}, drawn {})",
            o.total, o.x_wins, o.o_wins, o.draw
        )
    };
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let rows = [
        ("reachable positions", stats.reachable_positions.to_string()),
        ("  up to symmetry", stats.canonical_positions.to_string()),
        (
            "non-terminal positions",
            stats.non_terminal_positions.to_string(),
        ),
        ("terminal positions", outcomes(stats.terminal_positions)),
        (
            "  up to symmetry",
            outcomes(stats.canonical_terminal_positions),
        ),
        (
            "values (side to move)",
            format!(
                "win {}, draw {}, loss {}",
                stats.values.win, stats.values.draw, stats.values.loss
            ),
        ),
        (
            "  up to symmetry",
            format!(
                "win {}, draw {}, loss {}",
                stats.canonical_values.win,
                stats.canonical_values.draw,
                stats.canonical_values.loss
            ),
        ),
        ("by remoteness 0..9", list(&stats.by_remoteness)),
        ("by ply 0..9", list(&stats.by_ply)),
        ("  up to symmetry", list(&stats.canonical_by_ply)),
        ("complete games", outcomes(stats.games)),
        ("  up to symmetry", stats.games_up_to_symmetry.to_string()),
        ("game-tree nodes", stats.game_tree_nodes.to_string()),
        ("embedded table", format!("{} bytes", stats.table_bytes)),
    ];
    for (label, value) in rows {
        writeln!(out, "{label:<24} {value}")?;
    }
    Ok(())
}
