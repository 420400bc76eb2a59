#!/usr/bin/env python3
"""A tic-tac-toe bot that never loses: minimax with memo, for `ttt audit --cmd`.

Speaks the ttt-oracle line protocol: each request on stdin is
"<board> <mark> <moves...>" (board as 9 chars of X, O, . row-major), and each reply is
one line with the cells (1..9) it may play. It answers every optimal cell, so the audit
explores them all. Among wins it takes the fastest, among losses the slowest.
"""
import sys
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


@lru_cache(maxsize=None)
def value(board, mark):
    """For `mark`, to move: positive if it wins, 0 for a draw, negative if it loses; a win
    scores more the sooner it comes, a loss less the sooner it comes."""
    if winner(board):
        return -(1 + board.count("."))  # the opponent just made a line
    if "." not in board:
        return 0
    other = "O" if mark == "X" else "X"
    return max(-value(board[:i] + mark + board[i + 1:], other) for i in range(9) if board[i] == ".")


def best(board, mark):
    other = "O" if mark == "X" else "X"
    scores = {i: -value(board[:i] + mark + board[i + 1:], other) for i in range(9) if board[i] == "."}
    top = max(scores.values())
    return [i + 1 for i, s in scores.items() if s == top]


if __name__ == "__main__":
    for line in sys.stdin:
        board, mark = line.split()[:2]
        print(" ".join(map(str, best(board, mark))), flush=True)
