//! The conventions every command follows, through the real binary: colour, case, help that
//! fits, exit codes in every help, JSON where a program would read, completions and the man
//! page, and the published bots named by their sources.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value as Json;
use ttt_oracle::{Game, Oracle};

fn ttt() -> Command {
    let mut cmd = Command::new(crate::common::ttt());
    for name in ["NO_COLOR", "CLICOLOR_FORCE", "TERM"] {
        cmd.env_remove(name);
    }
    cmd
}

fn stdout(args: &[&str]) -> String {
    let out = ttt().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn assert_fits(text: &str, what: &str) {
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "{what}: a line of {} columns: {line:?}",
            line.chars().count()
        );
        assert_eq!(line, line.trim_end(), "{what}: a line ends in spaces");
    }
}

const SUBCOMMANDS: &[&str] = &[
    "analyze",
    "best",
    "audit",
    "match",
    "bots",
    "export",
    "play",
    "review",
    "stats",
    "verify",
    "serve",
    "map",
    "solve",
    "completions",
    "man",
];

#[test]
fn every_help_fits_in_100_columns_and_lists_the_exit_codes() {
    for columns in ["40", "80", "250"] {
        let mut helps = vec![vec!["--help"], vec!["-h"]];
        helps.extend(SUBCOMMANDS.iter().map(|sub| vec![*sub, "--help"]));
        for args in helps {
            let out = ttt().args(&args).env("COLUMNS", columns).output().unwrap();
            assert!(out.status.success());
            let help = String::from_utf8(out.stdout).unwrap();
            assert_fits(&help, &format!("{args:?} at {columns} columns"));
            let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat.contains(
                    "3 an external bot broke the protocol; 4 a table is damaged (built into ttt, or cached"
                ),
                "{args:?}: {help}"
            );
        }
    }
}

