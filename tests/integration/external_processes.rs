//! External bots and the processes behind them, through the real binary: signals to `ttt`
//! stop every bot and what it started, as do a timeout and a panicking caller; a reader that
//! goes away, a standard error nobody reads and time `ttt` spends stopped change nothing.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;

use crate::common;
use common::{assert_none_left, default_signals, misbehave, pidfile, root, wait_for_pids};

/// Starts `ttt audit` on `bots`, waits until the bot processes wrote `count` pids, and
/// returns the running child.
fn start_audit(bots: &[&str], pids: &Path, count: usize) -> std::process::Child {
    let mut args = vec!["audit".to_string()];
    for bot in bots {
        args.push("--cmd".to_string());
        args.push(misbehave(bot));
    }
    let child = ttt(&args, pids)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_pids(pids, count, Duration::from_secs(10), "the bots");
    child
}

/// `ttt` with `args` and the pid file, from the repository's root, standard input closed, and
/// the signals the tests send at their default action.
fn ttt(args: &[impl AsRef<std::ffi::OsStr>], pids: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(crate::common::ttt());
    default_signals(&mut command)
        .args(args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root())
        .stdin(std::process::Stdio::null());
    command
}

/// Starts `ttt` with `args` and the pid file, standard output and error piped.
fn spawn_ttt(args: &[&str], pids: &Path) -> std::process::Child {
    ttt(args, pids)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits up to `within` for `child` to end.
fn ended(child: &mut std::process::Child, within: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "ttt is still running");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn signals_to_ttt_stop_every_bot_and_what_it_started() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        let pids = pidfile(&format!("signal-{signal}"));
        // "setsid" leaves a process in a session of its own; "slow" keeps the audit busy.
        let mut child = start_audit(&["setsid", "slow"], &pids, 2);
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let status = ended(&mut child, Duration::from_secs(3));
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_none_left(&pids);
    }
}

#[test]
fn signals_during_play_stop_the_bot() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let pids = pidfile(&format!("play-{signal}"));
        // The bot moves first, then ttt waits for the human, whose input stays open.
        let opponent = format!("cmd:{}", misbehave("setsid"));
        let mut child = ttt(&["play", "--as", "o", "--opponent", &opponent], &pids)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        wait_for_pids(&pids, 2, Duration::from_secs(10), "the bot");
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let status = ended(&mut child, Duration::from_secs(3));
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_none_left(&pids);
    }
}

#[test]
fn ttt_under_timeout_leaves_nothing_behind() {
    let pids = pidfile("timeout");
    let out = Command::new("timeout")
        .arg("1")
        .arg(crate::common::ttt())
        .args(["audit", "--cmd", &misbehave("slow")])
        .env("TTT_TEST_PIDFILE", &pids)
        .timeout(Duration::from_secs(10))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(124));
    assert_none_left(&pids);
}

/// A reader gone before the report, or one that goes away after reading a little, leaves the
/// verdict (random can lose: 1): never a success or a death by signal.
#[test]
fn a_closed_standard_output_leaves_the_verdict() {
    use std::process::Stdio;
    for bots in [
        &["random"][..],
        &["smartbot", "random", "forkbot", "marcelo"][..],
    ] {
        for _ in 0..3 {
            let mut command = std::process::Command::new(crate::common::ttt());
            command.arg("audit").args(bots).stderr(Stdio::null());
            if bots.len() == 1 {
                command.stdout(common::no_reader());
                let status = ended(&mut command.spawn().unwrap(), Duration::from_secs(30));
                assert_eq!(status.code(), Some(1), "{bots:?}");
                continue;
            }
            let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
            // Like `| head -1`: read a little, then go away.
            let mut stdout = child.stdout.take().unwrap();
            let _ = std::io::Read::read(&mut stdout, &mut [0u8; 64]);
            drop(stdout);
            let status = ended(&mut child, Duration::from_secs(30));
            assert_eq!(status.code(), Some(1), "{bots:?}: {status:?}");
        }
    }
}

#[test]
fn a_standard_error_nobody_reads_cannot_stall_the_bot() {
    // ttt's standard error is a pipe nobody reads until the end: the bot writes far more than
    // a pipe holds to its own, and must neither wait nor be judged for it.
    let pids = pidfile("chatty-unread");
    let mut child = spawn_ttt(
        &[
            "audit",
            "--timeout-ms",
            "1000",
            "--cmd",
            &misbehave("chatty"),
        ],
        &pids,
    );
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    let status = ended(&mut child, Duration::from_secs(30));
    assert_eq!(status.code(), Some(0), "{stdout}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.starts_with("[python3 "),
        "{}",
        &stderr[..200.min(stderr.len())]
    );
    assert_none_left(&pids);
}

#[test]
fn time_ttt_spends_stopped_is_not_the_bots() {
    // Ctrl-Z and fg: ttt is stopped longer than the timeout, then continued.
    let pids = pidfile("stopped");
    let mut child = spawn_ttt(
        &[
            "audit",
            "--timeout-ms",
            "1000",
            "--cmd",
            &misbehave("trailing"),
        ],
        &pids,
    );
    std::thread::sleep(Duration::from_millis(400));
    for _ in 0..2 {
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGSTOP);
        }
        std::thread::sleep(Duration::from_millis(1500));
        // SAFETY: as above.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGCONT);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = ended(&mut child, Duration::from_secs(30));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_none_left(&pids);
}

#[test]
fn a_signal_between_two_sides_ends_ttt_by_that_signal() {
    use std::os::unix::process::ExitStatusExt;
    for _ in 0..3 {
        let pids = pidfile("killparent");
        let mut child = spawn_ttt(&["audit", "--cmd", &misbehave("killparent")], &pids);
        let status = ended(&mut child, Duration::from_secs(20));
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?} {stderr}");
        assert!(!stderr.contains("protocol"), "{stderr}");
        assert_none_left(&pids);
    }
}
