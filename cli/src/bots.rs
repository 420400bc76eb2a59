//! `ttt bots`.

use std::io::Write;

use clap::Args;
use ttt_oracle::bots::{BotInfo, CATALOG, Listing, PARAMETERISED};

use super::style;
use super::{Failure, Format};

/// The widest line `ttt bots` prints.
const WIDTH: usize = 100;

/// Arguments of `ttt bots`.
#[derive(Debug, Args)]
pub struct BotsArgs {
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
}

/// Lists every built-in bot: name, what it does, where it was published.
pub fn run(args: &BotsArgs) -> Result<(), Failure> {
    let mut out = super::stdout();
    if args.format == Format::Json {
        let json = Listing::new(true);
        super::json_line(&mut out, &json)?;
        return Ok(());
    }
    let style = style::for_stdout();
    let names = CATALOG.iter().map(|b| b.name);
    let forms = PARAMETERISED.iter().map(|(form, _)| *form);
    let width = names.chain(forms).map(str::len).max().unwrap_or(0) + 2;
    writeln!(
        out,
        "{}",
        style.strong("Built-in bots, for `ttt audit NAME` and `ttt play --opponent NAME`:")
    )?;
    for bot in CATALOG {
        writeln!(out)?;
        entry(
            &mut out,
            width,
            &style.strong(bot.name),
            bot.name.len(),
            bot.summary,
        )?;
        entry(&mut out, width, "", 0, &style.faint(&origin(bot)))?;
    }
    writeln!(out)?;
    writeln!(out, "{}", style.strong("Bots that take a parameter:"))?;
    for (form, summary) in PARAMETERISED {
        writeln!(out)?;
        entry(&mut out, width, &style.strong(form), form.len(), summary)?;
    }
    Ok(())
}

/// Where a bot comes from, in words.
fn origin(bot: &BotInfo) -> String {
    match (&bot.source, bot.part) {
        (None, _) => "ttt-oracle's own".to_string(),
        (Some(source), "") => format!("published: {source}"),
        (Some(source), part) => format!("published: {source}; {part}"),
    }
}

/// `label` (shown `shown` columns wide) in the first column, then `text` wrapped to the width.
fn entry(
    out: &mut impl Write,
    width: usize,
    label: &str,
    shown: usize,
    text: &str,
) -> std::io::Result<()> {
    let pad = " ".repeat(width.saturating_sub(shown));
    for (i, line) in wrap(text, WIDTH - width).into_iter().enumerate() {
        if i == 0 {
            writeln!(out, "{label}{pad}{line}")?;
        } else {
            writeln!(out, "{}{line}", " ".repeat(width))?;
        }
    }
    Ok(())
}

/// `text` in lines of at most `width` columns, broken between words (escape codes, which take
/// no room on screen, are not counted).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for word in text.split(' ') {
        let len = ttt_oracle::text::shown_width(word);
        if used > 0 && used + 1 + len > width {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        if used > 0 {
            line.push(' ');
            used += 1;
        }
        line.push_str(word);
        used += len;
    }
    lines.push(line);
    lines
}
