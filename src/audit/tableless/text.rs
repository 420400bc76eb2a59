//! One side of an audit without a table, for people: what `ttt audit --game G` prints under
//! its table for each side (the counts and exact odds if the walk finished, what needs a
//! table, the shortest forfeit and loss drawn), coloured by a [`Style`] or not.

use std::fmt;

use super::report::{Shortest, TablelessReport};
use crate::audit::Forfeit;
use crate::board::{Cell, Player};
use crate::bots::Turn;
use crate::draw::{Style, cells};
use crate::game::Game;
use crate::ratio::Ratio;
use crate::text::{counted, escape, fit, grouped, percent};

/// The widest a line of the details is.
const WIDTH: usize = 96;

/// How many columns of a bot's name the heading shows.
const NAME_IN_DETAILS: usize = 28;

impl TablelessReport {
    /// The verdict in words, or what is not settled: `can lose, forfeits not settled`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::{AuditBudget, audit_tableless};
    /// use ttt_oracle::{Player, bots};
    ///
    /// let mut random = bots::from_spec("random")?;
    /// let report = audit_tableless(random.as_mut(), "3x3".parse()?, Player::X, AuditBudget::DEFAULT)?;
    /// assert_eq!(report.verdict_words(), "can lose");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict_words(&self) -> String {
        if let Some(verdict) = self.verdict() {
            return verdict.to_string();
        }
        // What one search settled stands beside what the other did not.
        let words = match (self.shortest_loss.exists(), self.shortest_illegal.exists()) {
            (Some(true), _) => "can lose, forfeits not settled",
            (Some(false), _) => "never loses on the board, forfeits not settled",
            (None, Some(true)) => "breaks the rules, losses not settled",
            (None, Some(false)) => "never forfeits, losses not settled",
            (None, None) => "not settled",
        };
        words.to_string()
    }

    /// This side in detail, as `ttt audit --game G` prints it under its table, a line each (no
    /// newline after the last): a heading naming `bot` (cut to 28 columns), the game and the
    /// verdict; the counts and exact odds against a random opponent when the walk finished
    /// (else the budget of states it outgrew, [`states`](TablelessReport::states)); what needs
    /// a table; the shortest forfeit and loss, drawn; the heading in bold when `style` says.
    ///
    /// Its [`Display`](fmt::Display) is this text without colour, naming the bot "the bot"
    /// (the report does not hold its name).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::{AuditBudget, audit_tableless};
    /// use ttt_oracle::{Player, bots, draw::Style};
    ///
    /// let mut random = bots::from_spec("random")?;
    /// let report = audit_tableless(random.as_mut(), "3x3".parse()?, Player::X, AuditBudget::DEFAULT)?;
    /// assert!(report.text("random", Style::PLAIN).starts_with("random as X on 3x3: can lose\n"));
    /// println!("{report}");
    /// assert!(format!("{report}").contains("\n  shortest loss, 6 plies:\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn text(&self, bot: &str, style: Style) -> String {
        details(bot, self, style).join("\n")
    }
}

/// The text of [`TablelessReport::text`], without colour: see there.
impl fmt::Display for TablelessReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text("the bot", Style::PLAIN))
    }
}