#[test]
fn colour_follows_the_flag_then_the_environment() {
    let coloured = |cmd: &mut Command| {
        let out = cmd.args(["best", "X"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap().contains('\x1b')
    };
    // Not a terminal: no colour unless asked for.
    assert!(!coloured(&mut ttt()));
    assert!(coloured(ttt().arg("--color=always")));
    assert!(coloured(ttt().args(["--color", "ALWAYS"])));
    assert!(coloured(ttt().env("CLICOLOR_FORCE", "1")));
    assert!(!coloured(ttt().env("CLICOLOR_FORCE", "0")));
    assert!(!coloured(
        ttt().env("CLICOLOR_FORCE", "1").env("NO_COLOR", "1")
    ));
    // The flag wins over the environment.
    assert!(coloured(ttt().arg("--color=always").env("NO_COLOR", "1")));
    assert!(coloured(ttt().arg("--color=always").env("TERM", "dumb")));
    assert!(!coloured(
        ttt().arg("--color=never").env("CLICOLOR_FORCE", "1")
    ));
    // clap's own errors follow it too.
    let out = ttt()
        .args(["--color=always", "audit", "--side", "sideways"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("\x1b["));
    // And it is accepted after the subcommand.
    let out = ttt().args(["bots", "--color", "always"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("\x1b[1m"));
}

#[test]
fn value_names_are_case_insensitive() {
    stdout(&["analyze", "--moves", "5", "--format", "JSON"]);
    stdout(&["stats", "--format", "Json"]);
    let out = ttt()
        .args(["audit", "perfect", "--side", "X"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    stdout(&["completions", "BASH"]);
}

#[test]
fn the_version_names_the_tables_checksum() {
    let version = stdout(&["--version"]);
    // The checksum stored in the embedded table, as a verification reports it.
    let checksum = Oracle::of(Game::TIC_TAC_TOE)
        .unwrap()
        .verify()
        .unwrap()
        .table_checksum;
    assert_eq!(
        version,
        format!(
            "ttt {} (table format 2, checksum {checksum:016x})\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn bots_are_named_by_their_sources_within_100_columns() {
    let text = stdout(&["bots"]);
    assert_fits(&text, "ttt bots");
    assert!(!text.to_lowercase().contains("seed"), "{text}");
    for source in [
        "Keshav Nath and Vatsal Mittal, \"Smart Bot for Tic-Tac-Toe\"",
        "Mayank Kumar Sohanda, Vedant Singh and Mihir Gupta",
        "Marcelo, \"Don't lose on Tic-Tac-Toe 99% of the time",
        "\"Tic-Tac-Toe using minimax in C\", unsigned report",
        "\"Writing a Tic-Tac-Toe bot in perl\", unsigned blog post",
    ] {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(source), "{source} missing from {text}");
    }
    let json: Json = serde_json::from_str(&stdout(&["bots", "--format", "json"])).unwrap();
    let bots = json["bots"].as_array().unwrap();
    assert_eq!(bots.len(), ttt_oracle::bots::CATALOG.len());
    let smartbot = bots.iter().find(|b| b["name"] == "smartbot").unwrap();
    assert_eq!(smartbot["source"]["year"], 2021);
    assert_eq!(smartbot["source"]["language"], "C");
    let perfect = bots.iter().find(|b| b["name"] == "perfect").unwrap();
    assert!(perfect["source"].is_null());
    let marcelo = bots.iter().find(|b| b["name"] == "marcelo").unwrap();
    assert_eq!(marcelo["published"][0]["games"], 50000);
    assert!(json["parameterised"].as_array().unwrap().len() >= 3);
}

#[test]
fn verify_speaks_json_on_one_line() {
    let text = stdout(&["verify", "--format", "json"]);
    assert_eq!(text.lines().count(), 1);
    let json: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(json["ok"], true);
    assert_eq!(json["compared"], 627);
    assert_eq!(json["mismatches"], serde_json::json!([]));
    assert_eq!(json["table_checksum"], json["fresh_checksum"]);
}

#[test]
fn json_output_is_one_compact_document_a_line() {
    for args in [
        &["analyze", "--moves", "5", "--format", "json"][..],
        &["stats", "--format", "json"],
        &["bots", "--format", "json"],
        &["verify", "--format", "json"],
        &["audit", "perfect", "--format", "json"],
        &["review", "--moves", "5 3 9 1 4 2", "--format", "json"],
        &["match", "perfect", "random", "--format", "json"],
    ] {
        let text = stdout(args);
        assert_eq!(text.lines().count(), 1, "{args:?}");
        serde_json::from_str::<Json>(&text).unwrap();
    }
}

#[test]
fn export_takes_its_format_from_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let mut args = vec!["export", "-o", path.to_str().unwrap()];
        args.extend(extra);
        stdout(&args);
        std::fs::read(&path).unwrap()
    };
    assert!(run("t.csv", &[]).starts_with(b"board,to_move,"));
    assert!(run("t.CSV", &[]).starts_with(b"board,to_move,"));
    assert!(run("t.json", &[]).starts_with(b"[{"));
    assert!(run("t.jsonl", &[]).starts_with(b"{\"board\""));
    assert!(run("t.bin", &[]).starts_with(b"TTTEXPRT"));
    assert!(run("t.bincode", &[]).starts_with(b"TTTEXPRT"));
    assert!(run("t.txt", &[]).starts_with(b"{\"board\""));
    // --format wins.
    assert!(run("u.csv", &["--format", "jsonl"]).starts_with(b"{\"board\""));
}

#[test]
fn completions_for_every_shell_know_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} completions lack {sub}");
        }
    }
    ttt()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("possible values"));
}

#[test]
fn the_man_page_carries_every_command_and_the_exit_codes() {
    let page = stdout(&["man"]);
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq") || page.contains(".TH ttt 1"),
        "{}",
        &page[..200]
    );
    for sub in SUBCOMMANDS {
        assert!(
            page.contains(&format!(".SH \"TTT {}\"", sub.to_uppercase())),
            "the man page lacks {sub}"
        );
    }
    assert!(page.contains(".SH \"EXIT CODES\""));
    // The reference a README would give, for a machine without one.
    for section in ["REFERENCE", "BOT PROTOCOL", "EXPORT FORMATS"] {
        assert!(
            page.contains(&format!(".SH \"{section}\"")),
            "the man page lacks {section}"
        );
    }
    for fact in [
        "4096 bytes",
        "never_loses",
        "ttt best -",
        "--startup-ms",
        "TTTMNKEX",
    ] {
        assert!(page.contains(fact), "the man page lacks {fact:?}");
    }
    // The Markdown of the docs in roff: ASCII alone (other characters as roff's escapes), its
    // code blocks preformatted, its tables tagged paragraphs, its code bold.
    let outside: Vec<char> = page.chars().filter(|c| !c.is_ascii()).collect();
    assert!(outside.is_empty(), "{outside:?}");
    for roff in ["\\[u2026]", "\n.nf\n", "\n.fi\n", "\n.TP\n\\fB", "\n.SS \""] {
        assert!(page.contains(roff), "the man page lacks {roff:?}");
    }
}

