"""A bot of the line protocol that marks the first empty cell, on any game: a real program,
flawed on purpose, for audits of games past 16 cells (tests/audit_cached.rs)."""

import sys

for line in sys.stdin:
    board = line.split()[0]
    print(board.index(".") + 1, flush=True)
