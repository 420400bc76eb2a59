#!/usr/bin/env python3
"""A bot that plays perfectly when it can tell it is being audited, and badly otherwise.

An audit writes requests ahead of the reply it awaits, so after reading a request this bot
looks (with a zero timeout) for more input already waiting. Once it has seen some it knows it
is audited, for the rest of its life, and plays perfectly (minimax, any game from TTT_ROWS,
TTT_COLUMNS and TTT_K); until then, as in a game, it plays the first empty cell, which loses.

With the argument "history" it never loses, but breaks the promise of `--stateless`: among
its optimal cells it plays the first when the opponent made its moves in increasing order of
cells, the last otherwise. A `--stateless` audit asks each board once, with one history.

With the argument "crash" or "hang" it plays perfectly, but asked a second request with nothing
queued, never having seen a queue (as when asked again one request at a time), it exits with
code 5, or stops answering.

Before anything it appends its process id to the file named by TTT_TEST_PIDFILE, if set, so a
test can check that no process is left behind.
"""
import os
import select
import sys
import time
from functools import lru_cache

mode = sys.argv[1] if len(sys.argv) > 1 else "queue"

pidfile = os.environ.get("TTT_TEST_PIDFILE")
if pidfile:
    with open(pidfile, "a") as f:
        f.write(f"{os.getpid()}\n")

ROWS = int(os.environ.get("TTT_ROWS", "3"))
COLUMNS = int(os.environ.get("TTT_COLUMNS", "3"))
K = int(os.environ.get("TTT_K", "3"))
CELLS = ROWS * COLUMNS


def lines():
    found = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (K - 1), c + dc * (K - 1)
                if 0 <= end_r < ROWS and 0 <= end_c < COLUMNS:
                    found.append([(r + dr * i) * COLUMNS + c + dc * i for i in range(K)])
    return found


LINES = lines()


def won(board):
    return any(board[a] != "." and all(board[i] == board[a] for i in line) for line in LINES for a in line[:1])


@lru_cache(maxsize=None)
def value(board, mark):
    """For `mark`, to move: 1 win, 0 draw, -1 loss."""
    if won(board):
        return -1
    if "." not in board:
        return 0
    other = "O" if mark == "X" else "X"
    best = -1
    for i in range(CELLS):
        if board[i] == ".":
            best = max(best, -value(board[:i] + mark + board[i + 1:], other))
            if best == 1:
                break
    return best


def optimal(board, mark):
    other = "O" if mark == "X" else "X"
    scores = {i: -value(board[:i] + mark + board[i + 1:], other) for i in range(CELLS) if board[i] == "."}
    top = max(scores.values())
    return [i + 1 for i, s in scores.items() if s == top]


def requests():
    """Each request line, and whether more input was already waiting when it was read."""
    pending = b""
    while True:
        while b"\n" not in pending:
            chunk = os.read(0, 65536)
            if not chunk:
                return
            pending += chunk
        line, pending = pending.split(b"\n", 1)
        waiting = bool(pending) or bool(select.select([0], [], [], 0)[0])
        yield line.decode(), waiting


audited = False
for count, (line, waiting) in enumerate(requests(), start=1):
    board, mark, *moves = line.split()
    first = board.index(".") + 1
    if mode == "history":
        theirs = [int(m) for m in moves[(0 if mark == "O" else 1)::2]]
        cells = optimal(board, mark)
        cell = cells[0] if theirs == sorted(theirs) else cells[-1]
    else:
        audited = audited or waiting
        if mode in ("crash", "hang"):
            if not audited and count >= 2:
                if mode == "crash":
                    sys.exit(5)
                time.sleep(30)
            cell = optimal(board, mark)[0]
        else:
            cell = optimal(board, mark)[0] if audited else first
    sys.stdout.write(f"{cell}\n")
    sys.stdout.flush()
