//! What the tests of external bots share: the misbehaving bot, and the files that tell which
//! of its processes are still running.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn misbehave(mode: &str) -> String {
    format!(
        "python3 {} {mode}",
        root().join("tests/bots/misbehave.py").display()
    )
}

/// A fresh file for the bot to write its process ids into, removed when the test is done.
pub struct PidFile(PathBuf);

impl std::ops::Deref for PidFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for PidFile {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for PidFile {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for PidFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub fn pidfile(name: &str) -> PidFile {
    let path = std::env::temp_dir().join(format!("ttt-pids-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    PidFile(path)
}

/// Whether `pid` is a process still running (a zombie waiting to be reaped is not).
pub fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .chars()
                .next();
            !matches!(state, Some('Z') | Some('X'))
        }
        Err(_) => false,
    }
}

pub fn assert_none_left(pids: &Path) {
    let text = std::fs::read_to_string(pids).expect("the bot wrote its pid");
    let pids: Vec<u32> = text.lines().map(|l| l.parse().unwrap()).collect();
    assert!(!pids.is_empty());
    // The auditor has exited; give the kernel a moment to tear the processes down.
    let deadline = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in pids {
        assert!(!running(pid), "bot process {pid} is still running");
    }
}
