//! Every bot running, and how each is taken back with everything it started: the process-wide
//! list of bots, the kill of a bot's process group and, on Linux, the walk of `/proc` that
//! freezes, kills and reaps its descendants (the `child` module's doc says what each way out
//! does, and on which systems).

use std::collections::{HashMap, HashSet};
use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// The group leaders (the `sh` of each bot) of every bot process running now; `None` once
/// [`stop_all`] has run, when no bot may start any more.
static RUNNING: Mutex<Option<Vec<u32>>> = Mutex::new(Some(Vec::new()));

/// Whether any bot was started in this program.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Whether this program has taken charge of its bots' descendants ([`take_charge`]).
static IN_CHARGE: AtomicBool = AtomicBool::new(false);

/// Whether this program ignores `SIGXFSZ` for itself only ([`restore_file_size_signal`]).
static RESTORE_SIGXFSZ: AtomicBool = AtomicBool::new(false);

/// Gives each bot started afterwards the default action of `SIGXFSZ` back, for a program that
/// ignores it for itself only: an ignored signal stays ignored across `exec`, and a bot should
/// meet the file size limit as it would have without this program in between.
pub(crate) fn restore_file_size_signal() {
    RESTORE_SIGXFSZ.store(true, Ordering::SeqCst);
}

/// Makes this program answerable for every process its bots start, on Linux: it becomes their
/// child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so that an orphaned descendant is
/// re-parented to it and can still be stopped; and each bot started afterwards is killed by
/// the kernel if the thread that started it dies (`PR_SET_PDEATHSIG`).
///
/// Meant for a program whose only children are bots, such as the `ttt` binary: afterwards any
/// orphan re-parented to this program counts as a bot's, and is stopped with the bot.
/// Elsewhere than on Linux it does nothing.
pub(crate) fn take_charge() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument and changes
        // only this process's attribute.
        if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        IN_CHARGE.store(true, Ordering::SeqCst);
    }
    Ok(())
}

/// Stops every bot process still running, with all it started. Safe to call from any thread
/// at any moment; the signal handler calls it before the program exits.
pub(crate) fn stop_all() {
    let leaders: Vec<u32> = lock_running().take().unwrap_or_default();
    for leader in leaders {
        stop_tree(leader);
        reap(leader, Duration::from_millis(500));
    }
    reap_orphans();
}

fn lock_running() -> std::sync::MutexGuard<'static, Option<Vec<u32>>> {
    // A panic while holding the lock cannot leave the list inconsistent: every change is a
    // single push or retain.
    RUNNING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts `shell` as a bot: in a process group of its own, listed among the bots running, and
/// (once this program is in charge, on Linux) killed by the kernel if the thread that started it
/// dies.
///
/// # Errors
///
/// The system's error, or an error when the program is ending ([`stop_all`] has run).
pub(super) fn spawn(shell: &mut Command) -> io::Result<Child> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        shell.process_group(0);
        if RESTORE_SIGXFSZ.load(Ordering::SeqCst) {
            // SAFETY: the closure runs in the child between fork and exec and calls only
            // signal(2) (sigaction underneath), which is async-signal-safe.
            unsafe {
                shell.pre_exec(|| {
                    libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
                    Ok(())
                });
            }
        }
    }
    #[cfg(target_os = "linux")]
    if IN_CHARGE.load(Ordering::SeqCst) {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the child between fork and exec and calls only
        // async-signal-safe functions (prctl, getppid, raise).
        unsafe {
            shell.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The parent may have died before the prctl took effect.
                if libc::getppid() != parent {
                    libc::raise(libc::SIGKILL);
                }
                Ok(())
            });
        }
    }
    // Registered under the lock, so that no signal can find it started but not listed.
    let mut running = lock_running();
    let Some(list) = running.as_mut() else {
        return Err(io::Error::other("the program is ending"));
    };
    let child = if cfg!(target_os = "linux") && IN_CHARGE.load(Ordering::SeqCst) {
        spawn_on_a_lasting_thread(shell)?
    } else {
        shell.spawn()?
    };
    STARTED.store(true, Ordering::SeqCst);
    list.push(child.id());
    drop(running);
    Ok(child)
}

/// Starts `shell` from one thread that lasts as long as the program. `PR_SET_PDEATHSIG` fires
/// when the *thread* that started a child ends, not the process: a bot started by an audit's
/// thread for one side, or for a second pass, and still asked after that thread ended, was
/// killed by signal 9 in the middle of its audit.
fn spawn_on_a_lasting_thread(shell: &mut Command) -> io::Result<Child> {
    type Job = (Command, mpsc::Sender<(Command, io::Result<Child>)>);
    static SPAWNER: OnceLock<Option<Mutex<mpsc::Sender<Job>>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (jobs, incoming) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("ttt-spawner".into())
            .spawn(move || {
                for (mut command, reply) in incoming {
                    let child = command.spawn();
                    let _ = reply.send((command, child));
                }
            })
            .ok()
            .map(|_| Mutex::new(jobs))
    });
    let Some(spawner) = spawner else {
        return shell.spawn();
    };
    let (reply, answer) = mpsc::channel();
    let command = std::mem::replace(shell, Command::new(""));
    let sent = spawner
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .send((command, reply));
    if let Err(mpsc::SendError((command, _))) = sent {
        *shell = command;
        return shell.spawn();
    }
    let (command, child) = answer
        .recv()
        .map_err(|_| io::Error::other("the thread that starts bots stopped"))?;
    *shell = command;
    child
}

/// Takes the bot led by `leader` off the list of bots running, once it is stopped.
pub(super) fn unlist(leader: u32) {
    if let Some(list) = lock_running().as_mut() {
        list.retain(|&pid| pid != leader);
    }
}

