#!/usr/bin/env python3
"""A bot that breaks the line protocol in the way its first argument names, for tests.

Before anything it appends its process id to the file named by TTT_TEST_PIDFILE, if set (and
so does every process it starts), so a test can check that no bot process is left behind.
Until its misbehaviour starts it plays the first empty cell, or (for the modes that must never
lose) a perfect move.
"""
import fcntl
import os
import select
import subprocess
import sys
import termios
import time

mode = sys.argv[1]
# A block-buffered stream of our own, so "noflush" holds its replies back even where
# PYTHONUNBUFFERED is set.
buffered = open(sys.stdout.fileno(), "w", buffering=1 << 16, closefd=False)
pidfile = os.environ.get("TTT_TEST_PIDFILE")


def note_pid(pid):
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{pid}\n")


note_pid(os.getpid())

# The perfect player the well-behaved modes use: the example bot's own search.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "data", "bots"))
from minimax import best  # noqa: E402


def perfect(board, mark):
    return best(board, mark)[0]


def reply(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


if mode == "closeout":
    # Closes its output at once, and stays.
    os.close(1)
    time.sleep(30)
    sys.exit(0)

if mode == "slowstart":
    time.sleep(1.5)

if mode == "noread":
    # Answers one line for each request that arrives, without ever reading one, in a pipe made
    # as small as the system allows: the requests pile up until the pipe is full.
    F_SETPIPE_SZ = 1031
    fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
    seen = 0
    while True:
        select.select([0], [], [])
        waiting = int.from_bytes(fcntl.ioctl(0, termios.FIONREAD, b"\0\0\0\0"), "little")
        if waiting > seen:
            seen = waiting
            reply("1 2 3 4 5 6 7 8 9")
        else:
            time.sleep(0.0005)

if mode in ("setsid", "daemon"):
    # Leaves something behind that escapes the process group and holds our standard error.
    if mode == "setsid":
        child = subprocess.Popen(["sleep", "60"], start_new_session=True, stdout=subprocess.DEVNULL)
        note_pid(child.pid)
    elif os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            note_pid(os.getpid())
            os.closerange(0, 2)
            time.sleep(60)
        os._exit(0)
    time.sleep(0.1)

if mode == "banner":
    reply("Tic-tac-toe bot v1, ready")

if mode == "behind":
    # One reply behind: answers each request only once the next has come (the last at the end
    # of its input), as a bot that reads ahead and mixes up its queue would.
    previous = None
    for line in sys.stdin:
        if previous is not None:
            board = previous.split()[0]
            reply(str(board.index(".") + 1))
        previous = line
    sys.exit(0)

if mode == "early":
    # Announces its move as each request arrives, before reading it: a prompt, a guess.
    while True:
        select.select([0], [], [])
        reply("5")
        time.sleep(0.05)
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)

seen = set()
for count, line in enumerate(sys.stdin, start=1):
    board, mark = line.split()[:2]
    first = board.index(".") + 1
    if mode == "garbage":
        reply("banana")
    elif mode == "garbage-o" and mark == "O":
        reply("banana")
    elif mode == "garbage-x-slow-o":
        # Breaks the protocol at once as X; as O, takes its time over every request.
        if mark == "X":
            reply("banana")
        else:
            time.sleep(0.3)
            reply(str(first))
    elif mode == "log":
        # Never loses; writes each request to a file of its own process's, and answers every
        # optimal cell, so that the audit branches.
        with open(f"{os.environ['TTT_TEST_LOG']}.{os.getpid()}", "a") as log:
            log.write(line)
        reply(" ".join(map(str, best(board, mark))))
    elif mode == "zero":
        reply("0")
    elif mode == "ten":
        reply("10")
    elif mode == "plus":
        reply(f"+{first}")
    elif mode == "empty":
        reply("")
    elif mode == "sleep":
        time.sleep(30)
        reply(str(first))
    elif mode == "readone":
        time.sleep(30)
    elif mode == "exit" and count == 3:
        sys.exit(4)
    elif mode == "noflush":
        buffered.write(f"{first}\n")  # never flushed: the reply sits in the buffer
    elif mode == "stderr":
        if count == 1:
            sys.stderr.write("x" * 1_000_000 + "\n")  # far more than a pipe holds
        sys.stderr.write(f"thinking about request {count}\n")
        sys.stderr.flush()
        reply(str(first))
    elif mode == "taken":
        taken = [i + 1 for i, c in enumerate(board) if c != "."]
        reply(str(taken[0]) if taken else str(first))
    elif mode == "several":
        corners = [str(i + 1) for i in (0, 2, 6, 8) if board[i] == "."]
        reply(" ".join(corners) if corners else str(first))
    elif mode == "twice":
        # Never loses, but says so twice.
        cell = str(perfect(board, mark))
        reply(cell)
        reply(cell)
    elif mode == "debug":
        # Never loses, but tells stdout what it chose.
        cell = str(perfect(board, mark))
        reply(cell)
        reply(f"debug: chose {cell}")
    elif mode == "chatty":
        # Never loses, and says what it is thinking on standard error, as it should.
        sys.stderr.write(f"thinking about {board}\n")
        sys.stderr.flush()
        reply(str(perfect(board, mark)))
    elif mode == "crlf":
        # Never loses; its replies are the longest allowed, ended the Windows way.
        cell = str(perfect(board, mark))
        sys.stdout.write(cell + " " * 4095 + "\r\n")
        sys.stdout.flush()
    elif mode == "trailing":
        # Never loses; its replies end in spaces, within the limit.
        reply(str(perfect(board, mark)) + " " * 4000)
    elif mode == "long":
        reply(str(first) + " " * 5000)
    elif mode == "unended":
        # "5 5 5 ..." with no newline, more than any reply may hold.
        sys.stdout.write(f"{first} " * 5000)
        sys.stdout.flush()
        time.sleep(30)
    elif mode == "slow":
        time.sleep(0.02)
        reply(str(first))
    elif mode == "every-x-slow-o":
        # As X, every empty cell, at once; as O, the first empty cell, slowly.
        if mark == "X":
            reply(" ".join(str(i + 1) for i, c in enumerate(board) if c == "."))
        else:
            time.sleep(0.3)
            reply(str(first))
    elif mode == "every-once":
        # Every empty cell; asked the same request again, something else (a cell out of range).
        if line in seen:
            reply("0")
        else:
            seen.add(line)
            reply(" ".join(str(i + 1) for i, c in enumerate(board) if c == "."))
    elif mode == "every":
        # Every empty cell, on any board, without saying it answers from the board alone.
        reply(" ".join(str(i + 1) for i, c in enumerate(board) if c == "."))
    else:  # "first", "late", "setsid", "daemon", "slowstart": the first empty cell; can lose
        reply(str(first))

if mode == "late":
    reply("bye")

if mode == "killparent":
    # At the end of the first side, stops ttt, just as the next side is about to start.
    import signal
    os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(0.1)