#[test]
fn the_docs_table_of_published_bots_matches_the_bots() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/commands.md"))
        .unwrap();
    let section = page.split("## `ttt bots`").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let rows: Vec<Vec<String>> = section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            line.split(" | ")
                .map(|cell| cell.trim_matches(['|', ' ']).to_string())
                .collect()
        })
        .collect();
    let published: Vec<_> = ttt_oracle::bots::CATALOG
        .iter()
        .filter(|bot| bot.source.is_some())
        .collect();
    assert_eq!(rows.len(), published.len(), "one row a published bot");
    for (row, bot) in rows.iter().zip(published) {
        let source = bot.source.unwrap();
        let kind = if bot.part.is_empty() {
            source.kind.to_string()
        } else {
            format!("{}; {}", source.kind, bot.part)
        };
        let year = source
            .year
            .map_or("not given".to_string(), |y| y.to_string());
        let expected = [
            format!("`{}`", bot.name),
            source.authors.unwrap_or("unsigned").to_string(),
            source.title.to_string(),
            kind,
            year,
            source.language.to_string(),
        ];
        assert_eq!(row.as_slice(), expected.as_slice());
    }
}

#[test]
fn escape_sequences_in_arguments_never_reach_the_terminal() {
    for colour in ["--color=never", "--color=always"] {
        let out = ttt()
            .args([colour, "audit", "--side", "a\x1b[2Jb\r"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("a\\u{1b}[2Jb\\r"), "{stderr:?}");
        assert!(
            !stderr.contains("\x1b[2J") && !stderr.contains('\r'),
            "{stderr:?}"
        );
    }
}

#[test]
fn input_that_cannot_be_read_is_bad_input() {
    for args in [&["play"][..], &["best", "-"]] {
        let out = std::process::Command::new(crate::common::ttt())
            .args(args)
            .stdin(std::fs::File::open("/").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("cannot read standard input"), "{stderr}");
    }
}

/// The numbers of 10,000 and more in a line for people written without their thousands
/// grouped: plain digits standing alone, not part of a fraction (`75257/77760`, exact odds
/// written as they are computed) or of a word, and not a seed (a name to copy, not a count).
fn ungrouped(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || "(),;:".contains(c))
        .filter(|word| !word.is_empty())
        .collect();
    words
        .iter()
        .enumerate()
        .filter(|(i, word)| {
            let seed = *i > 0 && words[i - 1].trim_start_matches('-') == "seed";
            !seed && word.len() >= 5 && word.chars().all(|c| c.is_ascii_digit())
        })
        .map(|(_, word)| *word)
        .collect()
}

