//! `ttt bots`.

use std::io::{self, Write};

use ttt_oracle::bots::{CATALOG, PARAMETERISED};

use super::Failure;

/// Lists every built-in bot: name, what it does, where it comes from.
pub fn run() -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    let width = CATALOG.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for bot in CATALOG {
        writeln!(out, "{:width$}  {}", bot.name, bot.summary)?;
        writeln!(out, "{:width$}  from {}", "", bot.source)?;
    }
    for (form, summary) in PARAMETERISED {
        writeln!(out, "{form:width$}  {summary}")?;
    }
    Ok(())
}
