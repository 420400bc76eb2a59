//! What `ttt` says about a pass over a game's tiers before and while it runs: the time
//! `ttt solve --plan` expects, and the progress line of `ttt solve`, and of `ttt stats` and
//! `ttt verify` on a table `ttt solve` cached, on a terminal only. (That nothing reaches
//! standard error off a terminal is checked where tests/solve.rs runs the three commands.)

use std::path::PathBuf;

use crate::common;

/// The cache folder of one test, made empty.
fn cache(name: &str) -> PathBuf {
    let dir = common::scratch("ttt-progress", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `--plan` ends with the time the solve should take, measured on a sample and said to be an
/// estimate, on the threads asked for; only for a game the solve takes.
#[test]
fn solve_plan_ends_with_the_time_it_expects() {
    // Two threads where there are two cores (more than the cores are lowered to them).
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    for (threads, noun) in [("1", "1 thread"), ("2", "2 threads")]
        .into_iter()
        .take(cores)
    {
        let out = crate::common::cli::ttt()
            .args(["solve", "--plan", "--game", "1x17k5", "--threads", threads])
            .output()
            .unwrap();
        common::assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let (first, last) = (lines[lines.len() - 2], lines[lines.len() - 1]);
        let (time, sample) = first.split_once(&format!(" on {noun}: ")).expect(first);
        // "1.5 s", "42 s", "3 min 20 s", "14 min" or "2 h 05 min".
        let amount: Vec<&str> = time
            .strip_prefix("time about ")
            .expect(first)
            .split(' ')
            .collect();
        assert!(amount[0].parse::<f64>().is_ok_and(|n| n > 0.0), "{first}");
        for pair in amount.chunks(2) {
            assert!(pair[0].parse::<f64>().is_ok(), "{first}");
            assert!(["h", "min", "s"].contains(&pair[1]), "{first}");
        }
        let sample = sample
            .strip_prefix("estimated from ")
            .and_then(|sample| sample.strip_suffix(" positions of every tier solved here"))
            .expect(first);
        assert!(
            sample.replace(',', "").parse::<u64>().unwrap() > 0,
            "{first}"
        );
        let (took, had) = last
            .strip_prefix("  in ")
            .and_then(|how| {
                how.strip_suffix(
                    " processors (the share of the machine the threads had then), and scaled",
                )
            })
            .and_then(|how| how.split_once(" s on "))
            .expect(last);
        let (took, had): (f64, f64) = (took.parse().unwrap(), had.parse().unwrap());
        assert!(took > 0.0 && took < 60.0, "{last}");
        assert!(had > 0.0 && had <= threads.parse().unwrap(), "{last}");
        assert!(first.len() <= 100 && last.len() <= 100, "{text}");
        // The lines before are the plan as it was.
        assert!(
            text.contains("\n  tier 17:              12,190 positions\n"),
            "{text}"
        );
    }
    // A game no solve takes has no time to expect: 16 cells (solved when used) or 36.
    for game in ["4x4", "6x6"] {
        let out = crate::common::cli::ttt()
            .args(["solve", "--plan", "--game", game])
            .output()
            .unwrap();
        common::assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().last().unwrap().starts_with("table "), "{text}");
    }
}

/// Runs `ttt ARGS --cache-dir DIR` with standard error on a terminal; the exit code, standard
/// output and what the terminal showed, as text.
fn shown(args: &[&str], dir: &std::path::Path, env: &[(&str, &str)]) -> (i32, String, String) {
    let dir = dir.to_str().unwrap();
    let args: Vec<&str> = args.iter().copied().chain(["--cache-dir", dir]).collect();
    let (code, stdout, terminal) = common::on_a_terminal(&args, env);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (code, text(stdout), text(terminal))
}

/// The line of `ttt solve`, `ttt stats` and `ttt verify` on a 17-cell game: the phase, the
/// game (in bold unless colours are off), the tier, the positions and their rate; cleared at
/// the end, the report alone on standard output; nothing on a dumb terminal.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves, counts and checks a 17-cell game: seconds in release, minutes in debug"
)]
fn solve_stats_and_verify_show_progress_on_a_terminal_and_clear_it() {
    let dir = cache("line");
    let plain = [("TERM", "xterm"), ("NO_COLOR", "1")];
    let (code, stdout, terminal) = shown(&["solve", "--game", "1x17k5"], &dir, &plain);
    assert_eq!(code, 0, "{terminal}");
    assert!(stdout.starts_with("game 1x17k5: solved in "), "{stdout}");
    assert!(terminal.contains("solving 1x17k5, tier "), "{terminal:?}");
    assert!(terminal.contains("/14.9M positions, "), "{terminal:?}");
    assert!(terminal.contains("/s, "), "{terminal:?}");
    assert!(terminal.ends_with("\r\x1b[2K"), "cleared: {terminal:?}");
    assert!(!terminal.contains("\x1b[1m"), "NO_COLOR: {terminal:?}");

    for (command, phase) in [("stats", "counting"), ("verify", "re-solving")] {
        let args = [command, "--game", "1x17k5"];
        let elsewhere = crate::common::cli::ttt()
            .args(args)
            .arg("--cache-dir")
            .arg(&dir)
            .output()
            .unwrap();
        common::assert_success(&elsewhere);
        let (code, stdout, terminal) = shown(&args, &dir, &[("TERM", "xterm")]);
        assert_eq!(code, 0, "{terminal}");
        assert_eq!(
            stdout.as_bytes(),
            elsewhere.stdout,
            "the report alone on stdout"
        );
        let bold = format!("{phase} \x1b[1m1x17k5\x1b[0m, tier ");
        assert!(terminal.contains(&bold), "{command}: {terminal:?}");
        assert!(terminal.contains("/14.9M positions, "), "{terminal:?}");
        assert!(terminal.ends_with("\r\x1b[2K"), "cleared: {terminal:?}");
    }
    let dumb = [("TERM", "dumb")];
    let (code, _, terminal) = shown(&["verify", "--game", "1x17k5"], &dir, &dumb);
    assert_eq!(
        (code, terminal.as_str()),
        (0, ""),
        "no line on a dumb terminal"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
