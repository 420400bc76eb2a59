//! Where `ttt` writes its output (`-o`): standard output, a regular file replaced atomically,
//! or anything else that exists (a device, a FIFO, `/dev/stdout`) written in place.
//!
//! What a path means, decided once for every command that writes:
//!
//! - `-` is standard output.
//! - A regular file, or a path that does not exist yet, is replaced atomically: the output goes
//!   to a new temporary file in the same directory, is synced to disk and put in place, and the
//!   directory is synced. On Linux the temporary file has no name (`O_TMPFILE`) until it is
//!   linked in, so that even a `SIGKILL` leaves nothing; elsewhere, or where the file system
//!   refuses that, it is `.ttt-XXXXXXXXXXXX.tmp`, created exclusively under an unpredictable
//!   name, and renamed over the path (see `output/temporary.rs`). An existing file keeps its permission bits and, where the process may set them,
//!   its owner and group; a new file gets `0666` minus the umask. The directory must be writable.
//! - A symbolic link is followed, the whole chain, and its final target is replaced; the links
//!   stay. A dangling link creates its target, as the shell's `>` does. Like the kernel with
//!   `fs.protected_symlinks`, a link in a sticky world-writable directory (such as `/tmp`) is only
//!   followed when it belongs to this user or to the directory's owner.
//! - Anything else that exists (a character or block device such as `/dev/null`, a FIFO) is
//!   opened and written in place, never replaced. So is any path that is in `/proc` or
//!   `/dev/fd`, or whose symbolic links pass through them (`/dev/stdout`, `/proc/self/fd/3`):
//!   those are opened as the shell's `>` opens them, truncating a regular file they lead to.
//! - A directory is an error.
//!
//! A temporary file never outlives a failed write, and [`remove_temporary_files`] removes the
//! ones being written when the process is stopped by a signal. Standard output is written
//! through [`StandardOutput`], which fails when it was closed as the program started.

mod stdout;
mod temporary;

use std::ffi::OsStr;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::text::quote;

pub use self::stdout::{StandardOutput, failed as standard_output_failed, standard_output};
use self::temporary::Temporary;
pub use self::temporary::remove_temporary_files;

/// Where output goes: standard output, or a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A path, written as the [module documentation](self) describes.
    Path(PathBuf),
}

impl Destination {
    /// The destination a command-line argument names: `-` is standard output, anything else a
    /// path (write `./-` for a file named `-`).
    pub fn from_arg(arg: impl AsRef<OsStr>) -> Destination {
        let arg = arg.as_ref();
        if arg == "-" {
            Destination::Stdout
        } else {
            Destination::Path(PathBuf::from(arg))
        }
    }

    /// Opens the destination for writing: locks standard output, opens a device in place, or
    /// creates the temporary file that will replace a regular file. Nothing is replaced until
    /// [`Output::write`] succeeds; dropping the [`Output`] removes the temporary file.
    ///
    /// # Errors
    ///
    /// When the path cannot be resolved or opened, names a directory, or its directory cannot
    /// hold a new file; or when [`remove_temporary_files`] has been called in this process.
    pub fn open(&self) -> Result<Output, WriteError> {
        let sink = match self {
            Destination::Stdout => Ok(Sink::Stdout(standard_output())),
            Destination::Path(path) => Sink::open(path),
        };
        match sink {
            Ok(sink) => Ok(Output {
                destination: self.clone(),
                sink,
            }),
            Err(error) => Err(WriteError {
                destination: self.clone(),
                error,
                opening: true,
            }),
        }
    }
}

/// Opens `path` to be replaced whole, as the files of `ttt solve`'s cache folder are: only a
/// path with nothing there or a regular file. Unlike a [`Destination`], a symbolic link there
/// is refused rather than followed, and so are a FIFO, a device and a folder; and since the
/// new file is put in place by a rename, which replaces the name itself, nothing put there
/// after this check is ever written through either.
///
/// # Errors
///
/// When something other than a regular file is at `path` (see
/// [`crate::table::disk::not_a_file`]), or as [`Destination::open`].
pub(crate) fn replace_file(path: &Path) -> Result<Output, WriteError> {
    let existing = match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(Some(metadata)),
        Ok(metadata) => Err(crate::table::disk::not_a_file(metadata.file_type())),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    };
    let destination = Destination::Path(path.to_path_buf());
    match existing.and_then(|existing| Sink::replace(path.to_path_buf(), existing)) {
        Ok(sink) => Ok(Output { destination, sink }),
        Err(error) => Err(WriteError {
            destination,
            error,
            opening: true,
        }),
    }
}

