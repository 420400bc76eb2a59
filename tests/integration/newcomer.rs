//! What a newcomer meets first, through the real binary: completions that offer bots, styles
//! and games rather than file names (run in a real bash), "did you mean" for a mistyped bot,
//! style or game, the empty board as no position at all, `--name` and `--timeout-ms` for an
//! external opponent in `ttt play`, a man page in ASCII that groff takes without a warning,
//! the other games in `ttt --help`, and the short flags, one letter an option everywhere.

use crate::common;

use std::process::Command as Process;

use assert_cmd::Command;
use common::play::{play, result_line};

fn ttt() -> Command {
    let mut cmd = Command::new(crate::common::ttt());
    cmd.env("NO_COLOR", "1").timeout(common::cli::TIME_LIMIT);
    cmd
}

/// What `ttt ARGS` prints on standard output, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = ttt().args(args).output().unwrap();
    common::assert_success(&out);
    String::from_utf8(out.stdout).unwrap()
}

/// What `ttt ARGS` prints on standard error, which must fail with exit code 2.
fn usage_error(args: &[&str]) -> String {
    let out = ttt().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

const BOT_NAMES: [&str; 3] = ["smartbot", "newell-simon", "geeks-minimax-depth"];
const GAMES: [&str; 5] = ["3x3", "3x4", "4x3", "4x4", "4x4k3"];

#[test]
fn every_shell_is_offered_the_bots_styles_and_games() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(&["completions", shell]);
        for word in BOT_NAMES.iter().chain(&GAMES).chain(&["tricky", "perfect"]) {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    // Bash: the values of --game and --opponent, not `compgen -f`, the file names.
    let bash = stdout(&["completions", "bash"]);
    for option in ["--game)", "-g)", "--opponent)"] {
        let case = bash.split(option).nth(1).expect(option);
        let reply = case.lines().nth(1).unwrap();
        assert!(reply.contains("compgen -W"), "{option}: {reply}");
    }
    // Fish: the bots are positional in audit, match and simulate, which fish is given too.
    let fish = stdout(&["completions", "fish"]);
    for sub in ["audit", "match", "simulate"] {
        let line = format!("complete -c ttt -n \"__fish_ttt_using_subcommand {sub}\" -f -a \"");
        let values = fish.split(&line).nth(1).expect(sub);
        assert!(values.contains("smartbot\\t'win, block"), "{sub}");
    }
    // Zsh: bots and games as values with their descriptions, not `_files`.
    let zsh = stdout(&["completions", "zsh"]);
    assert!(zsh.contains("'--game=[") && zsh.contains(":GAME:((3x3\\:\"tic-tac-toe\""));
    assert!(zsh.contains("'*::bots -- ") && zsh.contains("smartbot\\:\"win, block"));
}

/// What bash's completion for `ttt` offers for `line` (completing its last word), run in a
/// real bash, in a folder holding files whose names would match were files offered.
fn bash_completes(script: &std::path::Path, line: &str) -> Vec<String> {
    let folder = tempfile::tempdir().unwrap();
    for name in ["3x3-notes.txt", "smartbot.py", "tricky.txt", "marcelo.md"] {
        std::fs::write(folder.path().join(name), "").unwrap();
    }
    let words: Vec<&str> = line.split(' ').collect();
    let program = format!(
        "source {script}\n\
         complete -p ttt\n\
         COMP_WORDS=({words})\n\
         COMP_CWORD={cword}\n\
         COMP_LINE='{line}'\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         _ttt ttt '{cur}' '{prev}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script = script.display(),
        words = words
            .iter()
            .map(|word| format!("'{word}'"))
            .collect::<Vec<_>>()
            .join(" "),
        cword = words.len() - 1,
        cur = words[words.len() - 1],
        prev = words[words.len() - 2],
    );
    let out = Process::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(program)
        .current_dir(folder.path())
        .output()
        .unwrap();
    common::assert_success(&out);
    let shown = String::from_utf8(out.stdout).unwrap();
    let mut lines = shown.lines();
    let registered = lines.next().unwrap_or_default();
    assert!(
        registered.starts_with("complete ") && registered.ends_with(" -F _ttt ttt"),
        "{registered}"
    );
    let mut words: Vec<String> = lines
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect();
    words.sort();
    words
}

#[test]
fn a_real_bash_completes_bots_styles_and_games_and_no_files() {
    if Process::new("bash").arg("-c").arg("true").status().is_err() {
        eprintln!("NOTE: no bash on this machine; its completion was not run");
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    let script = folder.path().join("ttt.bash");
    std::fs::write(&script, stdout(&["completions", "bash"])).unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("ttt audit --game ", &GAMES),
        ("ttt best -g 4", &["4x3", "4x4", "4x4k3"]),
        ("ttt audit sm", &["smartbot"]),
        ("ttt audit random ne", &["newell-simon"]),
        ("ttt match random mar", &["marcelo"]),
        ("ttt simulate geeks-minimax-", &["geeks-minimax-depth"]),
        ("ttt play --opponent tr", &["tricky"]),
        ("ttt play --opponent nothing-like-it", &[]),
        // Numbers and names are typed: no file names for them either.
        ("ttt play --timeout-ms ", &[]),
        ("ttt play --name ", &[]),
        ("ttt audit random --startup-ms ", &[]),
        // Where a file goes, files.
        ("ttt export -o sm", &["smartbot.py"]),
    ];
    for (line, expected) in cases {
        assert_eq!(bash_completes(&script, line), *expected, "{line}");
    }
}

#[test]
fn a_mistyped_bot_or_style_gets_the_closest_name() {
    let cases = [
        (vec!["audit", "smartbott"], "(did you mean smartbot?)"),
        (
            vec!["match", "random", "marcello"],
            "(did you mean marcelo?)",
        ),
        (
            vec!["simulate", "Newell-Simon"],
            "(did you mean newell-simon?)",
        ),
        (
            vec!["play", "--opponent", "casul:0.3"],
            "(did you mean casual:0.3?)",
        ),
        (
            vec!["play", "--opponent", "epsilom:1/3"],
            "(did you mean epsilon:1/3?)",
        ),
        (
            vec!["play", "--opponent", "trickie"],
            "(did you mean tricky?)",
        ),
    ];
    for (args, hint) in cases {
        let error = usage_error(&args);
        assert!(
            error.contains("unknown bot") && error.contains(hint),
            "{error}"
        );
        assert!(error.contains("choose one of: perfect, "), "{error}");
    }
    // Nothing close, no guess.
    for args in [
        vec!["audit", "deep-blue"],
        vec!["play", "--opponent", "zz:1"],
    ] {
        let error = usage_error(&args);
        assert!(
            error.contains("unknown bot") && !error.contains("did you mean"),
            "{error}"
        );
    }
    // A style without its parameter says how to write it.
    let error = usage_error(&["play", "--opponent", "casual"]);
    assert!(
        error.contains("\"casual\" needs its parameter: write casual:P, e.g. casual:0.25"),
        "{error}"
    );
}

#[test]
fn a_mistyped_game_gets_the_game_its_numbers_name() {
    let cases = [
        ("4,4,3", "4x4k3"),
        ("4*4", "4x4"),
        ("3 by 4", "3x4"),
        ("4x4x3", "4x4k3"),
        ("3\u{d7}3", "3x3"),
    ];
    for (typed, meant) in cases {
        let error = usage_error(&["best", "--game", typed]);
        assert!(error.contains("is not a game"), "{error}");
        assert!(
            error.contains(&format!("(did you mean {meant}?)")),
            "{error}"
        );
        // The suggestion is a game ttt reads.
        stdout(&["best", "--game", meant]);
    }
    for typed in ["tictactoe", "4x", "1,2,3,4", "4 rows by 4 columns"] {
        let error = usage_error(&["audit", "random", "--game", typed]);
        assert!(
            error.contains("is not a game") && !error.contains("did you mean"),
            "{error}"
        );
    }
}

#[test]
fn no_position_is_the_empty_board_on_every_command_that_takes_one() {
    for game in ["3x3", "4x4k3", "3x4"] {
        for command in ["best", "analyze"] {
            for format in ["text", "json"] {
                let alone = stdout(&[command, "-g", game, "-f", format]);
                let moves = stdout(&[command, "-g", game, "-f", format, "--moves", ""]);
                assert_eq!(alone, moves, "{command} --game {game}");
            }
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["analyze", "-f", "json"])).unwrap();
    assert_eq!(json["board"], ".........");
    // A board or moves, never both.
    let error = usage_error(&["best", "X........", "--moves", "5"]);
    assert!(error.contains("cannot be used with"), "{error}");
    // An empty board given as empty text says how the empty board is written.
    let error = usage_error(&["best", ""]);
    assert!(
        error.contains("(for the empty board give no board, or --moves \"\")"),
        "{error}"
    );
    let error = usage_error(&["analyze", "-g", "4x4k3", " "]);
    assert!(
        error.contains("(for the empty board give no board, or --moves \"\")"),
        "{error}"
    );
}

/// An external opponent that takes 0.3 s over every reply as O (and breaks the protocol at
/// once as X, which these games never ask of it).
fn slow_opponent() -> String {
    format!("cmd:{}", common::misbehave("garbage-x-slow-o"))
}

#[test]
fn play_names_an_external_opponent_and_bounds_its_time() {
    let opponent = slow_opponent();
    // It takes the first empty cell: 1, 2, then 4, and X wins on 3 5 7.
    let shown = play(
        &["--opponent", &opponent, "--name", "slowpoke"],
        "5\n9\n3\n7\n",
    );
    assert!(shown.starts_with("You are X, against slowpoke."), "{shown}");
    assert!(shown.contains("slowpoke (O) plays 4."), "{shown}");
    assert!(
        result_line(&shown) == "result: x_wins moves: 5 1 9 2 3 4 7",
        "{shown}"
    );
    // Its first reply may take the start-up time too; the second, 0.3 s, is over 100 ms.
    let out = common::play::ttt()
        .args(["play", "--opponent", &opponent, "--timeout-ms", "100"])
        .write_stdin("5\n9\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(error.contains("no reply within 100 ms"), "{error}");
    // The same validation as `ttt audit --cmd`.
    for (args, expected) in [
        (vec!["--timeout-ms", "0"], "0 is not in 1..=3600000"),
        (
            vec!["--timeout-ms", "soon"],
            "invalid value 'soon' for '--timeout-ms <N>'",
        ),
        (
            vec!["--opponent", &opponent, "--name", " "],
            "--name needs a name that shows",
        ),
        (
            vec!["--name", "x"],
            "--name names an external opponent, and \"perfect\" is built in",
        ),
    ] {
        let mut all = vec!["play"];
        all.extend(args);
        let error = usage_error(&all);
        assert!(error.contains(expected), "{error}");
    }
}

#[test]
fn the_man_page_is_ascii_and_groff_takes_it_without_a_warning() {
    let page = stdout(&["man"]);
    let other: Vec<(usize, char)> = page
        .chars()
        .enumerate()
        .filter(|(_, ch)| !ch.is_ascii())
        .collect();
    assert!(other.is_empty(), "characters beyond ASCII: {other:?}");
    // What stood there is still shown, as groff's escape for it.
    assert!(page.contains("\\[u2026]"));
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("ttt.1");
    std::fs::write(&path, &page).unwrap();
    for device in ["utf8", "ascii"] {
        let out = match Process::new("groff")
            .args(["-ww", "-man", &format!("-T{device}")])
            .arg(&path)
            .output()
        {
            Ok(out) => out,
            Err(error) => {
                eprintln!("NOTE: groff could not be run ({error}); its warnings were not checked");
                return;
            }
        };
        assert!(out.status.success());
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(warnings.is_empty(), "groff -T{device}: {warnings}");
        // The text as it reads: bold (a character, a backspace, the character again) undone,
        // and runs of white space as one.
        let mut text = String::new();
        for ch in String::from_utf8_lossy(&out.stdout).chars() {
            match ch {
                '\u{8}' => drop(text.pop()),
                ch => text.push(ch),
            }
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let ellipsis = if device == "utf8" { "…" } else { "..." };
        let sentence = format!("followed by {ellipsis} and its length when it is longer");
        assert!(text.contains(&sentence), "-T{device}: no {sentence:?}");
    }
}

#[test]
fn the_top_help_names_the_other_games() {
    for flag in ["--help", "-h"] {
        let help = stdout(&[flag]);
        assert!(
            help.starts_with("Tic-tac-toe and other m,n,k games, solved"),
            "{help}"
        );
    }
    let help = stdout(&["--help"]);
    for fact in [
        "--game (-g) MxN",
        "MxNkK",
        "3x4, 4x3, 4x4 and 4x4k3 are built in",
    ] {
        assert!(help.contains(fact), "{fact}: {help}");
    }
}

/// The options that have a short flag, the same on every command that takes them.
const SHORTS: [(&str, &str); 4] = [
    ("-g", "--game"),
    ("-m", "--moves"),
    ("-f", "--format"),
    ("-o", "--output"),
];

#[test]
fn a_short_flag_is_the_same_letter_on_every_command() {
    let help = stdout(&["--help"]);
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|line| !line.is_empty())
        .filter_map(|line| {
            line.strip_prefix("  ")
                .filter(|rest| !rest.starts_with(' '))
        })
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(commands.len() >= 12, "{commands:?}");
    let mut found = 0;
    for command in commands {
        let help = stdout(&[command, "--help"]);
        let options: Vec<&str> = help
            .lines()
            .map(str::trim_start)
            .filter(|line| line.starts_with('-'))
            .collect();
        for (short, long) in SHORTS {
            let given = |line: &&str| line.contains(&format!("{long} ")) || line.ends_with(long);
            if let Some(line) = options.iter().copied().find(given) {
                assert!(
                    line.starts_with(&format!("{short}, {long}")),
                    "{command}: {line}"
                );
                found += 1;
            }
        }
        // And no letter means two options.
        for (short, long) in SHORTS {
            for line in options
                .iter()
                .filter(|l| l.starts_with(&format!("{short},")))
            {
                assert!(
                    line.starts_with(&format!("{short}, {long}")),
                    "{command}: {line}"
                );
            }
        }
    }
    // --game on 10 commands, --format on 10, --moves on 3, --output on 1.
    assert!(found >= 20, "{found}");
}

#[test]
fn short_flags_do_what_the_long_ones_do() {
    let pairs: [(&[&str], &[&str]); 4] = [
        (
            &["best", "-m", "5 1", "-f", "json", "-g", "3x3"],
            &[
                "best", "--moves", "5 1", "--format", "json", "--game", "3x3",
            ],
        ),
        (
            &["audit", "random", "-g", "3x4", "-f", "json"],
            &["audit", "random", "--game", "3x4", "--format", "json"],
        ),
        (
            &["review", "-m", "5 1 9", "-f", "json"],
            &["review", "--moves", "5 1 9", "--format", "json"],
        ),
        (
            &["stats", "-g", "3x4", "-f", "json"],
            &["stats", "--game", "3x4", "--format", "json"],
        ),
    ];
    for (short, long) in pairs {
        let run = |args: &[&str]| ttt().args(args).output().unwrap();
        let (short_out, long_out) = (run(short), run(long));
        assert_eq!(short_out.status.code(), long_out.status.code(), "{short:?}");
        assert_eq!(short_out.stdout, long_out.stdout, "{short:?}");
        assert!(!short_out.stdout.is_empty());
    }
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("t.out");
    stdout(&[
        "export",
        "-g",
        "3x4",
        "-f",
        "csv",
        "-o",
        path.to_str().unwrap(),
    ]);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.starts_with("game,board,"), "{}", &written[..40]);
}

#[test]
fn moves_given_as_separate_arguments_get_the_command_meant() {
    for (args, meant) in [
        (&["best", "5", "1"][..], "ttt best --moves \"5 1\""),
        (&["best", "--moves", "5", "1"], "ttt best --moves \"5 1\""),
        (
            &["review", "5", "1", "9", "--game", "3x3"],
            "ttt review --moves \"5 1 9\" --game 3x3",
        ),
        (
            &["analyze", "-m", "1", "2", "3"],
            "ttt analyze --moves \"1 2 3\"",
        ),
    ] {
        let error = usage_error(args);
        let tip = format!("tip: a move list is one argument: {meant}\n");
        assert!(error.contains(&tip), "{args:?}: {error}");
    }
    // Not a move list: clap's error alone; nor for a command without --moves, or the values
    // of another option.
    for args in [
        &["best", "X........", "O........"][..],
        &["export", "5", "1"],
        &["simulate", "random", "--games", "100", "200"],
    ] {
        let error = usage_error(args);
        assert!(!error.contains("tip:"), "{args:?}: {error}");
    }
    // The tip's command works.
    assert_eq!(stdout(&["best", "--moves", "5 1"]), "2\n");
}
