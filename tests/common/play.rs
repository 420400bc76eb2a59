//! `ttt play` driven with piped input, bounded in time.

use std::time::Duration;

use assert_cmd::Command;

/// Every game is bounded in time, so that a regression that hangs (waiting for the end of a
/// line that never comes, say) fails instead of stalling the suite.
pub const TIME_LIMIT: Duration = Duration::from_secs(5);

/// `ttt`, without colour, within the time limit.
pub fn ttt() -> Command {
    let mut cmd = Command::new(super::ttt());
    cmd.env("NO_COLOR", "1").timeout(TIME_LIMIT);
    cmd
}

/// Plays with `input` and returns stdout, which must end with a result line.
pub fn play(args: &[&str], input: &str) -> String {
    let out = ttt()
        .arg("play")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    super::assert_success(&out);
    String::from_utf8(out.stdout).unwrap()
}

/// The line that ends a game of `ttt play`.
pub fn result_line(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.starts_with("result: "))
        .expect("a result line")
}