/// An opened [`Destination`], ready for one [`write`](Output::write).
#[derive(Debug)]
pub struct Output {
    destination: Destination,
    sink: Sink,
}

impl Output {
    /// Whether the output goes to a terminal (standard output or a terminal device written
    /// in place), where binary output has no business.
    pub fn is_terminal(&self) -> bool {
        match &self.sink {
            Sink::Stdout(stdout) => stdout.is_terminal(),
            Sink::InPlace(file) => file.is_terminal(),
            Sink::Replace { .. } => false,
        }
    }

    /// Writes what `contents` writes (through a buffer), then finishes: flushes standard
    /// output or the device, or syncs the temporary file, renames it over the destination
    /// and syncs the directory.
    ///
    /// # Errors
    ///
    /// When `contents` fails, or the output cannot be written, synced or renamed into place.
    /// A file being replaced is then left as it was, and the temporary file is removed.
    pub fn write(
        self,
        contents: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        let Output { destination, sink } = self;
        sink.write(contents).map_err(|error| WriteError {
            destination,
            error,
            opening: false,
        })
    }
}

/// Why output could not be written: the destination and the I/O error. Shown as one line,
/// `cannot write "PATH": reason`, the path quoted as every message quotes text from outside.
#[derive(Debug)]
pub struct WriteError {
    destination: Destination,
    error: io::Error,
    opening: bool,
}

impl WriteError {
    /// Where the output was going.
    pub fn destination(&self) -> &Destination {
        &self.destination
    }

    /// Whether the destination could not even be opened (a missing directory, a directory, a
    /// refused link), as opposed to failing while being written (a full disk, a closed pipe).
    pub fn when_opening(&self) -> bool {
        self.opening
    }

    /// The underlying error; its kind is [`io::ErrorKind::BrokenPipe`] when a reader went
    /// away.
    pub fn io_error(&self) -> &io::Error {
        &self.error
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.destination {
            Destination::Stdout => write!(f, "cannot write standard output: {}", self.error),
            Destination::Path(path) => write!(
                f,
                "cannot write {}: {}",
                quote(&path.display().to_string()),
                self.error
            ),
        }
    }
}

// The message already includes the I/O error, so it is not also given as the source.
impl std::error::Error for WriteError {}

/// Whether `error` says the output cannot take more (a full disk or quota, the file size
/// limit), is gone (a reader that went away) or failed in the device: reasons that are no fault
/// of the path, even when they come as the file is created.
pub fn is_full_or_broken(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::ENOSPC | libc::EDQUOT | libc::EFBIG | libc::EPIPE | libc::EIO)
    )
}

/// What an [`Output`] writes to.
#[derive(Debug)]
enum Sink {
    Stdout(StandardOutput),
    InPlace(File),
    Replace {
        temporary: Temporary,
        target: PathBuf,
        /// Whether the target was a file when it was opened.
        existed: bool,
    },
}

/// How many symbolic links a path may go through, as Linux allows (`ELOOP` beyond).
const MAX_LINKS: usize = 40;

