"""A perfect bot over the line protocol, for `ttt audit --cmd`: the same function the
in-process audits take, so that both ways audit one bot."""

import sys

import ttt_oracle

oracle = ttt_oracle.Oracle()


def perfect(board, to_move):
    return oracle.best_move(board)


if __name__ == "__main__":
    for line in sys.stdin:
        board, mark = line.split()[:2]
        print(perfect(board, mark), flush=True)
