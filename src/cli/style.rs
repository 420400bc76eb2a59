//! Colour for people: only on a terminal, never when `NO_COLOR` is set (<https://no-color.org>).

use std::io::IsTerminal;

use ttt_oracle::Value;

/// Whether to colour standard output, and how.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    colour: bool,
}

impl Style {
    /// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
    pub fn for_stdout() -> Style {
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            colour: !no_colour && std::io::stdout().is_terminal(),
        }
    }

    /// No colour at all.
    #[cfg(test)]
    pub fn plain() -> Style {
        Style { colour: false }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Green for a win, yellow for a draw, red for a loss.
    pub fn value(self, value: Value, text: &str) -> String {
        let code = match value {
            Value::Win => "32",
            Value::Draw => "33",
            Value::Loss => "31",
        };
        self.paint(code, text)
    }

    /// Bold.
    pub fn strong(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Dimmed, for what matters less.
    pub fn faint(self, text: &str) -> String {
        self.paint("2", text)
    }
}
