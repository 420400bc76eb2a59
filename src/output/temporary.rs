//! The temporary file an [`Output`](super::Output) writes before it replaces its target, and
//! the registry of those with a name, which [`remove_temporary_files`] empties when a signal
//! ends the program.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Removes every temporary file this process is writing, and stops it from making new ones:
/// afterwards, opening a path that would be replaced, or finishing a replacement already
/// under way, fails, so no temporary file can appear after the call and no finished file is
/// ever removed. Call it when the process is about to end on a signal (SIGINT, SIGTERM,
/// SIGHUP), from the thread that handles the signal, just before the process ends.
///
/// Safe to call from any thread at any moment, and more than once: it takes a lock that is only
/// ever held for the few system calls that create, rename or remove a temporary file. It is
/// not async-signal-safe: do not call it from inside a signal handler itself.
pub fn remove_temporary_files() {
    let mut registry = temporaries();
    registry.closed = true;
    for path in registry.paths.drain(..) {
        let _ = fs::remove_file(path);
    }
}

/// The temporary files being written, so that [`remove_temporary_files`] can find them.
static TEMPORARIES: Mutex<Temporaries> = Mutex::new(Temporaries {
    paths: Vec::new(),
    closed: false,
});

struct Temporaries {
    paths: Vec<PathBuf>,
    /// Set by [`remove_temporary_files`]: the process is ending.
    closed: bool,
}

impl Temporaries {
    fn position(&self, path: &Path) -> Option<usize> {
        self.paths.iter().position(|p| p == path)
    }
}

/// The registry, even if a thread panicked while holding it: the list stays consistent, since
/// every change to it is a single push or remove.
fn temporaries() -> MutexGuard<'static, Temporaries> {
    TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner)
}

fn shutting_down() -> io::Error {
    io::Error::other("the process is ending; its temporary files were removed")
}

/// The file being written, before it replaces its target. On Linux it has no name at all
/// (`O_TMPFILE`): a process killed outright (`SIGKILL`, the OOM killer, a power cut) leaves
/// nothing behind, as the kernel frees a file no directory links to. Where the file system or
/// the kernel refuses that, or `/proc` (needed to give it a name later) is missing, it is a
/// named file (`.ttt-XXXXXXXXXXXX.tmp`) in the registry, which a `SIGKILL` would leave behind.
#[derive(Debug)]
pub(super) struct Temporary {
    pub(super) file: File,
    /// The directory it will be linked into, for a file with no name yet.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    dir: PathBuf,
    /// The name of a named file: absolute (tempfile makes it so), so a change of directory
    /// cannot misdirect the removal. Dropping the `Temporary` removes it, unless it was renamed
    /// into place or [`remove_temporary_files`] already removed it.
    path: Option<PathBuf>,
}

/// The prefix, random part and suffix of a temporary file's name.
fn temporary_names() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".ttt-").suffix(".tmp").rand_bytes(12);
    builder
}

impl Temporary {
    /// Creates a temporary file in `dir` with permission bits `mode` (less the umask): one with
    /// no name where the system allows, else a named one, registered under the lock so that no
    /// moment exists when it is on disk unregistered.
    pub(super) fn create_in(dir: &Path, mode: u32) -> io::Result<Temporary> {
        let mut registry = temporaries();
        if registry.closed {
            return Err(shutting_down());
        }
        #[cfg(target_os = "linux")]
        if !named_only()
            && let Some(file) = unnamed_in(dir, mode)?
        {
            return Ok(Temporary {
                file,
                dir: dir.to_path_buf(),
                path: None,
            });
        }
        // tempfile picks a random name and retries on a collision; the file is created
        // exclusively (O_EXCL: a link planted at the name is never followed). `make_in` rather
        // than `tempfile_in`, whose errors name the temporary path, which is no business of
        // the user's. tempfile removes the file on drop; `keep` hands that job to the registry,
        // which must also be able to remove it from the thread handling a signal.
        let (file, path) = temporary_names()
            .make_in(dir, |path| {
                OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(mode)
                    .open(path)
            })?
            .keep()
            .map_err(|error| error.error)?;
        registry.paths.push(path.clone());
        Ok(Temporary {
            file,
            dir: dir.to_path_buf(),
            path: Some(path),
        })
    }

    /// Puts the file in place as `target` (`existed` says whether the target was a file when
    /// it was opened), under the lock, so that [`remove_temporary_files`] never runs in the
    /// middle and no file is put in place after it.
    pub(super) fn persist(mut self, target: &Path, existed: bool) -> io::Result<()> {
        let mut registry = temporaries();
        if registry.closed {
            return Err(shutting_down());
        }
        let Some(path) = self.path.take() else {
            #[cfg(target_os = "linux")]
            return link_unnamed(&self.file, &self.dir, target, existed);
            #[cfg(not(target_os = "linux"))]
            unreachable!("a file with no name is only made on Linux");
        };
        let index = registry.position(&path);
        let renamed = fs::rename(&path, target);
        if renamed.is_err() {
            let _ = fs::remove_file(&path);
        }
        if let Some(index) = index {
            registry.paths.swap_remove(index);
        }
        renamed
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let Some(path) = &self.path else {
            return; // The kernel frees a file with no name when it is closed.
        };
        let mut registry = temporaries();
        if let Some(index) = registry.position(path) {
            let _ = fs::remove_file(path);
            registry.paths.swap_remove(index);
        }
    }
}