fn details(bot: &str, s: &TablelessReport, style: Style) -> Vec<String> {
    let name = fit(&escape(bot), NAME_IN_DETAILS);
    let mut lines = vec![format!(
        "{} {}",
        style.strong(&format!("{name} as {} on {}:", s.side, s.game)),
        s.verdict_words()
    )];
    match s.counts {
        Some(c) => lines.push(format!(
            "  {} decision points, {} games explored ({} states)",
            grouped(c.decision_points),
            grouped(c.games),
            grouped(s.states)
        )),
        None => {
            // The walk stops as it would pass its budget: it then holds as many states.
            lines.push(format!(
                "  counts and exact odds: not worked out, more than the budget of {} states",
                grouped(s.states)
            ));
            lines.push("    (--budget raises it)".to_string());
        }
    }
    if let Some(v) = &s.vs_random {
        lines.push(format!(
            "  vs random:  win {:>6}  draw {:>6}  loss {:>6}  forfeit {:>6}",
            percent(v.win.to_f64()),
            percent(v.draw.to_f64()),
            percent(v.loss.to_f64()),
            percent(v.illegal.to_f64())
        ));
        let exact = [
            ("win", v.win),
            ("draw", v.draw),
            ("loss", v.loss),
            ("forfeit", v.illegal),
        ];
        for (label, ratio) in exact {
            lines.push(format!("    exactly {label:<7} {}", fraction(ratio)));
        }
    } else if s.counts.is_some() {
        lines.push("  vs random: a probability outgrew 128 bits; no exact odds".to_string());
    }
    lines.push(format!(
        "  unavailable without a table of {}: blunders, slow wins, worst case, vs perfect",
        s.game
    ));
    if s.game.cells() <= Game::MAX_TIER_CELLS {
        lines.push(format!(
            "  (`ttt solve --game {}` makes one, and the audit then judges every move by it)",
            s.game
        ));
    }
    match &s.shortest_illegal {
        Shortest::Line(line) => {
            let after = if line.moves.is_empty() {
                "no moves".to_string()
            } else {
                cells(&line.moves)
            };
            lines.push(format!(
                "  shortest forfeit, {}, then the bot {}:",
                plies(line.moves.len()),
                forfeit_words(&line.what)
            ));
            let marks = match &line.what {
                Forfeit::Turn(Turn::Several(cells)) => cells.clone(),
                Forfeit::Turn(Turn::Mark(cell)) => vec![*cell],
                _ => Vec::new(),
            };
            lines.extend(draw_game(s.game, &line.moves, &marks));
            lines.push(format!("    moves: {after}"));
        }
        Shortest::Never => lines.push("  forfeits: none".to_string()),
        Shortest::Unsettled { plies: covered } => lines.push(format!(
            "  forfeits: none in {} or fewer; not settled within the budget",
            plies(*covered)
        )),
    }
    match &s.shortest_loss {
        Shortest::Line(line) => {
            lines.push(format!("  shortest loss, {}:", plies(line.moves.len())));
            lines.extend(draw_game(s.game, &line.moves, &[]));
            lines.push(format!("    moves: {}", cells(&line.moves)));
        }
        Shortest::Never => lines.push("  losses on the board: none".to_string()),
        Shortest::Unsettled { plies: covered } => lines.push(format!(
            "  losses on the board: none in {} or fewer; not settled within the budget",
            plies(*covered)
        )),
    }
    lines
}

/// `1 ply`, `2 plies`.
fn plies(n: usize) -> String {
    counted(n, "ply", "plies")
}

/// What the bot did at a forfeit, in few words (the cells are drawn).
fn forfeit_words(what: &Forfeit) -> String {
    match what {
        Forfeit::Turn(Turn::Several(cells)) => {
            format!("marked {} cells in one turn (lower case)", cells.len())
        }
        other => fit(&escape(&other.to_string()), WIDTH - 40),
    }
}

/// A fraction, cut in the middle if it is wider than a line allows.
fn fraction(ratio: Ratio) -> String {
    fit(&ratio.to_string(), WIDTH - 20)
}

/// The game as rows of small boards, one a move, each headed by its ply, mark and cell; after
/// the last, the forfeited turn's `marks` in lower case, if any.
fn draw_game(game: Game, moves: &[Cell], marks: &[Cell]) -> Vec<String> {
    let (rows, columns) = (game.rows(), game.columns());
    let mut grid = vec!['.'; rows * columns];
    let mut boards: Vec<(String, Vec<String>)> = Vec::new();
    let draw = |grid: &[char]| -> Vec<String> {
        grid.chunks(columns)
            .map(|row| {
                row.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    for (ply, &cell) in moves.iter().enumerate() {
        let mark = Player::at_ply(ply);
        grid[cell.index()] = if mark == Player::X { 'X' } else { 'O' };
        boards.push((format!("{}. {mark} {cell}", ply + 1), draw(&grid)));
    }
    if !marks.is_empty() {
        let mark = if moves.len() % 2 == 0 { 'x' } else { 'o' };
        for cell in marks {
            if grid[cell.index()] == '.' {
                grid[cell.index()] = mark;
            }
        }
        boards.push((format!("{}. forfeit", moves.len() + 1), draw(&grid)));
    }
    let board_width = (2 * columns - 1).max(11);
    let gap = 3;
    let per_row = ((WIDTH - 4 + gap) / (board_width + gap)).max(1);
    let mut lines = Vec::new();
    for chunk in boards.chunks(per_row) {
        let mut heading = String::from("   ");
        for (title, _) in chunk {
            heading.push_str(&format!(" {title:<board_width$}{:gap$}", ""));
        }
        lines.push(heading.trim_end().to_string());
        for row in 0..rows {
            let mut line = String::from("   ");
            for (_, board) in chunk {
                line.push_str(&format!(" {:<board_width$}{:gap$}", board[row], ""));
            }
            lines.push(line.trim_end().to_string());
        }
    }
    lines
}
