#!/usr/bin/env python3
"""Runs a program on a terminal of its own (a pseudo-terminal) and types into it.

    python3 tests/terminal.py PROGRAM ARGS_JSON STEPS_JSON

STEPS_JSON is a list of [what to wait for, what to type then]. Prints what the terminal
showed, with its line ends as "\n", and exits as the program did; gives up after 10 seconds.
A PROGRAM without a "/" is looked up on the PATH. The tests of `ttt play` on a terminal use
it, and so do the pages that show such a session (tests/integration/docs.rs runs them).
"""
import shutil
import json, os, pty, select, signal, sys, time

binary, args, steps = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
if "/" not in binary:
    binary = shutil.which(binary) or binary
pid, fd = pty.fork()
if pid == 0:
    os.execv(binary, [binary] + args)
deadline = time.monotonic() + 10
seen = b""

def give_up(why):
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    sys.exit(why + "; the terminal showed:\n" + seen.decode(errors="replace"))

def read_more():
    """Reads what is there; False once ttt has closed the terminal."""
    global seen
    left = deadline - time.monotonic()
    if left <= 0:
        give_up("timed out")
    ready, _, _ = select.select([fd], [], [], left)
    if not ready:
        return True
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # EIO on Linux once the other end is closed
        chunk = b""
    seen += chunk
    return bool(chunk)

cursor = 0
for expect, send in steps:
    want = expect.encode()
    while want not in seen[cursor:]:
        if not read_more():
            give_up(f"ttt ended before showing {expect!r}")
    cursor = seen.index(want, cursor) + len(want)
    os.write(fd, send.encode())
while read_more():
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode().replace("\r\n", "\n"))
sys.exit(os.waitstatus_to_exitcode(status))
