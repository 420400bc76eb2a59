//! Colour for people: on a terminal, as `--color` says, else as the environment says; the
//! library's [`Style`] then paints the text.
//!
//! `--color always|never` wins; with `auto` (the default) colour is off when `NO_COLOR` is set
//! and not empty (<https://no-color.org>), on when `CLICOLOR_FORCE` is set and not `0`, off when
//! `TERM` is `dumb`, and otherwise on exactly when the stream is a terminal.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::sync::OnceLock;

use clap::ValueEnum;
use ttt_oracle::draw::Style;

/// When to colour, as `--color` takes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the environment says otherwise.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Settles the choice for the whole run; the first call wins.
pub fn init(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// The `--color` value among the arguments, read before clap parses them so that clap's own
/// help and errors follow it too. `None` when absent or not one of the values (clap then
/// reports it).
pub fn scan(args: impl IntoIterator<Item = OsString>) -> Option<ColorChoice> {
    let mut args = args.into_iter().skip(1);
    let mut found = None;
    while let Some(arg) = args.next() {
        let arg = arg.to_string_lossy().into_owned();
        if arg == "--" {
            break;
        }
        let value = if arg == "--color" {
            args.next().map(|v| v.to_string_lossy().into_owned())
        } else {
            arg.strip_prefix("--color=").map(str::to_string)
        };
        if let Some(value) = value {
            found = ColorChoice::from_str(&value, true).ok();
        }
    }
    found
}

fn enabled(terminal: bool) -> bool {
    match CHOICE.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
            if set("NO_COLOR").is_some() {
                false
            } else if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
                false
            } else {
                terminal
            }
        }
    }
}

/// The same decision, for clap's help and errors (on standard error and standard output).
pub fn clap_choice() -> clap::ColorChoice {
    if enabled(std::io::stderr().is_terminal() || std::io::stdout().is_terminal()) {
        clap::ColorChoice::Always
    } else {
        clap::ColorChoice::Never
    }
}

/// The style of standard output: coloured as the choice and the environment say.
pub fn for_stdout() -> Style {
    style(std::io::stdout().is_terminal())
}

/// The style of standard error.
pub fn for_stderr() -> Style {
    style(std::io::stderr().is_terminal())
}

fn style(terminal: bool) -> Style {
    if enabled(terminal) {
        Style::COLOURED
    } else {
        Style::PLAIN
    }
}
