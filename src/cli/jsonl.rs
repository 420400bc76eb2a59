//! A file of JSON lines an audit writes beside its report (`--losing-games`, `--mistakes`):
//! opened before any bot is audited, so that a path that cannot be written is refused at once,
//! and written where and as `ttt export -o` writes (`-` for standard output).

use std::path::Path;

use crate::output::{Destination, Output};

use super::Failure;

pub(super) struct JsonLines {
    pub(super) output: Output,
    to_stdout: bool,
}

impl JsonLines {
    /// Opens `path` (`-` for standard output), if one was given: a path that cannot be
    /// written is refused (exit 2) before any bot is audited.
    pub(super) fn open(path: Option<&Path>) -> Result<Option<JsonLines>, Failure> {
        let Some(path) = path else {
            return Ok(None);
        };
        let destination = Destination::from_arg(path);
        let output = destination.open()?;
        Ok(Some(JsonLines {
            output,
            to_stdout: destination == Destination::Stdout,
        }))
    }

    /// Whether the lines go to standard output, which then holds nothing else.
    pub(super) fn to_stdout(&self) -> bool {
        self.to_stdout
    }
}
