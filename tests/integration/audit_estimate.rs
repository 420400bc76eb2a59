//! An audit of a game past 16 cells estimated, before it begins, to pass the memory limit by
//! far: refused at once with exit code 6, the estimate, and a `--max-memory` that would do;
//! which does; the sides of an audit are all estimated before either begins. Through the real
//! binary, on 3x6k3 (a table of 21 MiB, solved in a second).

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::{scratch, ttt};

fn run(cache: &Path, args: &[&str]) -> Output {
    assert_cmd::Command::new(ttt())
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}

#[test]
fn an_audit_far_past_the_limit_is_refused_at_once_with_a_limit_that_does() {
    let cache = scratch("ttt-estimate", "cache");
    let solved = run(&cache, &["solve", "--game", "3x6k3"]);
    assert!(solved.status.success(), "{solved:?}");
    let audit = ["audit", "tricky", "--game", "3x6k3", "--side", "o"];

    let started = Instant::now();
    let out = run(&cache, &[&audit[..], &["--max-memory", "4M"]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stderr.contains("error: auditing O of 3x6 would hold about "),
        "{stderr}"
    );
    assert!(
        stderr.contains("more than the memory limit, 4 MiB (--max-memory): not begun;"),
        "{stderr}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Not audited, over the memory limit"),
        "{out:?}"
    );
    let enough = stderr
        .split("not begun; --max-memory ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("a limit that would do");

    // The limit given does: the audit runs to its verdict (tricky can lose as O on 3x6k3).
    let out = run(&cache, &[&audit[..], &["--max-memory", enough]].concat());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().last(), Some("tricky can lose"), "{stdout}");

    // Both sides: X's walk fits 4 MiB, O's is refused; O's estimate, made before X's walk
    // begins, stops both, rather than after X's audit.
    let both = ["audit", "tricky", "--game", "3x6k3", "--max-memory", "4M"];
    let out = run(&cache, &both);
    assert_eq!(out.status.code(), Some(6), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.trim(),
        "Not audited, over the memory limit (below): tricky as X, tricky as O.",
    );
    let alone = run(
        &cache,
        &[
            "audit",
            "tricky",
            "--game",
            "3x6k3",
            "--side",
            "x",
            "--max-memory",
            "4M",
        ],
    );
    assert_eq!(alone.status.code(), Some(0), "{alone:?}");
    std::fs::remove_dir_all(&cache).unwrap();
}