#[test]
fn text_for_people_reads_in_one_style_across_commands() {
    // Every command that writes text for people, on tic-tac-toe and another game: each line
    // within 100 columns, none ending in a space, every count of 10,000 or more grouped.
    let first = "cmd:python3 tests/bots/misbehave.py first";
    let commands: &[&[&str]] = &[
        &["analyze", "--moves", "5 1"],
        &["analyze", "--game", "4x4", "--moves", "5 1"],
        &["best", "--moves", "5"],
        &["stats"],
        &["stats", "--game", "4x4"],
        &["stats", "--game", "3x4"],
        &["bots"],
        &["verify"],
        &["audit", "random", "smartbot", "marcelo"],
        &["audit", "random", "--game", "3x4", "--side", "x"],
        &[
            "audit", "marcelo", "--game", "5x5", "--side", "o", "--budget", "20000",
        ],
        &["match", "random", "smartbot"],
        &["match", "--all", "perfect", "random", "marcelo"],
        &["simulate", "random", "--games", "20000"],
        &["review", "--moves", "5 3 9 1 4 2"],
        &["review", "--game", "4x4", "--moves", "1 5 2 6 3 7 4"],
        &["solve", "--plan", "--game", "5x5k4"],
    ];
    for args in commands {
        let out = ttt()
            .args(*args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .output()
            .unwrap();
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {out:?}"
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.is_empty(), "{args:?}");
        for line in text.lines() {
            let what = format!("ttt {}: {line:?}", args.join(" "));
            assert!(line.chars().count() <= 100, "over 100 columns: {what}");
            assert_eq!(line.trim_end(), line, "trailing spaces: {what}");
            assert!(ungrouped(line).is_empty(), "a count not grouped: {what}");
            for noun in [
                "histories",
                "games",
                "plies",
                "positions",
                "states",
                "bots",
                "moves",
            ] {
                assert!(
                    !line.contains(&format!(" 1 {noun}")),
                    "{noun} after 1: {what}"
                );
            }
        }
    }
    let play = ttt()
        .args(["play", "--seed", "7", "--opponent", first, "--game", "3x4"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .write_stdin("6\n7\n5\n8\nhint\n")
        .output()
        .unwrap();
    let text = String::from_utf8(play.stdout).unwrap();
    assert!(text.lines().count() > 10, "{text}");
    for line in text.lines() {
        assert_eq!(
            line.trim_end(),
            line,
            "trailing spaces in ttt play: {line:?}"
        );
    }
}

#[test]
fn the_style_check_finds_what_it_looks_for() {
    assert_eq!(
        ungrouped("  29429345758 games explored (433805 states)"),
        ["29429345758", "433805"]
    );
    assert!(ungrouped("  exactly win 75257/77760, draw 2503/77760").is_empty());
    assert!(ungrouped("  29,429,345,758 games, seed 12345, checksum f96cc0f7753d148e").is_empty());
    assert!(ungrouped("seed 62524579: --seed 62524579 plays the same games").is_empty());
}

/// The last line of `ttt audit` on many bots: counted, then named as far as 100 columns allow.
#[test]
fn the_last_line_of_an_audit_of_many_bots_fits() {
    let bots: Vec<String> = (1..=14).map(|i| format!("epsilon:{i}/100")).collect();
    let out = ttt().arg("audit").args(&bots).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_fits(&text, "audit");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("14 of 14 bots can lose: epsilon:0.01, epsilon:0.02, "),
        "{last}"
    );
    assert!(last.ends_with(" more"), "{last}");
}

/// The cross table of `ttt match --all` goes on below, under its header again, when its columns
/// do not fit in 100.
#[test]
fn the_cross_table_goes_on_below_when_its_columns_do_not_fit() {
    let bots: Vec<String> = (1..=20).map(|i| format!("casual:{i}/20")).collect();
    let args = [
        vec!["match", "--all"],
        bots.iter().map(String::as_str).collect(),
    ]
    .concat();
    let text = stdout(&args);
    assert_fits(&text, "match --all");
    // After the matches one a row, the cross table: its header, then a row a bot, in parts.
    let table: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("    "))
        .collect();
    let rows = table.iter().filter(|line| line.contains("casual:")).count();
    let parts = table.iter().filter(|line| line.starts_with("    ")).count();
    assert!(parts > 1, "{text}");
    assert_eq!(rows, 20 * parts, "{text}");
    assert_eq!(
        table.iter().filter(|line| line.ends_with("mean")).count(),
        1,
        "{text}"
    );
}

/// Names cut to fit are cut between the escapes of invisible characters, never inside one.
#[test]
fn a_name_is_cut_between_escapes() {
    let bot = crate::common::misbehave("first");
    for name in [
        format!("a{}b", "\u{a0}".repeat(30)),
        format!("bot{}z", "\u{200b}".repeat(30)),
    ] {
        let out = ttt()
            .args([
                "audit",
                "--side",
                "x",
                "--cmd",
                &bot,
                "--name",
                &name,
                "--recheck",
                "0",
            ])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_fits(&text, &name);
        assert!(text.contains('…'), "{text}");
        for line in text.lines() {
            // Every `\u{` starts a whole escape: of a non-breaking or a zero-width space.
            for (at, _) in line.match_indices("\\u{") {
                let rest = &line[at..];
                assert!(
                    rest.starts_with("\\u{a0}") || rest.starts_with("\\u{200b}"),
                    "{line}"
                );
            }
            assert!(!line.contains("\\…") && !line.contains("\\u…"), "{line}");
        }
    }
}

/// After a protocol error, the sides left unaudited are named on one line, as many as fit.
#[test]
fn what_a_protocol_error_left_fits_one_line() {
    let garbage = crate::common::misbehave("garbage");
    let first = crate::common::misbehave("first");
    let mut args = vec![
        "audit", "--jobs", "1", "--cmd", &garbage, "--name", "garbage",
    ];
    let names: Vec<String> = (0..20).map(|i| format!("bot-number-{i:02}")).collect();
    for name in &names {
        args.extend(["--cmd", &first, "--name", name]);
    }
    let out = ttt().args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_fits(&text, "audit");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("Not audited, after a protocol error (below): garbage as X, garbage as O"),
        "{last}"
    );
    assert!(last.ends_with(" and 40 more."), "{last}");
}