/// A file with no name in `dir` (`O_TMPFILE`), or `None` where the file system or the kernel
/// cannot make one, or `/proc` is missing (the link that names it goes through
/// `/proc/self/fd`): the caller then makes a named file.
#[cfg(target_os = "linux")]
fn unnamed_in(dir: &Path, mode: u32) -> io::Result<Option<File>> {
    if !Path::new("/proc/self/fd").is_dir() {
        return Ok(None);
    }
    let opened = OpenOptions::new()
        .write(true)
        .mode(mode)
        .custom_flags(libc::O_TMPFILE)
        .open(dir);
    match opened {
        Ok(file) => Ok(Some(file)),
        // EISDIR: a kernel older than O_TMPFILE reads it as O_DIRECTORY; EOPNOTSUPP and
        // EINVAL: a file system without it.
        Err(error)
            if matches!(
                error.raw_os_error(),
                Some(libc::EISDIR | libc::EOPNOTSUPP | libc::EINVAL)
            ) =>
        {
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Gives the file with no name its name, `target`, in `dir`. A target that did not exist is
/// linked at once (`linkat` never replaces: should a file have appeared there meanwhile, it
/// is replaced as an existing one). An existing target cannot be replaced by a link, so the
/// file is linked under a fresh hidden random name and renamed over it: only in the moment
/// between those two calls does the file have a name of its own, and a `SIGKILL` in that
/// moment would leave it (whole) beside the target; any other way out removes it.
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, dir: &Path, target: &Path, existed: bool) -> io::Result<()> {
    use std::os::fd::AsRawFd;

    let source = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    if !existed {
        match link(&source, target) {
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            linked => return linked,
        }
    }
    let ((), hidden) = temporary_names()
        .make_in(dir, |hidden| link(&source, hidden))?
        .keep()
        .map_err(|error| error.error)?;
    let renamed = fs::rename(&hidden, target);
    if renamed.is_err() {
        let _ = fs::remove_file(&hidden);
    }
    renamed
}

/// `linkat(2)` following `source`'s link: through `/proc/self/fd/N`, that is the open file
/// itself, which is how a file with no name gets one without privileges.
#[cfg(target_os = "linux")]
fn link(source: &Path, name: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;

    let c = |path: &Path| {
        CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
    };
    let (source, name) = (c(source)?, c(name)?);
    // SAFETY: both are valid NUL-terminated strings that outlive the call.
    let result = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            source.as_ptr(),
            libc::AT_FDCWD,
            name.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if result == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Whether to make named temporary files only, as where `O_TMPFILE` is refused: for tests.
#[cfg(not(test))]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn named_only() -> bool {
    false
}

#[cfg(test)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn named_only() -> bool {
    NAMED_ONLY.load(std::sync::atomic::Ordering::SeqCst)
}

/// Set by a test that needs the named temporary files of systems without `O_TMPFILE`.
#[cfg(test)]
pub(super) static NAMED_ONLY: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[cfg(test)]
mod tests {
    use super::NAMED_ONLY;
    use crate::output::Destination;
    use std::fs;
    use std::sync::atomic::Ordering;

    /// The named temporary files of systems without `O_TMPFILE`, in a process of its own
    /// (the switch is process-wide): a new file and a replaced one, and nothing left beside.
    #[test]
    fn named_temporary_files_replace_too() {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "output::temporary::tests::with_named_files_only",
                "--exact",
                "--ignored",
            ])
            .args(["--test-threads", "1", "--quiet"])
            .status()
            .unwrap();
        assert!(status.success(), "{status}");
    }

    #[test]
    #[ignore = "switches the process to named temporary files: run by named_temporary_files_replace_too"]
    fn with_named_files_only() {
        NAMED_ONLY.store(true, Ordering::SeqCst);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        let output = Destination::Path(path.clone()).open().unwrap();
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        output.write(|out| out.write_all(b"one\n")).unwrap();
        Destination::Path(path.clone())
            .open()
            .unwrap()
            .write(|out| out.write_all(b"two\n"))
            .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// A file with no name is linked in where nothing was, and renamed over a file that was
    /// there, or that appeared while it was written.
    #[test]
    fn an_unnamed_file_is_linked_or_renamed_into_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        let count = || fs::read_dir(dir.path()).unwrap().count();
        Destination::Path(path.clone())
            .open()
            .unwrap()
            .write(|out| out.write_all(b"new\n"))
            .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        Destination::Path(path.clone())
            .open()
            .unwrap()
            .write(|out| out.write_all(b"replaced\n"))
            .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "replaced\n");
        assert_eq!(count(), 1);

        let late = dir.path().join("late.txt");
        let output = Destination::Path(late.clone()).open().unwrap();
        fs::write(&late, "appeared meanwhile\n").unwrap();
        output.write(|out| out.write_all(b"ours\n")).unwrap();
        assert_eq!(fs::read_to_string(&late).unwrap(), "ours\n");
        assert_eq!(count(), 2);
    }
}
