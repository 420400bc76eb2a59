//! `ttt completions` and `ttt man`: files for the shell and for `man`, generated from the one
//! clap tree, so that they always match the commands.

use std::io::Write;

use clap::{Args, ValueEnum};
use clap_complete::Shell;

use super::Failure;

/// The shells `ttt completions` writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShellName {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    Powershell,
    /// Elvish.
    Elvish,
}

/// Arguments of `ttt completions`.
#[derive(Debug, Args)]
#[command(after_help = WHERE_SCRIPTS_GO)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_enum, ignore_case = true)]
    shell: ShellName,
}

/// Where each shell looks for its completions; `--help` shows it, for someone without the
/// README.
const WHERE_SCRIPTS_GO: &str = "\
Where each shell finds the script (make the folder first if it is not there):
  bash        ~/.local/share/bash-completion/completions/ttt
  zsh         ~/.zfunc/_ttt, with fpath+=(~/.zfunc) before compinit in ~/.zshrc
  fish        ~/.config/fish/completions/ttt.fish
  powershell  add it to your $PROFILE
  elvish      add it to ~/.config/elvish/rc.elv
For example:
  mkdir -p ~/.config/fish/completions
  ttt completions fish > ~/.config/fish/completions/ttt.fish";

/// Where `man` finds the page; `ttt man --help` shows it.
pub const WHERE_THE_PAGE_GOES: &str = "\
Where man finds the page:
  mkdir -p ~/.local/share/man/man1
  ttt man > ~/.local/share/man/man1/ttt.1";

/// Writes the completion script for a shell to standard output.
pub fn completions(args: &CompletionsArgs) -> Result<(), Failure> {
    let shell = match args.shell {
        ShellName::Bash => Shell::Bash,
        ShellName::Zsh => Shell::Zsh,
        ShellName::Fish => Shell::Fish,
        ShellName::Powershell => Shell::PowerShell,
        ShellName::Elvish => Shell::Elvish,
    };
    let mut command = super::clap_command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "ttt", &mut script);
    if shell == Shell::Fish {
        script.extend_from_slice(fish_positionals(&command).as_bytes());
    }
    let mut out = super::stdout();
    out.write_all(&script)?;
    Ok(())
}

/// The values of the positional arguments (the bots of `audit`, `match` and `simulate`), for
/// fish: clap_complete writes fish completions for options only.
fn fish_positionals(command: &clap::Command) -> String {
    let escape = |text: &str| text.replace('\\', "\\\\").replace('\'', "\\'");
    let mut script = String::new();
    for sub in command.get_subcommands() {
        for arg in sub.get_positionals() {
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|value| !value.is_hide_set())
                .map(|value| {
                    let help = value.get_help().map(|help| help.to_string());
                    format!(
                        "{}\\t'{}'",
                        escape(value.get_name()),
                        escape(&help.unwrap_or_default())
                    )
                })
                .collect();
            if !values.is_empty() {
                script.push_str(&format!(
                    "complete -c ttt -n \"__fish_ttt_using_subcommand {}\" -f -a \"{}\"\n",
                    sub.get_name(),
                    values.join("\n")
                ));
            }
        }
    }
    script
}

/// The reference pages the man page carries after the commands: what `--help` points to, for
/// someone who installed `ttt` without its README.
const PAGES: &[(&str, &str)] = &[
    ("Reference", include_str!("../docs/commands.md")),
    ("Bot protocol", include_str!("../docs/protocol.md")),
    ("Export formats", include_str!("../docs/formats.md")),
];

/// Writes the man page, `ttt(1)`, to standard output: every command and option, the exit
/// codes, and the reference pages.
pub fn man() -> Result<(), Failure> {
    let command = super::clap_command();
    let page = clap_mangen::Man::new(command.clone());
    let mut roff = Vec::new();
    page.render_title(&mut roff)?;
    page.render_name_section(&mut roff)?;
    page.render_synopsis_section(&mut roff)?;
    page.render_description_section(&mut roff)?;
    page.render_options_section(&mut roff)?;
    // One page for all: each command is a section of its own, its parts subsections.
    for sub in command.get_subcommands() {
        let name = format!("ttt {}", sub.get_name());
        let sub_page = clap_mangen::Man::new(sub.clone().name(name.clone()));
        let mut part = Vec::new();
        sub_page.render_synopsis_section(&mut part)?;
        sub_page.render_description_section(&mut part)?;
        sub_page.render_options_section(&mut part)?;
        let part = String::from_utf8_lossy(&part).replace("\n.SH ", "\n.SS ");
        let part = part
            .strip_prefix(".SH ")
            .map_or(part.clone(), |rest| format!(".SS {rest}"));
        roff.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        roff.extend_from_slice(part.as_bytes());
    }
    roff.extend_from_slice(format!(".SH \"EXIT CODES\"\n{}\n", super::EXIT_CODES).as_bytes());
    for (title, markdown) in PAGES {
        roff.extend_from_slice(markdown_to_roff(title, markdown).as_bytes());
    }
    page.render_version_section(&mut roff)?;
    super::stdout().write_all(ascii(&String::from_utf8_lossy(&roff)).as_bytes())?;
    Ok(())
}

