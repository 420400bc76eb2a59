#!/usr/bin/env python3
"""A bot that breaks the line protocol in the way its first argument names, for tests.

Before anything it appends its process id to the file named by TTT_TEST_PIDFILE, if set, so a
test can check that no bot process is left behind. Until its misbehaviour starts it plays the
first empty cell.
"""
import os
import sys
import time

mode = sys.argv[1]
# A block-buffered stream of our own, so "noflush" holds its replies back even where
# PYTHONUNBUFFERED is set.
buffered = open(sys.stdout.fileno(), "w", buffering=1 << 16, closefd=False)
pidfile = os.environ.get("TTT_TEST_PIDFILE")
if pidfile:
    with open(pidfile, "a") as f:
        f.write(f"{os.getpid()}\n")

for count, line in enumerate(sys.stdin, start=1):
    board = line.split()[0]
    first = board.index(".") + 1
    if mode == "garbage":
        reply = "banana"
    elif mode == "zero":
        reply = "0"
    elif mode == "ten":
        reply = "10"
    elif mode == "empty":
        reply = ""
    elif mode == "sleep":
        time.sleep(30)
        reply = str(first)
    elif mode == "exit" and count == 3:
        sys.exit(4)
    elif mode == "noflush":
        buffered.write(f"{first}\n")  # never flushed: the reply sits in the buffer
        continue
    elif mode == "stderr":
        if count == 1:
            sys.stderr.write("x" * 1_000_000 + "\n")  # far more than a pipe holds
        sys.stderr.write(f"thinking about request {count}\n")
        sys.stderr.flush()
        reply = str(first)
    elif mode == "taken":
        taken = [i + 1 for i, c in enumerate(board) if c != "."]
        reply = str(taken[0]) if taken else str(first)
    elif mode == "several":
        corners = [str(i + 1) for i in (0, 2, 6, 8) if board[i] == "."]
        reply = " ".join(corners) if corners else str(first)
    else:  # "first": plays the first empty cell, and can lose
        reply = str(first)
    print(reply, flush=True)
