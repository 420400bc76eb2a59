//! `ttt` on one position or a batch of them, its colour left to the environment.

use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value as Json;

/// Each run that feeds odd or huge input is bounded in time, so that a regression that hangs
/// fails instead of stalling the suite.
pub const TIME_LIMIT: Duration = Duration::from_secs(5);

/// `ttt`, with `NO_COLOR` taken out of its environment.
pub fn ttt() -> Command {
    let mut cmd = Command::new(super::ttt());
    cmd.env_remove("NO_COLOR");
    cmd
}

/// What `ttt ARGS` prints, which must be one JSON value, and a success.
pub fn json(args: &[&str]) -> Json {
    let out = ttt().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