impl Sink {
    fn open(path: &Path) -> io::Result<Sink> {
        // Walk the symbolic links one at a time rather than letting the kernel resolve the path:
        // what to do depends on where the chain passes and where it ends, even if it dangles.
        let mut current = path.to_path_buf();
        for _ in 0..=MAX_LINKS {
            if in_proc(&current) {
                return Sink::open_in_place(path, true);
            }
            let metadata = match fs::symlink_metadata(&current) {
                Ok(metadata) => metadata,
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    return Sink::replace(current, None);
                }
                Err(error) => return Err(error),
            };
            let kind = metadata.file_type();
            if kind.is_symlink() {
                may_follow(&current, &metadata)?;
                let target = fs::read_link(&current)?;
                current = directory_of(&current).join(target);
            } else if kind.is_file() {
                return Sink::replace(current, Some(metadata));
            } else if kind.is_dir() {
                return Err(io::Error::from_raw_os_error(libc::EISDIR));
            } else {
                return Sink::open_in_place(path, false);
            }
        }
        Err(io::Error::from_raw_os_error(libc::ELOOP))
    }

    /// Opens `path` for writing where it is. The kernel resolves it again; `through_proc`
    /// says whether it leads through `/proc`, where a regular file at the end is expected.
    fn open_in_place(path: &Path, through_proc: bool) -> io::Result<Sink> {
        let file = OpenOptions::new()
            .write(true)
            .truncate(through_proc)
            .custom_flags(libc::O_NOCTTY)
            .open(path)?;
        if !through_proc && file.metadata()?.is_file() {
            // It was a device or a FIFO a moment ago: never write into a regular file in place.
            return Err(io::Error::other(
                "the path changed while it was being opened",
            ));
        }
        Ok(Sink::InPlace(file))
    }

    /// Creates the temporary file that will replace `target`, a regular file (`existing`) or a
    /// path that does not exist yet.
    fn replace(target: PathBuf, existing: Option<fs::Metadata>) -> io::Result<Sink> {
        if target.as_os_str().is_empty() {
            return Err(io::Error::from_raw_os_error(libc::ENOENT));
        }
        if !names_a_file(&target) {
            return Err(io::Error::from_raw_os_error(libc::EISDIR));
        }
        let temporary = match &existing {
            // What any program creating a file gets: the kernel takes the umask off.
            None => Temporary::create_in(directory_of(&target), 0o666)?,
            Some(existing) => {
                // Private until it carries the old file's owner and permissions. chown clears
                // the set-user-ID and set-group-ID bits, so it goes first; it is best effort,
                // as only root may give a file away.
                let temporary = Temporary::create_in(directory_of(&target), 0o600)?;
                let _ = std::os::unix::fs::fchown(
                    &temporary.file,
                    Some(existing.uid()),
                    Some(existing.gid()),
                );
                temporary
                    .file
                    .set_permissions(fs::Permissions::from_mode(existing.mode() & 0o7777))?;
                temporary
            }
        };
        Ok(Sink::Replace {
            temporary,
            target,
            existed: existing.is_some(),
        })
    }

    fn write(self, contents: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match self {
            Sink::Stdout(stdout) => write_buffered(stdout, contents),
            Sink::InPlace(file) => write_buffered(file, contents),
            Sink::Replace {
                temporary,
                target,
                existed,
            } => {
                write_buffered(&temporary.file, contents)?;
                temporary.file.sync_all()?;
                temporary.persist(&target, existed)?;
                // So that the rename itself survives a crash. Best effort: some file systems
                // cannot sync a directory, and the file is in place either way.
                if let Ok(directory) = File::open(directory_of(&target)) {
                    let _ = directory.sync_all();
                }
                Ok(())
            }
        }
    }
}

fn write_buffered(
    out: impl Write,
    contents: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    contents(&mut out)?;
    out.flush()
}

/// The directory a path's last component lives in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Whether the path's last component can name a new file: not empty (a trailing `/`), `.` or
/// `..`. `Path::file_name` cannot tell, as it reads `a/b/` and `a/b/.` as `a/b`.
fn names_a_file(path: &Path) -> bool {
    let last = path.as_os_str().as_bytes().rsplit(|&b| b == b'/').next();
    !matches!(last, None | Some(b"" | b"." | b".."))
}

/// Whether `path` is in `/proc` or `/dev/fd`, where links such as `/proc/self/fd/1` lead to
/// whatever a descriptor holds (a pipe, a socket, a deleted file), not to a path to replace.
/// The directory is resolved, so `/dev/fd/1`, relative paths and links to those directories
/// count too.
fn in_proc(path: &Path) -> bool {
    let magic = |path: &Path| path.starts_with("/proc") || path.starts_with("/dev/fd");
    magic(path) || fs::canonicalize(directory_of(path)).is_ok_and(|dir| magic(&dir))
}

