//! The memory limit, through the real binary under real limits: `ulimit -v` and `prlimit --as`
//! (which bound the address space, as a machine or a cgroup with little memory would), and
//! `--max-memory`. A command that would grow past its limit stops with exit code 6, a message
//! naming the limit and what to change, the report of what it finished, and no process of an
//! external bot left, its `setsid` grandchild included.

use crate::common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{PidFile, assert_none_left, misbehave, pidfile, root};

/// The bot that answers every empty cell, with a grandchild in a session of its own when
/// `setsid`.
fn hungry(setsid: bool) -> String {
    let bot = root().join("tests/bots/hungry.py");
    let extra = if setsid { " setsid" } else { "" };
    format!("python3 {}{extra}", bot.display())
}

fn ttt() -> String {
    crate::common::ttt().display().to_string()
}

/// Runs `shell` (a command line for `sh -c`, in which `$TTT` is the binary) with the bot's
/// process ids written to `pids`: its output, within a minute.
fn run_shell(shell: &str, pids: &PidFile) -> Output {
    let started = Instant::now();
    let mut cmd = assert_cmd::Command::new("sh");
    let out = cmd
        .args(["-c", shell])
        .env("TTT", ttt())
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(45),
        "{shell} took too long"
    );
    out
}

/// `ttt ARGS`, the bot's process ids written to `pids`.
fn run(args: &[&str], pids: &PidFile) -> Output {
    assert_cmd::Command::new(crate::common::ttt())
        .args(args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit code 6 and one error line naming the limit, where it comes from and what to change.
fn assert_over_memory(out: &Output, limit: Option<&str>, change: &[&str]) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{stderr}");
    assert!(
        stderr.starts_with("error: stopped before passing the memory limit, "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line, no abort: {stderr}");
    match limit {
        Some(limit) => assert!(stderr.contains(&format!("limit, {limit} (--max-memory)"))),
        None => assert!(
            stderr.contains("(half the memory available; --max-memory sets another)"),
            "{stderr}"
        ),
    }
    for part in change {
        assert!(stderr.contains(part), "{stderr:?} lacks {part:?}");
    }
}

#[test]
fn a_stateless_audit_of_4x4_under_ulimit_v_stops_at_half_of_it() {
    // The case: 4.4 GB at its peak, and an abort (exit 134) with a grandchild left.
    let pids = pidfile("memory-ulimit");
    let shell = format!(
        "ulimit -v 90000; exec \"$TTT\" audit --game 4x4 --cmd '{}' --name hungry --stateless \
         --side x",
        hungry(true)
    );
    let out = run_shell(&shell, &pids);
    assert_over_memory(&out, None, &["raise --max-memory"]);
    assert_eq!(
        text(&out.stdout),
        "Not audited, over the memory limit (below): hungry as X.\n"
    );
    assert_none_left(&pids);
    let grandchildren = std::fs::read_to_string(&*pids).unwrap().lines().count();
    assert!(
        grandchildren >= 2,
        "the bot and its grandchild wrote their ids"
    );
}

#[test]
fn an_audit_by_histories_under_prlimit_stops_with_both_sides_and_the_twin() {
    let pids = pidfile("memory-prlimit");
    let shell = format!(
        "exec prlimit --as=150000000 \"$TTT\" audit --game 4x4 --cmd '{}' --name hungry \
         --jobs 2",
        hungry(true)
    );
    let out = run_shell(&shell, &pids);
    assert_over_memory(&out, None, &["--budget", "--stateless"]);
    assert_eq!(
        text(&out.stdout),
        "Not audited, over the memory limit (below): hungry as X, hungry as O.\n"
    );
    assert_none_left(&pids);
}

#[test]
fn the_sides_and_bots_audited_before_the_limit_stay_reported() {
    // The first empty cell on 3x4 fits in a few megabytes; every cell does not.
    let first = misbehave("first");
    let every = hungry(true);
    for format in ["text", "json"] {
        let pids = pidfile(&format!("memory-report-{format}"));
        let out = run(
            &[
                "audit",
                "--game",
                "3x4",
                "--cmd",
                &first,
                "--name",
                "first",
                "--cmd",
                &every,
                "--name",
                "hungry",
                "--max-memory",
                "24M",
                "--format",
                format,
            ],
            &pids,
        );
        assert_over_memory(&out, Some("24 MiB"), &["--budget"]);
        let stdout = text(&out.stdout);
        if format == "text" {
            assert!(stdout.contains("first as X: can lose"), "{stdout}");
            assert!(
                stdout.ends_with(
                    "\nNot audited, over the memory limit (below): hungry as X, hungry as O.\n"
                ),
                "{stdout}"
            );
        } else {
            let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            let bots = json["bots"].as_array().unwrap();
            assert_eq!(bots.len(), 1, "{stdout}");
            assert_eq!(bots[0]["bot"], "first");
            assert_eq!(bots[0]["sides"].as_array().unwrap().len(), 2);
            let error = json["error"].as_str().unwrap();
            assert!(text(&out.stderr).contains(error), "{error}");
        }
        assert_none_left(&pids);
    }
}

#[test]
fn an_audit_without_a_table_stops_at_the_limit() {
    let pids = pidfile("memory-7x7");
    let bot = hungry(true);
    let args = [
        "audit",
        "--game",
        "7x7",
        "--cmd",
        &bot,
        "--name",
        "hungry",
        "--max-memory",
        "12M",
    ];
    let out = run(&args, &pids);
    assert_over_memory(&out, Some("12 MiB"), &["lower --budget"]);
    assert!(
        text(&out.stdout)
            .ends_with("Not audited, over the memory limit (below): hungry as X, hungry as O.\n")
    );
    assert_none_left(&pids);
}

#[test]
fn a_match_and_a_simulation_stop_at_the_limit() {
    let pids = pidfile("memory-match");
    let bot = hungry(true);
    let args = [
        "match",
        "--game",
        "3x4",
        "random",
        "--cmd",
        &bot,
        "--name",
        "hungry",
        "--max-memory",
        "8M",
    ];
    let out = run(&args, &pids);
    assert_over_memory(&out, Some("8 MiB"), &["raise --max-memory"]);
    assert!(text(&out.stdout).starts_with("Not played, after an error (below): "));
    assert_none_left(&pids);

    let pids = pidfile("memory-simulate");
    let args = [
        "simulate",
        "--game",
        "5x5",
        "--cmd",
        &bot,
        "--name",
        "hungry",
        "--games",
        "10",
        "--max-memory",
        "8M",
    ];
    let out = run(&args, &pids);
    assert_over_memory(&out, Some("8 MiB"), &["lower --budget"]);
    assert_none_left(&pids);
}

#[test]
fn an_export_over_the_limit_leaves_no_file() {
    let dir = tempfile::tempdir_in(root().join("target")).unwrap();
    let path = dir.path().join("table.jsonl");
    let out = Command::new(ttt())
        .args(["export", "--game", "4x4", "--max-memory", "4M", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert_over_memory(&out, Some("4 MiB"), &["nothing was written"]);
    assert_eq!(common::names(dir.path()), Vec::<String>::new());
}

#[test]
fn a_solve_that_cannot_fit_is_refused_before_it_starts() {
    for args in [
        &["best", "--game", "2x8k4", "--moves", "1"][..],
        &["stats", "--game", "3x5"],
        &["verify", "--game", "4x4"],
    ] {
        let out = Command::new(ttt())
            .args(args)
            .args(["--max-memory", "16M"])
            .output()
            .unwrap();
        assert_over_memory(&out, Some("16 MiB"), &["raise --max-memory"]);
        let game = args[2];
        assert!(
            text(&out.stderr).contains(&format!("solving game {game} holds about ")),
            "{}",
            text(&out.stderr)
        );
    }
    // Within a limit that fits, the same solve answers.
    let out = Command::new(ttt())
        .args([
            "best",
            "--game",
            "3x5",
            "--moves",
            "1",
            "--max-memory",
            "64M",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_budget_that_cannot_fit_is_refused_up_front_with_the_largest_that_does() {
    let pids = pidfile("memory-budget");
    let bot = misbehave("first");
    let args = [
        "audit",
        "--game",
        "3x4",
        "--cmd",
        &bot,
        "--side",
        "x",
        "--budget",
        "1000000",
        "--max-memory",
        "64M",
    ];
    let out = run(&args, &pids);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let said = "error: --budget 1000000 does not fit in the memory limit, 64 MiB (--max-memory): \
                a walk holds about 170 bytes a history; the largest budget that fits is ";
    assert!(stderr.starts_with(said), "{stderr}");
    let largest: u32 = stderr[said.len()..]
        .trim()
        .replace(',', "")
        .parse()
        .unwrap();
    assert_eq!(largest, (64 << 20) / 170);
    // The largest is accepted, and the audit runs.
    let largest = largest.to_string();
    let args = [&args[..8], &[&largest, "--max-memory", "64M"]].concat();
    let out = run(&args, &pids);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // The default budget is not refused: the walk stops at the limit if it reaches it.
    let out = run(
        &[
            "match",
            "--game",
            "3x4",
            "random",
            "random",
            "--max-memory",
            "64M",
        ],
        &pids,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Without a table, a state takes more room the larger the board.
    let out = run(
        &[
            "audit",
            "--game",
            "11x11",
            "marcelo",
            "--budget",
            "100000",
            "--max-memory",
            "64M",
        ],
        &pids,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a walk holds about 988 bytes a state"),
        "{stderr}"
    );
}

#[test]
fn a_bad_size_is_a_usage_error() {
    for bad in ["12Q", "0", "-5", "", "1.5", "M", "99999999999T"] {
        let out = Command::new(ttt())
            .args(["audit", "random", &format!("--max-memory={bad}")])
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(
            stderr.starts_with("error: invalid value ") && stderr.contains("--max-memory <SIZE>"),
            "{stderr}"
        );
    }
    for good in ["1000000000", "512M", "2g", "1.5GiB"] {
        let out = Command::new(ttt())
            .args(["best", "--moves", "5", "--max-memory", good])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{good}: {}", text(&out.stderr));
    }
}

/// Both sides of a built-in bot are audited at once, each walk on its own thread: where the
/// limit holds one walk but not two, the sides are audited again one after the other, and the
/// report is the one `--jobs 1` gives, not a stop at the limit.
#[test]
fn sides_that_do_not_fit_side_by_side_are_audited_one_after_the_other() {
    let audit = |jobs: &str, limit: u32| {
        let limit = format!("{limit}M");
        let args = ["audit", "random", "--game", "3x4", "--jobs", jobs];
        let out = Command::new(ttt())
            .args(args)
            .args(["--max-memory", &limit])
            .output()
            .unwrap();
        (out.status.code(), out.stdout)
    };
    // The least limit, in MiB, that holds the audit one side at a time.
    let (mut low, mut high) = (1, 256);
    assert_eq!(audit("1", high).0, Some(1), "random can lose on 3x4");
    while high - low > 1 {
        let middle = (low + high) / 2;
        match audit("1", middle).0 {
            Some(1) => high = middle,
            Some(6) => low = middle,
            other => panic!("exit {other:?} at {middle} MiB"),
        }
    }
    let (code, report) = audit("2", high);
    assert_eq!(
        code,
        Some(1),
        "at {high} MiB, which holds one side at a time"
    );
    assert_eq!(text(&report), text(&audit("1", high).1));
}

/// Sizes as `--max-memory` reads them and the library shows them, and what the system says is
/// available.
mod sizes {
    use ttt_oracle::memory::{Size, available};

    /// `ttt stats --game 4x4` (which needs about 60 MiB) with `--max-memory text`.
    fn stats_within(text: &str) -> std::process::Output {
        let mut command = std::process::Command::new(crate::common::ttt());
        let args = ["stats", "--game", "4x4", "--max-memory", text];
        command.args(args).output().unwrap()
    }

    #[test]
    fn max_memory_reads_sizes_in_binary_units() {
        // Too small for 4x4: the limit is shown as it was read.
        for (text, bytes) in [
            ("1000000", 1_000_000),
            ("64K", 64 << 10),
            ("1.5m", 3 << 19),
            ("2MiB", 2 << 20),
            ("2mb", 2 << 20),
            (" 3M ", 3 << 20),
        ] {
            let out = stats_within(text);
            assert_eq!(out.status.code(), Some(6), "{text:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let shown = format!("the memory limit, {} (--max-memory)", Size(bytes));
            assert!(stderr.contains(&shown), "{text:?}: {stderr}");
        }
        for text in ["512M", "2G", "1T"] {
            assert_eq!(stats_within(text).status.code(), Some(0), "{text:?}");
        }
        for text in [
            "",
            "M",
            "-1",
            "1.5",
            "12X",
            "0",
            "0M",
            "1e9",
            "1..5G",
            "99999999999999999999",
            "20000000T",
            "2 G",
            "iB",
            "5ib",
        ] {
            let out = stats_within(text);
            assert_eq!(out.status.code(), Some(2), "{text:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("for '--max-memory <SIZE>'"),
                "{text:?}: {stderr}"
            );
        }
    }

    #[test]
    fn sizes_are_shown_in_binary_units() {
        assert_eq!(Size(512 << 20).to_string(), "512 MiB");
        assert_eq!(Size(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Size(1000).to_string(), "1000 bytes");
        assert_eq!(Size(1 << 10).to_string(), "1 KiB");
    }

    #[test]
    fn the_system_says_how_much_is_available() {
        // On Linux MemAvailable is always there.
        #[cfg(target_os = "linux")]
        assert!(available().is_some_and(|room| room > 0));
    }
}

#[test]
fn the_advice_names_only_what_applies_to_the_bot() {
    // `perfect` answers from the board alone: its audit and a match of two such bots hold each
    // board once, which neither --budget nor --stateless would change.
    let pids = pidfile("memory-advice");
    for args in [
        &[
            "audit",
            "perfect",
            "--game",
            "4x4",
            "--side",
            "x",
            "--max-memory",
            "20M",
        ][..],
        &[
            "match",
            "perfect",
            "tricky",
            "--game",
            "4x4",
            "--max-memory",
            "20M",
        ],
    ] {
        let out = run(args, &pids);
        assert_over_memory(
            &out,
            Some("20 MiB"),
            &["raise --max-memory: the audit holds each board"],
        );
        let stderr = text(&out.stderr);
        assert!(
            !stderr.contains("--budget") && !stderr.contains("--stateless"),
            "{stderr}"
        );
    }
    // Matched with an external bot not declared --stateless, a match holds histories: both apply.
    let bot = hungry(true);
    let args = [
        "match",
        "perfect",
        "--cmd",
        &bot,
        "--name",
        "hungry",
        "--game",
        "4x4",
        "--max-memory",
        "20M",
    ];
    let out = run(&args, &pids);
    assert_over_memory(&out, Some("20 MiB"), &["--budget", "--stateless"]);
    assert_none_left(&pids);
}