/// Characters the pages use beyond ASCII, and what an ASCII terminal shows for each.
const STAND_INS: &[(char, &str)] = &[('…', "..."), ('—', "--"), ('×', "x"), ('→', "->")];

/// A roff page in ASCII alone: each other character as groff's escape for its code point
/// (`…` is `\[u2026]`), which `groff -ww` and mandoc take without a warning and show as the
/// character; groff on an ASCII terminal shows the stand-in the page starts by defining.
fn ascii(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    for &(ch, stand_in) in STAND_INS {
        if roff.contains(ch) {
            // `.fchar` is groff's alone: other formatters skip the line.
            out.push_str(&format!(
                ".if \\n(.g .fchar \\[u{:04X}] {stand_in}\n",
                u32::from(ch)
            ));
        }
    }
    for ch in roff.chars() {
        if ch.is_ascii() {
            out.push(ch);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(ch)));
        }
    }
    out
}

/// A markdown page as a man section: headings become subsections, list items and table rows
/// indented paragraphs (a row's first cell as the tag, its header dropped), code blocks
/// preformatted text, the rest filled paragraphs; `code` and **bold** are shown bold, and a
/// link as its text.
fn markdown_to_roff(title: &str, markdown: &str) -> String {
    let mut roff = format!(".SH \"{}\"\n", title.to_uppercase());
    let mut verbatim = false;
    let mut table = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            roff.push_str(if verbatim {
                ".fi\n.RE\n"
            } else {
                ".PP\n.RS 2\n.nf\n"
            });
            verbatim = !verbatim;
            continue;
        }
        if verbatim {
            roff.push_str(&escape_line(line));
            roff.push('\n');
            continue;
        }
        let is_row = line.starts_with('|');
        let header = is_row && !table;
        table = is_row;
        let text = line.trim_start();
        if is_row {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            let rule = cells
                .iter()
                .all(|c| c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')));
            if header || rule {
                continue;
            }
            let (tag, rest) = cells.split_first().expect("split yields a cell");
            roff.push_str(&format!(
                ".TP\n{}\n{}",
                inline(tag),
                inline(&rest.join("; "))
            ));
        } else if let Some(heading) = text.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim();
            roff.push_str(&format!(".SS \"{}\"", inline(heading).replace('"', "")));
        } else if text.is_empty() {
            roff.push_str(".PP");
        } else if let Some(item) = text.strip_prefix("- ") {
            roff.push_str(&format!(".IP \\(bu 2\n{}", inline(item)));
        } else if let Some((number, item)) = text
            .split_once(". ")
            .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            roff.push_str(&format!(".IP {number}. 4\n{}", inline(item)));
        } else {
            roff.push_str(&inline(text));
        }
        roff.push('\n');
    }
    roff
}

/// A line kept as it is, escaped for roff.
fn escape_line(line: &str) -> String {
    let line = line.replace('\\', "\\e");
    if line.starts_with(['.', '\'']) {
        format!("\\&{line}")
    } else {
        line
    }
}

/// A line of running text: escaped, `code` and **bold** in bold, `[links](to)` as their text.
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut bold = false;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => out.push_str("\\e"),
            '`' => {
                out.push_str(if bold { "\\fR" } else { "\\fB" });
                bold = !bold;
            }
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                out.push_str(if bold { "\\fR" } else { "\\fB" });
                bold = !bold;
            }
            '[' => {
                let rest: String = chars.clone().collect();
                match rest.split_once("](").and_then(|(label, after)| {
                    after
                        .split_once(')')
                        .map(|(_, tail)| (label.to_string(), tail.len()))
                }) {
                    Some((label, tail)) if !label.contains('[') => {
                        out.push_str(&inline(&label));
                        let skip = rest.chars().count() - tail;
                        for _ in 0..skip {
                            chars.next();
                        }
                    }
                    _ => out.push('['),
                }
            }
            ch => out.push(ch),
        }
    }
    if bold {
        out.push_str("\\fR");
    }
    if out.starts_with(['.', '\'']) {
        out.insert_str(0, "\\&");
    }
    out
}
