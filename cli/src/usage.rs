//! clap's errors as `ttt` prints them: control characters from the arguments escaped, and a
//! move list given as separate arguments told the command meant.

use std::io::{self, Write};
use std::process::ExitCode;

use super::{Failure, report, stdout, style};

/// A move list given as separate arguments (`ttt best 5 1`, `ttt review --moves 5 1 9`) is
/// refused by clap as an unexpected or conflicting argument; the error then ends with the
/// command as it was meant, the moves in one quoted `--moves`.
pub(crate) fn with_moves_hint(
    mut error: clap::Error,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(
        error.kind(),
        ErrorKind::UnknownArgument | ErrorKind::ArgumentConflict
    ) {
        return error;
    }
    let Some(args) = args
        .into_iter()
        .skip(1)
        .map(|arg| arg.into_string().ok())
        .collect::<Option<Vec<String>>>()
    else {
        return error;
    };
    // Only a command that takes `--moves`.
    let tree = super::clap_command();
    let takes_moves = args
        .iter()
        .find_map(|arg| tree.find_subcommand(arg))
        .is_some_and(|sub| sub.get_arguments().any(|a| a.get_id() == "moves"));
    if !takes_moves {
        return error;
    }
    let is_move = |arg: &String| !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_digit());
    // The first run of at least two moves, with the `--moves` before it if there is one; not
    // the values of another option (`--games 100 200`).
    let Some(start) = (0..args.len()).find(|&i| {
        let after_option = i > 0
            && args[i - 1].starts_with('-')
            && !matches!(args[i - 1].as_str(), "--moves" | "-m");
        let starts_run = i == 0 || !is_move(&args[i - 1]);
        starts_run && !after_option && args[i..].iter().take_while(|a| is_move(a)).count() >= 2
    }) else {
        return error;
    };
    let end = start + args[start..].iter().take_while(|a| is_move(a)).count();
    let flag = start > 0 && matches!(args[start - 1].as_str(), "--moves" | "-m");
    let moves = args[start..end].join(" ");
    let mut meant: Vec<String> = args[..start - usize::from(flag)].to_vec();
    meant.extend(["--moves".to_string(), format!("\"{moves}\"")]);
    meant.extend(args[end..].iter().cloned());
    let tip = format!("a move list is one argument: ttt {}", meant.join(" "));
    error.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
    error
}

/// Prints clap's error (or help, or version) as clap would, except that control characters
/// that came from the arguments are escaped: clap quotes a bad value as it was given, and a
/// value may hold `\r`, backspaces, escape sequences or a bidirectional override. Colour codes
/// (`ESC [ ... m`) are kept when colour is on and dropped when it is off; any other escape
/// sequence, clap's or not, is shown escaped.
pub(crate) fn clap_error(error: &clap::Error) -> ExitCode {
    let text = error.render().ansi().to_string();
    let colour = style::clap_choice() == clap::ColorChoice::Always;
    let mut shown = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(ch) = rest.chars().next() {
        let sgr = rest.strip_prefix("\x1b[").and_then(|after| {
            let end = after.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            (after.as_bytes()[end] == b'm').then(|| 2 + end + 1)
        });
        match (ch, sgr) {
            (_, Some(len)) => {
                if colour {
                    shown.push_str(&rest[..len]);
                }
                rest = &rest[len..];
                continue;
            }
            ('\n' | '\t', None) => shown.push(ch),
            (ch, None) => shown.push_str(&ttt_oracle::text::escape(&ch.to_string())),
        }
        rest = &rest[ch.len_utf8()..];
    }
    // clap indents the blank line between two paragraphs of an option's help: no line ends
    // in spaces.
    let shown: Vec<&str> = shown
        .split('\n')
        .map(|line| line.trim_end_matches(' '))
        .collect();
    let shown = shown.join("\n");
    if error.use_stderr() {
        let _ = io::stderr().write_all(shown.as_bytes());
    } else {
        // Help and the version, asked for: their output failing is a failure like any other.
        let mut out = stdout();
        if let Err(error) = out.write_all(shown.as_bytes()).and_then(|()| out.flush()) {
            let failure = Failure::from(error);
            report(&failure);
            return ExitCode::from(failure.code);
        }
    }
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}
