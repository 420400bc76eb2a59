//! `ttt stats`.

use std::io::{self, Write};

use crate::stats::{of_game, stats};
use crate::{ByOutcome, Game, table};
use clap::Args;

use super::{Failure, Format};

/// Arguments of `ttt stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game: 3x3 (tic-tac-toe), MxN or MxNkK, up to 16 cells (see `ttt best --help`).
    /// Other games than 3x3 are solved afresh to count them: 4x4 takes a few seconds.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
}

/// Prints the counts.
pub fn run(args: &StatsArgs) -> Result<(), Failure> {
    let game = args.game;
    let stats = if game == Game::TIC_TAC_TOE {
        stats(table())
    } else if game.has_table() {
        of_game(game)
    } else {
        return Err(Failure::usage(format!(
            "game {game} has {} cells; counts are made for games of at most {} cells",
            game.cells(),
            crate::MAX_TABLE_CELLS
        )));
    };
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
    let by_remoteness = format!("by remoteness 0..{}", game.cells());
    let by_ply = format!("by ply 0..{}", game.cells());
    let table_label = if game == Game::TIC_TAC_TOE || game.is_embedded() {
        format!("{} bytes", stats.table_bytes)
    } else {
        "none (solved when used)".to_string()
    };
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
        (&*by_remoteness, list(&stats.by_remoteness)),
        (&*by_ply, list(&stats.by_ply)),
        ("  up to symmetry", list(&stats.canonical_by_ply)),
        ("complete games", outcomes(stats.games)),
        ("  up to symmetry", stats.games_up_to_symmetry.to_string()),
        ("game-tree nodes", stats.game_tree_nodes.to_string()),
        ("embedded table", table_label),
    ];
    for (label, value) in rows {
        writeln!(out, "{label:<24} {value}")?;
    }
    Ok(())
}
