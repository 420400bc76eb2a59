//! `ttt stats`.

use std::fmt::Display;
use std::io::Write;

use clap::Args;
use ttt_oracle::Game;
use ttt_oracle::stats::{ByOutcome, ByValue, games_up_to_symmetry_bytes, of_game};
use ttt_oracle::text::grouped;

use super::progress::TiersProgress;
use super::{Failure, Format};

/// Arguments of `ttt stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game: 3x3 (tic-tac-toe), MxN or MxNkK (see `ttt best --help`). Games of up to 16
    /// cells other than 3x3 are solved afresh to count them: 4x4 takes a few seconds. Games of
    /// 17 to 25 cells are counted from the table `ttt solve --game G` cached, in one pass over
    /// it: 4x5k4 takes about a minute.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
}

/// Prints the counts.
pub fn run(args: &StatsArgs) -> Result<(), Failure> {
    let game = args.game;
    let stats = if game.has_table() {
        // The counts come from a fresh solve (the table itself is not needed; a damaged
        // tic-tac-toe table has stopped `ttt` already).
        of_game(game)?
    } else if game.cells() <= Game::MAX_TIER_CELLS {
        // A table `ttt solve` cached (an error says how to make one), counted in a minute or
        // more: a progress line on a terminal.
        let progress = TiersProgress::start(game, "reading the table of {game}");
        let oracle = ttt_oracle::Oracle::of(game)?;
        oracle.stats_with_progress(&|step| progress.step(step))?
    } else {
        return Err(Failure::usage(format!(
            "game {game} has {} cells; counts are made for games of at most {} cells",
            game.cells(),
            Game::MAX_TIER_CELLS
        )));
    };
    let mut out = super::stdout();
    if args.format == Format::Json {
        super::json_line(&mut out, &stats)?;
        return Ok(());
    }
    let values = |v: &ByValue| {
        format!(
            "win {}, draw {}, loss {}",
            grouped(v.win),
            grouped(v.draw),
            grouped(v.loss)
        )
    };
    let (table_row, table_label) = if game == Game::TIC_TAC_TOE || game.is_embedded() {
        (
            "embedded table",
            format!("{} bytes", grouped(stats.table_bytes)),
        )
    } else if game.has_table() {
        ("embedded table", "none (solved when used)".to_string())
    } else {
        (
            "cached table",
            format!("{} bytes", grouped(stats.table_bytes)),
        )
    };
    let rows = [
        ("reachable positions", grouped(stats.reachable_positions)),
        ("  up to symmetry", grouped(stats.canonical_positions)),
        (
            "non-terminal positions",
            grouped(stats.non_terminal_positions),
        ),
        ("terminal positions", outcomes(stats.terminal_positions)),
        (
            "  up to symmetry",
            outcomes(stats.canonical_terminal_positions),
        ),
        ("values (side to move)", values(&stats.values)),
        ("  up to symmetry", values(&stats.canonical_values)),
    ];
    for (label, value) in rows {
        writeln!(out, "{}", row(label, &value))?;
    }
    let cells = game.cells();
    let lists = [
        (format!("by remoteness 0..{cells}"), &stats.by_remoteness),
        (format!("by ply 0..{cells}"), &stats.by_ply),
        ("  up to symmetry".to_string(), &stats.canonical_by_ply),
    ];
    // One column width for the three lists, so that a ply's counts line up.
    let width = lists
        .iter()
        .flat_map(|(_, list)| list.iter())
        .map(|&n| grouped(n).len())
        .max()
        .unwrap_or(1);
    for (label, list) in &lists {
        for line in columns(label, list, width) {
            writeln!(out, "{line}")?;
        }
    }
    let games_up_to_symmetry = match stats.games_up_to_symmetry {
        Some(games) => grouped(games),
        None => format!(
            "not counted: it needs {} bytes; raise --max-memory",
            grouped(games_up_to_symmetry_bytes(game))
        ),
    };
    let rows = [
        ("complete games", outcomes(stats.games)),
        ("  up to symmetry", games_up_to_symmetry),
        ("game-tree nodes", grouped(stats.game_tree_nodes)),
        (table_row, table_label),
    ];
    for (label, value) in rows {
        writeln!(out, "{}", row(label, &value))?;
    }
    Ok(())
}

/// Positions or games by outcome, as a row shows them.
fn outcomes<N: Display>(o: ByOutcome<N>) -> String {
    format!(
        "{} (X wins {}, O wins {}, drawn {})",
        grouped(o.total),
        grouped(o.x_wins),
        grouped(o.o_wins),
        grouped(o.draw)
    )
}

/// A row: its label, then its value; when the whole would pass 100 columns, the part in
/// parentheses goes under the value, without them, on as many lines as it takes (its parts
/// are separated by commas).
fn row(label: &str, value: &str) -> String {
    let line = format!("{label:<LABEL$} {value}");
    let Some((total, rest)) = value.split_once(" (").filter(|_| line.len() > 100) else {
        return line;
    };
    let mut lines = vec![format!("{label:<LABEL$} {total}")];
    for part in rest.strip_suffix(')').unwrap_or(rest).split(", ") {
        let under = lines.len() > 1;
        let last = lines.last_mut().expect("the first line");
        if under && last.len() + 2 + part.len() <= 100 {
            last.push_str(", ");
            last.push_str(part);
        } else {
            if under {
                last.push(',');
            }
            lines.push(format!("{:<LABEL$} {part}", ""));
        }
    }
    lines.join("\n")
}

/// The width of the labels' column.
const LABEL: usize = 24;

/// A count a ply (or a remoteness) from 0, in columns `width` wide, as many a
/// line as fit in 100 columns; a line after the first is labelled with its first ply (`7..`).
fn columns(label: &str, counts: &[u64], width: usize) -> Vec<String> {
    let counts: Vec<String> = counts.iter().map(|&n| grouped(n)).collect();
    // Each count takes two spaces and its column, after the label's column and a space.
    let per_line = ((100 - LABEL - 1 + 2) / (width + 2)).max(1);
    counts
        .chunks(per_line)
        .enumerate()
        .map(|(i, chunk)| {
            let label = match i {
                0 => label.to_string(),
                _ => format!("  {}..", i * per_line),
            };
            let counts: Vec<String> = chunk.iter().map(|c| format!("{c:>width$}")).collect();
            format!("{label:<LABEL$} {}", counts.join("  "))
        })
        .collect()
}
