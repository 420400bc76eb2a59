//! A file of JSON lines an audit writes beside its report (`--losing-games`, `--mistakes`):
//! opened before any bot is audited, so that a path that cannot be written is refused at once,
//! and written where and as `ttt export -o` writes (`-` for standard output).

use std::path::Path;

use ttt_oracle::output::{Destination, Output};

use super::Failure;

/// Whether two paths given on the command line name one file (or both standard output): the
/// same file whatever the spelling (`./f`, a link) when it exists, else the same name in the
/// same folder.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let stdout = |p: &Path| p.as_os_str() == "-";
    if stdout(a) || stdout(b) {
        return stdout(a) && stdout(b);
    }
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    // Not there yet: its folder, resolved, and its name.
    let place = |p: &Path| {
        let folder = match p.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        };
        (
            std::fs::canonicalize(folder).ok(),
            p.file_name().map(|n| n.to_owned()),
        )
    };
    let (x, y) = (place(a), place(b));
    x.0.is_some() && x == y
}

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