/// Kills the process group led by `leader` and, on Linux, every descendant of `leader` and
/// (once in charge) every other orphan re-parented to this program, frozen first so that
/// none can fork meanwhile.
pub(super) fn stop_tree(leader: u32) {
    #[cfg(target_os = "linux")]
    let frozen = freeze_descendants(leader);
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(leader) {
        // SAFETY: kill(2) with a negative pid signals that process group, nothing else.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(target_os = "linux")]
    {
        for &pid in &frozen {
            signal(pid, libc::SIGKILL);
        }
        // The killed that were re-parented to us are ours to reap; a process is re-parented
        // when its parent dies, which may be a moment after the kill.
        let me = std::process::id();
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut left: Vec<u32> = frozen.into_iter().filter(|&pid| pid != leader).collect();
        while !left.is_empty() && Instant::now() < deadline {
            left.retain(|&pid| match parent_of(pid) {
                None => false,
                Some(parent) if parent == me => !reaped(pid),
                Some(_) => true,
            });
            if !left.is_empty() {
                thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

#[cfg(target_os = "linux")]
fn signal(pid: u32, signal: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) on one process id, with a valid signal.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

/// Reaps the dead children a bot left unreaped, re-parented to this program when the bot died
/// (once in charge; the bots' own leaders are reaped where they are waited for).
pub(super) fn reap_orphans() {
    // No bot, no orphan: a program that started none does not walk /proc on its way out.
    #[cfg(target_os = "linux")]
    if IN_CHARGE.load(Ordering::SeqCst) && STARTED.load(Ordering::SeqCst) {
        let me = std::process::id();
        let leaders: HashSet<u32> = lock_running().iter().flatten().copied().collect();
        for (pid, parent, state) in processes() {
            if parent == me && state == 'Z' && !leaders.contains(&pid) {
                reaped(pid);
            }
        }
    }
}

/// Reaps the child `pid` if it has ended; whether it had (or is gone).
#[cfg(target_os = "linux")]
fn reaped(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    let mut status = 0;
    // SAFETY: waitpid on one process id with a valid pointer to an int.
    unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) != 0 }
}

/// Waits up to `patience` for the child `pid` to end, and reaps it.
fn reap(pid: u32, patience: Duration) {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return;
    };
    let deadline = Instant::now() + patience;
    loop {
        let mut status = 0;
        // SAFETY: waitpid on one process id with a valid pointer to an int.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done != 0 || Instant::now() >= deadline {
            return;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Stops (SIGSTOP) the whole tree under `leader`, and any orphan this program adopted, until a
/// walk of `/proc` finds no live process of it left running; returns every process stopped.
#[cfg(target_os = "linux")]
fn freeze_descendants(leader: u32) -> Vec<u32> {
    let me = std::process::id();
    // Held to the end: a bot is started and listed under this lock, so no child of this
    // program seen in /proc meanwhile can be a bot just started and not yet listed, taken
    // for an orphan and killed (a CI run saw a bot started for a second pass killed so, by
    // signal 9, as the first pass's was stopped).
    let running = lock_running();
    let others: HashSet<u32> = running
        .iter()
        .flatten()
        .copied()
        .filter(|&pid| pid != leader)
        .collect();
    let in_charge = IN_CHARGE.load(Ordering::SeqCst);
    let mut frozen: Vec<u32> = Vec::new();
    let mut seen: HashSet<u32> = HashSet::new();
    // Each round freezes what the last one missed (a child forked meanwhile); a tree stops
    // growing once all of it is frozen.
    for _ in 0..64 {
        let table = processes();
        let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
        for &(pid, parent, _) in &table {
            children.entry(parent).or_default().push(pid);
        }
        let mut roots = vec![leader];
        if in_charge {
            roots.extend(
                children
                    .get(&me)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|pid| *pid != leader && !others.contains(pid)),
            );
        }
        let zombie: HashSet<u32> = table
            .iter()
            .filter(|(_, _, state)| matches!(state, 'Z' | 'X'))
            .map(|&(pid, _, _)| pid)
            .collect();
        let mut fresh = Vec::new();
        let mut stack = roots;
        while let Some(pid) = stack.pop() {
            if !zombie.contains(&pid) && seen.insert(pid) {
                fresh.push(pid);
            }
            stack.extend(children.get(&pid).into_iter().flatten().copied());
        }
        // Orphans already dead still need reaping.
        if in_charge {
            for &pid in children.get(&me).into_iter().flatten() {
                let ours = zombie.contains(&pid) && pid != leader && !others.contains(&pid);
                if ours && seen.insert(pid) {
                    frozen.push(pid);
                }
            }
        }
        if fresh.is_empty() {
            break;
        }
        for &pid in &fresh {
            signal(pid, libc::SIGSTOP);
        }
        frozen.extend(fresh);
    }
    drop(running);
    frozen
}

/// Every process: its id, its parent's, and its state letter, from `/proc/PID/stat`.
#[cfg(target_os = "linux")]
fn processes() -> Vec<(u32, u32, char)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (state, parent) = parse_stat(&stat)?;
            Some((pid, parent, state))
        })
        .collect()
}

/// The state letter and parent id from the text of `/proc/PID/stat`, whose second field (the
/// command name, in parentheses) may itself hold spaces and parentheses.
#[cfg(target_os = "linux")]
fn parse_stat(stat: &str) -> Option<(char, u32)> {
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

#[cfg(target_os = "linux")]
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&stat).map(|(_, parent)| parent)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_command_names() {
        assert_eq!(parse_stat("42 (a) b) (c) S 7 42 42 0 -1"), Some(('S', 7)));
        assert_eq!(parse_stat("garbage"), None);
    }
}
