#!/usr/bin/env python3
"""A bot whose audit needs a great deal of memory, for the tests of the memory limit.

It answers every empty cell (a random choice among all of them), so that an audit of it on a
larger board meets nearly every history or position there is. With "setsid" as its first
argument it first starts a grandchild in a session of its own, which outlives it unless `ttt`
stops it. Every process appends its id to the file named by TTT_TEST_PIDFILE, if set, so that
a test can check that none is left running.
"""
import os
import subprocess
import sys

pidfile = os.environ.get("TTT_TEST_PIDFILE")


def note_pid(pid):
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{pid}\n")


note_pid(os.getpid())
if sys.argv[1:2] == ["setsid"]:
    child = subprocess.Popen(
        ["sleep", "60"],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    note_pid(child.pid)

for line in sys.stdin:
    board = line.split()[0]
    sys.stdout.write(" ".join(str(i + 1) for i, c in enumerate(board) if c == ".") + "\n")
    sys.stdout.flush()