/// Refuses a link the kernel would refuse to follow with `fs.protected_symlinks` (on in most
/// distributions): one in a sticky world-writable directory, owned by neither this user nor
/// the directory's owner. Following links ourselves must not let a link planted in `/tmp`
/// send the output of a privileged user over a file elsewhere.
fn may_follow(link: &Path, link_metadata: &fs::Metadata) -> io::Result<()> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let user = unsafe { libc::geteuid() };
    if link_metadata.uid() == user {
        return Ok(());
    }
    let directory = fs::metadata(directory_of(link))?;
    const STICKY_AND_WORLD_WRITABLE: u32 = 0o1002;
    if directory.mode() & STICKY_AND_WORLD_WRITABLE != STICKY_AND_WORLD_WRITABLE
        || directory.uid() == link_metadata.uid()
    {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        "not following a symbolic link that another user owns in a sticky world-writable directory",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_slash_dot_or_dot_dot_names_no_file() {
        for path in ["a/b", "b", "/a/.b", "a/..b"] {
            assert!(names_a_file(Path::new(path)), "{path}");
        }
        for path in ["a/b/", "a/b/.", "a/..", "/", "", "."] {
            assert!(!names_a_file(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn proc_and_dev_fd_are_recognised_through_their_directories() {
        assert!(in_proc(Path::new("/proc/self/fd/1")));
        assert!(in_proc(Path::new("/dev/fd/1")));
        assert!(in_proc(Path::new("/proc")));
        assert!(!in_proc(Path::new("/dev/null")));
        assert!(!in_proc(Path::new("/tmp/proc")));
        assert!(!in_proc(Path::new("relative/proc/file")));
    }

    #[test]
    fn a_bare_name_lives_in_the_current_directory() {
        assert_eq!(directory_of(Path::new("out.jsonl")), Path::new("."));
        assert_eq!(directory_of(Path::new("/out.jsonl")), Path::new("/"));
        assert_eq!(directory_of(Path::new("a/out.jsonl")), Path::new("a"));
    }
}

#[cfg(test)]
mod examples {

    use super::Destination;

    type Checked = Result<(), Box<dyn std::error::Error>>;

    /// Removing every temporary file marks the process as ending, for good: the check runs in
    /// a process of its own, this test binary run again on the test below alone.
    #[test]
    fn a_signal_removes_every_temporary_file() -> Checked {
        let status = std::process::Command::new(std::env::current_exe()?)
            .args([
                "output::examples::what_a_signal_leaves",
                "--exact",
                "--ignored",
            ])
            .args(["--test-threads", "1", "--quiet"])
            .status()?;
        assert!(status.success(), "{status}");
        Ok(())
    }

    #[test]
    #[ignore = "ends the process's writes for good: run alone by a_signal_removes_every_temporary_file"]
    fn what_a_signal_leaves() -> Checked {
        use std::sync::atomic::Ordering;

        let dir = tempfile::tempdir()?;
        let path = dir.path().join("table.jsonl");
        let unnamed = Destination::Path(path.clone()).open()?; // on Linux, a file with no name
        let count = || std::fs::read_dir(dir.path()).map(Iterator::count);
        #[cfg(target_os = "linux")]
        assert_eq!(count()?, 0);
        // As where O_TMPFILE is refused: a named temporary file exists now.
        super::temporary::NAMED_ONLY.store(true, Ordering::SeqCst);
        let named = Destination::Path(path.clone()).open()?;
        #[cfg(target_os = "linux")]
        assert_eq!(count()?, 1);

        // What a signal-handling thread does before the process ends:
        std::thread::spawn(super::remove_temporary_files)
            .join()
            .unwrap();

        assert_eq!(count()?, 0);
        assert!(unnamed.write(|out| out.write_all(b"{}\n")).is_err());
        assert!(named.write(|out| out.write_all(b"{}\n")).is_err());
        assert!(!path.exists());
        Ok(())
    }
}
